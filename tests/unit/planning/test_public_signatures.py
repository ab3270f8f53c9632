"""The planners' public surface (issue 17): one calling convention for the three
strategies, plain tuples for interval problems, and ``optimal`` when the pool meets
the lower bound."""

from __future__ import annotations

import inspect

import pytest

from memplan.planning import STRATEGIES, Buffer, PlanInputError, Problem, best, exact, greedy

SHARED = ("capacity", "time_limit", "seed", "progress")


@pytest.mark.parametrize("strategy", [greedy, best, exact], ids=lambda f: f.__name__)
def test_strategies_share_one_keyword_only_signature(strategy):
    parameters = list(inspect.signature(strategy).parameters.values())
    assert parameters[0].name == "problem"
    assert [p.name for p in parameters[1:5]] == list(SHARED)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[1:])


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_strategies_are_interchangeable(name):
    problem = Problem.from_intervals([(0, 2, 4), (1, 3, 4), (2, 4, 4)])
    seen: list[int] = []
    plan = STRATEGIES[name](problem, capacity=8, time_limit=1.0, seed=1, progress=seen.append)
    assert plan.pool_size == 8
    assert seen and min(seen) == plan.pool_size


def test_from_intervals_accepts_start_end_size_tuples():
    problem = Problem.from_intervals([(0, 2, 16), (1, 3, 8), Buffer("named", 4, 3, 5)], alignment=8)
    assert [b.id for b in problem.buffers] == ["0", "1", "named"]
    assert [(b.lower, b.upper, b.size, b.alignment) for b in problem.buffers[:2]] == [(0, 2, 16, 8), (1, 3, 8, 8)]
    assert problem.lower_bound() == 24


def test_from_intervals_rejects_malformed_items():
    with pytest.raises(PlanInputError, match=r"buffer 1: expected a Buffer or a \(start, end, size\)"):
        Problem.from_intervals([(0, 1, 4), (0, 1)])


def test_a_plan_at_the_lower_bound_is_optimal():
    problem = Problem.from_intervals([(0, 2, 4), (2, 4, 4), (1, 3, 2)])
    plan = greedy(problem)
    assert plan.pool_size == problem.lower_bound() and plan.optimal


def test_a_plan_above_the_lower_bound_is_not_claimed_optimal():
    problem = Problem.from_intervals([(1, 2, 2), (1, 3, 3), (2, 4, 3)])
    plan = greedy(problem, order=[0, 1, 2])  # 0 at [0,2), 1 at [2,5), 2 above 1: pool 8, bound 6
    assert plan.pool_size > problem.lower_bound() and not plan.optimal


def test_the_bound_behind_optimal_is_computed_only_when_asked():
    """A conflict graph's cliques cost seconds on thousands of buffers: planning
    (greedy by size above the skyline's limit) must not pay for them unasked."""
    n = 2500
    problem = Problem.from_conflicts([Buffer(str(i), 1 + i % 7) for i in range(n)], [(i, i + 1) for i in range(n - 1)])
    plan = greedy(problem)
    assert "cliques" not in problem.__dict__
    assert plan.optimal == (plan.pool_size <= problem.lower_bound())
    assert "cliques" in problem.__dict__
