"""The stream dialect: IREE 3.13 text round trips, effects, verifiers, builders.

The texts in `iree_cases.STREAM_CASES` are what `iree-opt` prints; memplan must read
them and print them back unchanged, in custom and in generic form.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    NoneType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    f32,
    i64,
)
from xdsl.ir import Block, Region
from xdsl.traits import is_side_effect_free
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.context import make_context
from memplan.dialects.iree import stream, util
from memplan.dialects.iree.hal import DeviceAffinityAttr
from memplan.dialects.iree.stream_dialect import Stream
from memplan.interfaces import EffectInstance, FreshResults, MemoryEffectKind, memory_effects

from iree_cases import STREAM_CASES, func, parse, show

READ, WRITE, ALLOC, FREE = (
    MemoryEffectKind.READ,
    MemoryEffectKind.WRITE,
    MemoryEffectKind.ALLOC,
    MemoryEffectKind.FREE,
)


def body_ops(module: ModuleOp) -> list:
    """The ops of the first util.func's body, without its terminator."""
    fn = next(op for op in module.ops if isinstance(op, util.FuncOp))
    return list(fn.body.block.ops)[:-1]


# --------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(STREAM_CASES))
def test_custom_round_trip_is_iree_text(name: str):
    text = STREAM_CASES[name]
    assert show(parse(text)) == text


@pytest.mark.parametrize("name", sorted(STREAM_CASES))
def test_generic_round_trip(name: str):
    text = STREAM_CASES[name]
    generic = show(parse(text), generic=True)
    assert '"stream.' in generic
    # Generic text is stable, and reads back as the same IR.
    assert show(parse(generic), generic=True) == generic
    assert show(parse(generic)) == text


def test_generic_form_matches_iree_property_names():
    """Property names and order are IREE 3.13's (`target_affinity`, sorted dict,
    operandSegmentSizes as a property), so iree-opt's generic dumps parse."""
    iree_generic = (
        '"builtin.module"() ({\n'
        '  "util.func"() <{function_type = (index, !stream.resource<*>) -> (), sym_name = "f", sym_visibility = "public"}> ({\n'
        "  ^bb0(%arg0: index, %arg1: !stream.resource<*>):\n"
        '    %0 = "stream.async.transfer"(%arg1, %arg0, %arg0) <{execution_affinity = #hal.device.affinity<@d2>, source_affinity = #hal.device.affinity<@d>, target_affinity = #hal.device.affinity<@d>}> : (!stream.resource<*>, index, index) -> !stream.resource<external>\n'
        '    %1 = "stream.tensor.encode"(%arg1, %arg0, %arg0, %arg0, %arg0) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, result_encoding = tensor<?xf32>, source_encoding = tensor<?xf32>}> : (!stream.resource<*>, index, index, index, index) -> !stream.resource<*>\n'
        '    %2 = "stream.async.dispatch"(%arg1, %arg0, %arg0, %arg0, %arg0, %arg0) <{entry_points = [@ex::@entry], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1>, tied_operands = [-1 : index]}> : (!stream.resource<*>, index, index, index, index, index) -> !stream.resource<*>\n'
        '    "util.return"() : () -> ()\n'
        "  }) : () -> ()\n"
        "}) : () -> ()"
    )
    module = parse(iree_generic)
    assert show(module, generic=True) == iree_generic
    transfer, encode, dispatch = body_ops(module)
    assert isinstance(transfer, stream.AsyncTransferOp)
    assert transfer.execution_affinity == DeviceAffinityAttr("d2")
    assert transfer.result_affinity == DeviceAffinityAttr("d")
    assert isinstance(encode, stream.TensorEncodeOp)
    assert len(encode.source_encoding_dims) == len(encode.result_encoding_dims) == 1
    assert isinstance(dispatch, stream.AsyncDispatchOp)
    assert dispatch.tied_result_operands() == (None,)


def test_custom_dispatch_records_untied_results_like_iree():
    module = parse(STREAM_CASES["dispatch_single"])
    (dispatch,) = body_ops(module)
    assert dispatch.tied_operands is not None
    assert [a.value.data for a in dispatch.tied_operands.data] == [-1]
    assert "tied_operands = [-1 : index]" in show(module, generic=True)


