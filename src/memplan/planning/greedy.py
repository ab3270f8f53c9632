"""Greedy offset planning: no decision is ever undone.

Best fit is the TFLite "greedy by size" / XLA "global decreasing size best fit"
family: take buffers largest first; for each, look at the already placed buffers it
conflicts with, and put it in the smallest gap between them that holds it (lowest
offset on ties), or on top of them when no gap does.

The skyline construction (:func:`skyline_offsets`) builds bottom up instead, always
on the lowest floor, as the exact search's first descent does. It is much better on
MiniMalloc-style instances and on most traces; the default :func:`greedy` runs it
first and adds best fit (by breadth, with a second pass that puts the buffers the
first left above the bound first; then by size) while the pool is not within 0.5%
of the bound.

Cost: best fit compares each buffer against the placed buffers it conflicts with;
for interval problems those come from a stabbing index and vectorised numpy masks,
so the Python work is O(n) statements and the array work is O(sum of conflicts).
The skyline keeps groups of equal floor in a heap: O(n log n) Python work, array
work proportional to the floors it raises (at most the conflicting pairs). S_1
(28,526 buffers, 43 million conflicting pairs) takes about a second either way.
"""

from __future__ import annotations

import time
import heapq
import weakref
from collections.abc import Sequence

from memplan.lazy_numpy import np

from .problem import Plan, Problem, Progress, align_up, no_progress
from .validate import validate_plan

#: Orders :func:`greedy` knows by name; see :func:`buffer_order`.
ORDERS = ("size", "breadth", "lifetime", "area")

#: Static tie-break orders of the bottom-up (skyline) construction and of the exact
#: search, MiniMalloc's names: W = lifetime width (degree for conflict graphs),
#: A = area (size x width), T = bytes live at the buffer's busiest moment; descending.
PREORDERS = ("WAT", "TAW", "TWA")

#: Above these many buffers the default greedy skips the skyline construction on
#: conflict graphs (it needs the adjacency lists), and on intervals it runs the
#: large-problem chain (:data:`AUTO_LARGE_CHAIN`): one best-fit pass costs there
#: about what the skyline does, and there is time for two constructions at most.
SKYLINE_MAX_BUFFERS = 2000
SKYLINE_MAX_INTERVAL_BUFFERS = 40000

#: The default greedy stops after the skyline construction when its pool is within
#: this factor of the lower bound; otherwise it goes on down its chain of
#: constructions, stopping at the first that gets there, and keeps the best.
GOOD_ENOUGH = 1.005

#: The default greedy's constructions, in the order tried (see :func:`greedy`).
#: Skyline first (best on the challenging set, S_1, resnet50, G_1); then best fit by
#: breadth and its second pass (PanGu: 1.0076 -> 1.0000); best fit by size last.
AUTO_INTERVAL_CHAIN = ("skyline", "breadth+", "size")
AUTO_GRAPH_CHAIN = ("size", "skyline")
AUTO_LARGE_CHAIN = ("skyline", "size")


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


def preorder_ranks(problem: Problem, name: str) -> np.ndarray:
    """Rank of each buffer in a MiniMalloc static preorder (0 = first)."""
    if problem.has_intervals:
        width = problem.uppers - problem.lowers
    else:
        width = np.fromiter((len(a) for a in problem.neighbours), dtype=np.int64, count=len(problem))
    area = problem.sizes * width
    total = peak_live_bytes(problem)
    keys = {"W": width, "A": area, "T": total}
    if sorted(name) != ["A", "T", "W"]:
        raise ValueError(f"unknown preorder {name!r}; expected one of {', '.join(PREORDERS)}")
    # np.lexsort sorts by the last key first.
    order = np.lexsort(tuple(-keys[letter] for letter in reversed(name)))
    rank = np.empty(len(problem), dtype=np.int64)
    rank[order] = np.arange(len(problem))
    return rank


