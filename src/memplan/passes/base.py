"""The base of memplan's passes: an xDSL module pass that says whether it changed IR."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from memplan.analysis.cache import Analysis


@dataclass(frozen=True)
class MemplanPass(ModulePass):
    """A module pass whose `run` returns exactly whether it changed the IR.

    Pipelines and tests read the report; the fixed-point iterator does not trust it
    and compares fingerprints instead, but a unit test holds every pass to it.
    """

    shares_analyses: ClassVar[bool] = False
    """The pass takes module analyses from a running pipeline
    (`memplan.analysis.cache.module_analysis`) and runs no other pass, so whatever
    it takes is current: a named pipeline shares analyses only among such passes
    (a pass that runs others, such as the fixed-point iterator, would hand them a
    result that their changes left stale)."""

    preserved_analyses: ClassVar[tuple[Analysis, ...]] = ()
    """The module analyses that stay true when the pass changes the IR, because it
    changes nothing they record or updates them itself; a named pipeline drops every
    other one after a change."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.run(ctx, op)

    @abstractmethod
    def run(self, ctx: Context, module: ModuleOp) -> bool:
        """Rewrite `module`; return True iff the IR changed."""


StatisticSink = Callable[[str, int, str], None]
_sinks: list[StatisticSink] = []


@contextmanager
def collect_statistics(sink: StatisticSink) -> Iterator[None]:
    """Send `record_statistic` calls made while the context is active to `sink`
    (the tool's `--mlir-pass-statistics` collector for the running pass)."""
    _sinks.append(sink)
    try:
        yield
    finally:
        _sinks.pop()


def record_statistic(name: str, amount: int, description: str) -> None:
    """Add `amount` to the running pass's counter `name` (MLIR's `Pass::Statistic`,
    e.g. `record_statistic("num-merged", 3, "Number of buffers merged")`); free when
    nobody collects."""
    if _sinks:
        _sinks[-1](name, amount, description)
