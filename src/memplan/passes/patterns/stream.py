"""Canonicalization patterns of IREE's `stream` ops, attached to the ops as models.

As IREE 3.13 (`StreamOpFolders.cpp`), with one rewrite left out on purpose:

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

from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from memplan.dialects import stream
from memplan.interfaces import attach_trait, get_interface
from memplan.passes.patterns.common import CanonicalizationPatterns

__all__ = ["FoldEncodeOfSameEncoding", "FoldResourceSize", "FoldTransferOfTransfer",
           "known_size"]


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


attach_trait(stream.AsyncTransferOp, CanonicalizationPatterns((FoldTransferOfTransfer(),)))
attach_trait(stream.TensorEncodeOp, CanonicalizationPatterns((FoldEncodeOfSameEncoding(),)))
attach_trait(stream.ResourceSizeOp, CanonicalizationPatterns((FoldResourceSize(),)))
