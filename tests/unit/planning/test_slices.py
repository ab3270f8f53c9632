"""Static and dynamic slice packing (`memplan.planning.slices`, `dynamic_slices`,
`polynomials`): IREE's greedy reproduced, never beaten by memplan's result, and
dynamic layouts valid at every value tried."""

from __future__ import annotations

import random

import pytest

from memplan.planning.dynamic_slices import iree_dynamic_layout, lower_bound_at, pack_symbolic
from memplan.planning.polynomials import MaxPoly, Poly
from memplan.planning.slices import iree_greedy, pack_static
from memplan.planning.problem import PlanInputError
from memplan.testing.packs import decoder_pack, encoder_pack, random_pack


def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _iree_greedy_by_the_book(starts, ends, sizes, offset_alignment, range_alignment):
    """IREE's loop as its source reads: a list of reservations sorted by offset."""
    reservations = []  # (offset, size, start, end)
    offsets, high = [], 0
    for start, end, size in zip(starts, ends, sizes):
        size = _align(size, range_alignment)
        best, best_fit, current = None, None, 0
        for r_offset, r_size, r_start, r_end in reservations:
            if not (r_end >= start and end >= r_start):
                continue
            aligned = _align(current, offset_alignment)
            if aligned + size <= r_offset and (best_fit is None or r_offset - aligned < best_fit):
                best, best_fit = aligned, r_offset - current
            current = max(current, r_offset + r_size)
        if best is None:
            best = _align(current, offset_alignment)
        at = 0
        while at < len(reservations) and reservations[at][0] < best:
            at += 1
        reservations.insert(at, (best, size, start, end))
        offsets.append(best)
        high = max(high, best + size)
    return offsets, _align(high, range_alignment)


def _random_static(rng: random.Random, n: int):
    starts = [rng.randrange(0, 12) for _ in range(n)]
    ends = [s + rng.randrange(0, 5) for s in starts]
    sizes = [rng.choice((0, 1, 16, 40, 64, 100, 256, 1000)) for _ in range(n)]
    return starts, ends, sizes


@pytest.mark.parametrize("seed", range(40))
def test_iree_greedy_matches_the_algorithm_as_written(seed):
    rng = random.Random(seed)
    starts, ends, sizes = _random_static(rng, rng.randrange(1, 30))
    alignments = rng.choice(((1, 1), (16, 16), (64, 16), (16, 64), (256, 32)))
    offsets, total = iree_greedy(starts, ends, sizes, *alignments)
    expected_offsets, expected_total = _iree_greedy_by_the_book(starts, ends, sizes, *alignments)
    assert offsets.tolist() == expected_offsets
    assert total == expected_total


@pytest.mark.parametrize("seed", range(40))
def test_static_never_above_iree_and_valid(seed):
    rng = random.Random(100 + seed)
    starts, ends, sizes = _random_static(rng, rng.randrange(1, 40))
    offset_alignment, range_alignment = rng.choice(((16, 16), (64, 64), (64, 16), (16, 64)))
    layout = pack_static(starts, ends, sizes, offset_alignment, range_alignment, effort=2000)
    assert layout.total <= layout.iree_total
    assert layout.total >= layout.lower_bound
    for i in range(len(sizes)):
        assert layout.offsets[i] % offset_alignment == 0
        top = layout.offsets[i] + _align(sizes[i], range_alignment)
        assert top <= layout.total
        for j in range(i):
            if ends[i] >= starts[j] and ends[j] >= starts[i] and sizes[i] and sizes[j]:
                other = layout.offsets[j] + _align(sizes[j], range_alignment)
                assert top <= layout.offsets[j] or other <= layout.offsets[i], (i, j)


def test_static_reaches_the_bound_where_iree_does_not():
    spec = encoder_pack(layers=4)
    starts, ends = [a for a, _, _ in spec.slices], [b for _, b, _ in spec.slices]
    sizes = spec.sizes_at(0)
    layout = pack_static(starts, ends, sizes, 64, 64)
    assert layout.total == layout.lower_bound
    assert layout.iree_total > layout.total


def test_backwards_lifetime_is_an_input_error():
    with pytest.raises(PlanInputError, match="ends before it starts"):
        pack_static([3], [1], [64], 64, 64)


