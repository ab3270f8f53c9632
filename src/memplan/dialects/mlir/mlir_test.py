"""The ops of MLIR's test dialect that upstream's pass tests use. memplan-opt loads
them when the input names a `test.` op, as a test build of mlir-opt does (Debian's
`mlir-opt-22` is one); `--allow-test-dialect` is accepted as the explicit form.

Upstream's `mlir/test/Transforms/cse.mlir` relies on these; their behaviour is
what MLIR's `TestOps.td` declares (syntax, traits, effects), the code memplan's:

- `test.graph_region { ... }`: one graph region (values may be used before they
  are defined), no terminator, unknown effects.
- `test.cse_of_single_block_op inputs(%a, %b) { ^bb0(...): ... test.region_yield
  %v : f32 } : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>`: Pure, one block.
- `test.region_yield %v : f32`: its terminator.
- `"test.side_effect_op"() {effects = [{effect = "read", test_resource}]} : () ->
  i32` (one result): the effects its `effects` attribute lists: `effect` is read, write, allocate or
  free; `on_result` ties it to result 0, `on_reference = @sym` to a symbol; the
  resource is the default one, `test_resource` (addressable, so it may be any
  memory), or `test_nonaddressable_resource` and its disjoint parts `_a`, `_b`
  (non-addressable: they alias no buffer).

xDSL's own `test` dialect (`test.op`, `test.op_with_memread`, ...) is kept
alongside: memplan's context registers this superset under the name `test`.
"""

from __future__ import annotations

from collections.abc import Set

from xdsl.dialects import test as xtest
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    EffectInstance,
    HasParent,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    NoTerminator,
    Pure,
    ReturnLike,
)
from xdsl.utils.exceptions import VerifyException

from memplan.interfaces import GraphRegions, NonAddressableResource

__all__ = [
    "CseOfSingleBlockOp",
    "GraphRegionOp",
    "MlirTest",
    "RegionYieldOp",
    "SideEffectOp",
    "TEST_NONADDRESSABLE",
]


@irdl_op_definition
class GraphRegionOp(IRDLOperation):
    name = "test.graph_region"

    region = region_def()

    traits = traits_def(NoTerminator(), GraphRegions())

    assembly_format = "attr-dict-with-keyword $region"


@irdl_op_definition
class RegionYieldOp(IRDLOperation):
    name = "test.region_yield"

    result = operand_def(AnyAttr())

    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    assembly_format = "$result attr-dict `:` type($result)"


@irdl_op_definition
class CseOfSingleBlockOp(IRDLOperation):
    name = "test.cse_of_single_block_op"

    inputs = var_operand_def()
    outputs = var_result_def()
    region = region_def("single_block")

    traits = traits_def(Pure())

    assembly_format = (
        "attr-dict `inputs` `(` $inputs `)` $region `:` type($inputs) `->` "
        "type($outputs)"
    )


RegionYieldOp.traits.add_trait(HasParent(CseOfSingleBlockOp))

TEST_NONADDRESSABLE = NonAddressableResource(("test_nonaddressable_resource",))
"""The non-addressable resource `test_nonaddressable_resource` names; `_a` and
`_b` are its two disjoint parts."""

_RESOURCES = {
    "test_nonaddressable_resource": TEST_NONADDRESSABLE,
    "test_nonaddressable_resource_a": NonAddressableResource((*TEST_NONADDRESSABLE.path, "a")),
    "test_nonaddressable_resource_b": NonAddressableResource((*TEST_NONADDRESSABLE.path, "b")),
}

_KINDS = {
    "read": MemoryEffectKind.READ,
    "write": MemoryEffectKind.WRITE,
    "allocate": MemoryEffectKind.ALLOC,
    "free": MemoryEffectKind.FREE,
}


class _ListedEffects(MemoryEffect):
    """The effects the op's `effects` attribute lists."""

    @classmethod
    def get_effects(cls, op: Operation) -> Set[EffectInstance] | None:
        listed = op.attributes.get("effects")
        if not isinstance(listed, ArrayAttr):
            return set()
        effects: set[EffectInstance] = set()
        for entry in listed:
            assert isinstance(entry, DictionaryAttr)
            fields = entry.data
            kind = fields.get("effect")
            assert isinstance(kind, StringAttr)
            value: SSAValue | SymbolRefAttr | None = None
            if "on_result" in fields and op.results:
                value = op.results[0]
            reference = fields.get("on_reference")
            if isinstance(reference, SymbolRefAttr):
                value = reference
            resource = next((r for n, r in _RESOURCES.items() if n in fields), None)
            if resource is not None:
                effects.add(EffectInstance(_KINDS[kind.data], value, resource))
            elif "test_resource" in fields:
                # An addressable resource other than the default one: it may be any
                # memory, so memplan ties the effect to nothing.
                effects.add(EffectInstance(_KINDS[kind.data], None))
            else:
                effects.add(EffectInstance(_KINDS[kind.data], value))
        return effects


@irdl_op_definition
class SideEffectOp(IRDLOperation):
    name = "test.side_effect_op"

    operands_ = var_operand_def()
    result = result_def(AnyAttr())

    traits = traits_def(_ListedEffects())

    def verify_(self) -> None:
        listed = self.attributes.get("effects")
        if listed is None:
            return
        if not isinstance(listed, ArrayAttr):
            raise VerifyException("expected 'effects' to be an array of dictionaries")
        for entry in listed:
            if not isinstance(entry, DictionaryAttr):
                raise VerifyException("expected 'effects' to be an array of dictionaries")
            kind = entry.data.get("effect")
            if not isinstance(kind, StringAttr) or kind.data not in _KINDS:
                raise VerifyException(
                    f"expected 'effect' to be one of {', '.join(_KINDS)}"
                )


MlirTest = Dialect(
    "test",
    [
        *xtest.Test.operations,
        GraphRegionOp,
        RegionYieldOp,
        CseOfSingleBlockOp,
        SideEffectOp,
    ],
    list(xtest.Test.attributes),
)
"""xDSL's `test` dialect plus the MLIR test ops above."""
