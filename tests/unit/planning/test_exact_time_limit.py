"""The time limit is honoured: exact looks at its clock at every node, so it overruns
its limit by at most one node's work, whatever a node costs on a loaded machine.
Measured with a fake clock that advances a fixed step per reading (no timing)."""

from __future__ import annotations

import pytest

from memplan.planning import exact
from memplan.planning.search import fits_within

from planning_cases import guillotine_problem

LIMIT = 1.0
STEP = LIMIT / 1000


class SteppingClock:
    """Every reading is ``STEP`` later than the one before."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += STEP
        return self.now


# Seed 0 at 200 pieces needs more than 12,000 nodes: far more than the limit allows.
HARD = guillotine_problem(0, 200, side=1024)


def test_the_decision_search_reads_the_clock_at_every_node():
    clock = SteppingClock()
    result = fits_within(HARD, 1024, LIMIT, clock=clock)
    assert result.offsets is None and not result.proven_infeasible  # stopped by the limit
    assert result.nodes <= clock.readings
    assert clock.now <= 1.05 * LIMIT


@pytest.mark.parametrize("capacity", [1024, None], ids=["capacity", "bisection"])
def test_exact_stops_within_five_percent_of_its_limit(capacity):
    clock = SteppingClock()
    plan = exact(HARD, capacity=capacity, time_limit=LIMIT, clock=clock)
    assert not plan.optimal  # the limit, not the search, ended it
    assert plan.stats["nodes"] <= clock.readings
    assert clock.now <= 1.05 * LIMIT
