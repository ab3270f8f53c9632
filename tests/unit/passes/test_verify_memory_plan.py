"""verify-memory-plan: finds the seed's race, passes legal plans, and shares no code
with the planners it checks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from xdsl.context import Context

from memplan.context import make_context
from memplan.diagnostics import UserError, diagnostic_handler
from memplan.passes import verify_memory_plan
from memplan.passes.materialize_host_scalars import MaterializeHostScalars
from memplan.passes.optimize_memrefs import OptimizeMemrefs
from memplan.passes.verify_memory_plan import VerifyMemoryPlan, check_module
from memplan.tools.source import parse_module

SEED = Path(__file__).parents[2] / "lit" / "passes" / "Inputs" / "verify-memory-plan-seed.mlir"
CHUNKS = SEED.read_text().split("// -----")


def _parse(text: str):
    return parse_module(make_context(), text, "seed.mlir")


def test_imports_nothing_from_the_planners():
    tree = ast.parse(Path(verify_memory_plan.__file__).read_text())
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert modules, "the parse found no imports"
    assert not [m for m in modules if m and m.startswith(("memplan.analysis", "memplan.planning"))]


@pytest.mark.parametrize("chunk", [0, 1])
def test_seed_after_old_reuse_names_both_accesses(chunk):
    module = _parse(CHUNKS[chunk])
    OptimizeMemrefs(host_ordering=False).apply(Context(), module)
    violations = check_module(module)
    assert len(violations) == 1
    (v,) = violations
    assert v.later.name == "memref.store" and v.earlier.name == "hip.cast"
    assert "write of %a (host)" in v.message and "read of %a (device" in v.message


@pytest.mark.parametrize("chunk", [0, 1])
@pytest.mark.parametrize("scalars_first", [False, True])
def test_memplan_plans_pass(chunk, scalars_first):
    module = _parse(CHUNKS[chunk])
    passes = [MaterializeHostScalars(), OptimizeMemrefs()]
    if not scalars_first:
        passes.reverse()
    for p in passes:
        p.apply(Context(), module)
    assert check_module(module) == []


def test_the_pass_emits_error_and_note_then_fails():
    module = _parse(CHUNKS[0])
    OptimizeMemrefs(host_ordering=False).apply(Context(), module)
    seen = []
    with diagnostic_handler(seen.append), pytest.raises(UserError) as failure:
        VerifyMemoryPlan().apply(Context(), module)
    assert [d.severity for d in seen] == ["error", "note"]
    assert str(seen[0].location).endswith(":9:3") and str(seen[1].location).endswith(":7:3")
    assert "1 unordered pair" in failure.value.message


def test_the_pass_leaves_a_good_plan_unchanged():
    module = _parse(CHUNKS[1])
    OptimizeMemrefs().apply(Context(), module)
    text = str(module)
    assert VerifyMemoryPlan().run(Context(), module) is False
    assert str(module) == text


def test_synchronize_between_makes_reuse_legal():
    text = """
    func.func @f(%ctx: !hip.context, %o: memref<1xi32>, %n: i64) {
      %c0 = arith.constant 0 : index
      %a = memref.alloc() : memref<1xi64>
      memref.store %n, %a[%c0] : memref<1xi64>
      hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xi32>) {to = 6 : i64}
      SYNC
      memref.store %n, %a[%c0] : memref<1xi64>
      hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xi32>) {to = 6 : i64}
      return
    }"""
    assert check_module(_parse(text.replace("SYNC", "memplan.synchronize(%ctx)"))) == []
    assert len(check_module(_parse(text.replace("SYNC", "")))) == 1
