"""Canonicalization patterns of IREE's `stream` ops (`PATTERNS`, by op name).

The ops declare them (`memplan.dialects.util.STREAM_PATTERNS`), so every driver
that asks an op for its patterns gets these. As IREE 3.13 (`StreamOpFolders.cpp`),
with one rewrite left out on purpose:

- `stream.async.transfer` of a transfer: when the result lands where, and as what,
  the first transfer's source was (same type, the outer target affinity is the inner
  source affinity), it is that source; otherwise the two hops become one transfer
  from the first source to the last target.
- `stream.tensor.encode` between equal encodings of the same resource type is its
  source.
- `stream.resource.size` of a resource whose size is known -- stated by the op that
  defines it, or by an earlier user in the same block that takes it with a size
  that is already defined -- is that size.

Left out: IREE later rewrites a transfer between equal affinities into
`stream.async.clone`. A clone is not Pure (it reads and allocates), so CSE can no
longer merge two such copies; that rewrite is why IREE's own cleanup pipeline stopped
deduplicating the seed's encoded weights (DESIGN.md section 3).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import MemoryEffectKind

from memplan.dialects import stream
from memplan.interfaces import get_interface, memory_effects

__all__ = ["PATTERNS", "known_size"]


class FoldTransferOfTransfer(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncTransferOp, rewriter: PatternRewriter, /):
        inner = op.source.owner
        if not isinstance(inner, stream.AsyncTransferOp):
            return
        if (
            inner.source.type == op.result.type
            and inner.source_affinity == op.target_affinity
        ):
            rewriter.replace(op, [], [inner.source])
            return
        rewriter.replace(op, stream.AsyncTransferOp(
            inner.source,
            inner.source_size,
            op.result.type,
            op.result_size,
            source_affinity=inner.source_affinity,
            target_affinity=op.target_affinity,
            execution_affinity=op.execution_affinity,
        ))


class FoldEncodeOfSameEncoding(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorEncodeOp, rewriter: PatternRewriter, /):
        if (
            op.source_encoding == op.result_encoding
            and op.source.type == op.result.type
        ):
            rewriter.replace(op, [], [op.source])


def _available_at(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined before `op` in its block or an enclosing one."""
    owner_block = value.owner if isinstance(value, BlockArgument) else value.owner.parent
    if owner_block is None:
        return False
    ancestor = owner_block.find_ancestor_op_in_block(op)
    if ancestor is None:
        return False
    if isinstance(value, BlockArgument):
        return True
    definer = value.owner
    return definer is not ancestor and definer.is_before_in_block(ancestor)


def known_size(resource: SSAValue, at: Operation) -> SSAValue | None:
    """A size value of `resource` usable at `at`: what its defining op says, or what
    an earlier size-aware user in the same block passes with it."""
    size = stream.find_size(resource)
    if size is not None:
        return size
    for use in resource.uses:
        user = use.operation
        if user is at or user.parent is not at.parent or not user.is_before_in_block(at):
            continue
        model = get_interface(user, stream.SizeAware)
        if model is None:
            continue
        size = model.operand_size(user, use.index)
        if size is not None and _available_at(size, at):
            return size
    return None


class FoldResourceSize(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourceSizeOp, rewriter: PatternRewriter, /):
        size = known_size(op.operand, op)
        if size is not None and size is not op.result:
            rewriter.replace(op, [], [size])




# --------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------


def _replace(rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]) -> None:
    rewriter.replace_op(op, [], list(values))


def _constant_int(value: SSAValue) -> int | None:
    """The integer a value is known to be (an `arith.constant` of an integer)."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _same_value(a: SSAValue, b: SSAValue) -> bool:
    """The two values are equal: the same SSA value or equal integer constants."""
    if a is b:
        return True
    ca, cb = _constant_int(a), _constant_int(b)
    return ca is not None and ca == cb


def _is_fresh_allocation(value: SSAValue) -> bool:
    """`value` is a result its defining op only allocates (a fresh, unaliased
    object nobody else can see), asked through the op's memory effects."""
    if not isinstance(value, OpResult):
        return False
    effects = memory_effects(value.op)
    if effects is None:
        return False
    return any(
        e.kind == MemoryEffectKind.ALLOC and e.value is value for e in effects
    ) and all(e.kind in (MemoryEffectKind.ALLOC, MemoryEffectKind.READ) for e in effects)


