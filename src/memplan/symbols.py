"""Symbol references and symbol tables, found once: shared by the analyses, the
plan checker (which takes nothing else from the analyses, so this lives outside
them) and verification.

:func:`symbol_refs` is the one answer to "which symbols does this op name": every
`SymbolRefAttr` among its attributes and properties, inside arrays, dictionaries
and parametrized attributes (`#hal.device.affinity<@d>`). :class:`SymbolIndex`
resolves references against one symbol table from a dictionary built once, where
xDSL's ``SymbolTable.lookup_symbol`` scans the table's ops on every lookup
(quadratic over a module's references).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.traits import SymbolOpInterface, SymbolTable

__all__ = [
    "SymbolIndex",
    "SymbolRefScanner",
    "rename_symbol_refs",
    "symbol_index",
    "symbol_refs",
]


_WITHOUT_REFS = (IntegerAttr, FloatAttr, DenseArrayBase, StringAttr, UnitAttr, IntegerType, IndexType)
"""Attributes whose parameters can hold no symbol reference (numbers, strings and
their types): every op has fresh ones (an allocation's alignment, a constant's
value), which the memo would only store."""

_PLAIN: dict[type, bool] = {}
"""Whether each attribute class is one of `_WITHOUT_REFS`, asked once per class
(an `isinstance` of xDSL's attribute classes is an ABC check, asked per attribute
of every op)."""


class SymbolRefScanner:
    """The symbol references nested in attributes, memoized per attribute object
    (the same attribute is shared by many ops)."""

    def __init__(self) -> None:
        self._memo: dict[int, tuple[Attribute, tuple[SymbolRefAttr, ...]]] = {}

    def scan(self, attr: Attribute) -> tuple[SymbolRefAttr, ...]:
        cls = type(attr)
        plain = _PLAIN.get(cls)
        if plain is None:
            plain = _PLAIN[cls] = issubclass(cls, _WITHOUT_REFS)
        if plain:
            return ()
        found = self._memo.get(id(attr))
        if found is not None:
            return found[1]
        refs: tuple[SymbolRefAttr, ...]
        if isinstance(attr, SymbolRefAttr):
            refs = (attr,)
        elif isinstance(attr, ArrayAttr):
            refs = self._all(attr.data)
        elif isinstance(attr, DictionaryAttr):
            refs = self._all(attr.data.values())
        elif isinstance(attr, ParametrizedAttribute):
            refs = self._all(p for p in attr.parameters if isinstance(p, Attribute))
        else:
            refs = ()
        # The attribute is kept with its result so that its id is not reused.
        self._memo[id(attr)] = (attr, refs)
        return refs

    def _all(self, attrs: Iterable[Attribute]) -> tuple[SymbolRefAttr, ...]:
        return tuple(r for attr in attrs for r in self.scan(attr))

    def op_refs(self, op: Operation) -> list[SymbolRefAttr]:
        """The references among `op`'s attributes and properties."""
        found: list[SymbolRefAttr] = []
        for attributes in (op.attributes, op.properties):
            for attr in attributes.values():
                refs = self.scan(attr)
                if refs:
                    found += refs
        return found


def symbol_refs(op: Operation, scanner: SymbolRefScanner | None = None) -> list[SymbolRefAttr]:
    """Every symbol reference among `op`'s attributes and properties (pass one
    `scanner` for many ops to share its memo)."""
    return (scanner or SymbolRefScanner()).op_refs(op)


def rename_symbol_refs(attr: Attribute, old: str, new: str) -> Attribute:
    """`attr` with every reference rooted at `old` rooted at `new` instead, found
    where `SymbolRefScanner` finds them (the same object when none is)."""
    if isinstance(attr, SymbolRefAttr):
        if attr.root_reference.data != old:
            return attr
        return SymbolRefAttr(new, attr.nested_references)
    if isinstance(attr, ArrayAttr):
        items = [rename_symbol_refs(a, old, new) for a in attr.data]
        changed = any(a is not b for a, b in zip(items, attr.data))
        return ArrayAttr(items) if changed else attr
    if isinstance(attr, DictionaryAttr):
        entries = {k: rename_symbol_refs(v, old, new) for k, v in attr.data.items()}
        changed = any(entries[k] is not v for k, v in attr.data.items())
        return DictionaryAttr(entries) if changed else attr
    if isinstance(attr, ParametrizedAttribute):
        params = [rename_symbol_refs(p, old, new) if isinstance(p, Attribute) else p
                  for p in attr.parameters]
        if all(a is b for a, b in zip(params, attr.parameters)):
            return attr
        return type(attr).new(params)
    return attr


def symbol_index(table: Operation) -> dict[str, Operation]:
    """The symbols defined directly in the symbol table op `table`, by name; the
    first definition wins, as in xDSL's scan."""
    index: dict[str, Operation] = {}
    for candidate in table.regions[0].block.ops:
        symbol = candidate.get_trait(SymbolOpInterface)
        name = symbol.get_sym_attr_name(candidate) if symbol is not None else None
        if name is not None:
            index.setdefault(name.data, candidate)
    return index


class SymbolIndex:
    """Lookups of references from `table` (a module) through one dictionary of its
    symbols, built once; nested references (`@a::@b`) go to xDSL's lookup. Valid
    while no symbol of `table` is added, removed or renamed."""

    def __init__(self, table: Operation):
        self.table = table
        self.symbols = symbol_index(table)

    def lookup(self, ref: SymbolRefAttr | StringAttr | str) -> Operation | None:
        if isinstance(ref, SymbolRefAttr):
            if ref.nested_references.data:
                return SymbolTable.lookup_symbol(self.table, ref)
            return self.symbols.get(ref.root_reference.data)
        return self.symbols.get(ref.data if isinstance(ref, StringAttr) else ref)
