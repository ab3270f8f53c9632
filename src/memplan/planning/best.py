"""Best-effort planning: several greedy orders, then local search over the order.

Best fit depends only on the order it places buffers in, so the search works on
orders. It starts from the best of the named orders (size, breadth, lifetime, area)
and the skyline construction (under each MiniMalloc preorder, as the budget allows),
then repeats on the best order: take the buffers that end highest in the current plan
(the ones that make the pool larger than the lower bound), move some of them, plus a
few random others, to the front of the order, and replan; keep the new order if the
pool is no larger (accepting equal ones lets the search drift across plateaus). Buffers
placed early sit low and are packed around by everything else, which is what the
culprits need. It stops at the time budget, or once the pool reaches the lower bound
(or a requested capacity).

On problems small enough for the exact search (at most :data:`SEARCH_MAX_BUFFERS`
buffers and :data:`~memplan.planning.exact.MAX_SEARCH_CONFLICTS` conflicting pairs),
the order search gets a third of the budget and the rest goes to short runs of the
exact search at capacities between the lower bound and the best pool so far,
halving the gap after each success. A capacity well above the optimum is usually
found in a few hundred nodes, where the order search stalls.
"""

from __future__ import annotations

import time

import numpy as np

from .exact import MAX_SEARCH_CONFLICTS, fits_within
from .greedy import (
    ORDERS,
    greedy,
    PREORDERS,
    SKYLINE_MAX_BUFFERS,
    skyline_keys_fit,
    buffer_order,
    place_in_order,
    skyline_offsets,
)
from .problem import Plan, Problem
from .validate import validate_plan


#: Largest problem on which best also runs short exact searches.
SEARCH_MAX_BUFFERS = 2000


def _pool(problem: Problem, offsets: np.ndarray) -> int:
    return int((offsets + problem.sizes).max()) if len(problem) else 0


def best(
    problem: Problem,
    time_limit: float = 3.0,
    *,
    capacity: int | None = None,
    seed: int = 0,
) -> Plan:
    """Smallest pool found within ``time_limit`` seconds (at least every named order is
    tried once). The plan is validated."""
    started = time.monotonic()
    deadline = started + time_limit
    lower = problem.lower_bound()
    goal = lower if capacity is None else max(lower, capacity)
    # Start from what greedy returns, so best is never worse than greedy.
    start = greedy(problem)
    best_offsets, best_pool, best_name = start.offsets, start.pool_size, start.strategy
    best_order = None
    order_offsets = None
    order_pool = None
    for name in ORDERS:
        if best_pool <= goal or (order_pool is not None and time.monotonic() > deadline):
            break
        order = buffer_order(problem, name)
        offsets = place_in_order(problem, order)
        pool = _pool(problem, offsets)
        if order_pool is None or pool < order_pool:
            best_order, order_offsets, order_pool = order, offsets, pool
        if pool < best_pool:
            best_offsets, best_pool, best_name = offsets, pool, f"greedy:{name}"
    # The skyline construction under the other preorders, when its cost (about
    # n^2 / 400 million seconds on intervals) fits in what is left of the budget.
    for preorder in PREORDERS[:-1]:
        if problem.has_intervals:
            expected = len(problem) ** 2 / 4e8
        elif len(problem) <= SKYLINE_MAX_BUFFERS:
            expected = 0.0
        else:
            break
        if best_pool <= goal or time.monotonic() + expected > deadline or not skyline_keys_fit(problem):
            break
        offsets = skyline_offsets(problem, preorder)
        pool = _pool(problem, offsets)
        if pool < best_pool:
            best_offsets, best_pool, best_name = offsets, pool, f"skyline:{preorder}"
        if len(problem) > SKYLINE_MAX_BUFFERS:
            break  # one construction is all a large problem can afford
    rng = np.random.default_rng(seed)
    n = len(problem)
    sizes = problem.sizes
    rounds = improvements = searches = 0
    searchable = n <= SEARCH_MAX_BUFFERS and problem.conflict_count() <= MAX_SEARCH_CONFLICTS
    order_deadline = started + time_limit / 3 if searchable else deadline
    while best_order is not None and best_pool > goal and n > 1 and time.monotonic() < order_deadline:
        rounds += 1
        ends = order_offsets + sizes
        # Culprits: buffers reaching above the lower bound, highest first.
        above = np.flatnonzero(ends > lower)
        if above.size == 0:
            above = np.argsort(-ends)[: max(1, n // 50)]
        take = max(1, int(rng.integers(1, min(above.size, 8) + 1)))
        culprits = rng.choice(above, size=min(take, above.size), replace=False)
        extra = rng.choice(n, size=int(rng.integers(0, 3)), replace=False)
        moved = np.unique(np.concatenate([culprits, extra]))
        # Promote the moved buffers: to the front, or just ahead by a random distance.
        position = np.empty(n, dtype=np.int64)
        position[best_order] = np.arange(n)
        keys = position.astype(np.float64)
        if rng.random() < 0.5:
            keys[moved] = -1.0 - rng.random(moved.size)
        else:
            keys[moved] -= rng.random(moved.size) * n * rng.random()
        order = np.argsort(keys, kind="stable")
        offsets = place_in_order(problem, order)
        pool = _pool(problem, offsets)
        if pool <= order_pool:
            best_order, order_offsets, order_pool = order, offsets, pool
            if pool < best_pool:
                improvements += 1
                best_offsets, best_pool = offsets, pool
    if searchable:
        # Capacity ladder: aim halfway between the bound and the best pool; on success
        # aim lower, on failure (or timeout) aim closer to the best pool.
        low = goal
        while best_pool > low and time.monotonic() < deadline:
            target = low + (best_pool - low) // 2
            remaining_time = deadline - time.monotonic()
            result = fits_within(problem, target, max(0.05, remaining_time / 3))
            searches += 1
            if result.offsets is not None:
                best_offsets = result.offsets
                best_pool = _pool(problem, best_offsets)
                improvements += 1
            else:
                low = target + 1
    validate_plan(problem, best_offsets)
    stats = {
        "searches": searches,
        "start_order": best_name,
        "rounds": rounds,
        "improvements": improvements,
        "seconds": time.monotonic() - started,
    }
    return Plan(problem, best_offsets, "best", optimal=best_pool == lower, stats=stats)
