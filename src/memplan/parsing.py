"""Faster reading of MLIR text: types and dialect attributes cached by their source
text, no garbage collection while parsing, symbol tables indexed while verifying.

A decoder module spells a few dozen distinct types tens of thousands of times
(``memref<1x512xf16>`` on every kernel), and xDSL parses each occurrence from scratch:
in a 20,000-op module more than half of the parse went to ``parse_optional_type``,
much of it building ``MemRefType``'s constraints again. :class:`TypeCachingParser`
parses a type's text once per parse and afterwards only recognises the same text.
Beyond types, a decoder repeats a few hundred whole op texts that differ only in
their SSA names: :class:`RepeatedOpParser` rebuilds such an op from what the first
parse of its text built. xDSL copies every SSA name in scope at each region:
:class:`ScopedValuesParser` undoes the region's insertions instead. Parsing allocates millions of objects and frees almost none, so the collector's
passes find nothing: :func:`without_gc` switches it off meanwhile. Verifying every
``util.global.load``/``store`` looks its global up with xDSL's
``SymbolTable.lookup_symbol``, a scan of the module's top-level ops each time:
quadratic in the module. :func:`indexed_symbol_lookups` answers those lookups from
one dictionary per symbol table while the IR does not change.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TypeVar

from xdsl.dialects.builtin import UNKNOWN_LOC, LocationAttr, StringAttr, SymbolRefAttr, UnknownLoc
from xdsl.ir import Attribute, Block, Operation, SSAValue, TypeAttribute
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRLexer, StringLiteral
from xdsl.utils.lexer import Token
from xdsl.parser.generic_parser import ParserState
from xdsl.traits import SymbolTable
from xdsl.utils.mlir_lexer import MLIRTokenKind

from memplan.op_assembly import assemble as _assemble_op, constructs_plainly
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


#: The tokens an MLIR text is mostly made of, after whitespace and comments (an
#: atomic group: never given back to make a token match), one group per token kind (see `_TOKEN_KINDS`); anything else (a non-ASCII letter, a
#: string with escapes, `...`, `{-#`, `#-}`, an error) is left to xDSL's lexer.
_PLAIN_TOKEN = re.compile(
    r"""(?>(?:\s+|//[^\n]*\n?)*)(?:
     ([A-Za-z_][A-Za-z0-9_$.]*)
    |(%(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))
    |([:,()\[\]<>=}+*?|/])
    |(->)
    |(\{(?!-\#))
    |(@(?:[A-Za-z_][A-Za-z0-9_$.]*|"[^"\\\n\v\f]*"))
    |(\#(?!-\})(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))
    |(!(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))
    |(\^(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))
    |("[^"\\\n\v\f]*")
    |(0x[0-9a-fA-F]+|[0-9]+(?![.0-9]))
    |([0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?)
    |(-)
    |(\Z))""",
    re.ASCII | re.VERBOSE,
)
_K = MLIRTokenKind
_TOKEN_KINDS = (None, _K.BARE_IDENT, _K.PERCENT_IDENT, None, _K.ARROW, _K.L_BRACE, _K.AT_IDENT,
                _K.HASH_IDENT, _K.EXCLAMATION_IDENT, _K.CARET_IDENT, _K.STRING_LIT, _K.INTEGER_LIT,
                _K.FLOAT_LIT, _K.MINUS, _K.EOF)
_PUNCTUATION = {
    ":": _K.COLON, ",": _K.COMMA, "(": _K.L_PAREN, ")": _K.R_PAREN, "}": _K.R_BRACE,
    "[": _K.L_SQUARE, "]": _K.R_SQUARE, "<": _K.LESS, ">": _K.GREATER, "=": _K.EQUAL,
    "+": _K.PLUS, "*": _K.STAR, "?": _K.QUESTION, "|": _K.VERTICAL_BAR, "/": _K.SLASH,
}
_STRING, _PUNCT, _EOF = 10, 3, 14


class PlainTokenLexer(MLIRLexer):
    """xDSL's MLIR lexer with the common tokens matched by one regular expression
    (xDSL's tests each character class in turn): the same tokens and spans, and
    xDSL's own code for the rest, errors included."""

    def lex(self) -> Token:
        found = _PLAIN_TOKEN.match(self.input.content, self.pos)
        group = None if found is None else found.lastindex
        if group is None:
            return MLIRLexer.lex(self)
        start, end = found.span(group)
        if group == _EOF:  # xDSL's EOF token spans one (missing) character
            self.pos = start + 1
            return Token(_K.EOF, Span(start, start + 1, self.input))
        self.pos = end
        if group == _PUNCT:
            return Token(_PUNCTUATION[found.group(group)], Span(start, end, self.input))
        if group == _STRING:
            return Token(_K.STRING_LIT, StringLiteral(start, end, self.input))
        return Token(_TOKEN_KINDS[group], Span(start, end, self.input))


class TypeCachingParser(Parser):
    """A parser mixin (put it before :class:`xdsl.parser.Parser`): each distinct type
    (``#dialect`` attribute, flat attribute dictionary) text is parsed once per parser; later occurrences
    return the same (immutable) object and move the lexer past the text."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._parser_state = ParserState(PlainTokenLexer(self.lexer.input))
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


#: An SSA value use (`%v`, `%r#1`) in an op's text, as xDSL's lexer reads one
#: (groups 1 and 2), or a string literal or comment taken whole (no group), so
#: that `%` inside `"..."`, `@"..."` or `// ...` is never read as a use.
_VALUE_USE = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|(%(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))(?:#([0-9]+))?', re.ASCII
)

#: The same use, for a text without strings and comments: split around it.
_SPLIT_USES = re.compile(r"%((?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))(?:#([0-9]+))?", re.ASCII)


def _value_uses(text: str) -> list[re.Match[str]]:
    """The SSA value uses of an op's text, outside its strings and comments."""
    return [m for m in _VALUE_USE.finditer(text) if m.group(1) is not None]


def _result_names(header: re.Match[str]) -> list[tuple[str, int, int]]:
    """The names (without `%`) an op's header (`_OP_START`) binds, where each
    starts and how many values it binds."""
    one = header.group("one")
    if one is not None:
        return [(one[1:], header.start("one"), 1)]
    results = header.group("results")
    if results is None:
        return []
    offset = header.start("results")
    return [(m.group(1), offset + m.start(), int(m.group(2) or 1)) for m in _RESULT.finditer(results)]


def _text_key(text: str) -> tuple[str, list[str], list[str | None]]:
    """An op's text with each value use outside strings and comments made `%`
    (two lines of one key differ only in their SSA names), and the names (without
    `%`) and tuple indices (None for none) of those uses in order."""
    if '"' in text or "//" in text:  # a `%` inside a string or comment is no use
        uses = _value_uses(text)
        key = _VALUE_USE.sub(lambda m: "%" if m.group(1) is not None else m.group(0), text)
        return key, [m.group(1)[1:] for m in uses], [m.group(2) for m in uses]
    parts = _SPLIT_USES.split(text)
    return "%".join(parts[::3]), parts[1::3], parts[2::3]


#: An op's start in its plain form: the results it binds (`%a, %b:2 =`), then its
#: custom (bare) or generic (quoted) name.
_RESULT_NAME = r"%(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*)(?::[0-9]+)?"
_OP_START = re.compile(
    r"(?:(?P<one>%(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))\s*=\s*"
    rf"|(?P<results>(?:{_RESULT_NAME}\s*,\s*)*{_RESULT_NAME})\s*=\s*)?"
    r"(?:(?P<name>[A-Za-z_][A-Za-z0-9_$.]*)|\"(?P<generic>[A-Za-z0-9_$.-]+)\")",
    re.ASCII,
)
_RESULT = re.compile(r"%([0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*)(?::([0-9]+))?", re.ASCII)

#: What follows an op's line, as far as the op's parser may look at it (an
#: optional trailing element is decided on the next token): the next op's
#: results or a block label (whatever their names), a closing brace or the end,
#: or a name or string in full. Anything else is never templated. Whitespace and
#: comments are skipped whole (atomic): a `%` inside a comment is no next token.
_FOLLOW = re.compile(
    r'(?>(?:\s+|//[^\n]*\n?)*)(?:(%|\^|\}|\Z)|([A-Za-z_][A-Za-z0-9_$.]*|"[^"\\\n]*"))', re.ASCII
)

#: A location written in an op's text (`loc(...)`, `loc(unknown)` included):
#: such a text is never templated, its op's location is not the line's.
_LOCATION = re.compile(r"\bloc\s*\(")

#: At most this many op texts are remembered per parse (memory stays bounded when
#: few ops repeat).
_MAX_OP_TEXTS = 1 << 15


class _OpTemplate:
    """How an op was built from its text: which SSA use in the text each operand
    resolution took (and with which type), the order of the operands among those
    values, and everything else the op is made of (all of it fixed by the text).
    `use_count` is the number of SSA uses the text has: a line of the same key
    with another number has a bare `%` where the template had a use. `build`
    makes the op from its operands and location: :meth:`_assemble` where that
    gives what `create` (see :func:`_creator`) gives, else `create` itself."""

    __slots__ = ("op_type", "create", "build", "uses", "use_count", "order", "result_types", "properties",
                 "attributes")

    def __init__(self, op_type, uses, use_count, order, result_types, properties, attributes):
        self.op_type = op_type
        self.create = _creator(op_type, result_types, properties, attributes)
        self.uses = uses
        self.use_count = use_count
        self.order = order
        self.result_types = result_types
        self.properties = properties
        self.attributes = attributes
        self.build = self._assemble if self._assembles_as_created() else self._create

    def _create(self, operands, location):
        return self.create(operands=operands, result_types=self.result_types, properties=self.properties,
                           attributes=self.attributes, location=location)

    def _assemble(self, operands, location):
        """The op `Operation.create` makes of these operands and the template's
        results, properties and attributes (`memplan.op_assembly`)."""
        return _assemble_op(
            self.op_type, operands, self.result_types, self.properties.copy(),
            self.attributes.copy(), _UNKNOWN_LOC if location is None else location,
        )

    def _assembles_as_created(self) -> bool:
        """Whether :meth:`_assemble` makes what `create` makes: xDSL's own `create`
        and `__post_init__` (which fills only defaults), and a probe without
        operands alike in fields, dictionaries and results."""
        op_type = self.op_type
        create = self.create
        if not (getattr(create, "__func__", None) is _BASE_CREATE
                or (isinstance(create, partial) and create.func is _BASE_CREATE and create.args == (op_type,)
                    and not create.keywords)):
            return False
        if not constructs_plainly(op_type):
            return False
        try:
            created = self._create((), None)
            assembled = self._assemble((), None)
        except Exception:
            return False
        return (list(created.__dict__) == list(assembled.__dict__)
                and list(created.properties.items()) == list(assembled.properties.items())
                and list(created.attributes.items()) == list(assembled.attributes.items())
                and [(type(r), r.type, r.index) for r in created.results]
                == [(type(r), r.type, r.index) for r in assembled.results]
                and created.location is assembled.location)


class _LineShape:
    """A template as a whole line (its results' names and its uses made `%`)
    rebuilds it: the sizes of the result groups the line binds (the first names
    of the line) and, offset past them, which name each operand takes (with
    which type). `fits` is False when the line binds another count of results
    than the template has (such a line is declined). `next` is the shape the
    line after one of this shape had last: a decoder's layers repeat one
    sequence of lines, so the next line is first tried against its `pattern`
    (:func:`_line_pattern`), which matches a line of that shape and the token
    after it at once. A pattern costs about a millisecond to compile, so a
    shape gets one (when it has `texts`) after `_PATTERN_AFTER` lines read
    the general way."""

    __slots__ = ("template", "sizes", "uses", "name_count", "fits", "texts", "token", "seen", "pattern", "next")

    def __init__(self, template: _OpTemplate, sizes: tuple[int, ...], texts: list[str] | None = None,
                 token: str | None = None):
        self.template = template
        self.sizes = sizes
        self.uses = tuple((len(sizes) + k, value_type) for k, value_type in template.uses)
        self.name_count = len(sizes) + template.use_count
        bound = sum(sizes)
        self.fits = not bound or bound == len(template.result_types)
        self.texts = texts
        self.token = token
        self.seen = 0
        self.pattern: re.Pattern[str] | None = None
        self.next: _LineShape | None = None

    def read_again(self) -> None:
        """Count a line of this shape read the general way; compile its pattern
        when lines of it have become frequent enough to pay for it."""
        self.seen += 1
        if self.seen == _PATTERN_AFTER and self.texts is not None:
            self.pattern = _line_pattern(self.texts, self.token)


#: Lines of a shape read the general way before it gets a pattern (each line
#: read by one saves a few microseconds).
_PATTERN_AFTER = 64


#: One SSA name of a line as `_SPLIT_USES` splits it out, atomic: the same name
#: and index, never a shorter one to let the text after it match.
_NAME_SLOT = r"(?>%([0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*)(?:#([0-9]+))?)"

#: What may follow an identifier that `_FOLLOW` takes whole.
_IDENTIFIER_GOES_ON = r"(?![A-Za-z0-9_$.])"


def _line_pattern(texts: list[str], token: str | None) -> re.Pattern[str]:
    """What matches exactly the lines that `_SPLIT_USES` splits into `texts`
    around their names (lines without strings or comments), up to the line's
    end, and then what `_FOLLOW` skips and a next token of `token`'s (its
    groups: each name and index; its end: where that token starts)."""
    if token is None:
        after = r"\Z"
    elif token[0] in '%^}"':
        after = "(?=" + re.escape(token) + ")"
    else:
        after = "(?=" + re.escape(token) + _IDENTIFIER_GOES_ON + ")"
    line = _NAME_SLOT.join(map(re.escape, texts))
    return re.compile(line + r"(?=\n|\Z)(?>(?:\s+|//[^\n]*\n?)*)" + after, re.ASCII)


def _creator(op_type: type[Operation], result_types, properties, attributes) -> Callable[..., Operation]:
    """What makes ops of `op_type` with these results, properties and attributes
    (those of an op the class's `create` made): xDSL's `Operation.create` when the
    class's own `create` (a kernel's sorts its attributes and fills defaults)
    gives the same op from them, else the class's."""
    own = op_type.create
    if getattr(own, "__func__", None) is _BASE_CREATE:
        return own
    try:
        by_class = own(result_types=result_types, properties=properties, attributes=attributes)
        by_base = _BASE_CREATE(op_type, result_types=result_types, properties=properties, attributes=attributes)
    except Exception:  # a class whose `create` wants more
        return own
    if (by_class.__dict__.keys() != by_base.__dict__.keys() or by_class.properties != by_base.properties
            or list(by_class.properties) != list(by_base.properties) or by_class.attributes != by_base.attributes
            or list(by_class.attributes) != list(by_base.attributes)):
        return own
    return partial(_BASE_CREATE, op_type)


_BASE_CREATE = Operation.create.__func__
_UNKNOWN_LOC = UNKNOWN_LOC
_DIGITS = "0123456789"
_dict_set = dict.__setitem__


def _name_hint(name: str) -> str | None:
    """The name hint xDSL gives a value defined as `%name` (for the ASCII names
    SSA uses have): none for a number, else the name without a `_<digits>`
    suffix (`SSAValue.extract_valid_name`)."""
    if name[0] in _DIGITS:
        return None
    stem = name.rstrip(_DIGITS)
    return stem[:-1] if stem != name and stem[-1] == "_" else name

_OPERATION_FIELDS: dict[type[Operation], frozenset[str]] = {}


def _operation_fields(op_type: type[Operation]) -> frozenset[str]:
    """The instance fields an op of `op_type` made by `create` has: an op whose
    parser left others is not rebuilt from a template."""
    found = _OPERATION_FIELDS.get(op_type)
    if found is None:
        try:
            found = frozenset(op_type.create().__dict__)
        except Exception:  # a class that `create` cannot make without arguments
            found = frozenset()
        _OPERATION_FIELDS[op_type] = found
    return found


_ABSENT = object()


class _ValueTable(dict):
    """The SSA names in scope (xDSL's `Parser.ssa_values`), with a log of what each
    insertion replaced: :meth:`copy`, xDSL's snapshot of the names before a
    region, is a position in the log, and assigning it back undoes the region's
    insertions. xDSL only inserts (`table[name] = values`); other changes would
    escape the log, so they are refused."""

    __slots__ = ("log",)

    def __init__(self, values=()):
        super().__init__(values)
        self.log: list[tuple[str, object]] = []

    def __setitem__(self, name: str, values) -> None:
        self.log.append((name, self.get(name, _ABSENT)))
        dict.__setitem__(self, name, values)

    def copy(self) -> _ScopeMark:  # type: ignore[override]
        return _ScopeMark(self, len(self.log))

    def _refuse(self, *args, **kwargs):
        raise TypeError("SSA names in scope are only inserted while parsing")

    __delitem__ = pop = popitem = clear = setdefault = update = _refuse  # type: ignore[assignment]


class _ScopeMark:
    """The SSA names of a :class:`_ValueTable` at one point of the parse."""

    __slots__ = ("table", "position")

    def __init__(self, table: _ValueTable, position: int):
        self.table = table
        self.position = position

    def restore(self) -> _ValueTable:
        """The table, with every insertion since this mark undone."""
        table, log = self.table, self.table.log
        while len(log) > self.position:
            name, previous = log.pop()
            if previous is _ABSENT:
                dict.__delitem__(table, name)
            else:
                dict.__setitem__(table, name, previous)
        return table


class ScopedValuesParser(Parser):
    """xDSL's parser copies every SSA name in scope at each region to forget the
    region's names when it ends: quadratic in a function of many loops (a 20k-op
    decoder has 436 `scf.for`s, each copying up to 12,000 names). Here the names
    live in a :class:`_ValueTable`, whose copy is a mark in its log of
    insertions: the region's names are undone when xDSL assigns the copy back."""

    @property
    def ssa_values(self) -> _ValueTable:  # type: ignore[override]
        return self._value_table

    @ssa_values.setter
    def ssa_values(self, values) -> None:
        self._value_table = values.restore() if isinstance(values, _ScopeMark) else _ValueTable(values)


class RepeatedOpParser(TypeCachingParser, ScopedValuesParser):
    """A decoder repeats a few hundred op texts that differ only in their SSA names
    (`%xn3 = memref.alloc() {alignment = 64 : i64} : memref<1x512xf16>`).
    An op on a line of its own without regions, successors or location, whose
    every operand was resolved, with a type, from an SSA use written on that
    line, becomes a template (xDSL's parser reads it, see :meth:`_template`).
    In a block, each following line of the same text (SSA names aside, the same
    next token) is an op rebuilt from that template without xDSL's parser or
    lexer (:meth:`_rebuild_ops`): the same op class, types, properties and
    attributes, the operands found under the line's names in the same order.
    A line whose names are not all as the template needs them (a value not yet
    defined, of another type, a tuple index out of range; a result name taken,
    or another count of results) is read by xDSL's parser, which reports what
    is wrong with it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._source = self.lexer.input
        self._content: str = self._source.content
        self._templates: dict[tuple[type[Operation], bool, str, str | None], _OpTemplate | None] = {}
        self._dialect_names: dict[type[Operation], str] = {}
        self._op_types: dict[str, type[Operation]] = {}
        self._shapes: dict[tuple[str, str | None], _LineShape] = {}
        #: The operand resolutions of the op being parsed for a template; None
        #: (meaning: do not make one) after an untyped resolution.
        self._resolutions: list[tuple[UnresolvedOperand, Attribute, SSAValue]] | None = None

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        value = super().resolve_operand(operand, type)
        if self._resolutions is not None:
            self._resolutions.append((operand, type, value))
        return value

    def _parse_optional_operand_without_type(self) -> SSAValue | None:
        # The value's type comes from its definition, not the text.
        self._resolutions = None
        return super()._parse_optional_operand_without_type()

    def _op_location(self, start: int) -> LocationAttr | None:
        """The location of an op whose text starts at `start` and has none written
        (None: xDSL's unknown location)."""
        return None

    def _may_rebuild_ops(self) -> bool:
        """Whether the ops of the block being read may be rebuilt from templates
        (not when some other reading of them applies there)."""
        return True

    def _parse_block_body(self, block: Block) -> None:
        """xDSL's reading of a block's ops, each run of lines that templates
        rebuild taken by :meth:`_rebuild_ops` first."""
        while True:
            self._rebuild_ops(block)
            op = self.parse_optional_operation()
            if op is None:
                return
            block.add_op(op)

    def _rebuild_ops(self, block: Block) -> None:
        """Add to `block` the ops that templates rebuild from the lines at the
        current token on; the lexer goes on at the first line that is not one.
        A line is looked up by its text with its SSA names made `%` (and the
        token after it): one scan of the line, one dictionary lookup."""
        if not self._templates or not self._may_rebuild_ops():
            return
        content = self._content
        find = content.find
        follow_at = _FOLLOW.match
        split = _SPLIT_USES.split
        shapes = self._shapes
        defined = self.ssa_values
        lookup = defined.get
        log = defined.log
        forward = self.forward_ssa_references
        locate = self._op_location
        last = block._last_op
        pos = start = self._current_token.span.start
        previous: _LineShape | None = None
        while True:
            predicted = None if previous is None else previous.next
            if (predicted is not None and predicted.pattern is not None
                    and (found := predicted.pattern.match(content, pos)) is not None):
                # The line after the previous one's shape, as last time.
                shape = predicted
                groups = found.groups()
                names = groups[0::2]
                indices = groups[1::2]
                next_pos = found.end()
            else:
                end = find("\n", pos)
                if end == -1:
                    end = len(content)
                follow = follow_at(content, end)
                if follow is None:
                    break
                token = follow[1] or follow[2]
                line = content[pos:end]
                if '"' in line or "//" in line:
                    key, names, indices = _text_key(line)
                    texts = None
                else:
                    parts = split(line)
                    texts = parts[::3]
                    key = "%".join(texts)
                    names = parts[1::3]
                    indices = parts[2::3]
                shape = shapes.get((key, token))
                if shape is None:
                    shape = self._line_shape(pos, end, key, texts, token)
                    if shape is None:
                        break
                if len(names) != shape.name_count:  # a bare `%` where the template has a use
                    break
                if previous is not None:
                    previous.next = shape
                shape.read_again()
                next_pos = follow.start(follow.lastindex)
            # The names it binds: as many values as the op has, new, once each, without an index.
            sizes = shape.sizes
            bound = len(sizes)
            if not shape.fits:
                self._declined(pos)
                break
            if bound == 1:
                name = names[0]
                if indices[0] is not None or name in defined or name in forward:
                    self._declined(pos)
                    break
            elif bound and (any(indices[k] is not None for k in range(bound))
                            or any(name in defined or name in forward for name in names[:bound])
                            or len(set(names[:bound])) != bound):
                self._declined(pos)
                break
            # The values it uses: defined (no forward reference), in range, typed as the template's.
            values = []
            for k, value_type in shape.uses:
                found = lookup(names[k])
                index = indices[k]
                index = 0 if index is None else int(index)
                if found is None or index >= len(found):
                    values = None
                    break
                value = found[index]
                if value._type is not value_type and value._type != value_type:  # `value.type`
                    values = None
                    break
                values.append(value)
            if values is None:
                self._declined(pos)
                break
            template = shape.template
            order = template.order
            op = template.build(values if order is None else [values[i] for i in order], locate(pos))
            if bound:
                results = tuple(op.results)
                index = 0
                for name, size in zip(names, sizes):
                    group = results[index : index + size]
                    index += size
                    log.append((name, _ABSENT))  # `defined[name] = group`, known new
                    _dict_set(defined, name, group)
                    if name[0] not in _DIGITS:  # `_name_hint(name)`, inline
                        stem = name.rstrip(_DIGITS)
                        hint = stem[:-1] if stem != name and stem[-1] == "_" else name
                        for value in group:
                            value._name = hint
            # `block.add_op(op)` for an op known to be new and without regions.
            op.parent = block
            if last is None:
                block._first_op = op
            else:
                op._prev_op = last
                op._next_op = None
                last._next_op = op
            block._last_op = op
            last = op
            pos = next_pos
            previous = shape
        if pos != start:
            self.skip_to(pos)

    def _declined(self, pos: int) -> None:
        """The line at `pos` has a template but is not as it needs (xDSL's parser
        reads it, and reports what is wrong with it)."""

    def _line_shape(self, pos: int, end: int, key: str, texts: list[str] | None,
                    token: str | None) -> _LineShape | None:
        """The template of the line from `pos` to `end` (whose key is `key`, the
        `texts` between its names joined, None for a line with strings or
        comments) followed by `token`, as a :class:`_LineShape`; remembered under
        the key when the line's op name means its op anywhere (not by a dialect
        of the stack), and only then given its `texts` (for a pattern)."""
        content = self._content
        header = _OP_START.match(content, pos)
        if header is None or header.end() > end:
            return None
        name = header.group("name")
        generic = name is None
        if generic:
            name = header.group("generic")
        op_type = self._op_type(name)
        template = self._templates.get((op_type, generic, _text_key(content[header.end() : end])[0], token))
        if template is None:
            return None
        sizes = tuple(size for _, _, size in _result_names(header))
        if self._op_types.get(name) is not op_type or len(self._shapes) >= _MAX_OP_TEXTS:
            return _LineShape(template, sizes)
        shape = self._shapes[(key, token)] = _LineShape(template, sizes, texts, token)
        return shape

    def _op_type(self, name: str) -> type[Operation] | None:
        """xDSL's op class for `name` here. A class found under `name` itself
        (not under a dialect of the stack) is the one xDSL finds for `name`
        anywhere afterwards, so it is remembered."""
        op_type = self._op_types.get(name)
        if op_type is None:
            op_type = self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)
            if op_type is not None and op_type.name == name:
                self._op_types[name] = op_type
        return op_type

    def parse_operation(self) -> Operation:
        content = self._content
        start = self._current_token.span.start
        header = _OP_START.match(content, start)
        if header is None:
            return super().parse_operation()
        generic = header.group("name") is None
        state = self._parser_state
        op_type = self.ctx.get_optional_op(header.group("generic") if generic else header.group("name"),
                                           dialect_stack=state.dialect_stack)
        if op_type is None:  # xDSL's parser reports it
            return super().parse_operation()
        bound = [(name, Span(start, start + 1 + len(name), self._source), size)
                 for name, start, size in _result_names(header)]
        name_end = header.end()
        self.skip_to(name_end)
        dialect_name = self._dialect_names.get(op_type)
        if dialect_name is None:
            dialect_name = self._dialect_names[op_type] = op_type.dialect_name()
        state.dialect_stack.append(dialect_name)
        op = self._parse_op_after_name(op_type, generic, name_end)
        state.dialect_stack.pop()
        n_bound = sum(size for _, _, size in bound)
        if n_bound and len(op.results) != n_bound:
            self.raise_error(
                f"Operation has {len(op.results)} results, but was given {n_bound} to bind.",
                at_position=bound[0][1],
            )
        index = 0
        for name, span, size in bound:
            self._register_ssa_definition(name, op.results[index : index + size], span)
            index += size
        return op

    def _parse_op_after_name(self, op_type: type[Operation], generic: bool, start: int) -> Operation:
        """xDSL's reading of an op after its name, which makes the op's text a
        template when it is the first of its key."""
        content = self._content
        end = content.find("\n", start)
        if end == -1:
            end = len(content)
        text = content[start:end]
        follow = _FOLLOW.match(content, end)
        templates = self._templates
        key = None if follow is None else (op_type, generic, _text_key(text)[0], follow.group(1) or follow.group(2))
        if key is None or key in templates or len(templates) >= _MAX_OP_TEXTS:
            return self._parse_op_after_name_with(op_type, generic)
        outer = self._resolutions
        self._resolutions = []
        try:
            op = self._parse_op_after_name_with(op_type, generic)
            if self._resolutions is not None:
                templates[key] = self._template(op, self._resolutions, start, text, end)
        finally:
            self._resolutions = outer
        return op

    def _parse_op_after_name_with(self, op_type: type[Operation], generic: bool) -> Operation:
        """xDSL's reading of an op after its name."""
        if generic:
            return self._parse_generic_operation(op_type)
        op = op_type.parse(self)
        if (location := self.parse_optional_location()) is not None:
            op.location = location
        return op

    def _template(self, op: Operation, resolutions, start: int, text: str, end: int) -> _OpTemplate | None:
        """What rebuilds `op` from another line of the same text; None when the
        op is not made from its line's text alone."""
        after = self._current_token.span.start
        if (op.regions or op.successors or not isinstance(op.location, UnknownLoc)
                or _LOCATION.search(text)
                or after < end or MLIRLexer._whitespace_regex.match(self._content, end).end() != after
                or op.__dict__.keys() != _operation_fields(type(op))
                or any(r.name_hint is not None for r in op.results)):
            return None
        uses = _value_uses(text)
        at = {start + m.start(): k for k, m in enumerate(uses)}
        taken: list[tuple[int, Attribute]] = []
        for operand, value_type, _ in resolutions:
            k = at.get(operand.span.start)
            if (k is None or start + uses[k].end(1) != operand.span.end
                    or int(uses[k].group(2) or 0) != operand.index):
                return None
            taken.append((k, value_type))
        if len({k for k, _ in taken}) != len(uses):  # an SSA-like text that is none
            return None
        values = [value for _, _, value in resolutions]
        operands = list(op.operands)
        order: tuple[int, ...] | None = None
        if len(operands) != len(values) or any(a is not b for a, b in zip(operands, values)):
            position = {id(v): i for i, v in enumerate(values)}
            if len(position) != len(values) or any(id(o) not in position for o in operands):
                return None
            order = tuple(position[id(o)] for o in operands)
        return _OpTemplate(type(op), tuple(taken), len(uses), order, tuple(r.type for r in op.results),
                           dict(op.properties), dict(op.attributes))


@contextmanager
def without_gc() -> Iterator[None]:
    """The cyclic garbage collector off for the duration (as it was afterwards).
    What was made meanwhile (a parsed module: all of it alive) then joins the
    oldest generation: else the first allocation after re-enabling traverses all
    of it in a young collection (0.1-0.2 s at 20k ops), to find it alive. It is
    still collected with the oldest generation. (Not when objects are frozen:
    `gc.unfreeze` would thaw them.)"""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
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

