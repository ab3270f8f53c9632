"""best and exact: valid, never below the bound, exact optimal on small instances."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memplan.planning import Buffer, Plan, Problem, best, exact, greedy
from memplan.planning.search import fits_within
from memplan.planning.greedy import preorder_ranks

from planning_cases import brute_force_optimum, graph_problems, guillotine_problem, interval_problems, overlapping_pairs


@given(interval_problems(max_buffers=7, max_time=6, max_size=9, aligned=True))
@settings(max_examples=120, deadline=None)
def test_exact_finds_the_brute_force_optimum(problem):
    optimum = brute_force_optimum(problem)
    plan = exact(problem, time_limit=5.0)
    assert not overlapping_pairs(problem, plan.offsets)
    assert plan.pool_size == optimum
    assert plan.optimal
    if optimum > problem.lower_bound():
        refuted = fits_within(problem, optimum - 1, 5.0)
        assert refuted.proven_infeasible and refuted.offsets is None


@given(graph_problems(max_buffers=6))
@settings(max_examples=60, deadline=None)
def test_exact_on_conflict_graphs_matches_brute_force(problem):
    plan = exact(problem, time_limit=5.0)
    assert not overlapping_pairs(problem, plan.offsets)
    assert plan.pool_size == brute_force_optimum(problem)


@given(interval_problems(max_buffers=30, max_time=20, max_size=64))
@settings(max_examples=40, deadline=None)
def test_exact_never_worse_than_greedy_and_best_valid(problem):
    greedy_plan = greedy(problem)
    exact_plan = exact(problem, time_limit=0.5)
    best_plan = best(problem, time_limit=0.05)
    lower = problem.lower_bound()
    for plan in (greedy_plan, exact_plan, best_plan):
        assert not overlapping_pairs(problem, plan.offsets)
        assert plan.pool_size >= lower
    assert exact_plan.pool_size <= greedy_plan.pool_size
    assert best_plan.pool_size <= greedy_plan.pool_size


def test_exact_with_capacity_stops_at_a_fitting_plan():
    # wide + left + mid (time 1) and wide + right + mid (time 2) each make 14 bytes.
    problem = Problem.from_intervals(
        [Buffer("wide", 6, 0, 4), Buffer("left", 4, 0, 2), Buffer("right", 4, 2, 4), Buffer("mid", 4, 1, 3)]
    )
    plan = exact(problem, capacity=14, time_limit=5.0)
    assert plan.pool_size <= 14
    assert plan.stats["capacity_met"]
    assert brute_force_optimum(problem) == 14


def test_exact_reports_an_infeasible_capacity_and_returns_the_best_known_plan():
    problem = Problem.from_intervals([Buffer("a", 4, 0, 2), Buffer("b", 4, 1, 3)])
    plan = exact(problem, capacity=7, time_limit=5.0)
    assert plan.stats["capacity_met"] is False
    assert plan.stats["capacity_refuted"] is True
    assert plan.pool_size == 8 and plan.optimal


def test_exact_falls_back_when_time_runs_out():
    rng = np.random.default_rng(7)
    buffers = []
    for i in range(60):
        lower = int(rng.integers(0, 40))
        buffers.append(Buffer(str(i), int(rng.integers(1, 100)), lower, lower + int(rng.integers(1, 20))))
    problem = Problem.from_intervals(buffers)
    greedy_plan = greedy(problem)
    plan = exact(problem, time_limit=1e-6, initial=greedy_plan)
    assert plan.pool_size == greedy_plan.pool_size
    assert not overlapping_pairs(problem, plan.offsets)


def test_exact_meets_the_bound_on_a_tight_staircase():
    # Every moment holds exactly 8 bytes; a plan of 8 must tile them with no hole.
    spec = [(0, 2, 5), (0, 1, 3), (1, 3, 3), (2, 4, 5), (3, 4, 3), (2, 3, 0)]
    problem = Problem.from_intervals([Buffer(str(i), s, lo, up) for i, (lo, up, s) in enumerate(spec)])
    assert problem.lower_bound() == 8
    plan = exact(problem, capacity=8, time_limit=5.0)
    assert plan.pool_size == 8


@pytest.mark.parametrize("name", ["WAT", "TAW", "TWA"])
def test_preorder_ranks_are_permutations(name):
    problem = Problem.from_intervals([Buffer(str(i), i + 1, i, i + 3) for i in range(6)])
    assert sorted(preorder_ranks(problem, name).tolist()) == list(range(6))


def test_unknown_preorder_is_rejected():
    problem = Problem.from_intervals([Buffer("a", 1, 0, 1)])
    with pytest.raises(ValueError, match="unknown preorder"):
        preorder_ranks(problem, "XYZ")


@given(st.integers(min_value=0, max_value=3))
@settings(max_examples=4, deadline=None)
def test_best_reaches_the_bound_when_an_order_does(seed):
    problem = Problem.from_intervals([Buffer(str(i), 4, i, i + 2) for i in range(8)])
    plan = best(problem, time_limit=0.2, seed=seed)
    assert plan.pool_size == problem.lower_bound() == 8


def test_exact_skips_the_search_on_huge_problems(monkeypatch):
    import sys

    exact_module = sys.modules["memplan.planning.exact"]
    monkeypatch.setattr(exact_module, "MAX_SEARCH_CONFLICTS", 1)
    problem = Problem.from_intervals([Buffer(str(i), 1 + i, 0, 2) for i in range(3)])
    plan = exact(problem, capacity=100, time_limit=5.0)
    assert "skipped" in plan.stats and plan.stats["capacity_met"]
    assert plan.stats["nodes"] == 0
    assert not overlapping_pairs(problem, plan.offsets)


@given(interval_problems(max_buffers=7, max_time=8, max_size=12))
@settings(max_examples=80, deadline=None)
def test_each_branching_mode_alone_is_complete(problem):
    # fits_within interleaves both modes and usually finishes in the first; check
    # each one on its own against the brute force.
    import sys
    import time

    from memplan.planning.greedy import preorder_ranks as ranks

    search_class = sys.modules["memplan.planning.search"]._Search
    optimum = brute_force_optimum(problem)
    for tight in (False, True):
        search = search_class(problem, ranks(problem, "WAT"))
        search.tightest_section_first = tight
        found = search.run(optimum, 10**7, time.monotonic() + 5)
        assert found.offsets is not None
        assert not overlapping_pairs(problem, found.offsets)
        assert int((found.offsets + problem.sizes).max(initial=0)) <= optimum
        if optimum > 0:
            refuted = search.run(optimum - 1, 10**7, time.monotonic() + 5)
            assert refuted.proven_infeasible


def test_exact_returns_best_s_incumbent_when_the_capacity_is_refuted(monkeypatch):
    # Greedy packs this in 26 bytes, the optimum is 25 (the bound); a capacity of 24
    # is refuted at once, so what exact returns is its incumbent: best's, not greedy's.
    rows = [(7, 12, 3), (2, 6, 5), (0, 5, 5), (5, 10, 2), (7, 12, 5), (2, 6, 7), (0, 3, 1), (6, 9, 8), (3, 8, 7)]
    problem = Problem.from_intervals(rows)
    assert greedy(problem).pool_size == 26 and problem.lower_bound() == 25
    optimum = exact(problem, time_limit=5.0)
    assert optimum.pool_size == 25
    calls = []

    def fake_best(problem_, *, capacity, time_limit, seed, clock):
        calls.append((capacity, time_limit))
        return optimum

    # The package exports the function under the module's name: take the module.
    monkeypatch.setattr(sys.modules["memplan.planning.best"], "best", fake_best)
    plan = exact(problem, capacity=24, time_limit=10.0)
    assert calls == [(24, 0.5)]  # a twentieth of the budget
    assert plan.stats["capacity_refuted"] is True
    assert plan.pool_size == 25
    assert not overlapping_pairs(problem, plan.offsets)


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=4, max_value=40))
@settings(max_examples=60, deadline=None)
def test_exact_finds_a_perfect_packing_where_one_exists(seed, pieces):
    # Cut from a square, so a packing at the side exists; the search is complete,
    # so it finds one (these sizes take it at most a few hundred nodes).
    problem = guillotine_problem(seed, pieces, side=32)
    result = fits_within(problem, 32, 30.0)
    assert result.offsets is not None
    assert not overlapping_pairs(problem, result.offsets)
    assert int((result.offsets + problem.sizes).max()) <= 32


def stacked(problem: Problem) -> np.ndarray:
    """Offsets sharing nothing: each buffer above the one before."""
    return np.concatenate([[0], np.cumsum(problem.sizes)[:-1]]).astype(np.int64)


@given(interval_problems(max_buffers=7, max_time=6, max_size=9))
@settings(max_examples=60, deadline=None)
def test_the_capacity_ladder_lowers_a_plan_to_the_optimum(problem):
    from memplan.planning.search import capacity_ladder

    offsets, _ = capacity_ladder(problem, stacked(problem), problem.lower_bound(), time.monotonic() + 5.0)
    assert not overlapping_pairs(problem, offsets)
    assert int((offsets + problem.sizes).max(initial=0)) == brute_force_optimum(problem)


@given(interval_problems(max_buffers=7, max_time=6, max_size=9))
@settings(max_examples=60, deadline=None)
def test_exact_below_the_optimum_still_returns_an_optimal_plan(problem):
    # With no incumbent from best, the known plan is the one given (sharing nothing);
    # a capacity one byte below the optimum is refuted, and the time kept back lowers
    # the known plan to the optimum.
    optimum = brute_force_optimum(problem)
    if optimum == 0:
        return
    initial = Plan(problem, stacked(problem), "stacked")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys.modules["memplan.planning.exact"], "INCUMBENT_MAX_BUFFERS", 0)
        plan = exact(problem, capacity=optimum - 1, time_limit=5.0, initial=initial)
    assert plan.stats["capacity_met"] is False
    assert not overlapping_pairs(problem, plan.offsets)
    assert plan.pool_size == optimum
