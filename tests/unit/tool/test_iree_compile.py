"""memplan-iree-compile without IREE: its commands, its text surgery, its errors.

The build with the real iree-compile/iree-opt is tests/peer/test_iree_pipeline.py;
here fake tools (scripts that copy their input to `-o`) stand in for them, and the
real memplan-opt lays out a small pack.
"""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from memplan.tools import iree_compile as tool
from memplan.tools.iree_compile import (
    ToolError,
    Tools,
    find_tools,
    layout_input,
    pass_seconds,
    plan_build,
    run_build,
    splice_layout,
    split_top_level,
)

FAKE = Tools(("iree-compile",), ("iree-opt",), ("memplan-opt",))


def _pipeline_of(argv) -> str:
    return next(a for a in argv if a.startswith("--pass-pipeline=")).split("=", 1)[1]


def test_iree_layout_build_is_the_stream_phase_cut_once_at_the_layout(tmp_path):
    build = plan_build(tmp_path / "m.mlir", tmp_path / "m.vmfb", tmp_path, FAKE, layout="iree")
    assert [s.name for s in build.steps] == [
        "flow", "stream-head", "layout-iree", "stream-tail", "vmfb"]
    flow, head, layout, tail, vmfb = (s.argv for s in build.steps)
    assert "--compile-to=flow" in flow and "--compile-from=stream" in vmfb
    for argv in (flow, head, layout, tail, vmfb):
        assert "--iree-hal-target-device=local" in argv
        assert "--iree-hal-local-target-device-backends=llvm-cpu" in argv
    # Each intermediate keeps its locations, so the vmfb can match IREE's.
    for argv in (flow, head, layout, tail):
        assert "--mlir-print-debuginfo" in argv
    texts = [_pipeline_of(argv) for argv in (head, layout, tail)]
    assert [t.count("iree-stream-layout-slices") for t in texts] == [0, 2, 0]
    assert texts[1] == ("builtin.module(util.initializer(iree-stream-layout-slices),"
                        "util.func(iree-stream-layout-slices))")
    # The cmd pipeline's passes around the layout, in Passes.cpp's order.
    head_text = texts[0]
    order = ["iree-stream-tensor-transformation-pipeline",
             "iree-stream-async-transformation-pipeline",
             "iree-stream-schedule-allocation", "iree-stream-emplace-transients",
             "iree-stream-materialize-transient-size-queries", "iree-stream-pack-constants"]
    assert [head_text.index(p) for p in order] == sorted(head_text.index(p) for p in order)
    assert texts[2].startswith("builtin.module(util.initializer(canonicalize),"
                               "util.func(canonicalize),iree-util-propagate-subranges,")
    assert texts[2].endswith("iree-stream-cleanup-pipeline,symbol-dce)")
    # One step's output is the next one's input.
    for before, after in zip(build.steps, build.steps[1:]):
        assert str(before.output) in after.argv


def test_memplan_layout_runs_memplan_opt_on_the_extracted_callables(tmp_path):
    build = plan_build(tmp_path / "m.mlir", tmp_path / "m.vmfb", tmp_path, FAKE,
                       layout_pipeline="layout-slices{effort=0}")
    names = [s.name for s in build.steps]
    assert names == ["flow", "stream-head", "local-scope", "layout-extract",
                     "layout-memplan", "layout-splice", "stream-tail", "vmfb"]
    memplan = build.steps[names.index("layout-memplan")].argv
    assert memplan[:3] == ("memplan-opt", "-p", "layout-slices{effort=0}")
    assert "--mlir-print-local-scope" in memplan
    assert build.steps[names.index("local-scope")].argv[-3:] == (
        str(tmp_path / "before-layout.mlir"), "-o", str(tmp_path / "before-layout.local.mlir"))
    assert all(s.action is not None for s in build.steps if s.name in ("layout-extract", "layout-splice"))


