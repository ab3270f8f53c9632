"""memplan's dialects, loaded lazily by name, one package per family: `hip/`,
`iree/` (stream, util, hal, flow, encoding, tensor_ext, check), `mlir/` (upstream
MLIR's syntax and the models attached to xDSL's ops), and memplan's own
`memplan_dialect.py`.

`MEMPLAN_DIALECTS` holds the dialects memplan defines (never one of xDSL's names, so
the xDSL universe entry cannot clash). `MLIR_SYNTAX_OVERRIDES` replaces xDSL dialects
whose ops xDSL prints only generically with versions that speak MLIR's custom
syntax; memplan-opt uses them, the xDSL universe does not.

`MOVED` keeps the module paths of the flat layout before the families
(`memplan.dialects.stream`, `memplan.dialects.hip_kernels`, ...) importable: each is
the same module object as its new path, so code written against either path works.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType

from xdsl.ir import Dialect, Operation

MOVED: dict[str, str] = {
    **{f"memplan.dialects.hip_{name}": f"memplan.dialects.hip.{name}" for name in ("base", "control", "kernels")},
    **{
        f"memplan.dialects.{name}": f"memplan.dialects.iree.{name}"
        for name in (
            "check", "encoding", "flow", "hal", "stream", "stream_cmd", "stream_executable",
            "stream_runtime", "tensor_ext", "util", "util_buffer", "util_values",
        )
    },
    **{
        f"memplan.dialects.{name}": f"memplan.dialects.mlir.{name}"
        for name in (
            "affine", "arith", "func", "index", "memref", "memref_ops", "mlir_test", "scf",
            "upstream_models",
        )
    },
    "memplan.dialects.util_interfaces": "memplan.util_interfaces",
    "memplan.dialects.memref_layout": "memplan.analysis.memref_layout",
}
"""Old module path -> the module's path now."""


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old path of `MOVED` as the module at its new path."""

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec) -> ModuleType:
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        pass


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules())


def _hip() -> Dialect:
    from memplan.dialects.hip import Hip

    return Hip


def _memplan() -> Dialect:
    from memplan.dialects.memplan_dialect import Memplan

    return Memplan


def _stream() -> Dialect:
    from memplan.dialects.iree.stream_dialect import Stream

    return Stream


def _util() -> Dialect:
    from memplan.dialects.iree.util import Util

    return Util


def _hal() -> Dialect:
    from memplan.dialects.iree.hal import Hal

    return Hal


def _iree_encoding() -> Dialect:
    from memplan.dialects.iree.encoding import IreeEncoding

    return IreeEncoding


def _flow() -> Dialect:
    from memplan.dialects.iree.flow import Flow

    return Flow


def _iree_tensor_ext() -> Dialect:
    from memplan.dialects.iree.tensor_ext import IreeTensorExt

    return IreeTensorExt


def _memref_mlir_syntax() -> Dialect:
    from memplan.dialects.mlir.memref import MemRefMlirSyntax

    return MemRefMlirSyntax


def _check() -> Dialect:
    from memplan.dialects.iree.check import Check

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
    from memplan.dialects.mlir.scf import ScfMlirSyntax

    return ScfMlirSyntax


def _affine_mlir_syntax() -> Dialect:
    from memplan.dialects.mlir.affine import AffineMlirSyntax

    return AffineMlirSyntax


def _index_mlir() -> Dialect:
    from memplan.dialects.mlir.index import IndexMlir

    return IndexMlir


def _func_mlir_syntax() -> Dialect:
    from memplan.dialects.mlir.func import FuncMlirSyntax

    return FuncMlirSyntax


def _arith_mlir() -> Dialect:
    from memplan.dialects.mlir.arith import ArithMlir

    return ArithMlir


def _mlir_test() -> Dialect:
    from memplan.dialects.mlir.mlir_test import MlirTest

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


def mlir_syntax_classes(dialect: str) -> dict[str, type[Operation]]:
    """memplan's op classes of `dialect` that print MLIR's custom syntax where
    xDSL's print the generic form, by op name (the printer's, through
    `memplan.providers`; an override's ops are all of its dialect)."""
    factory = MLIR_SYNTAX_OVERRIDES.get(dialect)
    return {} if factory is None else {op_type.name: op_type for op_type in factory().operations}
