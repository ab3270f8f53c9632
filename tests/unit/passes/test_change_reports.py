"""Every pass reports exactly whether it changed the IR.

The fixed-point iterator does not trust the reports, but pipelines, tests and users
do, and IREE's loop broke on a pass that misreported (bug #24278). So for every lit
input under tests/lit/passes/ (and the examples), split as memplan-opt splits it, and
for every registered pass that is not a pipeline or an iterator of other passes, the
report must equal a comparison of fingerprints before and after. Passes added later
are covered without editing this file.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.analysis.fingerprint import fingerprint
from memplan.context import make_context
from memplan.diagnostics import UserError, diagnostic_handler
from memplan.passes.registry import PASSES, PassInfo
from memplan.tools.source import parse_module, split_input

ROOT = Path(__file__).resolve().parents[3]
INPUTS = sorted((ROOT / "tests" / "lit" / "passes").glob("*.mlir")) + sorted(
    (ROOT / "examples").glob("*.mlir")
)
CTX = make_context(allow_unregistered=True)


def _runs_other_passes(info: PassInfo) -> bool:
    if info.is_pipeline:
        return True
    return any(f.name == "pipeline" for f in dataclasses.fields(info.load()))


TRANSFORMS = [info for info in PASSES if not _runs_other_passes(info)]


@cache
def _chunks(path: Path) -> tuple[ModuleOp | None, ...]:
    """Each chunk parsed and verified once; None for chunks that are meant not to
    parse or verify (invalid-IR cases)."""
    modules: list[ModuleOp | None] = []
    for chunk in split_input(path.read_text(), split=True):
        try:
            module = parse_module(CTX, chunk.text, str(path))
            module.verify()
        except (ParseError, VerifyException, UserError, ValueError):
            module = None
        modules.append(module)
    return tuple(modules)


CASES = [
    pytest.param(path, index, id=f"{path.name}:{index}")
    for path in INPUTS
    for index in range(len(_chunks(path)))
    if _chunks(path)[index] is not None
]


def test_inputs_and_passes_were_found():
    assert len(CASES) > 50
    names = {info.name for info in TRANSFORMS}
    assert {"cse", "canonicalize", "apply-patterns", "simplify-global-accesses"} <= names


@pytest.mark.parametrize(("path", "index"), CASES)
def test_reports_match_fingerprints(path: Path, index: int):
    original = _chunks(path)[index]
    assert original is not None
    mismatches = []
    for info in TRANSFORMS:
        module = original.clone()
        before = fingerprint(module)
        with diagnostic_handler(lambda diagnostic: None):
            try:
                reported = info.load()().run(CTX, module)
            except UserError:
                continue  # the pass rejects this input; nothing to report
        actual = fingerprint(module) != before
        if reported != actual:
            mismatches.append(f"{info.name}: reported {reported}, changed {actual}")
    assert not mismatches, "\n".join(mismatches)