def _index_constant(rewriter: PatternRewriter, at: Operation, value: int) -> SSAValue:
    const = arith.ConstantOp(IntegerAttr(value, IndexType()))
    rewriter.insert_op(const, InsertPoint.before(at))
    return const.result


# --------------------------------------------------------------------------------
# Timepoints
# --------------------------------------------------------------------------------


class FoldExportOfImport(RewritePattern):
    """`export(import(%a, %b))` with the same types is `%a, %b`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TimepointExportOp, rewriter: PatternRewriter, /):
        source = op.await_timepoint.owner
        if not isinstance(source, stream.TimepointImportOp):
            return
        if tuple(source.operands_.types) != tuple(op.results_.types):
            return
        _replace(rewriter, op, source.operands_)


class PassThroughChainExternal(RewritePattern):
    """Chaining an imported fence into a fence created only for that is the
    imported fence itself."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.TimepointChainExternalOp, rewriter: PatternRewriter, /
    ):
        source = op.await_timepoint.owner
        if not isinstance(source, stream.TimepointImportOp):
            return
        if len(op.external_values) != 1 or len(source.operands_) != 1:
            return
        chained, imported = op.external_values[0], source.operands_[0]
        if chained.type != imported.type or not _is_fresh_allocation(chained):
            return
        rewriter.replace_uses_with_if(
            chained, imported, lambda use: use.operation is not op
        )
        rewriter.erase_op(op)


def _is_immediate(value: SSAValue) -> bool:
    return isinstance(value.owner, stream.TimepointImmediateOp)


class CanonicalizeJoin(RewritePattern):
    """A join of one timepoint is it; immediate and repeated operands are dropped;
    joins of joins are flattened; a join of nothing left is immediate."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TimepointJoinOp, rewriter: PatternRewriter, /):
        operands: list[SSAValue] = []
        for value in op.await_timepoints:
            inner = value.owner
            expanded = (
                list(inner.await_timepoints)
                if isinstance(inner, stream.TimepointJoinOp) and inner is not op
                else [value]
            )
            for v in expanded:
                if not _is_immediate(v) and v not in operands:
                    operands.append(v)
        if not operands:
            immediate = stream.TimepointImmediateOp()
            rewriter.replace_op(op, immediate)
            return
        if len(operands) == 1:
            _replace(rewriter, op, operands)
            return
        if operands != list(op.await_timepoints):
            rewriter.replace_op(op, stream.TimepointJoinOp(operands))


def _source_await(resource: SSAValue) -> stream.TimepointAwaitOp | None:
    owner = resource.owner
    if isinstance(owner, stream.TimepointAwaitOp) and owner.sync is None:
        return owner
    return None


def _immediately_resolved(resource: SSAValue) -> bool:
    """Produced by an op with no timeline of its own (IREE: alloc, import)."""
    return isinstance(resource.owner, stream.ResourceAllocOp | stream.TensorImportOp)


class FoldBarrier(RewritePattern):
    """A barrier on a resource that is ready at once has an immediate timepoint; on
    an awaited resource it is the awaited resource and timepoint."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.TimepointBarrierOp, rewriter: PatternRewriter, /
    ):
        awaited = _source_await(op.resource)
        if awaited is not None:
            index = awaited.results.index(op.resource)
            _replace(rewriter, op, [awaited.resource_operands[index],
                                    awaited.await_timepoint])
            return
        if _immediately_resolved(op.resource):
            immediate = stream.TimepointImmediateOp()
            rewriter.insert_op(immediate, InsertPoint.before(op))
            _replace(rewriter, op, [op.resource, immediate.result_timepoint])


