"""Canonicalization patterns of the `memref` ops, in the spirit of MLIR's folders.

`PATTERNS` holds them by op name; every memref op declares the table through the
`CanonicalizedBy` trait that `memplan.dialects.mlir.memref` adds to the op classes
(xDSL's, and so memplan's subclasses, which share their traits), so memplan's
canonicalize, apply-patterns and stock `xdsl-opt -p canonicalize` all apply them.
What they do is what upstream's `MemRefOps.cpp` does; the code is memplan's:

- casts: `cast` to its own type is its source, a chain of casts is one cast; a
  cast that only forgets static facts (`4xf32` to `?xf32`) is looked through by
  the ops that read or write the buffer (load, store's buffer, atomic_rmw, copy,
  dealloc, dim, subview, collapse_shape); never where the cast value is data (a
  store of the buffer itself).
- shapes: `dim` of a static size is a constant, of an allocation or a sized view
  its size operand, of `memref.reshape` a load of the shape buffer placed at the
  reshape (only when the index is already known there); `rank` of a ranked memref
  is a constant.
- allocations: constant dynamic sizes become static (a negative one stays
  dynamic) with a cast back to the old type; an allocation only written to or
  freed is erased with those writes.
- views: identity and reverse `expand_shape`/`collapse_shape` pairs fold,
  collapse-of-collapse and expand-of-expand compose; subviews fold constant
  operands (keeping negative sizes, zero strides and out-of-bounds slices
  dynamic), fold a trivial subview to its source or a cast, a no-op subview of a
  subview to its source; `reinterpret_cast` of a view of a buffer reinterprets the
  buffer, of `extract_strided_metadata` with matching metadata is a cast;
  transposes compose; `memory_space_cast` chains collapse.
- copies: a copy to itself or of zero elements is erased.
- `alloca_scope`: inlined when it allocates nothing on its stack, or when it ends
  the body of another scope; its stack allocations hoisted out of a chain of
  non-scope regions that it ends (MLIR's `AllocaScopeInliner`/`Hoister`).

Every rewrite keeps the result type: when the rewritten value's type is more
static, a `memref.cast` back to the old type is inserted.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from math import prod
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import ConstantLike, IsTerminator, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from memplan.analysis.purity import effects_of
from memplan.dialects.mlir import memref as mmemref
from memplan.analysis.memref_layout import strides_and_offset
from memplan.dialects.mlir.memref_ops import ReallocOp, ReshapeOp, TransposeOp
from memplan.interfaces import (
    class_has_trait,
    AutomaticAllocation,
    AutomaticAllocationScope,
    MemoryEffectKind,
    get_interface,
    memory_effects,
)
from memplan.passes.patterns.common import available_at

__all__ = ["PATTERNS", "cast_folds_into_consumer", "constant_index", "infer_subview_type"]

DYN = DYNAMIC_INDEX


# ---------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------


def constant_index(value: SSAValue) -> int | None:
    """The integer a constant-like op gives `value`, or None."""
    owner = value.owner
    if not isinstance(owner, Operation) or not class_has_trait(
        owner, ConstantLike, value_if_unregistered=False
    ):
        return None
    attr = owner.properties.get("value")
    if attr is None:
        attr = owner.attributes.get("value")
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType | IntegerType):
        return attr.value.data
    return None


def _index_constant(rewriter: PatternRewriter, value: int) -> SSAValue:
    op = arith.ConstantOp(IntegerAttr(value, IndexType()))
    rewriter.insert(op)
    return op.result


def _replace_keeping_type(
    rewriter: PatternRewriter, op: Operation, new_ops: Sequence[Operation], value: SSAValue
) -> None:
    """Replace `op`'s single result by `value` (of `new_ops`), cast back to the old
    type when it differs."""
    old_type = op.results[0].type
    ops = list(new_ops)
    if value.type != old_type:
        cast_op = mmemref.CastOp.create(operands=[value], result_types=[old_type])
        ops.append(cast_op)
        value = cast_op.results[0]
    rewriter.replace(op, ops, [value])


def cast_folds_into_consumer(value: SSAValue) -> SSAValue | None:
    """When `value` is a `memref.cast` that only makes static facts dynamic, its
    source (users may use it instead, as MLIR's `foldMemRefCast`); else None."""
    op = value.owner
    if not isinstance(op, xmemref.CastOp):
        return None
    src, dst = op.source.type, op.dest.type
    if not isinstance(src, MemRefType) or not isinstance(dst, MemRefType):
        return None
    if src.element_type != dst.element_type or src.memory_space != dst.memory_space:
        return None
    if src.get_num_dims() != dst.get_num_dims():
        return None
    for a, b in zip(src.get_shape(), dst.get_shape()):
        if a == DYN and b != DYN:
            return None
    sa, sb = strides_and_offset(src), strides_and_offset(dst)
    if sa is None or sb is None:
        return None
    for a, b in zip([*sa[0], sa[1]], [*sb[0], sb[1]]):
        if a == DYN and b != DYN:
            return None
    return op.source


def _mixed(static: DenseArrayBase, dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    values = iter(dynamic)
    return [next(values) if s == DYN else s for s in static.get_values()]


def _split(mixed: Sequence[int | SSAValue]) -> tuple[list[int], list[SSAValue]]:
    return (
        [DYN if isinstance(m, SSAValue) else m for m in mixed],
        [m for m in mixed if isinstance(m, SSAValue)],
    )


def _static_value(m: int | SSAValue) -> int | None:
    return m if isinstance(m, int) else constant_index(m)


def _mul(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return DYN if a == DYN or b == DYN else a * b


def _add(a: int, b: int) -> int:
    return DYN if a == DYN or b == DYN else a + b


def infer_subview_type(
    source: MemRefType, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> MemRefType | None:
    """MLIR's non-rank-reduced subview type (DYN entries dynamic), or None when the
    source layout is not strided."""
    layout = strides_and_offset(source)
    if layout is None:
        return None
    source_strides, offset = layout
    for off, stride in zip(offsets, source_strides):
        offset = _add(offset, _mul(off, stride))
    new_strides = [_mul(a, b) for a, b in zip(source_strides, strides)]
    return MemRefType(
        source.element_type,
        list(sizes),
        StridedLayoutAttr(
            [None if s == DYN else s for s in new_strides], None if offset == DYN else offset
        ),
        source.memory_space,
    )


def _dropped_dims(
    source: MemRefType, result: MemRefType, sizes: Sequence[int]
) -> set[int] | None:
    """Which source dims a rank-reducing subview drops (MLIR's
    `computeMemRefRankReductionMask`): unit sizes whose strides are gone."""
    drop = {i for i, s in enumerate(sizes) if s == 1}
    rank, reduced = source.get_num_dims(), result.get_num_dims()
    if rank == reduced:
        return set()
    if len(drop) + reduced == rank:
        return drop
    sa, sb = strides_and_offset(source), strides_and_offset(result)
    if sa is None or sb is None:
        return None
    unaccounted: dict[int, int] = {}
    for s in sa[0]:
        unaccounted[s] = unaccounted.get(s, 0) + 1
    wanted: dict[int, int] = {}
    for s in sb[0]:
        wanted[s] = wanted.get(s, 0) + 1
    for dim in sorted(drop):
        stride = sa[0][dim]
        have, want = unaccounted.get(stride, 0), wanted.get(stride, 0)
        if have > want:
            unaccounted[stride] = have - 1
        elif have == want:
            drop.discard(dim)
        else:
            return None
    return drop if len(drop) + reduced == rank else None


def _subview_type(
    old_result: MemRefType,
    old_source: MemRefType,
    new_source: MemRefType,
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
) -> MemRefType | None:
    """MLIR's `getCanonicalSubViewResultType`: the type inferred from `new_source`
    with the dims the old op dropped removed."""
    full = infer_subview_type(new_source, offsets, sizes, strides)
    drop = _dropped_dims(old_source, old_result, sizes)
    if full is None or drop is None:
        return None
    layout = cast(StridedLayoutAttr, full.layout)
    keep = [i for i in range(full.get_num_dims()) if i not in drop]
    shape = full.get_shape()
    all_strides = layout.get_strides()
    return MemRefType(
        full.element_type,
        [shape[i] for i in keep],
        StridedLayoutAttr([all_strides[i] for i in keep], layout.get_offset()),
        full.memory_space,
    )


def _in_bounds(source: MemRefType, offsets, sizes, strides) -> bool:
    """MLIR's static slice bounds check, for the dims where everything is static."""
    for dim, off, size, stride in zip(source.get_shape(), offsets, sizes, strides):
        if DYN in (dim, off, size, stride) or size <= 0:
            continue
        last = off + (size - 1) * stride
        if not (0 <= off < dim and 0 <= last < dim):
            return False
    return True


def _build_subview(
    source: SSAValue, mixed: tuple[list, list, list], result_type: MemRefType
) -> xmemref.SubviewOp:
    (so, do), (ss, ds), (st, dt) = (_split(m) for m in mixed)
    return xmemref.SubviewOp(source, do, ds, dt, so, ss, st, result_type)


def _subview_mixed(op: xmemref.SubviewOp) -> tuple[list, list, list]:
    return (
        _mixed(op.static_offsets, op.offsets),
        _mixed(op.static_sizes, op.sizes),
        _mixed(op.static_strides, op.strides),
    )


class _OnType(RewritePattern):
    """A pattern for ops of one class (`op_type`), written as `rewrite(op, r)`."""

    op_type: type[Operation] = Operation

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, self.op_type):
            self.rewrite(op, rewriter)

    @abc.abstractmethod
    def rewrite(self, op, rewriter: PatternRewriter) -> None:
        """Rewrite `op`, an instance of `op_type`."""


# ---------------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------------


class FoldCastChain(RewritePattern):
    """A cast-like op (`memref.cast`, `memory_space_cast`) to its own type is its
    source; a chain of two is the first's source when that has the result type,
    else one cast from it when `merges(chain)` allows."""

    def __init__(self, op_type: type[Operation], merges: Callable[[Operation], bool]):
        self.op_type = op_type
        self.merges = merges

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.op_type):
            return
        source, result = op.operands[0], op.results[0]
        if source.type == result.type:
            rewriter.replace(op, [], [source])
            return
        inner = source.owner
        if not isinstance(inner, self.op_type):
            return
        origin = inner.operands[0]
        if origin.type == result.type:
            rewriter.replace(op, [], [origin])
        elif self.merges(op):
            cls = _MLIR_SYNTAX_CLASS.get(self.op_type, self.op_type)
            rewriter.replace(op, cls.create(operands=[origin], result_types=[result.type]))


def _cast_chain_merges(op: Operation) -> bool:
    """`cast(cast(x))` is one cast of `x` when the inner cast only forgets facts
    and `x` casts to the result type."""
    origin = op.operands[0].owner.operands[0]
    return cast_folds_into_consumer(op.operands[0]) is not None and (
        mmemref.memref_cast_compatible(origin.type, op.results[0].type)
    )


_MLIR_SYNTAX_CLASS: dict[type[Operation], type[Operation]] = {
    xmemref.CastOp: mmemref.CastOp,
    xmemref.MemorySpaceCastOp: mmemref.MemorySpaceCastOp,
}


class FoldCastOperands(RewritePattern):
    """Use the source of a static-facts-forgetting cast for the buffer operands
    named by `fields` (MLIR's `foldMemRefCast`)."""

    def __init__(self, op_type: type[Operation], *fields: str):
        self.op_type = op_type
        self.indices = tuple(
            [name for name, _ in op_type.get_irdl_definition().operands].index(f)
            for f in fields
        )

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.op_type):
            return
        for index in self.indices:
            source = cast_folds_into_consumer(op.operands[index])
            if source is None:
                continue
            before = list(op.operands)
            op.operands = [source if i == index else v for i, v in enumerate(before)]
            try:
                op.verify()
            except VerifyException:
                # The cast was all that made the types agree (the IR would fail
                # at run time); keep it.
                op.operands = before
                continue
            rewriter.notify_op_modified(op)


# ---------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------


class FoldDim(_OnType):
    """`dim` of a static size, of an allocation's or sized view's size operand, of a
    reshape (a load of the shape buffer where the reshape reads it)."""

    op_type = xmemref.DimOp

    def rewrite(self, op: xmemref.DimOp, rewriter: PatternRewriter) -> None:
        source = op.source
        index = constant_index(op.index)
        source_op = source.owner
        if isinstance(source_op, ReshapeOp):
            self._of_reshape(op, source_op, rewriter)
            return
        t = source.type
        if index is None or not isinstance(t, MemRefType):
            return
        if not 0 <= index < t.get_num_dims():
            return
        size = t.get_shape()[index]
        if size != DYN:
            const = arith.ConstantOp(IntegerAttr(size, IndexType()))
            rewriter.replace(op, const)
            return
        value = _dynamic_size_of(source, index)
        if value is not None:
            rewriter.replace(op, [], [value])

    @staticmethod
    def _of_reshape(op: xmemref.DimOp, reshape: ReshapeOp, rewriter: PatternRewriter):
        if not available_at(op.index, reshape):
            return
        shape = reshape.shape
        load = xmemref.LoadOp.get(shape, [op.index])
        new_ops: list[Operation] = [load]
        value: SSAValue = load.res
        if not isinstance(value.type, IndexType):
            index_cast = arith.IndexCastOp(value, IndexType())
            new_ops.append(index_cast)
            value = index_cast.result
        rewriter.insert(new_ops, InsertPoint.after(reshape))
        rewriter.replace(op, [], [value])


def _dynamic_size_of(value: SSAValue, index: int) -> SSAValue | None:
    """The SSA size of dynamic dim `index` of `value` when its defining op states
    it: an allocation's dynamic sizes, a view's or a subview's size operands."""
    op = value.owner
    t = cast(MemRefType, value.type)
    dynamic_position = sum(1 for d in t.get_shape()[:index] if d == DYN)
    if isinstance(op, xmemref.AllocOp | xmemref.AllocaOp):
        return op.dynamic_sizes[dynamic_position]
    if isinstance(op, xmemref.ViewOp):
        return op.sizes[dynamic_position]
    if isinstance(op, xmemref.ReinterpretCastOp):
        sizes = _mixed(op.static_sizes, op.sizes)
        return sizes[index] if isinstance(sizes[index], SSAValue) else None
    if isinstance(op, xmemref.SubviewOp):
        sizes = _mixed(op.static_sizes, op.sizes)
        source = cast(MemRefType, op.source.type)
        static = [_static_value(s) for s in sizes]
        drop = _dropped_dims(source, t, [DYN if v is None else v for v in static])
        if drop is None:
            return None
        kept = [i for i in range(len(sizes)) if i not in drop]
        size = sizes[kept[index]]
        return size if isinstance(size, SSAValue) else None
    return None


class FoldRank(_OnType):
    op_type = xmemref.RankOp

    def rewrite(self, op: xmemref.RankOp, rewriter: PatternRewriter) -> None:
        t = op.source.type
        if isinstance(t, MemRefType):
            rewriter.replace(op, arith.ConstantOp(IntegerAttr(t.get_num_dims(), IndexType())))


# ---------------------------------------------------------------------------------
# Allocations
# ---------------------------------------------------------------------------------


class StaticAllocSizes(RewritePattern):
    """`alloc(%c4) : memref<?xf32>` to `alloc() : memref<4xf32>` and a cast."""

    def __init__(self, op_type: type[Operation]):
        self.op_type = op_type

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.op_type):
            return
        alloc = cast(xmemref.AllocOp, op)
        t = cast(MemRefType, alloc.memref.type)
        if DYN not in t.get_shape():
            return  # no size operand (reading the operand groups costs more)
        sizes = list(alloc.dynamic_sizes)
        constants = [constant_index(s) for s in sizes]
        if not any(c is not None and c >= 0 for c in constants):
            return
        shape: list[int] = []
        kept: list[SSAValue] = []
        values = iter(zip(sizes, constants))
        for dim in t.get_shape():
            if dim != DYN:
                shape.append(dim)
                continue
            size, const = next(values)
            if const is not None and const >= 0:
                shape.append(const)
            else:
                shape.append(DYN)
                kept.append(size)
        new_type = MemRefType(t.element_type, shape, t.layout, t.memory_space)
        new = type(alloc).create(
            operands=[*kept, *alloc.symbol_operands],
            result_types=[new_type],
            properties={
                **alloc.properties,
                "operandSegmentSizes": DenseArrayBase.from_list(
                    IntegerType(32), [len(kept), len(alloc.symbol_operands)]
                ),
            },
            attributes=dict(alloc.attributes),
        )
        _replace_keeping_type(rewriter, op, [new], new.results[0])


