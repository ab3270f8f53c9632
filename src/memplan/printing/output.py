"""Text output of memplan's printer: xDSL's, with the common case cut short.

Printing a decoder writes about fifteen strings per op. xDSL's `print_string`
encodes each (an identity call for text), counts its newlines and splits it; a new
line writes the newline and the indentation apart; and each write to the tool's
UTF-8 stream resets its decoder. Here text without a newline goes straight out,
everything else as xDSL does it, and within `buffered()` the pieces are joined and
written a few thousand at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import IO

from xdsl.ir import Attribute, SSAValue
from xdsl.printer import Printer

FLUSH_AT = 4096
"""Pieces held in `buffered()` before they are written (checked at new lines)."""


class FastOutputPrinter(Printer):
    """`print_string` and `_print_new_line` with xDSL's results, fewer steps; all
    output goes through `_emit`."""

    _emit: Callable[[str], object]
    _pending: list[str] | None = None

    @property
    def stream(self) -> IO[str]:  # type: ignore[override]
        self._flush()
        return self._stream

    @stream.setter
    def stream(self, stream: IO[str]) -> None:
        self._flush()
        self._stream = stream
        self._emit = stream.write if self._pending is None else self._pending.append

    def _flush(self) -> None:
        pending = self._pending
        if pending:
            self._stream.write("".join(pending))
            pending.clear()

    @contextmanager
    def buffered(self) -> Iterator[None]:
        """Output joined into large writes until the end of the block."""
        if self._pending is not None:
            yield
            return
        self._pending = []
        self._emit = self._pending.append
        try:
            yield
        finally:
            self._flush()
            self._pending = None
            self._emit = self._stream.write

    def printed_aside(self, print_fn: Callable[[], object]) -> str:
        """What `print_fn` prints, returned instead of written; the position in
        the output is left as it was."""
        emit, column, line = self._emit, self._current_column, self._current_line
        parts: list[str] = []
        self._emit = parts.append
        try:
            print_fn()
        finally:
            self._emit, self._current_column, self._current_line = emit, column, line
        return "".join(parts)

    def value_text(self, value: SSAValue) -> str:
        """What `print_ssa_value` prints (compiled formats build an op's text)."""
        return self.printed_aside(lambda: self.print_ssa_value(value))

    def attribute_text(self, attribute: Attribute) -> str:
        """What `print_attribute` prints."""
        return self.printed_aside(lambda: self.print_attribute(attribute))

    def print_string_literal(self, string: str) -> None:
        self.print_string(string_literal(string))

    def print_bytes_literal(self, bytestring: bytes) -> None:
        self.print_string(_bytes_literal(bytestring))

    def _write(self, content: str) -> None:
        self._emit(content)

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self._emit(text)

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        if print_message and self._next_line_callback:
            super()._print_new_line(indent, print_message)
            return
        spaces = (self._indent if indent is None else indent) * self.indent_num_spaces
        self._emit(_NEW_LINES[spaces] if spaces < len(_NEW_LINES) else "\n" + " " * spaces)
        self._current_line += 1
        self._current_column = spaces
        pending = self._pending
        if pending is not None and len(pending) > FLUSH_AT:
            self._flush()


    def _print_line(self, text: str) -> None:
        """A new line, then `text` (without a newline), in one write."""
        if self._next_line_callback:
            self._print_new_line()
            self.print_string(text)
            return
        spaces = self._indent * self.indent_num_spaces
        self._emit(new_line(spaces) + text)
        self._current_line += 1
        self._current_column = spaces + len(text)
        pending = self._pending
        if pending is not None and len(pending) > FLUSH_AT:
            self._flush()


_NEW_LINES = tuple("\n" + " " * n for n in range(64))


def new_line(spaces: int) -> str:
    """A newline and `spaces` spaces."""
    return _NEW_LINES[spaces] if spaces < len(_NEW_LINES) else "\n" + " " * spaces

_BYTES = tuple(
    "\\\\" if byte == 0x5C else f"\\{byte:02X}" if byte < 0x20 or byte > 0x7E or byte == 0x22 else chr(byte)
    for byte in range(256)
)
"""xDSL's `print_bytes_literal` spelling of each byte."""


def _bytes_literal(bytestring: bytes) -> str:
    return '"' + "".join([_BYTES[byte] for byte in bytestring]) + '"'


@lru_cache(maxsize=4096)
def string_literal(string: str) -> str:
    """`print_string_literal`'s text, in one write (xDSL writes each byte apart;
    with locations printed, every op names its file)."""
    return _bytes_literal(string.encode("utf-8"))
