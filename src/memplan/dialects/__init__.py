"""memplan's dialects, loaded lazily by name.

`MEMPLAN_DIALECTS` holds the dialects memplan defines (never one of xDSL's names, so
the xDSL universe entry cannot clash). `MLIR_SYNTAX_OVERRIDES` replaces xDSL dialects
whose ops xDSL prints only generically with versions that speak MLIR's custom
syntax; memplan-opt uses them, the xDSL universe does not.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect


def _hip() -> Dialect:
    from memplan.dialects.hip import Hip

    return Hip


def _memplan() -> Dialect:
    from memplan.dialects.memplan_dialect import Memplan

    return Memplan


def _stream() -> Dialect:
    from memplan.dialects.stream import Stream

    return Stream


def _util() -> Dialect:
    from memplan.dialects.util import Util

    return Util


def _hal() -> Dialect:
    from memplan.dialects.hal import Hal

    return Hal


def _iree_encoding() -> Dialect:
    from memplan.dialects.encoding import IreeEncoding

    return IreeEncoding


def _flow() -> Dialect:
    from memplan.dialects.flow import Flow

    return Flow


def _iree_tensor_ext() -> Dialect:
    from memplan.dialects.tensor_ext import IreeTensorExt

    return IreeTensorExt


def _memref_mlir_syntax() -> Dialect:
    from memplan.dialects.memref import MemRefMlirSyntax

    return MemRefMlirSyntax


def _check() -> Dialect:
    from memplan.dialects.check import Check

    return Check


MEMPLAN_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "hip": _hip,
    "memplan": _memplan,
    "stream": _stream,
    "util": _util,
    "hal": _hal,
    "iree_encoding": _iree_encoding,
    "flow": _flow,
    "iree_tensor_ext": _iree_tensor_ext,
    "check": _check,
}

def _scf_mlir_syntax() -> Dialect:
    from memplan.dialects.scf import ScfMlirSyntax

    return ScfMlirSyntax


def _affine_mlir_syntax() -> Dialect:
    from memplan.dialects.affine import AffineMlirSyntax

    return AffineMlirSyntax


def _index_mlir() -> Dialect:
    from memplan.dialects.index import IndexMlir

    return IndexMlir


def _func_mlir_syntax() -> Dialect:
    from memplan.dialects.func import FuncMlirSyntax

    return FuncMlirSyntax


def _arith_mlir() -> Dialect:
    from memplan.dialects.arith import ArithMlir

    return ArithMlir


def _mlir_test() -> Dialect:
    from memplan.dialects.mlir_test import MlirTest

    return MlirTest


TEST_DIALECTS: dict[str, Callable[[], Dialect]] = {"test": _mlir_test}
"""MLIR's test ops (a superset of xDSL's `test` dialect), loaded by memplan-opt when
the input names a `test.` op, as a test build of mlir-opt does. Not in the xDSL
universe: `test` is xDSL's name there."""

MLIR_SYNTAX_OVERRIDES: dict[str, Callable[[], Dialect]] = {
    "memref": _memref_mlir_syntax,
    "arith": _arith_mlir,
    "affine": _affine_mlir_syntax,
    "index": _index_mlir,
    "scf": _scf_mlir_syntax,
    "func": _func_mlir_syntax,
}
