"""The parse-speed helpers change nothing that is read: same IR, same errors."""

from __future__ import annotations

import gc
import io
import sys

import pytest
from xdsl.parser import Parser
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import ParseError

import memplan
from memplan.parsing import (
    RepeatedOpParser,
    TypeCachingParser,
    indexed_symbol_lookups,
    without_gc,
)
from memplan.printing import print_mlir

TEXT = """
func.func @f(%a: memref<4x8xf32>, %b: memref<4x8xf32, strided<[16, 1]>>) -> memref<4x8xf32> {
  %c = memref.alloc() : memref<4x8xf32>
  %d = memref.alloc() : memref<4x8xf32, strided<[16, 1]>>
  %e = memref.alloc() : memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>
  %f = memref.alloc() : memref<4x8xf32, affine_map<(d0, d1) -> (d1, d0)>>
  %g = memref.alloc() : memref<4x8xf32>// a comment right after the type
  %h = memref.alloc() : memref<4x8xf32>
  return %c : memref<4x8xf32>
}
"""


class _Caching(TypeCachingParser):
    pass


def _parse(parser_class, text: str):
    return parser_class(memplan.make_context(), text).parse_module()


def test_cached_types_give_the_same_module():
    plain = _parse(Parser, TEXT)
    cached_parser = _Caching(memplan.make_context(), TEXT)
    cached = cached_parser.parse_module()
    assert print_mlir(cached, generic=True) == print_mlir(plain, generic=True)
    # The repeated spellings were cached; the affine map's `->` defeats the candidate
    # span, so it is parsed each time (and still right).
    assert "memref<4x8xf32>" in cached_parser._types_by_text
    assert "memref<4x8xf32, strided<[16, 1]>>" in cached_parser._types_by_text
    assert not any("affine_map" in text for text in cached_parser._types_by_text)
    types = [op.results[0].type for op in cached.walk() if op.name == "memref.alloc"]
    assert types[0] is types[4] is types[5]


def test_cached_dialect_attributes_give_the_same_module():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "examples" / "iree_seed_initializer.mlir").read_text()
    parser = _Caching(memplan.make_context(), text)
    assert print_mlir(parser.parse_module(), generic=True) == print_mlir(_parse(Parser, text), generic=True)
    assert "#hal.device.affinity<@__device_0>" in parser._attributes_by_text


def test_without_gc_restores_the_collector():
    assert gc.isenabled()
    with without_gc():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_indexed_lookups_agree_with_xdsl():
    module = _parse(Parser, "util.global private @g : index\nutil.global private @h : i32\n"
                    "func.func @f() -> index {\n  %0 = util.global.load @g : index\n  return %0 : index\n}\n")
    load = next(op for op in module.walk() if op.name == "util.global.load")
    original = SymbolTable.lookup_symbol
    expected = [SymbolTable.lookup_symbol(load, name) for name in ("g", "h", "nothing")]
    with indexed_symbol_lookups():
        found = [SymbolTable.lookup_symbol(load, name) for name in ("g", "h", "nothing")]
    assert found == expected and found[0] is not None and found[2] is None
    assert SymbolTable.lookup_symbol is original


def test_cached_attribute_dictionaries_are_copies():
    text = ('func.func @f() {\n  %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>\n'
            '  %b = memref.alloc() {alignment = 64 : i64} : memref<4xf32>\n  return\n}\n')
    parser = _Caching(memplan.make_context(), text)
    module = parser.parse_module()
    assert print_mlir(module, generic=True) == print_mlir(_parse(Parser, text), generic=True)
    assert "{alignment = 64 : i64}" in parser._dictionaries_by_text
    again = _Caching(memplan.make_context(), "{alignment = 64 : i64} {alignment = 64 : i64}")
    first = again.parse_optional_attr_dict()
    first.pop("alignment")
    assert list(again.parse_optional_attr_dict()) == ["alignment"]


KERNELS = """
func.func @k(%ctx: !hip.context, %a: memref<4x8xf16>, %b: memref<8x8xf16>) {
  %c = memref.alloc() : memref<4x8xf16>
  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf16>, memref<8x8xf16>) outs(%c : memref<4x8xf16>)
  hip.matmul(%ctx) ins( %c , %b:memref<4x8xf16>,memref<8x8xf16> ) outs(%a : memref<4x8xf16>)
  hip.matmul(%ctx) ins(%a, // a comment in the group
                       %b : memref<4x8xf16>, memref<8x8xf16>) outs(%c : memref<4x8xf16>)
  return
}
"""


