"""Canonicalization patterns of IREE's `util` ops (`PATTERNS`, by op name), declared
on the ops through `memplan.dialects.util.UTIL_PATTERNS`.

- An initializer whose body does nothing but return is erased (IREE's
  `DropEmptyInitializerOp`).
- Storing into a global the value just loaded from it is a no-op and is erased, but
  only when nothing between the load and the store may write that global. IREE 3.13
  erases it whenever the value comes from a load of the same global, which is wrong
  when another store lies between (`load @g; store %v, @g; store %loaded, @g` must
  leave the old value in `@g`, and IREE leaves `%v`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.dialects import ub
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from memplan.analysis.globals import GlobalLoadInterface, GlobalStoreInterface
from memplan.analysis.purity import EVERYTHING, written_resources
from memplan.dialects import util
from memplan.interfaces import get_interface

__all__ = ["DropEmptyInitializer", "EraseStoreOfLoadedValue", "PATTERNS"]


class DropEmptyInitializer(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.InitializerOp, rewriter: PatternRewriter, /):
        blocks = list(op.body.blocks)
        if len(blocks) != 1 or blocks[0].args:
            return
        only = blocks[0].first_op
        if (
            only is not None
            and only is blocks[0].last_op
            and only.has_trait(IsTerminator, value_if_unregistered=False)
            and not only.operands
        ):
            rewriter.erase(op)


def _may_write_between(first: Operation, last: Operation, symbol: SymbolRefAttr) -> bool:
    """Whether an op strictly between `first` and `last` (same block) may write
    `symbol` (a region op's recursive effects include its nested stores)."""
    current = first.next_op
    while current is not None and current is not last:
        written = written_resources(current)
        if written is None or EVERYTHING in written or symbol in written:
            return True
        current = current.next_op
    return current is None


class EraseStoreOfLoadedValue(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.GlobalStoreOp, rewriter: PatternRewriter, /):
        store = get_interface(op, GlobalStoreInterface)
        if store is None:
            return
        value = store.value(op)
        load_op = value.owner
        if not isinstance(load_op, Operation) or load_op.parent is not op.parent:
            return
        load = get_interface(load_op, GlobalLoadInterface)
        if load is None or load.symbol(load_op) != store.symbol(op):
            return
        reference = store.reference(op)
        if isinstance(reference, SymbolRefAttr) and not _may_write_between(
            load_op, op, reference
        ):
            rewriter.erase(op)


def _in_scf_region(op: Operation) -> bool:
    """Directly inside a region of an `scf` op: its blocks must end in `scf.yield`
    (IREE asks for the parent's dialect the same way)."""
    parent = op.parent_op()
    return parent is not None and parent.dialect_name() == "scf"


def _poison(rewriter: PatternRewriter, at: Operation, types) -> list[SSAValue]:
    values = []
    for type in types:
        poison = ub.PoisonOp(type)
        rewriter.insert_op(poison, InsertPoint.before(at))
        values.append(poison.result)
    return values


class SCFUnreachableToTerminator(RewritePattern):
    """Outside structured control flow, `util.scf.unreachable` ends its block as
    `util.unreachable`: everything after it is dead (results become poison for
    uses that escape the block)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.SCFUnreachableOp, rewriter: PatternRewriter, /):
        if _in_scf_region(op):
            return
        dead = []
        current = op.next_op
        while current is not None:
            dead.append(current)
            current = current.next_op
        for later in dead:
            if later.results:
                poisons = _poison(rewriter, op, later.result_types)
                for old, new in zip(later.results, poisons):
                    rewriter.replace_all_uses_with(old, new)
        for later in reversed(dead):
            rewriter.erase_op(later, safe_erase=False)
        rewriter.replace_op(op, util.UnreachableOp.build(
            properties={"message": op.message} if op.message is not None else {},
            attributes=dict(op.attributes),
        ))


class SimplifySCFUnreachableInSCFRegion(RewritePattern):
    """Inside structured control flow, what follows `util.scf.unreachable` up to the
    terminator is erased and the terminator yields poison."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.SCFUnreachableOp, rewriter: PatternRewriter, /):
        if not _in_scf_region(op):
            return
        block = op.parent
        assert block is not None
        terminator = block.last_op
        if terminator is None or not terminator.has_trait(IsTerminator):
            return
        if terminator.operands and not all(
            isinstance(v.owner, ub.PoisonOp) for v in terminator.operands
        ):
            poisons = _poison(rewriter, terminator, [v.type for v in terminator.operands])
            for index, value in enumerate(poisons):
                terminator.operands[index] = value
            rewriter.notify_op_modified(terminator)
        dead = []
        current = op.next_op
        while current is not None and current is not terminator:
            if not isinstance(current, ub.PoisonOp):
                dead.append(current)
            current = current.next_op
        for later in reversed(dead):
            rewriter.erase_op(later, safe_erase=False)


PATTERNS = {
    "util.initializer": (DropEmptyInitializer(),),
    "util.global.store": (EraseStoreOfLoadedValue(),),
    "util.scf.unreachable": (
        SCFUnreachableToTerminator(),
        SimplifySCFUnreachableInSCFRegion(),
    ),
}
