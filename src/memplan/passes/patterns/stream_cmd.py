"""Canonicalization patterns of `memplan.dialects.stream_cmd`'s ops, as IREE's
`StreamOpFolders.cpp` defines them (the table `PATTERNS`, by op name, is what
those ops' `CanonicalizedBy` trait returns).

- `stream.cmd.execute`: an await on `stream.timepoint.immediate` is dropped; an
  execute whose timepoint nobody uses goes (IREE's `ElideUnusedOp`: work nobody
  waits on is not needed); one with an empty body is its await timepoint
  (immediate without one; IREE makes it immediate in both cases).
- `stream.cmd.serial` / `stream.cmd.concurrent` with an empty body go.

IREE also folds subviews into the commands' ranges, chains dependent awaits,
deduplicates captures (`ClosureOptimizationPattern`) and a dispatch's repeated
entry points; memplan does not yet.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from memplan.dialects import stream, stream_cmd as cmd
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


class ElideEmptyRegion(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if isinstance(op, cmd.CmdSerialOp | cmd.CmdConcurrentOp) and _only_yield(op):
            rewriter.erase_op(op)


PATTERNS = {
    "stream.cmd.execute": (ElideImmediateWait(), ElideNoOpExecute(), ElideUnused()),
    "stream.cmd.serial": (ElideEmptyRegion(),),
    "stream.cmd.concurrent": (ElideEmptyRegion(),),
}