def test_attr_dict_after_static_encoding_is_not_dims():
    """`tensor<4xf32> {foo}`: IREE 3.13 prints this but cannot read it back; memplan
    reads `{foo}` as the attribute dictionary, not as dimension operands."""
    text = func("%0 = stream.tensor.sizeof tensor<4xf32> {foo} : index")
    (sizeof,) = body_ops(parse(text))
    assert not sizeof.encoding_dims
    assert "foo" in sizeof.attributes
    assert show(parse(text)) == text


# --------------------------------------------------------------------------------
# Types and attributes
# --------------------------------------------------------------------------------


@pytest.mark.parametrize("lifetime", list(stream.Lifetime))
def test_resource_lifetimes(lifetime: stream.Lifetime):
    text = func("", f"%arg0: !stream.resource<{lifetime.value}>")
    (arg,) = next(iter(parse(text).ops)).body.block.args
    assert arg.type == stream.ResourceType(lifetime)
    assert arg.type.lifetime is lifetime
    assert show(parse(text)) == text


def test_unknown_lifetime_is_rejected():
    with pytest.raises(ParseError, match="expected a resource lifetime"):
        parse(func("", "%arg0: !stream.resource<forever>"))


def test_named_parameter_parts():
    text = func(
        '%cst = stream.tensor.constant : tensor<4xf32> in !stream.resource<constant> = #stream.parameter.named<"s"::"k", {offset = 4 : i64}> : tensor<4xf32>'
    )
    (constant,) = body_ops(parse(text))
    value = constant.value
    assert isinstance(value, stream.NamedParameterAttr)
    assert value == stream.NamedParameterAttr(
        "k",
        TensorType(f32, [4]),
        scope="s",
        config={"offset": IntegerAttr(4, i64)},
    )
    assert value.get_type() == TensorType(f32, [4])
    unscoped = stream.NamedParameterAttr("k")
    assert isinstance(unscoped.get_type(), NoneType)


def test_parameter_without_type_prints_without_suffix():
    text = (
        "module {\n"
        '  util.global private @p : !stream.resource<constant> = #stream.parameter.named<"k">\n'
        "}"
    )
    # IREE gives such a parameter type `none` and then rejects the global.
    module = parse(text, verify=False)
    assert show(module) == text
    with pytest.raises(VerifyException, match="initial value type mismatch"):
        module.verify()


def test_device_affinity_queues():
    every = DeviceAffinityAttr("dev")
    assert every.queues is None
    some = DeviceAffinityAttr("dev", [2, 0])
    assert some.queues == (0, 2)
    assert some.queue_mask.data == 0b101
    high = DeviceAffinityAttr("dev", [63])
    assert high.queues == (63,)
    text = func(
        "%0 = stream.resource.size %arg1 <affinity = #hal.device.affinity<@dev, [2, 0]>> : !stream.resource<*>"
    )
    printed = show(parse(text))
    assert "#hal.device.affinity<@dev, [0, 2]>" in printed


def test_device_affinity_rejects_nested_symbol():
    with pytest.raises(VerifyException, match="flat symbol"):
        DeviceAffinityAttr(SymbolRefAttr("a", ["b"]))


# --------------------------------------------------------------------------------
# Effects
# --------------------------------------------------------------------------------

PURE_CASES = [
    "tensor_constant_dense",
    "resource_size",
    "transfer_on_from_to",
    "sizeof",
    "encode",
    "timepoints",
]


@pytest.mark.parametrize("name", PURE_CASES)
def test_pure_ops_have_no_effects(name: str):
    for op in body_ops(parse(STREAM_CASES[name])):
        assert memory_effects(op) == set(), op.name
        assert is_side_effect_free(op), op.name


def test_transfer_is_pure_so_cse_merges_it():
    """The seed PR's point: identical transfers are one value."""
    text = func(
        "%0 = stream.async.transfer %arg1 : !stream.resource<*>{%arg0} -> !stream.resource<constant>{%arg0}\n"
        "%1 = stream.async.transfer %arg1 : !stream.resource<*>{%arg0} -> !stream.resource<constant>{%arg0}\n"
        "%2 = stream.resource.size %0 : !stream.resource<constant>\n"
        "%3 = stream.resource.size %1 : !stream.resource<constant>\n"
        '"test.op"(%2, %3) : (index, index) -> ()'
    )
    module = parse(text)
    CommonSubexpressionElimination().apply(make_context(), module)
    names = [op.name for op in body_ops(module)]
    assert names.count("stream.async.transfer") == 1
    assert names.count("stream.resource.size") == 1
    (user,) = [op for op in body_ops(module) if op.name == "test.op"]
    assert user.operands[0] is user.operands[1]


