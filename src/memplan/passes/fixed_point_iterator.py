"""`fixed-point-iterator`: rerun a nested pipeline until an iteration changes nothing.

IREE's iterator trusts its passes to say whether they changed the IR: in the seed,
fold-globals and fuse-globals did not say so and the loop ran once, leaving a weight
encoded twice; a pass that claims a change it did not make loops it forever (IREE
bug #24278). This iterator trusts nobody: it compares canonical fingerprints of the
module before and after each iteration (`memplan.analysis.fingerprint`), and stops
at the first iteration that leaves the fingerprint as it was. Termination is
guaranteed by `max-iterations`: past it the pass fails with one error. It keeps its
state in Python, never in IR attributes, so nothing is left behind.

See docs/design/fixed-point-iterator.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from memplan.analysis.fingerprint import fingerprint
from memplan.analysis.purity import memoized_effects
from memplan.diagnostics import UserError, location_of, remark
from memplan.parsing import without_gc
from memplan.passes.base import MemplanPass, record_statistic

NAME = "fixed-point-iterator"


@dataclass(frozen=True)
class NestedPass:
    """One pass of the nested pipeline and the name used in diagnostics."""

    name: str
    instance: ModulePass


def _apply(ctx: Context, module: ModuleOp, nested: NestedPass, *, report: bool) -> bool | None:
    """Run one nested pass; with `report`, return what it reported (None when it
    reports nothing). Without, call `apply`: a pass whose exact report costs work
    of its own (fingerprints) skips it there."""
    if report and isinstance(nested.instance, MemplanPass):
        return nested.instance.run(ctx, module)
    nested.instance.apply(ctx, module)
    return None


@dataclass(frozen=True)
class FixedPoint:
    iterations: int
    """Rounds run, the last of which changed nothing."""
    changed: bool
    """Whether the module differs from what it was before the first round."""


@memoized_effects()  # one memo across rounds: most ops' effects stay as they were
@without_gc()  # the rounds' collections traversed the ops they built, for little
def iterate_to_fixed_point(
    ctx: Context,
    module: ModuleOp,
    passes: Sequence[NestedPass],
    *,
    max_iterations: int,
    debug: bool = False,
    pipeline_text: str | None = None,
) -> FixedPoint:
    """Run `passes` in order, repeatedly, until one whole round leaves `module`
    unchanged.

    Change is decided by fingerprints only. Per-pass fingerprints (to say which
    passes changed the IR) are taken under `debug` and in the last allowed round,
    whose error message names the passes that kept changing the IR.
    """
    _check_max_iterations(max_iterations)
    label = NAME
    anchor = _anchor(module)
    start = current = fingerprint(module)
    for iteration in range(1, max_iterations + 1):
        per_pass = debug or iteration == max_iterations
        before_round = current
        changed_by: list[str] = []
        for nested in passes:
            reported = _apply(ctx, module, nested, report=debug)
            if not per_pass:
                continue
            after = fingerprint(module)
            if after != current:
                changed_by.append(nested.name)
            if debug and reported is not None and reported != (after != current):
                remark(anchor, f"{label}: iteration {iteration}: '{nested.name}' " + (
                    "reported a change it did not make (ignored)" if reported
                    else "changed the IR without reporting it"))
            current = after
        if not per_pass:
            current = fingerprint(module)
        if current == before_round:
            if debug:
                remark(anchor, f"{label}: iteration {iteration}: no change; "
                       f"converged after {iteration} iteration{'s' * (iteration > 1)}")
            return FixedPoint(iteration, current != start)
        if debug:
            remark(anchor, f"{label}: iteration {iteration}: changed by "
                   f"{', '.join(changed_by)}")
    what = f"the pipeline '{pipeline_text}'" if pipeline_text is not None else "the pipeline"
    raise UserError(
        f"{label}: {what} did not converge within {max_iterations} "
        f"iteration{'s' * (max_iterations > 1)} (the last one was changed by "
        f"{', '.join(changed_by)}); raise max-iterations "
        "or fix the pass that keeps changing the IR",
        op=anchor,
    )


def _anchor(module: ModuleOp) -> Operation:
    """Where diagnostics about the whole module point: the module, or its first op
    when the module was implicit in the source (and so has no location)."""
    if location_of(module) is None and module.body.block.first_op is not None:
        first = module.body.block.first_op
        return first if location_of(first) is not None else module
    return module


def _check_max_iterations(max_iterations: int) -> None:
    if max_iterations < 1:
        raise UserError(f"{NAME}: max-iterations must be at least 1, got {max_iterations}")


def parse_nested(pipeline: str) -> tuple[NestedPass, ...]:
    """The nested pipeline's passes, with errors that say where they came from."""
    from memplan.tools.pipeline import parse_pass_pipeline

    try:
        scheduled = parse_pass_pipeline(pipeline)
    except UserError as error:
        raise UserError(f"in the pipeline of {NAME}: {error.message}") from None
    return tuple(NestedPass(s.spelled, s.instance) for s in scheduled)


@dataclass(frozen=True)
class FixedPointIterator(MemplanPass):
    """Rerun `pipeline` until an iteration leaves the IR unchanged (by fingerprint),
    failing after `max-iterations` iterations. `debug` prints, as remarks, which
    passes changed the IR in each iteration."""

    name = NAME

    pipeline: str = field(default="", metadata={"help": (
        "the nested pipeline to rerun, quoted or not: cse,canonicalize")})
    max_iterations: int = field(default=10, metadata={"help": (
        "iterations at most; past them the pass fails")})
    debug: bool | None = field(default=False, metadata={"help": (
        "remark, per iteration, which passes changed the IR")})
    _passes: ClassVar[tuple[NestedPass, ...]] = ()

    def __post_init__(self) -> None:
        # Parse at construction so a bad nested pipeline is reported before any
        # input is read, as a bad option is.
        _check_max_iterations(self.max_iterations)
        object.__setattr__(self, "_passes", parse_nested(self.pipeline))

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        result = iterate_to_fixed_point(
            ctx,
            module,
            self._passes,
            max_iterations=self.max_iterations,
            debug=self.debug is not False,  # a bare `{debug}` gives None
            pipeline_text=self.pipeline,
        )
        record_statistic("num-iterations", result.iterations, "Number of iterations run")
        return result.changed

