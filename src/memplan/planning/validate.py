"""Independent check of a plan: every strategy's result passes through here.

The check shares no code with the strategies, so a bug in a planner's bookkeeping
shows up as an error here rather than as two tensors silently sharing bytes.
"""

from __future__ import annotations

import bisect

from memplan.lazy_numpy import np

from .problem import Problem


_EDGES_PER_CHECK = 1 << 20
"""Conflict-graph edges checked per numpy call (bounds the temporary arrays)."""


class PlanValidationError(ValueError):
    """A plan places two conflicting buffers on common bytes, misaligns one, or
    exceeds the capacity it was asked to respect."""


def validate_plan(problem: Problem, offsets: np.ndarray, capacity: int | None = None) -> None:
    """Raise :class:`PlanValidationError` unless ``offsets`` is a valid plan.

    Interval problems are checked by a sweep over time that keeps the byte ranges of
    live buffers in an offset-sorted list: a new range only has to be compared with its
    two neighbours there, so the check costs O(n log n) comparisons (plus list moves)
    instead of one per conflicting pair. Conflict graphs are checked edge by edge.
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    sizes = problem.sizes
    if offsets.shape != (len(problem),):
        raise PlanValidationError(f"plan has {offsets.size} offsets for {len(problem)} buffers")
    buffers = problem.buffers
    negative = np.flatnonzero(offsets < 0)
    if negative.size:
        i = int(negative[0])
        raise PlanValidationError(f"buffer {buffers[i].id}: negative offset {int(offsets[i])}")
    misaligned = np.flatnonzero(offsets % problem.alignments != 0)
    if misaligned.size:
        i = int(misaligned[0])
        raise PlanValidationError(
            f"buffer {buffers[i].id}: offset {int(offsets[i])} is not a multiple of its alignment "
            f"{int(problem.alignments[i])}"
        )
    ends = offsets + sizes
    if capacity is not None and len(problem) and int(ends.max()) > capacity:
        i = int(np.argmax(ends))
        raise PlanValidationError(
            f"buffer {buffers[i].id}: ends at byte {int(ends[i])}, beyond the capacity {capacity}"
        )

    def overlap_error(a: int, b: int) -> PlanValidationError:
        return PlanValidationError(
            f"buffers {buffers[a].id} and {buffers[b].id} conflict but share bytes: "
            f"[{int(offsets[a])}, {int(ends[a])}) and [{int(offsets[b])}, {int(ends[b])})"
        )

    if not problem.has_intervals:
        # Edge by edge in bulk, rows in chunks of about _EDGES_PER_CHECK edges (a
        # numpy call per buffer costs more than its check); the first clash in row
        # order is the one a row-by-row loop would report.
        rows = problem.neighbours
        row = 0
        while row < len(rows):
            stop, edges = row + 1, rows[row].size
            while stop < len(rows) and edges + rows[stop].size <= _EDGES_PER_CHECK:
                edges += rows[stop].size
                stop += 1
            if edges:
                lengths = np.fromiter((r.size for r in rows[row:stop]), dtype=np.int64, count=stop - row)
                a = np.repeat(np.arange(row, stop, dtype=np.int64), lengths)
                b = np.concatenate(rows[row:stop])
                clash = (sizes[a] > 0) & (offsets[b] < ends[a]) & (ends[b] > offsets[a]) & (sizes[b] > 0)
                if clash.any():
                    k = int(np.argmax(clash))
                    raise overlap_error(int(a[k]), int(b[k]))
            row = stop
        return

    # Events sorted by time; at equal times ends come first (lifetimes are half-open):
    # the ends are listed first and the sort is stable.
    occupied = np.flatnonzero(sizes > 0)
    times = np.concatenate([problem.uppers[occupied], problem.lowers[occupied]])
    order = np.argsort(times, kind="stable")
    who = np.concatenate([occupied, occupied])[order]
    starting = (order >= occupied.size).tolist()
    # A live range is kept as one int, offset * count + buffer: unique, so a range
    # is found by one bisection, and read in event order (no lookups per buffer).
    count = len(problem)
    keys = [offset * count + index for offset, index in zip(offsets[who].tolist(), who.tolist())]
    end_list = ends.tolist()
    live: list[int] = []  # keys of the live ranges, sorted; disjoint while valid so far
    for key, is_start in zip(keys, starting):
        position = bisect.bisect_left(live, key)
        if not is_start:
            del live[position]
            continue
        index = key % count
        if position > 0 and end_list[live[position - 1] % count] > key // count:
            raise overlap_error(live[position - 1] % count, index)
        if position < len(live) and live[position] // count < end_list[index]:
            raise overlap_error(live[position] % count, index)
        live.insert(position, key)