def test_kernel_operand_groups_read_from_the_text_give_the_same_module(monkeypatch):
    import memplan.dialects.hip.kernels as kernels

    read = []
    original = kernels._typed_operands_from_text

    def counting(parser):
        found = original(parser)
        read.append(found is not None)
        return found

    monkeypatch.setattr(kernels, "_typed_operands_from_text", counting)
    cached = _parse(_Caching, KERNELS)
    assert print_mlir(cached, generic=True) == print_mlir(_parse(Parser, KERNELS), generic=True)
    # Once its types are known a group is read from the text; the comment is not.
    assert read.count(True) >= 4 and read.count(False) >= 1


def test_a_kernel_operand_of_another_type_is_reported_where_it_is_written():
    text = KERNELS.replace("outs(%a : memref<4x8xf16>)", "outs(%b : memref<4x8xf16>)")
    at = _same_error_as_xdsl(text)
    assert text[at:].startswith("%b : memref<4x8xf16>)")


def _same_error_as_xdsl(text: str, parser_class=None, parse=None) -> int:
    """Where `parser_class` (default: the caching parser) and xDSL's parser both
    report `text`'s error (the same span and message), read by `parse`."""
    parser_class = parser_class or _Caching
    parse = parse or _parse
    errors = []
    for each in (parser_class, Parser):
        with pytest.raises(ParseError) as caught:
            parse(each, text)
        errors.append((caught.value.span.start, caught.value.span.end, caught.value.msg))
    assert errors[0] == errors[1]
    return errors[0][0]


MEMREF_OPS = """
func.func @m(%i: index, %v: f32, %big: memref<4x8xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc() : memref<4x8xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  memref.store %v, %a[%i, %i] : memref<4x8xf32>
  memref.store %v,%b [ %i,%i ]:memref<4x8xf32>
  memref.store %v, %a[%i, %i] {nontemporal = true} : memref<4x8xf32>
  %s = memref.subview %a[0, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %t = memref.subview %b[0, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  %u = memref.subview %b[%i, 4] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: ?>>
  memref.dealloc %a : memref<4x8xf32>
  memref.dealloc %b : memref<4x8xf32> // a comment
  memref.dealloc %c : memref<4x8xf32>
  return
}
"""


def test_memref_ops_read_from_the_text_give_the_same_module(monkeypatch):
    import memplan.dialects.mlir.memref as mlir_memref

    read = []
    original = mlir_memref._memref_type_after

    def counting(parser, pattern):
        found = original(parser, pattern)
        read.append(found is not None)
        return found

    monkeypatch.setattr(mlir_memref, "_memref_type_after", counting)
    cached = _parse(_Caching, MEMREF_OPS)
    assert print_mlir(cached, generic=True) == print_mlir(_parse(Parser, MEMREF_OPS), generic=True)
    assert print_mlir(cached) == print_mlir(_parse(Parser, MEMREF_OPS))
    # Plain forms with known types are read from the text; attributes, dynamic
    # indices and the first occurrence of a type are not.
    assert read.count(True) >= 6 and read.count(False) >= 4


@pytest.mark.parametrize("wrong, right", [
    ("memref.store %v, %a[%i, %i]", "memref.store %i, %a[%i, %i]"),
    ("memref.dealloc %b : memref<4x8xf32> //", "memref.dealloc %i : memref<4x8xf32> //"),
    ("%t = memref.subview %b[0, 4]", "%t = memref.subview %big[0, 4]"),
])
def test_a_memref_op_operand_of_another_type_is_reported_where_it_is_written(wrong, right):
    text = MEMREF_OPS.replace(wrong, right, 1).replace("%big: memref<4x8xf32>", "%big: memref<8xf32>")
    at = _same_error_as_xdsl(text)
    assert text[at:].startswith(right.split(" = ")[-1].split()[1].split("[")[0].rstrip(","))


