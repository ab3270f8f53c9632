"""Declarative assembly formats compiled once per op class into closures.

xDSL's `FormatProgram.print` interprets an op's format for every op: each
directive asks a fresh `PrintingState` whether to emit a space, and each piece of
punctuation is its own write. The spacing depends only on the directives before
it and on which optional ones printed, so it is decided here once per class: the
format is walked for each state the printer can be in at each directive (at most
four), constant text is joined, and what is left per op is the values, types and
attributes themselves. Directives this module does not model (custom directives,
subclasses that override `print`) are run as xDSL runs them, with a real
`PrintingState`, and the walk continues from the state they leave.

Each format is compiled twice: to steps that print, and to steps that return the
text they would print, which memplan's printer joins with the op's results and
name into one write (`CompiledFormat.text`; formats with regions have none).

The output is xDSL's, byte for byte (tests/unit/printing/test_formats.py compares
them on formats of every kind, through xDSL's printer and memplan's).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from operator import attrgetter

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IntegerType
from xdsl.dialects.utils.dynamic_index_list import DynamicIndexList, print_dynamic_index_list
from xdsl.ir import Operation
from xdsl.irdl.declarative_assembly_format import (
    AttrDictDirective,
    AttributeVariable,
    FormatDirective,
    FormatProgram,
    FunctionalTypeDirective,
    KeywordDirective,
    OperandsDirective,
    OperandVariable,
    OptionalGroupDirective,
    OptionalOperandVariable,
    OptionalRegionVariable,
    OptionalUnitAttrVariable,
    PrintingState,
    PunctuationDirective,
    RegionVariable,
    ResultVariable,
    TypeDirective,
    VariadicOperandVariable,
    VariadicRegionVariable,
    WhitespaceDirective,
)
from xdsl.irdl.operations import (
    AfterVariadicSingleAccessor,
    BeforeVariadicSingleAccessor,
    UniqueVariadicAccessor,
    VarIRConstruct,
)
from xdsl.printer import Printer

from memplan.printing.output import FastOutputPrinter

__all__ = ["compiled_print", "format_program"]

_State = tuple[bool, bool]
"""`PrintingState`'s (last_was_punctuation, should_emit_space)."""

_START: _State = (False, True)
_AFTER_VALUE: _State = (False, True)

_Step = Callable[[Printer, Operation], None]
_Compiled = tuple[str, "_Step | None"]
"""Constant text to print first, then what prints the rest (None: nothing)."""


def format_program(op_type: type[Operation]) -> FormatProgram | None:
    """The program xDSL's `print_with_format` of `op_type` runs, or None when the
    class prints otherwise."""
    function = getattr(op_type, "print", None)
    code = getattr(function, "__code__", None)
    if code is None or code.co_name != "print_with_format":
        return None
    for name, cell in zip(code.co_freevars, function.__closure__ or ()):
        if name == "assembly_program" and isinstance(cell.cell_contents, FormatProgram):
            return cell.cell_contents
    return None


_COMPILED: dict[type[Operation], Callable[[Operation, Printer], None]] = {}


def compiled_print(op_type: type[Operation]) -> Callable[[Operation, Printer], None]:
    """`op_type.print`, compiled when it is a declarative format (once per class)."""
    known = _COMPILED.get(op_type)
    if known is None:
        program = format_program(op_type)
        known = op_type.print if program is None else compile_program(program, op_type)
        _COMPILED[op_type] = known
    return known


def compile_program(
    program: FormatProgram, op_type: type[Operation] | None = None
) -> Callable[[Operation, Printer], None]:
    """A printer of `program` (the format of `op_type`, whose accessors of
    operands and results are then read by position where IRDL's are generic).
    For memplan's printers the op's text is built as one string (one write per
    op); for others, and when the text spans lines (regions, a type printed over
    lines), it is printed piece by piece."""
    return CompiledFormat(program, op_type)


