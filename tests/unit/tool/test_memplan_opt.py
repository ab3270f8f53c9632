"""memplan-opt's command line, driven in-process (fast) and through xdsl-opt."""

import shutil
import subprocess
import sys

import pytest

from memplan.passes.registry import PASSES, passes_by_name
from memplan.tools.memplan_opt import main


def test_help_lists_every_pass_and_alias(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for info in PASSES:
        assert f"  --{info.name} " in text
        for alias in info.aliases:
            assert alias in text


def test_registry_names_are_unique_and_loadable():
    seen: set[str] = set()
    for info in PASSES:
        for name in (info.name, *info.aliases):
            assert name not in seen, name
            seen.add(name)
        # xdsl-opt instantiates by the class's own name, so it is the universe name.
        assert info.load().name == (info.universe_name or info.name)
        assert info.summary and "\n" not in info.summary
    assert set(passes_by_name()) == seen


def test_peer_aliases_are_registered():
    # RUN lines from hip-ep and IREE must work with only the tool's name changed.
    # Each alias appears once the pass that owns it lands in the registry.
    table = passes_by_name()
    for info in PASSES:
        for alias in info.aliases:
            assert table[alias] is info


def test_bad_invocation_exits_1_without_traceback(capsys, tmp_path):
    assert main([str(tmp_path / "absent.mlir")]) == 1
    err = capsys.readouterr().err
    assert "error: could not open input file" in err
    assert "Traceback" not in err


def test_failed_run_leaves_existing_output_untouched(tmp_path):
    source = tmp_path / "bad.mlir"
    source.write_text("func.func @f() {\n  %0 = arith.addi %x, %x : i32\n}\n")
    output = tmp_path / "out.mlir"
    output.write_text("previous")
    assert main([str(source), "-o", str(output)]) == 1
    assert output.read_text() == "previous"
    assert set(p.name for p in tmp_path.iterdir()) == {"bad.mlir", "out.mlir"}


def test_successful_run_writes_output(tmp_path):
    source = tmp_path / "ok.mlir"
    source.write_text("func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n")
    output = tmp_path / "out.mlir"
    assert main([str(source), "-o", str(output)]) == 0
    assert "return %arg0 : i32" in output.read_text()
    assert set(p.name for p in tmp_path.iterdir()) == {"ok.mlir", "out.mlir"}



def test_failed_chunk_prints_nothing_between_the_others(tmp_path, capsys):
    """The chunks are printed into one buffer as they finish; a chunk that fails
    leaves neither its text nor a separator in it."""
    chunks = [
        "func.func @first(%a: i32) -> i32 {\n  return %a : i32\n}\n",
        "func.func @bad() {\n  %0 = arith.addi %x, %x : i32\n}\n",
        "func.func @third(%a: i64) -> i64 {\n  return %a : i64\n}\n",
    ]
    source = tmp_path / "chunks.mlir"
    source.write_text("// -----\n".join(chunks))
    alone = []
    for number, text in enumerate(chunks[::2]):
        single = tmp_path / f"single{number}.mlir"
        single.write_text(text)
        assert main([str(single)]) == 0
        alone.append(capsys.readouterr().out)
    assert main([str(source), "--split-input-file"]) == 1
    assert capsys.readouterr().out == "// -----\n".join(alone)


HIP_FUNC = """\
func.func @step(%ctx: !hip.context, %a: memref<4xf32>) {
  %b = memref.alloc() : memref<4xf32>
  hip.add(%ctx) ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  memplan.synchronize(%ctx)
  return
}
"""


@pytest.mark.skipif(shutil.which("xdsl-opt") is None, reason="xdsl-opt not installed")
def test_stock_xdsl_opt_reads_hip_and_lists_memplan_passes(tmp_path):
    source = tmp_path / "step.mlir"
    source.write_text(HIP_FUNC)
    xdsl_opt = shutil.which("xdsl-opt")
    result = subprocess.run([xdsl_opt, str(source)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "hip.add(%ctx) ins(%a, %a" in result.stdout
    assert "memplan.synchronize(%ctx)" in result.stdout
    # memplan's CSE runs under its universe name, next to xDSL's own `cse`.
    cleaned = subprocess.run(
        [xdsl_opt, str(source), "-p", "memplan-cse"], capture_output=True, text=True
    )
    assert cleaned.returncode == 0, cleaned.stderr
    assert "memplan.synchronize(%ctx)" in cleaned.stdout


def test_multiverse_sees_memplan():
    from xdsl.universe import Universe

    multiverse = Universe.get_multiverse()
    for name in ("hip", "stream", "util", "hal", "iree_encoding"):
        assert name in multiverse.all_dialects
    from memplan.universe import MEMPLAN_UNIVERSE

    assert MEMPLAN_UNIVERSE.all_passes
    for name in MEMPLAN_UNIVERSE.all_passes:
        assert name in multiverse.all_passes


def test_universe_never_reuses_xdsl_names():
    from xdsl.dialects import get_all_dialects
    from xdsl.transforms import get_all_passes

    from memplan.universe import MEMPLAN_UNIVERSE

    assert not set(MEMPLAN_UNIVERSE.all_dialects) & set(get_all_dialects())
    assert not set(MEMPLAN_UNIVERSE.all_passes) & set(get_all_passes())


def test_every_pass_option_is_described_on_its_class(capsys):
    from memplan.passes.registry import pass_options

    for info in PASSES:
        for option in pass_options(info.load()):
            assert option.description, f"{info.name}: --{option.spelled} has no help"
            assert "<class" not in option.type_text and "bool" not in option.type_text
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    # Enum values, MLIR-style value names and defaults; no Python type names.
    assert "--region-simplify" in text and "<disabled|normal|aggressive>" in text
    assert "(default: normal)" in text
    for python_name in ("<class", "Literal[", " | None", "tuple["):
        assert python_name not in text


def test_pass_statistics_count_per_pass(tmp_path, capsys):
    source = tmp_path / "dup.mlir"
    source.write_text(
        "func.func @f(%a: index) -> index {\n"
        "  %0 = arith.addi %a, %a : index\n  %1 = arith.addi %a, %a : index\n"
        "  %2 = arith.muli %0, %1 : index\n  return %2 : index\n}\n"
    )
    assert main([str(source), "--mlir-pass-statistics", "-cse",
                 "--iree-util-fixed-point-iterator=pipeline=cse"]) == 0
    report = capsys.readouterr().err
    cse = report[report.index("\nCSE\n"):report.index("FixedPointIterator")]
    assert "(S) 1 num-ops-erased" in cse
    assert "(S) 1 num-iterations" in report[report.index("FixedPointIterator"):]


def test_timing_rows_add_up_to_the_total(tmp_path, capsys):
    """mlir-opt's report: the verifier's runs in one row, what no phase covers as
    `Rest`, and the rows sum to the total (up to the printed rounding)."""
    source = tmp_path / "f.mlir"
    source.write_text("func.func @f(%a: index) -> index {\n  return %a : index\n}\n")
    assert main([str(source), "--mlir-timing", "-cse", "--verify-each",
                 "-o", str(tmp_path / "out.mlir")]) == 0
    report = capsys.readouterr().err
    rows = {}
    for line in report.splitlines():
        if "%)" in line:
            seconds, name = line.split()[0], line.split(")", 1)[1].strip()
            rows[name] = float(seconds)
    assert list(rows) == ["Parser", "Verifier", "cse", "Output", "Rest", "Total"]
    parts = sum(v for k, v in rows.items() if k != "Total")
    assert abs(parts - rows["Total"]) <= 0.0001 * len(rows)
    assert f"Total Execution Time: {rows['Total']:.4f} seconds" in report


def test_closed_pipe_ends_quietly(tmp_path, run_with_closed_stdout):
    """`memplan-opt big.mlir | head -1`: once the reader is gone the tool exits 141
    (128 + SIGPIPE, as memplan-plan), with no traceback and no `Exception ignored`
    from the interpreter's last flush of the text it still holds."""
    functions = "".join(f"func.func @f{i}() {{\n  func.return\n}}\n" for i in range(3000))
    source = tmp_path / "big.mlir"
    source.write_text(functions)
    result = run_with_closed_stdout([sys.executable, "-m", "memplan.tools.memplan_opt", str(source)])
    assert result.returncode == 141
    assert result.stderr == ""
