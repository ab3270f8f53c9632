"""layout-slices on synthetic packs: totals at or below IREE's, the decoder at the
lower bound at three lengths (read from the emitted IR), deterministic output, and
the polynomial reading of sizes."""

from __future__ import annotations

import io

import pytest
from xdsl.context import Context

from memplan.analysis.index_polynomials import IndexPolynomials
from memplan.checker.packs import IndexEvaluator
from memplan.context import make_context
from memplan.passes.layout_slices import LayoutSlices
from memplan.planning.dynamic_slices import lower_bound_at
from memplan.planning.polynomials import Poly
from memplan.planning.slices import iree_greedy
from memplan.printing import print_module
from memplan.testing.packs import decoder_pack, encoder_pack, pack_ir, random_pack
from memplan.tools.source import parse_module


def _parse(text: str):
    return parse_module(make_context(), text, "pack.mlir")


def _function(module):
    return next(op for op in module.walk() if op.name == "util.func")


def _returned(module):
    return list(_function(module).body.blocks[0].ops)[-1].operands


def _align(value: int, alignment: int = 64) -> int:
    return -(-value // alignment) * alignment


def _bounds(spec):
    return [a for a, _, _ in spec.slices], [b for _, b, _ in spec.slices]


def test_static_encoder_total_is_the_bound_and_below_iree():
    spec = encoder_pack(layers=4)
    module = _parse(pack_ir(spec))
    assert LayoutSlices().run(Context(), module)
    total = IndexEvaluator(lambda v: 0)(_returned(module)[0])
    starts, ends = _bounds(spec)
    sizes = spec.sizes_at(0)
    _, iree_total = iree_greedy(starts, ends, sizes, 64, 64)
    assert total == lower_bound_at(starts, ends, [_align(s) for s in sizes])
    assert total < iree_total


@pytest.mark.parametrize("value", [128, 1024, 2048])
def test_decoder_within_five_percent_of_the_bound(value):
    spec = decoder_pack()
    module = _parse(pack_ir(spec))
    LayoutSlices().apply(Context(), module)
    total = IndexEvaluator(lambda v: value)(_returned(module)[0])
    starts, ends = _bounds(spec)
    bound = lower_bound_at(starts, ends, [_align(s) for s in spec.sizes_at(value)])
    assert bound <= total <= 1.05 * bound


def _iree_dynamic_total(spec, value: int) -> int:
    """IREE's conservative layout at one value: constants by its greedy, then one
    region per distinct size expression, stacked (regions reused when lifetimes
    allow)."""
    starts, ends = _bounds(spec)
    constant = [i for i, (_, _, size) in enumerate(spec.slices) if isinstance(size, int)]
    total = 0
    if constant:
        _, total = iree_greedy([starts[i] for i in constant], [ends[i] for i in constant],
                               [spec.slices[i][2] for i in constant], 64, 64)
    buckets: dict[object, list[list[int]]] = {}
    for i, (start, end, size) in enumerate(spec.slices):
        if isinstance(size, int):
            continue
        bins = buckets.setdefault(size, [])
        for members in bins:
            if not any(end >= starts[j] and ends[j] >= start for j in members):
                members.append(i)
                break
        else:
            bins.append([i])
            total += _align(size[0] * value + size[1] * value * value)
    return total


@pytest.mark.parametrize("seed", range(3))
def test_dynamic_total_never_above_iree(seed):
    spec = random_pack(60, seed, max_life=10, dynamic=0.6)
    module = _parse(pack_ir(spec))
    LayoutSlices().apply(Context(), module)
    for value in (0, 1, 3, 17, 64, 100, 1000, 4096, 65536):
        total = IndexEvaluator(lambda v: value)(_returned(module)[0])
        assert total <= _iree_dynamic_total(spec, value)


def test_output_is_deterministic():
    texts = []
    for _ in range(2):
        module = _parse(pack_ir(random_pack(50, 7, max_life=10, dynamic=0.5)))
        LayoutSlices().apply(Context(), module)
        stream = io.StringIO()
        print_module(module, stream)
        texts.append(stream.getvalue())
    assert texts[0] == texts[1]


def test_no_pack_no_change():
    module = _parse("util.func public @f(%a: index) -> index {\n  util.return %a : index\n}\n")
    assert not LayoutSlices().run(Context(), module)


def test_sizes_read_as_polynomials():
    module = _parse("""
util.func public @f(%s: index, %n: index) -> (index, index, index, index, index, index) {
  %c4096 = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %lin = arith.muli %s, %c4096 : index
  %sq = arith.muli %s, %s : index
  %sq16 = arith.muli %sq, %c64 : index
  %sum = arith.addi %lin, %c100 : index
  %aligned = util.align %sum, %c64 : index
  %div = arith.ceildivui %lin, %c64 : index
  %diff = arith.subi %n, %s : index
  util.return %lin, %sq16, %aligned, %div, %diff, %n : index, index, index, index, index, index
}
""")
    lin, sq, aligned, div, diff, n = _returned(module)
    reader = IndexPolynomials()
    s = reader.read(lin).atoms().pop()
    x = Poly.atom(s)
    assert reader.read(lin) == x.scale(4096)
    assert reader.read(sq) == (x * x).scale(64)
    assert reader.read(aligned) == x.scale(4096) + Poly.const(128)
    assert reader.read(div) == x.scale(64)
    # n - s may be negative as a polynomial: an atom of its own.
    assert reader.read(diff).atoms() == {len(reader.atoms) - 1}
    assert reader.read(diff) != reader.read(n)
    # Tuning points: every leaf set to one value.
    values = reader.values_at(10)
    assert reader.read(aligned).evaluate(values) == _align(40960 + 100)
    assert reader.aligned(n, 64).evaluate(reader.values_at(10)) == 64
