"""What a memory plan is, once planned: buffers with sizes, offsets, live ranges and
kinds, per pool domain. The same shape serves the IR path (`pool-allocs`) and DSA
instances (`memplan-plan`), so one renderer draws both and Python callers read one
kind of object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from memplan.planning import Plan

BufferKind = Literal["host-fed", "device-only", "returned", "interval"]
"""How a buffer is used: the host reads or writes it (`host-fed`), only device work
does (`device-only`), the function returns it (`returned`), or nothing is known but
its lifetime (`interval`: a DSA instance)."""


@dataclass(frozen=True)
class PlannedBuffer:
    """One planned buffer."""

    name: str
    """Its SSA name (`%x`) or, for a DSA instance, its id."""
    size: int | None
    """Bytes; None when the size is known only at run time."""
    offset: int | None
    """Byte offset in its domain's pool; None when it is runtime SSA."""
    domain: int
    live: tuple[int, int]
    """``[start, end)``: op indices of the function body it is live over (through
    views), or a DSA instance's ``[lower, upper)``."""
    kind: BufferKind
    location: str | None = None
    """``file:line:col`` of its allocation."""
    size_text: str = ""
    """The size as written when it is dynamic (``2 x %n``)."""
    kept_apart: tuple[tuple[str, str], ...] = ()
    """``(other buffer, reason)`` for an earlier buffer, dead in program order
    before this one is allocated, that it still may not share bytes with: the
    ordering analysis' explanation (DESIGN.md section 2)."""


@dataclass(frozen=True)
class DomainPlan:
    """One pool: its static region's size, the bound no plan of it can beat, and its
    dynamic slabs."""

    index: int
    pool_size: int
    lower_bound: int
    slabs: int = 0

    @property
    def ratio(self) -> float:
        """R = pool size / lower bound (1 is perfect; 1 for an empty pool)."""
        return self.pool_size / self.lower_bound if self.lower_bound else 1.0


@dataclass(frozen=True)
class FunctionPlan:
    """The plan of one function (or one DSA instance)."""

    function: str
    buffers: tuple[PlannedBuffer, ...]
    domains: tuple[DomainPlan, ...]
    strategy: str

    @property
    def pool_size(self) -> int:
        """Bytes of every domain's static region together."""
        return sum(d.pool_size for d in self.domains)

    @property
    def lower_bound(self) -> int:
        return sum(d.lower_bound for d in self.domains)

    def buffer(self, name: str) -> PlannedBuffer:
        """The buffer called `name` (the first, if several are)."""
        for buffer in self.buffers:
            if buffer.name == name:
                return buffer
        raise KeyError(name)


def plan_of_intervals(plan: Plan, name: str) -> FunctionPlan:
    """A planner's plan of an interval problem (a DSA instance) as a `FunctionPlan`."""
    problem = plan.problem
    buffers = tuple(
        PlannedBuffer(
            b.id, int(b.size), int(offset), 0, (int(b.lower), int(b.upper)), "interval"  # type: ignore[arg-type]
        )
        for b, offset in zip(problem.buffers, plan.offsets.tolist())
    )
    domain = DomainPlan(0, plan.pool_size, problem.lower_bound())
    return FunctionPlan(name, buffers, (domain,), plan.strategy)