class _Recording:
    """A parser mixin that records the lines of the ops rebuilt from a template
    (each asks for its location once) and of those a template declined."""

    rebuilt: list[str] = []
    declined: list[str] = []
    _rebuilding = False

    def _line(self, pos):
        end = self._content.find("\n", pos)
        return self._content[pos : None if end == -1 else end].strip()

    def _rebuild_ops(self, block):
        self._rebuilding = True
        try:
            super()._rebuild_ops(block)
        finally:
            self._rebuilding = False

    def _op_location(self, start):
        if self._rebuilding:
            type(self).rebuilt.append(self._line(start))
        return super()._op_location(start)

    def _declined(self, pos):
        type(self).declined.append(self._line(pos))


class _Repeating(_Recording, RepeatedOpParser):
    """Records the lines of the ops rebuilt from a template."""


REPEATED = """
func.func @r(%ctx: !hip.context, %a: memref<4x8xf16>, %b: memref<8x8xf16>, %i: index, %v: f16) {
  %c0 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf16>
  %c1 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf16>
  %c2 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf16>
  hip.add(%ctx) ins(%a, %a : memref<4x8xf16>, memref<4x8xf16>) outs(%c0 : memref<4x8xf16>)
  hip.add(%ctx) ins(%c0, %c1 : memref<4x8xf16>, memref<4x8xf16>) outs(%c2 : memref<4x8xf16>)
  hip.add(%ctx) ins(%c2, %c0 : memref<4x8xf16>, memref<4x8xf16>) outs(%c1 : memref<4x8xf16>)
  hip.add(%ctx) ins(%c1, %c2 : memref<4x8xf16>, memref<4x8xf16>) outs(%c0 : memref<4x8xf16>)
    {note = "%c0 in a string"}
  hip.add(%ctx) ins(%c1, %c2 : memref<4x8xf16>, memref<4x8xf16>) outs(%c0 : memref<4x8xf16>)
  memref.store %v, %c0[%i, %i] : memref<4x8xf16> // %a in a comment
  memref.store %v, %c1[%i, %i] : memref<4x8xf16> // %b in a comment
  memref.store %v, %c2[%i, %i] : memref<4x8xf16> // %b in a comment
  %s:2 = "test.two"() : () -> (index, index)
  %t:2 = "test.two"() : () -> (index, index)
  %u = arith.addi %s#1, %t#0 : index
  %w = arith.addi %t#1, %s#0 : index
  %x = arith.addi %w, %u : index
  %k0 = arith.constant {tag = "%k0"} 0 : index
  %k1 = arith.constant {tag = "%k1"} 0 : index
  scf.for %j = %i to %x step %u {
    %y = arith.addi %j, %j : index
    %z = arith.addi %y, %j : index
  }
  "memref.store"(%v, %c0, %i, %i) : (f16, memref<4x8xf16>, index, index) -> ()
  "memref.store"(%v, %c1, %i, %x) : (f16, memref<4x8xf16>, index, index) -> ()
  "memref.store"(%v, %c1, %i, %x) : (f16, memref<4x8xf16>, index, index) -> () loc("f":3:4)
  "memref.store"(%v, %c1, %i, %x) : (f16, memref<4x8xf16>, index, index) -> ()
    loc("g":5:6)
  return
}
"""


def _parse_unregistered(parser_class, text: str):
    ctx = memplan.make_context(allow_unregistered=True)
    return parser_class(ctx, text).parse_module()


def test_repeated_op_texts_give_the_same_module():
    _Repeating.rebuilt = []
    repeated = _parse_unregistered(_Repeating, REPEATED)
    plain = _parse_unregistered(Parser, REPEATED)
    assert print_mlir(repeated, generic=True) == print_mlir(plain, generic=True)
    assert print_mlir(repeated) == print_mlir(plain)
    rebuilt = _Repeating.rebuilt
    # Rebuilt with other names, the same value twice in the template, tuple uses,
    # results bound in groups, in a region, in generic form.
    for line in ("%c1 = memref.alloc()", "ins(%c0, %c1", "ins(%c2, %c0", "%t:2 =",
                 "%w = arith.addi %t#1", "%y = arith.addi", '"memref.store"(%v, %c1, %i, %x) : (f16, '
                 "memref<4x8xf16>, index, index) -> ()"):
        assert any(line in r for r in rebuilt), line
    # Not rebuilt: attributes on the next line, SSA-like text in a string or a
    # comment, a location on the line or the next one.
    assert not any("ins(%c1, %c2" in r or "%k1" in r or "comment" in r or " loc(" in r for r in rebuilt)
    assert rebuilt.count('"memref.store"(%v, %c1, %i, %x) : (f16, memref<4x8xf16>, index, index) -> ()') == 1


