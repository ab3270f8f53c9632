"""`Problem.from_neighbours`: prebuilt adjacency is taken as it is, checked in bulk."""

from __future__ import annotations

import numpy as np
import pytest

from memplan.planning import Buffer, PlanInputError, Problem, greedy, validate_plan


def _arrays(*rows):
    return tuple(np.array(r, dtype=np.int64) for r in rows)


def test_same_problem_as_from_pairs():
    buffers = [Buffer(str(i), s) for i, s in enumerate([64, 32, 16, 8])]
    pairs = [(0, 1), (1, 2), (0, 3)]
    by_pairs = Problem(buffers, conflicts=pairs)
    by_rows = Problem.from_neighbours(buffers, _arrays([1, 3], [0, 2], [1], [0]))
    assert [r.tolist() for r in by_rows.neighbours] == [r.tolist() for r in by_pairs.neighbours]
    assert by_rows.conflict_count() == 3 and not by_rows.has_intervals
    assert by_rows.conflicts(0, 1) and not by_rows.conflicts(0, 2)
    plan = greedy(by_rows)
    validate_plan(by_pairs, plan.offsets)


@pytest.mark.parametrize(
    "rows, message",
    [
        (([1], [0]), "2 neighbour lists for 3 buffers"),
        (([1], [0], [3]), "outside 0..2"),
        (([0], [], []), "its own neighbour"),
        (([2, 1], [0], [0]), "sorted"),
        (([1, 1], [0], []), "sorted"),
        (([1], [], []), "symmetric"),
        (([1, 2], [0], [1]), "symmetric"),  # as many entries as a symmetric graph
    ],
)
def test_malformed_adjacency_is_rejected(rows, message):
    buffers = [Buffer(str(i), 8) for i in range(3)]
    with pytest.raises(PlanInputError, match=message):
        Problem.from_neighbours(buffers, _arrays(*rows))


def test_no_buffers():
    assert len(Problem.from_neighbours([], ())) == 0