def test_straight_build_and_flow_input(tmp_path):
    straight = plan_build(tmp_path / "m.mlir", tmp_path / "m.vmfb", tmp_path, FAKE, layout="none")
    assert [s.argv for s in straight.steps] == [(
        "iree-compile", *tool.TARGET_FLAGS, str(tmp_path / "m.mlir"), "-o", str(tmp_path / "m.vmfb"))]
    from_flow = plan_build(tmp_path / "f.mlir", tmp_path / "m.vmfb", tmp_path, FAKE,
                           layout="iree", input_phase="flow", extra_flags=["--x=1"])
    assert from_flow.steps[0].name == "stream-head"
    assert str(tmp_path / "f.mlir") in from_flow.steps[0].argv
    assert all("--x=1" in s.argv for s in from_flow.steps)
    with pytest.raises(ToolError, match="unknown --layout"):
        plan_build(tmp_path / "m.mlir", tmp_path / "m.vmfb", tmp_path, FAKE, layout="mine")


def test_missing_tools_are_named(tmp_path):
    with pytest.raises(ToolError, match="cannot find iree-compile: give --iree-compile PATH"):
        find_tools(which=lambda name: None)
    with pytest.raises(ToolError, match="cannot find iree-opt"):
        find_tools(which=lambda name: "/x/iree-compile" if name == "iree-compile" else None)
    assert find_tools(which=lambda name: None if name == "iree-opt" else f"/x/{name}",
                      need_iree_opt=False).iree_compile == ("/x/iree-compile",)
    plain = tmp_path / "iree-compile"
    plain.write_text("")
    with pytest.raises(ToolError, match="not an executable file"):
        find_tools(iree_compile=str(plain), which=lambda name: None)


