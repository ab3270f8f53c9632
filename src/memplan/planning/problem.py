"""The planning problem: buffers, which pairs may not share bytes, and a plan.

Two forms share one class. The interval form gives every buffer a lifetime
``[lower, upper)``; two buffers conflict when their lifetimes intersect. The general
form gives the conflicting pairs directly (a conflict graph), for callers whose
"may not share" relation is not an interval order (the host/device ordering rules of
DESIGN section 2 can produce such graphs). Strategies work on either form; the
interval form lets them use sweeps and time sections instead of adjacency lists,
which matters on traces with tens of millions of conflicting pairs.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable, Sequence

from memplan.lazy_numpy import np


class PlanInputError(ValueError):
    """A problem description (a CSV file, a buffer) is malformed."""


#: What the strategies call with the pool size of each better plan they find (for a
#: progress display); :func:`no_progress` by default.
Progress = Callable[[int], None]


def no_progress(pool_size: int) -> None:
    """The default :data:`Progress`: tell nobody."""


#: The seconds a ``time_limit`` is counted in: ``time.monotonic`` (wall time) by
#: default; a benchmark on a loaded machine may pass ``time.process_time``, and a
#: test a fake clock that counts how often the search looks at it.
Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Buffer:
    """One buffer to place: ``size`` bytes at an offset that is a multiple of
    ``alignment``; live on ``[lower, upper)`` in the interval form."""

    id: str
    size: int
    lower: int | None = None
    upper: int | None = None
    alignment: int = 1

    def __post_init__(self) -> None:
        for name in ("size", "alignment"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise PlanInputError(f"buffer {self.id}: {name} must be an integer, got {value!r}")
        if self.size < 0:
            raise PlanInputError(f"buffer {self.id}: size must be >= 0, got {self.size}")
        if self.alignment < 1:
            raise PlanInputError(f"buffer {self.id}: alignment must be >= 1, got {self.alignment}")
        if (self.lower is None) != (self.upper is None):
            raise PlanInputError(f"buffer {self.id}: give both lower and upper, or neither")
        if self.lower is not None and not self.lower < self.upper:  # type: ignore[operator]
            raise PlanInputError(
                f"buffer {self.id}: lifetime [{self.lower}, {self.upper}) is empty; upper must exceed lower"
            )

    @property
    def has_lifetime(self) -> bool:
        return self.lower is not None


class Problem:
    """Buffers plus the conflict relation; immutable once built.

    Build with :meth:`from_intervals` (conflicts follow from lifetimes) or
    :meth:`from_conflicts` (explicit pairs of buffer indices). Derived data (adjacency
    lists, cliques, bounds) is computed on first use: the adjacency lists of a large
    trace can hold tens of millions of entries, and the interval strategies never need
    them.
    """

    def __init__(self, buffers: Sequence[Buffer], conflicts: Iterable[tuple[int, int]] | None = None):
        self.buffers: tuple[Buffer, ...] = tuple(buffers)
        seen: set[str] = set()
        for buffer in self.buffers:
            if buffer.id in seen:
                raise PlanInputError(f"duplicate buffer id {buffer.id!r}")
            seen.add(buffer.id)
        n = len(self.buffers)
        self.sizes = np.fromiter((b.size for b in self.buffers), dtype=np.int64, count=n)
        self.alignments = np.fromiter((b.alignment for b in self.buffers), dtype=np.int64, count=n)
        self.has_intervals = conflicts is None
        if self.has_intervals:
            missing = [b.id for b in self.buffers if not b.has_lifetime]
            if missing:
                raise PlanInputError(f"buffer {missing[0]} has no lifetime; give lower/upper or a conflict set")
            self.lowers = np.fromiter((b.lower for b in self.buffers), dtype=np.int64, count=n)
            self.uppers = np.fromiter((b.upper for b in self.buffers), dtype=np.int64, count=n)
            self._explicit_neighbours: tuple[np.ndarray, ...] | None = None
        else:
            adjacency: list[set[int]] = [set() for _ in range(n)]
            for a, b in conflicts:  # type: ignore[union-attr]
                if not (0 <= a < n and 0 <= b < n):
                    raise PlanInputError(f"conflict ({a}, {b}) names a buffer index outside 0..{n - 1}")
                if a != b:
                    adjacency[a].add(b)
                    adjacency[b].add(a)
            self._explicit_neighbours = tuple(np.array(sorted(s), dtype=np.int64) for s in adjacency)

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_intervals(cls, buffers: Iterable[Buffer | tuple[int, int, int]], *, alignment: int = 1) -> "Problem":
        """Buffers given as :class:`Buffer` or as plain ``(start, end, size)`` tuples
        (lifetime ``[start, end)``; such a buffer's id is its index and its alignment
        ``alignment``)."""
        return cls([_as_buffer(index, item, alignment) for index, item in enumerate(buffers)])

    @classmethod
    def from_conflicts(cls, buffers: Sequence[Buffer], conflicts: Iterable[tuple[int, int]]) -> "Problem":
        return cls(buffers, conflicts)

    @classmethod
    def from_neighbours(cls, buffers: Sequence[Buffer], neighbours: Sequence[np.ndarray]) -> "Problem":
        """A conflict graph given as adjacency lists: for each buffer, the sorted
        indices of the buffers it conflicts with, symmetric and without self-loops.

        The lists are used as they are (no per-pair Python work, which matters for
        graphs with millions of edges); their shape is checked with a few numpy
        operations and a malformed graph raises :class:`PlanInputError`."""
        problem = cls(buffers, conflicts=())
        n = len(problem)
        if len(neighbours) != n:
            raise PlanInputError(f"{len(neighbours)} neighbour lists for {n} buffers")
        rows = tuple(np.asarray(row, dtype=np.int64) for row in neighbours)
        lengths = np.fromiter((row.size for row in rows), dtype=np.int64, count=n)
        targets = np.concatenate(rows) if n else np.zeros(0, dtype=np.int64)
        sources = np.repeat(np.arange(n, dtype=np.int64), lengths)
        if targets.size:
            if targets.min() < 0 or targets.max() >= n:
                raise PlanInputError(f"a neighbour list names a buffer index outside 0..{n - 1}")
            if (targets == sources).any():
                raise PlanInputError("a buffer is listed as its own neighbour")
            starts = np.cumsum(lengths) - lengths
            ordered = np.ones(targets.size, dtype=bool)
            ordered[1:] = targets[1:] > targets[:-1]
            ordered[starts[lengths > 0]] = True
            if not ordered.all():
                raise PlanInputError("neighbour lists must be sorted and free of repeats")
            # The pairs are already in (source, target) order (rows in order, each
            # sorted: checked above), so the graph is symmetric exactly when the
            # reversed pairs sorted the same way are the same sequence: one sort.
            backward = np.lexsort((sources, targets))
            if not (np.array_equal(sources, targets[backward]) and np.array_equal(targets, sources[backward])):
                raise PlanInputError("neighbour lists must be symmetric")
        problem._explicit_neighbours = rows
        return problem

    def __len__(self) -> int:
        return len(self.buffers)

    def __repr__(self) -> str:
        form = "intervals" if self.has_intervals else "conflict graph"
        return f"Problem({len(self)} buffers, {form})"

    # -- conflicts ------------------------------------------------------------------

    @cached_property
    def neighbours(self) -> tuple[np.ndarray, ...]:
        """Adjacency lists (sorted index arrays). For intervals, built by a sweep in
        O(n log n + conflicts): only buffers live when another starts are paired."""
        if self._explicit_neighbours is not None:
            return self._explicit_neighbours
        n = len(self)
        adjacency: list[list[int]] = [[] for _ in range(n)]
        live: list[tuple[int, int]] = []  # heap of (upper, index)
        live_set: set[int] = set()
        for index in np.lexsort((self.uppers, self.lowers)).tolist():
            lower = int(self.lowers[index])
            while live and live[0][0] <= lower:
                live_set.discard(heapq.heappop(live)[1])
            for other in live_set:
                adjacency[index].append(other)
                adjacency[other].append(index)
            live_set.add(index)
            heapq.heappush(live, (int(self.uppers[index]), index))
        return tuple(np.array(sorted(a), dtype=np.int64) for a in adjacency)

    def conflicts(self, a: int, b: int) -> bool:
        if self.has_intervals:
            return bool(self.lowers[a] < self.uppers[b] and self.lowers[b] < self.uppers[a])
        return bool(np.isin(b, self.neighbours[a]))

    def conflict_count(self) -> int:
        """Number of conflicting pairs, without building adjacency lists for intervals."""
        if not self.has_intervals:
            return sum(len(a) for a in self.neighbours) // 2
        started_before_end = np.searchsorted(np.sort(self.lowers), self.uppers, side="left")
        ended_by_start = np.searchsorted(np.sort(self.uppers), self.lowers, side="right")
        return int((started_before_end - ended_by_start).sum() - len(self)) // 2

    # -- cliques and bounds ---------------------------------------------------------

    @cached_property
    def time_slots(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Interval form only: the distinct start times, and each buffer's slot range
        ``[first, last)`` over them. Two buffers conflict exactly when their slot ranges
        intersect, since a lifetime intersection always contains a start time."""
        # Through sorts, not np.unique (hashes: 0.3 s on 620,000 buffers, where a
        # sort takes 0.01) nor searches for unsorted keys (a cache miss per step).
        by_lower = np.argsort(self.lowers)
        lowers = self.lowers[by_lower]
        new = np.ones(lowers.size, dtype=bool)
        new[1:] = lowers[1:] != lowers[:-1]
        starts = lowers[new]
        first = np.empty(lowers.size, dtype=np.int64)
        first[by_lower] = np.cumsum(new) - 1
        by_upper = np.argsort(self.uppers)
        last = np.empty(lowers.size, dtype=np.int64)
        last[by_upper] = np.searchsorted(starts, self.uppers[by_upper], side="left")
        return starts, first, last

    @cached_property
    def live_bytes(self) -> np.ndarray:
        """Interval form only: bytes live at each start time."""
        starts, first, last = self.time_slots
        delta = np.zeros(len(starts) + 1, dtype=np.int64)
        np.add.at(delta, first, self.sizes)
        np.add.at(delta, last, -self.sizes)
        return np.cumsum(delta)[:-1]

    @cached_property
    def cliques(self) -> tuple[np.ndarray, ...]:
        """Sets of pairwise-conflicting buffers that together cover every buffer.

        Intervals: the maximal live sets (taken at start times after which something
        ends before the next start). General graphs: greedy cliques grown from each
        uncovered buffer, largest neighbours first. Any clique's total size bounds the
        pool from below; the exact search prunes with them."""
        n = len(self)
        if n == 0:
            return ()
        if self.has_intervals:
            starts, first, last = self.time_slots
            slot_count = len(starts)
            ends_after = np.zeros(slot_count + 1, dtype=bool)
            ends_after[last] = True  # a buffer ending at slot k means the live set at k-1 is maximal
            maximal_slots = [k for k in range(slot_count) if ends_after[k + 1]]
            order = np.argsort(first, kind="stable")
            result = []
            for slot in maximal_slots:
                members = order[(first[order] <= slot) & (last[order] > slot)]
                result.append(np.sort(members))
            return tuple(result)
        covered = np.zeros(n, dtype=bool)
        neighbour_sets = [set(a.tolist()) for a in self.neighbours]
        result = []
        for seed in np.argsort(-self.sizes, kind="stable").tolist():
            if covered[seed]:
                continue
            clique = [seed]
            candidates = sorted(neighbour_sets[seed], key=lambda i: -int(self.sizes[i]))
            for candidate in candidates:
                if all(candidate in neighbour_sets[member] for member in clique):
                    clique.append(candidate)
            covered[clique] = True
            result.append(np.array(sorted(clique), dtype=np.int64))
        return tuple(result)

    def lower_bound(self) -> int:
        """A pool size no valid plan can beat.

        Intervals: the peak of live bytes over time (exact for the clique number).
        General graphs: the largest total of the greedy cliques, which is at least the
        largest single buffer; it can be far from the optimum on graphs whose cliques
        the greedy growth misses, but it is always valid."""
        if len(self) == 0:
            return 0
        if self.has_intervals:
            return int(self.live_bytes.max())
        return int(max(self.sizes[c].sum() for c in self.cliques))