class CompiledFormat:
    """A compiled format: called as `print(op, printer)`, xDSL's signature."""

    def __init__(self, program: FormatProgram, op_type: type[Operation] | None) -> None:
        self._prefix, self._rest = _Compiler(op_type, text=False).sequence(program.stmts, 0, _START, None)
        # What the format prints for an op through memplan's printer, as one
        # string (None: the format has regions); printed piece by piece instead
        # when the string spans lines.
        self.text: Callable[[Operation, FastOutputPrinter], str] | None
        compiler = _Compiler(op_type, text=True)
        prefix, rest = compiler.sequence(program.stmts, 0, _START, None)
        # Whether the text depends on nothing but the op's signature and its
        # values' names: not when a directive runs as xDSL runs it (a custom
        # directive may read anything of the op).
        self.by_signature = not compiler.opaque
        if compiler.failed:
            self.text = None
        elif rest is None:
            self.text = lambda op, printer: prefix
        else:
            self.text = lambda op, printer: prefix + rest(printer, op)

    def __call__(self, op: Operation, printer: Printer) -> None:
        if self.text is not None and isinstance(printer, FastOutputPrinter):
            text = self.text(op, printer)
            if "\n" not in text:
                printer.print_string(text)
                return
        if self._prefix:
            printer.print_string(self._prefix)
        if self._rest is not None:
            self._rest(printer, op)


def _space(state: _State) -> str:
    """`PrintingState.print_whitespace`'s space."""
    last_was_punctuation, should_emit_space = state
    return " " if should_emit_space or not last_was_punctuation else ""


def _punctuation(punctuation: str, state: _State) -> tuple[str, _State]:
    last_was_punctuation, should_emit_space = state
    emit = False
    if should_emit_space:
        if last_was_punctuation:
            emit = punctuation not in (">", ")", "}", "]", ",")
        else:
            emit = punctuation not in ("<", ">", "(", ")", "{", "}", "[", "]", ",")
    return (" " if emit else "") + punctuation, (True, punctuation not in ("<", "(", "{", "["))


def _run(compiled: _Compiled) -> _Step | None:
    text, rest = compiled
    if not text:
        return rest
    if rest is None:
        return lambda printer, op: printer.print_string(text)

    def step(printer: Printer, op: Operation) -> None:
        printer.print_string(text)
        rest(printer, op)

    return step


# A value directive: what it prints for an op after its leading space, or None
# when it prints nothing (None for the first: it always prints); and, for
# memplan's printers, its text (None: its print, printed aside; `_not_text`: it
# has no text, as regions span lines).
_Show = Callable[[Operation], object]
_Content = Callable[[Printer, Operation, object], None]
_Text = Callable[[FastOutputPrinter, Operation, object], str]
_Value = tuple["_Show | None", _Content, "_Text | None"]


def _print_types(printer: Printer, types: Sequence) -> None:
    if len(types) == 1:
        printer.print_attribute(types[0])
    else:
        printer.print_list(types, printer.print_attribute)


def _types_text(printer: FastOutputPrinter, op: Operation, types: Sequence) -> str:
    if len(types) == 1:
        return printer.attribute_text(types[0])
    return ", ".join(map(printer.attribute_text, types))


def _values_text(printer: FastOutputPrinter, op: Operation, values: Sequence) -> str:
    return ", ".join(map(printer.value_text, values))


def _truthy(get: Callable[[Operation], object]) -> _Show:
    """What `get` gives, None where xDSL's `if not value: return` prints nothing."""
    return lambda op: get(op) or None


def _getter(op_type: type[Operation] | None, name: str) -> Callable[[Operation], object]:
    """`getattr(op, name)`, by position when IRDL's accessor is one that indexes
    the operands or results alone (its generic `__get__` costs more than the
    rest of the directive); the same indexing as the accessor's `index`."""
    accessor = inspect.getattr_static(op_type, name, None) if op_type is not None else None
    kind = type(accessor)
    if kind in (BeforeVariadicSingleAccessor, AfterVariadicSingleAccessor, UniqueVariadicAccessor):
        if accessor.construct is VarIRConstruct.OPERAND:
            constructs = attrgetter("operands")
        elif accessor.construct is VarIRConstruct.RESULT:
            constructs = attrgetter("results")
        else:
            return attrgetter(name)
        index = accessor.idx
        if kind is BeforeVariadicSingleAccessor:
            return lambda op: constructs(op)[index]
        if kind is AfterVariadicSingleAccessor:
            index -= accessor.num_defs
            return lambda op: constructs(op)[index]
        defs = accessor.num_defs

        def variadic(op: Operation) -> object:
            args = constructs(op)
            return args[index : index + len(args) - defs + 1]

        return variadic
    return attrgetter(name)


