"""Dynamic slice packing for `layout-slices`: one layout valid for every value of the
unknowns, built from static plans at a few tuning points. Free of IR.

Each slice reserves a :class:`~memplan.planning.polynomials.Poly` of bytes (non-negative
coefficients over atoms >= 0, and a multiple of the offset alignment for every value
of the atoms: the caller rounds sizes up to it). See docs/design/layout-slices.md for
the proof; in short:

1. At a tuning point (a value for every atom) the sizes are numbers; a static plan
   (:func:`~memplan.planning.slices.pack_static`) gives offsets ``o``.
2. Order the slices by ``(o, index)``. Each slice starts at the maximum end of the
   slices before it in that order whose lifetimes meet its own (0 when none): a DAG
   (:class:`SymbolicLayout`), kept to direct predecessors. So for every conflicting
   pair the later one starts at or above the earlier one's end, for every value of
   the atoms: the layout is valid everywhere. At the tuning point each offset is at
   most ``o`` (induction over the order), so the total is at most the static
   plan's there.
3. Layouts from several tuning points (and, unless proven no better, IREE's own
   layout) are candidates; a candidate whose total another's dominates everywhere is
   dropped; the program picks the smallest total at run time.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property

from memplan.lazy_numpy import np

from .polynomials import MaxPoly, Poly
from .problem import Buffer, Problem
from .slices import DEFAULT_EFFORT, iree_greedy, pack_static

__all__ = ["DynamicPacking", "SymbolicLayout", "iree_dynamic_layout", "pack_symbolic"]

#: Most layouts the program chooses among at run time.
MAX_LAYOUTS = 6

#: A judged point whose best layout is within this fraction of the lower bound
#: asks for no layout of its own.
TOLERANCE = 0.01


@dataclass(frozen=True)
class SymbolicLayout:
    """A layout as a DAG: slice ``i`` starts at the maximum end of the slices
    ``below[i]`` (0 when none) and the total is the maximum end of ``top``; a
    slice's end is its offset plus its reserved size.

    ``upper``/``lower`` bound each offset (and ``total_upper``/``total_lower`` the
    total) by polynomials for proofs; where the two are equal the value is exact
    and may be emitted as its polynomial instead of through the DAG."""

    below: tuple[tuple[int, ...], ...]
    top: tuple[int, ...]
    upper: tuple[MaxPoly, ...]
    lower: tuple[MaxPoly, ...]
    total_upper: MaxPoly
    total_lower: MaxPoly
    origin: str

    @cached_property
    def _steps(self) -> list[tuple[int, Poly | None, tuple[int, ...]]]:
        """(slice, its exact polynomial or None, the slices below) in DAG order."""
        return [(i, self.exact(i), self.below[i]) for i in self._order()]

    def evaluate(self, values: Sequence[int], sizes: Sequence[int]) -> tuple[list[int], int]:
        """Offsets and total at atom ``values`` (reserved sizes ``sizes`` there)."""
        offsets = [0] * len(self.below)
        for i, exact, below in self._steps:
            if exact is not None:
                offsets[i] = exact.evaluate(values)
            else:
                offsets[i] = max((offsets[j] + sizes[j] for j in below), default=0)
        exact = self.exact_total
        if exact is not None:
            return offsets, exact.evaluate(values)
        return offsets, max((offsets[j] + sizes[j] for j in self.top), default=0)

    def _order(self) -> list[int]:
        """Slices with every slice below them first (a topological order)."""
        n = len(self.below)
        order, state = [], [0] * n
        for root in range(n):
            stack = [(root, 0)]
            while stack:
                node, k = stack.pop()
                if state[node] == 2:
                    continue
                state[node] = 1
                if k < len(self.below[node]):
                    stack.append((node, k + 1))
                    child = self.below[node][k]
                    if state[child] == 0:
                        stack.append((child, 0))
                    continue
                state[node] = 2
                order.append(node)
        return order

    def exact(self, i: int) -> Poly | None:
        """Slice ``i``'s offset as one polynomial, when it is known to be one."""
        if self.upper[i] == self.lower[i]:
            return self.upper[i].single
        return None

    @property
    def exact_total(self) -> Poly | None:
        if self.total_upper == self.total_lower:
            return self.total_upper.single
        return None


@dataclass(frozen=True)
class DynamicPacking:
    """The candidate layouts; the program takes the one of smallest total."""

    layouts: tuple[SymbolicLayout, ...]
    reserved: tuple[Poly, ...]

    def total_at(self, values: Sequence[int]) -> int:
        sizes = [p.evaluate(values) for p in self.reserved]
        return min(layout.evaluate(values, sizes)[1] for layout in self.layouts)


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


#: Members kept in a lower bound (a subset of the exact maximum).
_LOWER_MEMBERS = 4


