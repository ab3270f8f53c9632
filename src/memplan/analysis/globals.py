"""Globals and their uses, as the globals passes see them.

The passes never ask for `util.global` by name: they ask an op whether it is a
global, a load or a store of one, or an initializer, through the interfaces below
(IREE's `GlobalOpInterface`, `GlobalLoadOpInterface`, `GlobalStoreOpInterface`,
`InitializerOpInterface`, in `memplan.util_interfaces`). IREE's `util` ops
declare them in their traits; another dialect's globals work once they do too.

`GlobalTable.build` finds every use of every global in one walk of the module: loads,
stores, and any other reference to the global's symbol in an attribute or property
of any op. A reference in a discardable dialect attribute (`op.attr = @g`, which the
op's meaning cannot depend on) names the global without accessing it, as IREE's
`referencingOps`: it keeps the global alive and is renamed when the global is
replaced. Any other reference (a property or inherent attribute, the module's own
attributes, a nested symbol table) makes the global *indirect*: something the passes
cannot see through may read or write it, so they keep it as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import ConstantLike, SymbolTable

from memplan.analysis.purity import is_trivially_dead
from memplan.util_interfaces import (
    GlobalAccessInterface,
    GlobalInterface,
    GlobalLoadInterface,
    GlobalStoreInterface,
    InitializerInterface,
)
from memplan.interfaces import class_has_trait, get_interface
from memplan.symbols import SymbolRefScanner, rename_symbol_refs

__all__ = [
    "Global",
    "GlobalAccessInterface",
    "GlobalInterface",
    "GlobalLoadInterface",
    "GlobalStoreInterface",
    "GlobalTable",
    "InitializerInterface",
    "constant_value",
    "materialize_constant",
]


# --------------------------------------------------------------------------------
# Interfaces (declared by the ops: memplan.util_interfaces)
# --------------------------------------------------------------------------------


def initializer_of(op: Operation) -> Operation | None:
    """The initializer `op` is (directly or in nested regions) inside, if any."""
    parent = op.parent_op()
    while parent is not None:
        if get_interface(parent, InitializerInterface) is not None:
            return parent
        parent = parent.parent_op()
    return None


# --------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------


def constant_value(value: SSAValue) -> Attribute | None:
    """The attribute `value` always holds when a constant-like op defines it."""
    return ConstantLike.get_constant_value(value)


def materialize_constant(value: Attribute, type: Attribute) -> Operation | None:
    """An op producing `value` as a value of `type`, or None when no constant op can
    (IREE asks the dialect; here the builtin attributes `arith.constant` takes)."""
    if isinstance(value, IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr):
        if value.get_type() == type:
            return arith.ConstantOp(value)
    return None


# --------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------


@dataclass(eq=False)
class Global:
    """One global and every use of it the passes can see."""

    op: Operation
    model: GlobalInterface
    order: int
    """Position among the module's globals (the first of equals survives)."""
    loads: dict[Operation, None] = field(default_factory=dict)
    """An ordered set: erasing one is O(1)."""
    stores: dict[Operation, None] = field(default_factory=dict)
    references: dict[Operation, None] = field(default_factory=dict)
    """Ops naming the global in a discardable dialect attribute (not an access)."""
    indirect: bool = False
    """Referenced other than by loads, stores and dialect attributes (a property,
    the module's attributes, a nested module)."""

    @property
    def name(self) -> str:
        return self.model.symbol(self.op)

    @property
    def type(self) -> Attribute:
        return self.model.type(self.op)

    @property
    def initial_value(self) -> Attribute | None:
        return self.model.initial_value(self.op)

    @property
    def mutable(self) -> bool:
        return self.model.is_mutable(self.op)

    @property
    def private(self) -> bool:
        return self.model.is_private(self.op)

    @property
    def candidate(self) -> bool:
        """Private and accessed only by loads and stores: every use is in sight."""
        return self.private and not self.indirect

    def stored_values(self) -> Iterator[SSAValue]:
        for store in self.stores:
            yield store_model(store).value(store)


def _is_dialect_attribute(name: str) -> bool:
    """A discardable `dialect.name` attribute (MLIR's dialect attributes)."""
    return "." in name


def load_model(op: Operation) -> GlobalLoadInterface:
    model = get_interface(op, GlobalLoadInterface)
    assert model is not None
    return model


def store_model(op: Operation) -> GlobalStoreInterface:
    model = get_interface(op, GlobalStoreInterface)
    assert model is not None
    return model


_NO_NAMES: frozenset[str] = frozenset()


class _SymbolScanner:
    """Root symbol names referenced in attributes (`memplan.symbols`' scanner,
    memoized per attribute object)."""

    def __init__(self) -> None:
        self._refs = SymbolRefScanner()

    def scan(self, attr: Attribute) -> frozenset[str]:
        refs = self._refs.scan(attr)
        return frozenset(r.root_reference.data for r in refs) if refs else _NO_NAMES


