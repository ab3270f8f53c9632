"""Plans people can see and programs can read.

`FunctionPlan` is what a planning pass planned for one function (or `memplan-plan`
for one DSA instance); passes `record` them, callers collect them with
`recording()` (or get them from `memplan.run_pipeline`), and `render_html` /
`write_report` draw them as one self-contained HTML file.
"""

from memplan.report.model import BufferKind, DomainPlan, FunctionPlan, PlannedBuffer, plan_of_intervals
from memplan.report.recording import Recording, listening, plan_report, record, recording

__all__ = [
    "BufferKind",
    "DomainPlan",
    "FunctionPlan",
    "PlannedBuffer",
    "Recording",
    "listening",
    "plan_of_intervals",
    "plan_report",
    "record",
    "recording",
    "render_html",
    "render_svg",
    "write_report",
]


def __getattr__(name: str) -> object:
    # The HTML renderer loads on first use: every run imports this package (the
    # plans are recorded), few draw them.
    if name in ("render_html", "render_svg", "write_report"):
        from memplan.report import html

        return getattr(html, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
