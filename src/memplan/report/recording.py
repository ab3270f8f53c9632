"""Where passes put what they planned, for whoever asked: `run_pipeline`'s result,
a caller's `with recording()` block, a pass's `report=PATH` file.

Passes call `record(plan)`; it costs one context-variable lookup when nobody
listens. Recordings nest: every active one gets each plan."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from memplan.report.model import FunctionPlan

_ACTIVE: ContextVar[tuple["Recording", ...]] = ContextVar("memplan_recordings", default=())


@dataclass
class Recording:
    """The plans recorded while it was active, in the order they were made."""

    plans: list[FunctionPlan] = field(default_factory=list)

    def plan(self, function: str) -> FunctionPlan:
        """The last plan recorded for `function`."""
        for plan in reversed(self.plans):
            if plan.function == function:
                return plan
        raise KeyError(function)


def listening() -> bool:
    """Whether a plan recorded now goes anywhere (so building one is worth it)."""
    return bool(_ACTIVE.get())


def record(plan: FunctionPlan) -> None:
    for active in _ACTIVE.get():
        active.plans.append(plan)


@contextmanager
def recording() -> Iterator[Recording]:
    """Collect the plans passes make inside the block::

        with memplan.recording() as recorded:
            PassPipeline((PoolAllocs(),)).apply(ctx, module)
        recorded.plan("main").pool_size
    """
    active = Recording()
    token = _ACTIVE.set(_ACTIVE.get() + (active,))
    try:
        yield active
    finally:
        _ACTIVE.reset(token)


@contextmanager
def plan_report(path: str | None, title: str) -> Iterator[None]:
    """Inside the block, plans are recorded; on a normal exit they are written to
    `path` as an HTML report (nothing happens without a path)."""
    if not path:
        yield
        return
    from memplan.report.html import write_report

    with recording() as recorded:
        yield
    write_report(path, recorded.plans, title)
