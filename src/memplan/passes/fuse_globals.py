"""`fuse-globals` (IREE's `iree-util-fuse-globals`): globals that always hold the
same value become one.

Two private globals, used only by loads and stores, are fused when every store to
either has, in the same block, a store of the same SSA value to the other, with no
access to either global and no op of unknown effects (a call) between the two
stores; and when they start equal (same initial value, or both uninitialized) with
the same type and dialect attributes. Then they hold equal values at every point
where a load could see them, so loads of the later global load the first one, and
its stores and the global itself go away.

Subsets fuse: if @a, @b and @c are stored %v together in one function and only @a,
@b together in another, @a and @b fuse and @c stays. A global also stored elsewhere
with another value fuses with nothing.

See docs/design/fuse-globals.md.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from memplan.analysis.globals import Global, GlobalTable, store_model
from memplan.analysis.purity import effects_of, memoized_effects
from memplan.passes.base import MemplanPass


class _BlockIndex:
    """Positions in one block of the ops that may see a global's value change."""

    def __init__(self, block: Block):
        self.block = block
        self.position = {op: i for i, op in enumerate(block.ops)}
        self.unknown = [i for i, op in enumerate(block.ops) if effects_of(op) is None]
        self._accesses: dict[Global, list[int]] = {}

    def ancestor_position(self, op: Operation) -> int | None:
        """The position of the op of this block that is or contains `op`."""
        current: Operation | None = op
        while current is not None:
            if current.parent is self.block:
                return self.position[current]
            current = current.parent_op()
        return None

    def accesses(self, g: Global) -> list[int]:
        """Sorted positions of the ops of this block that load or store `g`."""
        found = self._accesses.get(g)
        if found is None:
            positions = (self.ancestor_position(op) for op in (*g.loads, *g.stores))
            found = sorted(p for p in positions if p is not None)
            self._accesses[g] = found
        return found

    def clear_between(self, i: int, j: int, a: Global, b: Global) -> bool:
        """No access to `a` or `b` and no op of unknown effects strictly between
        positions `i` and `j`."""
        low, high = min(i, j), max(i, j)
        for positions in (self.unknown, self.accesses(a), self.accesses(b)):
            k = bisect.bisect_right(positions, low)
            if k < len(positions) and positions[k] < high:
                return False
        return True


def _correlations(table: GlobalTable, candidates: list[Global]) -> dict[Global, set[Global]]:
    """For each candidate, the globals stored the same value next to it at every
    one of its stores (itself included)."""
    by_site: dict[tuple[SSAValue, Block], list[tuple[Global, Operation]]] = defaultdict(list)
    for g in candidates:
        for store in g.stores:
            block = store.parent_block()
            assert block is not None
            by_site[(store_model(store).value(store), block)].append((g, store))
    indexes: dict[Block, _BlockIndex] = {}
    correlated: dict[Global, set[Global]] = {}
    for g in candidates:
        common: set[Global] | None = None
        for store in g.stores:
            block = store.parent_block()
            assert block is not None
            site = by_site[(store_model(store).value(store), block)]
            here = {g}
            if len(site) > 1:
                index = indexes.get(block) or indexes.setdefault(block, _BlockIndex(block))
                i = index.position[store]
                for other, other_store in site:
                    if other is not g and index.clear_between(
                        i, index.position[other_store], g, other
                    ):
                        here.add(other)
            common = here if common is None else common & here
            if len(common) == 1:
                break
        correlated[g] = common or {g}
    return correlated


def _key(g: Global, mutual: frozenset[Global]) -> Hashable:
    return (mutual, g.initial_value, g.type, g.model.dialect_attributes(g.op))


@memoized_effects()
def fuse_globals(module: ModuleOp) -> bool:
    table = GlobalTable(module)
    candidates = [g for g in table if g.candidate and g.stores]
    correlated = _correlations(table, candidates)
    groups: dict[Hashable, list[Global]] = defaultdict(list)
    for g in candidates:
        mutual = frozenset(h for h in correlated[g] if g in correlated[h])
        if len(mutual) < 2:
            continue
        try:
            groups[_key(g, mutual)].append(g)
        except TypeError:  # an unhashable initial value: fuse nothing
            continue
    changed = False
    for members in groups.values():
        if len(members) < 2:
            continue
        leader, *others = sorted(members, key=lambda g: g.order)
        for g in others:
            table.redirect_uses(g, leader)
            table.erase(g)
            changed = True
    return changed


@dataclass(frozen=True)
class FuseGlobals(MemplanPass):
    """Fuse private globals that are always stored the same value in the same block
    and start with the same initial value into the first of them."""

    name = "fuse-globals"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        return fuse_globals(module)
