"""The differential test's instance generator, offline: it covers every hip op,
and memplan gives each instance the verdict hip-ep's definitions give it (but the
documented cases where memplan is stricter). tests/peer/hip_differential.py runs
the same instances through hip-ep's own hip-mlir-opt when given its path."""

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

from memplan.dialects.hip import KERNELS, Hip

_PATH = Path(__file__).resolve().parents[2] / "peer" / "hip_differential.py"
_spec = importlib.util.spec_from_file_location("hip_differential", _PATH)
differential = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = differential  # dataclasses look their module up
_spec.loader.exec_module(differential)

INSTANCES = differential.instances()


def test_every_hip_op_has_instances_both_ways():
    ops = Counter(i.op for i in INSTANCES)
    assert set(ops) == {op.name for op in Hip.operations}
    verdicts = {(i.op, i.expect) for i in INSTANCES}
    for op in ops:
        assert (op, "reject") in verdicts, op  # a near miss of every op
    for spec in KERNELS:
        names = {i.name for i in INSTANCES if i.op == f"hip.{spec.name}"}
        assert {f"hip.{spec.name}/memref/least", f"hip.{spec.name}/tensor/most"} <= names
        optional = [o for o in spec.operands if o.arity == "optional"]
        assert sum("/generic/" in n for n in names) == 2 * len(optional)


def test_instance_names_are_unique():
    names = Counter(i.name for i in INSTANCES)
    assert [n for n, k in names.items() if k > 1] == []


@pytest.mark.parametrize("chunk", range(4))
def test_memplan_gives_hip_eps_verdicts(chunk):
    """Accept what hip-ep accepts, reject what it rejects; a rejection of IR hip-ep
    accepts only with a documented reason (`STRICTER`)."""
    wrong = []
    stricter = 0
    for instance in INSTANCES[chunk::4]:
        verdict = differential.memplan_verdict(instance.text)
        if verdict.ok == (instance.expect == "accept"):
            continue
        if not verdict.ok and differential.stricter_reason(verdict.error):
            stricter += 1
            continue
        wrong.append(f"{instance.name}: expected {instance.expect}: {verdict.error}")
    assert wrong == []
    assert stricter <= 7


def test_the_stricter_cases_are_the_documented_ones():
    found = []
    for instance in INSTANCES:
        if instance.expect == "accept":
            verdict = differential.memplan_verdict(instance.text)
            if not verdict.ok:
                found.append((instance.name, differential.stricter_reason(verdict.error)))
    assert found and all(reason for _, reason in found)
    assert {name.split("/")[0] for name, _ in found} == {
        "hip.get_pool", "hip.get_host_scratch", "hip.alloc"}
    page = (Path(__file__).resolve().parents[3] / "docs" / "design" / "dialect-hip.md").read_text()
    for _, reason in differential.STRICTER:
        assert reason in page


def test_without_a_tool_the_comparison_is_skipped_with_its_reason(capsys, monkeypatch):
    monkeypatch.delenv("HIP_MLIR_OPT", raising=False)
    assert differential.main(["--only", "hip.add"]) == 0
    out = capsys.readouterr().out
    assert "comparison skipped: no --hip-mlir-opt PATH given" in out
    assert differential.main(["--hip-mlir-opt", "/nonexistent/hip-mlir-opt"]) == 0
    assert "hip-mlir-opt not found at /nonexistent/hip-mlir-opt" in capsys.readouterr().out


def test_the_acceptance_check_skips_without_a_tool(capsys, monkeypatch):
    path = Path(__file__).resolve().parents[2] / "peer" / "hip_ep_accepts.py"
    spec = importlib.util.spec_from_file_location("hip_ep_accepts", path)
    accepts = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = accepts
    spec.loader.exec_module(accepts)
    monkeypatch.delenv("HIP_MLIR_OPT", raising=False)
    assert accepts.main([]) == 0
    assert "skipped: no --hip-mlir-opt PATH given" in capsys.readouterr().out
    chunks = list(accepts.lit_chunks())
    assert any("hip." in c.text for c in chunks)
    assert all(c.where.startswith("tests/lit/") for c in chunks)
