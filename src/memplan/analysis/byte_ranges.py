"""Which bytes of its root buffer a memref value reaches: the byte-range query of views.

MLIR lowers a memref to an aligned pointer, an element offset, sizes and strides. A
view op (`memplan.interfaces.ViewLike`) moves the pointer by a byte shift (only
`memref.view` does) and gives the result its own offset, sizes and strides; so the
bytes a value can reach, relative to its root's pointer, follow from the chain of
views back to the root. Each view answers, through its `ViewLike` model, with a
`ViewBytes`: the shift of its result's pointer and the bytes the result reaches,
both relative to its source's pointer, as `Linear` expressions over SSA values
(constants folded, other values kept as terms, so a checker can reason about
dynamic offsets and sizes its own way). A view without a model, a layout that is not
strided, a size whose product is not linear or an element of unknown size gives
None: "anywhere in the source".

Elements are sized by `memplan.analysis.data_layout.alloc_size`, as everywhere.

- `bytes_in_root(value)`: `(root, start, end)` of the bytes `value` reaches; `start`
  None when unknown (anywhere), `end` None when unknown (up to the root's end);
- `memref_footprint(type, ...)`: the bytes a memref reaches relative to its own
  pointer, from its type and the values of its dynamic offset and sizes;
- `VIEW_MODELS`: the models of xDSL's memref views, attached by
  `memplan.dialects.mlir.upstream_models`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.traits import ConstantLike

from memplan.analysis.aliasing import aliases_of, view_of
from memplan.analysis.data_layout import alloc_size
from memplan.interfaces import ViewBytes, ViewLike, get_interface

__all__ = [
    "VIEW_MODELS",
    "Linear",
    "bytes_in_root",
    "constant_reach",
    "memref_footprint",
    "value_footprint",
]


@dataclass(frozen=True)
class Linear:
    """`const + sum(coefficient * value)` over SSA values (index or integer)."""

    const: int = 0
    terms: tuple[tuple[SSAValue, int], ...] = ()

    @staticmethod
    def of(value: SSAValue) -> Linear:
        """A constant when a `ConstantLike` op gives `value` one, else the value."""
        attribute = ConstantLike.get_constant_value(value)
        if isinstance(attribute, IntegerAttr):
            return Linear(attribute.value.data)
        return Linear(0, ((value, 1),))

    def constant(self) -> int | None:
        return None if self.terms else self.const

    def __add__(self, other: Linear) -> Linear:
        terms = dict(self.terms)
        for value, k in other.terms:
            terms[value] = terms.get(value, 0) + k
        return Linear(self.const + other.const,
                      tuple((v, k) for v, k in terms.items() if k))

    def __sub__(self, other: Linear) -> Linear:
        return self + other.scale(-1)

    def scale(self, factor: int) -> Linear:
        if factor == 0:
            return Linear()
        return Linear(self.const * factor, tuple((v, k * factor) for v, k in self.terms))


_ZERO = Linear()
Footprint = tuple[Linear, Linear | None]
"""(start, end) in bytes; end None: not known."""


def _contiguous_strides(shape: Sequence[int]) -> list[int | None]:
    strides: list[int | None] = []
    stride: int | None = 1
    for size in reversed(shape):
        strides.append(stride)
        stride = None if stride is None or size == DYNAMIC_INDEX else stride * size
    return strides[::-1]


def memref_footprint(
    t: MemRefType,
    offset: Linear | None = None,
    sizes: Sequence[Linear] = (),
    strides: Sequence[int | None] | None = None,
) -> Footprint | None:
    """The bytes a memref of type `t` reaches relative to its aligned pointer.

    `offset` (elements) replaces a dynamic layout offset, `sizes` the dynamic sizes
    in order, `strides` the layout's strides (an op that knows them better, such as
    a reinterpret_cast, passes its own). None when the start is not known; the end
    is None when it is not linear in the sizes. Strides must be static and
    non-negative."""
    width = alloc_size(t.element_type)
    if width is None:
        return None
    shape = list(t.get_shape())
    dims: list[Linear] = []
    dynamic = iter(sizes)
    sized = True
    for d in shape:
        if d != DYNAMIC_INDEX:
            dims.append(Linear(d))
        elif (size := next(dynamic, None)) is not None:
            dims.append(size)
        else:
            sized = False
    layout = t.layout
    if isinstance(layout, NoneAttr):
        start = _ZERO if offset is None else offset
        layout_strides = _contiguous_strides(shape)
    elif isinstance(layout, StridedLayoutAttr):
        static_offset = layout.get_offset()
        if offset is None:
            if static_offset is None:
                return None
            offset = Linear(static_offset)
        start = offset
        layout_strides = list(layout.get_strides())
    else:
        return None
    strides = list(strides) if strides is not None else layout_strides
    if not sized:
        return start.scale(width), None
    if any(d.constant() == 0 for d in dims):
        return start.scale(width), start.scale(width)
    if not dims:
        return start.scale(width), (start + Linear(1)).scale(width)
    if len(strides) != len(dims) or any(s is None or s < 0 for s in strides):
        return start.scale(width), None
    # 1 + sum((d - 1) * stride): linear in the sizes, the strides being constants.
    extent = Linear(1)
    for d, s in zip(dims, strides):
        extent = extent + (d - Linear(1)).scale(s)  # type: ignore[arg-type]
    if isinstance(layout, NoneAttr) and any(
        d.constant() is None for d in dims[1:]
    ):
        # A contiguous stride that multiplies two dynamic sizes is not linear.
        return start.scale(width), None
    return start.scale(width), (start + extent).scale(width)


def value_footprint(value: SSAValue) -> Footprint | None:
    """The bytes `value` reaches relative to its own aligned pointer: from its view
    op's model, else from its type (a dynamic size reaches to an unknown end)."""
    if isinstance(value, OpResult) and value.index == 0:
        trait = get_interface(value.op, ViewLike)
        if trait is not None:
            view = trait.byte_range(value.op)
            if view is None or view.shift is None or view.start is None:
                return None
            end = None if view.end is None else view.end - view.shift
            return view.start - view.shift, end
    t = value.type
    if not isinstance(t, MemRefType):
        return None
    return memref_footprint(t)


