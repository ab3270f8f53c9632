"""The memory passes take pools and host scratch through the context's type
(`RuntimeContext.memory_request`) and find them by `ContextMemory`, so another
runtime's context type and ops work without touching a pass."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, i8, i32
from xdsl.ir import Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)

from memplan.context import make_context
from memplan.dialects.hip import ContextType, GetHostScratchOp, GetPoolOp
from memplan.interfaces import (
    HOST_SCRATCH,
    POOL,
    ContextMemory,
    OperandEffects,
    RuntimeContext,
    all_results,
    context_memory,
)
from memplan.passes.materialize_host_scalars import ALIGNMENT, MaterializeHostScalars
from memplan.passes.pool_allocs import PoolAllocs
from memplan.tools.source import parse_module


class _ProbeMemory(IRDLOperation):
    handle = operand_def()
    size = operand_def()
    result = result_def()

    def __init__(self, handle: SSAValue, size: SSAValue):
        super().__init__(operands=(handle, size), result_types=(MemRefType(i8, [DYNAMIC_INDEX]),))


@irdl_op_definition
class ProbePoolOp(_ProbeMemory):
    name = "probe.pool"
    traits = traits_def(OperandEffects(allocates=all_results), ContextMemory(POOL, 0))


@irdl_op_definition
class ProbeScratchOp(_ProbeMemory):
    name = "probe.scratch"
    traits = traits_def(OperandEffects(allocates=all_results), ContextMemory(HOST_SCRATCH, 0))


@irdl_attr_definition
class ProbeHandle(ParametrizedAttribute, TypeAttribute, RuntimeContext):
    """A runtime context of a dialect no pass knows of."""

    name = "probe.handle"

    def memory_request(self, kind, context, size, key=None) -> Operation:
        if kind == POOL and not key:
            return ProbePoolOp(context, size)
        if kind == HOST_SCRATCH:
            return ProbeScratchOp(context, size)
        return super().memory_request(kind, context, size, key)


def _module(text: str):
    ctx = make_context()
    ctx.load_dialect(Dialect("probe", [ProbePoolOp, ProbeScratchOp], [ProbeHandle]))
    return parse_module(ctx, text, "probe.mlir")


def _constant(value: SSAValue) -> int:
    return value.owner.properties["value"].value.data


def _function_ops(module) -> list[Operation]:
    return list(module.body.block.first_op.walk())


HOST_FED = """
func.func @f(%h: !probe.handle, %x: i32) {
  %c0 = arith.constant 0 : index
  PRELUDE
  %a = memref.alloc() : memref<4xi32>
  memref.store %x, %a[%c0] : memref<4xi32>
  memref.dealloc %a : memref<4xi32>
  return
}
"""


@pytest.mark.parametrize(
    ("pass_", "op_type"), [(PoolAllocs(), ProbePoolOp), (MaterializeHostScalars(), ProbeScratchOp)]
)
def test_the_buffer_moves_into_memory_the_context_type_builds(pass_, op_type):
    module = _module(HOST_FED.replace("PRELUDE", ""))
    assert pass_.run(Context(), module)
    taken = [op for op in _function_ops(module) if isinstance(op, op_type)]
    assert len(taken) == 1
    views = [op for op in _function_ops(module) if isinstance(op, memref.ViewOp)]
    assert [v.source.owner for v in views] == taken
    assert not any(isinstance(op, memref.AllocOp) for op in _function_ops(module))


def test_existing_scratch_of_another_dialect_is_found_and_grown():
    """The scratch a function already takes is found by its `ContextMemory` kind and
    reused: the new 16-byte buffer goes after the 8 bytes its view uses, at an
    aligned offset, and the scratch grows to hold it."""
    prelude = (
        "%c8 = arith.constant 8 : index\n"
        '  %s = "probe.scratch"(%h, %c8) : (!probe.handle, index) -> memref<?xi8>\n'
        "  %v = memref.view %s[%c0][] : memref<?xi8> to memref<2xi32>\n"
        "  memref.store %x, %v[%c0] : memref<2xi32>"
    )
    module = _module(HOST_FED.replace("PRELUDE", prelude))
    assert MaterializeHostScalars().run(Context(), module)
    scratch = [op for op in _function_ops(module) if isinstance(op, ProbeScratchOp)]
    assert len(scratch) == 1
    views = [op for op in _function_ops(module) if isinstance(op, memref.ViewOp)]
    assert len(views) == 2 and all(v.source.owner is scratch[0] for v in views)
    new = next(v for v in views if v.result.type == MemRefType(i32, [4]))
    shift = _constant(new.byte_shift)
    assert shift >= 8 and shift % ALIGNMENT == 0
    assert _constant(scratch[0].size) >= shift + 16


@pytest.mark.parametrize(
    ("kind", "key", "op_type"),
    [(POOL, None, GetPoolOp), (POOL, 0, GetPoolOp), (POOL, 2, GetPoolOp),
     (HOST_SCRATCH, None, GetHostScratchOp)],
)
def test_hip_context_builds_its_memory_ops(kind, key, op_type):
    """hip's pools of domain 0 print no `domain_id` (set to 0, as hip-ep populates
    its default, and left out of the custom form), as the pass printed them before."""
    module = parse_module(
        make_context(),
        "func.func @f(%ctx: !hip.context, %n: index) {\n  return\n}\n",
        "t.mlir",
    )
    ctx, n = module.body.block.first_op.body.blocks[0].args
    op = ContextType().memory_request(kind, ctx, n, key)
    assert isinstance(op, op_type)
    assert tuple(op.operands) == (ctx, n) and context_memory(op).kind == kind
    if kind == POOL:
        assert op.domain == (key or 0) == op.domain_id.value.data
        assert ("domain_id" in str(op)) == bool(key)


def test_hip_context_has_no_op_for_an_unknown_memory():
    with pytest.raises(ValueError, match="no op for"):
        ContextType().memory_request("texture", None, None)
