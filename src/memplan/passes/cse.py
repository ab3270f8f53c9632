"""`cse`: common subexpression elimination by dominance, purity and memory effects.

Two ops compute the same thing when they have the same name, operands, properties,
attributes, result types and (structurally equal) regions; source locations do not
count. CSE keeps the first and replaces the second when the first dominates it and
the second's effects allow it (`memplan.analysis.purity`):

- no effects: always;
- only reads: when nothing that may write what they read lies between the two;
- unknown effects, writes, or the allocation of a fresh result: never (merging two
  allocations makes their users share a buffer, IREE bug #23665), except ops whose
  results are values computed from their reads (`FreshValues`: a Stream clone, an
  untied dispatch) that nobody updates in place or gets out of sight
  (`FreshValues.shareable`): they merge like reads.

Effects on a non-addressable resource touch only it and the resources it overlaps
(never buffers or globals). In a graph region the uses already walked keep a
duplicate, as upstream.

The walk follows the dominator tree of every region, with several blocks or one, and
enters nested regions with the enclosing scope still visible, except for regions of
ops isolated from above, which start afresh. Known ops live in a scoped hash table;
whether a read is still valid is a comparison of *generations*: every write stamps
the resources it may touch with a fresh number, and a recorded read remembers the
stamps it saw. A block reached other than straight from its immediate dominator (a
join or a loop header) and a nested region (which may run repeatedly) first stamp
everything that may be written on the way. So the pass costs one walk, hashing and
a dictionary lookup per op; no pair of ops is ever compared except on a hash hit.

Dead ops are dropped on the way: an unused op that only reads or allocates its own
results, and then, transitively, the ops only it used.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove, IsTerminator, SymbolOpInterface

from memplan.analysis.dominance import DominatorTree
from memplan.analysis.equivalence import OpKey
from memplan.analysis.purity import (
    ANY_BUFFER,
    EVERYTHING,
    EffectClass,
    Resource,
    classify,
    effects_of,
    is_trivially_dead,
    memoized_effects,
    regions_written_resources,
    resource_of,
    written_resources,
)
from memplan.interfaces import (
    GraphRegions,
    MemoryEffectKind,
    NonAddressableResource,
    FreshValues,
    class_has_trait,
    get_interface,
    fresh_values,
)
from memplan.passes.base import MemplanPass
from memplan.passes.patterns.common import replace_uses

__all__ = ["CSE", "cse"]


# Generation counters besides one per resource: what a write bumps and a read checks.
_WILD = "write to unknown memory"
_ANY_WRITE = "any write"
_ALIASABLE_WRITE = "write to a buffer that may alias others"
_ANY_BUFFER_WRITE = "write to any buffer"


def _bumped_by(resource: Resource) -> tuple[object, ...]:
    """The counters a write to `resource` advances."""
    if isinstance(resource, NonAddressableResource):
        # The resource itself, and "something at or below" each of its ancestors.
        path = resource.path
        return (("at", path),) + tuple(("below", path[:n]) for n in range(len(path) + 1))
    if resource is EVERYTHING:
        return (_WILD, _ANY_WRITE)
    if resource is ANY_BUFFER:
        return (_ALIASABLE_WRITE, _ANY_BUFFER_WRITE, _ANY_WRITE)
    if isinstance(resource, SSAValue):
        return (resource, _ANY_BUFFER_WRITE, _ANY_WRITE)
    return (resource, _ANY_WRITE)


def _checked_by(resource: Resource) -> tuple[object, ...]:
    """The counters whose change invalidates a read of `resource`."""
    if isinstance(resource, NonAddressableResource):
        # Writes to it or its parts, to an enclosing resource, or to unknown memory;
        # never writes to addressable memory, or to a disjoint sibling.
        path = resource.path
        return (("below", path), _WILD) + tuple(
            ("at", path[:n]) for n in range(len(path) + 1)
        )
    if resource is EVERYTHING:
        return (_ANY_WRITE,)
    if resource is ANY_BUFFER:
        return (_ANY_BUFFER_WRITE, _WILD)
    if isinstance(resource, SSAValue):
        return (resource, _ALIASABLE_WRITE, _WILD)
    return (resource, _WILD)


def _read_resources(op: Operation) -> frozenset[Resource]:
    """What an op that reads and allocates reads."""
    effects = effects_of(op) or ()
    return frozenset(resource_of(e) for e in effects if e.kind is MemoryEffectKind.READ)


_MISSING = object()


@dataclass
class _Known:
    op: Operation
    stamps: tuple[tuple[object, int], ...]
    """For a read-only op: the generation of each counter its reads depend on."""


class _Scopes:
    """The table of known ops and the generation counters, both undone in bulk when
    a scope (a dominator-tree node, a region) closes."""

    def __init__(self) -> None:
        self.known: dict[OpKey, _Known] = {}
        self.generation: dict[object, int] = {}
        self._undo: list[tuple[dict, object, object]] = []

    def mark(self) -> int:
        return len(self._undo)

    def restore(self, mark: int) -> None:
        undo = self._undo
        while len(undo) > mark:
            table, key, old = undo.pop()
            if old is _MISSING:
                del table[key]
            else:
                table[key] = old

    def _set(self, table: dict, key: object, value: object) -> None:
        self._undo.append((table, key, table.get(key, _MISSING)))
        table[key] = value

    def remember(self, key: OpKey, known: _Known) -> None:
        self._set(self.known, key, known)

    def stamp(self, counter: object, generation: int) -> None:
        self._set(self.generation, counter, generation)


class _Driver:
    def __init__(self) -> None:
        self.scopes = _Scopes()
        self.clock = 0
        self.maybe_dead: set[Operation] = set()
        self.visited: set[Operation] = set()
        """Ops of graph regions already walked (their uses are not redirected)."""
        self.changed = False

    # Generations -------------------------------------------------------------

    def _write(self, resources: Iterable[Resource] | None) -> None:
        """Record that `resources` (None: unknown memory) may have been written."""
        if resources is None:
            resources = (EVERYTHING,)
        for resource in resources:
            self.clock += 1
            for counter in _bumped_by(resource):
                self.scopes.stamp(counter, self.clock)

    def _stamps(self, reads: Iterable[Resource]) -> tuple[tuple[object, int], ...]:
        generation = self.scopes.generation
        counters = {c for r in reads for c in _checked_by(r)}
        return tuple((c, generation.get(c, 0)) for c in counters)

    def _still_valid(self, known: _Known) -> bool:
        generation = self.scopes.generation
        return all(generation.get(c, 0) == g for c, g in known.stamps)

    # Walk --------------------------------------------------------------------

    def simplify_region(self, region: Region) -> None:
        blocks = region.blocks
        if not blocks:
            return
        graph = region.parent is not None and (
            get_interface(region.parent, GraphRegions) is not None
        )
        if blocks.first is blocks.last:
            mark = self.scopes.mark()
            self._simplify_block(blocks.first, graph)
            self.scopes.restore(mark)
            return
        if graph:
            # No dominance to walk: as MLIR, leave multi-block graph regions alone.
            return
        tree = DominatorTree(region)
        # Depth-first over the dominator tree; (block, None) enters, (block, mark)
        # leaves and undoes what the block's subtree recorded.
        stack: list[tuple[Block, int | None]] = [(tree.reverse_post_order[0], None)]
        while stack:
            block, leave_mark = stack.pop()
            if leave_mark is not None:
                self.scopes.restore(leave_mark)
                continue
            stack.append((block, self.scopes.mark()))
            parent = tree.idom[block]
            if parent is not None and any(p is not parent for p in block.predecessors()):
                # Reached through a join or a back edge: whatever was written on the
                # other paths is unknown here.
                self._write(None)
            self._simplify_block(block)
            stack.extend((child, None) for child in reversed(tree.children[block]))
        for block in tree.unreachable:
            mark = self.scopes.mark()
            self._write(None)
            self._simplify_block(block)
            self.scopes.restore(mark)

    def _simplify_block(self, block: Block, graph: bool = False) -> None:
        for op in list(block.ops):
            if op.regions:
                self._simplify_nested(op)
            self._simplify_op(op, graph)
            if graph:
                self.visited.add(op)

    def _is_isolated(self, op: Operation) -> bool:
        return class_has_trait(op, IsolatedFromAbove, value_if_unregistered=True)

    def _simplify_nested(self, op: Operation) -> None:
        if self._is_isolated(op):
            outer = self.scopes
            self.scopes = _Scopes()
            for region in op.regions:
                self.simplify_region(region)
            self.scopes = outer
            return
        mark = self.scopes.mark()
        # The regions may run after the op's own effects, and repeatedly: anything
        # written in them may lie between an outer read and a nested one.
        self._write(self._op_writes(op))
        for region in op.regions:
            self.simplify_region(region)
        self.scopes.restore(mark)

    def _op_writes(self, op: Operation) -> frozenset[Resource] | None:
        own = written_resources(op)
        if own is None or not op.regions or self._is_isolated(op):
            return own
        nested = regions_written_resources(op.regions)
        return None if nested is None else own | nested

    def _simplify_op(self, op: Operation, graph: bool = False) -> None:
        if class_has_trait(op, IsTerminator, value_if_unregistered=False):
            # What it writes lies between this block and its successors.
            self._write(self._op_writes(op))
            return
        if is_trivially_dead(op):
            self._erase(op)
            return
        purity = classify(op)
        if purity.kind is EffectClass.PURE or purity.kind is EffectClass.READ_ONLY:
            if not class_has_trait(op, SymbolOpInterface, value_if_unregistered=True):
                self._try_merge(op, purity.reads, graph)
                return
        if purity.kind is EffectClass.ALLOCATES:
            values = fresh_values(op)
            if values is not None and values.shareable(op):
                self._try_merge(op, _read_resources(op), graph, values)
            return
        self._write(self._op_writes(op))

    def _try_merge(
        self, op: Operation, reads: frozenset[Resource], graph: bool,
        values: FreshValues | None = None,
    ) -> None:
        key = OpKey(op)
        known = self.scopes.known.get(key)
        if (
            known is not None
            and self._still_valid(known)
            and (values is None or values.shareable(known.op))
        ):
            if graph:
                self._merge_in_graph_region(op, known.op)
                return
            for old, new in zip(op.results, known.op.results, strict=True):
                replace_uses(old, new)
            self._erase(op)
            return
        self.scopes.remember(key, _Known(op, self._stamps(reads) if reads else ()))

    def _merge_in_graph_region(self, op: Operation, kept: Operation) -> None:
        """In a graph region a use may come before the duplicate: as MLIR, only the
        uses not visited yet move to `kept`; the duplicate goes once unused."""
        for old, new in zip(op.results, kept.results, strict=True):
            for use in list(old.uses):
                if use.operation not in self.visited:
                    use.operation.operands[use.index] = new
                    self.changed = True
        if all(r.first_use is None for r in op.results):
            self._erase(op)

    # Erasure -------------------------------------------------------------------

    def _erase(self, op: Operation) -> None:
        """Erase `op` (it has no uses left) at once, so that an enclosing region op
        compares equal to its twin; the ops it used may die with it, which `commit`
        checks once the walk no longer holds them in its tables."""
        self.maybe_dead.update(
            v.owner
            for nested in op.walk()
            for v in nested.operands
            if isinstance(v.owner, Operation) and not op.is_ancestor(v.owner)
        )
        op.detach()
        op.erase()
        self.changed = True

    def commit(self) -> bool:
        """Erase what became dead by the erasures of the walk; return whether the
        IR changed."""
        worklist = list(self.maybe_dead)
        self.maybe_dead = set()
        while worklist:
            op = worklist.pop()
            if op.parent is None or not is_trivially_dead(op):
                continue
            self._erase(op)
            worklist.extend(self.maybe_dead)
            self.maybe_dead = set()
        return self.changed


@memoized_effects()
def cse(root: Operation) -> bool:
    """Run CSE on every region nested in `root`; return whether anything changed."""
    driver = _Driver()
    for region in root.regions:
        driver.simplify_region(region)
    return driver.commit()


@dataclass(frozen=True)
class CSE(MemplanPass):
    """Merge equal ops by dominance when their memory effects allow it; drop dead
    ops that only read or allocate."""

    # memplan-opt calls it `cse`; the class carries its xDSL-universe name, where
    # `cse` is xDSL's own pass.
    name = "memplan-cse"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        return cse(module)
