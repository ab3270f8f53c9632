"""Faster reading of MLIR text: types and dialect attributes cached by their source
text, no garbage collection while parsing, symbol tables indexed while verifying.

A decoder module spells a few dozen distinct types tens of thousands of times
(``memref<1x512xf16>`` on every kernel), and xDSL parses each occurrence from scratch:
in a 20,000-op module more than half of the parse went to ``parse_optional_type``,
much of it building ``MemRefType``'s constraints again. :class:`TypeCachingParser`
parses a type's text once per parse and afterwards only recognises the same text.
Parsing allocates millions of objects and frees almost none, so the collector's
passes find nothing: :func:`without_gc` switches it off meanwhile. Verifying every
``util.global.load``/``store`` looks its global up with xDSL's
``SymbolTable.lookup_symbol``, a scan of the module's top-level ops each time:
quadratic in the module. :func:`indexed_symbol_lookups` answers those lookups from
one dictionary per symbol table while the IR does not change. An op's IRDL
constraints (operand, result, property and attribute definitions) depend only on
those values, and a decoder has a few hundred distinct combinations among tens of
thousands of ops: :func:`memoized_definition_checks` checks each once per
verification.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation, TypeAttribute
from xdsl.irdl import OpDef
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.lexer import Span
from xdsl.traits import SymbolTable
from xdsl.utils.mlir_lexer import MLIRTokenKind

from memplan.symbols import symbol_index

_T = TypeVar("_T")

#: A balanced ``<...>`` body with up to four levels of nested angle brackets.
_BODY = r"(?:<(?:[^<>]|<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>)*>)?"

#: The text a type can span: a type name (``!dialect.name``, or a bare builtin name
#: such as ``index``, ``memref``) and, optionally, a ``<...>`` body. Only a
#: candidate: a type is cached under this text only when parsing it consumed
#: exactly that text, and a cached text is reused only where the same text appears,
#: so a wrong candidate (``->`` inside a body) merely misses the cache.
_TYPE_TEXT = re.compile(r"(?:![\w.$-]+|[A-Za-z_][\w.$]*)" + _BODY)

#: Likewise for dialect attributes and attribute aliases: ``#hal.device.affinity<@d>``,
#: ``#map``.
_ATTRIBUTE_TEXT = re.compile(r"#[\w.$-]+" + _BODY)

#: Likewise for an op's attribute dictionary without nested braces or strings:
#: ``{alignment = 64 : i64}`` (a kernel's attributes repeat on every layer).
_DICTIONARY_TEXT = re.compile(r"\{[^{}\"]*\}")

#: An SSA value use, as op parsers' fast paths match it in the text.
SSA_USE = r"%(?:\d+|[A-Za-z_$.-][\w$.-]*)(?:#\d+)?"
_SSA_USE_PARTS = re.compile(r"(%(?:\d+|[A-Za-z_$.-][\w$.-]*))(?:#(\d+))?")


class TypeCachingParser(Parser):
    """A parser mixin (put it before :class:`xdsl.parser.Parser`): each distinct type
    (``#dialect`` attribute, flat attribute dictionary) text is parsed once per parser; later occurrences
    return the same (immutable) object and move the lexer past the text."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._types_by_text: dict[str, TypeAttribute] = {}
        self._attributes_by_text: dict[str, Attribute] = {}
        self._dictionaries_by_text: dict[str, dict[str, Attribute]] = {}

    def parse_optional_type(self) -> TypeAttribute | None:
        return self._cached(_TYPE_TEXT, self._types_by_text, super().parse_optional_type)

    def parse_optional_attribute(self) -> Attribute | None:
        return self._cached(_ATTRIBUTE_TEXT, self._attributes_by_text, super().parse_optional_attribute)

    def parse_optional_dictionary_attr_dict(self) -> dict[str, Attribute]:
        parse = super().parse_optional_dictionary_attr_dict
        if self._current_token.kind != MLIRTokenKind.L_BRACE:
            return parse()
        # A copy: callers take entries out of the dictionary they get.
        return dict(self._cached(_DICTIONARY_TEXT, self._dictionaries_by_text, parse))

    def cached_type_at(self, pos: int) -> tuple[TypeAttribute, int] | None:
        """The type whose text, already parsed once, starts at `pos`, and where that
        text ends; None when it is no cached type (then parse it as usual). For
        op parsers' fast paths that read ahead in the text."""
        candidate = _TYPE_TEXT.match(self.lexer.input.content, pos)
        if candidate is None:
            return None
        found = self._types_by_text.get(candidate.group())
        return None if found is None else (found, candidate.end())

    def operands_in(self, start: int, end: int) -> list[UnresolvedOperand]:
        """The SSA value uses (`%v`, `%r#1`) in the text from `start` to `end`, for op
        parsers' fast paths that matched that text with `SSA_USE`."""
        source = self.lexer.input
        return [
            UnresolvedOperand(Span(*m.span(1), source), int(m.group(2) or 0))
            for m in _SSA_USE_PARTS.finditer(source.content, start, end)
        ]

    def skip_to(self, pos: int) -> None:
        """Go on from `pos` in the text (the end of what a fast path has read)."""
        self.lexer.pos = pos
        self._parser_state.current_token = self.lexer.lex()

    def _cached(self, pattern: re.Pattern[str], cache: dict, parse: Callable[[], _T | None]) -> _T | None:
        token = self._current_token
        start = token.span.start
        content = token.span.input.content
        candidate = pattern.match(content, start)
        if candidate is None:
            return parse()
        text = candidate.group()
        end = candidate.end()
        cached = cache.get(text)
        if cached is not None:
            self.skip_to(end)
            return cached
        parsed = parse()
        if parsed is not None:
            # Cache only when the parse stopped exactly at the candidate's end
            # (nothing but whitespace between it and the next token).
            after = self._current_token.span.start
            if after == end or (after > end and content[end:after].isspace()):
                cache[text] = parsed
        return parsed


@contextmanager
def without_gc() -> Iterator[None]:
    """The cyclic garbage collector off for the duration (as it was afterwards)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def indexed_symbol_lookups() -> Iterator[None]:
    """``SymbolTable.lookup_symbol`` from a name -> op dictionary per symbol table,
    built on the first lookup in it, for the duration. Only for code that does not
    add, remove or rename symbols meanwhile (verification); nested references and
    ops outside any symbol table go to xDSL's own lookup."""
    original = SymbolTable.lookup_symbol
    tables: dict[Operation, dict[str, Operation]] = {}

    def lookup_symbol(op: Operation, name: str | StringAttr | SymbolRefAttr) -> Operation | None:
        if isinstance(name, SymbolRefAttr) and name.nested_references.data:
            return original(op, name)
        anchor: Operation | None = op
        while anchor is not None and not anchor.has_trait(SymbolTable):
            anchor = anchor.parent_op()
        if anchor is None:
            return original(op, name)
        table = tables.get(anchor)
        if table is None:
            table = tables[anchor] = symbol_index(anchor)
        key = name.root_reference.data if isinstance(name, SymbolRefAttr) else getattr(name, "data", name)
        return table.get(key)

    SymbolTable.lookup_symbol = staticmethod(lookup_symbol)  # type: ignore[method-assign]
    try:
        yield
    finally:
        SymbolTable.lookup_symbol = staticmethod(original)  # type: ignore[method-assign]


@contextmanager
def memoized_definition_checks() -> Iterator[None]:
    """xDSL's `OpDef.verify` (an op against its IRDL definition) checks, for the
    duration, each combination of definition, operand and result types, properties
    and attributes (equal values) once; a later op of the same combination runs
    only its traits' verifiers. Ops with regions or successors are checked in full
    each time.

    Types are compared by identity after interning: the parser shares equal types,
    but a pass builds a new type object per op it creates (every `memref.view` of
    a pool), so each type object seen is mapped, by value once, to the first equal
    one."""
    original = OpDef.verify
    passed: set[tuple[object, ...]] = set()
    # id(type object) -> (that object, kept so its id stays its own; the id of
    # the first equal type seen)
    interned: dict[int, tuple[object, int]] = {}
    first_of: dict[object, int] = {}

    def canonical(t: object) -> int:
        known = interned.get(id(t))
        if known is None:
            known = interned[id(t)] = (t, first_of.setdefault(t, id(t)))
        return known[1]

    def verify(op_def: OpDef, op: Operation) -> None:
        if op.regions or op.successors:
            return original(op_def, op)
        try:
            key = (
                id(op_def), *[canonical(v.type) for v in op.operands],
                None, *[canonical(r.type) for r in op.results],
                *op.properties.items(), None, *op.attributes.items(),
            )
            hit = key in passed
        except TypeError:  # an unhashable attribute
            return original(op_def, op)
        if hit:
            for trait in op_def.traits:
                trait.verify(op)
            return
        original(op_def, op)
        passed.add(key)

    OpDef.verify = verify  # type: ignore[method-assign]
    try:
        yield
    finally:
        OpDef.verify = original  # type: ignore[method-assign]
