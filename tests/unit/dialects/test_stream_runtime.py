"""stream_runtime's ops: effects and sizes declared on the ops, and what CSE may
merge because of them (round trips and verifiers are in the lit files)."""

from __future__ import annotations

from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)

from memplan.context import make_context
from memplan.dialects.iree import stream_runtime as rt
from memplan.dialects.iree.stream import find_size
from memplan.interfaces import EffectInstance, MemoryEffectKind, memory_effects

from iree_cases import func, parse

READ, WRITE, ALLOC = MemoryEffectKind.READ, MemoryEffectKind.WRITE, MemoryEffectKind.ALLOC

_ARGS = (
    "%arg0: index, %arg1: !stream.resource<*>, %arg2: !stream.file, %arg3: i64, "
    "%arg4: !util.buffer, %arg5: !stream.channel"
)


def _ops(body: str, kind: type) -> list:
    module = parse(func(body, _ARGS))
    return [op for op in module.walk() if isinstance(op, kind)]


def test_file_read_reads_its_file_and_writes_its_target():
    (read,) = _ops(
        "%0 = stream.file.read : %arg2[%arg3], %arg1[%arg0], %arg0 : !stream.file -> "
        "!stream.resource<*>{%arg0} => !stream.timepoint",
        rt.FileReadOp,
    )
    assert memory_effects(read) == {
        EffectInstance(READ, read.source), EffectInstance(WRITE, read.target)
    }
    # The target's size, asked by operand position (the target is operand 2).
    assert read.get_trait(rt.SizeAware).operand_size(read, 2) is read.target_size


def test_parameter_write_has_an_unnamed_write_and_keeps_its_source_size():
    (write,) = _ops(
        "%0, %1 = stream.async.parameter.write %arg1[%arg0 to %arg0 for %arg0] -> "
        "%arg4[%arg3] : !stream.resource<*>{%arg0} => !stream.timepoint",
        rt.AsyncParameterWriteOp,
    )
    effects = memory_effects(write)
    assert effects is not None
    assert EffectInstance(READ, write.source) in effects
    assert any(e.kind is WRITE and e.value is None for e in effects)
    assert find_size(write.result) is write.source_size
    assert write.tied_result_operands() == (0, None)


def test_two_identical_tensor_dispatches_stay_two():
    body = "\n".join(
        f"%{i} = stream.tensor.dispatch @ex::@e(%arg1) : (tensor<4xf32> in "
        "!stream.resource<*>{%arg0}) -> tensor<4xf32> in !stream.resource<*>{%arg0}"
        for i in range(2)
    ) + '\nutil.optimization_barrier %0, %1 : !stream.resource<*>, !stream.resource<*>'
    module = parse(func(body, _ARGS))
    CommonSubexpressionElimination().apply(make_context(), module)
    dispatches = [op for op in module.walk() if isinstance(op, rt.TensorDispatchOp)]
    assert len(dispatches) == 2
    assert memory_effects(dispatches[0]) == {
        EffectInstance(READ, dispatches[0].resource_operands[0]),
        EffectInstance(ALLOC, dispatches[0].results[0]),
    }


def test_pure_channel_queries_merge():
    body = (
        "%0 = stream.channel.rank %arg5 : index\n"
        "%1 = stream.channel.rank %arg5 : index\n"
        "util.optimization_barrier %0, %1 : index, index"
    )
    module = parse(func(body, _ARGS))
    CommonSubexpressionElimination().apply(make_context(), module)
    assert len([op for op in module.walk() if isinstance(op, rt.ChannelRankOp)]) == 1


def test_gather_answers_its_target_size_wherever_the_target_sits():
    (gather,) = _ops(
        "%0, %1 = stream.async.parameter.gather {\n"
        "  %arg4[%arg3] -> %arg1[%arg0 to %arg0 for %arg0] : !stream.resource<*>{%arg0}\n"
        "} : !stream.resource<*> => !stream.timepoint",
        rt.AsyncParameterGatherOp,
    )
    position = gather.operands.index(gather.target)
    trait = gather.get_trait(rt.SizeAware)
    assert trait.operand_size(gather, position) is gather.target_size
    assert trait.operand_size(gather, 0) is None
    assert find_size(gather.result) is gather.target_size