def _layout_from_order(
    order: Sequence[int],
    neighbours: Sequence[np.ndarray],
    reserved: Sequence[Poly],
    points: Sequence[Sequence[int]],
    origin: str,
) -> SymbolicLayout:
    """Each slice above the slices before it in ``order`` that it conflicts with;
    only those not already below another one are kept (transitive reduction, by
    bitsets of everything below each slice), and of those, the ones whose end is
    proven no higher than another's are dropped."""
    n = len(reserved)
    rank = np.empty(n, dtype=np.int64)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(n)
    zero = MaxPoly.of(Poly())
    below: list[tuple[int, ...]] = [()] * n
    beneath = [0] * n  # bitset of every slice below, transitively
    upper: list[MaxPoly] = [zero] * n
    lower: list[MaxPoly] = [zero] * n
    end_upper: list[MaxPoly] = [zero] * n
    end_lower: list[MaxPoly] = [zero] * n
    used = [False] * n
    for i in order:
        around = neighbours[i]
        earlier = around[rank[around] < rank[i]].tolist()
        covered = 0
        for j in earlier:
            covered |= beneath[j]
        direct = [j for j in earlier if not covered >> j & 1]
        direct = _drop_dominated(direct, end_upper, end_lower)
        below[i] = tuple(sorted(direct))
        mask = covered
        for j in direct:
            mask |= 1 << j
        beneath[i] = mask
        if direct:
            upper[i] = MaxPoly.maximum(end_upper[j] for j in direct)
            lower[i] = MaxPoly.maximum((end_lower[j] for j in direct), cap=64).largest(points, _LOWER_MEMBERS)
        end_upper[i] = upper[i].plus(reserved[i])
        end_lower[i] = lower[i].plus(reserved[i])
        for j in direct:
            used[j] = True
    tops = _drop_dominated([i for i in range(n) if not used[i] and reserved[i] != Poly()], end_upper, end_lower)
    total_upper = MaxPoly.maximum((end_upper[i] for i in tops), cap=16)
    total_lower = MaxPoly.maximum((end_lower[i] for i in tops), cap=64).largest(points, _LOWER_MEMBERS)
    return SymbolicLayout(tuple(below), tuple(tops), tuple(upper), tuple(lower), total_upper, total_lower, origin)


def _drop_dominated(items: list[int], upper: Sequence[MaxPoly], lower: Sequence[MaxPoly]) -> list[int]:
    """``items`` without those whose end is proven no higher than another kept one's."""
    kept = list(items)
    for j in list(items):
        if any(k != j and upper[j].dominated_by(lower[k]) for k in kept):
            kept.remove(j)
    return kept


def iree_dynamic_layout(
    starts, ends, reserved: Sequence[Poly], size_keys: Sequence[Hashable], offset_alignment: int, range_alignment: int
) -> SymbolicLayout:
    """IREE's layout of the same slices: constant slices by its greedy, then one
    region per size value (slices of one size share a region when their lifetimes
    do not meet), regions one after another. Every offset is one polynomial."""
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    n = len(reserved)
    constant = [i for i in range(n) if reserved[i].constant() is not None]
    offsets: list[Poly] = [Poly()] * n
    base = Poly()
    if constant:
        sizes = [reserved[i].constant() for i in constant]
        static_offsets, total = iree_greedy(starts[constant], ends[constant], sizes, offset_alignment, range_alignment)
        for i, offset in zip(constant, static_offsets.tolist()):
            offsets[i] = Poly.const(offset)
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
                    offsets[i] = bin_offset
                    break
            else:
                bins.append((base, [i]))
                offsets[i] = base
                base = base + reserved[i]
    exact = tuple(MaxPoly.of(p) for p in offsets)
    total = MaxPoly.of(base)
    return SymbolicLayout(tuple(() for _ in range(n)), (), exact, exact, total, total, "iree")


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
    judge: Sequence[Sequence[int]] = (),
    tolerance: float = TOLERANCE,
) -> DynamicPacking:
    """Candidate layouts for ``reserved`` sizes: one per tuning point (``points``: the
    value of every atom at each), then, while some point of ``judge`` has no layout
    within ``tolerance`` of the lower bound there and fewer than ``max_layouts``
    layouts exist, one more tuned at the worst such point. Only layouts with the
    smallest total at some point of ``points`` or ``judge`` are kept (the first of
    equals; those best at most points when too many); ``baseline`` is added unless
    some kept layout's total is proven no larger everywhere."""
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    n = len(reserved)
    live = np.array([p != Poly() for p in reserved], dtype=bool)
    neighbours = _neighbours(starts, ends, live)
    layouts: list[SymbolicLayout] = []
    seen: set[tuple[tuple[int, ...], ...]] = set()

    def tune(values: Sequence[int], origin: str) -> bool:
        sizes = [p.evaluate(values) for p in reserved]
        plan = pack_static(starts, ends, sizes, offset_alignment, 1, effort=effort)
        order = np.lexsort((np.arange(n), plan.offsets)).tolist()
        layout = _layout_from_order(order, neighbours, reserved, points, origin)
        if layout.below in seen:
            return False
        seen.add(layout.below)
        layouts.append(layout)
        return True

    for index, values in enumerate(points):
        tune(values, f"point {index}")
    judged = []
    for values in (*points, *judge):
        sizes = [p.evaluate(values) for p in reserved]
        judged.append((values, sizes, max(lower_bound_at(starts, ends, sizes), 1)))
    best = [min(layout.evaluate(v, z)[1] for layout in layouts) for v, z, _ in judged] if layouts else []
    tried: set[int] = set()
    while layouts and len(layouts) < max_layouts:
        ratios = [total / bound for total, (_, _, bound) in zip(best, judged)]
        worst = max((i for i in range(len(judged)) if i not in tried), key=lambda i: ratios[i], default=None)
        if worst is None or ratios[worst] <= 1 + tolerance:
            break
        tried.add(worst)
        if tune(judged[worst][0], f"judged point {worst}"):
            layout = layouts[-1]
            best = [min(b, layout.evaluate(v, z)[1]) for b, (v, z, _) in zip(best, judged)]
    wins = [0] * len(layouts)
    for values, sizes, _ in judged:
        totals = [layout.evaluate(values, sizes)[1] for layout in layouts]
        wins[totals.index(min(totals))] += 1
    ranked = sorted((i for i in range(len(layouts)) if wins[i]), key=lambda i: (-wins[i], i))
    kept = [layouts[i] for i in sorted(ranked[: max(max_layouts - (baseline is not None), 1)])]
    if baseline is not None and not any(layout.total_upper.dominated_by(baseline.total_lower) for layout in kept):
        kept.append(baseline)
    return DynamicPacking(tuple(kept), tuple(reserved))


