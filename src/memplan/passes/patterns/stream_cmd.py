"""Canonicalization patterns of `memplan.dialects.iree.stream_cmd`'s ops, as IREE's
`StreamOpFolders.cpp` defines them (the table `PATTERNS`, by op name, is what
those ops' `CanonicalizedBy` trait returns).

- `stream.cmd.execute`: an await on `stream.timepoint.immediate` is dropped; an
  execute whose timepoint nobody uses goes (IREE's `ElideUnusedOp`: work nobody
  waits on is not needed); one with an empty body is its await timepoint
  (immediate without one; IREE makes it immediate in both cases); a captured
  `stream.timepoint.await` result is captured as the awaited resource and the
  execute waits on its timepoint.
- `stream.cmd.serial` / `stream.cmd.concurrent` with an empty body go.

- Captured subviews are taken inside the region (the whole resource captured)
  and commands on a subview work on the viewed resource at the summed offset;
  unused captures go and a value captured twice is captured once.

IREE also deduplicates a dispatch's repeated entry points and clones constant
captures into the region; memplan does not.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from memplan.dialects.iree import stream, stream_cmd as cmd
from memplan.util_interfaces import Subranges
from memplan.interfaces import get_interface
from memplan.passes.patterns.stream import _add, awaited_captures, execution_scope
from memplan.passes.patterns.stream_runtime import ElideImmediateWait, ElideUnused


def _only_yield(op: Operation) -> bool:
    block = op.regions[0].block
    return isinstance(block.first_op, stream.YieldOp) and not block.first_op.operands


class ElideNoOpExecute(RewritePattern):
    """An execute with nothing to do is its await timepoint (immediate without
    one). IREE makes it immediate even after an await, dropping the wait; memplan
    keeps the ordering, as for `stream.async.execute`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cmd.CmdExecuteOp, rewriter: PatternRewriter, /):
        if not _only_yield(op):
            return
        if op.await_timepoint is not None:
            rewriter.replace(op, [], [op.await_timepoint])
        else:
            rewriter.replace(op, stream.TimepointImmediateOp())


class ChainDependentAwaits(RewritePattern):
    """A captured resource that is a `stream.timepoint.await` result is captured
    as the awaited resource, and the execute waits on that timepoint instead (with
    its own, joined)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cmd.CmdExecuteOp, rewriter: PatternRewriter, /):
        chained = awaited_captures(op, rewriter)
        if chained is None:
            return
        operands, timepoint = chained
        new = cmd.CmdExecuteOp.build(
            operands=[operands, list(op.resource_operand_sizes), [timepoint]],
            properties={k: v for k, v in op.properties.items() if k != "operandSegmentSizes"},
            attributes=dict(op.attributes),
            result_types=[op.result_timepoint.type],
            regions=[op.detach_region(op.body)],
        )
        rewriter.replace(op, new)


class CloneCapturedSubviews(RewritePattern):
    """A captured subview is captured as the whole resource and the subview is
    taken inside the region, where the commands' ranges can absorb it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cmd.CmdExecuteOp, rewriter: PatternRewriter, /):
        block = op.body.block
        positions = stream.resource_positions(op.resource_operands)
        changed = False
        for i, value in enumerate(op.resource_operands):
            view = value.owner
            if not isinstance(view, stream.ResourceSubviewOp) or i not in positions:
                continue
            argument = block.args[i]
            inner = stream.ResourceSubviewOp(argument, view.source_size, view.source_offset, view.result_size)
            rewriter.insert(inner, InsertPoint.at_start(block))
            argument.replace_uses_with_if(inner.result, lambda use: use.operation is not inner)
            op.operands[i] = view.source
            op.operands[len(op.resource_operands) + positions[i]] = view.source_size
            changed = True
        if changed:
            rewriter.handle_operation_modification(op)


class OptimizeCaptures(RewritePattern):
    """Captures the body does not use are dropped and a value captured twice is
    captured once (IREE's `ClosureOptimizationPattern`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cmd.CmdExecuteOp, rewriter: PatternRewriter, /):
        block = op.body.block
        positions = stream.resource_positions(op.resource_operands)
        first_arg: dict[SSAValue, SSAValue] = {}
        keep: list[int] = []
        for i, (value, argument) in enumerate(zip(op.resource_operands, block.args)):
            if not argument.uses:
                continue
            kept = first_arg.setdefault(value, argument)
            if kept is argument:
                keep.append(i)
            else:
                argument.replace_all_uses_with(kept)
        if len(keep) == len(block.args):
            return
        for argument in reversed([a for i, a in enumerate(block.args) if i not in keep]):
            block.erase_arg(argument)
        new = cmd.CmdExecuteOp.build(
            operands=[
                [op.resource_operands[i] for i in keep],
                [op.resource_operand_sizes[positions[i]] for i in keep if i in positions],
                [] if op.await_timepoint is None else [op.await_timepoint],
            ],
            properties={k: v for k, v in op.properties.items() if k != "operandSegmentSizes"},
            attributes=dict(op.attributes),
            result_types=[op.result_timepoint.type],
            regions=[op.detach_region(op.body)],
        )
        rewriter.replace(op, new)


class FoldSubviewsIntoRanges(RewritePattern):
    """A command on a subview works on the viewed resource at the summed offset
    (each resource of a dispatch or collective, the ranges other commands declare
    as `Subranges`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        triples: list[tuple[int, int, int]] = []
        if isinstance(op, cmd.CmdDispatchOp | cmd.CmdCollectiveOp):
            # Resources, sizes, offsets and lengths are the last four groups.
            count = len(op.resources)
            first = len(op.operands) - 4 * count
            triples = [(first + i, first + count + i, first + 2 * count + i) for i in range(count)]
        elif (declared := get_interface(op, Subranges)) is not None:
            triples = [
                (_field_index(op, buffer), _field_index(op, size), _field_index(op, offset))
                for buffer, size, offset, _ in declared.ranges
            ]
        changed = False
        for resource, size, offset in triples:
            view = op.operands[resource].owner
            if not isinstance(view, stream.ResourceSubviewOp):
                continue
            total = _add(rewriter, execution_scope(op), view.source_offset, op.operands[offset])
            op.operands[resource] = view.source
            op.operands[size] = view.source_size
            op.operands[offset] = total
            changed = True
        if changed:
            rewriter.handle_operation_modification(op)


def _field_index(op: Operation, name: str) -> int:
    """The operand position of a single-operand field (the commands declaring
    `Subranges` have no variadic operands)."""
    assert isinstance(op, IRDLOperation)
    return [field for field, _ in type(op).get_irdl_definition().operands].index(name)


class ElideEmptyRegion(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if isinstance(op, cmd.CmdSerialOp | cmd.CmdConcurrentOp) and _only_yield(op):
            rewriter.erase(op)


_FOLD_SUBVIEWS = (FoldSubviewsIntoRanges(),)

PATTERNS = {
    "stream.cmd.execute": (
        ElideImmediateWait(), ChainDependentAwaits(), CloneCapturedSubviews(),
        ElideNoOpExecute(), OptimizeCaptures(), ElideUnused(),
    ),
    **{
        op.name: _FOLD_SUBVIEWS
        for op in (
            cmd.CmdFlushOp, cmd.CmdInvalidateOp, cmd.CmdDiscardOp, cmd.CmdFillOp, cmd.CmdCopyOp,
            cmd.CmdDispatchOp, cmd.CmdCollectiveOp,
        )
    },
    "stream.cmd.serial": (ElideEmptyRegion(),),
    "stream.cmd.concurrent": (ElideEmptyRegion(),),
}
