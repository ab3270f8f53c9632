"""`simplify-global-accesses` (IREE's `iree-util-simplify-global-accesses`).

Within every function and initializer, and within each block of it:

- loads of immutable globals move to the top of the entry block, one per global,
  and every later load of the same global reuses it (they cannot change, so control
  flow does not matter);
- the other accesses are grouped into *segments* that end at barriers, and within a
  segment, per global: a load after a store takes the stored value (read after
  write), a load after a load reuses the first (read after read), and a store after
  a store makes the first dead (write after write).

A barrier is any op the pass cannot see through: one with unknown effects (calls
have none declared), one whose effects touch unknown memory, or one other than a
plain load/store that touches a global (a region op containing accesses, an
indirect access). Inside an initializer every global counts as mutable: it is the
initializer that gives the immutable ones their value, so their loads are ordered
with the stores.

Then, as IREE, within each segment the first access of a global moves to the
segment's start when it is a load, and the last one to the segment's end when it is
a store: the rest of the segment touches no global (a barrier would have ended it),
so this only widens the window the next pass sees, and later passes see loads
early and stores late.

Globals, loads, stores and initializers are recognised through the interfaces of
`memplan.util_interfaces` the ops declare, never by op name.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Block, Operation, Region
from xdsl.traits import IsolatedFromAbove, IsTerminator, SymbolTable

from memplan.analysis.purity import effects_of, memoized_effects
from memplan.util_interfaces import (
    GlobalInterface,
    GlobalLoadInterface,
    GlobalStoreInterface,
    InitializerInterface,
)
from memplan.interfaces import MemoryEffectKind, class_has_trait, get_interface
from memplan.passes.base import MemplanPass
from memplan.passes.patterns.common import move_to_front, replace_uses

__all__ = ["SimplifyGlobalAccesses", "simplify_global_accesses"]


def _immutable_globals(table: Operation) -> set[str]:
    names: set[str] = set()
    for region in table.regions:
        for block in region.blocks:
            for op in block.ops:
                model = get_interface(op, GlobalInterface)
                if model is not None and not model.is_mutable(op):
                    names.add(model.symbol(op))
    return names


def _is_barrier(op: Operation) -> bool:
    """Whether global accesses cannot be reasoned about across `op`."""
    effects = effects_of(op)
    if effects is None:
        return True
    return any(
        e.kind is not MemoryEffectKind.ALLOC
        and (e.value is None or isinstance(e.value, SymbolRefAttr))
        for e in effects
    )


class _Callable:
    """One function or initializer being simplified."""

    def __init__(self, op: Operation, immutable: set[str]):
        self.op = op
        self.immutable = immutable
        self.changed = False

    def run(self) -> bool:
        for region in self.op.regions:
            if region.blocks:
                self._hoist_immutable_loads(region)
                for block in self._blocks(region):
                    self._simplify_block(block)
        return self.changed

    def _blocks(self, region: Region) -> list[Block]:
        """Every block of `region` and of the regions nested in it, in program
        order, except inside ops isolated from above (callables of their own)."""
        blocks: list[Block] = []
        pending: list[Region] = [region]
        while pending:
            current = pending.pop()
            nested: list[Region] = []
            for block in current.blocks:
                blocks.append(block)
                for op in block.ops:
                    # An unregistered op may be isolated: its blocks are left alone.
                    if op.regions and not op.has_trait(
                        IsolatedFromAbove, value_if_unregistered=True
                    ):
                        nested.extend(op.regions)
            pending.extend(reversed(nested))
        return blocks

    def _hoist_immutable_loads(self, region: Region) -> None:
        if not self.immutable:
            return
        first: dict[str, Operation] = {}
        for block in self._blocks(region):
            for op in list(block.ops):
                model = get_interface(op, GlobalLoadInterface)
                if model is None or (name := model.symbol(op)) not in self.immutable:
                    continue
                kept = first.get(name)
                if kept is None:
                    first[name] = op
                elif kept.result_types == op.result_types:
                    replace_uses(op.results[0], kept.results[0])
                    op.detach()
                    op.erase()
                    self.changed = True
        entry = region.blocks.first
        assert entry is not None
        self.changed |= move_to_front(entry, list(first.values()))

    def _simplify_block(self, block: Block) -> None:
        # The last access of each global in the current segment.
        last: dict[str, Operation] = {}
        for op in list(block.ops):
            if (load := get_interface(op, GlobalLoadInterface)) is not None:
                name = load.symbol(op)
                if name in self.immutable:
                    continue
                previous = last.get(name)
                if previous is None:
                    last[name] = op
                elif (store := get_interface(previous, GlobalStoreInterface)) is not None:
                    value = store.value(previous)
                    if value.type == op.results[0].type:
                        self._replace(op, value)
                    else:
                        last[name] = op
                elif previous.result_types == op.result_types:
                    self._replace(op, previous.results[0])
                else:
                    last[name] = op
            elif (store := get_interface(op, GlobalStoreInterface)) is not None:
                name = store.symbol(op)
                previous = last.get(name)
                if previous is not None and get_interface(previous, GlobalStoreInterface):
                    previous.detach()
                    previous.erase()
                    self.changed = True
                last[name] = op
            elif class_has_trait(op, IsTerminator, value_if_unregistered=False) or _is_barrier(op):
                last.clear()
        self._move_accesses(block)

    def _segments(
        self, block: Block
    ) -> list[tuple[Operation | None, list[Operation], Operation | None]]:
        """The block's runs of ops between barriers (and terminators), each with the
        barrier before it and the one after it (None at the block's ends)."""
        segments: list[tuple[Operation | None, list[Operation], Operation | None]] = []
        before: Operation | None = None
        current: list[Operation] = []
        for op in block.ops:
            is_access = (
                get_interface(op, GlobalLoadInterface) is not None
                or get_interface(op, GlobalStoreInterface) is not None
            )
            if not is_access and (
                class_has_trait(op, IsTerminator, value_if_unregistered=False) or _is_barrier(op)
            ):
                if current:
                    segments.append((before, current, op))
                before, current = op, []
            else:
                current.append(op)
        if current:
            segments.append((before, current, None))
        return segments

    def _move_accesses(self, block: Block) -> None:
        for before, segment, after in self._segments(block):
            accesses: dict[str, list[Operation]] = {}
            for op in segment:
                if (load := get_interface(op, GlobalLoadInterface)) is not None:
                    if load.symbol(op) not in self.immutable:
                        accesses.setdefault(load.symbol(op), []).append(op)
                elif (store := get_interface(op, GlobalStoreInterface)) is not None:
                    accesses.setdefault(store.symbol(op), []).append(op)
            # Program order is kept among the moved loads and among the moved
            # stores, so a second run moves nothing.
            heads = [ops[0] for ops in accesses.values()
                     if get_interface(ops[0], GlobalLoadInterface) is not None]
            tails = [ops[-1] for ops in accesses.values()
                     if get_interface(ops[-1], GlobalStoreInterface) is not None]
            # One position map per segment: `list.index` and `in` on the segment
            # would make this quadratic in its accesses.
            position = {op: i for i, op in enumerate(segment)}
            heads.sort(key=position.__getitem__)
            tails.sort(key=position.__getitem__)
            anchor = before
            # Loads of immutable globals hoisted to the top stay first.
            following = block.first_op if anchor is None else anchor.next_op
            while following is not None and following in position and (
                (load := get_interface(following, GlobalLoadInterface)) is not None
                and load.symbol(following) in self.immutable
            ):
                anchor, following = following, following.next_op
            for head in heads:
                if head.prev_op is not anchor:
                    head.detach()
                    if anchor is None:
                        block.insert_op_before(head, block.first_op)  # type: ignore[arg-type]
                    else:
                        block.insert_op_after(head, anchor)
                    self.changed = True
                anchor = head
            anchor = after
            for tail in reversed(tails):
                if tail.next_op is not anchor:
                    tail.detach()
                    if anchor is None:
                        block.add_op(tail)
                    else:
                        block.insert_op_before(tail, anchor)
                    self.changed = True
                anchor = tail

    def _replace(self, load: Operation, value) -> None:
        replace_uses(load.results[0], value)
        load.detach()
        load.erase()
        self.changed = True


@memoized_effects()
def simplify_global_accesses(module: Operation) -> bool:
    """Simplify the global accesses of every callable in `module` and in the symbol
    tables nested in it; return whether anything changed."""
    changed = False
    tables = [module]
    while tables:
        table = tables.pop()
        immutable = _immutable_globals(table)
        for region in table.regions:
            for block in region.blocks:
                for op in block.ops:
                    # An unregistered op is neither a table nor a callable of ours:
                    # what its regions mean is unknown, so they are left alone.
                    if op.has_trait(SymbolTable, value_if_unregistered=False):
                        tables.append(op)
                    elif op.regions and op.has_trait(
                        IsolatedFromAbove, value_if_unregistered=False
                    ):
                        is_initializer = get_interface(op, InitializerInterface) is not None
                        scope = _Callable(op, set() if is_initializer else immutable)
                        changed |= scope.run()
    return changed


@dataclass(frozen=True)
class SimplifyGlobalAccesses(MemplanPass):
    """Forward, reuse and drop global loads and stores within blocks (IREE's
    iree-util-simplify-global-accesses)."""

    name = "simplify-global-accesses"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        return simplify_global_accesses(module)