PERCENT_IN_STRINGS = """
func.func private @"%%"(i32) -> i32
func.func private @"%x%"(i32) -> i32
func.func @f(%a: i32, %x: i32) -> i32 {
  %0 = call @"%%"(%a) : (i32) -> i32
  %1 = call @"%x%"(%a) : (i32) -> i32
  %2 = call @"%%"(%x) : (i32) -> i32 // %a
  %3 = call @"%%"(%x) : (i32) -> i32 // %x%
  %4 = arith.constant {s = "%%"} 1 : i32
  %5 = arith.constant {s = "%a%"} 1 : i32
  %6 = arith.constant {s = "%a\\\\"} 1 : i32
  %7 = arith.constant {s = "%b\\\\"} 1 : i32
  %8 = "arith.addi"(%a, %a) {s = "%x%"} : (i32, i32) -> i32
  %9 = "arith.addi"(%a, %a) {s = "%%"} : (i32, i32) -> i32
  return %2 : i32
}
"""


def test_percent_signs_in_strings_and_comments_are_not_ssa_names():
    # Lines that differ only inside a string, a quoted symbol or a comment are
    # distinct texts: a `%x` there is neither an operand nor the same line as `%%`.
    repeated = _parse_unregistered(_Repeating, PERCENT_IN_STRINGS)
    plain = _parse_unregistered(Parser, PERCENT_IN_STRINGS)
    assert print_mlir(repeated, generic=True) == print_mlir(plain, generic=True)
    without_percent = PERCENT_IN_STRINGS.replace("%a: i32, %x: i32", "%a: i32")
    without_percent = "\n".join(line for line in without_percent.splitlines() if "(%x)" not in line)
    without_percent = without_percent.replace("return %2", "return %0")
    assert print_mlir(_parse_unregistered(_Repeating, without_percent)) == print_mlir(
        _parse_unregistered(Parser, without_percent)
    )


def test_a_bare_percent_where_the_template_had_a_use_is_an_error():
    line = '"arith.addi"(%a, %a) {s = "%"} : (i32, i32) -> i32'
    text = f"func.func @f(%a: i32) {{\n  %0 = {line}\n  %1 = {line}\n  %2 = {line}\n  return\n}}\n"
    # `(%, %a)` has the template's key (uses made `%`) but one use, not two.
    broken = text.replace('%1 = "arith.addi"(%a, %a)', '%1 = "arith.addi"(%, %a)')
    _same_error_as_xdsl(broken, _Repeating, _parse_unregistered)


@pytest.mark.parametrize("wrong, right, nth", [
    # an operand of another type
    ("ins(%c2, %c0 : memref", "ins(%b, %c0 : memref", 1),
    # a value not defined anywhere
    ("ins(%c2, %c0 : memref", "ins(%nowhere, %c0 : memref", 1),
    # a tuple index out of range
    ("%w = arith.addi %t#1, %s#0", "%w = arith.addi %t#2, %s#0", 1),
    # a result bound twice, and wrong numbers of results to bind
    ("%c1 = memref.alloc()", "%c0 = memref.alloc()", 1),
    ("%c1 = memref.alloc()", "%c1, %c3 = memref.alloc()", 1),
    ("%t:2 = \"test.two\"", "%t:3 = \"test.two\"", 1),
    # a generic store with an operand of another type
    ('"memref.store"(%v, %c1, %i, %x)', '"memref.store"(%v, %c1, %v, %x)', 1),
])
def test_errors_in_rebuilt_ops_are_reported_as_before(wrong, right, nth):
    at = -1
    for _ in range(nth):
        at = REPEATED.index(wrong, at + 1)
    text = REPEATED[:at] + right + REPEATED[at + len(wrong):]
    _Repeating.declined = []
    _same_error_as_xdsl(text, _Repeating, _parse_unregistered)
    # The line had a template, which declined it: xDSL's parser reported it.
    assert any(right in r for r in _Repeating.declined)


