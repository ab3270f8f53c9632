"""An independent check that a memory plan never races: `check_module(module)`.

A planner bug must not hide behind the planner's own analysis, so the checker
shares no code with `memplan.analysis` or `memplan.planning` beyond the data
layout's one element-size rule (`memplan.analysis.data_layout`, which the planners
and the interpreter call too). It reads only what the IR says about itself through
`memplan.interfaces` and derives, its own simple way, which bytes every access
touches (`model`: views answer with their byte range), when it runs, and which
pairs the execution model leaves unordered (`check`). `verify-memory-plan` is the
pass that reports them. See docs/design/verify-memory-plan.md.
"""

from memplan.checker.check import check_module
from memplan.checker.model import Violation

__all__ = ["Violation", "check_module"]
