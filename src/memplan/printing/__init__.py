"""Printing IR as mlir-opt and iree-opt print it, so their dumps round-trip as text.

Three concerns, one module each, combined in `MlirPrinter`:
- `naming`: MLIR's SSA value names and numbering, sorted attribute dictionaries;
- `structure`: `module` for `builtin.module`, the enclosing op's default dialect
  elided (`return` in `func.func`), attribute aliases (`#encoding = ...`);
- `builtin_syntax`: memref memory spaces and float literals as MLIR writes them;
and, for speed, `formats` (declarative formats compiled per op class) and
`output` (the text written with fewer steps).
"""

from __future__ import annotations

import io
from contextlib import nullcontext
from collections.abc import Iterable
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect, Operation

from memplan.printing.builtin_syntax import MlirBuiltinPrinter
from memplan.printing.naming import (
    AsmResultNames,
    FixedResultNames,
    MlirNamingMixin,
    sanitize_ssa_name,
)
from memplan.printing.structure import DefaultDialect, MlirStructurePrinter, collect_aliases
from memplan.signatures import Signatures

__all__ = [
    "AsmResultNames",
    "DefaultDialect",
    "FixedResultNames",
    "MlirPrinter",
    "collect_aliases",
    "print_mlir",
    "print_module",
    "sanitize_ssa_name",
]


class MlirPrinter(MlirNamingMixin, MlirStructurePrinter, MlirBuiltinPrinter):
    """memplan-opt's printer: xDSL's, with every mlir-opt convention above."""


def print_module(
    module: ModuleOp,
    stream: IO[str],
    *,
    generic: bool = False,
    debuginfo: bool = False,
    dialects: Iterable[Dialect] = (),
    keep_names: bool = False,
    local_scope: bool = False,
    signatures: Signatures | None = None,
) -> None:
    """Print `module` (aliases first, dialect resources last) and a newline.
    `signatures` may be the verification's (whose keys of the module's types are
    then known).

    Ops that passes built from xDSL's memref classes print through the
    subclasses that speak MLIR's custom syntax; the IR is never changed.
    """
    printer = MlirPrinter(stream=stream, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.keep_names = keep_names
    printer.local_scope = local_scope
    if signatures is not None:
        printer.signatures = signatures
    # The module is only read: each op's signature, found for its aliases, is
    # kept for its text.
    reading = nullcontext() if printer.signatures.memoizing else printer.signatures.reading()
    with reading, printer.buffered():
        printer.print_module(module)
        printer.print_metadata(dialects)
    stream.write("\n")


def print_mlir(
    op: Operation,
    *,
    generic: bool = False,
    keep_names: bool = False,
    names_from: Operation | None = None,
) -> str:
    """`op` printed as MLIR prints it (aliases first for a module), without a
    trailing newline; values named as in `names_from` when given (an ancestor)."""
    stream = io.StringIO()
    printer = MlirPrinter(stream=stream, print_generic_format=generic)
    printer.keep_names = keep_names
    printer.names_from = names_from
    if isinstance(op, ModuleOp):
        printer.print_module(op)
    else:
        printer.print_op(op)
    return stream.getvalue()
