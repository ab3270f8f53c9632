"""Op names and attribute aliases as mlir-opt prints them.

xDSL's printer writes every op with its full name (`builtin.module`, `func.return`)
and every attribute inline. The peers' dumps elide `builtin.` and the default dialect
of the enclosing op (`return` inside `func.func`), and print attribute aliases
(`#encoding = #iree_encoding.testing<>`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    BuiltinAttribute,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator, OpTrait

from memplan import providers
from memplan.interfaces import SignaturePrinter, get_interface
from memplan.printing.formats import CompiledFormat, compiled_print
from memplan.printing.output import FLUSH_AT, FastOutputPrinter, new_line
from memplan.signatures import Signatures


@dataclass(frozen=True)
class DefaultDialect(OpTrait):
    """Ops in this op's regions print without the `dialect.` prefix of `dialect`
    (MLIR's `OpAsmOpInterface::getDefaultDialect`)."""

    dialect: str


@dataclass(frozen=True)
class PrintsVerbatim(OpTrait):
    """The op prints its stored text in place of any syntax (memplan's printer)."""


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


_SYNTAX_CLASSES: dict[str, dict[str, type[Operation]]] = {}
"""`providers.mlir_syntax_classes` by dialect, each loaded when an op of it is first
printed (loading all of them imported xDSL's affine dialect into every run)."""


def custom_syntax_class(op: Operation) -> type[Operation]:
    """The class whose `print` writes `op`: its own, or the registered subclass
    with MLIR's syntax when a pass built it from xDSL's class. Printing through it
    leaves the IR as it is."""
    dialect = op.name.partition(".")[0]
    classes = _SYNTAX_CLASSES.get(dialect)
    if classes is None:
        classes = _SYNTAX_CLASSES[dialect] = providers.mlir_syntax_classes(dialect)
    registered = classes.get(op.name)
    if registered is not None and registered is not type(op) and issubclass(registered, type(op)):
        return registered
    return type(op)


def _nested_attributes(attribute: Attribute) -> Iterator[Attribute]:
    yield attribute
    for nested in _children(attribute):
        yield from _nested_attributes(nested)


def _children(attribute: Attribute) -> Iterable[Attribute]:
    kind = _KINDS[type(attribute)]
    if kind == 1:
        return attribute.parameters  # type: ignore[attr-defined]
    if kind == 2:
        return attribute.data  # type: ignore[attr-defined]
    if kind == 3:
        return attribute.data.values()  # type: ignore[attr-defined]
    return ()


class _Kinds(dict[type[Attribute], int]):
    """Which of `_children`'s cases an attribute class is (1-3; 0: none), from
    its bases: `isinstance` with these ABCs scans every subclass of theirs for
    a class that is not one."""

    def __missing__(self, cls: type[Attribute]) -> int:
        bases = cls.__mro__
        kind = self[cls] = (
            1 if ParametrizedAttribute in bases else 2 if ArrayAttr in bases else 3 if DictionaryAttr in bases else 0
        )
        return kind


_KINDS = _Kinds()


class _MayAlias(dict[type[Attribute], bool]):
    """Whether attributes of a class can have an alias stem at all, answered once
    per class (the isinstance checks of `_alias_stem` cost more than the walk)."""

    def __missing__(self, cls: type[Attribute]) -> bool:
        # By the class's bases: `issubclass` with these ABCs scans every subclass
        # of theirs for a class that is not one (3 ms per class).
        bases = cls.__mro__
        known = self[cls] = TypeAttribute not in bases and (
            AffineMapAttr in bases or AffineSetAttr in bases or hasattr(cls, "asm_alias")
        )
        return known


_MAY_ALIAS = _MayAlias()


def collect_aliases(
    module: Operation, only: set[Attribute] | None = None, signatures: Signatures | None = None
) -> dict[Attribute, str]:
    """Aliases in MLIR's order: by depth (an alias nested in another's text comes
    first), then by name, then in first-use order; numbered as MLIR numbers them
    (`#x`, `#x1`, ...) in that order. With `only`, for those attributes alone.
    With `signatures`, an op without regions whose signature an earlier op had
    is skipped: its attributes and types equal that op's, already seen."""
    stems: dict[Attribute, str] = {}
    # Each attribute object is expanded once, in pre-order: a decoder's types
    # repeat on tens of thousands of ops, and the first occurrence of an object
    # already registered what it holds in first-use order.
    expanded: set[int] = set()

    def expand(attribute: Attribute) -> None:
        expanded.add(id(attribute))
        if _MAY_ALIAS[type(attribute)] and attribute not in stems:
            if only is None or attribute in only:
                stem = _alias_stem(attribute)
                if stem is not None:
                    stems[attribute] = stem
        for nested in _children(attribute):
            if id(nested) not in expanded:
                expand(nested)

    number = None if signatures is None else signatures.number
    memo = None if signatures is None else signatures.memo
    seen: set[int] = set()

    def expand_op(op: Operation) -> None:
        for top in op.attributes.values():
            if id(top) not in expanded:
                expand(top)
        for top in op.properties.values():
            if id(top) not in expanded:
                expand(top)
        for result in op.results:
            if id(top := result._type) not in expanded:  # pyright: ignore[reportPrivateUsage]
                expand(top)
        for operand in op._operands:  # pyright: ignore[reportPrivateUsage]
            if id(top := operand._type) not in expanded:  # pyright: ignore[reportPrivateUsage]
                expand(top)

    def visit(op: Operation) -> None:
        """`op` (with regions) and what is in it, in pre-order."""
        expand_op(op)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if id(top := arg._type) not in expanded:  # pyright: ignore[reportPrivateUsage]
                        expand(top)
                child = block._first_op  # pyright: ignore[reportPrivateUsage]
                while child is not None:
                    if child.regions:
                        visit(child)
                    elif number is None:
                        expand_op(child)
                    else:
                        signature = memo.get(id(child)) if memo is not None else None
                        if signature is None:
                            signature = number(child)
                        if signature not in seen:
                            if signature >= 0:
                                seen.add(signature)
                            expand_op(child)
                    child = child._next_op  # pyright: ignore[reportPrivateUsage]

    visit(module)
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


class MlirStructurePrinter(FastOutputPrinter):
    """xDSL's printer with mlir-opt's op-name elision and attribute aliases."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._aliases: dict[Attribute, str] = {}
        self._default_dialects: list[str] = [""]
        # Printed text of attribute objects, by identity (the parser shares the
        # objects of equal types and `#dialect` attributes), and of types by value
        # (passes build a new equal type per op); valid while the aliases stay
        # the same, so off while alias definitions are printed.
        self._printed_objects: dict[int, tuple[Attribute, str]] = {}
        self._printed_types: dict[Attribute, str] = {}
        self._cache_texts = True
        self._plans: dict[type[Operation], _OpPlan] = {}
        # The text of the first op of each signature whose text is a function of
        # its signature, its values' names taken out (`_Template`); the keys'
        # table may be shared (`print_module`).
        self.signatures = Signatures()
        self._templates: dict[tuple[object, ...], _Template | None] = {}
        # By the enclosing op's default dialect, and the key of a signature: the
        # format of the line of an op (`_line_format`).
        self._line_formats: dict[str, dict[tuple[type[Operation], int], str]] = {}

    local_scope: bool = False
    """mlir-opt's `--mlir-print-local-scope`: every attribute inline, no aliases."""

    def print_module(self, module: ModuleOp) -> None:
        """Alias definitions, then the module.

        As MLIR, only attributes the module's text prints through `print_attribute`
        get an alias (an op's custom syntax may print a map inline, a type may drop
        an identity layout): a dry run finds them, and they are numbered among
        themselves.
        """
        aliases = {} if self.local_scope else collect_aliases(module, signatures=self._read_signatures())
        # Only maps may go unprinted (ops' custom syntax, dropped identity layouts);
        # the dry run, a second print, is paid only then.
        if any(isinstance(a, AffineMapAttr | AffineSetAttr) for a in aliases):
            used = self._printed_aliases(module, aliases)
            if len(used) != len(aliases):
                aliases = collect_aliases(module, only=used, signatures=self._read_signatures())
        self._cache_texts = False
        for attribute, name in aliases.items():
            # A definition names the aliases nested in it (defined before it).
            self._aliases = {a: n for a, n in aliases.items() if a is not attribute}
            self.print_string(f"#{name} = ")
            self.print_attribute(attribute)
            self.print_string("\n")
        self._aliases = aliases
        self._cache_texts = True
        self.print_op(module)

    def _read_signatures(self) -> Signatures | None:
        """The signatures' table when it keeps each op's (the IR is only read)."""
        return self.signatures if self.signatures.memoizing else None

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
        if not self._cache_texts or self._used_aliases is not None:
            self._print_attribute_text(attribute)
            return
        entry = self._printed_objects.get(id(attribute))
        if entry is not None and entry[0] is attribute:
            self.print_string(entry[1])
            return
        if isinstance(attribute, BuiltinAttribute) and not isinstance(attribute, TypeAttribute):
            # Integers, strings, arrays, locations: mostly one object per use,
            # cheaper printed than captured.
            self._print_attribute_text(attribute)
            return
        is_type = isinstance(attribute, TypeAttribute)
        text = self._printed_types.get(attribute) if is_type else None
        if text is None:
            text = self._captured_text(attribute)
            if text is None:
                self._print_attribute_text(attribute)
                return
            if is_type:
                self._printed_types[attribute] = text
        self._printed_objects[id(attribute)] = (attribute, text)
        self.print_string(text)

    def attribute_text(self, attribute: Attribute) -> str:
        if self._cache_texts and self._used_aliases is None:
            entry = self._printed_objects.get(id(attribute))
            if entry is not None and entry[0] is attribute:
                return entry[1]
        return super().attribute_text(attribute)

    def _captured_text(self, attribute: Attribute) -> str | None:
        """The text of `attribute` printed aside; None (nothing printed) when it
        spans lines, which only the printer itself indents right."""
        text = self.printed_aside(lambda: self._print_attribute_text(attribute))
        return None if "\n" in text else text

    def _print_attribute_text(self, attribute: Attribute) -> None:
        name = self._aliases.get(attribute) if self._aliases else None
        if name is not None:
            if self._used_aliases is not None:
                self._used_aliases.add(attribute)
            self.print_string(f"#{name}")
            return
        super().print_attribute(attribute)

    def _plan(self, op: Operation) -> _OpPlan:
        plan = _OpPlan.of(type(op), op)
        self._plans[type(op)] = plan
        return plan

    def print_op(self, op: Operation) -> None:
        plan = self._plans.get(type(op)) or self._plan(op)
        if plan.verbatim:
            op.print_verbatim(self)  # type: ignore[attr-defined]
            return
        if self.print_generic_format or plan.print is None:
            text = self._generic_text(op, plan)
            if text is None:
                super().print_op(op)
            else:
                self.print_string(text)
            return
        self._default_dialects.append(plan.default_dialect)
        try:
            self._print_custom_op(op, plan)
        finally:
            self._default_dialects.pop()

    def print_block(
        self,
        block: Block,
        print_block_args: bool = True,
        print_block_terminator: bool = True,
    ) -> None:
        """xDSL's `print_block`, with each op whose line a template gives (the
        later ops of a signature, most of a decoder) written as one string
        without the calls of `print_op`."""
        names = self._value_names()
        if (
            print_block_args
            or names is None
            or self.print_generic_format
            or self.print_debuginfo
            or self._used_aliases is not None
            or self.diagnostic.op_messages
        ):
            super().print_block(block, print_block_args, print_block_terminator)
            return
        signatures = self.signatures
        number_of = signatures.number
        memo = signatures.memo
        lines = self._line_formats.setdefault(self._default_dialects[-1], {})
        self._indent += 1
        spaces = self._indent * self.indent_num_spaces
        newline = new_line(spaces)
        pending = self._pending
        try:
            op = block._first_op  # pyright: ignore[reportPrivateUsage]
            while op is not None:
                cls = type(op)
                if not print_block_terminator and op.has_trait(IsTerminator, value_if_unregistered=False):
                    op = op._next_op  # pyright: ignore[reportPrivateUsage]
                    continue
                number = None if memo is None else memo.get(id(op))
                if number is None:
                    number = number_of(op)
                line_format = lines.get((cls, number))
                if line_format is None:
                    line_format = self._line_format(op, (cls, number), lines)
                line = None
                if line_format:
                    try:
                        line = line_format.format(
                            *[names[v] for v in op._operands],  # pyright: ignore[reportPrivateUsage]
                            *[names[r] for r in op.results],
                        )
                    except KeyError:  # a value without a name
                        pass
                if line is None:
                    self._print_new_line()
                    self.print_op(op)
                elif self._next_line_callback:
                    self._print_line(line)
                else:  # `_print_line`, written out
                    self._emit(newline + line)
                    self._current_line += 1
                    self._current_column = spaces + len(line)
                    if pending is not None and len(pending) > FLUSH_AT:
                        self._flush()
                op = op._next_op  # pyright: ignore[reportPrivateUsage]
        finally:
            self._indent -= 1

    def _line_format(
        self, op: Operation, key: tuple[type[Operation], int], lines: dict[tuple[type[Operation], int], str]
    ) -> str | None:
        """The format (`str.format` of the op's operands' then results' names) of
        the line of an op of signature `key` in `lines`' enclosing dialect, once
        its signature's template is known; "" when there is none (recorded in
        `lines`), None when it is not known yet."""
        plan = self._plans.get(key[0]) or self._plan(op)
        if key[1] < 0 or not plan.templated or len(op.results) > 1 or op.name.startswith("builtin."):
            lines[key] = ""
            return ""
        if key not in self._templates:
            return None
        template = self._templates[key]
        if template is None or not template.one_line:
            lines[key] = ""
            return ""
        enclosing = self._default_dialects[-1]
        dialect, _, rest = op.name.partition(".")
        short = rest if dialect == enclosing else op.name
        head = "%{" + str(len(op._operands)) + "} = " if op.results else ""  # pyright: ignore[reportPrivateUsage]
        line_format = lines[key] = head + _escaped(short) + template.format
        return line_format

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

    def _print_custom_op(self, op: Operation, plan: _OpPlan) -> None:
        """xDSL's `Printer.print_op` for the custom form, with the short op name."""
        messages = self.diagnostic.op_messages
        if plan.text is not None and not plan.isolated and not (messages and op in messages):
            # The whole line as one string: results, name, the format's text and
            # the location.
            head = self.results_text(op) + self._short_name(op)
            body = self._signature_text(op, plan.text) if plan.by_signature else plan.text(op, self)
            if "\n" not in body:
                if self.print_debuginfo:
                    body += " " + self.attribute_text(op.location)
                self.print_string(head + body)
                return
        begin_op_pos = self._current_column
        self._print_results(op)
        if plan.isolated:
            self.enter_scope()
        self.print_string(self._short_name(op))
        if messages and op in messages:
            end_op_pos = self._current_column
            for message in messages[op]:
                self._add_message_on_next_line(message, begin_op_pos, end_op_pos)
        plan.print(op, self)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)
        if plan.isolated:
            self.exit_scope()

    def _value_names(self) -> dict[SSAValue, str] | None:
        """The table of the names values print with (`%` left out), which a
        naming printer keeps; None: op texts are not shared between ops."""
        return None

    def _signature_text(self, op: Operation, text: Callable[[Operation, Printer], str]) -> str:
        """`text(op, self)`, where `text` depends on nothing but the op's signature
        and its values' names: the first op of a signature is printed twice, as
        it is and with a placeholder for each name, and later ones get the
        latter with their names filled in."""
        names = self._value_names()
        key = self.signatures.key(type(op), op) if names is not None and self._used_aliases is None else ()
        if not key:
            return text(op, self)
        values = (*op._operands, *op.results)  # pyright: ignore[reportPrivateUsage]
        own = [names.get(value) for value in values]  # type: ignore[union-attr]
        template = self._templates.get(key)
        if template is not None and None not in own:
            return template.filled(own)  # type: ignore[arg-type]
        printed = text(op, self)
        if key not in self._templates and None not in own and len(set(values)) == len(values):
            # (a value named twice would take one placeholder for two slots)
            self._templates[key] = _Template.of(op, text, self, names, own, printed)  # type: ignore[arg-type]
        return printed

    def _generic_text(self, op: Operation, plan: _OpPlan) -> str | None:
        """xDSL's generic form of an op without regions or successors as one
        string; None for the others, which xDSL's `print_op` prints."""
        messages = self.diagnostic.op_messages
        if (
            op.regions
            or op.successors
            or plan.isolated
            or isinstance(op, UnregisteredOp)
            or self.print_properties_as_attributes
            or (messages and op in messages)
        ):
            return None
        parts = [self.results_text(op), '"', op.name, '"(', ", ".join(map(self.value_text, op.operands)), ")"]
        if op.properties:
            parts += [" <", self.printed_aside(lambda: self.print_attr_dict(op.properties)), ">"]
        if op.attributes:
            parts += [" ", self.printed_aside(lambda: self.print_attr_dict(op.attributes))]
        parts += [" : (", ", ".join(map(self.attribute_text, op.operand_types)), ") -> "]
        outputs = op.result_types
        if not outputs:
            parts.append("()")
        elif len(outputs) == 1:
            text = self.attribute_text(outputs[0])
            parts.append(f"({text})" if isinstance(outputs[0], FunctionType) else text)
        else:
            parts += ["(", ", ".join(map(self.attribute_text, outputs)), ")"]
        if self.print_debuginfo:
            parts += [" ", self.attribute_text(op.location)]
        text = "".join(parts)
        return None if "\n" in text else text

    def results_text(self, op: Operation) -> str:
        """What `_print_results` prints."""
        return self.printed_aside(lambda: self._print_results(op))


