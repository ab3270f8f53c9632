"""The differential check catches the seed's race and passes legal plans."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context

from memplan.interpreter import (
    Schedule,
    default_schedules,
    differential_check,
    run_function,
)
from memplan.passes.materialize_host_scalars import MaterializeHostScalars
from memplan.passes.optimize_memrefs import OptimizeMemrefs

SEED = Path(__file__).parents[2] / "lit" / "passes" / "Inputs" / "verify-memory-plan-seed.mlir"
CHUNKS = SEED.read_text().split("// -----")


def _planned(parse, text, passes):
    module = parse(text)
    for p in passes:
        p.apply(Context(), module)
    return module


@pytest.mark.parametrize("chunk,name", [(0, "seed_scalars"), (1, "seed_32_elements")])
def test_old_reuse_gives_wrong_outputs_under_a_late_schedule(parse, chunk, name):
    before = parse(CHUNKS[chunk])
    after = _planned(parse, CHUNKS[chunk], [OptimizeMemrefs(host_ordering=False)])
    report = differential_check(before, after, name)
    assert not report.reference_races
    assert "late" in {m.schedule.policy for m in report.mismatches}
    # Run as early as legal the race does not show: the kernel ran before the store.
    assert "early" not in {m.schedule.policy for m in report.mismatches}


@pytest.mark.parametrize("order", ["optimize-first", "scalars-first"])
@pytest.mark.parametrize("chunk,name", [(0, "seed_scalars"), (1, "seed_32_elements")])
def test_memplan_plans_match_under_every_schedule(parse, chunk, name, order):
    passes = [OptimizeMemrefs(), MaterializeHostScalars()]
    if order == "scalars-first":
        passes.reverse()
    before = parse(CHUNKS[chunk])
    after = _planned(parse, CHUNKS[chunk], passes)
    report = differential_check(before, after, name, default_schedules(8))
    assert report.ok, [str(m) for m in report.mismatches]
    assert report.schedules == 10


def test_host_scalars_first_fixes_only_the_scalar_pair(parse):
    results = {}
    for chunk, name in ((0, "seed_scalars"), (1, "seed_32_elements")):
        before = parse(CHUNKS[chunk])
        after = _planned(parse, CHUNKS[chunk],
                         [MaterializeHostScalars(), OptimizeMemrefs(host_ordering=False)])
        results[name] = differential_check(before, after, name).ok
    assert results == {"seed_scalars": True, "seed_32_elements": False}


def test_a_racy_input_is_reported_as_the_inputs_race(parse):
    text = """
    func.func @f(%ctx: !hip.context, %x: memref<4xf32>) -> memref<4xf32> {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1.0 : f32
      %y = memref.alloc() : memref<4xf32>
      hip.neg(%ctx) ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
      memref.store %v, %y[%c0] : memref<4xf32>
      return %y : memref<4xf32>
    }"""
    report = differential_check(parse(text), parse(text), "f")
    assert report.reference_races and not report.mismatches
    assert run_function(parse(text), "f", Schedule("late")) != run_function(
        parse(text), "f", Schedule("early"))
