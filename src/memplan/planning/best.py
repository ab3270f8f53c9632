"""Best-effort planning: greedy, a second pass, other orders, then local search.

It starts from :func:`~memplan.planning.greedy.greedy`'s plan and its second pass
(best fit in the plan's offset order with the buffers above the lower bound first:
S_1 1.0023 -> 1.0013). When greedy was cheap against the budget it also tries best
fit in each named order (size, breadth, lifetime, area) and the skyline under the
other preorders.

Best fit depends only on the order it places buffers in, so the search works on
orders. It starts from the best plan's offset order and repeats: move a few of the
buffers that end above the lower bound (plus, now and then, a random one) ahead in
the order, and replan by best fit from the first moved position on, keeping the
plan of the buffers before it; keep the new order if (pool, bytes above the bound)
is no larger (accepting equal ones lets the search drift across plateaus). Buffers
placed early sit low and are packed around by everything else, which is what the
culprits need. It stops at the time budget, or once the pool reaches the lower
bound (or a requested capacity).

On problems small enough for the exact search (at most :data:`SEARCH_MAX_BUFFERS`
buffers and :data:`~memplan.planning.search.MAX_SEARCH_CONFLICTS` conflicting pairs),
the order search gets a third of the budget and the rest goes to short runs of the
exact search at capacities between the lower bound and the best pool so far,
halving the gap after each success. A capacity well above the optimum is usually
found in a few hundred nodes, where the order search stalls.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from memplan.lazy_numpy import np

from .search import MAX_SEARCH_CONFLICTS, capacity_ladder
from .greedy import (
    ORDERS,
    PREORDERS,
    SKYLINE_MAX_BUFFERS,
    buffer_order,
    greedy,
    place_in_order,
    second_pass,
    skyline_offsets,
)
from .problem import Clock, Plan, Problem, Progress, no_progress
from .validate import validate_plan

#: Largest problem on which best also runs short exact searches.
SEARCH_MAX_BUFFERS = 2000

#: best tries the other named orders and skyline preorders only when greedy took
#: less than this fraction of the budget.
CHEAP_START = 0.05

#: At most this many culprits move in one round of the order search.
MAX_MOVED = 4

#: Time kept back per buffer for the final validation (S_1: 0.05-0.08 s for 28,526
#: buffers), so best returns within its budget.
VALIDATION_SECONDS_PER_BUFFER = 3e-6

#: Share of the order search's moves that send the culprits to a uniformly random
#: earlier position (the rest move a log-uniform distance, mostly short and cheap).
DEEP_MOVES = 0.5


def _pool(problem: Problem, offsets: np.ndarray) -> int:
    return int((offsets + problem.sizes).max()) if len(problem) else 0


@dataclass
class _SearchResult:
    offsets: np.ndarray
    pool: int
    rounds: int
    improvements: int
    replanned: int


def _order_search(
    problem: Problem,
    offsets: np.ndarray,
    goal: int,
    deadline: float,
    rng: np.random.Generator,
    seconds_per_buffer: float,
    clock: Clock = time.monotonic,
) -> _SearchResult:
    """Local search over best-fit orders, starting from the plan ``offsets``.

    The order starts as the plan's buffers by offset (any valid plan of a prefix can
    be kept while the rest is replanned). Each round moves a few of the buffers that
    end above the lower bound (the culprits), plus a random one now and then, ahead
    (half the time to a uniformly random earlier position, else by a log-uniform
    distance) and replans by best fit from the first moved position only, which
    costs in proportion to the buffers after it. The new plan is kept when it is no
    worse by (pool, bytes above the bound summed over buffers); equal pools are
    accepted so the search drifts across plateaus, and the second key rewards moves
    that lower the other culprits.

    A replan costs about ``seconds_per_buffer`` (updated as replans are timed) per
    buffer replanned; moves are kept shallow enough to finish by ``deadline``."""
    n = len(problem)
    sizes = problem.sizes
    lower = problem.lower_bound()

    def score(plan: np.ndarray) -> tuple[int, int]:
        ends = plan + sizes
        return int(ends.max()), int(np.maximum(ends - lower, 0).sum())

    order = np.lexsort((-sizes, offsets))
    current = score(offsets)
    rounds = improvements = replanned = 0
    while current[0] > goal:
        # Replanning from position ``lowest`` on is what the time left allows, with a
        # margin: late in the order more conflicting buffers are placed, and a
        # buffer costs up to twice the average of a full pass (S_1: 70-190 us).
        lowest = n - int((deadline - clock()) / (2 * seconds_per_buffer))
        position = np.empty(n, dtype=np.int64)
        position[order] = np.arange(n)
        ends = offsets + sizes
        above = np.flatnonzero(ends > lower)
        if above.size == 0:
            above = np.argsort(-ends)[: max(1, n // 50)]
        above = above[position[above] > lowest]
        if above.size == 0:
            break
        rounds += 1
        take = int(rng.integers(1, min(above.size, MAX_MOVED) + 1))
        moved = rng.choice(above, size=take, replace=False)
        if rng.random() < 0.25:
            moved = np.union1d(moved, order[rng.integers(max(lowest, 0), n, size=1)])
        if rng.random() < DEEP_MOVES:
            target = (rng.random(moved.size) * position[moved]).astype(np.int64)
        else:
            distance = np.exp(rng.uniform(0.0, np.log(n), moved.size)).astype(np.int64)
            target = np.maximum(position[moved] - distance, 0)
        target = np.maximum(target, lowest)
        keys = position.astype(np.float64)
        keys[moved] = target - 0.5
        candidate = np.argsort(keys, kind="stable")
        keep = int(target.min())
        replanned += n - keep
        replan_start = clock()
        placed = place_in_order(problem, candidate, keep=keep, offsets=offsets)
        if n > keep:
            seconds_per_buffer = max(seconds_per_buffer * 0.5, (clock() - replan_start) / (n - keep))
        outcome = score(placed)
        if outcome <= current:
            if outcome[0] < current[0]:
                improvements += 1
            order, offsets, current = candidate, placed, outcome
    return _SearchResult(offsets, current[0], rounds, improvements, replanned)


def best(
    problem: Problem,
    *,
    capacity: int | None = None,
    time_limit: float = 3.0,
    seed: int = 0,
    progress: Progress = no_progress,
    clock: Clock = time.monotonic,
) -> Plan:
    """Smallest pool found within about ``time_limit`` seconds (of ``clock``); never worse than
    :func:`~memplan.planning.greedy.greedy`, which (with its second pass) always runs
    to completion. The plan is validated. It stops early once the pool is at most
    ``capacity`` (or the lower bound); ``seed`` drives the random moves;
    ``progress`` is called with the best pool size so far each time it
    shrinks."""
    started = clock()
    deadline = started + time_limit
    lower = problem.lower_bound()
    goal = lower if capacity is None else max(lower, capacity)
    # Start from what greedy returns, so best is never worse than greedy.
    start = greedy(problem, progress=progress)
    greedy_seconds = clock() - started
    best_offsets, best_pool, best_name = start.offsets, start.pool_size, start.strategy
    # A best-fit pass over all buffers: the order search's replans cost about this
    # much per buffer replanned.
    seconds_per_buffer = greedy_seconds / max(len(problem), 1)
    if best_pool > goal:
        second_start = clock()
        second = second_pass(start)
        seconds_per_buffer = max(seconds_per_buffer, (clock() - second_start) / len(problem))
        if second.pool_size < best_pool:
            best_offsets, best_pool, best_name = second.offsets, second.pool_size, second.strategy
            progress(best_pool)
    # The other constructions only when greedy was cheap against the budget: on large
    # traces (S_1: 1.0-1.7 s a construction) the time is better spent on the order
    # search. On conflict graphs the skyline runs up to SKYLINE_MAX_BUFFERS, as in
    # greedy.
    if greedy_seconds < time_limit * CHEAP_START:
        for name in ORDERS:
            if best_pool <= goal or clock() > deadline:
                break
            offsets = place_in_order(problem, buffer_order(problem, name))
            pool = _pool(problem, offsets)
            if pool < best_pool:
                best_offsets, best_pool, best_name = offsets, pool, f"greedy:{name}"
                progress(best_pool)
        small_enough = problem.has_intervals or len(problem) <= SKYLINE_MAX_BUFFERS
        if small_enough:
            for preorder in PREORDERS[:-1]:
                if best_pool <= goal or clock() > deadline:
                    break
                offsets = skyline_offsets(problem, preorder)
                pool = _pool(problem, offsets)
                if pool < best_pool:
                    best_offsets, best_pool, best_name = offsets, pool, f"skyline:{preorder}"
                    progress(best_pool)
    n = len(problem)
    rounds = improvements = searches = replanned = 0
    searchable = n <= SEARCH_MAX_BUFFERS and problem.conflict_count() <= MAX_SEARCH_CONFLICTS
    order_deadline = started + time_limit / 3 if searchable else deadline - VALIDATION_SECONDS_PER_BUFFER * n
    if best_pool > goal and n > 1 and clock() < order_deadline:
        rng = np.random.default_rng(seed)
        searched = _order_search(problem, best_offsets, goal, order_deadline, rng, seconds_per_buffer, clock)
        rounds, replanned = searched.rounds, searched.replanned
        if searched.pool < best_pool:
            improvements += searched.improvements
            best_offsets, best_pool = searched.offsets, searched.pool
            progress(best_pool)
    if searchable:
        laddered, searches = capacity_ladder(problem, best_offsets, goal, deadline, clock=clock, progress=progress)
        if _pool(problem, laddered) < best_pool:
            improvements += 1
            best_offsets, best_pool = laddered, _pool(problem, laddered)
    validate_plan(problem, best_offsets)
    stats = {
        "searches": searches,
        "replanned": replanned,
        "start_order": best_name,
        "rounds": rounds,
        "improvements": improvements,
        "seconds": clock() - started,
    }
    return Plan(problem, best_offsets, "best", optimal=best_pool == lower, stats=stats)
