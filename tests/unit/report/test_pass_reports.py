"""Plan reports from the IR path: `pool-allocs{report=PATH}`,
`hip-memory-plan{report=PATH}` (through memplan-opt), what they draw against what the
pass wrote for the runtime, and the picture in docs/ against the shipped example."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import memplan
from memplan.tools.memplan_opt import main as memplan_opt

from svg_geometry import SVG, int_list, rectangles

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "decoder_step.mlir"


def example_plan(pipeline: str):
    ctx = memplan.make_context()
    module = memplan.parse(ctx, EXAMPLE.read_text(), str(EXAMPLE), verify=False)
    result = memplan.run_pipeline(ctx, module, pipeline)
    return module, result.plans["decode_step"]


def svgs(page: str) -> list[str]:
    return re.findall(r"<svg.*?</svg>", page, re.S)


HOST_ONLY = """\
func.func @f(%ctx: !hip.context, %v: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<64xi64>
  memref.store %v, %a[%c0] : memref<64xi64>
  %x = memref.load %a[%c0] : memref<64xi64>
  %b = memref.alloc() : memref<32xi64>
  memref.store %x, %b[%c0] : memref<32xi64>
  %y = memref.load %b[%c0] : memref<32xi64>
  return %y : i64
}
"""


@pytest.mark.parametrize("pipeline", ["pool-allocs", "hip-memory-plan"])
def test_memplan_opt_writes_the_report_the_plan_describes(tmp_path, capsys, pipeline):
    source = tmp_path / "in.mlir"
    source.write_text(HOST_ONLY)
    report = tmp_path / "plan.html"
    status = memplan_opt([str(source), "-p", f'{pipeline}{{report="{report}"}}', "-o", str(tmp_path / "o.mlir")])
    assert status == 0, capsys.readouterr().err
    ctx = memplan.make_context()
    plan = memplan.run_pipeline(ctx, memplan.parse(ctx, HOST_ONLY, str(source)), pipeline).plans["f"]
    assert [(b.name, b.kind, b.location) for b in plan.buffers] == [
        ("%a", "host-fed", f"{source}:3:3"), ("%b", "host-fed", f"{source}:6:3")
    ]
    (svg,) = svgs(report.read_text())
    drawn, _ = rectangles(svg)
    assert set(drawn) == {b.name for b in plan.buffers}
    for buffer in plan.buffers:
        start, end, offset, size = drawn[buffer.name]
        assert (start, end) == pytest.approx(buffer.live, abs=1e-3)
        assert (offset, size) == pytest.approx((buffer.offset, buffer.size), abs=0.5)


def test_the_plan_object_is_what_the_pass_wrote():
    module, plan = example_plan("pool-allocs")
    offsets = int_list(module.attributes["hipdnn.buffer_offsets"])
    assert offsets == [b.offset for b in plan.buffers]
    assert plan.domains[0].pool_size == module.attributes["hipdnn.pool_size"].value.data
    kinds = {b.name: b.kind for b in plan.buffers}
    assert kinds["%total_len"] == kinds["%positions"] == "host-fed" and kinds["%x"] == "device-only"


def test_buffers_kept_apart_carry_the_ordering_analysis_reason(tmp_path):
    report = tmp_path / "plan.html"
    _, plan = example_plan(f'pool-allocs{{report="{report}"}}')
    step = plan.buffer("%step")
    ((other, why),) = step.kept_apart
    assert other == "%total_len" and "may still be running" in why
    assert html.escape(why, quote=True) in report.read_text()


def test_an_unwritable_report_is_an_error_not_a_traceback(tmp_path, capsys):
    source = tmp_path / "in.mlir"
    source.write_text(HOST_ONLY)
    target = tmp_path / "missing" / "plan.html"
    status = memplan_opt([str(source), "-p", f'pool-allocs{{report="{target}"}}', "-o", str(tmp_path / "o.mlir")])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err
    assert f"plan report: could not write output file '{target}'" in err


def test_docs_picture_shows_the_example():
    """docs/decoder_step_plan.svg is `render_svg` of the example's plan under
    hip-pool-allocs; sizes, live ranges and kinds do not depend on the planner, so
    they must still match (offsets may move as the planner improves)."""
    _, plan = example_plan("hip-pool-allocs")
    picture = (ROOT / "docs" / "decoder_step_plan.svg").read_text()
    drawn, root = rectangles(picture)
    assert set(drawn) == {b.name for b in plan.buffers}
    kinds = {r.get("data-name"): r.get("class").split()[1] for r in root.iter(f"{SVG}rect") if r.get("data-name")}
    assert kinds == {b.name: b.kind for b in plan.buffers}
    assert set(kinds.values()) == {"host-fed", "device-only", "returned"}
    for buffer in plan.buffers:
        start, end, _, size = drawn[buffer.name]
        assert (start, end, size) == pytest.approx((*buffer.live, buffer.size), abs=0.5)


DYNAMIC = """\
func.func @f(%ctx: !hip.context, %v: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<64xf32>
  memref.store %v, %a[%c0] : memref<64xf32>
  %x = memref.load %a[%c0] : memref<64xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  memref.store %x, %d[%c0] : memref<?xf32>
  %y = memref.load %d[%c0] : memref<?xf32>
  %m = arith.addi %n, %n : index
  %e = memref.alloc(%m) : memref<?xf32>
  memref.store %y, %e[%c0] : memref<?xf32>
  %z = memref.load %e[%c0] : memref<?xf32>
  return %z : f32
}
"""


def test_dynamic_buffers_and_domains_in_the_plan(tmp_path):
    """%d's size is known on entry (domain 0, a slab after the static region); %e's
    is computed after the first allocation, so it opens domain 1."""
    ctx = memplan.make_context()
    module = memplan.parse(ctx, DYNAMIC, "dyn.mlir")
    report = tmp_path / "plan.html"
    plan = memplan.run_pipeline(ctx, module, f'pool-allocs{{report="{report}"}}').plans["f"]
    a, d, e = plan.buffers
    assert (a.size, d.size, e.size) == (256, None, None)
    assert (d.size_text, e.size_text) == ("memref<?xf32>, ? = %n", "memref<?xf32>, ? = %m")
    assert [b.domain for b in plan.buffers] == int_list(module.attributes["hipdnn.buffer_domains"])
    assert [b.offset for b in plan.buffers] == int_list(module.attributes["hipdnn.buffer_offsets"])
    assert [(x.pool_size, x.slabs) for x in plan.domains] == [
        (size, 1) for size in int_list(module.attributes["hipdnn.pool_sizes"])
    ]
    page = report.read_text()
    assert page.count("<svg") == 2 and "2 dynamic buffers live in slabs" in page
    drawn, _ = rectangles(svgs(page)[0])
    assert set(drawn) == {"%a"}