@pytest.mark.parametrize("text", [
    'func.func @f(%a: memref<4xf32>) -> () { "x.y"(%a) : (memref<4xf32>) -> () }',
    "%0:2 = foo.bar %x#1 -> !t.u<[1, 2]> ^bb0 @sym @\"q s\" #a.b<-1.5e3> 0x1F 12. 3.0E+2 ... {-# #-} {a} - -> * ? | / =",
    "a // comment -> {\n//\nb\t-//x\n{-#",
    '"escaped \\" string" "bytes \\ff" é ü',
    "%", "#", "@1", "~", "1.e5", "0xg", "",
])
def test_the_plain_token_lexer_reads_as_xdsls(text):
    from xdsl.utils.lexer import Input
    from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

    from memplan.parsing import PlainTokenLexer

    def tokens(lexer_class):
        lexer, out = lexer_class(Input(text, "t")), []
        while True:
            try:
                token = lexer.lex()
            except ParseError as error:
                return [*out, (error.span.start, error.span.end, error.msg)]
            out.append((token.kind, token.span.start, token.span.end, type(token.span), lexer.pos))
            if token.kind == MLIRTokenKind.EOF:
                return out

    assert tokens(PlainTokenLexer) == tokens(MLIRLexer)


def test_locations_built_without_verification_equal_xdsls():
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr

    from memplan.tools.source import file_line_col

    built = file_line_col(StringAttr("a.mlir"), 12, IntAttr(3))
    expected = FileLineColLoc(StringAttr("a.mlir"), IntAttr(12), IntAttr(3))
    assert built == expected and hash(built) == hash(expected)
    assert built.line == IntAttr(12) and hash(built.line) == hash(IntAttr(12))
    assert built != FileLineColLoc(StringAttr("a.mlir"), IntAttr(13), IntAttr(3))


# The fast path (ops rebuilt from templates, `RepeatedOpParser._rebuild_ops`)
# against xDSL's general path, both through memplan's own parser.

from pathlib import Path

from memplan.printing import print_module
from memplan.tools.source import LocatingParser, split_input

_ROOT = Path(__file__).resolve().parents[3]


class _Fast(_Recording, LocatingParser):
    """memplan's parser, recording the lines its templates rebuilt or declined."""


class _General(LocatingParser):
    """memplan's parser with every op read by xDSL's parser."""

    def _may_rebuild_ops(self) -> bool:
        return False


def _read(parser_class, text: str, unregistered: bool):
    """Both prints of `text`'s module (generic with locations; custom with
    locations and result names), or its parse error's place and message."""
    ctx = memplan.make_context(allow_unregistered=unregistered)
    try:
        with without_gc():
            module = parser_class(ctx, text, "in.mlir").parse_module()
    except ParseError as error:
        return ("error", error.span.start, error.span.end, error.msg)
    prints = []
    for generic in (True, False):
        stream = io.StringIO()
        try:
            print_module(module, stream, generic=generic, debuginfo=True, keep_names=True)
        except Exception as error:  # invalid IR (verification would reject it)
            stream.write(f"unprintable: {error!r}")
        prints.append(stream.getvalue())
    return tuple(prints)


def _paths_agree(text: str, unregistered: bool = True):
    """The fast and the general path read `text` alike (same prints or same
    error); the lines the fast path rebuilt and declined."""
    _Fast.rebuilt, _Fast.declined = [], []
    fast = _read(_Fast, text, unregistered)
    assert fast == _read(_General, text, unregistered)
    return _Fast.rebuilt, _Fast.declined


def _lit_chunks():
    for path in sorted((_ROOT / "tests" / "lit").rglob("*.mlir")):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # an input of the tool's invalid-bytes test
            continue
        for number, chunk in enumerate(split_input(text, "// -----" in text)):
            yield pytest.param(chunk.text, "allow-unregistered" in text, id=f"{path.name}#{number}")


@pytest.fixture(params=[64, 1], ids=["patterns-late", "patterns-at-once"])
def pattern_after(request, monkeypatch):
    """Lines of a shape read before it gets a pattern: as shipped, and at once
    (so that every repeated line is tried against its predicted shape's pattern)."""
    import memplan.parsing

    monkeypatch.setattr(memplan.parsing, "_PATTERN_AFTER", request.param)
    return request.param


