"""Shared strategies and helpers for the planner tests."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import strategies as st

from memplan.planning import Buffer, Problem


@st.composite
def interval_problems(draw, max_buffers: int = 12, max_time: int = 12, max_size: int = 16, aligned: bool = False):
    count = draw(st.integers(min_value=0, max_value=max_buffers))
    buffers = []
    for index in range(count):
        lower = draw(st.integers(min_value=0, max_value=max_time - 1))
        upper = draw(st.integers(min_value=lower + 1, max_value=max_time))
        size = draw(st.integers(min_value=0 if index % 5 == 4 else 1, max_value=max_size))
        alignment = draw(st.sampled_from([1, 2, 4, 8])) if aligned else 1
        buffers.append(Buffer(str(index), size, lower, upper, alignment))
    return Problem.from_intervals(buffers)


@st.composite
def graph_problems(draw, max_buffers: int = 9, max_size: int = 12):
    count = draw(st.integers(min_value=1, max_value=max_buffers))
    buffers = [Buffer(f"b{i}", draw(st.integers(min_value=1, max_value=max_size))) for i in range(count)]
    pairs = [pair for pair in itertools.combinations(range(count), 2) if draw(st.booleans())]
    return Problem.from_conflicts(buffers, pairs)


def overlapping_pairs(problem: Problem, offsets) -> list[tuple[int, int]]:
    """All conflicting pairs sharing bytes, by brute force (the reference check)."""
    offsets = np.asarray(offsets)
    ends = offsets + problem.sizes
    bad = []
    for a, b in itertools.combinations(range(len(problem)), 2):
        if problem.sizes[a] == 0 or problem.sizes[b] == 0:
            continue
        if problem.conflicts(a, b) and offsets[a] < ends[b] and offsets[b] < ends[a]:
            bad.append((a, b))
    return bad


def brute_force_optimum(problem: Problem) -> int:
    """Smallest pool over all buffer orders, each placed at the lowest offset free of
    earlier conflicting buffers. Some order yields every gravity-compacted plan, and
    an optimal plan can always be compacted, so this is the true optimum."""
    n = len(problem)
    if n == 0:
        return 0
    sizes = problem.sizes.tolist()
    alignments = problem.alignments.tolist()
    best = sum(sizes) + sum(alignments)
    for order in itertools.permutations(range(n)):
        offsets = [0] * n
        top = 0
        for k, index in enumerate(order):
            blockers = sorted(
                (offsets[j], offsets[j] + sizes[j]) for j in order[:k] if sizes[j] and problem.conflicts(index, j)
            )
            candidate = 0
            for start, end in blockers:
                candidate = -(-candidate // alignments[index]) * alignments[index]
                if candidate + sizes[index] <= start:
                    break
                candidate = max(candidate, end)
            candidate = -(-candidate // alignments[index]) * alignments[index]
            offsets[index] = candidate
            top = max(top, candidate + sizes[index])
            if top >= best:
                break
        best = min(best, top)
    return best


def guillotine_problem(seed: int, pieces: int, side: int = 64, drop: float = 0.1) -> Problem:
    """A ``side`` x ``side`` square (time x bytes) cut at random into ``pieces``
    rectangles (larger ones cut more often), some of those left out but none over time 0: a perfect packing at
    ``side`` bytes exists and the bound is ``side`` (MiniMalloc's challenging kind)."""
    rng = np.random.default_rng(seed)
    rects = [(0, 0, side, side)]
    while len(rects) < pieces:
        areas = np.array([w * h for _, _, w, h in rects], dtype=np.float64)
        k = int(rng.choice(len(rects), p=areas / areas.sum()))
        t, m, w, h = rects[k]
        along_time = rng.random() < w / (w + h)
        length = w if along_time else h
        if length < 2:
            continue
        cut = int(rng.integers(1, length))
        if along_time:
            rects[k : k + 1] = [(t, m, cut, h), (t + cut, m, w - cut, h)]
        else:
            rects[k : k + 1] = [(t, m, w, cut), (t, m + cut, w, h - cut)]
    kept = [r for r in rects if r[0] == 0 or rng.random() >= drop]
    return Problem.from_intervals([(t, t + w, h) for t, _, w, h in kept])