def test_polynomial_dominance_is_a_proof():
    s, t = Poly.atom(0), Poly.atom(1)
    assert (s.scale(256)).dominated_by(s.scale(4096))
    assert not (s.scale(4096)).dominated_by(s.scale(256) + Poly.const(10**9))
    assert (s * s).scale(16).dominated_by((s * s).scale(16) + t)
    both = MaxPoly([s.scale(4), s.scale(2), (s * s)])
    assert both.members == tuple(sorted([s.scale(4), s * s], key=lambda p: p.terms))
    for value in (0, 1, 3, 4, 5, 100):
        assert both.evaluate([value]) == max(4 * value, value * value)


def test_maxpoly_cap_is_an_upper_bound():
    polys = [Poly({(0,): k, (): 100 - k}) for k in range(20)]
    capped = MaxPoly(polys, cap=4)
    assert len(capped.members) == 1
    for value in range(0, 50, 7):
        assert capped.evaluate([value]) >= max(p.evaluate([value]) for p in polys)


def _check_numeric(starts, ends, sizes, offsets, total):
    for i in range(len(sizes)):
        assert offsets[i] + sizes[i] <= total
        for j in range(i):
            if ends[i] >= starts[j] and ends[j] >= starts[i] and sizes[i] and sizes[j]:
                assert offsets[i] + sizes[i] <= offsets[j] or offsets[j] + sizes[j] <= offsets[i], (i, j)


def _reserved(spec, alignment=64):
    result = []
    for _, _, size in spec.slices:
        if isinstance(size, int):
            result.append(Poly.const(_align(size, alignment)))
        else:
            # Coefficients rounded up: a multiple of the alignment at every value.
            result.append(Poly({(0,): _align(size[0], alignment), (0, 0): _align(size[1], alignment)}))
    return result


@pytest.mark.parametrize("seed", range(6))
def test_dynamic_layouts_valid_everywhere_tried(seed):
    spec = random_pack(60, seed, max_life=10, dynamic=0.6)
    starts, ends = [a for a, _, _ in spec.slices], [b for _, b, _ in spec.slices]
    reserved = _reserved(spec)
    baseline = iree_dynamic_layout(starts, ends, reserved, [s for *_, s in spec.slices], 64, 64)
    packing = pack_symbolic(starts, ends, reserved, [[64], [512], [4096]], 64, baseline=baseline, effort=1000)
    for value in (0, 1, 2, 3, 7, 64, 100, 1000, 12345, 1 << 20):
        sizes = [p.evaluate([value]) for p in reserved]
        for layout in packing.layouts:
            offsets, total = layout.evaluate([value], sizes)
            _check_numeric(starts, ends, sizes, offsets, total)
            assert all(o % 64 == 0 for o in offsets)
        assert packing.total_at([value]) <= baseline.total_upper.evaluate([value])


def test_decoder_at_the_bound_at_three_lengths():
    spec = decoder_pack()
    starts, ends = [a for a, _, _ in spec.slices], [b for _, b, _ in spec.slices]
    reserved = _reserved(spec)
    packing = pack_symbolic(starts, ends, reserved, [[64], [512], [4096]], 64)
    for value in (128, 1024, 2048):
        sizes = [p.evaluate([value]) for p in reserved]
        assert packing.total_at([value]) <= 1.05 * lower_bound_at(starts, ends, sizes)


@pytest.mark.parametrize("seed", range(3))
def test_adaptive_tuning_covers_every_judged_point(seed):
    """After the tuning loop, each judged value has a layout within the tolerance of
    its lower bound, unless the layouts ran out."""
    from memplan.planning.dynamic_slices import MAX_LAYOUTS, TOLERANCE

    spec = random_pack(60, seed, max_life=8, dynamic=0.7, square=0.3)
    starts, ends = [a for a, _, _ in spec.slices], [b for _, b, _ in spec.slices]
    reserved = _reserved(spec)
    judge = [[v] for v in (1, 3, 10, 30, 100, 300, 1000, 3000)]
    packing = pack_symbolic(starts, ends, reserved, [[64], [4096]], 64, judge=judge, effort=1000)
    ratios = []
    for (value,) in judge:
        sizes = [p.evaluate([value]) for p in reserved]
        ratios.append(packing.total_at([value]) / lower_bound_at(starts, ends, sizes))
    assert len(packing.layouts) == MAX_LAYOUTS or max(ratios) <= 1 + TOLERANCE, ratios