def bytes_in_root(value: SSAValue) -> tuple[SSAValue, Linear | None, Linear | None]:
    """The root `value` views and the bytes of it `value` reaches: `start` None
    means anywhere in the root, `end` None up to the root's end."""
    footprint = value_footprint(value)
    shift = _ZERO
    current = value
    known = footprint is not None
    seen: set[SSAValue] = set()
    while isinstance(current, OpResult) and current.index == 0 and current not in seen:
        trait = get_interface(current.op, ViewLike)
        if trait is None:
            break
        seen.add(current)
        view = trait.byte_range(current.op)
        if view is None or view.shift is None:
            known = False
        else:
            shift = shift + view.shift
        current = trait.view_source(current.op)
    if not known or footprint is None:
        return current, None, None
    start, end = footprint
    return current, shift + start, None if end is None else shift + end


def constant_reach(root: SSAValue, size: int | None) -> tuple[int, SSAValue | None]:
    """How far into `root` (of `size` bytes, None: not known) its uses reach, through
    any chain of views: the largest end of the bytes any alias that has a use other
    than a view reaches (`size` for a use of the root itself), when every such alias
    starts and ends at a constant. Otherwise `(-1, alias)` with the first alias
    whose bytes are not known."""
    end = 0
    for alias in aliases_of(root):
        if all(view_of(use.operation) is not None and view_of(use.operation)[1] == use.index
               for use in alias.uses):
            continue  # only viewed further: its views' bytes count
        if alias is root:
            if size is None:
                return -1, alias
            end = max(end, size)
            continue
        _, start, stop = bytes_in_root(alias)
        low = None if start is None else start.constant()
        high = None if stop is None else stop.constant()
        if low is None or high is None or low < 0:
            return -1, alias
        end = max(end, high)
    return end, None


# ----------------------------------------------------------------- memref models


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[Linear]:
    values = iter(dynamic)
    return [Linear.of(next(values)) if s == DYNAMIC_INDEX else Linear(s) for s in static]


