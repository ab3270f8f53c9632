"""The stabbing index that the greedy constructions query for conflicting buffers."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memplan.planning import Problem
from memplan.planning.greedy import _BLOCK_STARTS, _stabbing_index


@st.composite
def dense_traces(draw):
    """Enough buffers for several blocks, over few start times (long runs of equal
    starts, which cross block boundaries), with short and long lifetimes."""
    count = draw(st.integers(min_value=0, max_value=4 * _BLOCK_STARTS))
    span = draw(st.integers(min_value=1, max_value=200))
    longest = draw(st.integers(min_value=1, max_value=300))
    rng = np.random.default_rng(draw(st.integers(min_value=0, max_value=2**32 - 1)))
    lowers = rng.integers(0, span, count)
    uppers = lowers + rng.integers(1, longest + 1, count)
    return Problem.from_intervals(list(zip(lowers.tolist(), uppers.tolist(), [1] * count)))


@given(dense_traces())
@settings(max_examples=40, deadline=None)
def test_each_query_finds_exactly_the_conflicting_buffers(problem):
    index = _stabbing_index(problem)
    assert sorted(index.by_first.tolist()) == list(range(len(problem)))
    for position, buffer in enumerate(index.by_first.tolist()):
        earlier, low, high = index.around(position)
        candidates = np.concatenate((earlier, np.arange(low, high)))
        live = candidates[index.last[candidates] > index.first_list[position]]
        found = index.by_first[live].tolist()
        # By definition: the lifetimes intersect (the buffer itself included).
        expected = np.flatnonzero(
            (problem.lowers < problem.uppers[buffer]) & (problem.lowers[buffer] < problem.uppers)
        ).tolist()
        assert sorted(found) == expected  # each once: no buffer from both parts
