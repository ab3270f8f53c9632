"""Named pipelines: passes that stand for a fixed pipeline of other passes.

Each is a `NamedPipeline` subclass whose `expand()` returns pipeline text, plus one
`PassInfo(..., is_pipeline=True)` entry in the registry; `-p NAME` then works like
any pass and its options are dataclass fields as usual. Adding one is a few lines:

    @dataclass(frozen=True)
    class MyPipeline(NamedPipeline):
        name = "my-pipeline"
        def expand(self) -> str:
            return "cse,canonicalize"
"""

from __future__ import annotations

from abc import abstractmethod
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from memplan.analysis.cache import shared_analyses
from memplan.analysis.fingerprint import fingerprint
from memplan.parsing import without_gc
from memplan.passes.base import MemplanPass
from memplan.passes.fixed_point_iterator import NestedPass, parse_nested
from memplan.passes.pool_allocs import check_options


def quoted(value: str) -> str:
    """`value` as a double-quoted pass option value (`\\` and `"` escaped)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fixed_point(pipeline: str, *, max_iterations: int = 10, debug: bool = False) -> str:
    """Pipeline text that runs `pipeline` under the fixed-point iterator."""
    options = f"pipeline={quoted(pipeline)} max-iterations={max_iterations}"
    return f"fixed-point-iterator{{{options}{' debug' if debug else ''}}}"


@dataclass(frozen=True)
class NamedPipeline(MemplanPass):
    """A pass that runs the pipeline `expand()` spells, reporting change exactly."""

    _passes: ClassVar[tuple[NestedPass, ...]] = ()

    @abstractmethod
    def expand(self) -> str:
        """The pipeline text this pass stands for."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_passes", parse_nested(self.expand()))

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        """Change as the nested memplan passes report it (each exactly), and, when
        every one `shares_analyses`, their module analyses shared
        (`memplan.analysis.cache`) from one pass to the next until one reports a
        change they do not survive; fingerprints (two whole-module walks) only when
        a nested pass reports nothing."""
        instances = [n.instance for n in self._passes]
        if all(isinstance(p, MemplanPass) for p in instances):
            changed = False
            sharing = all(p.shares_analyses for p in instances)  # type: ignore[attr-defined]
            with shared_analyses(module) if sharing else nullcontext() as analyses:
                for instance in instances:
                    if instance.run(ctx, module):  # type: ignore[attr-defined]
                        changed = True
                        if analyses is not None:
                            analyses.changed(instance.preserved_analyses)  # type: ignore[attr-defined]
            return changed
        before = fingerprint(module)
        for nested in self._passes:
            nested.instance.apply(ctx, module)
        return fingerprint(module) != before


STREAM_CLEANUP = (
    "canonicalize,cse,simplify-global-accesses,apply-patterns,fold-globals,fuse-globals"
)
"""The passes of `stream-cleanup`'s loop; each visits every initializer and function."""


@dataclass(frozen=True)
class StreamCleanup(NamedPipeline):
    """IREE's stream-phase cleanup: canonicalize, cse, simplify-global-accesses and
    apply-patterns on every initializer and function, then fold-globals and
    fuse-globals, all under the fixed-point iterator (which, unlike IREE's, does not
    depend on the passes reporting their changes)."""

    name = "stream-cleanup"

    max_iterations: int = field(default=10, metadata={"help": (
        "rounds of the cleanup at most before it fails as not converging")})
    debug: bool | None = field(default=False, metadata={"help": (
        "remark, per round, which passes changed the IR")})

    def expand(self) -> str:
        return fixed_point(STREAM_CLEANUP, max_iterations=self.max_iterations,
                           debug=self.debug is not False)


HIP_MEMORY_PLAN = ("materialize-host-scalars", "pool-allocs")
"""The passes of `hip-memory-plan`. hip-ep runs optimize-memrefs between them; it is
left out because slot reuse before pooling costs pool bytes (measured by
bench/pipeline_pool_bytes.py, docs/design/hip-memory-plan.md)."""


@dataclass(frozen=True)
class HipMemoryPlan(NamedPipeline):
    """hip-ep's memory stage: host-fed scalars to host scratch, then every remaining
    buffer at a planned offset in a pool, under the host/device ordering rules."""

    name = "hip-memory-plan"

    alignment: int = field(default=256, metadata={"help": (
        "byte alignment of every pool offset (a positive power of two)")})
    strategy: str = field(default="greedy", metadata={"help": (
        "how pool-allocs plans offsets: greedy, best, exact or best-fit")})
    debug: bool | None = field(default=False, metadata={"help": (
        "remark why buffers were left alone, in both passes")})
    report: str | None = field(
        default=None, metadata={"help": "write the pool plan to this path as an HTML report"}
    )

    def __post_init__(self) -> None:
        # Checked here so that the error names this pipeline, not a nested pass.
        check_options(self.alignment, self.strategy)
        super().__post_init__()

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        """With the cyclic collector off: the passes build some hundred thousand
        short-lived objects with hardly a cycle among them (the erased allocations
        wait for the next collection), and the collections they set off cost a
        sixth of the passes' time on a 20k-op decoder."""
        with without_gc():
            return super().run(ctx, module)

    def expand(self) -> str:
        scalars, pool = HIP_MEMORY_PLAN
        debug = "true" if self.debug is not False else "false"
        report = f" report={quoted(self.report)}" if self.report else ""
        return (
            f"{scalars}{{debug={debug}}},"
            f"{pool}{{alignment={self.alignment} strategy={self.strategy} debug={debug}{report}}}"
        )
