"""The IREE seed (PR #21921's "before" IR) and MLIR's printing conventions.

`examples/iree_seed_initializer.mlir` must print back character for character, and
read what `iree-opt --mlir-print-op-generic` writes. The nested-region texts below
were printed by `iree-opt` 3.13 and pin MLIR's SSA numbering rules.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, ModuleOp, SymbolRefAttr
from xdsl.ir import Block, Region
from xdsl.traits import is_side_effect_free

from memplan.dialects.iree import stream, util
from memplan.interfaces import MemoryEffectKind, memory_effects

from iree_cases import parse, read_example, show

SEED = read_example("iree_seed_initializer.mlir")

# `iree-opt --mlir-print-op-generic examples/iree_seed_initializer.mlir`
SEED_IREE_GENERIC = (
    '#encoding = #iree_encoding.testing<>\n'
    '"builtin.module"() ({\n'
    '  "util.global"() <{sym_name = "__auto.blk.0.attn_q.weight:qs", sym_visibility = "private", type = !stream.resource<constant>}> : () -> ()\n'
    '  "util.global"() <{sym_name = "__auto.blk.0.attn_q.weight:qs__size", sym_visibility = "private", type = index}> : () -> ()\n'
    '  "util.global"() <{sym_name = "__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded", sym_visibility = "private", type = !stream.resource<constant>}> : () -> ()\n'
    '  "util.global"() <{sym_name = "__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size", sym_visibility = "private", type = index}> : () -> ()\n'
    '  "util.global"() <{sym_name = "__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0", sym_visibility = "private", type = !stream.resource<constant>}> : () -> ()\n'
    '  "util.global"() <{sym_name = "__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size", sym_visibility = "private", type = index}> : () -> ()\n'
    '  "util.initializer"() <{function_type = () -> ()}> ({\n'
    '    %0 = "stream.tensor.constant"() <{affinity = #hal.device.affinity<@__device_0>, result_encoding = tensor<4096x4096xf8E4M3FNUZ>, value = #stream.parameter.named<"model"::"blk.0.attn_q.weight:qs"> : tensor<4096x4096xf8E4M3FNUZ>}> : () -> !stream.resource<constant>\n'
    '    %1 = "stream.resource.size"(%0) : (!stream.resource<constant>) -> index\n'
    '    "util.global.store"(%0) <{global = @"__auto.blk.0.attn_q.weight:qs"}> : (!stream.resource<constant>) -> ()\n'
    '    "util.global.store"(%1) <{global = @"__auto.blk.0.attn_q.weight:qs__size"}> : (index) -> ()\n'
    '    %2 = "util.global.load"() <{global = @"__auto.blk.0.attn_q.weight:qs__size"}> : () -> index\n'
    '    %3 = "util.global.load"() <{global = @"__auto.blk.0.attn_q.weight:qs"}> : () -> !stream.resource<constant>\n'
    '    %4 = "stream.async.transfer"(%3, %2, %2) <{source_affinity = #hal.device.affinity<@__device_0>, target_affinity = #hal.device.affinity<@__device_0>}> : (!stream.resource<constant>, index, index) -> !stream.resource<*>\n'
    '    %5 = "stream.tensor.sizeof"() <{affinity = #hal.device.affinity<@__device_0>, encoding = tensor<4096x4096xf8E4M3FNUZ, #encoding>}> : () -> index\n'
    '    %6 = "stream.tensor.encode"(%4, %2, %5) <{affinity = #hal.device.affinity<@__device_0>, operandSegmentSizes = array<i32: 1, 0, 1, 0, 1>, result_encoding = tensor<4096x4096xf8E4M3FNUZ, #encoding>, source_encoding = tensor<4096x4096xf8E4M3FNUZ>}> : (!stream.resource<*>, index, index) -> !stream.resource<*>\n'
    '    %7 = "stream.async.transfer"(%6, %5, %5) <{source_affinity = #hal.device.affinity<@__device_0>, target_affinity = #hal.device.affinity<@__device_0>}> : (!stream.resource<*>, index, index) -> !stream.resource<constant>\n'
    '    "util.global.store"(%7) <{global = @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded}> : (!stream.resource<constant>) -> ()\n'
    '    "util.global.store"(%5) <{global = @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size}> : (index) -> ()\n'
    '    %8 = "util.global.load"() <{global = @"__auto.blk.0.attn_q.weight:qs__size"}> : () -> index\n'
    '    %9 = "util.global.load"() <{global = @"__auto.blk.0.attn_q.weight:qs"}> : () -> !stream.resource<constant>\n'
    '    %10 = "stream.async.transfer"(%9, %8, %8) <{source_affinity = #hal.device.affinity<@__device_0>, target_affinity = #hal.device.affinity<@__device_0>}> : (!stream.resource<constant>, index, index) -> !stream.resource<*>\n'
    '    %11 = "stream.tensor.sizeof"() <{affinity = #hal.device.affinity<@__device_0>, encoding = tensor<4096x4096xf8E4M3FNUZ, #encoding>}> : () -> index\n'
    '    %12 = "stream.tensor.encode"(%10, %8, %11) <{affinity = #hal.device.affinity<@__device_0>, operandSegmentSizes = array<i32: 1, 0, 1, 0, 1>, result_encoding = tensor<4096x4096xf8E4M3FNUZ, #encoding>, source_encoding = tensor<4096x4096xf8E4M3FNUZ>}> : (!stream.resource<*>, index, index) -> !stream.resource<*>\n'
    '    %13 = "stream.async.transfer"(%12, %11, %11) <{source_affinity = #hal.device.affinity<@__device_0>, target_affinity = #hal.device.affinity<@__device_0>}> : (!stream.resource<*>, index, index) -> !stream.resource<constant>\n'
    '    "util.global.store"(%13) <{global = @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0}> : (!stream.resource<constant>) -> ()\n'
    '    "util.global.store"(%11) <{global = @__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size}> : (index) -> ()\n'
    '    "util.return"() : () -> ()\n'
    '  }) : () -> ()\n'
    '}) : () -> ()'
)

# `iree-opt` of a function with nested regions: a region's values are numbered
# after its parent's, sibling regions restart, entry arguments continue `%argN`.
NESTED_IREE = (
    'module {\n'
    '  util.func public @f(%arg0: index, %arg1: index, %arg2: index) -> index {\n'
    '    %true = arith.constant true\n'
    '    %0 = arith.addi %arg0, %arg1 : index\n'
    '    %1 = scf.for %arg3 = %arg0 to %arg1 step %arg2 iter_args(%arg4 = %arg0) -> (index) {\n'
    '      %4 = arith.addi %arg4, %arg3 : index\n'
    '      %5 = arith.addi %4, %arg3 : index\n'
    '      scf.yield %5 : index\n'
    '    }\n'
    '    %2 = scf.if %true -> (index) {\n'
    '      %4 = arith.addi %arg0, %arg1 : index\n'
    '      scf.yield %4 : index\n'
    '    } else {\n'
    '      %4 = arith.muli %arg0, %arg1 : index\n'
    '      scf.yield %4 : index\n'
    '    }\n'
    '    %3 = arith.addi %1, %2 : index\n'
    '    util.return %3 : index\n'
    '  }\n'
    '}'
)

# The same with --mlir-print-op-generic: no names, unique numbers, last region first.
NESTED_IREE_GENERIC = (
    '"builtin.module"() ({\n'
    '  "util.func"() <{function_type = (index, index, index) -> index, sym_name = "f", sym_visibility = "public", tied_operands = [-1 : index]}> ({\n'
    '  ^bb0(%arg0: index, %arg1: index, %arg2: index):\n'
    '    %0 = "arith.constant"() <{value = true}> : () -> i1\n'
    '    %1 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index\n'
    '    %2 = "scf.for"(%arg0, %arg1, %arg2, %arg0) ({\n'
    '    ^bb0(%arg3: index, %arg4: index):\n'
    '      %7 = "arith.addi"(%arg4, %arg3) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index\n'
    '      %8 = "arith.addi"(%7, %arg3) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index\n'
    '      "scf.yield"(%8) : (index) -> ()\n'
    '    }) : (index, index, index, index) -> index\n'
    '    %3 = "scf.if"(%0) ({\n'
    '      %6 = "arith.addi"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index\n'
    '      "scf.yield"(%6) : (index) -> ()\n'
    '    }, {\n'
    '      %5 = "arith.muli"(%arg0, %arg1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index\n'
    '      "scf.yield"(%5) : (index) -> ()\n'
    '    }) : (i1) -> index\n'
    '    %4 = "arith.addi"(%2, %3) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index\n'
    '    "util.return"(%4) : (index) -> ()\n'
    '  }) : () -> ()\n'
    '}) : () -> ()'
)


def test_seed_prints_back_identically():
    assert show(parse(SEED)) == SEED.rstrip("\n")


def test_seed_reads_iree_generic_form():
    assert show(parse(SEED_IREE_GENERIC)) == SEED.rstrip("\n")


def test_seed_generic_form_is_iree_generic_form():
    """Identical to iree-opt's, except that memplan-opt's printer writes the
    `#encoding` alias inline in the generic form."""
    alias = "#encoding = #iree_encoding.testing<>\n"
    expected = SEED_IREE_GENERIC.removeprefix(alias).replace(
        "#encoding>", "#iree_encoding.testing<>>"
    )
    printed = show(parse(SEED), generic=True)
    assert printed.removeprefix(alias).replace(
        "#encoding>", "#iree_encoding.testing<>>"
    ) == expected


def test_seed_structure():
    module = parse(SEED)
    globals_ = [op for op in module.ops if isinstance(op, util.GlobalOp)]
    assert [g.sym_name.data for g in globals_] == [
        "__auto.blk.0.attn_q.weight:qs",
        "__auto.blk.0.attn_q.weight:qs__size",
        "__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded",
        "__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded__size",
        "__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0",
        "__hoisted_tensor_4096x4096xf8E4M3FNUZ__encoded_0__size",
    ]
    assert all(g.visibility == "private" and not g.mutable for g in globals_)
    (init,) = [op for op in module.ops if isinstance(op, util.InitializerOp)]
    names = [op.name for op in init.body.block.ops]
    assert names.count("stream.async.transfer") == 4
    assert names.count("stream.tensor.encode") == 2
    assert names.count("util.global.load") == 4


def test_seed_duplicates_are_mergeable_by_effects():
    """What lets a CSE driven by effects collapse the two encode chains: the
    transfers, sizeofs and encodes are Pure, and between the first and the second
    load of each `__auto` global only other globals are written."""
    module = parse(SEED)
    (init,) = [op for op in module.ops if isinstance(op, util.InitializerOp)]
    ops = list(init.body.block.ops)
    for op in ops:
        if isinstance(op, stream.AsyncTransferOp | stream.TensorSizeOfOp | stream.TensorEncodeOp):
            assert is_side_effect_free(op)
    loads = [op for op in ops if isinstance(op, util.GlobalLoadOp)]
    for symbol in {load.global_ for load in loads}:
        first, second = [ops.index(l) for l in loads if l.global_ == symbol]
        written = {
            effect.value
            for op in ops[first + 1 : second]
            for effect in memory_effects(op) or ()
            if effect.kind is MemoryEffectKind.WRITE
        }
        assert written and symbol not in written
        assert all(isinstance(value, SymbolRefAttr) for value in written)


def test_mlir_numbering_of_nested_regions():
    assert show(parse(NESTED_IREE)) == NESTED_IREE
    assert show(parse(NESTED_IREE), generic=True) == NESTED_IREE_GENERIC
    # `arith.constant` gets MLIR's `%true` from the printer's naming model.
    assert show(parse(NESTED_IREE_GENERIC)) == NESTED_IREE


def test_multi_result_ops_print_as_groups():
    block = Block(arg_types=[IndexType(), stream.ResourceType(), stream.TimepointType()])
    size, resource, timepoint = block.args
    first = stream.TimepointAwaitOp(timepoint, [resource, resource], [size, size])
    second = stream.ResourceAllocaOp(stream.ResourceType("transient"), size)
    block.add_ops([first, second, util.ReturnOp()])
    fn = util.FuncOp(
        "f", ([IndexType(), stream.ResourceType(), stream.TimepointType()], []), Region(block)
    )
    printed = show(ModuleOp([fn]))
    assert "%0:2 = stream.timepoint.await %arg2 => %arg1, %arg1" in printed
    # stream.resource.alloca names its results as IREE does.
    assert "%result, %result_timepoint = stream.resource.alloca" in printed
    assert show(parse(printed)) == printed


def test_arith_constants_get_mlir_names():
    text = (
        "module {\n"
        "  util.func public @f() {\n"
        '    %0 = "arith.constant"() <{value = 4 : index}> : () -> index\n'
        '    %1 = "arith.constant"() <{value = -1 : i32}> : () -> i32\n'
        '    %2 = "arith.constant"() <{value = false}> : () -> i1\n'
        '    %3 = "arith.constant"() <{value = 1.0 : f32}> : () -> f32\n'
        '    %4 = "arith.constant"() <{value = 4 : index}> : () -> index\n'
        "    util.return\n"
        "  }\n"
        "}"
    )
    printed = show(parse(text))
    names = [line.split(" = ")[0].strip() for line in printed.splitlines() if " = " in line]
    assert names == ["%c4", "%c-1_i32", "%false", "%cst", "%c4_0"]


def test_conflict_counter_is_shared_by_names():
    """MLIR gives the first clash of any name `_0`, the next `_1`: the seed's
    `%..__size_0` and `%..qs_1`."""
    block = Block()
    loads = [
        util.GlobalLoadOp("a", IndexType()),
        util.GlobalLoadOp("b", IndexType()),
        util.GlobalLoadOp("a", IndexType()),
        util.GlobalLoadOp("b", IndexType()),
        util.GlobalLoadOp("a", IndexType()),
    ]
    block.add_ops([*loads, util.ReturnOp()])
    init = util.InitializerOp(Region(block))
    printed = show(init)
    names = [line.split(" = ")[0].strip() for line in printed.splitlines() if " = " in line]
    assert names == ["%a", "%b", "%a_0", "%b_1", "%a_2"]
