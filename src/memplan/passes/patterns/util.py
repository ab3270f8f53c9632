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
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
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


PATTERNS = {
    "util.initializer": (DropEmptyInitializer(),),
    "util.global.store": (EraseStoreOfLoadedValue(),),
}