def test_fresh_dispatch_results_are_allocations_so_cse_keeps_both():
    """IREE bug #23665: merging two dispatches makes two consumers share one
    buffer. Their untied results are ALLOCs, so CSE keeps both."""
    text = func(
        "%0 = stream.async.dispatch @ex::@entry(%arg1[%arg0 to %arg0 for %arg0]) : (!stream.resource<*>{%arg0}) -> !stream.resource<*>{%arg0}\n"
        "%1 = stream.async.dispatch @ex::@entry(%arg1[%arg0 to %arg0 for %arg0]) : (!stream.resource<*>{%arg0}) -> !stream.resource<*>{%arg0}\n"
        "%2 = stream.resource.size %0 : !stream.resource<*>\n"
        "%3 = stream.resource.size %1 : !stream.resource<*>\n"
        '"test.op"(%2, %3) : (index, index) -> ()'
    )
    module = parse(text)
    first, second = body_ops(module)[:2]
    assert memory_effects(first) == {
        EffectInstance(READ, first.resource_operands[0]),
        EffectInstance(ALLOC, first.results[0]),
    }
    assert not is_side_effect_free(first)
    CommonSubexpressionElimination().apply(make_context(), module)
    names = [op.name for op in body_ops(module)]
    assert names.count("stream.async.dispatch") == 2


def test_tied_dispatch_writes_its_operand():
    module = parse(STREAM_CASES["dispatch_tied_and_fresh"])
    (dispatch,) = body_ops(module)
    resource, index = dispatch.resource_operands
    tied, fresh = dispatch.results
    assert dispatch.tied_result_operands() == (0, None)
    assert memory_effects(dispatch) == {
        EffectInstance(READ, resource),
        EffectInstance(WRITE, resource),
        EffectInstance(ALLOC, fresh),
    }


def test_allocation_effects_name_their_values():
    module = parse(STREAM_CASES["async_alloca"])
    for op in body_ops(module):
        assert memory_effects(op) == {EffectInstance(ALLOC, op.results[0])}
    for op in body_ops(parse(STREAM_CASES["resource_alloc"])):
        assert memory_effects(op) == {EffectInstance(ALLOC, op.results[0])}
    for op in body_ops(parse(STREAM_CASES["resource_alloca"])):
        # The timepoint is not an allocation.
        assert memory_effects(op) == {EffectInstance(ALLOC, op.result)}
    for op in body_ops(parse(STREAM_CASES["resource_dealloca"])):
        assert memory_effects(op) == {EffectInstance(FREE, op.operand)}


def test_async_phase_ops_declare_fresh_results():
    """IREE's async-phase contract (an untied result of a streamable op is a new
    resource) is declared by each op where it is defined; a new async or tensor op
    that forgets it would make aliasing treat its consumers as escapes."""
    async_phase = {
        op.name
        for op in Stream.operations
        if op.name.startswith(("stream.async.", "stream.tensor."))
        and not op.get_irdl_definition().regions
    }
    declared = {op.name for op in Stream.operations if op.get_trait(FreshResults) is not None}
    assert len(async_phase) > 30
    assert declared == async_phase


def test_clone_is_not_pure():
    module = parse(STREAM_CASES["async_clone"])
    for op in body_ops(module):
        assert memory_effects(op) == {
            EffectInstance(READ, op.source),
            EffectInstance(ALLOC, op.result),
        }
        assert not is_side_effect_free(op)


# --------------------------------------------------------------------------------
# Sizes
# --------------------------------------------------------------------------------