def _as_buffer(index: int, item: Buffer | tuple[int, int, int], alignment: int) -> Buffer:
    if isinstance(item, Buffer):
        return item
    try:
        start, end, size = item
    except (TypeError, ValueError):
        raise PlanInputError(f"buffer {index}: expected a Buffer or a (start, end, size) tuple, got {item!r}") from None
    return Buffer(str(index), size, start, end, alignment)


@dataclass(frozen=True, init=False)
class Plan:
    """Offsets for every buffer of ``problem`` (index-aligned) and what is known of it.

    ``Plan(problem, offsets, strategy, optimal=False, stats=None)``: ``optimal`` is
    what the strategy proved; the ``optimal`` property also holds when the pool meets
    the problem's lower bound, whatever the strategy claimed. That bound is computed
    only when asked (a conflict graph's cliques cost seconds on thousands of
    buffers, which no pass that never asks should pay)."""

    problem: Problem
    offsets: np.ndarray
    strategy: str
    proven_optimal: bool
    stats: dict = field(compare=False)

    def __init__(
        self, problem: Problem, offsets: np.ndarray, strategy: str, optimal: bool = False, stats: dict | None = None
    ) -> None:
        object.__setattr__(self, "problem", problem)
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "strategy", strategy)
        object.__setattr__(self, "proven_optimal", optimal)
        object.__setattr__(self, "stats", {} if stats is None else stats)

    @property
    def optimal(self) -> bool:
        """The pool size is minimal: proven by the strategy, or at the lower bound."""
        return self.proven_optimal or self.pool_size <= self.problem.lower_bound()

    @property
    def pool_size(self) -> int:
        if len(self.offsets) == 0:
            return 0
        return int((self.offsets + self.problem.sizes).max())

    def offset_of(self, buffer_id: str) -> int:
        for index, buffer in enumerate(self.problem.buffers):
            if buffer.id == buffer_id:
                return int(self.offsets[index])
        raise KeyError(buffer_id)


def check_alignment(alignment: int) -> None:
    """A `ValueError` unless `alignment` is a positive power of two: hip-ep's rule
    for pool offsets, which memplan-opt's passes and memplan-plan both apply."""
    if isinstance(alignment, bool) or not isinstance(alignment, int) or alignment <= 0 or alignment & (alignment - 1):
        raise ValueError(f"alignment must be a positive power of 2 (got {alignment})")


def align_up(value: np.ndarray | int, alignment: np.ndarray | int):
    """Smallest multiple of ``alignment`` that is >= ``value`` (elementwise)."""
    return -(-value // alignment) * alignment
