"""The exact search's failures are true: every failure it learns, checked by brute force.

A failure says its buffers cannot all be placed within the capacity once each one's
floor is at least its required height. The search jumps back and skips placements on
the strength of these, so a wrong one would lose plans silently; the completeness tests
would only notice when it happened to cut the last plan.
"""

from __future__ import annotations

import itertools
import sys
import time

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memplan.planning import Buffer, Problem
from memplan.planning.greedy import preorder_ranks

from planning_cases import brute_force_optimum, graph_problems

exact_module = sys.modules["memplan.planning.search"]


def can_place(
    problem: Problem, members: list[int], floors: dict[int, int], capacity: int, pinned: dict[int, int] | None = None
) -> bool:
    """Whether ``members`` fit under ``capacity`` with each at or above its floor and
    clear of the ``pinned`` buffers (fixed offsets): some order, each placed at the
    lowest offset above its floor free of earlier ones."""
    sizes = problem.sizes.tolist()
    for order in itertools.permutations(members):
        offsets: dict[int, int] = dict(pinned or {})
        fits = True
        for index in order:
            blockers = sorted(
                (offsets[j], offsets[j] + sizes[j]) for j in offsets if sizes[j] and problem.conflicts(index, j)
            )
            candidate = floors[index]
            for start, end in blockers:
                if candidate + sizes[index] <= start:
                    break
                candidate = max(candidate, end)
            if candidate + sizes[index] > capacity:
                fits = False
                break
            offsets[index] = candidate
        if fits:
            return True
    return False


@st.composite
def unit_problems(draw):
    """Intervals whose sizes share a unit above one (the search rounds heights to it)."""
    unit = draw(st.sampled_from([1, 2, 3]))
    count = draw(st.integers(min_value=2, max_value=6))
    buffers = []
    for index in range(count):
        lower = draw(st.integers(min_value=0, max_value=5))
        upper = draw(st.integers(min_value=lower + 1, max_value=6))
        buffers.append(Buffer(str(index), unit * draw(st.integers(min_value=1, max_value=6)), lower, upper))
    return Problem.from_intervals(buffers)


@given(st.one_of(unit_problems(), graph_problems(max_buffers=6)), st.sampled_from(["WAT", "TAW", "TWA"]), st.booleans())
@settings(max_examples=200, deadline=None)
def test_every_learnt_failure_is_infeasible(problem, preorder, tight):
    optimum = brute_force_optimum(problem)
    if optimum == 0:
        return
    capacity = optimum - 1
    search = exact_module._Search(problem, preorder_ranks(problem, preorder))
    search.tightest_section_first = tight
    result = search.run(capacity, 10**6, time.monotonic() + 10)
    assert result.proven_infeasible
    for failure in search.failed_states.values():
        members = failure.members.tolist()
        floors = dict(zip(members, failure.required.tolist()))
        assert not can_place(problem, members, floors, capacity), (members, floors)
    for index, reasons in search.placement_failures.items():
        for offset, reason in reasons:
            # With `index` at `offset`, the members cannot all be placed.
            members = reason.members.tolist()
            floors = dict(zip(members, reason.required.tolist()))
            assert not can_place(problem, members, floors, capacity, {index: offset}), (index, offset, floors)


def test_restart_budgets_follow_lubys_sequence():
    def reference(i: int) -> int:  # Luby, Sinclair, Zuckerman 1993, as defined there
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        return reference(i - (1 << (k - 1)) + 1)

    assert [exact_module._luby(i) for i in range(1, 200)] == [reference(i) for i in range(1, 200)]


