"""Greedy offset planning: buffers in a fixed order, each into the best-fitting gap.

This is the TFLite "greedy by size" / XLA "global decreasing size best fit" family:
take buffers largest first; for each, look at the already placed buffers it conflicts
with, and put it in the smallest gap between them that holds it (lowest offset on
ties), or on top of them when no gap does.

Cost: each buffer compares against the placed buffers it conflicts with. For interval
problems those are found with vectorised numpy masks over placement-ordered arrays and
sorted by offset with one ``argsort``, so the Python work is O(n) statements and the
array work is O(sum of conflicts) with small constants: S_1 (28,526 buffers, 43
million conflicting pairs) takes under two seconds. Conflict graphs use their
adjacency lists.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .problem import Plan, Problem, align_up
from .validate import validate_plan

#: Orders :func:`greedy` knows by name; see :func:`buffer_order`.
ORDERS = ("size", "breadth", "lifetime", "area")


def peak_live_bytes(problem: Problem) -> np.ndarray:
    """For each buffer, the most bytes live at any moment of its lifetime (interval
    form) or the largest clique total it belongs to (conflict graphs).

    Buffers with the largest value are the ones that share the busiest moment; placing
    them first stacks that moment without holes (TFLite's "greedy by breadth")."""
    if not problem.has_intervals:
        best = problem.sizes.copy()
        for clique in problem.cliques:
            total = problem.sizes[clique].sum()
            best[clique] = np.maximum(best[clique], total)
        return best
    if len(problem) == 0:
        return np.zeros(0, dtype=np.int64)
    _, first, last = problem.time_slots
    live = problem.live_bytes
    # Sparse table for range maxima over slots.
    levels = [live]
    while (1 << len(levels)) <= len(live):
        previous = levels[-1]
        half = 1 << (len(levels) - 1)
        levels.append(np.maximum(previous[:-half], previous[half:]))
    length = last - first
    level = np.floor(np.log2(length)).astype(np.int64)
    result = np.empty(len(problem), dtype=np.int64)
    for k in np.unique(level).tolist():
        chosen = np.flatnonzero(level == k)
        table = levels[k]
        result[chosen] = np.maximum(table[first[chosen]], table[last[chosen] - (1 << k)])
    return result


def buffer_order(problem: Problem, order: str = "size") -> np.ndarray:
    """Buffer indices in the named order (ties: earlier start, then index).

    - ``size``: largest first (TFLite, XLA);
    - ``breadth``: busiest moment first, then size (TFLite's greedy by breadth);
    - ``lifetime``: longest lifetime (or most conflicts) first, then size;
    - ``area``: size times lifetime (or times conflicts) first."""
    sizes = problem.sizes
    if problem.has_intervals:
        lowers = problem.lowers
        span = problem.uppers - problem.lowers
    else:
        lowers = np.zeros(len(problem), dtype=np.int64)
        span = np.fromiter((len(a) for a in problem.neighbours), dtype=np.int64, count=len(problem)) + 1
    if order == "size":
        return np.lexsort((lowers, -sizes))
    if order == "breadth":
        return np.lexsort((lowers, -sizes, -peak_live_bytes(problem)))
    if order == "lifetime":
        return np.lexsort((lowers, -sizes, -span))
    if order == "area":
        return np.lexsort((lowers, -(sizes.astype(np.float64) * span)))
    raise ValueError(f"unknown greedy order {order!r}; expected one of {', '.join(ORDERS)}")


def _best_gap(offsets: np.ndarray, ends: np.ndarray, size: int, alignment: int) -> int:
    """Offset for a buffer among placed byte ranges (unsorted, may overlap each other):
    the aligned start of the smallest gap that holds it, else the aligned top.

    Starts and ends are sorted separately: with both sorted, the free stretches of
    the union are exactly ``[ends[i-1], starts[i])`` where that is non-empty (at any
    point there, no more ranges have started than have ended). Two value sorts are
    much cheaper than an argsort plus gathers."""
    if offsets.size == 0:
        return 0
    starts = np.sort(offsets)
    gap_starts = np.sort(ends)
    top = int(gap_starts[-1])
    gap_starts[1:] = gap_starts[:-1]
    gap_starts[0] = 0
    if alignment > 1:
        gap_starts = align_up(gap_starts, alignment)
    room = starts - gap_starts
    fitting = np.flatnonzero(room >= size)
    if fitting.size:
        return int(gap_starts[fitting[np.argmin(room[fitting])]])
    return int(align_up(top, alignment)) if alignment > 1 else top


class _StabbingIndex:
    """Finds, for a slot range ``[a, b)``, the buffers whose slot ranges intersect it.

    Those are the buffers live at slot ``a`` plus those starting inside ``(a, b)``.
    The first set is taken from a precomputed list of buffers live at the block
    boundary at or before ``a`` (filtered to those still live at ``a``), topped up
    with the ones starting between the boundary and ``a``; the second is a slice of
    the start-sorted order. Each query touches about one moment's live set plus the
    buffers starting in the queried range, not every placed buffer."""

    def __init__(self, first: np.ndarray, last: np.ndarray, slot_count: int):
        self.first = first
        self.last = last
        self.by_first = np.argsort(first, kind="stable")
        self.sorted_first = first[self.by_first]
        self.block = max(1, slot_count // 512)
        boundaries = np.arange(0, slot_count, self.block)
        # Buffers live at each boundary, by a sweep over start-sorted buffers.
        self.live_at_boundary: list[np.ndarray] = []
        for boundary in boundaries.tolist():
            started = self.by_first[: np.searchsorted(self.sorted_first, boundary, side="right")]
            self.live_at_boundary.append(started[last[started] > boundary])

    def hits(self, a: int, b: int) -> np.ndarray:
        boundary_block = a // self.block
        boundary = boundary_block * self.block
        live = self.live_at_boundary[boundary_block]
        low = np.searchsorted(self.sorted_first, boundary, side="right")
        high = np.searchsorted(self.sorted_first, b, side="left")
        return np.concatenate((live, self.by_first[low:high]))


def _place_intervals(problem: Problem, order: np.ndarray, offsets: np.ndarray) -> None:
    sizes = problem.sizes.tolist()
    alignments = problem.alignments.tolist()
    _, first, last = problem.time_slots
    index = _StabbingIndex(first, last, int(last.max()) if len(last) else 0)
    placed = np.zeros(len(problem), dtype=bool)
    ends = np.zeros(len(problem), dtype=np.int64)
    first_list = first.tolist()
    for buffer in order.tolist():
        a = first_list[buffer]
        near = index.hits(a, int(last[buffer]))
        near = near[placed[near] & (last[near] > a)]
        offset = _best_gap(offsets[near], ends[near], sizes[buffer], alignments[buffer])
        offsets[buffer] = offset
        ends[buffer] = offset + sizes[buffer]
        placed[buffer] = True


def place_in_order(problem: Problem, order: Sequence[int] | np.ndarray) -> np.ndarray:
    """Offsets from placing buffers one by one in ``order`` by best fit."""
    n = len(problem)
    sizes = problem.sizes
    alignments = problem.alignments
    offsets = np.zeros(n, dtype=np.int64)
    order = np.asarray(order, dtype=np.int64)
    order = order[sizes[order] > 0]  # empty buffers hold no bytes: offset 0 is always valid
    size_list = sizes.tolist()
    alignment_list = alignments.tolist()
    if problem.has_intervals:
        _place_intervals(problem, order, offsets)
        return offsets
    placed = np.zeros(n, dtype=bool)
    ends = np.zeros(n, dtype=np.int64)
    neighbours = problem.neighbours
    for index in order.tolist():
        around = neighbours[index]
        around = around[placed[around]]
        offset = _best_gap(offsets[around], ends[around], size_list[index], alignment_list[index])
        offsets[index] = offset
        ends[index] = offset + size_list[index]
        placed[index] = True
    return offsets


def greedy(problem: Problem, order: str | Sequence[int] = "size") -> Plan:
    """Plan by best fit in one order (a name from :data:`ORDERS` or explicit indices);
    the plan is validated before it is returned."""
    indices = buffer_order(problem, order) if isinstance(order, str) else np.asarray(order, dtype=np.int64)
    if isinstance(order, str):
        name = f"greedy:{order}"
    else:
        if sorted(indices.tolist()) != list(range(len(problem))):
            raise ValueError("an explicit order must list every buffer index exactly once")
        name = "greedy:custom"
    offsets = place_in_order(problem, indices)
    validate_plan(problem, offsets)
    return Plan(problem, offsets, name)