@pytest.mark.parametrize("text, unregistered", list(_lit_chunks()))
def test_the_fast_and_general_paths_read_the_lit_inputs_alike(text, unregistered, pattern_after):
    if "dense_resource" in text and _read(_General, text, unregistered) != _read(_General, text, unregistered):
        pytest.skip("its print depends on earlier parses (resource blob names)")
    _paths_agree(text, unregistered)


def test_the_fast_path_rebuilds_a_decoder_as_the_general_path_reads_it(pattern_after):
    sys.path.insert(0, str(_ROOT / "bench"))
    try:
        import pipeline_speed
    finally:
        sys.path.pop(0)
    text = pipeline_speed.decoder_module(600).text
    rebuilt, declined = _paths_agree(text, unregistered=False)
    assert len(rebuilt) > 400 and not declined


# A template is made of the first line of each text (SSA names aside) followed
# by the same token; the lines after it of that text are rebuilt or declined.
DECLINES = """
func.func @d(%ctx: !hip.context, %a: memref<4x8xf16>, %b: memref<8x8xf16>, %i: index, %v: f16, %w: f32) {
  %c0 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf16>
  %c1 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf16>
  %c2 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf16> loc("elsewhere.mlir":7:9)
  %c3 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf16> loc(unknown)
  %c4 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf16>
  %c5 = memref.alloc() {alignment = 32 : i64} : memref<4x8xf16>
  %c6 = memref.alloc() {alignment = 32 : i64} : memref<4x8xf16>
  %0 = memref.alloc() {alignment = 32 : i64} : memref<4x8xf16>
  %1 = memref.alloc() {alignment = 32 : i64} : memref<4x8xf16>
  %x:2 = "test.pair"() : () -> (index, index)
  %y:2 = "test.pair"() : () -> (index, index)
  %p, %q = "test.pair"() : () -> (index, index)
  %r = arith.addi %x#1, %y#0 : index
  %s = arith.addi %p, %q : index
  %t = arith.addi %later, %x#0 : index
  %later = arith.addi %r, %s : index
  %m = arith.addi %r, %later : index
  memref.store %v, %c0[%i, %i] : memref<4x8xf16>
  memref.store %v, %c1[%i, %i] : memref<4x8xf16>
  memref.store %v, %c1[%r, %s] : memref<4x8xf16>
  hip.add(%ctx) ins(%a, %a : memref<4x8xf16>, memref<4x8xf16>) outs(%c0 : memref<4x8xf16>)
  hip.add(%ctx) ins(%c1, %c4 : memref<4x8xf16>, memref<4x8xf16>) outs(%c5 : memref<4x8xf16>)
  hip.add(%ctx) ins(%c1, %c4 : memref<4x8xf16>, memref<4x8xf16>) outs(%c6 : memref<4x8xf16>)
  scf.for %j = %i to %r step %s {
    %in = arith.addi %j, %j : index
    %in2 = arith.addi %in, %j : index
  }
  scf.for %j = %i to %r step %s {
    %in = arith.addi %j, %j : index
    %in2 = arith.addi %in, %j : index
  }
  return
}
"""


def test_the_fast_path_declines_what_its_template_does_not_say(pattern_after):
    rebuilt, declined = _paths_agree(DECLINES)
    # Rebuilt: other names (numbered ones too), tuple uses, results bound in a
    # group and one by one, in a region (the same names in the sibling region).
    for line in ("%c1 = memref.alloc()", "%c4 = memref.alloc()", "%c6 = memref.alloc()",
                 "%1 = memref.alloc()", "%y:2 =", "%p, %q =", "%s = arith.addi %p, %q",
                 "memref.store %v, %c1[%i, %i]", "hip.add(%ctx) ins(%c1, %c4", "%in = arith.addi",
                 "%in2 = arith.addi %in, %j"):
        assert any(r.startswith(line) for r in rebuilt), line
    # Never templates, so neither rebuilt nor declined: a location written on the
    # line, an op with a region.
    for line in ("%c2 =", "%c3 =", "scf.for"):
        assert not any(r.startswith(line) for r in rebuilt + declined), line
    # Declined, for xDSL's parser to resolve: a value used before its definition
    # (a forward reference), and then that definition.
    assert declined == ["%t = arith.addi %later, %x#0 : index", "%later = arith.addi %r, %s : index"]


