"""memplan as another xDSL compiler uses it: the module built with xDSL's builder,
the compiler's own kernel op taking part through memplan's traits, memplan's passes
run in that compiler's own `PassPipeline`, the plan read from the object they record
(not from printed attributes)."""

from __future__ import annotations

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import IndexType, ModuleOp, f32, i64
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    traits_def,
    var_operand_def,
)
from xdsl.passes import PassPipeline

import memplan
from memplan.dialects.hip import ContextType
from memplan.interfaces import OperandEffects, StreamExecution
from memplan.passes import MaterializeHostScalars, PoolAllocs


@irdl_op_definition
class KernelOp(IRDLOperation):
    """The other compiler's kernel launch: enqueued on the context's stream, reads
    its inputs and writes its outputs there. memplan knows it by these traits only."""

    name = "othercc.kernel"
    ctx = operand_def(ContextType)
    inputs = var_operand_def()
    outputs = var_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        StreamExecution(0),
        OperandEffects(reads=lambda op: tuple(op.inputs), writes=lambda op: tuple(op.outputs)),
    )

    def __init__(self, ctx, inputs, outputs):
        super().__init__(operands=(ctx, inputs, outputs))


def build_step() -> ModuleOp:
    """Host writes %fed, a kernel reads it (enqueued), the host writes %later: the
    two may not share bytes although %fed is dead in program order (DESIGN.md
    section 2, rule 4). %out and %tmp are device-only."""
    module = ModuleOp([])
    with ImplicitBuilder(module.body):
        step = func.FuncOp("step", ((ContextType(), i64), ()))
    with ImplicitBuilder(step.body) as (ctx, n):
        zero = arith.ConstantOp.from_int_and_width(0, IndexType())
        fed = memref.AllocOp.get(i64, shape=[64])
        fed.memref.name_hint = "fed"
        memref.StoreOp.get(n, fed, [zero])
        out = memref.AllocOp.get(f32, shape=[256])
        out.memref.name_hint = "out"
        KernelOp(ctx, [fed], [out])
        later = memref.AllocOp.get(i64, shape=[64])
        later.memref.name_hint = "later"
        memref.StoreOp.get(n, later, [zero])
        tmp = memref.AllocOp.get(f32, shape=[256])
        tmp.memref.name_hint = "tmp"
        KernelOp(ctx, [later, out], [tmp])
        func.ReturnOp()
    return module


def test_passes_in_the_compilers_own_pipeline_record_a_plan():
    ctx = memplan.make_context()
    module = build_step()
    module.verify()
    pipeline = PassPipeline((MaterializeHostScalars(), PoolAllocs(alignment=64)))
    with memplan.recording() as recorded:
        pipeline.apply(ctx, module)
    plan = recorded.plan("step")
    fed, out, later, tmp = (plan.buffer(name) for name in ("%fed", "%out", "%later", "%tmp"))
    assert [b.name for b in plan.buffers] == ["%fed", "%out", "%later", "%tmp"]
    assert (fed.kind, out.kind, later.kind, tmp.kind) == ("host-fed", "device-only", "host-fed", "device-only")
    assert (fed.size, out.size) == (64 * 8, 256 * 4)
    assert all(b.offset is not None and b.offset % 64 == 0 for b in plan.buffers)
    # %later is kept apart from %fed, and the plan says why.
    assert later.kept_apart and later.kept_apart[0][0] == "%fed"
    assert later.offset + later.size <= fed.offset or fed.offset + fed.size <= later.offset
    # The object agrees with what the pass wrote for the runtime.
    offsets = module.attributes["hipdnn.buffer_offsets"]
    values = list(offsets.get_values()) if hasattr(offsets, "get_values") else [o.value.data for o in offsets.data]
    assert values == [b.offset for b in plan.buffers]
    (domain,) = plan.domains
    assert domain.pool_size == module.attributes["hipdnn.pool_size"].value.data
    assert domain.lower_bound <= domain.pool_size


def test_run_pipeline_returns_the_plan_and_the_statistics():
    ctx = memplan.make_context()
    module = build_step()
    result = memplan.run_pipeline(ctx, module, [PoolAllocs(alignment=64)])
    assert set(result.plans) == {"step"}
    assert result.plans["step"].buffer("%tmp").kind == "device-only"
    counters = result.statistics["PoolAllocs"]
    assert counters["num-ops-added"] > 0
    assert counters["num-buffers-pooled"] == 4
    assert counters["pool-bytes"] == result.plans["step"].pool_size