@given(unit_problems(), st.sampled_from([2, 4]))
@settings(max_examples=60, deadline=None)
def test_aligned_sizes_take_the_unaligned_search(problem, alignment):
    # Every size a multiple of the alignment: floors are aligned by themselves.
    buffers = [
        Buffer(str(i), int(size) * alignment, int(lower), int(upper), alignment)
        for i, (size, lower, upper) in enumerate(zip(problem.sizes, problem.lowers, problem.uppers))
    ]
    aligned = Problem.from_intervals(buffers)
    search = exact_module._Search(aligned, preorder_ranks(aligned, "TWA"))
    assert not search.aligned
    optimum = brute_force_optimum(aligned)
    found = search.run(optimum, 10**6, time.monotonic() + 10)
    assert found.offsets is not None and not (found.offsets % alignment).any()
    assert search.run(optimum - 1, 10**6, time.monotonic() + 10).proven_infeasible


def test_a_placement_failure_keeps_its_buffers_above_the_placement():
    # Placing k at 2 fails because n must then go above it (floor 4, capacity 4), but
    # n fits below k: the reason for banning k at 2 must keep n at 2 or above, or the
    # search learns that {k, n} cannot be placed and misses the plan n, x, w, k.
    buffers = [Buffer("w", 2), Buffer("k", 2), Buffer("x", 2), Buffer("n", 1)]
    problem = Problem.from_conflicts(buffers, [(0, 1), (2, 3), (1, 3)])
    assert brute_force_optimum(problem) == 4
    for ranks in itertools.permutations(range(4)):
        for tight in (False, True):
            search = exact_module._Search(problem, np.array(ranks))
            search.tightest_section_first = tight
            assert search.run(4, 10**6, time.monotonic() + 10).offsets is not None, (ranks, tight)
            for index, reasons in search.placement_failures.items():
                for offset, reason in reasons:
                    floors = dict(zip(reason.members.tolist(), reason.required.tolist()))
                    assert not can_place(problem, list(floors), floors, 4, {index: offset})


def test_failures_on_conflict_graphs_are_whole_states():
    # Here the forward check would claim that buffers 2, 4, 5 alone cannot be placed
    # (4 banned at its floor 0), yet 5 at 1 with 4 and 2 on top fits: lowest-floor
    # first is not complete for a part of a conflict graph.
    buffers = [Buffer(str(i), size) for i, size in enumerate([3, 3, 4, 4, 4, 3])]
    problem = Problem.from_conflicts(buffers, [(0, 2), (1, 2), (1, 3), (1, 5), (2, 5), (4, 5)])
    optimum = brute_force_optimum(problem)
    for preorder in ("WAT", "TAW", "TWA"):
        for tight in (False, True):
            search = exact_module._Search(problem, preorder_ranks(problem, preorder))
            search.tightest_section_first = tight
            assert search.run(optimum, 10**6, time.monotonic() + 10).offsets is not None
            assert search.run(optimum - 1, 10**6, time.monotonic() + 10).proven_infeasible
            for failure in search.failed_states.values():
                members = failure.members.tolist()
                floors = dict(zip(members, failure.required.tolist()))
                assert not can_place(problem, members, floors, optimum - 1)


def test_among_flush_candidates_one_level_with_a_wall_comes_first():
    # W (slot 0) is placed up to 4 bytes; X and Y both start at its wall and end at
    # the end of time, at floor 0. The preorder prefers Y, but X's top (4) is level
    # with W's, so X is tried first.
    problem = Problem.from_intervals([(0, 1, 4), (1, 3, 4), (1, 3, 5)])
    search = exact_module._Search(problem, np.array([2, 1, 0]))
    search.tightest_section_first = False
    search.run(10, 0, time.monotonic() + 10)  # no node: only the search's state is set up
    remaining = np.array([1, 2])
    search.wall_left[int(problem.time_slots[1][1])] = 4
    chosen = search._choose(remaining, np.array([True, True]), None, None, 0)
    assert remaining[chosen] == 1
    search.rank = np.array([2, 0, 1])  # the preorder now prefers X, and Y is level
    search.wall_left[int(problem.time_slots[1][1])] = 5
    assert remaining[search._choose(remaining, np.array([True, True]), None, None, 0)] == 2
