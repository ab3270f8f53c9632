"""One line of progress on stderr while a plan is searched, only when stderr is a
terminal: what is planned, the best pool so far and the time left; while a planning
pass runs (`pass_progress`), its name and time, and its plans on the same line.

Planning with `best` or `exact` takes its whole time budget on hard problems, and
a large module's planning can take tens of seconds with greedy too; without a sign
of life a user cannot tell a search from a hang. Nothing is written when stderr is
a file or a pipe (logs, CI, lit), and short tasks (under `DELAY` seconds) write
nothing at all, so the line never flickers.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from memplan.planning.problem import Progress, no_progress

DELAY = 0.5
"""Seconds a task runs before its line appears."""
INTERVAL = 0.2
"""Seconds between redraws."""


def shows_progress(stream: TextIO | None = None) -> bool:
    """Whether progress goes to `stream` (stderr by default): a terminal, and
    `MEMPLAN_NO_PROGRESS` unset."""
    stream = sys.stderr if stream is None else stream
    if os.environ.get("MEMPLAN_NO_PROGRESS"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


class ProgressLine:
    """A status line redrawn in place by a background thread until `close()`."""

    def __init__(self, label: str, time_limit: float | None, stream: TextIO):
        self.label = label
        self.time_limit = time_limit
        self.stream = stream
        self.best: int | None = None
        self.started = time.monotonic()
        self._drawn = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="memplan-progress", daemon=True)
        self._thread.start()

    def update(self, pool_size: int) -> None:
        """A plan of `pool_size` bytes was found (a `Progress` callback)."""
        if self.best is None or pool_size < self.best:
            self.best = pool_size

    def text(self) -> str:
        elapsed = time.monotonic() - self.started
        parts = [self.label]
        if self.best is not None:
            parts.append(f"best pool {self.best:,} B")
        if self.time_limit is not None:
            parts.append(f"{max(0.0, self.time_limit - elapsed):.1f} s left")
        else:
            parts.append(f"{elapsed:.1f} s")
        return " | ".join(parts)

    def _loop(self) -> None:
        if self._stop.wait(DELAY):
            return
        while not self._stop.is_set():
            self._write("\r\x1b[2K" + self.text())
            self._drawn = True
            self._stop.wait(INTERVAL)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away
            self._stop.set()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        if self._drawn:
            self._write("\r\x1b[2K")


_pass_line: ProgressLine | None = None
"""The line of the planning pass running now, which its plans share."""


@contextmanager
def pass_progress(name: str, stream: TextIO | None = None) -> Iterator[None]:
    """While the block runs (a pass: analysis, planning, rewriting), `name` and the
    time taken on a line of `stream` (stderr) when that is a terminal; plans
    searched inside show on the same line. Nested calls share the outer line."""
    global _pass_line
    stream = sys.stderr if stream is None else stream
    if _pass_line is not None or not shows_progress(stream):
        yield
        return
    line = ProgressLine(name, None, stream)
    _pass_line = line
    try:
        yield
    finally:
        _pass_line = None
        line.close()


@contextmanager
def planning_progress(
    label: str, time_limit: float | None = None, stream: TextIO | None = None
) -> Iterator[Progress]:
    """A `Progress` callback for a planner, shown as a line on `stream` (stderr)
    while the block runs when that is a terminal (on the running pass's line, if
    there is one); `no_progress` otherwise."""
    line = _pass_line
    if line is not None:
        saved = (line.label, line.time_limit, line.best, line.started)
        line.label, line.time_limit, line.best, line.started = (
            f"{saved[0]} | {label}", time_limit, None, time.monotonic()
        )
        try:
            yield line.update
        finally:
            line.label, line.time_limit, line.best, line.started = saved
        return
    stream = sys.stderr if stream is None else stream
    if not shows_progress(stream):
        yield no_progress
        return
    line = ProgressLine(label, time_limit, stream)
    try:
        yield line.update
    finally:
        line.close()
