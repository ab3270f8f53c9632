"""Canonicalization patterns of IREE's `util` ops (`PATTERNS`, by op name), declared
on the ops through `memplan.dialects.iree.util.UTIL_PATTERNS`.

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
from xdsl.dialects import arith, scf, ub
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from memplan.util_interfaces import GlobalLoadInterface, GlobalStoreInterface
from memplan.analysis.purity import EVERYTHING, written_resources
from memplan.dialects.iree import util
from memplan.interfaces import get_interface

__all__ = ["APPLY_PATTERNS", "DropEmptyInitializer", "EraseStoreOfLoadedValue", "PATTERNS"]


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
        rewriter.insert(poison, InsertPoint.before(at))
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
            rewriter.erase(later, safe_erase=False)
        rewriter.replace(op, util.UnreachableOp.build(
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
            rewriter.erase(later, safe_erase=False)


class IndexSwitchToIf(RewritePattern):
    """An `scf.index_switch` with one case is an `scf.if` on `%arg == case`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IndexSwitchOp, rewriter: PatternRewriter, /):
        if len(op.case_regions) != 1:
            return
        (value,) = op.cases.iter_values()
        case = arith.ConstantOp(IntegerAttr(value, IndexType()))
        test = arith.CmpiOp(op.arg, case.result, "eq")
        rewriter.insert([case, test], InsertPoint.before(op))
        then_region = op.detach_region(op.case_regions[0])
        else_region = op.detach_region(op.default_region)
        only = else_region.block.first_op
        if not op.result_types and only is else_region.block.last_op and (
            only is not None and only.has_trait(IsTerminator) and not only.operands
        ):
            else_region = Region()  # an empty default is no else branch
        new = scf.IfOp(test.result, list(op.result_types), then_region, else_region)
        rewriter.replace(op, new)


def _clone_body(
    source: Region, into: Block, mapping: dict[SSAValue, SSAValue]
) -> list[SSAValue]:
    """Clone the non-terminator ops of `source`'s block into `into`; return what
    its terminator yields, mapped."""
    block = source.block
    for op in block.ops:
        if op is block.last_op and op.has_trait(IsTerminator):
            break
        into.add_op(op.clone(value_mapper=mapping))
    terminator = block.last_op
    assert terminator is not None
    return [mapping.get(v, v) for v in terminator.operands]


class MergeIndexSwitches(RewritePattern):
    """Two adjacent `scf.index_switch` on the same value with the same cases are
    one: each region runs the first's body then the second's."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IndexSwitchOp, rewriter: PatternRewriter, /):
        prev = op.prev_op
        if not isinstance(prev, scf.IndexSwitchOp) or prev.arg is not op.arg:
            return
        if tuple(prev.cases.iter_values()) != tuple(op.cases.iter_values()):
            return

        def merged(a: Region, b: Region) -> Region:
            block = Block()
            mapping: dict[SSAValue, SSAValue] = {}
            first = _clone_body(a, block, mapping)
            mapping.update(zip(prev.results, first))
            second = _clone_body(b, block, mapping)
            block.add_op(scf.YieldOp(*first, *second))
            return Region(block)

        regions = [merged(a, b) for a, b in zip(prev.case_regions, op.case_regions)]
        default = merged(prev.default_region, op.default_region)
        new = scf.IndexSwitchOp(
            op.arg, prev.cases, default, regions,
            [*prev.result_types, *op.result_types],
        )
        rewriter.insert(new, InsertPoint.before(prev))
        count = len(prev.results)
        _replace_all(rewriter, op, new.results[count:])
        _replace_all(rewriter, prev, new.results[:count])


def _replace_all(rewriter: PatternRewriter, op: Operation, values) -> None:
    rewriter.replace(op, [], list(values))


class FoldIndirectLoad(RewritePattern):
    """Loading through the address of a named global is loading that global."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.GlobalLoadIndirectOp, rewriter: PatternRewriter, /):
        address = op.global_.owner
        if isinstance(address, util.GlobalAddressOp):
            rewriter.replace(op, util.GlobalLoadOp(
                address.global_, op.result.type, immutable=op.is_immutable is not None
            ))


class FoldIndirectStore(RewritePattern):
    """Storing through the address of a named global is storing that global."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.GlobalStoreIndirectOp, rewriter: PatternRewriter, /):
        address = op.global_.owner
        if isinstance(address, util.GlobalAddressOp):
            rewriter.replace(op, util.GlobalStoreOp(op.value, address.global_))


APPLY_PATTERNS = (MergeIndexSwitches(), IndexSwitchToIf())
"""IREE's util "common" patterns that apply-patterns adds to every op's own, merging
first (IREE gives it the higher benefit)."""


PATTERNS = {
    "util.initializer": (DropEmptyInitializer(),),
    "util.global.store": (EraseStoreOfLoadedValue(),),
    "util.global.load.indirect": (FoldIndirectLoad(),),
    "util.global.store.indirect": (FoldIndirectStore(),),
    "util.scf.unreachable": (
        SCFUnreachableToTerminator(),
        SimplifySCFUnreachableInSCFRegion(),
    ),
}
