"""Plans people can see and programs can read.

`FunctionPlan` is what a planning pass planned for one function (or `memplan-plan`
for one DSA instance); passes `record` them, callers collect them with
`recording()` (or get them from `memplan.run_pipeline`), and `render_html` /
`write_report` draw them as one self-contained HTML file.
"""

from memplan.report.html import render_html, render_svg, write_report
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
