"""Canonicalization patterns of `memplan.dialects.stream_cmd`'s ops, as IREE's
`StreamOpFolders.cpp` defines them (the table `PATTERNS`, by op name, is what
those ops' `CanonicalizedBy` trait returns).

- `stream.cmd.execute`: an await on `stream.timepoint.immediate` is dropped; an
  execute whose timepoint nobody uses goes (IREE's `ElideUnusedOp`: work nobody
  waits on is not needed); one with an empty body is its await timepoint
  (immediate without one; IREE makes it immediate in both cases); a captured
  `stream.timepoint.await` result is captured as the awaited resource and the
  execute waits on its timepoint.
- `stream.cmd.serial` / `stream.cmd.concurrent` with an empty body go.

IREE also folds subviews into the commands' ranges, deduplicates captures (`ClosureOptimizationPattern`) and a dispatch's repeated
entry points; memplan does not yet.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from memplan.dialects import stream, stream_cmd as cmd
from memplan.passes.patterns.stream import _source_await
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
            rewriter.replace_op(op, [], [op.await_timepoint])
        else:
            rewriter.replace_op(op, stream.TimepointImmediateOp())


class ChainDependentAwaits(RewritePattern):
    """A captured resource that is a `stream.timepoint.await` result is captured
    as the awaited resource, and the execute waits on that timepoint instead (with
    its own, joined)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cmd.CmdExecuteOp, rewriter: PatternRewriter, /):
        operands = list(op.resource_operands)
        timepoints: list[SSAValue] = []
        for i, value in enumerate(operands):
            awaited = _source_await(value)
            if awaited is None:
                continue
            operands[i] = awaited.resource_operands[awaited.results.index(value)]
            if awaited.await_timepoint not in timepoints:
                timepoints.append(awaited.await_timepoint)
        if not timepoints:
            return
        if op.await_timepoint is not None and op.await_timepoint not in timepoints:
            timepoints.insert(0, op.await_timepoint)
        timepoint = timepoints[0]
        if len(timepoints) > 1:
            join = stream.TimepointJoinOp(timepoints)
            rewriter.insert(join, InsertPoint.before(op))
            timepoint = join.result_timepoint
        new = cmd.CmdExecuteOp.build(
            operands=[operands, list(op.resource_operand_sizes), [timepoint]],
            properties={k: v for k, v in op.properties.items() if k != "operandSegmentSizes"},
            attributes=dict(op.attributes),
            result_types=[op.result_timepoint.type],
            regions=[op.detach_region(op.body)],
        )
        rewriter.replace_op(op, new)


class ElideEmptyRegion(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if isinstance(op, cmd.CmdSerialOp | cmd.CmdConcurrentOp) and _only_yield(op):
            rewriter.erase_op(op)


PATTERNS = {
    "stream.cmd.execute": (
        ElideImmediateWait(), ChainDependentAwaits(), ElideNoOpExecute(), ElideUnused(),
    ),
    "stream.cmd.serial": (ElideEmptyRegion(),),
    "stream.cmd.concurrent": (ElideEmptyRegion(),),
}
