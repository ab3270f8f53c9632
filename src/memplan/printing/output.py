"""Text output of memplan's printer: xDSL's, with the common case cut short.

Printing a decoder writes about fifteen strings per op. xDSL's `print_string`
encodes each (an identity call for text), counts its newlines and splits it; a new
line writes the newline and the indentation apart. Text without a newline goes
straight to the stream here, and everything else as xDSL does it.
"""

from __future__ import annotations

from xdsl.printer import Printer


class FastOutputPrinter(Printer):
    """`print_string` and `_print_new_line` with xDSL's results, fewer steps."""

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)

    def _print_new_line(self, indent: int | None = None, print_message: bool = True) -> None:
        if print_message and self._next_line_callback:
            super()._print_new_line(indent, print_message)
            return
        spaces = (self._indent if indent is None else indent) * self.indent_num_spaces
        self.stream.write(_NEW_LINES[spaces] if spaces < len(_NEW_LINES) else "\n" + " " * spaces)
        self._current_line += 1
        self._current_column = spaces


_NEW_LINES = tuple("\n" + " " * n for n in range(64))
