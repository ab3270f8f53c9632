"""Random programs through every memory pipeline in the registry: the checker finds
nothing and the interpreter sees the planless outputs under every schedule.

Bounded to stay well under a minute; `bench/fuzz_plans.py N` runs more.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memplan.testing.fuzz import fuzz_program, memory_pipelines
from memplan.testing.random_programs import HypothesisChoices, RandomChoices, generate

FUZZ = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_every_memory_pass_in_the_registry_is_fuzzed():
    pipelines = memory_pipelines()
    singles = {p[0] for p in pipelines if len(p) == 1}
    assert {"optimize-memrefs", "materialize-host-scalars"} <= singles
    # hip-pool-allocs runs wherever pool-allocs does.
    hip = {tuple("pool-allocs" if n == "hip-pool-allocs" else n for n in p)
           for p in pipelines if "hip-pool-allocs" in p}
    assert hip == {p for p in pipelines if "pool-allocs" in p}
    orders = [p for p in pipelines if len(p) > 1]
    assert orders and len(orders) == len(set(orders))
    # Both orders of every pair of passes appear.
    for order in orders:
        for i in range(len(order) - 1):
            first, second = order[i], order[i + 1]
            assert any(first in o and second in o and o.index(second) < o.index(first)
                       for o in orders)


@FUZZ
@given(st.data())
def test_plans_never_race(data):
    program = generate(HypothesisChoices(data), max_ops=12)
    stats = fuzz_program(program, seed=data.draw(st.integers(0, 1000)), random_schedules=1)
    assert [f for f in stats.findings if f.kind == "generator"] == []
    assert stats.findings == [], "\n".join(
        f"{f.kind} after {'+'.join(f.pipeline)}: {f.detail}\n{f.program}" for f in stats.findings)


def test_the_harness_catches_the_old_reuse():
    """The interval-only reuse races on random programs: the harness must see it,
    with the checker and with the interpreter, within the first few hundred."""
    found = {"checker": 0, "interpreter": 0}
    for seed in range(800):
        stats = fuzz_program(generate(RandomChoices(seed)), seed,
                             pipelines=[("optimize-memrefs{host-ordering=false}",)])
        for finding in stats.findings:
            found[finding.kind] = found.get(finding.kind, 0) + 1
        if found["checker"] and found["interpreter"]:
            break
    assert found["checker"] > 0
    assert found["interpreter"] > 0
    assert found.get("generator", 0) == 0
