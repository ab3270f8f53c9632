"""`canonicalize,cse` keep what random memref/arith/scf programs compute.

Each program (`memref_programs.generate`) runs in memplan's interpreter before and
after the two passes; the results and the final bytes of the buffer arguments must
be equal. A generated program that is invalid, or that fails in the interpreter
before the passes, is a bug of the generator and fails the test too.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from memplan.context import make_context
from memplan.interpreter import run_function
from memplan.passes.canonicalize import Canonicalize
from memplan.passes.cse import CSE
from memplan.tools.source import parse_module
from memref_programs import generate

CTX = make_context()


def _parse(text: str) -> ModuleOp:
    module = parse_module(CTX, text, "program.mlir")
    module.verify()
    return module


def _cleaned(text: str) -> ModuleOp:
    module = _parse(text)
    Canonicalize().apply(CTX, module)
    CSE().apply(CTX, module)
    module.verify()
    return module


def _ops(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_canonicalize_cse_keep_outputs(data):
    text = generate(lambda lo, hi: data.draw(st.integers(lo, hi)),
                    statements=data.draw(st.integers(4, 16)))
    before = _parse(text)
    after = _cleaned(text)
    for seed in (0, 1):
        want = run_function(before, "main", seed=seed)
        assert want.error is None, (want.error, text)
        have = run_function(after, "main", seed=seed)
        assert have.same_as(want), (seed, want, have, text)


def test_the_generated_programs_give_the_passes_work():
    """The check above is only as good as the rewrites it provokes: over a fixed
    sample of programs the passes must shrink most of them."""
    import random

    rng = random.Random(7)
    shrunk = 0
    for _ in range(20):
        text = generate(lambda lo, hi: rng.randint(lo, hi), statements=14)
        if _ops(_cleaned(text)) < _ops(_parse(text)):
            shrunk += 1
    assert shrunk >= 15
