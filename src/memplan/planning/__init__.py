"""Offset planning independent of the IR: buffers, conflicts, strategies, checks.

``greedy`` (a bottom-up skyline construction, then best fit by breadth with a second
pass and by size while the pool is more than 0.5% above the bound; fast on traces of
tens of thousands of buffers),
``best`` (a second pass, other orders and a local search over best-fit orders under a
time budget) and ``exact``
(MiniMalloc-style branch and bound that learns why placements fail, with restarts)
all return a validated :class:`Plan`.
"""

from .best import best
from .dsa_csv import format_plan_csv, parse_dsa_csv, read_dsa_csv, write_plan_csv
from .exact import exact
from .greedy import ORDERS, PREORDERS, buffer_order, greedy, place_in_order, skyline_offsets
from .problem import Buffer, Plan, PlanInputError, Problem, Progress, no_progress
from .validate import PlanValidationError, validate_plan

#: The strategies by name; all are called ``f(problem, *, capacity=None,
#: time_limit=..., seed=0, progress=no_progress)``.
STRATEGIES = {"greedy": greedy, "best": best, "exact": exact}

__all__ = [
    "Buffer",
    "PREORDERS",
    "ORDERS",
    "Plan",
    "PlanInputError",
    "PlanValidationError",
    "STRATEGIES",
    "Problem",
    "Progress",
    "best",
    "buffer_order",
    "exact",
    "format_plan_csv",
    "greedy",
    "no_progress",
    "parse_dsa_csv",
    "place_in_order",
    "read_dsa_csv",
    "skyline_offsets",
    "validate_plan",
    "write_plan_csv",
]
