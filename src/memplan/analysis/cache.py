"""Module analyses shared by the passes of one pipeline run (MLIR's analysis
manager, reduced to what the memory passes need).

A named pipeline of memplan passes (`hip-memory-plan`) runs its passes inside
`shared_analyses(module)`. There, `module_analysis(module, kind)` builds
`kind(module)` once and hands the same result to every later pass, until a pass
reports that it changed the IR: then every analysis it does not name in its
`preserved_analyses` (ones it keeps true itself) is dropped and rebuilt on the next
request. Outside such a run, or for another module, `module_analysis` builds a
fresh result each time, so a pass run alone or next to passes that do not report
their changes never sees a stale one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from xdsl.dialects.builtin import ModuleOp

__all__ = ["AnalysisCache", "module_analysis", "shared_analyses"]

T = TypeVar("T")

Analysis = Callable[[ModuleOp], Any]
"""An analysis: built from the module alone (a class or a function), and its key."""


class AnalysisCache:
    """The analyses built so far for one module, by kind."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self._results: dict[Analysis, object] = {}

    def get(self, kind: Callable[[ModuleOp], T]) -> T:
        if kind not in self._results:
            self._results[kind] = kind(self.module)
        return self._results[kind]  # type: ignore[return-value]

    def changed(self, preserved: Collection[Analysis]) -> None:
        """The IR changed: keep only the analyses in `preserved`."""
        self._results = {k: v for k, v in self._results.items() if k in preserved}


_active: list[AnalysisCache] = []


@contextmanager
def shared_analyses(module: ModuleOp) -> Iterator[AnalysisCache]:
    """Share analyses of `module` among the passes run inside; the caller reports
    each change with `AnalysisCache.changed`."""
    cache = AnalysisCache(module)
    _active.append(cache)
    try:
        yield cache
    finally:
        _active.pop()


def module_analysis(module: ModuleOp, kind: Callable[[ModuleOp], T]) -> T:
    """`kind(module)`, shared with the other passes of the pipeline running on
    `module` when one is, else built now."""
    if _active and _active[-1].module is module:
        return _active[-1].get(kind)
    return kind(module)