class CanonicalizeAwait(RewritePattern):
    """Awaiting an immediate timepoint is a no-op; repeated resources are awaited
    once; awaits of one timepoint in one block are grouped at the latest one when
    no operand is defined between them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TimepointAwaitOp, rewriter: PatternRewriter, /):
        if _is_immediate(op.await_timepoint):
            _replace(rewriter, op, op.resource_operands)
            return
        operands = list(op.resource_operands)
        unique: list[SSAValue] = []
        for value in operands:
            if value not in unique:
                unique.append(value)
        if len(unique) != len(operands):
            sizes = [op.operand_size_of(operands.index(v)) for v in unique]
            new = stream.TimepointAwaitOp(
                op.await_timepoint, unique, [s for s in sizes if s is not None],
                sync=op.sync is not None,
            )
            rewriter.insert_op(new, InsertPoint.before(op))
            _replace(rewriter, op, [new.results[unique.index(v)] for v in operands])
            return
        self._group(op, rewriter)

    @staticmethod
    def _group(op: stream.TimepointAwaitOp, rewriter: PatternRewriter) -> None:
        block = op.parent
        if block is None or op.sync is not None:
            return
        # Earlier awaits of the same timepoint in this block whose operands are all
        # defined before the first of them: merge them into this one.
        earlier = [
            use.operation for use in op.await_timepoint.uses
            if isinstance(use.operation, stream.TimepointAwaitOp)
            and use.operation is not op and use.operation.parent is block
            and use.operation.sync is None
            and use.operation.is_before_in_block(op)
        ]
        if not earlier:
            return
        group = sorted([*earlier, op], key=lambda o: block.get_operation_index(o))
        first = group[0]
        for member in group:
            for value in (*member.resource_operands, *member.resource_operand_sizes):
                owner = value.owner
                if isinstance(owner, Operation) and owner.parent is block and (
                    not owner.is_before_in_block(first)
                ):
                    return
        operands: list[SSAValue] = []
        sizes: list[SSAValue] = []
        for member in group:
            operands.extend(member.resource_operands)
            sizes.extend(member.resource_operand_sizes)
        new = stream.TimepointAwaitOp(op.await_timepoint, operands, sizes)
        rewriter.insert_op(new, InsertPoint.before(first))
        offset = 0
        for member in group:
            count = len(member.results)
            results = new.results[offset:offset + count]
            offset += count
            _replace(rewriter, member, results)


class SinkSubviewAcrossAwait(RewritePattern):
    """`await(subview(%r))` is `subview(await(%r))`: the await covers the whole
    resource, the view is taken of the ready one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TimepointAwaitOp, rewriter: PatternRewriter, /):
        for i, value in enumerate(op.resource_operands):
            view = value.owner
            if not isinstance(view, stream.ResourceSubviewOp):
                continue
            operands = list(op.resource_operands)
            operands[i] = view.source
            sizes = list(op.resource_operand_sizes)
            position = op._resource_positions()[i]
            sizes[position] = view.source_size
            new = stream.TimepointAwaitOp(
                op.await_timepoint, operands, sizes, sync=op.sync is not None
            )
            rewriter.insert_op(new, InsertPoint.before(op))
            subview = stream.ResourceSubviewOp(
                new.results[i], view.source_size, view.source_offset, view.result_size
            )
            rewriter.insert_op(subview, InsertPoint.before(op))
            results = list(new.results)
            results[i] = subview.result
            _replace(rewriter, op, results)
            return


PATTERNS = {
    "stream.async.transfer": (FoldTransferOfTransfer(),),
    "stream.tensor.encode": (FoldEncodeOfSameEncoding(),),
    "stream.resource.size": (FoldResourceSize(),),
    "stream.timepoint.export": (FoldExportOfImport(),),
    "stream.timepoint.chain_external": (PassThroughChainExternal(),),
    "stream.timepoint.join": (CanonicalizeJoin(),),
    "stream.timepoint.barrier": (FoldBarrier(),),
    "stream.timepoint.await": (CanonicalizeAwait(), SinkSubviewAcrossAwait()),
}