@pytest.mark.parametrize("wrong, right, error", [
    ("%s = arith.addi %p, %q", "%s = arith.addi %p, %y#2", True),  # a tuple index out of range
    ("%s = arith.addi %p, %q", "%s = arith.addi %p, %w", True),  # a value of another type
    ("%s = arith.addi %p, %q", "%s = arith.addi %p, %nowhere", True),  # never defined
    ("%s = arith.addi %p, %q", "%s = arith.addi %p, %in", False),  # defined in a region below
    ("%c1 = memref.alloc()", "%c0 = memref.alloc()", True),  # a name defined twice
    ("%c1 = memref.alloc()", "%c1, %c9 = memref.alloc()", True),  # too many names
    ("%y:2 =", "%y:3 =", True),
    ("%y:2 =", "%x:2 =", True),
    ("hip.add(%ctx) ins(%c1, %c4", "hip.add(%ctx) ins(%b, %c4", True),
    ("memref.store %v, %c1[%i, %i]", "memref.store %w, %c1[%i, %i]", True),
])
def test_bad_uses_on_template_lines_are_reported_as_by_the_general_path(wrong, right, error, pattern_after):
    text = DECLINES.replace(wrong, right, 1)
    assert text != DECLINES
    assert (_read(_General, text, True)[0] == "error") == error
    _, declined = _paths_agree(text)
    assert any(d.startswith(right) for d in declined)


def test_names_of_a_region_are_out_of_scope_after_it_and_free_again():
    # Used after their region: undefined, as xDSL reports.
    after = "  %z = arith.addi %in2, %in : index\n  return\n"
    assert _read(_General, DECLINES.replace("  return\n", after), True)[0] == "error"
    _paths_agree(DECLINES.replace("  return\n", after))
    # Defined again after it: new values.
    again = "  %in = arith.addi %i, %i : index\n  %in2 = arith.addi %in, %i : index\n  return\n"
    assert _read(_General, DECLINES.replace("  return\n", again), True)[0] != "error"
    _paths_agree(DECLINES.replace("  return\n", again))


def test_ops_kept_as_text_are_not_rebuilt():
    export = '"hal.executable.export"() {n = 1 : index} : () -> ()'
    text = f"""
func.func @f() {{
  {export}
  {export}
  {export}
  return
}}
hal.executable private @ex {{
  hal.executable.variant public @v target(<"llvm-cpu", "elf", {{cpu = "generic"}}>) {{
    {export}
    {export}
    {export}
  }}
}}
"""
    rebuilt, declined = _paths_agree(text)
    # The variant keeps its exports as text, although the function's made a template.
    assert rebuilt == [export] and not declined


def test_the_value_table_keeps_scopes_by_its_log():
    from memplan.parsing import _ValueTable

    table = _ValueTable({"a": (1,)})
    outer = table.copy()
    table["b"] = (2,)
    inner = table.copy()
    table["c"] = (3,)
    assert inner.restore() is table and dict(table) == {"a": (1,), "b": (2,)}
    assert outer.restore() is table and dict(table) == {"a": (1,)}
    for change in (lambda: table.pop("a"), lambda: table.update(b=1), lambda: table.setdefault("b", 1),
                   lambda: table.__delitem__("a"), table.clear):
        with pytest.raises(TypeError):
            change()


