"""The planners' list-based fast paths for conflict graphs agree with the numpy
forms they replaced: best fit's gap choice (`_best_gap_of_lists` against
`_best_gap`), best fit in order on graphs (against the per-buffer numpy loop it
replaced), and the validator's bulk edge check (against a row-by-row check)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import memplan.planning.validate as validate
from memplan.planning import Buffer, PlanValidationError, Problem, place_in_order, validate_plan
from memplan.planning.greedy import _best_gap, _best_gap_of_lists

from planning_cases import graph_problems

ranges = st.lists(
    st.tuples(st.integers(0, 300), st.integers(0, 40)), max_size=12
).map(lambda rs: ([o for o, _ in rs], [o + s for o, s in rs]))


@given(ranges, st.integers(0, 50), st.sampled_from([1, 2, 8, 64]))
@settings(max_examples=400, deadline=None)
def test_best_gap_of_lists_is_best_gap(ranges, size, alignment):
    offsets, ends = ranges
    expected = _best_gap(
        np.array(offsets, dtype=np.int64), np.array(ends, dtype=np.int64), size, alignment
    )
    assert _best_gap_of_lists(list(offsets), list(ends), size, alignment) == expected


def _numpy_place_in_order(problem: Problem, order) -> np.ndarray:
    """Best fit in `order` on a conflict graph, one numpy `_best_gap` per buffer
    (place_in_order before its list form)."""
    sizes = problem.sizes
    placed = np.zeros(len(problem), dtype=bool)
    offsets = np.zeros(len(problem), dtype=np.int64)
    ends = offsets + sizes
    for buffer in [b for b in order if sizes[b] > 0]:
        around = problem.neighbours[buffer]
        around = around[placed[around]]
        offset = _best_gap(offsets[around], ends[around], int(sizes[buffer]),
                           int(problem.alignments[buffer]))
        offsets[buffer], ends[buffer], placed[buffer] = offset, offset + sizes[buffer], True
    return offsets


@st.composite
def aligned_graph_problems(draw):
    problem = draw(graph_problems(max_buffers=12))
    buffers = [
        Buffer(b.id, draw(st.integers(0, 12)), alignment=draw(st.sampled_from([1, 4, 8])))
        for b in problem.buffers
    ]
    return Problem.from_neighbours(buffers, problem.neighbours)


@given(aligned_graph_problems(), st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_place_in_order_on_graphs_is_the_numpy_loop(problem, random):
    order = list(range(len(problem)))
    random.shuffle(order)
    assert place_in_order(problem, order).tolist() == _numpy_place_in_order(problem, order).tolist()


def _first_clash_row_by_row(problem: Problem, offsets: np.ndarray) -> tuple[int, int] | None:
    """The validator's first reported pair, checked one buffer's row at a time."""
    ends = offsets + problem.sizes
    for a, row in enumerate(problem.neighbours):
        if problem.sizes[a] == 0 or row.size == 0:
            continue
        clash = (offsets[row] < ends[a]) & (ends[row] > offsets[a]) & (problem.sizes[row] > 0)
        if clash.any():
            return a, int(row[np.argmax(clash)])
    return None


@given(problem=aligned_graph_problems(), data=st.data())
@settings(max_examples=150, deadline=None)
def test_validator_reports_the_first_clash_in_row_order(problem, data):
    offsets = np.array(
        [data.draw(st.integers(0, 6)) * int(a) for a in problem.alignments], dtype=np.int64
    )
    expected = _first_clash_row_by_row(problem, offsets)
    saved = validate._EDGES_PER_CHECK
    try:
        for chunk in (1, 3, saved):  # one row per chunk, a few rows, all rows
            validate._EDGES_PER_CHECK = chunk
            if expected is None:
                validate_plan(problem, offsets)
            else:
                a, b = (problem.buffers[i].id for i in expected)
                with pytest.raises(PlanValidationError, match=f"buffers {a} and {b} conflict"):
                    validate_plan(problem, offsets)
    finally:
        validate._EDGES_PER_CHECK = saved
