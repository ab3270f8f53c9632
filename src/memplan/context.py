"""The xDSL context memplan parses with: xDSL's dialects plus memplan's."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import get_all_dialects

from memplan.dialects import MEMPLAN_DIALECTS, MLIR_SYNTAX_OVERRIDES, TEST_DIALECTS
from memplan.opaque import OpaqueAttributeContext


def make_context(
    *, allow_unregistered: bool = False, test_dialect: bool = False
) -> Context:
    """A context that reads everything memplan-opt reads, with MLIR's memref syntax;
    with `test_dialect`, MLIR's test ops too (`memplan.dialects.mlir_test`). The
    memref ops carry memplan's canonicalization patterns from then on."""
    from memplan.dialects import upstream_models
    from memplan.dialects.memref import declare_canonicalization_patterns

    declare_canonicalization_patterns()
    upstream_models.declare_canonicalization_patterns()
    ctx = OpaqueAttributeContext(allow_unregistered=allow_unregistered)
    dialects = dict(get_all_dialects())
    dialects.update(MLIR_SYNTAX_OVERRIDES)
    dialects.update(MEMPLAN_DIALECTS)
    if test_dialect:
        dialects.update(TEST_DIALECTS)
    for name, factory in dialects.items():
        ctx.register_dialect(name, factory)
    return ctx
