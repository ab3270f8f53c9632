"""Dialect-independent cleanups shared by `canonicalize` and `apply-patterns`.

- Control flow: which terminator operands feed which successor's block arguments is
  the `SuccessorOperands` interface (MLIR's `BranchOpInterface`, in
  `memplan.interfaces`). With it, block arguments that receive the same value from
  every predecessor are replaced by that value, unused ones are dropped, and (for
  apply-patterns, as IREE's `FoldBlockArgumentsPattern`) two arguments that always
  receive equal values become one. Blocks no path reaches are erased.
- Constants: equal constant-like ops are merged, and every constant moves to the
  front of the entry block of its nearest isolated-from-above region, as MLIR's
  folder does, so the merged one dominates every former use.

Every function returns whether it changed the IR.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import (
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    IsolatedFromAbove,
)

from memplan.analysis.dominance import DominatorTree
from memplan.analysis.equivalence import OpKey
import memplan.dialects.mlir.upstream_models  # noqa: F401  (branch models)
from memplan.interfaces import SuccessorOperands, get_interface

__all__ = [
    "CanonicalizationPatterns",
    "available_at",
    "SuccessorOperands",
    "erase_unreachable_blocks",
    "fold_block_arguments",
    "move_to_front",
    "replace_uses",
    "unique_constants",
]


@dataclass(frozen=True)
class CanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    """An op's canonicalization patterns as an attachable model (`attach_trait`), so
    patterns can live apart from the dialect that defines the op."""

    patterns: tuple[RewritePattern, ...] = ()

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        return self.patterns

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()


def available_at(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined before `op` in its block or an enclosing one (so
    it dominates `op` and may be used at it)."""
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


def replace_uses(old: SSAValue, new: SSAValue) -> None:
    """Make every use of `old` a use of `new`, keeping `new`'s name as it is (xDSL
    would give an unnamed `new` the name of `old`; MLIR's printer keeps it)."""
    name = new.name_hint
    old.replace_all_uses_with(new)
    new.name_hint = name


def _multi_block_regions(root: Operation) -> Iterator[Region]:
    for op in root.walk():
        for region in op.regions:
            if region.blocks.first is not region.blocks.last:
                yield region


def erase_unreachable_blocks(root: Operation) -> bool:
    """Erase the blocks no path from their region's entry reaches."""
    changed = False
    for region in list(_multi_block_regions(root)):
        dead = DominatorTree(region).unreachable
        # Detach them all before erasing any: they may use each other's values.
        for block in dead:
            region.detach_block(block)
        for block in dead:
            block.erase(safe_erase=False)
            changed = True
    return changed


def _incoming(block: Block) -> list[tuple[Operation, int, SuccessorOperands]] | None:
    """Every (terminator, successor index, model) branching to `block`; None when one
    of them does not say which operands it forwards."""
    edges: list[tuple[Operation, int, SuccessorOperands]] = []
    for use in block.uses:
        model = get_interface(use.operation, SuccessorOperands)
        if model is None:
            return None
        edges.append((use.operation, use.index, model))
    return edges


def _is_entry(block: Block) -> bool:
    region = block.parent
    return region is None or region.blocks.first is block


def _replacement(block: Block, index: int, edges, duplicates: bool) -> SSAValue | None:
    """What argument `index` of `block` can be replaced by: the one value every
    predecessor passes (ignoring the argument passed back to itself), or with
    `duplicates` an earlier argument that always receives the same value."""
    arg = block.args[index]
    incoming = [model.forwarded(op, succ)[index] for op, succ, model in edges]
    distinct = {v for v in incoming if v is not arg}
    if len(distinct) == 1:
        (value,) = distinct
        owner = value.owner
        defining_block = owner if isinstance(owner, Block) else owner.parent_block()
        if defining_block is not block:
            return value
    if not duplicates:
        return None
    for earlier in range(index):
        if all(model.forwarded(op, succ)[earlier] is v
               for (op, succ, model), v in zip(edges, incoming)):
            return block.args[earlier]
    return None


def fold_block_arguments(root: Operation, *, duplicates: bool = False) -> bool:
    """Drop block arguments that are unused or receive the same value from every
    predecessor (and, with `duplicates`, those that always equal an earlier one)."""
    changed = False
    for region in list(_multi_block_regions(root)):
        for block in list(region.blocks):
            if _is_entry(block) or not block.args or not block.uses:
                continue
            edges = _incoming(block)
            if edges is None:
                continue
            drop: set[int] = set()
            for index, arg in enumerate(block.args):
                if arg.uses:
                    value = _replacement(block, index, edges, duplicates)
                    if value is None:
                        continue
                    replace_uses(arg, value)
                drop.add(index)
            if not drop:
                continue
            per_terminator: dict[Operation, dict[int, set[int]]] = {}
            for op, succ, _ in edges:
                per_terminator.setdefault(op, {})[succ] = drop
            for op, successors in per_terminator.items():
                model = get_interface(op, SuccessorOperands)
                assert model is not None
                replacement = model.without(op, successors)
                op_block = op.parent_block()
                assert op_block is not None
                op_block.insert_op_before(replacement, op)
                op.detach()
                op.erase()
            for index in sorted(drop, reverse=True):
                block.erase_arg(block.args[index])
            changed = True
    return changed


def _insertion_region(block: Block) -> Region | None:
    """Where MLIR's folder puts constants: the region of the closest ancestor that is
    isolated from above (or unregistered, or top-level)."""
    region = block.parent
    while region is not None:
        parent = region.parent
        if (
            parent is None
            or parent.parent is None
            or isinstance(parent, UnregisteredOp)
            or parent.has_trait(IsolatedFromAbove)
        ):
            return region
        outer = parent.parent
        region = outer.parent if outer is not None else None
    return None


def _is_constant(op: Operation) -> bool:
    return (
        not op.operands
        and not op.regions
        and len(op.results) == 1
        and get_interface(op, ConstantLike) is not None
    )


def move_to_front(block: Block, ops: Sequence[Operation]) -> bool:
    """Put `ops` (in this order) at the front of `block`; return whether any moved.
    The ops must not use values defined in `block` (constants, global loads)."""
    current = block.first_op
    for op in ops:
        if current is not op:
            break
        current = current.next_op
    else:
        return False
    anchor = block.first_op
    for op in ops:
        if op is anchor:
            anchor = op.next_op
            continue
        op.detach()
        if anchor is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, anchor)
    return True


def unique_constants(root: Operation) -> bool:
    """Merge equal constants of each insertion region and put them all, in program
    order, at the front of the region's entry block."""
    changed = False
    scopes: dict[Region, tuple[dict[OpKey, Operation], list[Operation]]] = {}
    for op in list(root.walk()):
        if not _is_constant(op) or op.parent is None:
            continue
        region = _insertion_region(op.parent)
        if region is None or region.blocks.first is None:
            continue
        seen, order = scopes.setdefault(region, ({}, []))
        key = OpKey(op)
        kept = seen.get(key)
        if kept is None:
            seen[key] = op
            order.append(op)
            continue
        replace_uses(op.results[0], kept.results[0])
        op.detach()
        op.erase()
        changed = True
    for region, (_, order) in scopes.items():
        entry = region.blocks.first
        assert entry is not None
        changed |= move_to_front(entry, order)
    return changed

