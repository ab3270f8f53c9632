"""best's second pass and its order search with suffix replans."""

from __future__ import annotations

import sys
import time

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memplan.planning import Buffer, Problem, best, greedy

from planning_cases import graph_problems, interval_problems, overlapping_pairs

best_module = sys.modules["memplan.planning.best"]


def stacked(problem: Problem) -> np.ndarray:
    """A valid but wasteful plan: every buffer on top of the previous one."""
    offsets, top = [], 0
    for size, alignment in zip(problem.sizes.tolist(), problem.alignments.tolist()):
        top = -(-top // alignment) * alignment
        offsets.append(top)
        top += size
    return np.array(offsets, dtype=np.int64)


def test_best_starts_from_the_second_pass_of_greedy():
    # The skyline stacks to 13 and no other greedy order does better; best fit in the
    # skyline's order with the buffers above the bound first reaches the bound, 12.
    problem = Problem.from_intervals(
        [Buffer("a", 6, 0, 1), Buffer("b", 2, 0, 2), Buffer("c", 7, 3, 6), Buffer("d", 5, 1, 3), Buffer("e", 5, 1, 4)]
    )
    assert greedy(problem).pool_size == 13 and problem.lower_bound() == 12
    plan = best(problem, time_limit=5.0)
    assert plan.pool_size == 12 and plan.optimal
    assert plan.stats["start_order"] == "greedy:skyline:TWA+"
    assert plan.stats["rounds"] == 0


def test_order_search_repacks_a_stacked_plan():
    # Buffers that never live at once: any move replans from the first culprit moved
    # and puts everything after it at offset 0.
    problem = Problem.from_intervals([Buffer(str(i), 3 + i, 2 * i, 2 * i + 2) for i in range(6)])
    start = stacked(problem)
    result = best_module._order_search(
        problem, start, problem.lower_bound(), time.monotonic() + 30, np.random.default_rng(0), 1e-6
    )
    assert result.pool == problem.lower_bound() == 8
    assert int((result.offsets + problem.sizes).max()) == result.pool
    assert result.rounds >= 1 and result.improvements >= 1
    assert not overlapping_pairs(problem, result.offsets)


def test_order_search_does_not_start_a_replan_it_cannot_finish():
    problem = Problem.from_intervals([Buffer(str(i), 3 + i, 2 * i, 2 * i + 2) for i in range(6)])
    start = stacked(problem)
    result = best_module._order_search(
        problem, start, problem.lower_bound(), time.monotonic() + 30, np.random.default_rng(0), 1e9
    )
    assert result.rounds == 0
    assert result.offsets.tolist() == start.tolist()


@given(interval_problems(max_buffers=16, max_size=32, aligned=True), st.integers(min_value=0, max_value=5))
@settings(max_examples=60, deadline=None)
def test_order_search_keeps_plans_valid_and_never_worse(problem, seed):
    assume(len(problem) > 1)  # best runs the search only then
    start = stacked(problem)
    pool = int((start + problem.sizes).max(initial=0))
    result = best_module._order_search(
        problem, start, problem.lower_bound(), time.monotonic() + 0.05, np.random.default_rng(seed), 1e-6
    )
    assert not overlapping_pairs(problem, result.offsets)
    assert np.all(result.offsets % problem.alignments == 0)
    assert result.pool == int((result.offsets + problem.sizes).max(initial=0)) <= pool


@given(graph_problems(), st.integers(min_value=0, max_value=5))
@settings(max_examples=40, deadline=None)
def test_order_search_on_conflict_graphs(problem, seed):
    assume(len(problem) > 1)
    start = stacked(problem)
    result = best_module._order_search(
        problem, start, problem.lower_bound(), time.monotonic() + 0.05, np.random.default_rng(seed), 1e-6
    )
    assert not overlapping_pairs(problem, result.offsets)
    assert result.pool <= int((start + problem.sizes).max())