def _type_getter(op_type: type[Operation] | None, inner: FormatDirective) -> Callable[[Operation], Sequence]:
    """`inner.get_types` of a `type(..)` directive, by position where it can be."""
    kind = type(inner)
    if kind is OperandVariable or kind is ResultVariable:
        get = _getter(op_type, inner.name)
        return lambda op: (get(op).type,)
    return inner.get_types


def _value_directive(directive: FormatDirective, op_type: type[Operation] | None) -> _Value | None:
    """How a directive prints that calls `PrintingState.print_whitespace` and
    then prints a value, when its class's `print` is the one modelled here."""
    kind = type(directive)
    if kind is OperandVariable:
        get = _getter(op_type, directive.name)
        return (
            None,
            lambda printer, op, _: printer.print_ssa_value(get(op)),
            lambda printer, op, _: printer.value_text(get(op)),
        )
    if kind is OptionalOperandVariable:
        return (
            _truthy(_getter(op_type, directive.name)),
            lambda printer, op, value: printer.print_ssa_value(value),
            lambda printer, op, value: printer.value_text(value),
        )
    if kind is VariadicOperandVariable:
        return (
            _truthy(_getter(op_type, directive.name)),
            lambda printer, op, values: printer.print_list(values, printer.print_ssa_value),
            _values_text,
        )
    if kind is RegionVariable:
        get = attrgetter(directive.name)
        return None, lambda printer, op, _: printer.print_region(get(op)), _not_text
    if kind is OptionalRegionVariable:
        return (
            _truthy(attrgetter(directive.name)),
            lambda printer, op, region: printer.print_region(region),
            _not_text,
        )
    if kind is VariadicRegionVariable:
        return (
            _truthy(attrgetter(directive.name)),
            lambda printer, op, regions: printer.print_list(regions, printer.print_region),
            _not_text,
        )
    if kind is TypeDirective:
        return (
            _truthy(_type_getter(op_type, directive.inner)),
            lambda printer, op, types: _print_types(printer, types),
            _types_text,
        )
    if kind is FunctionalTypeDirective:
        return None, lambda printer, op, _: _print_functional_type(printer, directive, op), None
    if kind is DynamicIndexList:
        return None, _dynamic_index_list(directive), None
    if isinstance(directive, AttributeVariable) and kind.print is AttributeVariable.print:
        name, default = directive.name, directive.default_value
        from_properties = directive.is_property
        print_attr = directive.print_attr

        def show(op: Operation) -> object:
            attr = (op.properties if from_properties else op.attributes).get(name)
            return None if attr is None or attr == default else attr

        return show, lambda printer, op, attr: print_attr(printer, attr), None
    return None


def _not_text(printer: FastOutputPrinter, op: Operation, value: object) -> str:
    raise AssertionError("regions are printed, never built as text")


def _dynamic_index_list(directive: DynamicIndexList) -> Callable[[Printer, Operation, object], None]:
    """xDSL's `DynamicIndexList.print`, a static list (`[0, 0]`) in one write."""
    get_dynamic, get_static = directive.dynamic_position.get, directive.static_position.get

    def content(printer: Printer, op: Operation, _: object) -> None:
        dynamic, static = get_dynamic(op), get_static(op)
        assert isinstance(static, DenseArrayBase) and isinstance(static.elt_type, IntegerType)
        values = static.get_values()
        if dynamic or DYNAMIC_INDEX in values:
            print_dynamic_index_list(printer, DYNAMIC_INDEX, dynamic, values)
        else:
            printer.print_string("[" + ", ".join(map(str, values)) + "]")

    return content


def _print_functional_type(printer: Printer, directive: FunctionalTypeDirective, op: Operation) -> None:
    printer.print_string("(")
    printer.print_list(directive.operand_typeable_directive.get_types(op), printer.print_attribute)
    printer.print_string(") -> ")
    result_types = directive.result_typeable_directive.get_types(op)
    if len(result_types) == 1:
        printer.print_attribute(result_types[0])
    else:
        printer.print_string("(")
        printer.print_list(result_types, printer.print_attribute)
        printer.print_string(")")