_MARK = "\x00"
"""Around the number of a value in a template's text (a control character: string
literals escape them)."""


def _escaped(text: str) -> str:
    """`text` in a `str.format` string."""
    return text.replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True)
class _Template:
    """An op's text with its values' names taken out: `pieces[0]`, then the name
    of value `slots[i]` (operands, then results) and `pieces[i + 1]`, for each i."""

    pieces: tuple[str, ...]
    slots: tuple[int, ...]

    @property
    def one_line(self) -> bool:
        return not any("\n" in piece for piece in self.pieces)

    @property
    def format(self) -> str:
        """The text as a `str.format` string of the names."""
        parts = [_escaped(self.pieces[0])]
        for slot, piece in zip(self.slots, self.pieces[1:]):
            parts += ("{", str(slot), "}", _escaped(piece))
        return "".join(parts)

    def filled(self, names: list[str]) -> str:
        parts = [self.pieces[0]]
        for slot, piece in zip(self.slots, self.pieces[1:]):
            parts += (names[slot], piece)
        return "".join(parts)

    @staticmethod
    def of(
        op: Operation,
        text: Callable[[Operation, Printer], str],
        printer: Printer,
        names: dict[SSAValue, str],
        own: list[str],
        printed: str,
    ) -> _Template | None:
        """The template of `op`'s text `printed` (`text(op, printer)`, with the
        names `own` of its operands and results, all distinct, from `names`),
        printed again with placeholder names; None when that does not give
        `printed` back with the op's own names."""
        if _MARK in printed:
            return None
        values = (*op._operands, *op.results)  # pyright: ignore[reportPrivateUsage]
        for number, value in enumerate(values):
            names[value] = f"{_MARK}{number}{_MARK}"
        try:
            marked = text(op, printer)
        finally:
            names.update(zip(values, own))
        split = marked.split(_MARK)
        slots = split[1::2]
        if len(split) % 2 == 0 or not all(slot.isdigit() and int(slot) < len(values) for slot in slots):
            return None
        template = _Template(tuple(split[0::2]), tuple(map(int, slots)))
        return template if template.filled(own) == printed else None


