"""Op names and attribute aliases as mlir-opt prints them.

xDSL's printer writes every op with its full name (`builtin.module`, `func.return`)
and every attribute inline. The peers' dumps elide `builtin.` and the default dialect
of the enclosing op (`return` inside `func.func`), and print attribute aliases
(`#encoding = #iree_encoding.testing<>`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    DictionaryAttr,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, OpTrait

from memplan.interfaces import get_interface
from memplan.opaque import PrintsVerbatim


@dataclass(frozen=True)
class DefaultDialect(OpTrait):
    """Ops in this op's regions print without the `dialect.` prefix of `dialect`
    (MLIR's `OpAsmOpInterface::getDefaultDialect`)."""

    dialect: str


def _alias_stem(attribute: Attribute) -> str | None:
    """The alias an attribute asks to be printed under (`asm_alias` on its class,
    or a property when it depends on the parameters); MLIR's builtin dialect
    aliases affine maps and sets as `#map`, `#set`."""
    if isinstance(attribute, TypeAttribute):
        return None
    if isinstance(attribute, AffineMapAttr):
        return "map"
    if isinstance(attribute, AffineSetAttr):
        return "set"
    stem = getattr(attribute, "asm_alias", None)
    return stem if isinstance(stem, str) else None


def _mlir_syntax_classes() -> dict[str, type[Operation]]:
    """memplan's op classes that print MLIR's custom syntax where xDSL's print the
    generic form, by op name."""
    from memplan.dialects import MLIR_SYNTAX_OVERRIDES

    classes: dict[str, type[Operation]] = {}
    for factory in MLIR_SYNTAX_OVERRIDES.values():
        for op_type in factory().operations:
            classes[op_type.name] = op_type
    return classes


_SYNTAX_CLASSES: dict[str, type[Operation]] | None = None


def custom_syntax_class(op: Operation) -> type[Operation]:
    """The class whose `print` writes `op`: its own, or the registered subclass
    with MLIR's syntax when a pass built it from xDSL's class. Printing through it
    leaves the IR as it is."""
    global _SYNTAX_CLASSES
    if _SYNTAX_CLASSES is None:
        _SYNTAX_CLASSES = _mlir_syntax_classes()
    registered = _SYNTAX_CLASSES.get(op.name)
    if registered is not None and registered is not type(op) and issubclass(registered, type(op)):
        return registered
    return type(op)


def _nested_attributes(attribute: Attribute) -> Iterator[Attribute]:
    yield attribute
    if isinstance(attribute, ParametrizedAttribute):
        for parameter in attribute.parameters:
            yield from _nested_attributes(parameter)
    elif isinstance(attribute, ArrayAttr):
        for element in attribute.data:
            yield from _nested_attributes(element)
    elif isinstance(attribute, DictionaryAttr):
        for element in attribute.data.values():
            yield from _nested_attributes(element)


def _op_attributes(op: Operation) -> Iterable[Attribute]:
    yield from op.attributes.values()
    yield from op.properties.values()
    yield from (r.type for r in op.results)
    yield from (o.type for o in op.operands)
    for region in op.regions:
        for block in region.blocks:
            yield from (a.type for a in block.args)


def collect_aliases(
    module: Operation, only: set[Attribute] | None = None
) -> dict[Attribute, str]:
    """Aliases in MLIR's order: by depth (an alias nested in another's text comes
    first), then by name, then in first-use order; numbered as MLIR numbers them
    (`#x`, `#x1`, ...) in that order. With `only`, for those attributes alone."""
    stems: dict[Attribute, str] = {}
    # Each attribute object is expanded once: a decoder's types repeat on tens of
    # thousands of ops, and its first occurrence already numbered what it holds.
    expanded: set[int] = set()
    for op in module.walk():
        for top in _op_attributes(op):
            if id(top) in expanded:
                continue
            expanded.add(id(top))
            for attribute in _nested_attributes(top):
                if attribute in stems or (only is not None and attribute not in only):
                    continue
                stem = _alias_stem(attribute)
                if stem is not None:
                    stems[attribute] = stem
    depths: dict[Attribute, int] = {}

    def depth(attribute: Attribute) -> int:
        known = depths.get(attribute)
        if known is None:
            inner = [a for a in _nested_attributes(attribute) if a is not attribute and a in stems]
            known = depths[attribute] = 1 + max((depth(a) for a in inner), default=0)
        return known

    order = sorted(stems, key=lambda a: (depth(a), stems[a]))
    aliases: dict[Attribute, str] = {}
    used: dict[str, int] = {}
    for attribute in order:
        stem = stems[attribute]
        count = used.get(stem, 0)
        used[stem] = count + 1
        aliases[attribute] = stem if count == 0 else f"{stem}{count}"
    return aliases


def print_stripped(printer: Printer, attribute: ParametrizedAttribute) -> None:
    """MLIR's `printStrippedAttrOrType`: the attribute's alias when it has one,
    else its parameters without the `#dialect.name` prefix."""
    if isinstance(printer, MlirStructurePrinter) and printer._aliases and attribute in printer._aliases:
        printer.print_attribute(attribute)
    else:
        attribute.print_parameters(printer)


class MlirStructurePrinter(Printer):
    """xDSL's printer with mlir-opt's op-name elision and attribute aliases."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._aliases: dict[Attribute, str] = {}
        self._default_dialects: list[str] = [""]
        # Printed text of each type (a decoder prints a few dozen types tens of
        # thousands of times); valid while the aliases stay the same.
        self._printed_types: dict[Attribute, str] = {}

    local_scope: bool = False
    """mlir-opt's `--mlir-print-local-scope`: every attribute inline, no aliases."""

    def print_module(self, module: ModuleOp) -> None:
        """Alias definitions, then the module.

        As MLIR, only attributes the module's text prints through `print_attribute`
        get an alias (an op's custom syntax may print a map inline, a type may drop
        an identity layout): a dry run finds them, and they are numbered among
        themselves.
        """
        aliases = {} if self.local_scope else collect_aliases(module)
        # Only maps may go unprinted (ops' custom syntax, dropped identity layouts);
        # the dry run, a second print, is paid only then.
        if any(isinstance(a, AffineMapAttr | AffineSetAttr) for a in aliases):
            used = self._printed_aliases(module, aliases)
            if len(used) != len(aliases):
                aliases = collect_aliases(module, only=used)
        for attribute, name in aliases.items():
            # A definition names the aliases nested in it (defined before it).
            self._aliases = {a: n for a, n in aliases.items() if a is not attribute}
            self.print_string(f"#{name} = ")
            self.print_attribute(attribute)
            self.print_string("\n")
        self._aliases = aliases
        self._printed_types.clear()
        self.print_op(module)

    def _printed_aliases(self, module: ModuleOp, aliases: dict[Attribute, str]) -> set[Attribute]:
        used: set[Attribute] = set()
        dry = type(self)(stream=io.StringIO(), print_generic_format=self.print_generic_format)
        for name in ("keep_names", "local_scope"):
            if hasattr(self, name):
                setattr(dry, name, getattr(self, name))
        dry._aliases = aliases
        dry._used_aliases = used
        dry.print_op(module)
        # The definitions of used aliases use the aliases nested in them.
        pending = list(used)
        while pending:
            attribute = pending.pop()
            before = set(used)
            dry._aliases = {a: n for a, n in aliases.items() if a is not attribute}
            dry.print_attribute(attribute)
            pending.extend(used - before)
        return used

    _used_aliases: set[Attribute] | None = None

    def print_attribute(self, attribute: Attribute) -> None:
        name = self._aliases.get(attribute) if self._aliases else None
        if name is not None:
            if self._used_aliases is not None:
                self._used_aliases.add(attribute)
            self.print_string(f"#{name}")
            return
        if isinstance(attribute, TypeAttribute) and self._used_aliases is None:
            text = self._printed_types.get(attribute)
            if text is None:
                stream, column = self.stream, self._current_column
                self.stream = io.StringIO()
                try:
                    super().print_attribute(attribute)
                    text = self.stream.getvalue()
                finally:
                    self.stream, self._current_column = stream, column
                if "\n" not in text:
                    self._printed_types[attribute] = text
            self.print_string(text)
            return
        super().print_attribute(attribute)

    def print_op(self, op: Operation) -> None:
        if op.has_trait(PrintsVerbatim, value_if_unregistered=False):
            op.print_verbatim(self)  # type: ignore[attr-defined]
            return
        if self.print_generic_format or custom_syntax_class(op).print is Operation.print:
            super().print_op(op)
            return
        trait = get_interface(op, DefaultDialect)
        self._default_dialects.append(trait.dialect if trait is not None else "")
        try:
            self._print_custom_op(op)
        finally:
            self._default_dialects.pop()

    def _short_name(self, op: Operation) -> str:
        name = op.name
        dialect, _, rest = name.partition(".")
        if dialect == "builtin":
            # As MLIR: `builtin.` goes where the default dialect is builtin's (at the
            # top and in a module), not in a function body.
            parent = op.parent_op()
            if parent is None or isinstance(parent, ModuleOp):
                return rest
            if len(self._default_dialects) >= 2 and self._default_dialects[-2] == "builtin":
                return rest
            return name
        # The enclosing op's default dialect (the entry below this op's own).
        if len(self._default_dialects) >= 2 and dialect == self._default_dialects[-2]:
            return rest
        return name

    def _print_custom_op(self, op: Operation) -> None:
        """xDSL's `Printer.print_op` for the custom form, with the short op name."""
        scope = bool(op.get_traits_of_type(IsolatedFromAbove))
        begin_op_pos = self._current_column
        self._print_results(op)
        if scope:
            self.enter_scope()
        self.print_string(self._short_name(op))
        end_op_pos = self._current_column
        if op in self.diagnostic.op_messages:
            for message in self.diagnostic.op_messages[op]:
                self._add_message_on_next_line(message, begin_op_pos, end_op_pos)
        custom_syntax_class(op).print(op, self)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)
        if scope:
            self.exit_scope()
