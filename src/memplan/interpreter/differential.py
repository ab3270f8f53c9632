"""Run a function under many schedules, and compare a program before and after
memory planning.

The outputs of a run are what a caller can see: the returned values (buffers as
bytes) and the bytes of every buffer argument afterwards. A race-free program gives
the same outputs under every schedule; a correct plan gives the same outputs as the
program it was made from, under every schedule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import DiagnosticException, InterpretationError

from memplan.dialects.hip import ContextType
from memplan.interpreter.machine import MemplanInterpreter, Schedule
from memplan.interpreter.memory import MemRefValue, dtype_of

__all__ = [
    "DifferentialReport",
    "Mismatch",
    "Outcome",
    "default_schedules",
    "differential_check",
    "run_function",
]


def default_schedules(random_count: int = 4, seed: int = 0) -> list[Schedule]:
    """As late as legal, as early as legal, and `random_count` seeded random ones."""
    return [Schedule("late"), Schedule("early"),
            *(Schedule("random", seed + i) for i in range(random_count))]


@dataclass(frozen=True)
class Outcome:
    """What the caller sees after one run; `error` when the run failed."""

    results: tuple[Any, ...] = ()
    arguments: tuple[bytes, ...] = ()
    error: str | None = None
    kernels: int = 0

    def same_as(self, other: Outcome) -> bool:
        return (self.results, self.arguments, self.error) == (
            other.results, other.arguments, other.error)


def _function(module: ModuleOp, name: str) -> func.FuncOp:
    op = SymbolTable.lookup_symbol(module, name)
    if not isinstance(op, func.FuncOp):
        raise TypeError(f"no function @{name} in the module")
    return op


def _arguments(interp: MemplanInterpreter, fn: func.FuncOp, seed: int,
               dynamic_size: int) -> list[Any]:
    """Deterministic inputs for `fn` from `seed`: buffers filled with small values,
    index arguments equal to `dynamic_size` (they size dynamic buffers)."""
    rng = np.random.default_rng(seed)
    values: list[Any] = []
    for i, t in enumerate(fn.function_type.inputs.data):
        if isinstance(t, ContextType):
            values.append(interp.new_stream(f"stream{i}"))
        elif isinstance(t, MemRefType):
            shape = tuple(dynamic_size if d < 0 else d for d in t.get_shape())
            buffer = MemRefValue.fresh(t, shape, f"argument #{i}")
            dtype = dtype_of(t.element_type)
            if dtype.kind == "f":
                buffer.array()[...] = rng.uniform(-2, 2, size=shape).astype(dtype)
            else:
                buffer.array()[...] = rng.integers(0, 8, size=shape).astype(dtype)
            values.append(buffer)
        elif isinstance(t, IndexType):
            values.append(IntegerAttr(dynamic_size, 64))
        elif isinstance(t, IntegerType):
            high = 2 if t.width.data == 1 else 8
            values.append(IntegerAttr(int(rng.integers(0, high)), t))
        elif isinstance(t, AnyFloat):
            values.append(FloatAttr(float(rng.uniform(-2, 2)), t))
        else:
            raise TypeError(f"cannot make an argument of type {t}")
    return values


def _observe(value: Any) -> Any:
    if isinstance(value, MemRefValue):
        return np.ascontiguousarray(value.array()).tobytes()
    if isinstance(value, IntegerAttr | FloatAttr):
        data = value.value.data
        return ("nan",) if isinstance(data, float) and math.isnan(data) else data
    return repr(value)


_LATE = Schedule("late")


def run_function(module: ModuleOp, name: str, schedule: Schedule = _LATE,
                 seed: int = 0, dynamic_size: int = 4) -> Outcome:
    """Run `@name` with inputs made from `seed`; kernels still queued at the end run
    then. An interpretation error is part of the outcome, not an exception."""
    interp = MemplanInterpreter(module, schedule)
    fn = _function(module, name)
    arguments = _arguments(interp, fn, seed, dynamic_size)
    try:
        results = interp.call_op(fn, tuple(arguments))
        interp.drain_all()
        observed = tuple(_observe(r) for r in results)
        args = tuple(_observe(a) for a in arguments if isinstance(a, MemRefValue))
        return Outcome(observed, args, None, interp.enqueued)
    except (InterpretationError, DiagnosticException, IndexError, ValueError) as error:
        return Outcome(error=f"{type(error).__name__}: {error}".splitlines()[0],
                       kernels=interp.enqueued)


@dataclass(frozen=True)
class Mismatch:
    schedule: Schedule
    expected: Outcome
    got: Outcome

    def __str__(self) -> str:
        if self.got.error != self.expected.error:
            return f"under {self.schedule}: error {self.got.error!r}, expected {self.expected.error!r}"
        for what, a, b in (("result", self.expected.results, self.got.results),
                           ("argument", self.expected.arguments, self.got.arguments)):
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    return f"under {self.schedule}: {what} #{i} differs"
        return f"under {self.schedule}: outputs differ"


@dataclass
class DifferentialReport:
    """`reference_races`: the program before planning already gives different
    outputs under different schedules (its own race, not the plan's)."""

    schedules: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    reference_races: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.reference_races


def differential_check(before: ModuleOp, after: ModuleOp, name: str,
                       schedules: Sequence[Schedule] | None = None,
                       seed: int = 0, dynamic_size: int = 4) -> DifferentialReport:
    """Run `@name` before and after planning under every schedule and compare each
    run with the planless program's run under the late schedule."""
    schedules = list(schedules) if schedules is not None else default_schedules()
    report = DifferentialReport()
    reference = run_function(before, name, Schedule("late"), seed, dynamic_size)
    for schedule in schedules:
        report.schedules += 1
        planless = run_function(before, name, schedule, seed, dynamic_size)
        if not planless.same_as(reference):
            report.reference_races.append(Mismatch(schedule, reference, planless))
            continue
        planned = run_function(after, name, schedule, seed, dynamic_size)
        if not planned.same_as(reference):
            report.mismatches.append(Mismatch(schedule, reference, planned))
    return report