def skyline_offsets(problem: Problem, preorder: str = "TWA") -> np.ndarray:
    """Bottom-up construction: repeatedly take the buffer with the lowest floor (the
    highest end among its placed conflicting buffers), ties by ``preorder``, and put
    it on that floor. It is the exact search's first descent without a capacity;
    nothing is undone. On MiniMalloc-style instances it packs far tighter than best
    fit by size (best fit leaves holes that nothing later fits).

    A placement ending at ``end`` raises the floors of the waiting buffers it
    conflicts with (found through the stabbing index for intervals, the adjacency
    lists for graphs) to exactly ``end``, so they form one *group* of equal floor,
    kept sorted by rank. A heap holds each group under (its floor, the rank of its
    first member that may still be valid); a member goes stale when it is placed or
    raised again, never valid again, so the group's pointer only moves forward
    (galloping over stale members). The lowest (floor, rank) is the heap's top once
    stale entries are skipped: O(log n) per step instead of a minimum over all
    buffers, plus vector work proportional to the floors raised."""
    n = len(problem)
    # Groups hold ranks, so ordering one by rank is a value sort of int32 (a tenth
    # of an argsort and gather). Each buffer's latest group (-1 once placed) tells
    # whether a group's entry for it is still valid: int32, half the bytes of a floor.
    rank = preorder_ranks(problem, preorder).astype(np.int32)
    by_rank = np.argsort(rank)
    sizes = problem.sizes[by_rank]
    size_list = sizes.tolist()
    alignment_list = problem.alignments[by_rank].tolist()
    offsets = np.zeros(n, dtype=np.int64)
    latest = np.where(sizes > 0, 0, -1).astype(np.int32)
    if problem.has_intervals:
        raised = _interval_raiser(problem, rank, by_rank, sizes)
    else:
        raised = _graph_raiser(problem, rank, by_rank, sizes)
    groups = [np.flatnonzero(sizes > 0).astype(np.int32)]
    exhausted = groups[0][:0].copy()  # not a view: a view would keep its group alive
    pointers = [0]
    heap = [(0, int(groups[0][0]), 0)] if groups[0].size else []
    while heap:
        height, index, group = heapq.heappop(heap)
        members = groups[group]
        if latest[index] == group:
            offset = height
            if alignment_list[index] > 1:
                offset = int(align_up(offset, alignment_list[index]))
            offsets[index] = offset
            end = offset + size_list[index]
            latest[index] = -1
            around = raised(index, end)
            if around.size:
                latest[around] = len(groups)
                groups.append(around)
                pointers.append(0)
                heapq.heappush(heap, (end, int(around[0]), len(groups) - 1))
        # The group's next member still valid: look 8, 64, 512, ... members ahead,
        # so a long run of stale members costs a few vector calls.
        at, width = pointers[group] + 1, 8
        while at < members.size:
            ahead = members[at : at + width]
            valid = latest[ahead] == group
            first_valid = int(valid.argmax())
            if valid[first_valid]:
                pointers[group] = at + first_valid
                heapq.heappush(heap, (height, int(ahead[first_valid]), group))
                break
            at, width = at + width, width * 8
        else:
            groups[group] = exhausted
    result = np.empty(n, dtype=np.int64)
    result[by_rank] = offsets
    return result


def _interval_raiser(problem: Problem, rank: np.ndarray, by_rank: np.ndarray, sizes: np.ndarray):
    """For the skyline on intervals: ``raised(r, end)`` marks the buffer of rank ``r``
    placed and returns the sorted ranks of the waiting buffers it conflicts with whose
    floor is below ``end``, now raised to it.

    Floors are kept by start position (the stabbing index's numbering), where a
    buffer's later starters are one contiguous slice and its live set is read from
    a region of one moment's buffers: no gathers over the whole trace. A boundary's
    list is compacted to the waiting buffers whenever half of those it lists are
    placed (O(log n) compactions in all)."""
    index = _stabbing_index(problem)
    by_first = index.by_first
    # Floor of each buffer by start position; -1 once placed (or empty: never
    # waiting). As unsigned, -1 is above every end, so one comparison asks both.
    floor = np.where(problem.sizes[by_first] > 0, 0, -1).astype(np.int64)
    unsigned_floor = floor.view(np.uint64)
    rank_by_position = rank[by_first]
    position_list = index.position[by_rank].tolist()
    first_list, last = index.first_list, index.last
    high_list, block_low = index.high_list, index.block_low
    live_lists = list(index.live_at_boundary)
    waiting = listed = int((sizes > 0).sum())

    def raised(r: int, end: int) -> np.ndarray:
        nonlocal waiting, listed
        position = position_list[r]
        floor[position] = -1
        waiting -= 1
        if 2 * waiting < listed:
            live_lists[:] = [members[floor[members] >= 0] for members in live_lists]
            listed = waiting
        start = first_list[position]
        block = position // _BLOCK_STARTS
        low, high = block_low[block], high_list[position]
        earlier = live_lists[block]
        hit = earlier[(last[earlier] > start) & (unsigned_floor[earlier] < end)]
        later = np.flatnonzero((last[low:high] > start) & (unsigned_floor[low:high] < end))
        later += low
        if hit.size:
            later = np.concatenate((hit, later))
        floor[later] = end
        ranks = rank_by_position[later]
        ranks.sort()
        return ranks

    return raised