def _ir_structure(module) -> list:
    """Everything a module's ops are made of, with values, ops and uses named by
    their place in a walk: each op's class and instance fields in order; its
    operands; its results' fields (type, index, name hint) and use lists (which
    op and operand, in list order); its properties and attributes in order;
    whether any op shares its dictionaries with another; block arguments alike."""
    ops = list(module.walk())
    op_number = {id(op): k for k, op in enumerate(ops)}
    values: dict[int, str] = {}
    for k, op in enumerate(ops):
        for region in op.regions:
            for b, block in enumerate(region.blocks):
                for arg in block.args:
                    values[id(arg)] = f"{k}.{b}.arg{arg.index}"
        for result in op.results:
            values[id(result)] = f"{k}.{result.index}"

    def uses(value):
        found, use, previous = [], value.first_use, None
        while use is not None:
            found.append((op_number[id(use.operation)], use.index, list(use.__dict__), use._prev_use is previous))
            previous, use = use, use._next_use
        return found

    def value_fields(value):
        return [type(value).__name__, value.type, value.name_hint, [k for k in value.__dict__ if k != "first_use"],
                uses(value)]

    structure, dictionaries = [], set()
    for op in ops:
        for d in (op.properties, op.attributes):
            assert id(d) not in dictionaries, "an op shares its dictionary"
            dictionaries.add(id(d))
        structure.append([
            type(op).__module__, type(op).__qualname__, op.name, list(op.__dict__), [values[id(v)] for v in op.operands],
            [u.index for u in op._operand_uses], list(op.properties.items()), list(op.attributes.items()),
            op.location, [value_fields(r) for r in op.results],
            [[value_fields(a) for a in block.args] for region in op.regions for block in region.blocks],
            None if op.parent is None else [op_number.get(id(x)) for x in (op.prev_op, op.next_op)],
        ])
    return structure


def _structures_agree(text: str, unregistered: bool = True):
    """The fast path builds the same IR as the general path (xDSL's constructors)."""
    built = []
    for parser_class in (_Fast, _General):
        ctx = memplan.make_context(allow_unregistered=unregistered)
        with without_gc():
            built.append(_ir_structure(parser_class(ctx, text, "in.mlir").parse_module()))
    assert built[0] == built[1]


@pytest.mark.parametrize("text", [REPEATED, DECLINES, PERCENT_IN_STRINGS])
def test_rebuilt_ops_are_made_as_xdsls_constructors_make_them(text, pattern_after):
    _structures_agree(text)


def test_a_rebuilt_decoder_is_made_as_xdsls_constructors_make_it(pattern_after):
    sys.path.insert(0, str(_ROOT / "bench"))
    try:
        import pipeline_speed
    finally:
        sys.path.pop(0)
    _structures_agree(pipeline_speed.decoder_module(600).text, unregistered=False)


@pytest.mark.parametrize("name", ["a", "a_1", "a_1_2", "_1", "_", "x_", "a__1", "b.3", "c-1_0", "$_7", "0", "12"])
def test_name_hints_are_xdsls(name):
    from xdsl.ir import SSAValue

    from memplan.parsing import _name_hint

    expected = SSAValue.extract_valid_name(name) if SSAValue.is_valid_name(name) else None
    assert _name_hint(name) == expected


def test_a_comment_before_the_next_token_is_skipped_whole(pattern_after):
    # The second `hip.add` has the first's text, and the first was followed by a
    # `}`; the token after the second is `{` (its attributes, after a comment
    # that ends in `}`), not the comment's `}`: xDSL's parser reads it, with its
    # attributes (a skip that backtracked into the comment took its `}` for the
    # next token, and the function's end).
    text = """
func.func @c(%ctx: !hip.context, %a: memref<4x8xf16>, %i: index) {
  scf.for %j = %i to %i step %i {
    hip.add(%ctx) ins(%a, %a : memref<4x8xf16>, memref<4x8xf16>) outs(%a : memref<4x8xf16>)
  }
  hip.add(%ctx) ins(%a, %a : memref<4x8xf16>, memref<4x8xf16>) outs(%a : memref<4x8xf16>)
  // attributes: {note}
    {note = 1 : i64}
  return
}
"""
    assert _read(_General, text, True)[0] != "error"
    _paths_agree(text)
    _structures_agree(text)


def test_a_predicted_line_is_one_of_its_shape_followed_by_its_token(pattern_after):
    # Each line after the first two repeats the shape of the line two before it:
    # the third and later are matched by the shape's pattern. A line of the same
    # shape followed by another token, or by a comment and then another token,
    # is not its shape's.
    block = "".join(f"  %a{k} = arith.addi %i, %i : index\n  %b{k} = arith.addi %a{k}, %i : index\n"
                    for k in range(4))
    for tail in ("  return\n", "  // %b0\n  return\n", "  %c = arith.addi %b3, %i : index\n  return\n"):
        text = f"func.func @p(%i: index) {{\n{block}{tail}}}\n"
        rebuilt, declined = _paths_agree(text)
        assert len(rebuilt) >= 6 and not declined
        _structures_agree(text)
