"""Canonicalization patterns of `memplan.dialects.iree.hal`'s ops, as IREE's
`HALOpFolders.cpp` defines them (the table `PATTERNS`, by op name, is what those
ops' `CanonicalizedBy` trait returns).

- `hal.fence.await` of no fence waits for nothing: its status is OK (0).
- `hal.fence.await` that names one fence twice waits once on it. (IREE also drops
  null fences; memplan keeps them.)
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from memplan.dialects.iree import hal


class ElideEmptyFenceAwait(RewritePattern):
    """Awaiting no fence is an OK status."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hal.FenceAwaitOp, rewriter: PatternRewriter, /):
        if not op.fences:
            rewriter.replace_op(op, arith.ConstantOp(IntegerAttr(0, op.status.type)))


class DeduplicateFenceAwaitFences(RewritePattern):
    """A fence awaited twice in one await is awaited once (first occurrence order)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hal.FenceAwaitOp, rewriter: PatternRewriter, /):
        unique = list(dict.fromkeys(op.fences))
        if len(unique) == len(op.fences):
            return
        new = hal.FenceAwaitOp.build(
            operands=[op.timeout_millis, unique],
            properties={"flags": op.flags},
            attributes=dict(op.attributes),
            result_types=[op.status.type],
        )
        rewriter.replace_op(op, new)


PATTERNS = {
    "hal.fence.await": (ElideEmptyFenceAwait(), DeduplicateFenceAwaitFences()),
}