def test_find_size_follows_size_aware_producers():
    text = func(
        "%0 = stream.async.alloca : !stream.resource<*>{%arg0}\n"
        "%1 = stream.async.transfer %0 : !stream.resource<*>{%arg0} -> !stream.resource<constant>{%arg0}\n"
        "%2:2 = stream.async.dispatch @ex::@entry(%arg0, %arg1[%arg0 to %arg0 for %arg0]) : (index, !stream.resource<*>{%arg0}) -> (%arg1{%arg0}, !stream.resource<*>{%arg0})\n"
        "%3 = stream.resource.size %1 : !stream.resource<constant>",
        "%arg0: index, %arg1: !stream.resource<*>",
    )
    alloca, transfer, dispatch, size = body_ops(parse(text))
    fn_size = alloca.storage_size
    assert stream.find_size(alloca.result) is fn_size
    assert stream.find_size(transfer.result) is transfer.result_size
    assert stream.find_size(dispatch.results[1]) is dispatch.result_sizes[1]
    assert dispatch.operand_size_of(0) is None  # the index operand has no size
    assert dispatch.operand_size_of(1) is dispatch.resource_operand_sizes[0]
    assert stream.find_size(size.result) is None  # an index, from an unsized op
    assert stream.find_size(fn_size) is None  # a block argument


# --------------------------------------------------------------------------------
# Verifiers
# --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, message",
    [
        (
            '%0 = "stream.tensor.sizeof"() <{encoding = tensor<?xf32>}> : () -> index',
            "type set has 1 dynamic dimensions but only 0 dimension values are attached",
        ),
        (
            '%0 = "stream.tensor.constant"() <{result_encoding = tensor<?xf32>, value = dense<1.0> : tensor<4xf32>}> : () -> !stream.resource<constant>',
            "type set has 1 dynamic dimensions but only 0",
        ),
        (
            '%0 = "stream.tensor.encode"(%arg1, %arg0, %arg0) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 1>, result_encoding = tensor<?xf32>, source_encoding = tensor<4xf32>}> : (!stream.resource<*>, index, index) -> !stream.resource<*>',
            "type set has 1 dynamic dimensions but only 0",
        ),
        (
            '%0 = "stream.async.dispatch"(%arg1, %arg0, %arg0, %arg0, %arg0) <{entry_points = [@ex::@entry], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 0>}> : (!stream.resource<*>, index, index, index, index) -> !stream.resource<*>',
            "value set has 1 dynamic dimensions but only 0 dimension values are attached",
        ),
        (
            '%0 = "stream.async.dispatch"(%arg1, %arg0, %arg0, %arg0, %arg0, %arg0) <{entry_points = [@ex::@entry], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1>, tied_operands = [3 : index]}> : (!stream.resource<*>, index, index, index, index, index) -> !stream.resource<*>',
            "result #0 tied to invalid operand index 3",
        ),
        (
            '"stream.async.dispatch"() <{entry_points = [], operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0>}> : () -> ()',
            "at least one entry point must be defined",
        ),
        (
            '%0:2 = "stream.timepoint.await"(%arg1, %arg0, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!stream.resource<*>, index, !stream.timepoint) -> (!stream.resource<*>, !stream.resource<*>)',
            "results/tied operand indices mismatch",
        ),
        (
            '%0 = "stream.async.dispatch"(%arg1, %arg0, %arg0, %arg0, %arg0) <{entry_points = [@ex::@entry], operandSegmentSizes = array<i32: 0, 1, 1, 0, 1, 1, 1>}> : (!stream.resource<*>, index, index, index, index) -> !stream.resource<*>',
            "mismatch on resource range offsets/ends/lengths; counts must match",
        ),
        (
            '%0 = "stream.async.transfer"(%arg1, %arg0, %arg0) : (!stream.resource<*>, index, index) -> !stream.timepoint',
            "stream.resource",
        ),
    ],
)
def test_verifier_rejects(body: str, message: str):
    text = func(body, "%arg0: index, %arg1: !stream.resource<*>, %arg2: !stream.timepoint")
    module = parse(text, verify=False)
    with pytest.raises(VerifyException, match=message):
        module.verify()


# --------------------------------------------------------------------------------
# Builders
# --------------------------------------------------------------------------------