@dataclass(frozen=True)
class _OpPlan:
    """What printing an op of one class asks of its traits, asked once per class
    (per printer, so traits attached later are seen by the next one)."""

    verbatim: bool
    print: Callable[[Operation, Printer], None] | None
    """The custom form's printer (declarative formats compiled); None: generic."""
    default_dialect: str
    isolated: bool
    text: Callable[[Operation, Printer], str] | None
    """The text of an op after its name, when it is built as one string: a
    compiled format's (`CompiledFormat.text`), a `SignaturePrinter`'s print."""
    by_signature: bool
    """`text` depends on nothing but the op's signature and its values' names."""
    templated: bool
    """Its ops' lines may be filled in from a template (`_Template`)."""

    @staticmethod
    def of(op_type: type[Operation], op: Operation) -> _OpPlan:
        syntax = custom_syntax_class(op)
        trait = get_interface(op, DefaultDialect)
        print_op = None if syntax.print is Operation.print else compiled_print(syntax)
        text, by_signature = None, False
        if isinstance(print_op, CompiledFormat):
            text, by_signature = print_op.text, print_op.by_signature
        elif print_op is not None and get_interface(op, SignaturePrinter) is not None:
            text, by_signature = _printed_text(print_op), True
        verbatim = op.has_trait(PrintsVerbatim, value_if_unregistered=False)
        isolated = bool(op.get_traits_of_type(IsolatedFromAbove))
        by_signature = by_signature and text is not None
        return _OpPlan(
            verbatim=verbatim,
            print=print_op,
            default_dialect=trait.dialect if trait is not None else "",
            isolated=isolated,
            text=text,
            by_signature=by_signature,
            templated=by_signature and not verbatim and not isolated,
        )


def _printed_text(print_op: Callable[[Operation, Printer], None]) -> Callable[[Operation, Printer], str]:
    """A custom `print`'s text, printed aside."""

    def text(op: Operation, printer: Printer) -> str:
        assert isinstance(printer, FastOutputPrinter)
        return printer.printed_aside(lambda: print_op(op, printer))

    return text
