"""Static slice packing for `layout-slices` (IREE's `stream.resource.pack`), free of IR.

A slice lives on the inclusive lifetime ``[start, end]`` and holds ``size`` bytes;
two slices whose lifetimes intersect may not share a byte. Each slice reserves its
size rounded up to the *range* alignment, starts at a multiple of the *offset*
alignment (relative to the pack's base), and the total is the highest end rounded
up to the range alignment: the rules IREE's own packer applies.

:func:`iree_greedy` is IREE's packer (slices in the given order, each in the
smallest fitting gap among the reservations its lifetime meets, else above them),
kept as one candidate so the result is never larger than IREE's; :func:`pack_static`
adds memplan's strategies (the greedy chain, then the exact search under a
deterministic work budget while above the lower bound) and keeps the smallest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memplan.lazy_numpy import np

from .exact import exact
from .greedy import greedy
from .problem import Buffer, PlanInputError, Problem, align_up
from .validate import validate_plan

__all__ = [
    "DEFAULT_EFFORT",
    "StaticLayout",
    "WorkClock",
    "iree_greedy",
    "pack_static",
    "slice_problem",
]

#: Clock reads (about one per node of the exact search) granted to a pack whose
#: greedy plans miss the lower bound; deterministic, unlike seconds.
DEFAULT_EFFORT = 200_000

#: Above these many slices the exact search is not tried (its per-node work grows
#: with the live sets; the greedy chain is already within 0.5% there).
EXACT_MAX_SLICES = 2000


class WorkClock:
    """A clock that advances one tick per read: a strategy's ``time_limit`` becomes a
    number of reads, so the same input always gives the same plan (a compiler must
    be deterministic; wall time is not)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@dataclass(frozen=True)
class StaticLayout:
    """Offsets (relative to the pack's base) and the aligned total of one pack."""

    offsets: np.ndarray
    total: int
    strategy: str
    lower_bound: int
    iree_total: int
    candidates: dict[str, int] = field(default_factory=dict)


def _arrays(starts, ends, sizes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    if not (starts.shape == ends.shape == sizes.shape):
        raise PlanInputError("starts, ends and sizes must have one entry per slice")
    bad = np.flatnonzero(ends < starts)
    if bad.size:
        i = int(bad[0])
        raise PlanInputError(f"slice {i}: lifetime [{int(starts[i])}, {int(ends[i])}] ends before it starts")
    bad = np.flatnonzero(sizes < 0)
    if bad.size:
        raise PlanInputError(f"slice {int(bad[0])}: negative size {int(sizes[bad[0]])}")
    return starts, ends, sizes


def iree_greedy(starts, ends, sizes, offset_alignment: int, range_alignment: int) -> tuple[np.ndarray, int]:
    """IREE's static packer, decision for decision: slices in the given order; the
    reservations kept sorted by offset (a new one before those at its offset); for
    each reservation whose lifetime meets the slice's, a gap from the highest end seen
    so far (aligned) to the reservation's offset that holds the slice is taken when
    it is the tightest yet (measured from the unaligned end, as IREE does); without
    one, the slice goes above everything it meets. Returns the offsets and the total.

    Vectorised per slice over the placed ones: O(n^2) array work, O(n) statements."""
    starts, ends, sizes = _arrays(starts, ends, sizes)
    n = len(sizes)
    reserved = align_up(sizes, range_alignment) if range_alignment > 1 else sizes.copy()
    offsets = np.zeros(n, dtype=np.int64)
    highwater = 0
    reserved_list = reserved.tolist()
    start_list, end_list = starts.tolist(), ends.tolist()
    for i in range(n):
        size = reserved_list[i]
        meets = np.flatnonzero((ends[:i] >= start_list[i]) & (starts[:i] <= end_list[i]))
        offset = 0
        if meets.size:
            # By offset; at equal offsets the later reservation comes first.
            order = np.lexsort((-meets, offsets[meets]))
            placed = meets[order]
            bottoms = offsets[placed]
            tops = bottoms + reserved[placed]
            seen = np.maximum.accumulate(tops)
            before = np.empty_like(seen)
            before[0] = 0
            before[1:] = np.maximum(seen[:-1], 0)
            aligned = align_up(before, offset_alignment) if offset_alignment > 1 else before
            fits = aligned + size <= bottoms
            if fits.any():
                slack = np.where(fits, bottoms - before, np.iinfo(np.int64).max)
                offset = int(aligned[int(slack.argmin())])
            else:
                top = max(int(seen[-1]), 0)
                offset = int(align_up(top, offset_alignment)) if offset_alignment > 1 else top
        offsets[i] = offset
        highwater = max(highwater, offset + size)
    total = int(align_up(highwater, range_alignment)) if range_alignment > 1 else highwater
    return offsets, total


def slice_problem(starts, ends, sizes, offset_alignment: int, range_alignment: int) -> Problem:
    """The pack as a planning problem: lifetimes ``[start, end + 1)``, sizes rounded
    up to the range alignment, offsets multiples of the offset alignment."""
    starts, ends, sizes = _arrays(starts, ends, sizes)
    reserved = align_up(sizes, range_alignment) if range_alignment > 1 else sizes
    return Problem(
        [
            Buffer(str(i), size, start, end + 1, offset_alignment)
            for i, (start, end, size) in enumerate(zip(starts.tolist(), ends.tolist(), reserved.tolist()))
        ]
    )


def pack_static(
    starts,
    ends,
    sizes,
    offset_alignment: int,
    range_alignment: int,
    *,
    effort: int = DEFAULT_EFFORT,
) -> StaticLayout:
    """The smallest of IREE's greedy, memplan's greedy chain and (while above the
    lower bound, on at most :data:`EXACT_MAX_SLICES` slices) the exact search given
    ``effort`` clock reads. The chosen plan is validated."""
    starts, ends, sizes = _arrays(starts, ends, sizes)
    iree_offsets, iree_total = iree_greedy(starts, ends, sizes, offset_alignment, range_alignment)
    problem = slice_problem(starts, ends, sizes, offset_alignment, range_alignment)
    bound = int(align_up(problem.lower_bound(), range_alignment)) if range_alignment > 1 else problem.lower_bound()

    def aligned_total(offsets: np.ndarray) -> int:
        if offsets.size == 0:
            return 0
        top = int((offsets + problem.sizes).max())
        return int(align_up(top, range_alignment)) if range_alignment > 1 else top

    candidates = {"iree-greedy": iree_total}
    best_offsets, best_total, best_name = iree_offsets, iree_total, "iree-greedy"
    if len(problem) and best_total > bound:
        plan = greedy(problem)
        total = aligned_total(plan.offsets)
        candidates[plan.strategy] = total
        if total < best_total:
            best_offsets, best_total, best_name = plan.offsets, total, plan.strategy
        if best_total > bound and len(problem) <= EXACT_MAX_SLICES and effort > 0:
            plan = exact(problem, time_limit=float(effort), clock=WorkClock(), initial=plan)
            total = aligned_total(plan.offsets)
            candidates["exact"] = total
            if total < best_total:
                best_offsets, best_total, best_name = plan.offsets, total, "exact"
    validate_plan(problem, best_offsets)
    return StaticLayout(np.asarray(best_offsets, dtype=np.int64), best_total, best_name, bound, iree_total, candidates)