def _graph_raiser(problem: Problem, rank: np.ndarray, by_rank: np.ndarray, sizes: np.ndarray):
    """For the skyline on conflict graphs: as :func:`_interval_raiser`, through the
    adjacency lists (renumbered by rank)."""
    neighbours = [rank[problem.neighbours[original]] for original in by_rank.tolist()]
    floor = np.where(sizes > 0, 0, -1).astype(np.int64)
    unsigned_floor = floor.view(np.uint64)

    def raised(r: int, end: int) -> np.ndarray:
        floor[r] = -1
        around = neighbours[r]
        around = around[unsigned_floor[around] < end]
        floor[around] = end
        around.sort()
        return around

    return raised


_NO_ROOM = 2**63 - 1  # the largest int64 (a module constant may not load numpy)


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
    room[room < size] = _NO_ROOM
    smallest = int(room.argmin())
    if room[smallest] != _NO_ROOM:
        return int(gap_starts[smallest])
    return int(align_up(top, alignment)) if alignment > 1 else top


def _best_gap_of_lists(offsets: list[int], ends: list[int], size: int, alignment: int) -> int:
    """`_best_gap` of ranges given as lists (sorted here, in place): the same answer,
    a tenth of the time for the few ranges a buffer of a conflict graph meets."""
    if not offsets:
        return 0
    offsets.sort()
    ends.sort()
    best = best_room = None
    gap_start = 0
    for start, end in zip(offsets, ends):
        if alignment > 1:
            gap_start = align_up(gap_start, alignment)
        room = start - gap_start
        if room >= size and (best_room is None or room < best_room):
            best, best_room = gap_start, room
        gap_start = end
    if best is not None:
        return best
    top = ends[-1]
    return align_up(top, alignment) if alignment > 1 else top


_INDEXES: weakref.WeakKeyDictionary[Problem, _StabbingIndex] = weakref.WeakKeyDictionary()


def _stabbing_index(problem: Problem) -> _StabbingIndex:
    """The problem's stabbing index, built once (order searches replan many times)."""
    index = _INDEXES.get(problem)
    if index is None:
        _, first, last = problem.time_slots
        index = _INDEXES[problem] = _StabbingIndex(first, last)
    return index


#: Starts per block of the stabbing index (see :class:`_StabbingIndex`).
_BLOCK_STARTS = 256


class _StabbingIndex:
    """Finds the buffers whose slot ranges intersect a buffer's ``[first, last)``,
    with buffers numbered by *position* in start order.

    Those are the buffers live at ``first`` plus those starting inside the range.
    Positions are cut into blocks of ``_BLOCK_STARTS`` starts; a block's boundary is
    the slot of its first start. The buffers started before the boundary and live
    after it are listed per block (one sweep builds all lists); every other
    candidate starts between the boundary and ``last``: one contiguous slice of
    positions, ``[block_low[block], high_list[position])``. A query thus reads one
    moment's live set plus its buffer's later starters (at most a block's starts
    and equal starts more), however long the trace, and per-position state arrays
    are read by slices, not gathered over the whole trace. Candidates still have to
    be checked to be live at ``first`` (``last > first``)."""

    def __init__(self, first: np.ndarray, last: np.ndarray):
        self.by_first = np.argsort(first, kind="stable")
        self.position = np.empty_like(self.by_first)
        self.position[self.by_first] = np.arange(self.by_first.size)
        sorted_first = first[self.by_first]
        # int32 slots: half the bytes of every liveness check.
        self.last = last[self.by_first].astype(np.int32)
        self.first_list = sorted_first.tolist()
        self.high_list = np.searchsorted(sorted_first, self.last, side="left").tolist()
        boundaries = sorted_first[::_BLOCK_STARTS]
        lows = np.searchsorted(sorted_first, boundaries, side="left")
        self.block_low = lows.tolist()
        self.live_at_boundary: list[np.ndarray] = []
        live = np.zeros(0, dtype=np.int64)
        previous = 0
        for boundary, low in zip(boundaries.tolist(), self.block_low):
            live = np.concatenate((live, np.arange(previous, low)))
            live = live[self.last[live] > boundary]
            previous = low
            self.live_at_boundary.append(live)

    def around(self, position: int) -> tuple[np.ndarray, int, int]:
        """The listed earlier starters and the slice ``[low, high)`` for the buffer
        at ``position``."""
        block = position // _BLOCK_STARTS
        return self.live_at_boundary[block], self.block_low[block], self.high_list[position]


