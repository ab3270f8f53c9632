"""Dynamic slice packing for `layout-slices`: one layout valid for every value of the
unknowns, built from static plans at a few tuning points. Free of IR.

Each slice reserves a :class:`~memplan.planning.polynomials.Poly` of bytes (non-negative
coefficients over atoms >= 0, and a multiple of the offset alignment for every value
of the atoms: the caller rounds sizes up to it). See docs/design/layout-slices.md for
the proof; in short:

1. At a tuning point (a value for every atom) the sizes are numbers; a static plan
   (:func:`~memplan.planning.slices.pack_static`) gives offsets ``o``.
2. Order the slices by ``(o, index)``. Each slice's offset is the maximum, over the
   slices before it in that order whose lifetimes meet its own, of their offset plus
   their size (0 when there is none), kept as a :class:`MaxPoly`. So for every
   conflicting pair the later one starts at or above the earlier one's end, for
   every value of the atoms: the layout is valid everywhere. At the tuning point
   each offset is at most ``o`` (induction over the order: a conflicting earlier
   slice ends at or below ``o`` in the static plan), so the total is at most the
   static plan's there.
3. Layouts from several tuning points (and, unless proven no better, IREE's own
   layout) are candidates; a candidate whose total another's dominates everywhere is
   dropped; the program picks the smallest total at run time.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from memplan.lazy_numpy import np

from .polynomials import MaxPoly, Poly
from .problem import Buffer, Problem
from .slices import DEFAULT_EFFORT, iree_greedy, pack_static

__all__ = ["DynamicPacking", "SymbolicLayout", "iree_dynamic_layout", "pack_symbolic"]

#: Most layouts the program chooses among at run time.
MAX_LAYOUTS = 4


@dataclass(frozen=True)
class SymbolicLayout:
    """Offsets (relative to the pack's base) and the total, as maxima of polynomials."""

    offsets: tuple[MaxPoly, ...]
    total: MaxPoly
    origin: str

    def evaluate(self, values: Sequence[int]) -> tuple[list[int], int]:
        return [o.evaluate(values) for o in self.offsets], self.total.evaluate(values)


@dataclass(frozen=True)
class DynamicPacking:
    """The candidate layouts; the program takes the one of smallest total."""

    layouts: tuple[SymbolicLayout, ...]

    def total_at(self, values: Sequence[int]) -> int:
        return min(layout.total.evaluate(values) for layout in self.layouts)

    def layout_at(self, values: Sequence[int]) -> SymbolicLayout:
        """The layout the emitted selection takes: the first of smallest total."""
        return min(self.layouts, key=lambda layout: layout.total.evaluate(values))


def _neighbours(starts: np.ndarray, ends: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, ...]:
    """Conflicting slices of each slice (inclusive lifetimes), by a sweep; slices
    not ``live`` (zero bytes) have none."""
    n = len(starts)
    chosen = np.flatnonzero(live)
    problem = Problem(
        [Buffer(str(i), 1, int(starts[i]), int(ends[i]) + 1) for i in chosen.tolist()]
    )
    result = [np.zeros(0, dtype=np.int64)] * n
    for local, row in enumerate(problem.neighbours):
        result[int(chosen[local])] = chosen[row]
    return tuple(result)


def lower_bound_at(starts, ends, sizes: Sequence[int]) -> int:
    """Peak of live bytes (inclusive lifetimes) for numeric sizes."""
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    if sizes.size == 0:
        return 0
    times = np.concatenate([starts, ends + 1])
    deltas = np.concatenate([sizes, -sizes])
    order = np.lexsort((deltas, times))  # ends (negative) first at equal times
    return int(max(np.cumsum(deltas[order]).max(), 0))


def _layout_from_order(
    order: Sequence[int], neighbours: Sequence[np.ndarray], reserved: Sequence[Poly], origin: str
) -> SymbolicLayout:
    n = len(reserved)
    rank = np.empty(n, dtype=np.int64)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(n)
    zero = MaxPoly.of(Poly())
    offsets: list[MaxPoly] = [zero] * n
    ends: list[MaxPoly | None] = [None] * n
    for i in order:
        around = neighbours[i]
        below = around[rank[around] < rank[i]].tolist()
        offsets[i] = MaxPoly.maximum([ends[j] for j in below]) if below else zero  # type: ignore[misc]
        ends[i] = offsets[i].plus(reserved[i])
    total = MaxPoly.maximum([e for e in ends if e is not None], cap=16)
    return SymbolicLayout(tuple(offsets), total, origin)


def iree_dynamic_layout(
    starts, ends, reserved: Sequence[Poly], size_keys: Sequence[Hashable], offset_alignment: int, range_alignment: int
) -> SymbolicLayout:
    """IREE's layout of the same slices in polynomial form: constant slices by its
    greedy, then one region per size value (slices of one size share a region when
    their lifetimes do not meet), regions one after another."""
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    n = len(reserved)
    constant = [i for i in range(n) if reserved[i].constant() is not None]
    offsets: list[MaxPoly] = [MaxPoly.of(Poly())] * n
    base = Poly()
    if constant:
        sizes = [reserved[i].constant() for i in constant]
        static_offsets, total = iree_greedy(starts[constant], ends[constant], sizes, offset_alignment, range_alignment)
        for i, offset in zip(constant, static_offsets.tolist()):
            offsets[i] = MaxPoly.of(Poly.const(offset))
        unit = math.lcm(offset_alignment, range_alignment)
        base = Poly.const(-(-total // unit) * unit)
    buckets: dict[Hashable, list[int]] = {}
    for i in range(n):
        if reserved[i].constant() is None:
            buckets.setdefault(size_keys[i], []).append(i)
    for members in buckets.values():
        bins: list[tuple[Poly, list[int]]] = []
        for i in members:
            for bin_offset, bin_members in bins:
                if not any(ends[i] >= starts[j] and ends[j] >= starts[i] for j in bin_members):
                    bin_members.append(i)
                    offsets[i] = MaxPoly.of(bin_offset)
                    break
            else:
                bins.append((base, [i]))
                offsets[i] = MaxPoly.of(base)
                base = base + reserved[i]
    return SymbolicLayout(tuple(offsets), MaxPoly.of(base), "iree")


def pack_symbolic(
    starts,
    ends,
    reserved: Sequence[Poly],
    points: Sequence[Sequence[int]],
    offset_alignment: int,
    *,
    baseline: SymbolicLayout | None = None,
    effort: int = DEFAULT_EFFORT,
    max_layouts: int = MAX_LAYOUTS,
) -> DynamicPacking:
    """Candidate layouts for ``reserved`` sizes, one per tuning point (``points``: the
    value of every atom at each), plus ``baseline`` unless some candidate's total is
    proven no larger everywhere; dominated and repeated candidates dropped."""
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    n = len(reserved)
    live = np.array([p != Poly() for p in reserved], dtype=bool)
    neighbours = _neighbours(starts, ends, live)
    layouts: list[SymbolicLayout] = []
    seen: set[tuple[MaxPoly, ...]] = set()
    for index, values in enumerate(points):
        sizes = [p.evaluate(values) for p in reserved]
        plan = pack_static(starts, ends, sizes, offset_alignment, 1, effort=effort)
        order = np.lexsort((np.arange(n), plan.offsets)).tolist()
        layout = _layout_from_order(order, neighbours, reserved, f"point {index}")
        if layout.offsets not in seen:
            seen.add(layout.offsets)
            layouts.append(layout)
    kept = _undominated(layouts)
    if baseline is not None and not any(layout.total.dominated_by(baseline.total) for layout in kept):
        kept.append(baseline)
    if len(kept) > max_layouts:
        # Keep the best at each tuning point first, then by order of discovery.
        chosen: list[SymbolicLayout] = []
        for values in points:
            best = min(kept, key=lambda layout: layout.total.evaluate(values))
            if best not in chosen:
                chosen.append(best)
        if baseline is not None and baseline in kept and baseline not in chosen:
            chosen.append(baseline)
        kept = chosen[:max_layouts]
    return DynamicPacking(tuple(kept))


def _undominated(layouts: list[SymbolicLayout]) -> list[SymbolicLayout]:
    """The layouts no other one beats everywhere (of equal ones, the first)."""
    kept = []
    for i, layout in enumerate(layouts):
        beaten = any(
            other.total.dominated_by(layout.total) and (j < i or not layout.total.dominated_by(other.total))
            for j, other in enumerate(layouts)
            if j != i
        )
        if not beaten:
            kept.append(layout)
    return kept
