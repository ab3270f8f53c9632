"""memplan: memory planning and cleanup passes for GPU-runtime MLIR, on xDSL.

The Python API in short::

    from memplan import make_context, parse, run_pipeline
    ctx = make_context()
    module = parse(ctx, text)
    run_pipeline(ctx, module, "materialize-host-scalars,optimize-memrefs")
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("memplan")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"

__all__ = ["__version__", "make_context", "parse", "run_pipeline"]


def make_context(*, allow_unregistered: bool = False):
    """An xDSL context with every dialect memplan reads."""
    from memplan.context import make_context as _make_context

    return _make_context(allow_unregistered=allow_unregistered)


def parse(ctx, text: str, name: str = "<string>"):
    """Parse MLIR text into a module, recording source locations on ops."""
    from memplan.tools.source import parse_module

    return parse_module(ctx, text, name)


def run_pipeline(ctx, module, pipeline: str) -> None:
    """Run a pipeline given as memplan-opt's `-p` text on `module`, in place."""
    from memplan.tools.pipeline import parse_pass_pipeline

    for scheduled in parse_pass_pipeline(pipeline):
        scheduled.instance.apply(ctx, module)
