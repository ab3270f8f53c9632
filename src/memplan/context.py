"""The xDSL context memplan parses with: xDSL's dialects plus memplan's."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import get_all_dialects

from memplan.dialects import MEMPLAN_DIALECTS, MLIR_SYNTAX_OVERRIDES, TEST_DIALECTS
from memplan.opaque import OpaqueAttributeContext


def make_context(*, allow_unregistered: bool = False) -> Context:
    """A context that reads everything memplan-opt reads, with MLIR's memref syntax
    and MLIR's test ops (`memplan.dialects.mlir.mlir_test`, a superset of xDSL's `test`
    dialect), as a test build of mlir-opt registers them. Every dialect is a factory
    the context calls when the input first names one of its ops, so the test ops
    cost nothing to an input without `test.` ops. The memref ops carry memplan's
    canonicalization patterns from then on."""
    from memplan.dialects.mlir import upstream_models
    from memplan.dialects.mlir.memref import declare_canonicalization_patterns

    declare_canonicalization_patterns()
    upstream_models.declare_canonicalization_patterns()
    ctx = OpaqueAttributeContext(allow_unregistered=allow_unregistered)
    dialects = dict(get_all_dialects())
    dialects.update(MLIR_SYNTAX_OVERRIDES)
    dialects.update(MEMPLAN_DIALECTS)
    dialects.update(TEST_DIALECTS)
    for name, factory in dialects.items():
        ctx.register_dialect(name, factory)
    return ctx
