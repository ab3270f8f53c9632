"""The parse-speed helpers change nothing that is read: same IR, same errors."""

from __future__ import annotations

import gc

from xdsl.parser import Parser
from xdsl.traits import SymbolTable

import memplan
from memplan.parsing import TypeCachingParser, indexed_symbol_lookups, without_gc
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