def second_pass_order(problem: Problem, offsets: np.ndarray) -> np.ndarray:
    """The buffers of the plan ``offsets`` by offset (larger first on ties), with
    those that end above the lower bound moved to the front.

    Best fit in a plan's own offset order never puts a buffer higher than the plan
    did (the buffers before it that it conflicts with all end at or below its old
    offset, so it goes into a gap below them or on top of them), so this order keeps
    what the plan got right and gives the buffers it had to stack above the bound the
    first choice of room; the rest packs around them. PanGu by breadth: three 20 MB buffers
    just after the peak, R 1.0076 -> 1.0000; S_1's skyline: 1.0023 -> 1.0013. One
    fixed extra pass, not a search: nothing is undone within a pass."""
    by_offset = np.lexsort((-problem.sizes, offsets))
    above = (offsets + problem.sizes)[by_offset] > problem.lower_bound()
    return np.concatenate((by_offset[above], by_offset[~above]))


def place_in_order(
    problem: Problem,
    order: Sequence[int] | np.ndarray,
    *,
    keep: int = 0,
    offsets: np.ndarray | None = None,
) -> np.ndarray:
    """Offsets from placing buffers one by one in ``order`` by best fit.

    With ``keep`` and ``offsets``, the first ``keep`` buffers of ``order`` stay where
    ``offsets`` puts them (which must be valid among themselves) and only the rest is
    placed: best fit of an order whose first ``keep`` buffers are unchanged gives the
    same prefix, so an order search replans only from the first buffer it moved."""
    n = len(problem)
    sizes = problem.sizes
    order = np.asarray(order, dtype=np.int64)
    placed = np.zeros(n, dtype=bool)
    placed[order[:keep]] = True
    offsets = np.zeros(n, dtype=np.int64) if offsets is None else np.where(placed, offsets, 0)
    rest = order[keep:]
    rest = rest[sizes[rest] > 0]  # empty buffers hold no bytes: offset 0 is always valid
    if problem.has_intervals:
        return _place_intervals_in_order(problem, rest, offsets, placed)
    # In lists: a buffer of a program's conflict graph has a few dozen neighbours,
    # where numpy's cost per call is most of the work (`_best_gap_of_lists`).
    offset_list = offsets.tolist()
    end_list = (offsets + sizes).tolist()
    placed_list = placed.tolist()
    size_list = sizes.tolist()
    alignment_list = problem.alignments.tolist()
    neighbours = problem.neighbours
    for buffer in rest.tolist():
        around = [j for j in neighbours[buffer].tolist() if placed_list[j]]
        size = size_list[buffer]
        offset = _best_gap_of_lists(
            [offset_list[j] for j in around], [end_list[j] for j in around], size,
            alignment_list[buffer],
        )
        offset_list[buffer] = offset
        end_list[buffer] = offset + size
        placed_list[buffer] = True
    return np.array(offset_list, dtype=np.int64)


def _place_intervals_in_order(problem: Problem, rest: np.ndarray, offsets: np.ndarray, placed: np.ndarray) -> np.ndarray:
    """:func:`place_in_order` on intervals: the buffers of ``rest`` by best fit among
    the ``placed`` ones, with the state kept by start position so that a buffer's
    later starters are a slice (see :class:`_StabbingIndex`)."""
    index = _stabbing_index(problem)
    by_first = index.by_first
    sizes = problem.sizes[by_first]
    size_list = sizes.tolist()
    alignment_list = problem.alignments[by_first].tolist()
    start_list = index.first_list
    # The last slot of each placed buffer, -1 for the others: one comparison tells
    # both whether a buffer is placed and whether it is still live at a start.
    placed_last = np.where(placed[by_first], index.last, -1)
    bottoms = offsets[by_first]
    tops = bottoms + sizes
    for position in index.position[rest].tolist():
        earlier, low, high = index.around(position)
        start = start_list[position]
        earlier = earlier[placed_last[earlier] > start]
        later = placed_last[low:high] > start
        size = size_list[position]
        offset = _best_gap(
            np.concatenate((bottoms[earlier], bottoms[low:high][later])),
            np.concatenate((tops[earlier], tops[low:high][later])),
            size,
            alignment_list[position],
        )
        bottoms[position] = offset
        tops[position] = offset + size
        placed_last[position] = index.last[position]
    result = np.empty_like(bottoms)
    result[by_first] = bottoms
    return result


