"""Canonicalization patterns of the ops in `memplan.dialects.iree.stream_runtime`, as
IREE's `StreamOpFolders.cpp` defines them (the table `PATTERNS`, by op name, is
what those ops' `CanonicalizedBy` trait returns).

- `ElideUnused`: an op none of whose results is used goes, whatever its effects
  (IREE's `ElideUnusedOp`: a file read, a collective or a parameter transfer
  nobody waits on is work nobody needs).
- `ElideImmediateWait`: waiting on `stream.timepoint.immediate` is no wait.
- `FoldChannelQuery`: the rank or count of a channel created with one is it.
- `DeduplicateEntryPoints`: a dispatch names each entry point once.

IREE also folds a subview into a parameter transfer's target or source; memplan
does not: the result would then stand for the whole resource, not the view.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from memplan.dialects.iree import stream_runtime as rt
from memplan.passes.patterns.stream import _is_immediate


class ElideUnused(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if op.results and all(not result.uses for result in op.results):
            rewriter.erase(op)


def _without_await(op: IRDLOperation) -> IRDLOperation:
    """`op` rebuilt with its `await_timepoint` group empty (its regions moved)."""
    groups = []
    for name, _ in type(op).get_irdl_definition().operands:
        value = getattr(op, name)
        if name == "await_timepoint" or value is None:
            groups.append([])
        elif isinstance(value, SSAValue):
            groups.append(value)
        else:
            groups.append(list(value))
    properties = {
        k: v for k, v in op.properties.items() if k != "operandSegmentSizes"
    }
    return type(op).build(
        operands=groups,
        result_types=[r.type for r in op.results],
        properties=properties,
        attributes=dict(op.attributes),
        regions=[op.detach_region(region) for region in list(op.regions)],
    )


class ElideImmediateWait(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        timepoint = getattr(op, "await_timepoint", None)
        if timepoint is None or not _is_immediate(timepoint):
            return
        assert isinstance(op, IRDLOperation)
        rewriter.replace(op, _without_await(op))


class FoldChannelQuery(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: rt.ChannelRankOp | rt.ChannelCountOp, rewriter: PatternRewriter, /
    ):
        create = op.channel.owner
        if not isinstance(create, rt.ChannelCreateOp):
            return
        value = create.rank if isinstance(op, rt.ChannelRankOp) else create.count
        if value is not None:
            rewriter.replace(op, [], [value])


class DeduplicateEntryPoints(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: rt.TensorDispatchOp, rewriter: PatternRewriter, /):
        entry_points = list(dict.fromkeys(op.entry_points.data))
        if len(entry_points) == len(op.entry_points.data):
            return
        op.entry_points = ArrayAttr(entry_points)
        rewriter.handle_operation_modification(op)


_PARAMETER_TRANSFER = (ElideUnused(), ElideImmediateWait())

PATTERNS = {
    "stream.file.read": (ElideUnused(),),
    "stream.file.write": (ElideUnused(),),
    "stream.tensor.dispatch": (ElideUnused(), DeduplicateEntryPoints()),
    "stream.async.collective": (ElideUnused(),),
    "stream.channel.create": (ElideUnused(),),
    "stream.channel.split": (ElideUnused(),),
    "stream.channel.rank": (FoldChannelQuery(),),
    "stream.channel.count": (FoldChannelQuery(),),
    "stream.async.parameter.load": _PARAMETER_TRANSFER,
    "stream.async.parameter.read": _PARAMETER_TRANSFER,
    "stream.async.parameter.write": _PARAMETER_TRANSFER,
    "stream.async.parameter.gather": _PARAMETER_TRANSFER,
    "stream.async.parameter.scatter": _PARAMETER_TRANSFER,
    "stream.cmd.parameter.load": _PARAMETER_TRANSFER,
    "stream.cmd.parameter.read": _PARAMETER_TRANSFER,
    "stream.cmd.parameter.write": _PARAMETER_TRANSFER,
    "stream.cmd.parameter.gather": _PARAMETER_TRANSFER,
    "stream.cmd.parameter.scatter": _PARAMETER_TRANSFER,
}
