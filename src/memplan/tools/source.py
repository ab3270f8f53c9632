"""Reading MLIR text with source locations, split into chunks as mlir-opt does."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import add

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import UnresolvedOperand
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from memplan.diagnostics import Diagnostic, Location
from memplan.opaque import OpaqueBodyParser
from memplan.parsing import RepeatedOpParser, without_gc

SPLIT_MARKER = "// -----"


class LineIndex:
    """Maps byte offsets of a text to 1-based (line, column) in O(log lines)."""

    def __init__(self, text: str):
        # Each line starts one past the previous line's end (sums taken in C).
        self._starts = [0, *accumulate(map(add, map(len, text.split("\n")[:-1]), repeat(1)))]

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


class LocatingParser(OpaqueBodyParser, RepeatedOpParser):
    """A parser that records each op's `file:line:col`, so diagnostics raised long
    after parsing (by verifiers and passes) can point at the source text; it keeps
    executable bodies as text (`memplan.opaque`)."""

    def __init__(self, ctx: Context, text: str, name: str):
        super().__init__(ctx, text, name)
        self._lines = LineIndex(text)
        self._file = StringAttr(name)
        self._first_forward_use: dict[str, Span] = {}
        # A few indentation levels: the ops of a module share their columns.
        self._columns: dict[int, IntAttr] = {}

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        if operand.operand_name not in self.ssa_values:
            self._first_forward_use.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL reports undefined values at the end of the input; MLIR, and memplan,
        at their first use. Empty input (or only comments) is an empty module, as
        mlir-opt reads it."""
        first = self._current_token.span.start
        if self._current_token.kind == MLIRTokenKind.EOF:
            module = ModuleOp([])
        else:
            module = self._parse_module_at_first_use(allow_implicit_module)
        if isinstance(module.location, UnknownLoc):
            # The implicit module is where its first token is (MLIR: where the
            # buffer starts), so module-level errors have a location too.
            line, col = self._lines.line_col(first)
            module.location = FileLineColLoc(self._file, IntAttr(line), IntAttr(col))
        return module

    def _parse_module_at_first_use(self, allow_implicit_module: bool) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as error:
            undefined = [n for n in self.forward_ssa_references if n in self._first_forward_use]
            if not error.msg.startswith("values used but not defined") or not undefined:
                raise
            first = min(undefined, key=lambda n: self._first_forward_use[n].start)
            raise ParseError(
                self._first_forward_use[first], f"use of undeclared SSA value name %{first}"
            ) from None

    def parse_operation(self) -> Operation:
        """Also turns errors that ops' parsers raise as verifier or value errors
        (a wrong type in a custom directive) into parse errors at the op, so they
        keep a location."""
        start_token = self._current_token
        start = start_token.span.start
        try:
            op = super().parse_operation()
        except ParseError:
            raise
        except (VerifyException, DiagnosticException, ValueError) as error:
            message = str(error).strip() or type(error).__name__
            raise ParseError(start_token.span, " ".join(message.split())) from None
        if isinstance(op.location, UnknownLoc) and not self._read_unknown_loc():
            op.location = self._op_location(start)
        return op

    def _op_location(self, start: int) -> FileLineColLoc:
        line, col = self._lines.line_col(start)
        column = self._columns.get(col)
        if column is None:
            column = self._columns[col] = IntAttr(col)
        return file_line_col(self._file, line, column)

    def _may_rebuild_ops(self) -> bool:
        return not self.in_opaque_body()


    def _read_unknown_loc(self) -> bool:
        """Whether the op just read ended with an explicit `loc(unknown)`: it stays
        unknown, as in mlir-opt (and prints back as `loc(unknown)` with
        --mlir-print-debuginfo), rather than taking its place in this file."""
        end = self._current_token.span.start
        content = self._content
        while end > 0 and content[end - 1] in " \t\r\n":
            end -= 1
        return content.endswith("loc(unknown)", 0, end)


def file_line_col(file: StringAttr, line: int, column: IntAttr) -> FileLineColLoc:
    """`FileLineColLoc(file, IntAttr(line), column)` without xDSL's verification of
    its parameters (of these types by construction): a third of an op's location
    cost, paid on every op read."""
    line_attr = _new(IntAttr)
    line_attr.__dict__["data"] = line  # as `object.__setattr__` sets a frozen field
    location = _new(FileLineColLoc)
    fields = location.__dict__
    fields["filename"] = file
    fields["line"] = line_attr
    fields["column"] = column
    return location


_new = object.__new__


@dataclass(frozen=True)
class Chunk:
    """One piece of the input; `text` keeps blank lines in front of the piece so
    that line numbers stay those of the whole file."""

    text: str
    first_line: int


def split_input(text: str, split: bool, marker: str = SPLIT_MARKER) -> list[Chunk]:
    if not split:
        return [Chunk(text, 1)]
    chunks: list[Chunk] = []
    current: list[str] = []
    first_line = 1
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if line.strip() == marker:
            chunks.append(Chunk("\n" * (first_line - 1) + "".join(current), first_line))
            current = []
            first_line = number + 1
            continue
        current.append(line)
    chunks.append(Chunk("\n" * (first_line - 1) + "".join(current), first_line))
    return chunks


def parse_error_diagnostic(error: ParseError, text: str, name: str) -> Diagnostic:
    """`file:line:col: error: message`, followed by the line and a caret, as MLIR."""
    line, col = LineIndex(text).line_col(error.span.start)
    lines = text.splitlines()
    source_line = lines[line - 1] if line <= len(lines) else ""
    width = max(1, min(error.span.end - error.span.start, len(source_line) - col + 1))
    summary = error.msg.strip()
    if not text[error.span.start :].strip():
        summary = f"unexpected end of input ({summary})" if summary else "unexpected end of input"
    excerpt = f"{source_line}\n{' ' * (col - 1)}{'^' * width}"
    return Diagnostic("error", summary, Location(name, line, col), excerpt=excerpt)


def parse_module(ctx: Context, text: str, name: str) -> ModuleOp:
    with without_gc():
        return LocatingParser(ctx, text, name).parse_module()
