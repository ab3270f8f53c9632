"""Symbol tables indexed once: shared by the analyses, the plan checker (which
takes nothing else from the analyses, so this lives outside them) and
verification.

:class:`SymbolIndex` resolves references against one symbol table from a
dictionary built once, where xDSL's ``SymbolTable.lookup_symbol`` scans the
table's ops on every lookup (quadratic over a module's references).
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolOpInterface, SymbolTable

__all__ = ["SymbolIndex", "symbol_index"]


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
