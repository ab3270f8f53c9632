"""Problem construction, lower bounds and the plan validator."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings

from memplan.planning import Buffer, PlanInputError, PlanValidationError, Problem, validate_plan

from planning_cases import interval_problems, overlapping_pairs


def small_problem() -> Problem:
    return Problem.from_intervals(
        [Buffer("a", 4, 0, 3), Buffer("b", 2, 1, 5), Buffer("c", 3, 3, 6), Buffer("d", 5, 6, 8)]
    )


def test_interval_conflicts_follow_half_open_lifetimes():
    problem = small_problem()
    assert [a.tolist() for a in problem.neighbours] == [[1], [0, 2], [1], []]
    assert problem.conflict_count() == 2
    assert problem.conflicts(0, 1) and not problem.conflicts(0, 2)


def test_lower_bound_is_peak_of_live_bytes():
    assert small_problem().lower_bound() == 6  # a+b at time 1..3, b+c = 5, d alone = 5


@given(interval_problems())
@settings(max_examples=60, deadline=None)
def test_sweep_neighbours_match_all_pairs(problem):
    expected = {
        (a, b)
        for a, b in itertools.combinations(range(len(problem)), 2)
        if problem.lowers[a] < problem.uppers[b] and problem.lowers[b] < problem.uppers[a]
    }
    found = {(a, int(b)) for a, nbrs in enumerate(problem.neighbours) for b in nbrs if a < b}
    assert found == expected
    assert problem.conflict_count() == len(expected)


@given(interval_problems())
@settings(max_examples=60, deadline=None)
def test_interval_cliques_are_cliques_covering_every_buffer(problem):
    covered = set()
    for clique in problem.cliques:
        for a, b in itertools.combinations(clique.tolist(), 2):
            assert problem.conflicts(a, b)
        covered.update(clique.tolist())
    assert covered == set(range(len(problem)))
    if len(problem):
        assert problem.lower_bound() == max(int(problem.sizes[c].sum()) for c in problem.cliques)


def test_graph_lower_bound_uses_cliques():
    buffers = [Buffer(x, s) for x, s in zip("abcd", (3, 4, 5, 6))]
    triangle = Problem.from_conflicts(buffers, [(0, 1), (1, 2), (0, 2)])
    assert triangle.lower_bound() == 12
    assert Problem.from_conflicts(buffers, []).lower_bound() == 6


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Buffer("x", -1, 0, 1), "size must be >= 0"),
        (lambda: Buffer("x", 1, 2, 2), "empty"),
        (lambda: Buffer("x", 1, 0, 1, alignment=0), "alignment"),
        (lambda: Problem.from_intervals([Buffer("x", 1, 0, 1), Buffer("x", 2, 0, 1)]), "duplicate"),
        (lambda: Problem.from_intervals([Buffer("x", 1)]), "no lifetime"),
        (lambda: Problem.from_conflicts([Buffer("x", 1)], [(0, 3)]), "outside"),
    ],
)
def test_bad_problems_are_rejected(make, message):
    with pytest.raises(PlanInputError, match=message):
        make()


def test_validator_accepts_a_valid_plan_and_rejects_overlap():
    problem = small_problem()
    validate_plan(problem, np.array([0, 4, 0, 0]))
    with pytest.raises(PlanValidationError, match="a and b conflict but share bytes"):
        validate_plan(problem, np.array([0, 3, 0, 0]))


def test_validator_checks_alignment_capacity_and_shape():
    problem = Problem.from_intervals([Buffer("a", 4, 0, 2, alignment=8), Buffer("b", 4, 0, 2)])
    with pytest.raises(PlanValidationError, match="not a multiple of its alignment 8"):
        validate_plan(problem, np.array([4, 0]))
    with pytest.raises(PlanValidationError, match="beyond the capacity 10"):
        validate_plan(problem, np.array([8, 0]), capacity=10)
    with pytest.raises(PlanValidationError, match="negative"):
        validate_plan(problem, np.array([-8, 4]))
    with pytest.raises(PlanValidationError, match="2 buffers"):
        validate_plan(problem, np.array([0]))


def test_validator_lets_buffers_share_bytes_when_lifetimes_only_touch():
    problem = Problem.from_intervals([Buffer("a", 4, 0, 2), Buffer("b", 4, 2, 4)])
    validate_plan(problem, np.array([0, 0]))


def test_validator_on_conflict_graphs():
    problem = Problem.from_conflicts([Buffer("a", 4), Buffer("b", 4), Buffer("c", 4)], [(0, 1)])
    validate_plan(problem, np.array([0, 4, 0]))
    with pytest.raises(PlanValidationError, match="a and b"):
        validate_plan(problem, np.array([0, 2, 0]))


@given(interval_problems(), interval_problems())
@settings(max_examples=150, deadline=None)
def test_validator_agrees_with_brute_force(problem, shape):
    # Random offsets (drawn from another problem's sizes so they are small and collide often).
    rng = np.random.default_rng(len(problem) * 31 + len(shape))
    offsets = rng.integers(0, 12, size=len(problem))
    bad = overlapping_pairs(problem, offsets)
    if bad:
        with pytest.raises(PlanValidationError):
            validate_plan(problem, offsets)
    else:
        validate_plan(problem, offsets)


def test_from_neighbours_takes_adjacency_lists_as_they_are():
    buffers = [Buffer(x, 4) for x in "abc"]
    problem = Problem.from_neighbours(buffers, [np.array([1]), np.array([0, 2]), np.array([1])])
    assert [a.tolist() for a in problem.neighbours] == [[1], [0, 2], [1]]
    assert problem.conflict_count() == 2
    assert problem.lower_bound() == 8
    validate_plan(problem, np.array([0, 4, 0]))
    with pytest.raises(PlanValidationError):
        validate_plan(problem, np.array([0, 0, 4]))


@pytest.mark.parametrize(
    "rows, message",
    [
        ([[1], [0]], "2 neighbour lists for 3 buffers"),
        ([[1], [0], [5]], "outside"),
        ([[0], [], []], "own neighbour"),
        ([[2, 1], [0], [0]], "sorted"),
        ([[1], [], []], "symmetric"),
    ],
)
def test_from_neighbours_rejects_malformed_graphs(rows, message):
    buffers = [Buffer(x, 4) for x in "abc"]
    with pytest.raises(PlanInputError, match=message):
        Problem.from_neighbours(buffers, [np.array(r, dtype=np.int64) for r in rows])
