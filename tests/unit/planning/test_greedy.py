"""The greedy best-fit planner."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memplan.planning import ORDERS, Buffer, Problem, buffer_order, greedy
from memplan.planning.greedy import (
    AUTO_INTERVAL_CHAIN,
    GOOD_ENOUGH,
    peak_live_bytes,
    place_in_order,
    preorder_ranks,
    second_pass,
    second_pass_order,
    skyline_offsets,
)

from planning_cases import graph_problems, interval_problems, overlapping_pairs


@given(interval_problems(aligned=True))
@settings(max_examples=120, deadline=None)
def test_greedy_plans_are_valid_and_not_below_the_bound(problem):
    for order in ORDERS:
        plan = greedy(problem, order=order)
        assert not overlapping_pairs(problem, plan.offsets)
        assert np.all(plan.offsets % problem.alignments == 0)
        assert plan.pool_size >= problem.lower_bound()


@given(graph_problems())
@settings(max_examples=80, deadline=None)
def test_greedy_on_conflict_graphs(problem):
    plan = greedy(problem)
    assert not overlapping_pairs(problem, plan.offsets)
    assert plan.pool_size >= problem.lower_bound()


def test_buffers_go_on_top_when_no_gap_holds_them():
    problem = Problem.from_intervals(
        [
            Buffer("floor", 10, 0, 4),
            Buffer("pillar_low", 9, 1, 4),
            Buffer("pillar_high", 8, 1, 4),
            Buffer("short", 6, 0, 1),
            Buffer("three", 3, 1, 2),
        ]
    )
    plan = greedy(problem, order=[0, 1, 2, 3, 4])
    # floor [0,10), pillar_low best-fit: no gap -> top 10 -> [10,19); pillar_high [19,27);
    # short (live 0..1, conflicts floor only) -> [10,16); three (1..2) conflicts floor,
    # pillars: gaps none below 27 -> top 27.
    assert plan.offsets.tolist() == [0, 10, 19, 10, 27]


def test_explicit_order_must_be_a_permutation():
    problem = Problem.from_intervals([Buffer("a", 1, 0, 1), Buffer("b", 1, 0, 1)])
    with pytest.raises(ValueError, match="exactly once"):
        greedy(problem, order=[0, 0])
    with pytest.raises(ValueError, match="unknown greedy order"):
        greedy(problem, order="random")


def test_best_fit_uses_the_smallest_of_two_gaps():
    problem = Problem.from_intervals(
        [Buffer("x", 2, 0, 2), Buffer("y", 7, 0, 2), Buffer("z", 6, 0, 2), Buffer("w", 2, 0, 2)]
    )
    sizes_then_w = [1, 2, 0, 3]
    plan = greedy(problem, order=sizes_then_w)  # y [0,7), z [7,13), x [13,15), w top [15,17)
    assert plan.offsets.tolist() == [13, 0, 7, 15]
    problem_with_gaps = Problem.from_intervals(
        [
            Buffer("x", 2, 0, 2),
            Buffer("spacer3", 3, 0, 1),
            Buffer("y", 7, 0, 2),
            Buffer("spacer2", 2, 0, 1),
            Buffer("z", 6, 0, 2),
            Buffer("w", 2, 1, 2),
        ]
    )
    # Place x, spacer3, y, spacer2, z in this order, then w (live only at time 1 when
    # the spacers are dead): gaps [2,5) and [12,14); w takes the tighter [12,14).
    plan = greedy(problem_with_gaps, order=[0, 1, 2, 3, 4, 5])
    assert plan.offsets.tolist()[:5] == [0, 2, 5, 12, 14]
    assert plan.offsets[5] == 12


def test_breadth_order_puts_the_busiest_moment_first():
    problem = Problem.from_intervals(
        [Buffer("lonely_big", 10, 0, 1), Buffer("crowd1", 4, 1, 2), Buffer("crowd2", 4, 1, 2), Buffer("crowd3", 4, 1, 2)]
    )
    assert peak_live_bytes(problem).tolist() == [10, 12, 12, 12]
    assert buffer_order(problem, "breadth").tolist()[:3] == [1, 2, 3]
    assert buffer_order(problem, "size").tolist()[0] == 0


def test_zero_size_buffers_sit_at_zero():
    problem = Problem.from_intervals([Buffer("a", 4, 0, 2), Buffer("empty", 0, 0, 2)])
    assert greedy(problem).offsets.tolist() == [0, 0]


@given(interval_problems(aligned=True))
@settings(max_examples=80, deadline=None)
def test_skyline_plans_are_valid(problem):
    for preorder in ("WAT", "TAW", "TWA"):
        plan = greedy(problem, order=f"skyline:{preorder}")
        assert not overlapping_pairs(problem, plan.offsets)
        assert plan.pool_size >= problem.lower_bound()


@given(graph_problems())
@settings(max_examples=60, deadline=None)
def test_skyline_on_conflict_graphs(problem):
    plan = greedy(problem, order="skyline")
    assert not overlapping_pairs(problem, plan.offsets)


def test_skyline_places_the_lowest_floor_first():
    # Floors start at 0 everywhere; ties go to the TWA preorder (busiest moment, then
    # width, then area): "long" (3 bytes, whole lifetime) first at 0, then "tall"
    # and the two halves on top of it.
    problem = Problem.from_intervals(
        [Buffer("long", 3, 0, 4), Buffer("left", 5, 0, 2), Buffer("right", 5, 2, 4), Buffer("tall", 6, 1, 3)]
    )
    plan = greedy(problem, order="skyline")
    assert plan.offsets[0] == 0
    assert not overlapping_pairs(problem, plan.offsets)
    assert plan.pool_size == 14 == problem.lower_bound()


def test_auto_keeps_the_smaller_of_best_fit_and_skyline():
    problem = Problem.from_intervals(
        [Buffer("a", 4, 0, 3), Buffer("b", 2, 1, 5), Buffer("c", 3, 3, 6), Buffer("d", 5, 5, 8)]
    )
    by_size = greedy(problem, order="size")
    auto = greedy(problem)
    assert auto.pool_size == min(by_size.pool_size, greedy(problem, order="skyline").pool_size)
    assert by_size.pool_size == 10 and auto.pool_size == 8


def _skyline_by_definition(problem, preorder):
    """The construction as defined, O(n^2): place the waiting buffer with the lowest
    floor (highest end among its placed conflicting buffers), ties by preorder rank."""
    rank = preorder_ranks(problem, preorder).tolist()
    n = len(problem)
    offsets = [0] * n
    placed = [False] * n
    waiting = [i for i in range(n) if problem.sizes[i] > 0]
    while waiting:
        def floor(i):
            ends = [offsets[j] + int(problem.sizes[j]) for j in range(n) if placed[j] and problem.conflicts(i, j)]
            return max(ends, default=0)

        chosen = min(waiting, key=lambda i: (floor(i), rank[i]))
        alignment = int(problem.alignments[chosen])
        offsets[chosen] = -(-floor(chosen) // alignment) * alignment
        placed[chosen] = True
        waiting.remove(chosen)
    return offsets


@settings(max_examples=150, deadline=None)
@given(st.one_of(interval_problems(aligned=True), interval_problems(max_time=4), graph_problems()))
def test_skyline_follows_its_definition(problem):
    # The group heap and the rebuilt stabbing index must pick exactly the buffer
    # the definition picks at every step, on intervals and on conflict graphs.
    for preorder in ("TWA", "WAT"):
        assert skyline_offsets(problem, preorder).tolist() == _skyline_by_definition(problem, preorder)


def test_skyline_takes_sizes_near_the_int64_limit():
    # The skyline's heap keys are Python integers: no overflow limit on sizes.
    problem = Problem.from_intervals([Buffer("a", 2**61, 0, 2), Buffer("b", 2**61, 1, 3), Buffer("c", 2**60, 2, 4)])
    plan = greedy(problem, order="skyline")
    assert not overlapping_pairs(problem, plan.offsets)
    assert plan.pool_size == 2**62 == problem.lower_bound()


def test_second_pass_puts_the_buffers_above_the_bound_first():
    # By size (d, e, a, b, c): d [0,5), e [0,4), a on e [4,7), b on d and a [7,10),
    # c [0,3): pool 10 against LB 8 (b and d at time 4). Only b ends above 8. The
    # second pass takes b first, then the rest by offset (d, e, c, a; larger first
    # on ties): b [0,3), d on b [3,8), e [0,4), c on b [3,6), a on b and e [4,7).
    problem = Problem.from_intervals(
        [Buffer("a", 3, 0, 3), Buffer("b", 3, 2, 5), Buffer("c", 3, 3, 4), Buffer("d", 5, 4, 6), Buffer("e", 4, 1, 2)]
    )
    first = greedy(problem, order="size")
    assert first.offsets.tolist() == [4, 7, 0, 0, 0] and problem.lower_bound() == 8
    assert second_pass_order(problem, first.offsets).tolist() == [1, 3, 4, 2, 0]
    second = greedy(problem, order="size+")
    assert second.strategy == "greedy:size+"
    assert second.offsets.tolist() == [4, 0, 3, 3, 0]
    assert second.pool_size == 8


def test_second_pass_keeps_a_plan_already_at_the_bound():
    problem = Problem.from_intervals([Buffer("a", 3, 0, 2), Buffer("b", 2, 1, 3)])
    plan = greedy(problem, order="skyline")
    assert plan.pool_size == problem.lower_bound()
    assert second_pass(plan) is plan


@given(interval_problems(aligned=True))
@settings(max_examples=60, deadline=None)
def test_best_fit_in_a_plans_own_order_never_raises_a_buffer(problem):
    # The second pass relies on this: the buffers conflicting with b that come before
    # it by offset all end at or below b's old offset, and by induction still do, so
    # best fit puts b into a bounded gap below them or on top of them: never higher.
    for name in ("skyline", "size", "breadth"):
        plan = greedy(problem, order=name)
        again = place_in_order(problem, np.lexsort((-problem.sizes, plan.offsets)))
        occupied = problem.sizes > 0
        assert np.all(again[occupied] <= plan.offsets[occupied])


@given(interval_problems(aligned=True), st.data())
@settings(max_examples=80, deadline=None)
def test_replanning_a_suffix_keeps_the_prefix(problem, data):
    n = len(problem)
    order = np.array(data.draw(st.permutations(range(n))), dtype=np.int64)
    keep = data.draw(st.integers(min_value=0, max_value=n))
    full = place_in_order(problem, order)
    # Kept from best fit of the same order, the suffix comes out the same.
    assert place_in_order(problem, order, keep=keep, offsets=full).tolist() == full.tolist()
    # Kept from any valid plan, the prefix stays and the whole is valid.
    other = greedy(problem, order="skyline").offsets
    mixed = place_in_order(problem, order, keep=keep, offsets=other)
    kept = order[:keep]
    assert mixed[kept].tolist() == other[kept].tolist()
    assert not overlapping_pairs(problem, mixed)
    assert np.all(mixed % problem.alignments == 0)


@given(graph_problems(), st.data())
@settings(max_examples=40, deadline=None)
def test_replanning_a_suffix_on_conflict_graphs(problem, data):
    n = len(problem)
    order = np.array(data.draw(st.permutations(range(n))), dtype=np.int64)
    keep = data.draw(st.integers(min_value=0, max_value=n))
    other = greedy(problem, order="skyline").offsets
    mixed = place_in_order(problem, order, keep=keep, offsets=other)
    assert mixed[order[:keep]].tolist() == other[order[:keep]].tolist()
    assert not overlapping_pairs(problem, mixed)


@given(interval_problems(aligned=True))
@settings(max_examples=80, deadline=None)
def test_second_pass_is_valid_and_never_worse(problem):
    for order in ("size", "breadth", "skyline"):
        plan = greedy(problem, order=order + "+")
        assert not overlapping_pairs(problem, plan.offsets)
        assert np.all(plan.offsets % problem.alignments == 0)
        assert plan.pool_size <= greedy(problem, order=order).pool_size


@given(interval_problems(max_buffers=20, max_size=64))
@settings(max_examples=80, deadline=None)
def test_auto_walks_its_chain_until_good_enough(problem):
    plan = greedy(problem)
    assert not overlapping_pairs(problem, plan.offsets)
    pools = [greedy(problem, order=name).pool_size for name in AUTO_INTERVAL_CHAIN]
    assert plan.pool_size <= pools[0]
    if plan.pool_size > problem.lower_bound() * GOOD_ENOUGH:
        assert plan.pool_size == min(pools)