def _only_written(op: Operation, value: SSAValue) -> bool:
    """Whether `op` only writes into or frees `value` (and reads other buffers):
    erasing it along with the buffer is unobservable."""
    if op.results or op.regions or op.operands.count(value) != 1:
        return False
    effects = effects_of(op)
    if effects is None:
        return False
    touches = False
    for effect in effects:
        if effect.value is value:
            if effect.kind not in (MemoryEffectKind.WRITE, MemoryEffectKind.FREE):
                return False
            touches = True
        elif effect.kind is not MemoryEffectKind.READ:
            return False
    return touches


class EraseWriteOnlyAllocation(RewritePattern):
    """An allocation that is only written to or freed, with those writes."""

    def __init__(self, op_type: type[Operation]):
        self.op_type = op_type

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.op_type) or len(op.results) != 1:
            return
        value = op.results[0]
        users = [use.operation for use in value.uses]
        if not users or not all(_only_written(u, value) for u in users):
            return
        for user in set(users):
            rewriter.erase(user)
        rewriter.erase(op)


# ---------------------------------------------------------------------------------
# expand_shape / collapse_shape
# ---------------------------------------------------------------------------------


def _groups(op) -> list[list[int]]:
    return [[i.value.data for i in g] for g in op.reassociation]


def _groups_attr(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


_RESHAPES = (xmemref.ExpandShapeOp, xmemref.CollapseShapeOp)


def _same_static_buffer(a: Attribute, b: Attribute) -> bool:
    """Equal static shapes in row-major order: a reshape between them, whatever
    its groups, maps every element to itself."""
    return (
        a == b
        and isinstance(a, MemRefType)
        and isinstance(a.layout, NoneAttr)
        and DYN not in a.get_shape()
    )


def _expansion_determined(op: Operation) -> bool:
    """Whether an expand_shape's result sizes follow from its result type and the
    collapsed size alone: no group has two dynamic dims (`?x?` could split a
    collapsed dim in many ways, so expand(collapse(x)) need not be x)."""
    if not isinstance(op, xmemref.ExpandShapeOp):
        return True
    shape = cast(MemRefType, op.result.type).get_shape()
    return all(sum(1 for d in g if shape[d] == DYN) <= 1 for g in _groups(op))


class FoldReshape(RewritePattern):
    """Identity reshapes, reverse pairs with the same groups (to the source, or a
    cast of it), collapse-of-collapse and expand-of-expand composed."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, _RESHAPES):
            return
        src, result = op.src, op.result
        if src.type == result.type:
            rewriter.replace(op, [], [src])
            return
        inner = src.owner
        if isinstance(inner, _RESHAPES) and type(inner) is not type(op):
            if _same_static_buffer(inner.src.type, result.type):
                rewriter.replace(op, [], [inner.src])
            elif _groups(inner) == _groups(op) and _expansion_determined(op):
                origin = inner.src
                if origin.type == result.type:
                    rewriter.replace(op, [], [origin])
                elif mmemref.memref_cast_compatible(origin.type, result.type):
                    rewriter.replace(
                        op,
                        mmemref.CastOp.create(operands=[origin], result_types=[result.type]),
                    )
            return
        if isinstance(op, xmemref.CollapseShapeOp) and isinstance(
            inner, xmemref.CollapseShapeOp
        ):
            inner_groups = _groups(inner)
            groups = [[d for mid in g for d in inner_groups[mid]] for g in _groups(op)]
            rewriter.replace(op, mmemref.CollapseShapeOp.create(
                operands=[inner.src],
                result_types=[result.type],
                properties={"reassociation": _groups_attr(groups)},
            ))
            return
        if isinstance(op, xmemref.ExpandShapeOp) and isinstance(inner, xmemref.ExpandShapeOp):
            outer_groups = _groups(op)
            groups = [[d for mid in g for d in outer_groups[mid]] for g in _groups(inner)]
            rewriter.replace(op, mmemref.ExpandShapeOp.create(
                operands=[inner.src, *op.output_shape],
                result_types=[result.type],
                properties={
                    "reassociation": _groups_attr(groups),
                    "static_output_shape": op.static_output_shape,
                },
            ))
            return
        if isinstance(op, xmemref.CollapseShapeOp):
            self._collapse_of_cast(op, rewriter)

    @staticmethod
    def _collapse_of_cast(op: xmemref.CollapseShapeOp, rewriter: PatternRewriter) -> None:
        source = cast_folds_into_consumer(op.src)
        if source is None:
            return
        t = cast(MemRefType, source.type)
        if not isinstance(t.layout, NoneAttr):
            return
        shape = t.get_shape()
        sizes = [shape[i] for i in range(len(shape))]
        collapsed = []
        for g in _groups(op):
            group = [sizes[i] for i in g]
            collapsed.append(DYN if DYN in group else prod(group))
        result = cast(MemRefType, op.result.type)
        new_type = MemRefType(t.element_type, collapsed, NoneAttr(), t.memory_space)
        if not mmemref.memref_cast_compatible(new_type, result):
            return
        new = mmemref.CollapseShapeOp.create(
            operands=[source],
            result_types=[new_type],
            properties={"reassociation": op.reassociation},
        )
        _replace_keeping_type(rewriter, op, [new], new.results[0])


# ---------------------------------------------------------------------------------
# subview
# ---------------------------------------------------------------------------------


def _is_zero(m) -> bool:
    return _static_value(m) == 0


def _is_one(m) -> bool:
    return _static_value(m) == 1


def _same_size(a, b) -> bool:
    if isinstance(a, SSAValue) and isinstance(b, SSAValue) and a is b:
        return True
    va, vb = _static_value(a), _static_value(b)
    return va is not None and va == vb


class FoldSubview(_OnType):
    """Subview folds: to the source when nothing changes, to a cast when the slice
    is the whole buffer, constant operands made static, a cast source looked
    through."""

    op_type = xmemref.SubviewOp

    def rewrite(self, op: xmemref.SubviewOp, rewriter: PatternRewriter) -> None:
        source_type = cast(MemRefType, op.source.type)
        result_type = cast(MemRefType, op.result.type)
        offsets, sizes, strides = _subview_mixed(op)
        static_layout = strides_and_offset(result_type)
        if (
            source_type == result_type
            and DYN not in result_type.get_shape()
            and static_layout is not None
            and DYN not in [*static_layout[0], static_layout[1]]
        ):
            rewriter.replace(op, [], [op.source])
            return
        inner = op.source.owner
        if (
            isinstance(inner, xmemref.SubviewOp)
            and source_type == result_type
            and all(map(_is_zero, offsets))
            and all(map(_is_one, strides))
            and len(sizes) == len(inner.static_sizes)
            and all(map(_same_size, sizes, _mixed(inner.static_sizes, inner.sizes)))
        ):
            rewriter.replace(op, [], [op.source])
            return
        if (
            all(map(_is_zero, offsets))
            and all(map(_is_one, strides))
            and all(_static_value(s) == d for s, d in zip(sizes, source_type.get_shape()))
            and source_type.get_num_dims() == result_type.get_num_dims()
            and mmemref.memref_cast_compatible(source_type, result_type)
        ):
            rewriter.replace(
                op, mmemref.CastOp.create(operands=[op.source], result_types=[result_type])
            )
            return
        if self._fold_constants(op, rewriter, offsets, sizes, strides):
            return
        self._fold_cast_source(op, rewriter, offsets, sizes, strides)

    @staticmethod
    def _fold_constants(op, rewriter, offsets, sizes, strides) -> bool:
        def fold(values, accept: Callable[[int], bool]):
            out = []
            for v in values:
                c = v if isinstance(v, int) else constant_index(v)
                out.append(c if c is not None and accept(c) else v)
            return out

        new_offsets = fold(offsets, lambda c: True)
        new_sizes = fold(sizes, lambda c: c >= 0)
        new_strides = fold(strides, lambda c: c != 0)
        if (new_offsets, new_sizes, new_strides) == (offsets, sizes, strides):
            return False
        source_type = cast(MemRefType, op.source.type)
        static = [_split(m)[0] for m in (new_offsets, new_sizes, new_strides)]
        if not _in_bounds(source_type, *static):
            return False
        new_type = _subview_type(
            cast(MemRefType, op.result.type), source_type, source_type, *static
        )
        if new_type is None or not mmemref.memref_cast_compatible(new_type, op.result.type):
            return False
        new = _build_subview(op.source, (new_offsets, new_sizes, new_strides), new_type)
        _replace_keeping_type(rewriter, op, [new], new.result)
        return True

    @staticmethod
    def _fold_cast_source(op, rewriter, offsets, sizes, strides) -> None:
        source = cast_folds_into_consumer(op.source)
        if source is None:
            return
        static = [_split(m)[0] for m in (offsets, sizes, strides)]
        new_type = _subview_type(
            cast(MemRefType, op.result.type),
            cast(MemRefType, op.source.type),
            cast(MemRefType, source.type),
            *static,
        )
        if new_type is None or not mmemref.memref_cast_compatible(new_type, op.result.type):
            return
        new = _build_subview(source, (offsets, sizes, strides), new_type)
        _replace_keeping_type(rewriter, op, [new], new.result)


# ---------------------------------------------------------------------------------
# reinterpret_cast
# ---------------------------------------------------------------------------------


def _reinterpret_mixed(op: xmemref.ReinterpretCastOp):
    return (
        _mixed(op.static_offsets, op.offsets),
        _mixed(op.static_sizes, op.sizes),
        _mixed(op.static_strides, op.strides),
    )


def _matches(given: int | SSAValue, actual: SSAValue, static: int) -> bool:
    """A reinterpret_cast operand equal to a metadata value: that very result, or a
    constant equal to its static value."""
    if given is actual:
        return True
    value = _static_value(given)
    return value is not None and static != DYN and value == static


class FoldReinterpretCast(_OnType):
    op_type = xmemref.ReinterpretCastOp

    def rewrite(self, op: xmemref.ReinterpretCastOp, rewriter: PatternRewriter) -> None:
        offsets, sizes, strides = _reinterpret_mixed(op)
        source = op.source
        inner = source.owner
        looked_through = isinstance(
            inner, xmemref.CastOp | xmemref.ReinterpretCastOp
        ) or (
            # As MLIR: a subview only when it keeps the buffer's start.
            isinstance(inner, xmemref.SubviewOp)
            and all(map(_is_zero, _subview_mixed(inner)[0]))
        )
        if looked_through:
            base = inner.operands[0]
            if isinstance(base.type, MemRefType):
                rewriter.replace(op, _build_reinterpret(base, op, offsets, sizes, strides))
                return
        if isinstance(inner, xmemref.ExtractStridedMetaDataOp) and source is inner.base_buffer:
            original = inner.source
            t = original.type
            layout = strides_and_offset(t)
            if layout is None or not isinstance(t, MemRefType):
                return
            if (
                len(sizes) == t.get_num_dims()
                and _matches(offsets[0], inner.offset, layout[1])
                and all(map(_matches, sizes, inner.sizes, t.get_shape()))
                and all(map(_matches, strides, inner.strides, layout[0]))
            ):
                if original.type == op.result.type:
                    rewriter.replace(op, [], [original])
                elif mmemref.memref_cast_compatible(original.type, op.result.type):
                    rewriter.replace(op, mmemref.CastOp.create(
                        operands=[original], result_types=[op.result.type]
                    ))
            return
        if source.type == op.result.type and isinstance(source.type, MemRefType):
            layout = strides_and_offset(source.type)
            statics = [_static_value(v) for v in (*offsets, *sizes, *strides)]
            if layout is not None and DYN not in source.type.get_shape() and statics == [
                layout[1], *source.type.get_shape(), *layout[0]
            ]:
                rewriter.replace(op, [], [source])


def _build_reinterpret(base: SSAValue, op, offsets, sizes, strides) -> Operation:
    (so, do), (ss, ds), (st, dt) = (_split(m) for m in (offsets, sizes, strides))
    return xmemref.ReinterpretCastOp(base, do, ds, dt, so, ss, st, op.result.type)


# ---------------------------------------------------------------------------------
# transpose, memory_space_cast, copy, dealloc
# ---------------------------------------------------------------------------------


def _positions(amap: AffineMap) -> list[int]:
    return [cast(AffineDimExpr, e).position for e in amap.results]


class FoldTranspose(_OnType):
    """`transpose(transpose(x))` is one transpose of `x` (or `x` itself)."""

    op_type = TransposeOp

    def rewrite(self, op: TransposeOp, rewriter: PatternRewriter) -> None:
        outer = _positions(op.permutation.data)
        if outer == list(range(len(outer))) and op.in_.type == op.result.type:
            rewriter.replace(op, [], [op.in_])
            return
        inner = op.in_.owner
        if not isinstance(inner, TransposeOp):
            return
        first = _positions(inner.permutation.data)
        composed = [first[i] for i in outer]
        if composed == list(range(len(composed))) and inner.in_.type == op.result.type:
            rewriter.replace(op, [], [inner.in_])
            return
        amap = AffineMap(len(composed), 0, tuple(AffineDimExpr(i) for i in composed))
        rewriter.replace(op, TransposeOp(inner.in_, amap, op.result.type))


def _has_no_elements(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and 0 in t.get_shape()


class EraseTrivialCopy(_OnType):
    """A copy of a buffer onto itself or of zero elements does nothing."""

    op_type = xmemref.CopyOp

    def rewrite(self, op: xmemref.CopyOp, rewriter: PatternRewriter) -> None:
        if op.source is op.destination or _has_no_elements(op.source.type) or (
            _has_no_elements(op.destination.type)
        ):
            rewriter.erase(op)


# ---------------------------------------------------------------------------------
# alloca_scope
# ---------------------------------------------------------------------------------


def _is_scope(op: Operation | None) -> bool:
    return op is not None and get_interface(op, AutomaticAllocationScope) is not None


def _may_allocate_on_stack(op: Operation) -> bool:
    """MLIR's `isOpItselfPotentialAutomaticAllocation`: a stack allocation, or an op
    whose effects are unknown (and not just its regions')."""
    if get_interface(op, AutomaticAllocation) is not None:
        return True
    return (
        not op.has_trait(RecursiveMemoryEffect, value_if_unregistered=False)
        and memory_effects(op) is None
    )


def _allocates_in_scope(scope: Operation) -> bool:
    """Whether something in `scope`'s regions, outside nested scopes, may allocate
    on the stack of `scope`."""
    pending = [op for region in scope.regions for block in region.blocks for op in block.ops]
    while pending:
        op = pending.pop()
        if _may_allocate_on_stack(op):
            return True
        if not _is_scope(op):
            pending.extend(o for r in op.regions for b in r.blocks for o in b.ops)
    return False


def _last_before_terminator(op: Operation) -> bool:
    """`op` is the last op of the only block of its region before the terminator."""
    block, region = op.parent, op.parent_region()
    if block is None or region is None or region.blocks.first is not region.blocks.last:
        return False
    nxt = op.next_op
    return nxt is not None and nxt is block.last_op and nxt.has_trait(
        IsTerminator, value_if_unregistered=True
    )


class InlineAllocaScope(_OnType):
    """A scope that allocates nothing, or that ends the body of another scope (its
    allocations then live as long there), is its body."""

    op_type = xmemref.AllocaScopeOp

    def rewrite(self, op, rewriter: PatternRewriter) -> None:
        if _allocates_in_scope(op) and not (
            _is_scope(op.parent_op()) and _last_before_terminator(op)
        ):
            return
        block = op.scope.block
        terminator = block.last_op
        assert terminator is not None
        results = list(terminator.operands)
        rewriter.inline_block(block, InsertPoint.before(op))
        rewriter.erase(terminator)
        rewriter.replace(op, [], results)


class HoistAllocas(_OnType):
    """Stack allocations of a scope that ends a chain of non-scope regions move to
    just before the outermost of them, when their operands are defined there."""

    op_type = xmemref.AllocaScopeOp

    def rewrite(self, op, rewriter: PatternRewriter) -> None:
        outer = op.parent_op()
        if outer is None or _is_scope(outer):
            return
        if not _last_before_terminator(op) or not _last_before_terminator(outer):
            return
        while not _is_scope(outer.parent_op()):
            outer = outer.parent_op()
            if outer is None or not _last_before_terminator(outer):
                return
        allocas = [
            nested
            for nested in op.walk()
            if get_interface(nested, AutomaticAllocation) is not None
            and _innermost_scope(nested) is op
            and all(not outer.is_ancestor(_owner_op(v)) for v in nested.operands)
        ]
        if not allocas:
            return
        for alloca in allocas:
            alloca.detach()
            rewriter.insert(alloca, InsertPoint.before(outer))


def _owner_op(value: SSAValue) -> Operation:
    owner = value.owner
    return owner if isinstance(owner, Operation) else owner.parent_op()


def _innermost_scope(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not _is_scope(parent):
        parent = parent.parent_op()
    return parent


# ---------------------------------------------------------------------------------
# The table the memref ops declare (`memplan.dialects.mlir.memref`)
# ---------------------------------------------------------------------------------

PATTERNS: dict[str, tuple[RewritePattern, ...]] = {
    "memref.cast": (FoldCastChain(xmemref.CastOp, _cast_chain_merges),),
    "memref.load": (FoldCastOperands(xmemref.LoadOp, "memref"),),
    "memref.store": (FoldCastOperands(xmemref.StoreOp, "memref"),),
    "memref.atomic_rmw": (FoldCastOperands(xmemref.AtomicRMWOp, "memref"),),
    "memref.dealloc": (FoldCastOperands(xmemref.DeallocOp, "memref"),),
    "memref.copy": (
        EraseTrivialCopy(),
        FoldCastOperands(xmemref.CopyOp, "source", "destination"),
    ),
    "memref.dim": (FoldDim(), FoldCastOperands(xmemref.DimOp, "source")),
    "memref.rank": (FoldRank(),),
    "memref.alloc": (
        StaticAllocSizes(xmemref.AllocOp),
        EraseWriteOnlyAllocation(xmemref.AllocOp),
    ),
    "memref.alloca": (
        StaticAllocSizes(xmemref.AllocaOp),
        EraseWriteOnlyAllocation(xmemref.AllocaOp),
    ),
    "memref.realloc": (EraseWriteOnlyAllocation(ReallocOp),),
    "memref.expand_shape": (FoldReshape(),),
    "memref.collapse_shape": (FoldReshape(),),
    "memref.subview": (FoldSubview(),),
    "memref.reinterpret_cast": (FoldReinterpretCast(),),
    "memref.transpose": (FoldTranspose(),),
    "memref.memory_space_cast": (
        FoldCastChain(xmemref.MemorySpaceCastOp, lambda op: True),
    ),
    "memref.alloca_scope": (InlineAllocaScope(), HoistAllocas()),
}
"""Patterns by op name, found through the ops' `CanonicalizedBy` trait."""
