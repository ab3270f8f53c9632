"""Progress lines: shown on a terminal while a planner searches, never elsewhere."""

from __future__ import annotations

import io
import time

from memplan import progress as progress_module
from memplan.planning import Problem, best, no_progress
from memplan.progress import planning_progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_the_best_pool_and_the_time_left(monkeypatch):
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    monkeypatch.setattr(progress_module, "INTERVAL", 0.01)
    monkeypatch.delenv("MEMPLAN_NO_PROGRESS", raising=False)
    terminal = Terminal()
    with planning_progress("plan", 5.0, stream=terminal) as progress:
        progress(4096)
        progress(8192)  # not better: the line keeps 4096
        time.sleep(0.1)
    text = terminal.getvalue()
    assert "plan | best pool 4,096 B | " in text and " s left" in text
    assert "8,192" not in text
    assert text.endswith("\r\x1b[2K")  # the line is cleared at the end


def test_nothing_is_written_when_the_stream_is_not_a_terminal():
    stream = io.StringIO()
    with planning_progress("plan", 5.0, stream=stream) as progress:
        assert progress is no_progress
    assert stream.getvalue() == ""


def test_short_tasks_write_nothing(monkeypatch):
    monkeypatch.delenv("MEMPLAN_NO_PROGRESS", raising=False)
    terminal = Terminal()
    with planning_progress("plan", None, stream=terminal) as progress:
        progress(1)
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


def test_a_pass_line_carries_its_plans(monkeypatch):
    from memplan.progress import pass_progress

    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    monkeypatch.setattr(progress_module, "INTERVAL", 0.01)
    monkeypatch.delenv("MEMPLAN_NO_PROGRESS", raising=False)
    terminal = Terminal()
    with pass_progress("pool-allocs", stream=terminal):
        time.sleep(0.05)
        with planning_progress("best: 9 buffers", 2.0) as progress:
            progress(512)
            time.sleep(0.05)
        time.sleep(0.05)
    frames = [f for f in terminal.getvalue().split("\r\x1b[2K") if f]
    assert any(f.startswith("pool-allocs | ") and f.endswith(" s") and "best" not in f for f in frames)
    assert any(f.startswith("pool-allocs | best: 9 buffers | best pool 512 B | ") and f.endswith("s left") for f in frames)
    assert frames[-1].startswith("pool-allocs | ") and "best" not in frames[-1]
