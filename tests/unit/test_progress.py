"""Progress lines: shown on a terminal while a planner searches, never elsewhere."""

from __future__ import annotations

import io
import threading

import pytest

from memplan import progress as progress_module
from memplan.planning import Problem, best, no_progress
from memplan.progress import planning_progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def manual(monkeypatch):
    """Lines read a fake clock and draw only when the test calls `tick()`."""
    monkeypatch.delenv("MEMPLAN_NO_PROGRESS", raising=False)
    clock = FakeClock()
    lines: list[progress_module.ProgressLine] = []

    def keep(line):
        lines.append(line)
        return lambda: None

    monkeypatch.setattr(progress_module, "CLOCK", clock)
    monkeypatch.setattr(progress_module, "start_ticker", keep)
    return clock, lines


def frames(terminal: Terminal) -> list[str]:
    return [f for f in terminal.getvalue().split(progress_module.CLEAR) if f]


def test_a_terminal_sees_the_best_pool_and_the_time_left(manual):
    clock, lines = manual
    terminal = Terminal()
    with planning_progress("plan", 5.0, stream=terminal) as progress:
        (line,) = lines
        progress(4096)
        progress(8192)  # not better: the line keeps 4096
        clock.now += progress_module.DELAY
        assert line.tick()
    assert frames(terminal) == ["plan | best pool 4,096 B | 4.5 s left"]
    assert terminal.getvalue().endswith(progress_module.CLEAR)  # cleared at the end


def test_the_ticker_thread_draws_frames(monkeypatch):
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    monkeypatch.setattr(progress_module, "INTERVAL", 0.01)
    monkeypatch.delenv("MEMPLAN_NO_PROGRESS", raising=False)
    drawn = threading.Event()

    class Watched(Terminal):
        def write(self, text: str) -> int:
            if text.startswith(progress_module.CLEAR + "plan | best pool 64 B | "):
                drawn.set()
            return super().write(text)

    terminal = Watched()
    with planning_progress("plan", None, stream=terminal) as progress:
        progress(64)
        assert drawn.wait(timeout=30), "no frame drawn"
    assert all(f.startswith("plan | ") and f.endswith(" s") for f in frames(terminal))
    assert terminal.getvalue().endswith(progress_module.CLEAR)


def test_nothing_is_written_when_the_stream_is_not_a_terminal():
    stream = io.StringIO()
    with planning_progress("plan", 5.0, stream=stream) as progress:
        assert progress is no_progress
    assert stream.getvalue() == ""


def test_short_tasks_write_nothing(manual):
    clock, lines = manual
    terminal = Terminal()
    with planning_progress("plan", None, stream=terminal) as progress:
        (line,) = lines
        progress(1)
        clock.now += progress_module.DELAY * 0.9
        assert not line.tick()
    assert terminal.getvalue() == ""


def test_best_reports_each_better_pool():
    problem = Problem.from_intervals([(i % 7, i % 7 + 3, 1 + (i * 37) % 50) for i in range(40)])
    seen: list[int] = []
    plan = best(problem, time_limit=0.3, progress=seen.append)
    assert seen and min(seen) == plan.pool_size


def test_pool_allocs_planning_reports_progress(monkeypatch):
    """The planning passes plan through `plan_offsets`, which hands the planner the
    progress line's callback with what is planned and the time limit."""
    from contextlib import contextmanager

    import numpy as np

    from memplan.passes import pool_allocs

    shown: list = []

    @contextmanager
    def recorded(label, time_limit=None, stream=None):
        shown.append((label, time_limit))
        yield shown.append

    monkeypatch.setattr(pool_allocs, "planning_progress", recorded)
    n = 12
    cycle = [np.array(sorted({(i - 1) % n, (i + 1) % n}), dtype=np.int64) for i in range(n)]
    plan = pool_allocs.plan_offsets([7 + i for i in range(n)], [1] * n, strategy="best", time_limit=0.3, neighbours=cycle)
    assert shown[0] == (f"best: {n} buffers", 0.3)
    assert plan.pool_size == min(shown[1:])


def test_a_pass_line_carries_its_plans(manual):
    from memplan.progress import pass_progress

    clock, lines = manual
    terminal = Terminal()
    with pass_progress("pool-allocs", stream=terminal):
        (line,) = lines
        clock.now += progress_module.DELAY
        assert line.tick()
        with planning_progress("best: 9 buffers", 2.0) as progress:
            assert len(lines) == 1  # the plan is shown on the pass's line
            progress(512)
            clock.now += 0.5
            assert line.tick()
        clock.now += 0.2
        assert line.tick()
    elapsed = progress_module.DELAY + 0.5 + 0.2
    assert frames(terminal) == [
        f"pool-allocs | {progress_module.DELAY:.1f} s",
        "pool-allocs | best: 9 buffers | best pool 512 B | 1.5 s left",
        f"pool-allocs | {elapsed:.1f} s",
    ]
