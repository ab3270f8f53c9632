"""What a memplan-opt run imports: numpy (12-16 MiB resident, a quarter of the
start) only once offsets are planned (memplan.lazy_numpy), importlib.metadata only
for --version, MLIR's test ops (memplan.dialects.mlir.mlir_test) only when the input
uses a `test.` op, xDSL's complex and tensor dialects (whose result names memplan
models) only when something else needs them, nor the affine and cf dialects. Each case runs in a fresh interpreter, whose modules are its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

_PROBE = """
import json, sys
from memplan.tools.memplan_opt import main
code = main(sys.argv[1:])
watched = ("numpy", "importlib.metadata", "memplan.dialects.mlir.mlir_test",
           "xdsl.dialects.complex", "xdsl.dialects.tensor", "xdsl.dialects.affine", "xdsl.dialects.cf")
print(json.dumps([code, sorted(m for m in watched if m in sys.modules)]))
"""

# A hip function without buffers: hip-memory-plan runs both passes and records the
# (empty) plan, but there is nothing to place.
_NO_BUFFERS = """
func.func @step(%ctx: !hip.context, %x: memref<4xf32>, %y: memref<4xi32>) {
  hip.cast(%ctx) ins(%x : memref<4xf32>) outs(%y : memref<4xi32>) {to = 6 : i64}
  return
}
"""

_STREAM = """
util.global private @g = 5 : index
util.func public @f() -> index {
  %c0 = arith.constant 0 : index
  %v = util.global.load @g : index
  %s = arith.addi %v, %c0 : index
  util.return %s : index
}
"""


def _run(tmp_path: Path, text: str, *args: str) -> tuple[str, list[str]]:
    source = tmp_path / "input.mlir"
    source.write_text(text)
    out = tmp_path / "out.mlir"
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE, str(source), "-o", str(out), *args],
        capture_output=True, text=True, timeout=120,
    )
    assert probe.returncode == 0, probe.stderr
    code, loaded = json.loads(probe.stdout.splitlines()[-1])
    assert code == 0, probe.stderr
    return out.read_text(), loaded


@pytest.mark.parametrize(
    ("text", "pipeline", "printed"),
    [
        (_NO_BUFFERS, "hip-memory-plan", "hipdnn."),
        ("module {}", "hip-memory-plan", "module"),
        (_STREAM, "stream-cleanup", "util.return"),
        (_STREAM, "canonicalize,cse", "util.return"),
    ],
)
def test_runs_that_plan_nothing_load_neither(tmp_path: Path, text: str, pipeline: str, printed: str):
    output, loaded = _run(tmp_path, text, "-p", pipeline)
    assert printed in output
    assert loaded == []


_LATE_DIALECTS = """
func.func @f(%t: tensor<?xf32>) -> (index, complex<f32>) {
  %c0 = arith.constant 0 : index
  %a = tensor.dim %t, %c0 : tensor<?xf32>
  %b = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>
  return %a, %b : index, complex<f32>
}
"""


def test_result_names_of_dialects_loaded_by_the_input(tmp_path: Path):
    # Their names are attached when the parser first loads the dialect, after
    # memplan's other external models.
    output, loaded = _run(tmp_path, _LATE_DIALECTS)
    assert loaded == ["xdsl.dialects.complex", "xdsl.dialects.tensor"]
    assert "%dim = tensor.dim" in output
    assert "%cst = complex.constant" in output


_TEST_OPS = """
func.func @f() -> i32 {
  %0 = "test.side_effect_op"() {effects = [{effect = "read", test_nonaddressable_resource}]} : () -> i32
  %1 = "test.side_effect_op"() {effects = [{effect = "read", test_nonaddressable_resource}]} : () -> i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}
"""


@pytest.mark.parametrize("flags", [(), ("--allow-test-dialect",)])
def test_test_dialect_loads_when_the_input_uses_it(tmp_path: Path, flags: tuple[str, ...]):
    # As a test build of mlir-opt: no flag needed, and the explicit flag means the
    # same. The two reads of one non-addressable resource merge only when the op's
    # effects are known (an unregistered op would keep both).
    output, loaded = _run(tmp_path, _TEST_OPS, "-p", "cse", *flags)
    assert loaded == ["memplan.dialects.mlir.mlir_test"]
    assert output.count("test.side_effect_op") == 1


def test_planning_modules_load_without_numpy():
    probe = subprocess.run(
        [sys.executable, "-c",
         "import sys, memplan.planning, memplan.passes.pool_allocs, memplan.analysis.ordering, "
         "memplan.report.ir, memplan.passes.pipelines; print('numpy' in sys.modules)"],
        capture_output=True, text=True, timeout=120,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "False"


_LATE_MODELS = """
import sys
import memplan
from memplan.interfaces import HostInlineRegions, SuccessorOperands, get_interface, memory_effects

ctx = memplan.make_context()
assert "xdsl.dialects.cf" not in sys.modules and "xdsl.dialects.affine" not in sys.modules
module = memplan.parse(ctx, sys.argv[1])
ops = {op.name: op for op in module.walk()}
assert memory_effects(ops["cf.br"]) == set()
assert get_interface(ops["cf.cond_br"], SuccessorOperands) is not None
assert get_interface(ops["affine.for"], HostInlineRegions).repeats
print("ok")
"""

_BRANCHES = """
func.func @f(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  affine.for %i = 0 to 4 {
  }
  cf.br ^bb2
^bb2:
  return
}
"""


def test_models_of_dialects_imported_after_the_others():
    # The cf and affine models are attached when the parser first loads the dialect.
    probe = subprocess.run(
        [sys.executable, "-c", _LATE_MODELS, _BRANCHES], capture_output=True, text=True, timeout=120
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "ok"