def _same_bytes(op: Operation) -> ViewBytes | None:
    """A cast, reshape or alignment assumption: its result reaches what its source
    does, from the same pointer."""
    trait = get_interface(op, ViewLike)
    assert trait is not None
    footprint = value_footprint(trait.view_source(op))
    if footprint is None:
        return None
    return ViewBytes(_ZERO, footprint[0], footprint[1])


def _view(op: Operation) -> ViewBytes | None:
    assert isinstance(op, memref.ViewOp)
    t = op.results[0].type
    assert isinstance(t, MemRefType)
    shift = Linear.of(op.byte_shift)
    footprint = memref_footprint(t, None, [Linear.of(s) for s in op.sizes])
    if footprint is None:
        return ViewBytes(shift, None, None)
    start, end = footprint
    return ViewBytes(shift, shift + start, None if end is None else shift + end)


def _static_ints(values: Sequence[Linear]) -> list[int | None]:
    return [v.constant() for v in values]


def _reinterpret_cast(op: Operation) -> ViewBytes | None:
    assert isinstance(op, memref.ReinterpretCastOp)
    t = op.results[0].type
    assert isinstance(t, MemRefType)
    offsets = _mixed(op.static_offsets.get_values(), op.offsets)
    sizes = _mixed(op.static_sizes.get_values(), op.sizes)
    strides = _static_ints(_mixed(op.static_strides.get_values(), op.strides))
    dynamic = [s for s, d in zip(sizes, t.get_shape()) if d == DYNAMIC_INDEX]
    footprint = memref_footprint(t, offsets[0] if offsets else None, dynamic, strides)
    if footprint is None:
        return ViewBytes(_ZERO, None, None)
    return ViewBytes(_ZERO, footprint[0], footprint[1])


def _subview(op: Operation) -> ViewBytes | None:
    assert isinstance(op, memref.SubviewOp)
    t, source = op.results[0].type, op.source.type
    assert isinstance(t, MemRefType) and isinstance(source, MemRefType)
    offset: Linear | None = None
    if isinstance(t.layout, StridedLayoutAttr) and t.layout.get_offset() is None:
        # The result's offset: the source's plus each offset times its stride.
        if isinstance(source.layout, NoneAttr):
            base, source_strides = 0, _contiguous_strides(source.get_shape())
        elif isinstance(source.layout, StridedLayoutAttr):
            base, source_strides = source.layout.get_offset(), list(source.layout.get_strides())
        else:
            return ViewBytes(_ZERO, None, None)
        if base is None or any(s is None for s in source_strides):
            return ViewBytes(_ZERO, None, None)
        offset = Linear(base)
        for o, s in zip(_mixed(op.static_offsets.get_values(), op.offsets), source_strides):
            offset = offset + o.scale(s)  # type: ignore[arg-type]
    sizes = _mixed(op.static_sizes.get_values(), op.sizes)
    dynamic = [s for s in sizes if s.constant() is None]
    footprint = memref_footprint(t, offset, dynamic)
    if footprint is None:
        return ViewBytes(_ZERO, None, None)
    return ViewBytes(_ZERO, footprint[0], footprint[1])


VIEW_MODELS: dict[type, Callable[[Operation], ViewBytes | None]] = {
    memref.ViewOp: _view,
    memref.ReinterpretCastOp: _reinterpret_cast,
    memref.SubviewOp: _subview,
    memref.CastOp: _same_bytes,
    memref.ExpandShapeOp: _same_bytes,
    memref.CollapseShapeOp: _same_bytes,
    memref.MemorySpaceCastOp: _same_bytes,
    memref.AssumeAlignmentOp: _same_bytes,
}
"""The byte-range model of each xDSL memref view."""

PLACING_VIEWS: tuple[type, ...] = (memref.ViewOp, memref.ReinterpretCastOp)
"""Views that place a buffer of their own into their source's bytes (a typed buffer
at a byte shift, a new layout on the allocation) rather than name part of the
source's contents; planners place buffers with these."""
