"""`--mlir-pass-statistics`: each pass's counters, as mlir-opt's report lists them.

Every pass gets the counters the tool can measure from outside (operations
erased and created); a pass adds its own (buffers merged, bytes saved, iterations
run, ...) with `memplan.passes.base.record_statistic`, which reaches the collector
of the pass that is running.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp

from memplan.passes.base import collect_statistics


@dataclass
class _Counter:
    value: int
    description: str


@dataclass
class PassStatistics:
    """Counters per pass (keyed by the pass's title), summed over input chunks."""

    passes: dict[str, dict[str, _Counter]] = field(default_factory=dict)

    @contextmanager
    def collecting(self, scheduled, module: ModuleOp) -> Iterator[None]:
        title = type(scheduled.pass_instance).__name__
        counters = self.passes.setdefault(title, {})
        before = sum(1 for _ in module.walk())

        def record(name: str, amount: int, description: str) -> None:
            counter = counters.setdefault(name, _Counter(0, description))
            counter.value += amount

        with collect_statistics(record):
            yield
        after = sum(1 for _ in module.walk())
        record("num-ops-erased", max(0, before - after), "Number of operations removed")
        record("num-ops-added", max(0, after - before), "Number of operations added")

    def report(self) -> str:
        bar = "===" + "-" * 73 + "==="
        lines = [bar, " " * 25 + "... Pass statistics report ...", bar]
        for title, counters in self.passes.items():
            lines.append(title)
            width = max((len(str(c.value)) for c in counters.values()), default=1)
            for name, counter in sorted(counters.items()):
                lines.append(
                    f"  (S) {counter.value:>{width}} {name} - {counter.description}"
                )
        return "\n".join(lines) + "\n"
