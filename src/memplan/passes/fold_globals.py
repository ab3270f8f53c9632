"""`fold-globals` (IREE's `iree-util-fold-globals`): simplify globals from how they
are used.

Each round builds the table of globals and their uses in one walk
(`memplan.analysis.globals.GlobalTable`) and applies, in IREE's order:

1. uniform constant stores become the initial value of an uninitialized global;
2. a global only ever stored from loads of one other global is replaced by it;
3. a global stored only in initializers loses `mutable`, and its loads outside
   initializers become `immutable`;
4. loads of an immutable global with a constant initial value become the constant;
5. a private global nothing loads is erased with its stores;
6. immutable constant globals with equal value, type and dialect attributes are
   merged into the first;
7. initializers left with nothing but their return are erased.

Rounds repeat until one changes nothing. Each productive round lowers, in
lexicographic order, (globals, stores, mutable globals, loads, non-immutable loads),
so the loop ends; `_MAX_ROUNDS` bounds it regardless. Only private globals whose
every use is a load or store are rewritten (public ones may be used from outside,
and a symbol in any attribute, the module's own included, may be a use we cannot
see); step 1 alone also applies to public globals, as in IREE.

See docs/design/fold-globals.md for the rules' soundness conditions and where they
are stricter than IREE's.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, TypedAttribute
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from memplan.analysis.globals import (
    Global,
    GlobalTable,
    constant_value,
    initializer_of,
    load_model,
    materialize_constant,
    store_model,
)
from memplan.analysis.purity import effects_of, memoized_effects
from memplan.util_interfaces import GlobalLoadInterface, InitializerInterface
from memplan.interfaces import get_interface
from memplan.passes.base import MemplanPass
from memplan.passes.patterns.common import unique_constants

_MAX_ROUNDS = 16


def inline_constant_stores(table: GlobalTable) -> bool:
    """An uninitialized global always stored the same constant starts with it.

    Before the first store its value was undefined, so the constant is a valid
    choice, and after every store it holds the constant anyway. As IREE, this holds
    for public globals too: the module is the whole program at this stage, the
    runtime reads public globals but does not store them.
    """
    changed = False
    for g in table:
        if g.indirect or g.initial_value is not None or not g.stores:
            continue
        values = {constant_value(v) for v in g.stored_values()}
        if len(values) != 1 or None in values:
            continue
        (value,) = values
        assert value is not None
        if isinstance(value, TypedAttribute) and value.get_type() != g.type:
            continue  # a constant of another type (a buffer's tensor), as IREE
        g.model.set_initial_value(g.op, value)
        table.erase_stores(g)
        changed = True
    return changed


def _chain_source(table: GlobalTable, g: Global) -> Global | None:
    """The global every store to `g` copies, when `g` can be replaced by it."""
    sources: set[str] = set()
    for value in g.stored_values():
        owner = value.owner
        load = get_interface(owner, GlobalLoadInterface) if isinstance(owner, Operation) else None
        if load is None:
            return None
        sources.add(load.symbol(owner))
    if len(sources) != 1:
        return None
    source = table.get(sources.pop())
    if source is None or source is g or source.type != g.type:
        return None
    if not (source.candidate or not source.mutable):
        return None  # code outside the module may store it
    return source


class _InitializationOrder:
    """When initializers run relative to each other (module order), and whether
    any of them may call a function (an op of unknown effects). Computed on first
    use: most rounds never ask."""

    def __init__(self, table: GlobalTable):
        self._module = table.module

    @cached_property
    def index(self) -> dict[Operation, int]:
        initializers = (op for op in self._module.body.ops
                        if get_interface(op, InitializerInterface) is not None)
        return {op: i for i, op in enumerate(initializers)}

    @cached_property
    def may_call(self) -> bool:
        return any(effects_of(nested) is None
                   for op in self.index for nested in op.walk() if nested is not op)

    def before(self, first: Operation, then: Operation) -> bool:
        """Whether `first` surely runs before `then` (both in initializers)."""
        a, b = initializer_of(first), initializer_of(then)
        if a is None or b is None:
            return False
        if a is not b:
            return self.index[a] < self.index[b]
        return first.parent is then.parent and first.is_before_in_block(then)


def _copies_final_value(g: Global, source: Global, order: _InitializationOrder) -> bool:
    """Whether every store to `g` copies `source` after its last change, and `g`
    holds nothing different before: then `g` may be read as `source`."""
    if not source.stores:
        return g.initial_value is None or g.initial_value == source.initial_value
    if g.initial_value is not None:
        return False
    if any(initializer_of(s) is None for s in source.stores):
        return False
    for store in g.stores:
        load = store_model(store).value(store).owner
        assert isinstance(load, Operation)
        if initializer_of(load) is None:
            # In a function: all initializers have run, unless one calls it.
            if order.may_call:
                return False
        elif not all(order.before(s, load) for s in source.stores):
            return False
    return True


def rename_chained_globals(table: GlobalTable) -> bool:
    """A global only ever stored from loads of one other global is that global.

    Sound when the source cannot change after it was copied: it is never stored
    (and the copy starts undefined or equal to it), or it is stored only in
    initializers, the copy starts undefined and each copy reads the source after
    its last store: in a later initializer, later in the same block, or in a
    function while no initializer calls anything. IREE renames without these
    checks.
    """
    changed = False
    order = _InitializationOrder(table)
    for g in table:
        if not g.candidate or not g.stores or g.name not in table.globals:
            continue
        source = _chain_source(table, g)
        if source is None:
            continue
        if not _copies_final_value(g, source, order):
            continue
        table.redirect_uses(g, source)
        table.erase(g)
        changed = True
    return changed


def update_global_immutability(table: GlobalTable) -> bool:
    """A global stored only in initializers never changes once they have run:
    drop `mutable`, and mark its loads outside initializers `immutable`."""
    changed = False
    for g in table:
        if not g.candidate:
            continue
        if any(initializer_of(s) is None for s in g.stores):
            continue
        if g.mutable:
            g.model.set_mutable(g.op, False)
            changed = True
        for load in g.loads:
            model = load_model(load)
            if not model.is_immutable(load) and initializer_of(load) is None:
                model.set_immutable(load, True)
                changed = True
    return changed


def inline_constant_global_loads(table: GlobalTable) -> bool:
    """Loads of an immutable, never-stored global with a constant initial value
    become that constant (when a constant op can hold it)."""
    changed = False
    for g in table:
        value = g.initial_value
        if (g.indirect or g.mutable or g.stores or value is None or not g.loads
                or not g.model.may_inline(g.op)):
            continue
        if materialize_constant(value, g.type) is None:
            continue
        for load in list(g.loads):
            constant = materialize_constant(value, g.type)
            assert constant is not None
            Rewriter.insert_op(constant, InsertPoint.before(load))
            table.replace_load(load, constant.results[0])
        changed = True
    return changed


def erase_unused_globals(table: GlobalTable) -> bool:
    """A private global nothing loads or names is erased with its stores."""
    changed = False
    for g in table:
        if g.candidate and not g.loads and not g.references:
            table.erase(g)
            changed = True
    return changed


def _key(g: Global) -> tuple[Attribute | None, Attribute, tuple[tuple[str, Attribute], ...], bool]:
    return (g.initial_value, g.type, g.model.dialect_attributes(g.op), g.model.may_inline(g.op))


def deduplicate_constant_globals(table: GlobalTable) -> bool:
    """Immutable, never-stored private globals with equal initial value, type and
    dialect attributes hold the same value forever: keep the first."""
    changed = False
    leaders = _Buckets()
    for g in table:
        if not g.candidate or g.mutable or g.stores or g.initial_value is None:
            continue
        leader = leaders.setdefault(_key(g), g)
        if leader is g:
            continue
        table.redirect_uses(g, leader)
        table.erase(g)
        changed = True
    return changed


class _Buckets:
    """A dict keyed by attributes, some of which may not be hashable."""

    def __init__(self) -> None:
        self._hashed: dict[Hashable, Global] = {}
        self._unhashable: list[tuple[object, Global]] = []

    def setdefault(self, key: tuple, value: Global) -> Global:
        try:
            return self._hashed.setdefault(key, value)
        except TypeError:
            for other, found in self._unhashable:
                if other == key:
                    return found
            self._unhashable.append((key, value))
            return value


def erase_empty_initializers(table: GlobalTable) -> bool:
    """An initializer that does nothing but return (its stores folded away) is
    erased, as IREE's fold-globals leaves none behind."""
    changed = False
    for op in list(table.module.body.ops):
        if get_interface(op, InitializerInterface) is None:
            continue
        blocks = [block for region in op.regions for block in region.blocks]
        if len(blocks) != 1 or blocks[0].args:
            continue
        only = blocks[0].first_op
        if only is not None and only is blocks[0].last_op and not only.operands and (
            only.has_trait(IsTerminator, value_if_unregistered=False)
        ):
            Rewriter.erase_op(op)
            changed = True
    return changed


STEPS = (
    inline_constant_stores,
    rename_chained_globals,
    update_global_immutability,
    inline_constant_global_loads,
    erase_unused_globals,
    deduplicate_constant_globals,
    erase_empty_initializers,
)


@memoized_effects()
def fold_globals(module: ModuleOp, max_rounds: int = _MAX_ROUNDS) -> bool:
    """Apply the steps in rounds until a round changes nothing (at most
    `max_rounds`); return whether anything changed."""
    changed = False
    for _ in range(max_rounds):
        table = GlobalTable(module)
        round_changed = False
        for step in STEPS:
            round_changed |= step(table)
        if not round_changed:
            break
        changed = True
    if changed:
        # IREE canonicalizes in every round: the constants inlined for loads of
        # one value are one constant, as there.
        unique_constants(module)
    return changed


@dataclass(frozen=True)
class FoldGlobals(MemplanPass):
    """Fold uniform constant stores into initial values, replace chained globals,
    drop `mutable` where only initializers store, inline constant globals, erase
    unused private globals and merge equal constant ones."""

    name = "fold-globals"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        return fold_globals(module)