class GlobalTable:
    """The module's globals (in module order) with their loads, stores and
    indirect uses, all found in one walk."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.globals: dict[str, Global] = {}
        self._build()

    def _build(self) -> None:
        referenced: set[str] = set()
        loads: list[tuple[str, Operation]] = []
        stores: list[tuple[str, Operation]] = []
        named: list[tuple[str, Operation]] = []
        scanner = _SymbolScanner()
        # The module's own attributes may name a global too (an entry point
        # table, a plan): such a global is referenced.
        for attr in (*self.module.properties.values(), *self.module.attributes.values()):
            referenced |= scanner.scan(attr)
        for op in self.module.body.ops:
            model = get_interface(op, GlobalInterface)
            if model is not None:
                self.globals[model.symbol(op)] = Global(op, model, len(self.globals))
        stack: list[tuple[Operation, bool]] = [
            (op, False) for op in reversed(list(self.module.body.ops))
        ]
        while stack:
            op, nested_table = stack.pop()
            skip: Attribute | None = None
            if not nested_table:
                if (load := get_interface(op, GlobalLoadInterface)) is not None:
                    loads.append((load.symbol(op), op))
                    skip = load.reference(op)
                elif (store := get_interface(op, GlobalStoreInterface)) is not None:
                    stores.append((store.symbol(op), op))
                    skip = store.reference(op)
            for attr in op.properties.values():
                if attr is not skip:
                    referenced |= scanner.scan(attr)
            for key, attr in op.attributes.items():
                if attr is skip:
                    continue
                if nested_table or not _is_dialect_attribute(key):
                    referenced |= scanner.scan(attr)
                else:
                    named.extend((name, op) for name in scanner.scan(attr))
            # Inside a nested symbol table a load names that table's global: any
            # name it uses is treated as a reference we cannot see through.
            # (An unregistered op may be a symbol table: its loads are opaque too.)
            inner = nested_table or class_has_trait(op, SymbolTable, value_if_unregistered=True)
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend((nested, inner) for nested in reversed(block.ops))
        for name, op in loads:
            if (g := self.globals.get(name)) is not None:
                g.loads[op] = None
        for name, op in stores:
            if (g := self.globals.get(name)) is not None:
                g.stores[op] = None
        for name, op in named:
            if (g := self.globals.get(name)) is not None:
                g.references[op] = None
        for name in referenced:
            if (g := self.globals.get(name)) is not None:
                g.indirect = True

    def __iter__(self) -> Iterator[Global]:
        return iter(list(self.globals.values()))

    def get(self, name: str) -> Global | None:
        return self.globals.get(name)

    # Mutations that keep the table in step with the IR -------------------------

    def erase_op(self, op: Operation) -> None:
        """Erase a load or store (or any op without uses), then every op that only
        fed it and is now trivially dead: an erased store leaves its constant, an
        erased chained store its load, behind otherwise."""
        worklist = [op]
        while worklist:
            current = worklist.pop()
            self._forget(current)
            producers = [v.owner for v in current.operands if isinstance(v.owner, Operation)]
            Rewriter.erase_op(current)
            for producer in producers:
                if (producer.parent is not None and not producer.regions
                        and is_trivially_dead(producer)):
                    worklist.append(producer)

    def _forget(self, op: Operation) -> None:
        if (load := get_interface(op, GlobalLoadInterface)) is not None:
            if (g := self.globals.get(load.symbol(op))) is not None:
                g.loads.pop(op, None)
        elif (store := get_interface(op, GlobalStoreInterface)) is not None:
            if (g := self.globals.get(store.symbol(op))) is not None:
                g.stores.pop(op, None)

    def replace_load(self, load: Operation, value: SSAValue) -> None:
        """Replace a load's result by `value` and erase the load."""
        hint = value.name_hint
        load.results[0].replace_all_uses_with(value)
        value.name_hint = hint  # a constant is not named after the global it replaced
        self.erase_op(load)

    def erase_stores(self, g: Global) -> None:
        for store in list(g.stores):
            self.erase_op(store)

    def erase(self, g: Global) -> None:
        """Erase the global and its stores (its loads and references must be gone)."""
        assert not g.loads and not g.references, f"erasing @{g.name} still used"
        self.erase_stores(g)
        Rewriter.erase_op(g.op)
        del self.globals[g.name]

    def redirect_uses(self, source: Global, target: Global) -> None:
        """Make every load of `source` load `target` instead, and every dialect
        attribute naming `source` name `target`."""
        for load in source.loads:
            model = load_model(load)
            model.set_symbol(load, target.name)
            if target.mutable and model.is_immutable(load):
                model.set_immutable(load, False)
            target.loads[load] = None
        source.loads = {}
        for op in source.references:
            for key, attr in list(op.attributes.items()):
                if _is_dialect_attribute(key):
                    op.attributes[key] = rename_symbol_refs(attr, source.name, target.name)
            target.references[op] = None
        source.references = {}
