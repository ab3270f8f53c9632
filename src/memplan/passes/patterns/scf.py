"""Canonicalization patterns of `scf.while` and `scf.for` (`PATTERNS`, by op name),
as MLIR's `WhileOp::getCanonicalizationPatterns` defines them (xDSL declares none)
and the one of MLIR's `scf.for` patterns xDSL lacks (`ForOpIterArgsFolder`).

- A before-block argument is loop invariant when the after block yields back the
  init value, or the after-block argument carrying the value the condition passed
  as that very argument (or its init value): it becomes the init value.
- A value the condition passes that is defined outside the before block is that
  value in the after block and as the loop's result.
- A result unused after the loop whose after-block argument is unused too is
  dropped.

Together they turn a loop that only carries values around into one without
results, which is erased when its body has no effects (an unknown trip count does
not keep it, as in MLIR).

- An `scf.for` iteration argument the body yields back unchanged (itself or its
  init value), or that neither the body nor anyone after the loop uses, is its init
  value: the loop no longer carries it (IREE's stream conversion threads resource
  sizes through loops this way).
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects import scf
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

__all__ = ["PATTERNS"]


def _forward(rewriter: PatternRewriter, old: SSAValue, new: SSAValue) -> None:
    """Every use of `old` uses `new`, whose name stays as it is."""
    name = new.name_hint
    rewriter.replace_all_uses_with(old, new)
    new.name_hint = name


def _parts(op: scf.WhileOp) -> tuple[Block, Block, scf.ConditionOp, Operation] | None:
    """The before and after blocks of a well-formed loop, with their terminators."""
    before, after = op.before_region.blocks.first, op.after_region.blocks.first
    if before is None or after is None or after.last_op is None:
        return None
    condition = before.last_op
    if not isinstance(condition, scf.ConditionOp):
        return None
    return before, after, condition, after.last_op


class RemoveLoopInvariantArgsFromBeforeBlock(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /):
        if (parts := _parts(op)) is None:
            return
        before, after, condition, yielded = parts
        inits = list(op.arguments)
        invariant: list[int] = []
        for i, (init, value) in enumerate(zip(inits, yielded.operands)):
            if value is init:
                invariant.append(i)
            elif isinstance(value, BlockArgument) and value.block is after:
                passed = condition.args[value.index]
                if passed is before.args[i] or passed is init:
                    invariant.append(i)
        if not invariant:
            return
        dropped = set(invariant)
        for i in reversed(invariant):
            _forward(rewriter, before.args[i], inits[i])
            rewriter.erase_block_argument(before.args[i])
        kept = [i for i in range(len(inits)) if i not in dropped]
        rewriter.replace(yielded, type(yielded).create(
            operands=[yielded.operands[i] for i in kept],
            attributes=dict(yielded.attributes), properties=dict(yielded.properties),
        ))
        op.operands = [inits[i] for i in kept]
        rewriter.notify_op_modified(op)


def _drop_results(
    op: scf.WhileOp, rewriter: PatternRewriter, dropped: Mapping[int, SSAValue | None]
) -> None:
    """The loop without the results (and after-block arguments) in `dropped`, each
    replaced by its value there (None: it had no uses)."""
    parts = _parts(op)
    assert parts is not None
    _, after, condition, _ = parts
    count = len(op.results)
    for i in sorted(dropped, reverse=True):
        value = dropped[i]
        if value is not None:
            _forward(rewriter, after.args[i], value)
        rewriter.erase_block_argument(after.args[i])
    kept = [i for i in range(count) if i not in dropped]
    rewriter.replace(condition, scf.ConditionOp(
        condition.condition, *[condition.args[i] for i in kept]
    ))
    regions = (op.before_region, op.after_region)
    new = scf.WhileOp(
        list(op.arguments), [op.results[i].type for i in kept],
        *(op.detach_region(r) for r in regions),
    )
    new.attributes.update(op.attributes)
    rewriter.insert(new, InsertPoint.before(op))
    results: list[SSAValue | None] = [None] * count
    for position, i in enumerate(kept):
        results[i] = new.results[position]
    for i, value in dropped.items():
        results[i] = value
    rewriter.replace(op, [], results)


class RemoveLoopInvariantValueYielded(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /):
        if (parts := _parts(op)) is None:
            return
        before, _, condition, _ = parts
        outside = {
            i: value for i, value in enumerate(condition.args)
            if _defining_block(value) is not before
        }
        if outside:
            _drop_results(op, rewriter, outside)


def _defining_block(value: SSAValue) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.block
    return value.owner.parent_block()  # type: ignore[union-attr]


class WhileUnusedResult(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /):
        if (parts := _parts(op)) is None:
            return
        after = parts[1]
        unused: dict[int, SSAValue | None] = {
            i: None for i, result in enumerate(op.results)
            if not result.uses and not after.args[i].uses
        }
        if unused:
            _drop_results(op, rewriter, unused)


class ForOpIterArgsFolder(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter, /):
        body = op.body.blocks.first
        if body is None or not isinstance(body.last_op, scf.YieldOp):
            return
        yielded = body.last_op
        carried = body.args[1:]
        if len(carried) != len(op.iter_args) or len(yielded.arguments) != len(carried):
            return
        invariant = [
            i for i, (arg, init, value, result) in enumerate(
                zip(carried, op.iter_args, yielded.arguments, op.results)
            )
            if value is arg or value is init or (not result.uses and not arg.uses)
        ]
        if not invariant:
            return
        inits = list(op.iter_args)
        for i in invariant:
            _forward(rewriter, carried[i], inits[i])
        kept = [i for i in range(len(carried)) if i not in invariant]
        rewriter.replace(yielded, scf.YieldOp(*[yielded.arguments[i] for i in kept]))
        for i in reversed(invariant):
            rewriter.erase_block_argument(body.args[i + 1])
        new = scf.ForOp(
            op.lb, op.ub, op.step, [inits[i] for i in kept],
            rewriter.move_region_contents_to_new_regions(op.body),
        )
        new.attributes.update(op.attributes)
        rewriter.insert(new, InsertPoint.before(op))
        results: list[SSAValue] = list(inits)
        for position, i in enumerate(kept):
            results[i] = new.results[position]
        rewriter.replace(op, [], results)


PATTERNS = {
    "scf.for": (ForOpIterArgsFolder(),),
    "scf.while": (
        RemoveLoopInvariantArgsFromBeforeBlock(),
        RemoveLoopInvariantValueYielded(),
        WhileUnusedResult(),
    ),
}
