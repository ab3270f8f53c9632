"""The fixed-point iterator decides change by fingerprint, never by what passes say.

Stand-in passes rewrite `arith.constant` values so that how many iterations a
pipeline needs is known from the input; some of them misreport what they did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.passes import ModulePass

import memplan
from memplan.diagnostics import Diagnostic, UserError, diagnostic_handler
from memplan.passes import registry
from memplan.passes.base import MemplanPass
from memplan.passes.fixed_point_iterator import (
    FixedPointIterator,
    NestedPass,
    iterate_to_fixed_point,
)


def _constants(module: ModuleOp) -> list[ConstantOp]:
    return [op for op in module.walk() if isinstance(op, ConstantOp)]


def _values(module: ModuleOp) -> list[int]:
    return [op.value.value.data for op in _constants(module)]  # type: ignore[union-attr]


def _set(op: ConstantOp, value: int) -> None:
    op.properties["value"] = IntegerAttr(value, i32)


def _decrement_first_positive(module: ModuleOp) -> bool:
    for op in _constants(module):
        value = op.value.value.data  # type: ignore[union-attr]
        if value > 0:
            _set(op, value - 1)
            return True
    return False


@dataclass(frozen=True)
class Decrement(MemplanPass):
    """Honest: lowers the first positive constant by one."""

    name = "test-decrement"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        return _decrement_first_positive(module)


@dataclass(frozen=True)
class LiesAboutChange(MemplanPass):
    """Claims a change every time and changes nothing (IREE bug #24278)."""

    name = "test-liar"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        return True


@dataclass(frozen=True)
class SilentDecrement(MemplanPass):
    """Changes the IR but says it did not (the seed's fold/fuse-globals)."""

    name = "test-silent-decrement"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        _decrement_first_positive(module)
        return False


@dataclass(frozen=True)
class PlainDecrement(ModulePass):
    """A plain xDSL pass, which reports nothing at all."""

    name = "test-plain-decrement"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _decrement_first_positive(op)


@dataclass(frozen=True)
class Increment(MemplanPass):
    """Never converges."""

    name = "test-increment"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        op = _constants(module)[0]
        _set(op, op.value.value.data + 1)  # type: ignore[union-attr]
        return True


@dataclass(frozen=True)
class SetToOne(MemplanPass):
    """Sets the first constant; with SetToZero after it, an iteration that ends
    where it began."""

    name = "test-set-one"
    value: ClassVar[int] = 1

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        _set(_constants(module)[0], self.value)
        return True


@dataclass(frozen=True)
class SetToZero(SetToOne):
    name = "test-set-zero"
    value: ClassVar[int] = 0


STAND_INS = (Decrement, LiesAboutChange, SilentDecrement, PlainDecrement, Increment,
             SetToOne, SetToZero)


@dataclass(frozen=True)
class _LocalPassInfo(registry.PassInfo):
    cls: type[ModulePass] | None = None

    def load(self) -> type[ModulePass]:
        assert self.cls is not None
        return self.cls


@pytest.fixture
def stand_ins(monkeypatch):
    """Register the stand-in passes so pipeline strings can name them."""
    extra = tuple(
        _LocalPassInfo(cls.name, "unused:Unused", cls.__doc__ or "", cls=cls)
        for cls in STAND_INS
    )
    monkeypatch.setattr(registry, "PASSES", registry.PASSES + extra)


def _module(*values: int) -> tuple[Context, ModuleOp]:
    ctx = memplan.make_context()
    body = "\n".join(f"  %c{i} = arith.constant {v} : i32" for i, v in enumerate(values))
    text = f"func.func @f() {{\n{body}\n  func.return\n}}"
    return ctx, memplan.parse(ctx, text)


def _run(module, ctx, *passes, max_iterations=10, debug=False):
    nested = [NestedPass(p.name, p) for p in passes]
    return iterate_to_fixed_point(ctx, module, nested, max_iterations=max_iterations,
                                  debug=debug)


@pytest.mark.parametrize("values, expected", [((0,), 1), ((1,), 2), ((3,), 4),
                                               ((2, 2), 5)])
def test_converges_in_the_fewest_iterations(values, expected):
    # Each iteration lowers one constant by one; one more confirms nothing changes.
    ctx, module = _module(*values)
    result = _run(module, ctx, Decrement())
    assert result.iterations == expected
    assert result.changed == (expected > 1)
    assert _values(module) == [0] * len(values)


def test_a_pass_that_claims_a_change_it_did_not_make_adds_no_iteration():
    ctx, module = _module(2)
    result = _run(module, ctx, Decrement(), LiesAboutChange())
    assert result.iterations == 3
    ctx, module = _module(0)
    assert _run(module, ctx, LiesAboutChange()).iterations == 1


@pytest.mark.parametrize("silent", [SilentDecrement(), PlainDecrement()])
def test_a_pass_that_changes_ir_silently_does_not_stop_the_loop(silent):
    ctx, module = _module(3)
    result = _run(module, ctx, silent)
    assert result.iterations == 4
    assert _values(module) == [0]


def test_past_the_limit_it_fails_with_one_clear_error():
    ctx, module = _module(5)
    with pytest.raises(UserError) as caught:  # each round: 5 -> 4 -> 5 -> 6
        _run(module, ctx, Decrement(), Increment(), Increment(), max_iterations=3)
    message = caught.value.message
    assert "did not converge within 3 iterations" in message
    assert "test-increment" in message and "test-decrement" in message


def test_exactly_enough_iterations_succeed():
    ctx, module = _module(2)
    assert _run(module, ctx, Decrement(), max_iterations=3).iterations == 3
    ctx, module = _module(2)
    with pytest.raises(UserError):
        _run(module, ctx, Decrement(), max_iterations=2)


def test_a_round_that_restores_the_ir_is_a_fixed_point():
    ctx, module = _module(0)
    assert _run(module, ctx, SetToOne(), SetToZero()).iterations == 1


def test_debug_names_the_passes_that_changed_the_ir_and_the_liars():
    ctx, module = _module(1)
    emitted: list[Diagnostic] = []
    with diagnostic_handler(emitted.append):
        _run(module, ctx, LiesAboutChange(), SilentDecrement(), debug=True)
    messages = [d.message for d in emitted]
    assert all(d.severity == "remark" for d in emitted)
    assert messages == [
        "fixed-point-iterator: iteration 1: 'test-liar' reported a change it did "
        "not make (ignored)",
        "fixed-point-iterator: iteration 1: 'test-silent-decrement' changed the IR "
        "without reporting it",
        "fixed-point-iterator: iteration 1: changed by test-silent-decrement",
        "fixed-point-iterator: iteration 2: 'test-liar' reported a change it did "
        "not make (ignored)",
        "fixed-point-iterator: iteration 2: no change; converged after 2 iterations",
    ]


def test_without_debug_nothing_is_printed():
    ctx, module = _module(2)
    emitted: list[Diagnostic] = []
    with diagnostic_handler(emitted.append):
        _run(module, ctx, Decrement())
    assert emitted == []


def test_no_bookkeeping_attributes_are_left(stand_ins):
    ctx, module = _module(2, 0)
    before = [(op.name, dict(op.attributes)) for op in module.walk()]
    FixedPointIterator(pipeline="test-decrement,test-liar").apply(ctx, module)
    after = [(op.name, dict(op.attributes)) for op in module.walk()]
    assert after == before
    assert _values(module) == [0, 0]


def test_the_pass_reports_whether_it_changed_the_module(stand_ins):
    ctx, module = _module(1)
    iterator = FixedPointIterator(pipeline="test-decrement,test-liar")
    assert iterator.run(ctx, module) is True
    assert iterator.run(ctx, module) is False


def test_nested_iterators_work(stand_ins):
    ctx, module = _module(3, 2)
    outer = FixedPointIterator(
        pipeline='fixed-point-iterator{pipeline="test-decrement" max-iterations=5},'
        "test-liar",
        max_iterations=2,
    )
    # The inner loop needs 3 + 2 changing rounds and one unchanged round: 6 > 5.
    with pytest.raises(UserError, match="within 5 iterations"):
        outer.apply(ctx, module)
    ctx, module = _module(3, 2)
    outer = FixedPointIterator(
        pipeline='fixed-point-iterator{pipeline="test-decrement"},test-liar',
        max_iterations=2,
    )
    assert outer.run(ctx, module) is True
    assert _values(module) == [0, 0]


def test_options_are_checked_when_the_pass_is_built(stand_ins):
    with pytest.raises(UserError, match="max-iterations must be at least 1"):
        FixedPointIterator(pipeline="test-decrement", max_iterations=0)
    with pytest.raises(UserError, match="in the pipeline of fixed-point-iterator: "
                       "'no-such-pass' does not refer to a registered pass"):
        FixedPointIterator(pipeline="test-decrement,no-such-pass")


def test_spelled_through_the_pipeline_parser(stand_ins):
    ctx, module = _module(2)
    memplan.run_pipeline(
        ctx, module,
        'iree-util-fixed-point-iterator{pipeline="test-silent-decrement" debug}',
    )
    assert _values(module) == [0]
