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
from dataclasses import dataclass, replace

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
    excerpt: str | None = None
    """The source line and a caret under the column, as MLIR prints them below the
    message; not part of what `--verify-diagnostics` matches."""
    notes: tuple[Diagnostic, ...] = ()
    """Attached notes (`see current operation: ...`), printed after it."""

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location is not None else ""
        text = f"{where}{self.severity}: {self.message}"
        if self.excerpt:
            text += "\n" + self.excerpt
        for note in self.notes:
            text += "\n" + str(note)
        return text

    def with_source(self, text: str, file: str) -> Diagnostic:
        """With the excerpt of `text` (the input named `file`) at the location."""
        if self.excerpt is not None or self.location is None or self.location.file != file:
            return self
        lines = text.splitlines()
        if not 1 <= self.location.line <= len(lines):
            return self
        source = lines[self.location.line - 1]
        caret = " " * (self.location.column - 1) + "^"
        return replace(self, excerpt=f"{source}\n{caret}")


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

    notes: tuple[Diagnostic, ...] = ()

    def diagnostic(self) -> Diagnostic:
        return Diagnostic("error", self.message, self.location, notes=self.notes)


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