def test_builders_reproduce_the_seed_chain():
    """Ops built from Python print as IREE prints the seed's encode chain."""
    device = DeviceAffinityAttr("__device_0")
    plain = TensorType(f32, [16])
    from memplan.dialects.iree.encoding import TestingEncodingAttr

    encoded = TensorType(f32, [16], TestingEncodingAttr())
    constant = stream.TensorConstantOp(
        stream.NamedParameterAttr("w", plain, scope="model"), plain, affinity=device
    )
    size = stream.ResourceSizeOp(constant)
    to_any = stream.AsyncTransferOp(
        constant,
        size,
        stream.ResourceType(),
        size,
        source_affinity=device,
        target_affinity=device,
    )
    sizeof = stream.TensorSizeOfOp(encoded, affinity=device)
    encode = stream.TensorEncodeOp(
        to_any, plain, size, encoded, sizeof, affinity=device
    )
    back = stream.AsyncTransferOp(
        encode,
        sizeof,
        stream.ResourceType("constant"),
        sizeof,
        source_affinity=device,
        target_affinity=device,
    )
    ops = [constant, size, to_any, sizeof, encode, back, util.ReturnOp()]
    module = ModuleOp([util.InitializerOp(ops)])
    module.verify()
    expected = (
        "#encoding = #iree_encoding.testing<>\n"
        "module {\n"
        "  util.initializer {\n"
        '    %cst = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<16xf32> in !stream.resource<constant> = #stream.parameter.named<"model"::"w"> : tensor<16xf32>\n'
        "    %0 = stream.resource.size %cst : !stream.resource<constant>\n"
        "    %1 = stream.async.transfer %cst : !stream.resource<constant>{%0} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%0}\n"
        "    %2 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<16xf32, #encoding> : index\n"
        "    %3 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %1 : tensor<16xf32> in !stream.resource<*>{%0} -> tensor<16xf32, #encoding> in !stream.resource<*>{%2}\n"
        "    %4 = stream.async.transfer %3 : !stream.resource<*>{%2} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%2}\n"
        "    util.return\n"
        "  }\n"
        "}"
    )
    assert show(module) == expected


def test_dispatch_builder_and_timepoint_builders():
    block = Block(
        arg_types=[IndexType(), stream.ResourceType(), stream.TimepointType()]
    )
    size, resource, timepoint = block.args
    dispatch = stream.AsyncDispatchOp(
        SymbolRefAttr("ex", ["entry"]),
        [resource],
        [stream.ResourceType("transient")],
        workload=[size],
        operand_sizes=[size],
        operand_offsets=[size],
        operand_ends=[size],
        operand_lengths=[size],
        result_sizes=[size],
    )
    immediate = stream.TimepointImmediateOp()
    join = stream.TimepointJoinOp([timepoint, immediate])
    wait = stream.TimepointAwaitOp(join, [dispatch.results[0]], [size], sync=True)
    alloca = stream.ResourceAllocaOp(
        stream.ResourceType("transient"), size, await_timepoint=join.result_timepoint
    )
    dealloca = stream.ResourceDeallocaOp(
        alloca.result, size, await_timepoint=alloca.result_timepoint
    )
    block.add_ops([dispatch, immediate, join, wait, alloca, dealloca, util.ReturnOp()])
    fn = util.FuncOp(
        "f",
        ([IndexType(), stream.ResourceType(), stream.TimepointType()], []),
        Region(block),
    )
    module = ModuleOp([fn])
    module.verify()
    printed = show(module)
    assert (
        "%0 = stream.async.dispatch @ex::@entry[%arg0](%arg1[%arg0 to %arg0 for %arg0]) : (!stream.resource<*>{%arg0}) -> !stream.resource<transient>{%arg0}"
        in printed
    )
    assert "%3 = stream.timepoint.await sync %2 => %0 : !stream.resource<transient>{%arg0}" in printed
    assert "%result, %result_timepoint = stream.resource.alloca uninitialized await(%2) => !stream.resource<transient>{%arg0} => !stream.timepoint" in printed
    assert "%4 = stream.resource.dealloca await(%result_timepoint) => %result : !stream.resource<transient>{%arg0} => !stream.timepoint" in printed
    # What it prints is what it reads.
    assert show(parse(printed)) == printed


def test_config_dictionary_must_be_a_dictionary():
    with pytest.raises(ParseError, match="config dictionary"):
        parse(
            func(
                '%cst = stream.tensor.constant : tensor<4xf32> in !stream.resource<constant> = #stream.parameter.named<"k", 4> : tensor<4xf32>'
            )
        )


def test_constant_result_name_hint():
    op = stream.TensorConstantOp(
        stream.NamedParameterAttr("k", TensorType(f32, [4])), TensorType(f32, [4])
    )
    assert op.result.name_hint == "cst"
    assert op.value.key == StringAttr("k")
    assert not isinstance(op.value.config, DictionaryAttr)
