"""Fuzzing memory plans: random programs through every memory pipeline, then the
plan checker and the interpreter.

`memory_pipelines()` reads the pass registry, so a memory pass or pipeline that is
registered later (`pool-allocs`, `hip-memory-plan`) is fuzzed without a change
here. For each program the planless run under the late schedule is the reference;
the program must itself be race-free (checker clean, same outputs under every
schedule) or it is counted as a generator fault, not a plan violation. A program with
an op the interpreter cannot run (a region op that does not declare that it runs
inline) is judged by the checker alone (`FuzzStats.checker_only`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import permutations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from memplan.context import make_context
from memplan.diagnostics import UserError, diagnostic_handler
from memplan.interpreter import Schedule, run_function
from memplan.interpreter.differential import Outcome
from memplan.passes.registry import PASSES
from memplan.analysis.fingerprint import fingerprint
from memplan.checker import check_module
from memplan.testing.random_programs import Program
from memplan.verification import verify_module
from memplan.tools.pipeline import parse_pass_pipeline
from memplan.tools.source import parse_module

__all__ = ["Finding", "FuzzStats", "fuzz_program", "memory_pipelines"]

MEMORY_PASSES = ("materialize-host-scalars", "optimize-memrefs", "pool-allocs")
"""The memory passes, in no particular order; those registered are fuzzed."""
MEMORY_PIPELINES = ("hip-memory-plan",)
VARIANTS = {"pool-allocs": "hip-pool-allocs"}
"""A pass with another name that every pipeline also runs in its place
(`hip-pool-allocs`: pool-allocs with hip-ep's defaults, returned buffers pooled)."""


def memory_pipelines() -> list[tuple[str, ...]]:
    """Each registered memory pass alone, all of them in every order, each of those
    again with each `VARIANTS` pass in place of its original, and each registered
    memory pipeline."""
    registered = {info.name for info in PASSES}
    passes = [name for name in MEMORY_PASSES if name in registered]
    found: list[tuple[str, ...]] = [(name,) for name in passes]
    if len(passes) > 1:
        found += [order for order in permutations(passes)]
    for original, variant in VARIANTS.items():
        if variant in registered:
            found += [tuple(variant if n == original else n for n in p)
                      for p in list(found) if original in p]
    found += [(name,) for name in MEMORY_PIPELINES if name in registered]
    return found


def fuzz_schedules(seed: int, random_count: int = 2) -> list[Schedule]:
    return [Schedule("late"), Schedule("early"),
            *(Schedule("random", seed * 7919 + i) for i in range(random_count))]


@dataclass(frozen=True)
class Finding:
    """A plan that breaks the execution model (or a program the fuzzer got wrong)."""

    kind: str
    """`checker`, `interpreter`, `pass-error`, `verifier` or `generator`."""
    pipeline: tuple[str, ...]
    detail: str
    program: str


@dataclass
class FuzzStats:
    programs: int = 0
    buffers: int = 0
    pipelines: int = 0
    schedules: int = 0
    checker_only: int = 0
    """Programs the interpreter cannot run, judged by the plan checker alone."""
    distinct: int = 0
    """Plans judged: a plan several pipelines make is judged once."""
    findings: list[Finding] = field(default_factory=list)

    @property
    def violations(self) -> int:
        return sum(1 for f in self.findings if f.kind != "generator")

    def add(self, other: FuzzStats) -> None:
        self.programs += other.programs
        self.buffers += other.buffers
        self.pipelines += other.pipelines
        self.schedules += other.schedules
        self.checker_only += other.checker_only
        self.distinct += other.distinct
        self.findings += other.findings


@cache
def _passes(text: str) -> tuple[ModulePass, ...]:
    """The passes of one pipeline element, parsed once per run (a pass instance holds
    only its options, so one serves every program)."""
    return tuple(scheduled.instance for scheduled in parse_pass_pipeline(text))


def _apply(ctx: Context, module: ModuleOp, pipeline: Sequence[str]) -> None:
    """Run each pipeline element (`name` or `name{options}`) as memplan-opt would."""
    for text in pipeline:
        for instance in _passes(text):
            instance.apply(ctx, module)


def _runs(module: ModuleOp, schedules: Sequence[Schedule], seed: int) -> list[Outcome]:
    return [run_function(module, "main", schedule, seed) for schedule in schedules]


def fuzz_program(program: Program, seed: int = 0,
                 pipelines: Sequence[tuple[str, ...]] | None = None,
                 random_schedules: int = 2) -> FuzzStats:
    """Plan `program` with every pipeline; check each plan and run it."""
    stats = FuzzStats(programs=1, buffers=program.buffers)
    pipelines = memory_pipelines() if pipelines is None else list(pipelines)
    schedules = fuzz_schedules(seed, random_schedules)
    ctx = make_context(allow_unregistered=True)
    before = parse_module(ctx, program.text, "fuzz.mlir")
    if check_module(before):
        stats.findings.append(Finding("generator", (), "the input races (checker)", program.text))
        return stats
    if not program.interpretable:
        stats.checker_only = 1
        schedules = []
    reference = _runs(before, schedules, seed)
    stats.schedules += len(schedules)
    if reference and (reference[0].error or any(not r.same_as(reference[0]) for r in reference)):
        stats.findings.append(Finding("generator", (), "the input races or fails (interpreter)",
                                      program.text))
        return stats
    judged: dict[object, list[Finding]] = {}
    for pipeline in pipelines:
        stats.pipelines += 1
        after = before.clone()
        try:
            with diagnostic_handler(lambda d: None):
                _apply(ctx, after, pipeline)
        except UserError as error:
            stats.findings.append(Finding("pass-error", pipeline, error.message, program.text))
            continue
        # Pipelines often make the same plan: it is judged once, and its findings
        # count for each pipeline that made it.
        text = fingerprint(after)
        if text in judged:
            stats.findings += [replace(f, pipeline=pipeline) for f in judged[text]]
            continue
        stats.distinct += 1
        found_before = len(stats.findings)
        judged[text] = []
        try:
            verify_module(after)
        except UserError as error:
            stats.findings.append(Finding("verifier", pipeline, error.message, program.text))
            judged[text] = stats.findings[found_before:]
            continue
        violations = check_module(after)
        if violations:
            stats.findings.append(Finding("checker", pipeline, violations[0].message,
                                          program.text))
        for schedule, expected, got in zip(schedules, reference, _runs(after, schedules, seed)):
            stats.schedules += 1
            if not got.same_as(expected):
                detail = f"under {schedule}: {got.error or 'outputs differ'}"
                stats.findings.append(Finding("interpreter", pipeline, detail, program.text))
                break
        judged[text] = stats.findings[found_before:]
    return stats
