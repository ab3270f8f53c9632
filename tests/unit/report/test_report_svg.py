"""The plan report's picture: every rectangle is where the plan puts its buffer."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from memplan.planning import Problem, greedy
from svg_geometry import SVG, rectangles

from memplan.report import DomainPlan, FunctionPlan, PlannedBuffer, plan_of_intervals, render_html, render_svg

def test_rectangles_match_an_interval_plan():
    problem = Problem.from_intervals([(0, 4, 96), (1, 3, 32), (2, 6, 64), (4, 8, 128), (5, 7, 16)])
    plan = greedy(problem)
    svg = render_svg(plan_of_intervals(plan, "five"))
    found, _ = rectangles(svg)
    assert set(found) == {b.id for b in problem.buffers}
    for buffer, placed in zip(problem.buffers, plan.offsets.tolist()):
        start, end, offset, size = found[buffer.id]
        assert start == pytest.approx(buffer.lower, abs=1e-3)
        assert end == pytest.approx(buffer.upper, abs=1e-3)
        assert offset == pytest.approx(placed, abs=0.05)
        assert size == pytest.approx(buffer.size, abs=0.05)


def test_lower_bound_line_and_hover_text():
    buffers = (
        PlannedBuffer("%a", 256, 0, 0, (0, 3), "host-fed", "f.mlir:3:5"),
        PlannedBuffer("%b", 512, 256, 0, (1, 4), "device-only", "f.mlir:4:5", kept_apart=(("%a", "because"),)),
        PlannedBuffer("%r", 128, 768, 0, (2, 5), "returned"),
        PlannedBuffer("%d", None, None, 0, (2, 5), "device-only", size_text="memref<?xf32>, ? = %n"),
    )
    plan = FunctionPlan("f", buffers, (DomainPlan(0, 1024, 896),), "greedy")
    found, root = rectangles(render_svg(plan))
    assert set(found) == {"%a", "%b", "%r"}  # a dynamic buffer has no place in the picture
    line = root.find(f"{SVG}line[@class='lower-bound']")
    frame = root.find(f"{SVG}rect[@class='frame']")
    top = float(frame.get("data-bytes").split()[1])
    bottom = float(frame.get("y")) + float(frame.get("height"))
    assert bottom - float(line.get("y1")) == pytest.approx(896 / top * float(frame.get("height")), abs=1e-3)
    fills = {r.get("data-name"): r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("data-name")}
    assert len({fills["%a"], fills["%b"], fills["%r"]}) == 3
    hover = {r.get("data-name"): r.find(f"{SVG}title").text for r in root.iter(f"{SVG}rect") if r.get("data-name")}
    assert hover["%b"].splitlines() == [
        "%b", "at f.mlir:4:5", "size 512 B", "offset 256", "live [1, 4)", "device-only", "kept apart from %a: because"
    ]


def test_html_is_self_contained_and_tabulates_each_domain():
    buffers = (
        PlannedBuffer("%a", 256, 0, 0, (0, 3), "host-fed"),
        PlannedBuffer("%b", 64, 0, 1, (1, 4), "device-only"),
    )
    plan = FunctionPlan("f", buffers, (DomainPlan(0, 256, 256), DomainPlan(1, 256, 64, 1)), "best")
    page = render_html([plan], "t")
    assert page.count("<svg") == 2
    assert not re.search(r"""(src|href)=["'](https?:|//)""", page) and "<script" not in page
    rows = re.findall(r'<tr><td class="n">(\d)</td><td class="n">([^<]*)</td><td class="n">([^<]*)</td><td class="n">([^<]*)</td>', page)
    assert rows == [("0", "256 B", "256 B", "1.0000"), ("1", "256 B", "64 B", "4.0000")]


def test_unnamed_buffers_get_names_of_their_own():
    from memplan.report.ir import unique_names

    assert unique_names(["%alloc", "%x", "%alloc", "%alloc_0", "%alloc"]) == [
        "%alloc", "%x", "%alloc_1", "%alloc_0", "%alloc_2"
    ]
