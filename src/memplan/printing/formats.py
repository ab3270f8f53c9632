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

The output is xDSL's, byte for byte (tests/unit/tool/test_printing.py compares
them on formats of every kind).
"""

from __future__ import annotations

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
    TypeDirective,
    VariadicOperandVariable,
    VariadicRegionVariable,
    WhitespaceDirective,
)
from xdsl.printer import Printer

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
        known = op_type.print if program is None else compile_program(program)
        _COMPILED[op_type] = known
    return known


def compile_program(program: FormatProgram) -> Callable[[Operation, Printer], None]:
    prefix, rest = _Compiler().sequence(program.stmts, 0, _START, None)

    def print_op(op: Operation, printer: Printer) -> None:
        if prefix:
            printer.print_string(prefix)
        if rest is not None:
            rest(printer, op)

    return print_op


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
# when it prints nothing (None for the first: it always prints).
_Show = Callable[[Operation], object]
_Value = tuple["_Show | None", "Callable[[Printer, Operation, object], None]"]


def _print_types(printer: Printer, types: Sequence) -> None:
    if len(types) == 1:
        printer.print_attribute(types[0])
    else:
        printer.print_list(types, printer.print_attribute)


def _truthy(get: Callable[[Operation], object]) -> _Show:
    """What `get` gives, None where xDSL's `if not value: return` prints nothing."""
    return lambda op: get(op) or None


def _value_directive(directive: FormatDirective) -> _Value | None:
    """How a directive prints that calls `PrintingState.print_whitespace` and
    then prints a value, when its class's `print` is the one modelled here."""
    kind = type(directive)
    if kind is OperandVariable:
        get = attrgetter(directive.name)
        return None, lambda printer, op, _: printer.print_ssa_value(get(op))
    if kind is OptionalOperandVariable:
        return _truthy(attrgetter(directive.name)), lambda printer, op, value: printer.print_ssa_value(value)
    if kind is VariadicOperandVariable:
        return _truthy(attrgetter(directive.name)), lambda printer, op, values: printer.print_list(
            values, printer.print_ssa_value
        )
    if kind is RegionVariable:
        get = attrgetter(directive.name)
        return None, lambda printer, op, _: printer.print_region(get(op))
    if kind is OptionalRegionVariable:
        return _truthy(attrgetter(directive.name)), lambda printer, op, region: printer.print_region(region)
    if kind is VariadicRegionVariable:
        return _truthy(attrgetter(directive.name)), lambda printer, op, regions: printer.print_list(
            regions, printer.print_region
        )
    if kind is TypeDirective:
        return _truthy(directive.inner.get_types), lambda printer, op, types: _print_types(printer, types)
    if kind is FunctionalTypeDirective:
        return None, lambda printer, op, _: _print_functional_type(printer, directive, op)
    if kind is DynamicIndexList:
        return None, _dynamic_index_list(directive)
    if isinstance(directive, AttributeVariable) and kind.print is AttributeVariable.print:
        name, default = directive.name, directive.default_value
        from_properties = directive.is_property
        print_attr = directive.print_attr

        def show(op: Operation) -> object:
            attr = (op.properties if from_properties else op.attributes).get(name)
            return None if attr is None or attr == default else attr

        return show, lambda printer, op, attr: print_attr(printer, attr)
    return None


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


class _Compiler:
    """Walks a format once per (sequence, position, state, what follows)."""

    def __init__(self) -> None:
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
            )
        else:
            value = _value_directive(directive)
        if value is None:
            return self._opaque(directive, stmts, index, state, then)
        show, content = value
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

    def _group(self, directive: OptionalGroupDirective, stmts, index: int, state: _State, then: _Then) -> _Compiled:
        after = (stmts, index + 1, then)
        present = _run(self.sequence(directive_then(directive), 0, state, after))
        absent = _run(self.sequence(directive.else_elements, 0, state, after))
        is_present = directive.anchor.is_present

        def step(printer: Printer, op: Operation) -> None:
            branch = present if is_present(op) else absent
            if branch is not None:
                branch(printer, op)

        return "", step

    def _attr_dict(self, directive: AttrDictDirective, stmts, index: int, state: _State, then: _Then) -> _Compiled:
        printed = _run(self._rest(stmts, index, _AFTER_VALUE, then))
        unprinted = _run(self._rest(stmts, index, state, then))
        expected = directive.expected_properties
        print_dict = directive.print

        def step(printer: Printer, op: Operation) -> None:
            # Nothing to print (the common case) is told without the dictionary.
            if not op.attributes and (not expected or expected.isdisjoint(op.properties)):
                branch = unprinted
            else:
                probe = PrintingState(*state)
                print_dict(printer, probe, op)
                # A printed dictionary leaves (False, True); when the state was
                # that already, both continuations are the same.
                branch = printed if (probe.last_was_punctuation, probe.should_emit_space) != state else unprinted
            if branch is not None:
                branch(printer, op)

        return "", step

    def _opaque(self, directive: FormatDirective, stmts, index: int, state: _State, then: _Then) -> _Compiled:
        """A directive run as xDSL runs it; the rest compiled for the state it leaves."""
        variants: dict[_State, _Step | None] = {}
        print_directive = directive.print

        def step(printer: Printer, op: Operation) -> None:
            probe = PrintingState(*state)
            print_directive(printer, probe, op)
            after = (probe.last_was_punctuation, probe.should_emit_space)
            if after not in variants:
                variants[after] = _run(self._rest(stmts, index, after, then))
            rest = variants[after]
            if rest is not None:
                rest(printer, op)

        return "", step


def directive_then(directive: OptionalGroupDirective) -> tuple[FormatDirective, ...]:
    """The directives an optional group prints when its anchor is present."""
    return (*directive.then_whitespace, directive.then_first, *directive.then_elements)


def _prefixed(text: str, compiled: _Compiled) -> _Compiled:
    return text + compiled[0], compiled[1]
