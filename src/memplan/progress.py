"""One line of progress on stderr while a plan is searched, only when stderr is a
terminal: what is planned, the best pool so far and the time left; while a planning
pass runs (`pass_progress`), its name and time, and its plans on the same line.

Planning with `best` or `exact` takes its whole time budget on hard problems, and
a large module's planning can take tens of seconds with greedy too; without a sign
of life a user cannot tell a search from a hang. Nothing is written when stderr is
a file or a pipe (logs, CI, lit), and short tasks (under `DELAY` seconds) write
nothing at all, so the line never flickers.

A line draws its frames in `ProgressLine.tick()`, reading the time from its clock;
`start_ticker` calls it from a background thread. Both are seams: a test sets
`CLOCK` to a fake clock and `start_ticker` to one that keeps the line, then calls
`tick()` itself, so frames are drawn when it says and no test sleeps.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
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


CLEAR = "\r\x1b[2K"
"""Back to the start of the line and erase it: what precedes each frame."""

CLOCK: Callable[[], float] = time.monotonic
"""The clock new lines read (seconds)."""


class ProgressLine:
    """A status line redrawn in place by `tick()` until `close()`; the ticker
    (`start_ticker` by default) calls `tick()` as time passes."""

    def __init__(self, label: str, time_limit: float | None, stream: TextIO):
        self.label = label
        self.time_limit = time_limit
        self.stream = stream
        self.best: int | None = None
        self.clock = CLOCK
        self.opened = self.clock()
        """When the line was opened: its first frame is due `DELAY` later."""
        self.started = self.opened
        """When the task shown started (a planning task inside a pass resets it)."""
        self._drawn = False
        self._closed = threading.Event()
        self._join = start_ticker(self)

    def update(self, pool_size: int) -> None:
        """A plan of `pool_size` bytes was found (a `Progress` callback)."""
        if self.best is None or pool_size < self.best:
            self.best = pool_size

    def text(self) -> str:
        elapsed = self.clock() - self.started
        parts = [self.label]
        if self.best is not None:
            parts.append(f"best pool {self.best:,} B")
        if self.time_limit is not None:
            parts.append(f"{max(0.0, self.time_limit - elapsed):.1f} s left")
        else:
            parts.append(f"{elapsed:.1f} s")
        return " | ".join(parts)

    def due_in(self) -> float:
        """Seconds until the next frame is due: the rest of `DELAY` before the
        first, `INTERVAL` after it."""
        if self._drawn:
            return INTERVAL
        return max(0.0, self.opened + DELAY - self.clock())

    def tick(self) -> bool:
        """Draw the current frame if the line is open and `DELAY` has passed since
        it opened; whether a frame was drawn."""
        if self._closed.is_set() or self.clock() - self.opened < DELAY:
            return False
        self._write(CLEAR + self.text())
        self._drawn = True
        return True

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away
            self._closed.set()

    def wait_closed(self, timeout: float) -> bool:
        """Block up to `timeout` seconds; whether the line was closed meanwhile."""
        return self._closed.wait(timeout)

    def close(self) -> None:
        self._closed.set()
        self._join()
        if self._drawn:
            self._write(CLEAR)


def _thread_ticker(line: ProgressLine) -> Callable[[], None]:
    """Tick `line` from a daemon thread whenever a frame is due, until it closes;
    returns what joins the thread."""

    def loop() -> None:
        while not line.wait_closed(line.due_in()):
            line.tick()

    thread = threading.Thread(target=loop, name="memplan-progress", daemon=True)
    thread.start()
    return thread.join


start_ticker: Callable[[ProgressLine], Callable[[], None]] = _thread_ticker
"""What makes a new line tick: given the line, start its ticking and return what
stops waiting for it (called by `close()` after the line is marked closed)."""


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
            f"{saved[0]} | {label}", time_limit, None, line.clock()
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
