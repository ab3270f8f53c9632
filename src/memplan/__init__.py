"""memplan: memory planning and cleanup passes for GPU-runtime MLIR, on xDSL.

The Python API in short::

    import memplan
    ctx = memplan.make_context()
    module = memplan.parse(ctx, text)                  # parsed and verified
    result = memplan.run_pipeline(ctx, module, "hip-memory-plan")
    plan = result.plans["decode_step"]                 # a FunctionPlan
    print(plan.pool_size, [(b.name, b.offset) for b in plan.buffers])
    print(memplan.print_ir(module))

The pass classes are in `memplan.passes` (`from memplan.passes import PoolAllocs`)
for compilers that run them in their own `xdsl.passes.PassPipeline`; wrap that in
`with memplan.recording() as recorded:` to read the plans they make.
docs/guide-xdsl-compilers.md walks through both.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memplan import providers
from memplan.report.model import DomainPlan, FunctionPlan, PlannedBuffer
from memplan.report.recording import Recording, recording

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass


def _attach_upstream_models() -> None:
    import memplan.dialects.mlir.upstream_models  # noqa: F401  (attaches on import)


def _mlir_syntax_classes(dialect: str) -> dict[str, type]:
    from memplan.dialects import mlir_syntax_classes

    return mlir_syntax_classes(dialect)


# Set before any module of the package runs (Python runs this file first); the
# lower layers reach memplan.dialects only through these (memplan.providers).
providers.attach_upstream_models = _attach_upstream_models
providers.mlir_syntax_classes = _mlir_syntax_classes


def __getattr__(name: str) -> str:
    # importlib.metadata (and the email package it loads) costs about 60 ms and
    # 2 MiB at every start; only --version asks.
    if name != "__version__":
        raise AttributeError(f"module 'memplan' has no attribute '{name}'")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("memplan")
    except PackageNotFoundError:  # running from a source tree
        value = "0+unknown"
    globals()["__version__"] = value
    return value


__all__ = [
    "DomainPlan",
    "FunctionPlan",
    "PipelineResult",
    "PlannedBuffer",
    "Recording",
    "__version__",
    "make_context",
    "parse",
    "print_ir",
    "recording",
    "run_pipeline",
    "verify",
]


def make_context(*, allow_unregistered: bool = False) -> Context:
    """An xDSL context with every dialect memplan reads."""
    from memplan.context import make_context as _make_context

    return _make_context(allow_unregistered=allow_unregistered)


def parse(ctx: Context, text: str, name: str = "<string>", *, verify: bool = True) -> ModuleOp:
    """Parse MLIR text into a module, recording source locations on ops (`name` is
    the file name they give), and verify it as memplan-opt does unless `verify` is
    False. A syntax error raises xDSL's `ParseError`; a verifier error
    `memplan.diagnostics.UserError`, whose `diagnostic()` prints as
    `file:line:col: error: ...`."""
    from memplan.tools.source import parse_module
    from memplan.verification import verify_module

    module = parse_module(ctx, text, name)
    if verify:
        verify_module(module)
    return module


def verify(module: ModuleOp) -> None:
    """Verify `module` op by op, and that every value is defined before its uses
    in a block (which xDSL's verifier does not check); raise
    `memplan.diagnostics.UserError` naming the first op at fault."""
    from memplan.verification import verify_module

    verify_module(module)


def print_ir(module: ModuleOp, *, generic: bool = False, debuginfo: bool = False) -> str:
    """`module` as memplan-opt prints it (mlir-opt's conventions), ending in a newline."""
    from memplan.printing import print_module

    stream = io.StringIO()
    print_module(module, stream, generic=generic, debuginfo=debuginfo)
    return stream.getvalue()


@dataclass
class PipelineResult:
    """What a pipeline's passes recorded."""

    plans: dict[str, FunctionPlan] = field(default_factory=dict)
    """The pool plan of each function a planning pass planned, by function name
    (the last one, if a function was planned twice)."""
    statistics: dict[str, dict[str, int]] = field(default_factory=dict)
    """Counters per pass, as `memplan-opt --mlir-pass-statistics` prints them:
    pass class name -> counter name -> value."""


def run_pipeline(
    ctx: Context, module: ModuleOp, pipeline: str | Sequence[ModulePass]
) -> PipelineResult:
    """Run `pipeline` on `module`, in place, and return what its passes recorded.

    `pipeline` is memplan-opt's `-p` text (`"materialize-host-scalars,pool-allocs"`,
    with options in braces) or pass instances (memplan's or any xDSL `ModulePass`).
    Bad pipeline text raises `memplan.diagnostics.UserError`."""
    from memplan.passes.registry import PassInfo
    from memplan.tools.pipeline import ScheduledPass, parse_pass_pipeline
    from memplan.tools.statistics import PassStatistics

    if isinstance(pipeline, str):
        scheduled = parse_pass_pipeline(pipeline)
    else:
        scheduled = [
            ScheduledPass(PassInfo(p.name, f"{type(p).__module__}:{type(p).__name__}", ""), p, p.name)
            for p in pipeline
        ]
    statistics = PassStatistics()
    with recording() as recorded:
        for each in scheduled:
            with statistics.collecting(each, module):
                each.instance.apply(ctx, module)
    return PipelineResult(
        {plan.function: plan for plan in recorded.plans},
        {
            title: {name: counter.value for name, counter in counters.items()}
            for title, counters in statistics.passes.items()
        },
    )
