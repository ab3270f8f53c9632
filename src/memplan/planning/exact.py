"""The exact strategy: the branch-and-bound search of `memplan.planning.search` from
the best known plan (greedy's, or `best`'s on a plan that misses the goal), bisecting
the capacity down to a proven bound or up to the time limit.

The search is a module of its own because `best` searches too (its capacity
ladder): both strategies import it, and `best` does not import this module.
"""

from __future__ import annotations

import time

from memplan.lazy_numpy import np

from .greedy import greedy
from .problem import Clock, Plan, Problem, Progress, no_progress
from .search import MAX_SEARCH_CONFLICTS, SearchResult, capacity_ladder, fits_within
from .validate import validate_plan

__all__ = ["exact"]

#: Share of ``exact``'s time limit given to ``best`` for an incumbent (at most
#: :data:`INCUMBENT_MAX_SECONDS`), on problems of at most
#: :data:`INCUMBENT_MAX_BUFFERS` buffers whose greedy plan misses the goal.
INCUMBENT_SHARE = 0.05
INCUMBENT_MAX_SECONDS = 3.0
INCUMBENT_MAX_BUFFERS = 2000
#: Share of ``exact``'s time limit kept, when a capacity is given and the known plan
#: misses it, for :func:`capacity_ladder` from that plan should the search not meet
#: the capacity: on the generated challenging instances it fails, best's plan is
#: 2.7-16% over and 3 more seconds of ladder bring the mean 1.074 -> 1.058.
FALLBACK_SHARE = 0.1


def exact(
    problem: Problem,
    *,
    capacity: int | None = None,
    time_limit: float = 10.0,
    seed: int = 0,
    progress: Progress = no_progress,
    initial: Plan | None = None,
    clock: Clock = time.monotonic,
) -> Plan:
    """Smallest plan the search can find (and prove) within ``time_limit`` seconds.
    ``seed`` picks the restarts' random perturbations (see :func:`fits_within`);
    ``progress`` is called with the best pool size so far each time it
    shrinks.

    With ``capacity``, stop at the first plan that fits it. Without, start from the
    lower bound and raise it until a plan is found, or lower the best known pool size
    while plans keep coming. The returned plan is validated; ``plan.optimal`` says
    whether its pool size is proven minimal (it meets the lower bound or every smaller
    capacity was refuted); ``plan.stats`` records nodes and the capacity outcome. When
    time runs out the best known plan (``initial``, else greedy) is returned, as it is
    at once for problems with more than :data:`MAX_SEARCH_CONFLICTS` conflicting pairs.
    ``time_limit`` is in seconds of ``clock`` (see :data:`~memplan.planning.problem.Clock`),
    read at every node of the search."""
    start = clock()
    deadline = start + time_limit
    lower = problem.lower_bound()
    known = initial if initial is not None else greedy(problem, progress=progress)
    goal = lower if capacity is None else max(lower, capacity)
    if known.pool_size > goal and len(problem) <= INCUMBENT_MAX_BUFFERS:
        # An incumbent from best (its order search and short searches down a ladder
        # of capacities), so that a search that runs out of time still returns a
        # plan near the bound (a challenging instance's greedy plan is 20-40% over).
        from .best import best  # looked up at the call, as a test replaces it

        share = min(INCUMBENT_SHARE * time_limit, INCUMBENT_MAX_SECONDS)
        incumbent = best(problem, capacity=capacity, time_limit=share, seed=seed, clock=clock)
        if incumbent.pool_size < known.pool_size:
            known = incumbent
            progress(known.pool_size)
    best_offsets = known.offsets
    best_pool = known.pool_size
    stats = {"nodes": 0, "lower_bound": lower, "capacity": capacity, "capacity_met": None}
    proven_floor = lower  # every capacity below this is refuted

    if problem.conflict_count() > MAX_SEARCH_CONFLICTS:
        # Adjacency lists of this size cost more memory and time than the search could
        # use; the best known plan is the answer.
        stats["skipped"] = f"more than {MAX_SEARCH_CONFLICTS} conflicting pairs"
        if capacity is not None:
            stats["capacity_met"] = best_pool <= capacity
        stats["seconds"] = clock() - start
        validate_plan(problem, best_offsets)
        return Plan(problem, np.asarray(best_offsets), "exact", optimal=best_pool <= lower, stats=stats)

    def attempt(target: int, until: float = deadline) -> SearchResult:
        result = fits_within(problem, target, max(0.0, until - clock()), seed=seed, clock=clock)
        stats["nodes"] += result.nodes
        return result

    if capacity is not None:
        if best_pool <= capacity:
            stats["capacity_met"] = True
        else:
            result = attempt(capacity, deadline - FALLBACK_SHARE * time_limit)
            if result.offsets is not None:
                best_offsets, best_pool = result.offsets, int((result.offsets + problem.sizes).max(initial=0))
                progress(best_pool)
                stats["capacity_met"] = True
            else:
                stats["capacity_met"] = False
                stats["capacity_refuted"] = result.proven_infeasible
                if result.proven_infeasible:
                    proven_floor = max(proven_floor, capacity + 1)
                # No plan within the capacity: the time kept back lowers the known one.
                best_offsets, stats["ladder_searches"] = capacity_ladder(
                    problem, best_offsets, capacity + 1, deadline, seed=seed, clock=clock, progress=progress
                )
                best_pool = int((best_offsets + problem.sizes).max(initial=0))
    else:
        # Try the bound first (the common perfect case), then bisect.
        target = lower
        while proven_floor < best_pool and clock() < deadline:
            result = attempt(target)
            if result.offsets is not None:
                best_offsets = result.offsets
                best_pool = int((result.offsets + problem.sizes).max(initial=0))
                progress(best_pool)
            elif result.proven_infeasible:
                proven_floor = target + 1
            else:
                break
            target = (proven_floor + best_pool - 1) // 2
    validate_plan(problem, best_offsets)
    stats["seconds"] = clock() - start
    return Plan(problem, np.asarray(best_offsets), "exact", optimal=best_pool <= proven_floor, stats=stats)
