"""Diagnostics that point at the source text, as MLIR's do.

Passes report problems a user must fix with `UserError` and explain conservative
decisions with `remark` (shown under a pass's debug option). The tool turns both into
`file:line:col: severity: message` lines and collects them for
`--verify-diagnostics`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def location_of(op: Operation | None) -> Location | None:
    """The source position the parser recorded for `op`, or for its closest parent."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return Location(loc.filename.data, loc.line.data, loc.column.data)
        op = op.parent_op()
    return None


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error", "warning", "remark" or "note"
    message: str
    location: Location | None = None

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location is not None else ""
        return f"{where}{self.severity}: {self.message}"


class UserError(Exception):
    """A problem in the user's input or options, reported without a traceback."""

    def __init__(
        self,
        message: str,
        op: Operation | None = None,
        location: Location | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.location = location if location is not None else location_of(op)

    def diagnostic(self) -> Diagnostic:
        return Diagnostic("error", self.message, self.location)


DiagnosticHandler = Callable[[Diagnostic], None]


def _print_to_stderr(diagnostic: Diagnostic) -> None:
    print(diagnostic, file=sys.stderr)


_handlers: list[DiagnosticHandler] = [_print_to_stderr]


@contextmanager
def diagnostic_handler(handler: DiagnosticHandler) -> Iterator[None]:
    """Route emitted diagnostics to `handler` while the context is active."""
    _handlers.append(handler)
    try:
        yield
    finally:
        _handlers.pop()


def emit(diagnostic: Diagnostic) -> None:
    _handlers[-1](diagnostic)


def remark(op: Operation | None, message: str) -> None:
    """Explain a decision at `op` (passes call this under their debug option)."""
    emit(Diagnostic("remark", message, location_of(op)))


def warning(op: Operation | None, message: str) -> None:
    emit(Diagnostic("warning", message, location_of(op)))