_Then = "tuple[Sequence[FormatDirective], int, _Then] | None"
"""What follows a sequence: the directives after an optional group (the enclosing
sequence, the index after the group, and what follows that)."""

_TextStep = Callable[[FastOutputPrinter, Operation], str]


class _Compiler:
    """Walks a format once per (sequence, position, state, what follows).

    In print mode a step prints; in text mode (`text=True`) it returns the text
    it would print, and `failed` tells whether the format has a directive that
    cannot be text (a region)."""

    def __init__(self, op_type: type[Operation] | None, *, text: bool) -> None:
        self.op_type = op_type
        self.text = text
        self.failed = False
        self.opaque = False
        self._memo: dict[object, _Compiled] = {}
        # Sequences are keyed by identity (their directives need not hash), so
        # every one stays alive while the memo is in use.
        self._alive: list[object] = []

    def _key(self, stmts: Sequence[FormatDirective], index: int, then: _Then) -> object:
        self._alive.append(stmts)
        return (id(stmts), index, None if then is None else self._key(*then))

    def sequence(self, stmts: Sequence[FormatDirective], index: int, state: _State, then: _Then) -> _Compiled:
        """What prints `stmts[index:]` from `state`, followed by `then`."""
        key = (self._key(stmts, index, then), state)
        known = self._memo.get(key)
        if known is None:
            known = self._memo[key] = self._compile(stmts, index, state, then)
        return known

    def _rest(self, stmts: Sequence[FormatDirective], index: int, state: _State, then: _Then) -> _Compiled:
        return self.sequence(stmts, index + 1, state, then)

    def _step(self, compiled: _Compiled):
        """One step doing all of `compiled` (None: nothing to do)."""
        return _run_text(compiled) if self.text else _run(compiled)

    def _compile(self, stmts: Sequence[FormatDirective], index: int, state: _State, then: _Then) -> _Compiled:
        if index == len(stmts):
            return ("", None) if then is None else self.sequence(then[0], then[1], state, then[2])
        directive = stmts[index]
        kind = type(directive)
        if kind is WhitespaceDirective:
            text, after = directive.whitespace, (directive.whitespace == "", False)
            return _prefixed(text, self._rest(stmts, index, after, then))
        if kind is PunctuationDirective:
            text, after = _punctuation(directive.punctuation, state)
            return _prefixed(text, self._rest(stmts, index, after, then))
        if kind is KeywordDirective:
            text = (" " if state[1] else "") + directive.keyword
            return _prefixed(text, self._rest(stmts, index, _AFTER_VALUE, then))
        if kind is OptionalUnitAttrVariable:
            return self._rest(stmts, index, state, then)
        if kind is OptionalGroupDirective:
            return self._group(directive, stmts, index, state, then)
        if kind is AttrDictDirective:
            return self._attr_dict(directive, stmts, index, state, then)
        if kind is OperandsDirective:
            value: _Value | None = (
                _truthy(attrgetter("operands")),
                lambda printer, op, operands: printer.print_list(operands, printer.print_ssa_value),
                _values_text,
            )
        else:
            value = _value_directive(directive, self.op_type)
        if value is None:
            return self._opaque(directive, stmts, index, state, then)
        show, content, text_of = value
        if self.text:
            if text_of is _not_text:
                self.failed = True
            if text_of is None:
                text_of = _printed_aside(content)
            return self._value_text(show, text_of, stmts, index, state, then)
        space = _space(state)
        shown = _run(self._rest(stmts, index, _AFTER_VALUE, then))
        if show is None:
            if shown is None:
                return space, lambda printer, op: content(printer, op, None)

            def always(printer: Printer, op: Operation) -> None:
                content(printer, op, None)
                shown(printer, op)

            return space, always
        absent = _run(self._rest(stmts, index, state, then))

        def step(printer: Printer, op: Operation) -> None:
            value = show(op)
            if value is not None:
                if space:
                    printer.print_string(space)
                content(printer, op, value)
                if shown is not None:
                    shown(printer, op)
            elif absent is not None:
                absent(printer, op)

        return "", step

    def _value_text(self, show: _Show | None, text_of: _Text, stmts, index: int, state: _State, then: _Then) -> _Compiled:
        space = _space(state)
        after_text, after = self._rest(stmts, index, _AFTER_VALUE, then)
        if show is None:
            if after is None:
                return space, lambda printer, op: text_of(printer, op, None) + after_text
            return space, lambda printer, op: text_of(printer, op, None) + after_text + after(printer, op)
        absent = _run_text(self._rest(stmts, index, state, then))

        def step(printer: FastOutputPrinter, op: Operation) -> str:
            value = show(op)
            if value is None:
                return "" if absent is None else absent(printer, op)
            text = space + text_of(printer, op, value) + after_text
            return text if after is None else text + after(printer, op)

        return "", step

    def _group(self, directive: OptionalGroupDirective, stmts, index: int, state: _State, then: _Then) -> _Compiled:
        after = (stmts, index + 1, then)
        present = self._step(self.sequence(directive_then(directive), 0, state, after))
        absent = self._step(self.sequence(directive.else_elements, 0, state, after))
        is_present = directive.anchor.is_present
        nothing = "" if self.text else None

        def step(printer: Printer, op: Operation):
            branch = present if is_present(op) else absent
            return nothing if branch is None else branch(printer, op)

        return "", step

    def _attr_dict(self, directive: AttrDictDirective, stmts, index: int, state: _State, then: _Then) -> _Compiled:
        printed = self._step(self._rest(stmts, index, _AFTER_VALUE, then))
        unprinted = self._step(self._rest(stmts, index, state, then))
        expected = directive.expected_properties
        print_dict = directive.print
        text_mode = self.text

        def step(printer: Printer, op: Operation):
            # Nothing to print (the common case) is told without the dictionary.
            text = ""
            if not op.attributes and (not expected or expected.isdisjoint(op.properties)):
                branch = unprinted
            else:
                probe = PrintingState(*state)
                if text_mode:
                    text = printer.printed_aside(lambda: print_dict(printer, probe, op))
                else:
                    print_dict(printer, probe, op)
                # A printed dictionary leaves (False, True); when the state was
                # that already, both continuations are the same.
                branch = printed if (probe.last_was_punctuation, probe.should_emit_space) != state else unprinted
            if branch is not None:
                rest = branch(printer, op)
                return text + rest if text_mode else None
            return text if text_mode else None

        return "", step

    def _opaque(self, directive: FormatDirective, stmts, index: int, state: _State, then: _Then) -> _Compiled:
        """A directive run as xDSL runs it; the rest compiled for the state it leaves."""
        self.opaque = True
        variants: dict[_State, object] = {}
        print_directive = directive.print
        text_mode = self.text

        def step(printer: Printer, op: Operation):
            probe = PrintingState(*state)
            if text_mode:
                text = printer.printed_aside(lambda: print_directive(printer, probe, op))
            else:
                print_directive(printer, probe, op)
            after = (probe.last_was_punctuation, probe.should_emit_space)
            if after not in variants:
                variants[after] = self._step(self._rest(stmts, index, after, then))
            rest = variants[after]
            if not text_mode:
                if rest is not None:
                    rest(printer, op)
                return None
            return text if rest is None else text + rest(printer, op)

        return "", step


def _printed_aside(content: _Content) -> _Text:
    return lambda printer, op, value: printer.printed_aside(lambda: content(printer, op, value))


def _run_text(compiled: _Compiled) -> _TextStep | None:
    text, rest = compiled
    if rest is None:
        return (lambda printer, op: text) if text else None
    if not text:
        return rest
    return lambda printer, op: text + rest(printer, op)


def directive_then(directive: OptionalGroupDirective) -> tuple[FormatDirective, ...]:
    """The directives an optional group prints when its anchor is present."""
    return (*directive.then_whitespace, directive.then_first, *directive.then_elements)


def _prefixed(text: str, compiled: _Compiled) -> _Compiled:
    return text + compiled[0], compiled[1]