def second_pass(plan: Plan) -> Plan:
    """``plan``, or best fit in :func:`second_pass_order` when that is smaller."""
    problem = plan.problem
    if plan.pool_size <= problem.lower_bound():
        return plan
    offsets = place_in_order(problem, second_pass_order(problem, plan.offsets))
    validate_plan(problem, offsets)
    second = Plan(problem, offsets, f"{plan.strategy}+")
    return second if second.pool_size < plan.pool_size else plan


def greedy(
    problem: Problem,
    *,
    capacity: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    progress: Progress = no_progress,
    order: str | Sequence[int] = "auto",
) -> Plan:
    """Plan greedily and validate the plan.

    ``capacity``, ``time_limit``, ``seed`` and ``progress`` are those of
    :func:`~memplan.planning.best.best` and :func:`~memplan.planning.exact.exact`, so
    the three strategies are called alike. Greedy always finishes one construction;
    the ``"auto"`` chain starts no further one once a plan fits ``capacity`` or
    ``time_limit`` seconds have passed. It is deterministic: ``seed`` changes nothing.
    ``progress`` is called with the pool size of each construction's plan.

    ``order``:

    - ``"auto"`` (default): the constructions of :data:`AUTO_INTERVAL_CHAIN`
      (:data:`AUTO_GRAPH_CHAIN` for conflict graphs) in turn, each only while the
      best pool so far is not within :data:`GOOD_ENOUGH` of the lower bound, keeping
      the smallest pool (:data:`AUTO_LARGE_CHAIN` above
      :data:`SKYLINE_MAX_INTERVAL_BUFFERS` interval buffers; best fit by size
      alone above :data:`SKYLINE_MAX_BUFFERS` graph buffers);
    - a name from :data:`ORDERS`: best fit in that order;
    - any of these names with ``+`` (``"breadth+"``, ``"skyline+"``): that, then
      :func:`second_pass`, keeping the smaller pool;
    - ``"skyline"`` or ``"skyline:WAT"`` (any of :data:`PREORDERS`): the construction;
    - a sequence of buffer indices: best fit in that order."""
    if isinstance(order, str):
        if order == "auto":
            deadline = None if time_limit is None else time.monotonic() + time_limit
            # Intervals: the skyline first, since on large traces there is time for
            # only one construction. Conflict graphs (from programs: small, few
            # buffers live at once) keep best fit first, the TFLite/XLA behaviour.
            if not problem.has_intervals:
                if len(problem) > SKYLINE_MAX_BUFFERS:
                    return greedy(problem, order="size", progress=progress)
                chain = AUTO_GRAPH_CHAIN
            elif len(problem) > SKYLINE_MAX_INTERVAL_BUFFERS:
                chain = AUTO_LARGE_CHAIN
            else:
                chain = AUTO_INTERVAL_CHAIN
            good_enough = problem.lower_bound() * GOOD_ENOUGH
            if capacity is not None:
                good_enough = max(good_enough, capacity)
            plan = greedy(problem, order=chain[0], progress=progress)
            for name in chain[1:]:
                if plan.pool_size <= good_enough or (deadline is not None and time.monotonic() > deadline):
                    break
                plan = min((plan, greedy(problem, order=name, progress=progress)), key=lambda other: other.pool_size)
            return plan
        if order.endswith("+"):
            return _reported(second_pass(greedy(problem, order=order[:-1])), progress)
        if order == "skyline" or order.startswith("skyline:"):
            preorder = order.partition(":")[2] or "TWA"
            offsets = skyline_offsets(problem, preorder)
            validate_plan(problem, offsets)
            return _reported(Plan(problem, offsets, f"greedy:skyline:{preorder}"), progress)
        indices = buffer_order(problem, order)
        name = f"greedy:{order}"
    else:
        indices = np.asarray(order, dtype=np.int64)
        if sorted(indices.tolist()) != list(range(len(problem))):
            raise ValueError("an explicit order must list every buffer index exactly once")
        name = "greedy:custom"
    offsets = place_in_order(problem, indices)
    validate_plan(problem, offsets)
    return _reported(Plan(problem, offsets, name), progress)


def _reported(plan: Plan, progress: Progress) -> Plan:
    """``plan``, after telling ``progress`` its pool size."""
    progress(plan.pool_size)
    return plan