def test_main_reports_missing_tools_and_input(tmp_path, monkeypatch, capsys):
    source = tmp_path / "m.mlir"
    source.write_text("module {}\n")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert tool.main([str(source), "-o", str(tmp_path / "m.vmfb")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("memplan-iree-compile: cannot find iree-compile")
    assert "Traceback" not in err
    assert tool.main([str(tmp_path / "absent.mlir"), "-o", str(tmp_path / "m.vmfb")]) == 1
    assert "absent.mlir: no such file" in capsys.readouterr().err


MODULE = """\
#map = affine_map<(d0) -> (d0)>
module @module attributes {stream.affinity.default = #x} {
  util.global private @g = #util.composite<4096xi8, [
    dense_resource<blob> : tensor<1x512xi64>,
]> : index
  util.global private @h : index
  stream.executable private @ex {
    stream.executable.export public @e
  }
  util.func public @f(%arg0: index) -> index {
    %0:2 = stream.resource.pack slices({
      [0, 1] = %arg0
    }) : index
    util.return %0#0 : index
  }
  util.func public @g2() {
    util.return
  }
  util.initializer {
    %0:2 = stream.resource.pack slices({
      [0, 1] = %c1
    }) : index
    util.return
  }
}
#loc = loc("x")
{-#
  dialect_resources: {
    builtin: {
      blob: "0x08000000"
    }
  }
#-}
"""


def test_split_top_level_keeps_every_byte_and_cuts_at_top_level_ops():
    module = split_top_level(MODULE)
    assert module.render() == MODULE
    assert [op.head.split(" ")[0] for op in module.ops] == [
        "util.global", "util.global", "stream.executable", "util.func", "util.func",
        "util.initializer"]
    assert "]> : index" in module.ops[0].text  # a column-0 line inside an op
    assert module.suffix.startswith("}\n#loc")
    assert [op.symbol for op in module.ops] == ["g", "h", "ex", "f", "g2", None]
    with pytest.raises(ToolError, match="no top-level `module`"):
        split_top_level("func.func @f() {\n}\n")


def test_layout_input_and_splice_replace_only_the_callables_with_packs():
    module = split_top_level(MODULE)
    text, picked = layout_input(module)
    assert picked == [3, 5]
    assert "stream.executable" not in text and "@g2" not in text
    assert text.count("util.global") == 2 and text.startswith("module {\n")
    laid_out = (
        "module {\n  util.global private @h : index\n"
        "  util.func public @f(%arg0: index) -> index {\n    util.return %arg0 : index\n  }\n"
        "  util.initializer {\n    util.return\n  }\n}\n")
    spliced = splice_layout(module, picked, laid_out)
    assert "stream.resource.pack" not in spliced
    assert "util.return %arg0 : index" in spliced
    assert spliced.count("stream.executable.export") == 1 and "@g2()" in spliced
    assert spliced.endswith(module.suffix)
    with pytest.raises(ToolError, match="returned 1 callables for 2 sent"):
        splice_layout(module, picked, "module {\n  util.initializer {\n  }\n}\n")
    wrong = laid_out.replace("@f(", "@other(")
    with pytest.raises(ToolError, match="returned @other where @f was sent"):
        splice_layout(module, picked, wrong)


def test_failing_step_names_itself_and_shows_its_stderr(tmp_path):
    build = plan_build(tmp_path / "m.mlir", tmp_path / "m.vmfb", tmp_path, FAKE, layout="iree")

    def runner(argv, **_):
        failed = argv[0] == "iree-opt"
        return subprocess.CompletedProcess(argv, 3 if failed else 0, "", "line1\nbad pass\n")

    with pytest.raises(ToolError) as error:
        run_build(build, runner=runner)
    message = str(error.value)
    assert message.startswith("step stream-head failed (exit 3): iree-opt ")
    assert message.endswith("line1\nbad pass")


def test_pass_seconds_reads_the_timing_rows():
    report = """\
  ----Wall Time----  ----Name----
    0.6611 ( 79.2%)  Parser
    0.1118 ( 13.4%)  layout-slices
    0.0620 (  7.4%)  Output
"""
    assert pass_seconds(report) == pytest.approx(0.1118)
    assert pass_seconds("nothing") is None


def _fake_tool(path: Path) -> str:
    """A stand-in for iree-compile/iree-opt: copies its input file to `-o`."""
    path.write_text(
        f"#!{sys.executable}\n"
        "import shutil, sys\n"
        "args = sys.argv[1:]\n"
        "out = args[args.index('-o') + 1]\n"
        "source = [a for a in args if not a.startswith('-') and a != out][-1]\n"
        "shutil.copy(source, out)\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


STREAM_MODULE = """\
module @module {
  util.global private @g : index
  stream.executable private @ex {
    stream.executable.export public @e
  }
  util.func public @f() -> index {
    %c100 = arith.constant 100 : index
    %c200 = arith.constant 200 : index
    %c300 = arith.constant 300 : index
    %0:4 = stream.resource.pack slices({
      [0, 1] = %c100,
      [1, 2] = %c200,
      [3, 4] = %c300
    }) : index
    util.return %0#0 : index
  }
}
"""


def test_memplan_layout_end_to_end_with_fake_iree_tools(tmp_path, capsys):
    # The real memplan-opt lays out the pack; everything IREE does is a copy.
    source = tmp_path / "model.mlir"
    source.write_text(STREAM_MODULE)
    fake = _fake_tool(tmp_path / "fake-iree")
    out = tmp_path / "model.vmfb"
    code = tool.main([str(source), "-o", str(out), "--iree-compile", fake, "--iree-opt", fake,
                      "--work-dir", str(tmp_path / "work")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "layout-slices" in err  # its pass time
    result = out.read_text()
    assert "stream.resource.pack" not in result
    assert "stream.executable.export public @e" in result  # untouched, kept in place
    assert result.index("@ex") < result.index("@f()")
    # The two slices that are live together at time 1 do not share bytes:
    # 100 -> 128 bytes and 200 -> 256 with 64-byte alignment; the third reuses.
    assert "arith.constant 384 : index" in result


def test_dry_run_prints_the_commands(tmp_path, capsys):
    fake = _fake_tool(tmp_path / "fake-iree")
    assert tool.main([str(tmp_path / "m.mlir"), "-o", str(tmp_path / "m.vmfb"), "--dry-run",
                      "--layout", "iree", "--iree-compile", fake, "--iree-opt", fake,
                      "--work-dir", str(tmp_path / "w")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and all(line.startswith(fake) for line in lines)
    assert not (tmp_path / "w").exists()
