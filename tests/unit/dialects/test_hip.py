"""The hip dialect: syntax round-trips, the interfaces passes query, and verifiers."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, ModuleOp, f32, i8
from xdsl.ir import Block, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.utils.exceptions import ParseError, VerifyException

from memplan.context import make_context
from memplan.dialects.hip import (
    KERNEL_OPS,
    KERNELS,
    AllocOp,
    AllocOutputOp,
    ContextType,
    FreeOp,
    GetHostScratchOp,
    GetPoolOp,
    Hip,
    KernelOp,
    KernelSpec,
)
from memplan.dialects.memplan_dialect import LaunchOp, Memplan, SynchronizeOp
from memplan.interfaces import (
    MemoryEffectKind,
    memory_effects,
    outlined_bodies,
    outlined_streams,
    plannable_allocation,
    stream_of,
    synchronized_stream,
)

ARGS = (
    "%ctx: !hip.context, %a: memref<4x8xf32>, "
    "%s: memref<4x8xf32, strided<[8, 1], offset: ?>>, %h: memref<4x8xf16>, "
    "%m: memref<4xi1>, %n: index, %k: index"
)


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def show(op, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(op)
    return out.getvalue()


def in_func(*lines: str, args: str = ARGS, callees: tuple[str, ...] = ()) -> str:
    """`lines` inside a function, in exactly the text the printer produces; each of
    `callees` is declared after it (outlined bodies must name functions)."""
    body = "".join(f"    {line}\n" for line in lines)
    declarations = "".join(f"  func.func private @{name}()\n" for name in callees)
    return (
        "builtin.module {\n"
        f"  func.func @f({args}) {{\n{body}    func.return\n  }}\n{declarations}}}"
    )


def body_ops(module: ModuleOp) -> list:
    func = module.body.block.first_op
    return [op for op in func.body.block.ops][:-1]


def assert_round_trips(text: str) -> ModuleOp:
    """print(parse(x)) == x, and the generic form parses back to the same IR."""
    module = parse(text)
    assert show(module) == text
    generic = show(module, generic=True)
    again = parse(generic)
    assert again.is_structurally_equivalent(module)
    assert show(again) == text  # types too, which structural equivalence ignores
    return module


SAMPLE_ATTRS = {
    "i64": "1 : i64", "i32": "1 : i32", "f32": "5.000000e-01 : f32",
    "f64": "5.000000e-01 : f64", "str": '"s"', "bool": "true", "i64s": "[1 : i64, 0 : i64]",
}


def forced_optionals(spec: KernelSpec, clause: str) -> list:
    """The optional operands of a clause that text must write: hip-ep's formats
    take an optional operand whenever a value follows (`$a (`,` $b^)? `,` $c`), so
    every one before the last required operand is written (rope's `position_ids`,
    gqa's `key` to `past_value`)."""
    defs = spec.clause(clause)
    if any(d.arity == "variadic" for d in defs):
        return []
    last = max((i for i, d in enumerate(defs) if d.arity == "one"), default=-1)
    return [d for d in defs[:last] if d.arity == "optional"]


def kernel_text(spec: KernelSpec, *, optionals: bool, tensor: bool, name: str = "") -> str:
    """A use of the kernel with one `%v<i>` per operand (optionals and two values
    for a variadic when `optionals`), its required attributes, and in tensor mode
    one result per destination."""
    kind = "tensor<4x4xf32>" if tensor else "memref<4x4xf32>"  # square: matmul's rule holds
    counter = iter(range(100))

    def values(clause: str) -> list[str]:
        out = []
        forced = forced_optionals(spec, clause)
        for o in spec.clause(clause):
            n = {"one": 1, "optional": int(optionals or o in forced),
                 "variadic": 2 if optionals else 1}[o.arity]
            out += [f"%v{next(counter)}" for _ in range(n)]
        return out

    def group(keyword: str, vals: list[str]) -> str:
        if not vals:
            return f" {keyword}()"
        return f" {keyword}({', '.join(vals)} : {', '.join([kind] * len(vals))})"

    parts = [f"hip.{spec.name}(%ctx)"]
    if spec.head:
        parts.append(f" {spec.head}(3)")
    parts.append(group("ins", values("ins")))
    for keyword in spec.keywords:
        vals = values(keyword)
        if vals:
            parts.append(group(keyword, vals))
    outs = values("outs")
    parts.append(group("outs", outs))
    attrs = [
        a.name if a.kind == "unit" else f"{a.name} = {SAMPLE_ATTRS[a.kind]}"
        for a in spec.attrs
        if a.required and a.name != spec.head
    ]
    if attrs:
        parts.append(" {" + ", ".join(sorted(attrs)) + "}")
    line = "".join(parts)
    if tensor:
        results = ", ".join([kind] * len(outs))
        arrow = " -> " if spec.arrow else " : "
        lhs = ", ".join(f"%r{i}" for i in range(len(outs)))
        line = f"{lhs} = {line}{arrow}{results}"
    args = ", ".join(f"%v{i}: {kind}" for i in range(next(counter)))
    return in_func(line, args=f"%ctx: !hip.context, {args}")


# ------------------------------------------------------------------ round trips

KERNEL_IDS = [s.name for s in KERNELS]


@pytest.mark.parametrize("spec", KERNELS, ids=KERNEL_IDS)
def test_every_kernel_round_trips_with_its_required_operands_in_memref_mode(spec):
    (op,) = body_ops(assert_round_trips(kernel_text(spec, optionals=False, tensor=False)))
    assert type(op) is KERNEL_OPS[f"hip.{spec.name}"]
    assert not op.results and not op.tensor_mode
    required = sum(1 for o in spec.operands if o.arity != "optional")
    forced = sum(len(forced_optionals(spec, c)) for c in {o.clause for o in spec.operands})
    assert len(op.ins) + len(op.outs) == required + forced


@pytest.mark.parametrize("spec", KERNELS, ids=KERNEL_IDS)
def test_every_kernel_round_trips_with_every_operand_in_tensor_mode(spec):
    module = assert_round_trips(kernel_text(spec, optionals=True, tensor=True))
    (op,) = body_ops(module)
    assert op.tensor_mode and len(op.results) == len(op.outs) >= 1
    written = [v.name_hint for v in op.operands[1:]]
    assert written == [f"v{i}" for i in range(len(written))]  # hip-ep's operand order


@pytest.mark.parametrize("spec", KERNELS, ids=KERNEL_IDS)
def test_every_kernel_names_its_operands_as_hip_ep_does(spec):
    (op,) = body_ops(parse(kernel_text(spec, optionals=True, tensor=False)))
    values = iter(op.operands[1:])
    for operand in spec.operands:
        field = getattr(op, operand.name)
        got = [field] if isinstance(field, SSAValue) else list(field)
        assert got == [next(values) for _ in got], operand.name
        assert got, operand.name


def test_operand_accessors_for_multi_output_kernels():
    top_k = KERNEL_OPS["hip.top_k"].SPEC
    (op,) = body_ops(parse(kernel_text(top_k, optionals=False, tensor=False)))
    assert op.outs == (op.values, op.indices) and op.ins == (op.x, op.k)
    nonzero = KERNEL_OPS["hip.nonzero"].SPEC
    (op,) = body_ops(parse(kernel_text(nonzero, optionals=False, tensor=False)))
    assert op.outs == (op.y, op.count)
    pad = KERNEL_OPS["hip.pad"].SPEC
    (op,) = body_ops(parse(kernel_text(pad, optionals=True, tensor=False)))
    assert op.ins == (op.data, op.pads, op.constant_value, op.axes) and op.outs == (op.output,)


def test_result_syntax_follows_hip_ep_per_kernel():
    arrow = {spec.name for spec in KERNELS if spec.arrow}
    assert arrow == {"add", "mul", "miopen.add", "miopen.softmax", "silu"}


def test_default_valued_attributes_are_populated_and_elided():
    text = in_func(
        "hip.gather(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
        "hip.gather(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) outs(%a : memref<4x8xf32>) "
        "{axis = 1 : i64}",
    )
    first, second = body_ops(assert_round_trips(text))
    assert first.properties["axis"].value.data == 0  # populated, as MLIR does
    assert second.properties["axis"].value.data == 1
    explicit = text.replace(
        "outs(%a : memref<4x8xf32>)\n", "outs(%a : memref<4x8xf32>) {axis = 0 : i64}\n", 1
    )
    assert explicit != text and show(parse(explicit)) == text


def test_the_generic_form_keeps_inherent_attributes_as_properties():
    module = parse(in_func(
        "hip.cast(%ctx) ins(%a : memref<4x8xf32>) outs(%h : memref<4x8xf16>) {to = 10 : i64, x = 1 : i64}"
    ))
    generic = show(module, generic=True)
    assert "<{to = 10 : i64}> {x = 1 : i64} : (!hip.context, memref<4x8xf32>, memref<4x8xf16>)" in generic


def test_inherent_attributes_in_the_generic_attr_dict_are_properties():
    generic = (
        '"builtin.module"() ({\n'
        '  "func.func"() <{sym_name = "f", function_type = (!hip.context, memref<4xf32>) -> ()}> ({\n'
        "  ^bb0(%ctx: !hip.context, %a: memref<4xf32>):\n"
        '    "hip.gather"(%ctx, %a, %a, %a) {axis = 1 : i64, tag = 2 : i64} : '
        "(!hip.context, memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()\n"
        '    "func.return"() : () -> ()\n'
        "  }) : () -> ()\n"
        "}) : () -> ()"
    )
    (op,) = body_ops(parse(generic))
    assert op.properties["axis"].value.data == 1 and set(op.attributes) == {"tag"}


def test_optional_operands_fill_from_the_left_and_keywords_select_groups():
    text = in_func(
        "hip.gemm(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
        "hip.gemm(%ctx) ins(%a, %a, %a : memref<4x8xf32>, memref<4x8xf32>, memref<4x8xf32>) "
        "outs(%a : memref<4x8xf32>)",
        "hip.fast_gelu(%ctx) ins(%a : memref<4x8xf32>) bias(%s : memref<4x8xf32, strided<[8, 1], "
        "offset: ?>>) outs(%a : memref<4x8xf32>)",
    )
    without, with_c, fast_gelu = body_ops(assert_round_trips(text))
    assert without.input_c is None and with_c.input_c is not None
    assert fast_gelu.bias is fast_gelu.ins[1]


def test_launch_round_trips():
    text = in_func(
        'memplan.launch @"fused-kernel:0"(%ctx) ins(%a : memref<4x8xf32>) outs(%s : '
        "memref<4x8xf32, strided<[8, 1], offset: ?>>) {grid = [4 : i64, 1 : i64]}",
        "memplan.launch @k(%ctx) outs(%a : memref<4x8xf32>)",
        "memplan.launch @lib::@k(%ctx) outs(%a : memref<4x8xf32>)",
    )
    first, second, third = body_ops(assert_round_trips(text))
    assert isinstance(first, LaunchOp) and first.kernel.root_reference.data == "fused-kernel:0"
    assert "kernel" in first.properties and "kernel" not in first.attributes
    assert second.kernel.root_reference.data == "k" and second.ins == ()
    assert [r.data for r in third.kernel.nested_references] == ["k"]


def test_buffer_ops_round_trip():
    text = in_func(
        "%pool = hip.get_pool(%ctx, %n) : memref<?xi8>",
        "%pool_1 = hip.get_pool(%ctx, %k) {domain_id = 2 : i64} : memref<?xi8>",
        "%scratch = hip.get_host_scratch(%ctx, %n) : memref<?xi8>",
        "%x = hip.alloc(%ctx, %n) : memref<?x128xf32>",
        "%y = hip.alloc(%ctx, %n, %k) {alignment = 64 : i64} : memref<?x4x?xf16>",
        "%z = hip.alloc(%ctx) : memref<16xi32>",
        "hip.free(%ctx, %x) : memref<?x128xf32>",
        "hip.free(%ctx, %z) : memref<16xi32>",
        "memplan.synchronize(%ctx)",
        'memplan.synchronize(%ctx) {reason = "readback"}',
    )
    ops = body_ops(assert_round_trips(text))
    pool, pool2, scratch, x, y, z = ops[:6]
    assert pool.domain == 0 and pool.domain_id == IntegerAttr(0, 64)  # set, as hip-ep populates it
    assert pool2.domain == 2 and "domain_id" in pool2.properties
    assert [v.name_hint for v in y.dynamic_sizes] == ["n", "k"]
    assert y.attributes["alignment"].value.data == 64
    assert len(z.dynamic_sizes) == 0


def test_domain_id_zero_is_not_printed():
    module = parse(in_func("%p = hip.get_pool(%ctx, %n) {domain_id = 0 : i64} : memref<?xi8>"))
    assert show(module) == in_func("%p = hip.get_pool(%ctx, %n) : memref<?xi8>")
    (pool,) = body_ops(module)
    assert pool.domain == 0
    # The generic form keeps what was written, as MLIR's does.
    assert "<{domain_id = 0 : i64}>" in show(module, generic=True)


def test_builders_produce_the_documented_text():
    block = Block(arg_types=[ContextType(), IndexType(), MemRefType(f32, [4])])
    ctx, n, buf = block.args
    ctx.name_hint, n.name_hint, buf.name_hint = "ctx", "n", "buf"
    pool = GetPoolOp(ctx, n, domain=1)
    scratch = GetHostScratchOp(ctx, n)
    alloc = AllocOp(ctx, MemRefType(f32, [DYNAMIC_INDEX, 8]), [n])
    launch = LaunchOp("k", ctx, [buf], [buf])
    neg = KERNEL_OPS["hip.neg"](ctx, buf, buf)
    gemm = KERNEL_OPS["hip.gemm"](ctx, buf, buf, None, buf, properties={"transB": IntegerAttr(1, 64)})
    ops = [pool, scratch, alloc, launch, neg, gemm, FreeOp(ctx, alloc), SynchronizeOp(ctx)]
    block.add_ops(ops)
    for op in ops:
        op.verify()
    assert pool.result.type == MemRefType(i8, [DYNAMIC_INDEX])
    assert show(launch) == "memplan.launch @k(%ctx) ins(%buf : memref<4xf32>) outs(%buf : memref<4xf32>)"
    assert show(neg) == "hip.neg(%ctx) ins(%buf : memref<4xf32>) outs(%buf : memref<4xf32>)"
    assert show(gemm) == (
        "hip.gemm(%ctx) ins(%buf, %buf : memref<4xf32>, memref<4xf32>) outs(%buf : memref<4xf32>) "
        "{transB = 1 : i64}"
    )
    assert gemm.properties["alpha"].value.data == 1.0
    assert show(pool).endswith("hip.get_pool(%ctx, %n) {domain_id = 1 : i64} : memref<?xi8>")


# ----------------------------------------------------------------- the table

HIP_EP_OPS = """abs add alloc alloc_output and bias_gelu cast causal_conv_with_state ceil compress
    constant conv conv_transpose cos cumsum div equal exp expand fast_gelu free gather
    gather_block_quantized gather_elements gather_nd gelu gemm get_constant get_host_scratch
    get_pool global_pool gqa hipblaslt.graph hipdnn_graph hipdnn_graph_outline if layer_norm
    leaky_relu less linear_attention log loop matmul matmul_nbits max min miopen.add
    miopen.graph miopen.softmax mod mul multi_head_attention neg nonzero not one_hot or pad pool
    qmoe range readback_dim readback_scalar reciprocal reduce_l2 reduce_max reduce_mean
    reduce_min reduce_prod reduce_sum resize rms_norm rope scatter_elements scatter_nd sigmoid
    sign silu sin size skip_rms_norm slice softplus sqrt sub tanh tile top_k transpose where
    yield""".split()
"""The 91 ops of hip-ep's HipOps.td."""


def test_the_hip_namespace_is_hip_eps_and_memplans_ops_are_its_own():
    registered = {op.name for op in Hip.operations}
    hip_ep = {f"hip.{n}" for n in HIP_EP_OPS}
    assert len(hip_ep) == 91
    assert registered == hip_ep
    assert [t.name for t in Hip.attributes] == ["hip.context"]
    assert {op.name for op in Memplan.operations} == {"memplan.launch", "memplan.synchronize"}
    assert "memplan" in make_context().registered_dialect_names


def test_kernel_classes_share_one_definition():
    classes = set(KERNEL_OPS.values())
    assert len(classes) == len(KERNELS)
    for cls in classes:
        assert issubclass(cls, KernelOp)
        assert "parse" not in vars(cls) and "print" not in vars(cls)
        assert cls.parse.__func__ is KernelOp.parse.__func__ and cls.print is KernelOp.print
        assert cls.name == f"hip.{cls.SPEC.name}"
    assert KERNEL_OPS["hip.miopen.softmax"].__name__ == "MiopenSoftmaxOp"
    assert KERNEL_OPS["hip.and"].__name__ == "AndOp"


# ------------------------------------------------------------------ interfaces


INTERFACE_IR = in_func(
    "hip.mul(%ctx) ins(%a, %s : memref<4x8xf32>, memref<4x8xf32, strided<[8, 1], "
    "offset: ?>>) outs(%a : memref<4x8xf32>)",
    "memplan.launch @k(%ctx) ins(%h : memref<4x8xf16>) outs(%s, %a : memref<4x8xf32, "
    "strided<[8, 1], offset: ?>>, memref<4x8xf32>)",
    "%pool = hip.get_pool(%ctx, %n) : memref<?xi8>",
    "%scratch = hip.get_host_scratch(%ctx, %n) : memref<?xi8>",
    "%x = hip.alloc(%ctx, %n) : memref<?x128xf32>",
    "hip.free(%ctx, %x) : memref<?x128xf32>",
    "memplan.synchronize(%ctx)",
)


def effects_of(op) -> set[tuple[MemoryEffectKind, str | None]]:
    effects = memory_effects(op)
    assert effects is not None, f"{op.name} has unknown effects"
    return {(e.kind, e.value.name_hint if e.value is not None else None) for e in effects}


def test_interfaces_answer_for_every_op():
    module = parse(INTERFACE_IR)
    matmul, launch, pool, scratch, alloc, free, sync = body_ops(module)
    ctx = module.body.block.first_op.body.block.args[0]
    R, W, A, F = (MemoryEffectKind.READ, MemoryEffectKind.WRITE,
                  MemoryEffectKind.ALLOC, MemoryEffectKind.FREE)

    assert stream_of(matmul) is ctx and stream_of(launch) is ctx
    assert effects_of(matmul) == {(R, "a"), (R, "s"), (W, "a")}
    assert effects_of(launch) == {(R, "h"), (W, "s"), (W, "a")}

    for host_op in (pool, scratch, alloc, free, sync):
        assert stream_of(host_op) is None, host_op.name
    for op in (matmul, launch, pool, scratch, alloc, free):
        assert synchronized_stream(op) is None, op.name
    assert synchronized_stream(sync) is ctx

    assert effects_of(pool) == {(A, "pool")}
    assert effects_of(scratch) == {(A, "scratch")}
    assert effects_of(alloc) == {(A, "x")}
    assert effects_of(free) == {(F, "x")}
    assert effects_of(sync) == {(W, "ctx")}


@pytest.mark.parametrize("spec", KERNELS, ids=KERNEL_IDS)
def test_every_kernel_is_stream_ordered_reading_ins_and_writing_outs(spec):
    (op,) = body_ops(parse(kernel_text(spec, optionals=True, tensor=False)))
    assert stream_of(op) is op.ctx and synchronized_stream(op) is None
    reads = {v for e in memory_effects(op) if e.kind is MemoryEffectKind.READ for v in [e.value]}
    writes = {v for e in memory_effects(op) if e.kind is MemoryEffectKind.WRITE for v in [e.value]}
    assert reads == set(op.ins) and writes == set(op.outs)


@pytest.mark.parametrize("spec", KERNELS, ids=KERNEL_IDS)
def test_kernels_in_tensor_mode_touch_no_memory(spec):
    (op,) = body_ops(parse(kernel_text(spec, optionals=True, tensor=True)))
    assert memory_effects(op) == set()


def test_outlined_control_flow_names_its_bodies_and_declares_hip_eps_effects():
    text = in_func(
        "hip.loop(%ctx, %n) iter_args(%a : memref<4x8xf32>) captures(%h, %k : memref<4x8xf16>, "
        "index) body @body {num_loop_carried = 1 : i32}",
        "hip.if(%ctx, %c) outs(%a : memref<4x8xf32>) captures(%h : memref<4x8xf16>) then @t "
        "else @e {num_outputs = 1 : i32}",
        args="%ctx: !hip.context, %a: memref<4x8xf32>, %h: memref<4x8xf16>, %n: index, "
        "%k: index, %c: i1",
        callees=("body", "t", "e"),
    )
    loop, if_ = body_ops(assert_round_trips(text))
    ctx = loop.ctx
    assert outlined_bodies(loop) == ("body",) and outlined_bodies(if_) == ("t", "e")
    assert outlined_streams(loop) == (ctx,) and outlined_streams(if_) == (ctx,)
    R, W = MemoryEffectKind.READ, MemoryEffectKind.WRITE
    assert effects_of(loop) == {(W, "a"), (R, "h")}
    assert effects_of(if_) == {(W, "a"), (R, "h")}
    for op in (loop, if_):
        assert stream_of(op) is None and synchronized_stream(op) is None


def test_a_captured_context_is_a_stream_the_bodies_may_use():
    text = in_func(
        "hip.loop(%ctx, %n) captures(%other, %a : !hip.context, memref<4x8xf32>) body @body "
        "{num_loop_carried = 0 : i32}",
        args="%ctx: !hip.context, %other: !hip.context, %a: memref<4x8xf32>, %n: index",
        callees=("body",),
    )
    (loop,) = body_ops(assert_round_trips(text))
    assert outlined_streams(loop) == (loop.ctx, loop.captures[0])


def test_kernels_are_never_outlined_bodies():
    (op,) = body_ops(parse(in_func(
        "hip.neg(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)")))
    assert outlined_bodies(op) == ()


def test_cse_keeps_allocations_and_synchronizations_apart():
    text = in_func(
        "%p = hip.get_pool(%ctx, %n) : memref<?xi8>",
        "%q = hip.get_pool(%ctx, %n) : memref<?xi8>",
        "%s1 = hip.get_host_scratch(%ctx, %n) : memref<?xi8>",
        "%s2 = hip.get_host_scratch(%ctx, %n) : memref<?xi8>",
        "%x = hip.alloc(%ctx, %n) : memref<?xf32>",
        "%y = hip.alloc(%ctx, %n) : memref<?xf32>",
        "memplan.synchronize(%ctx)",
        "memplan.synchronize(%ctx)",
        "hip.neg(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
        "hip.neg(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
        '"test.use"(%p, %q, %s1, %s2, %x, %y) : (memref<?xi8>, memref<?xi8>, '
        "memref<?xi8>, memref<?xi8>, memref<?xf32>, memref<?xf32>) -> ()",
    )
    ctx = make_context(allow_unregistered=True)
    module = Parser(ctx, text).parse_module()
    before = [op.name for op in body_ops(module)]
    CommonSubexpressionElimination().apply(ctx, module)
    DeadCodeElimination().apply(ctx, module)
    assert [op.name for op in body_ops(module)] == before


def test_dce_drops_an_unused_allocation_but_not_kernels_or_syncs():
    text = in_func(
        "%p = hip.get_pool(%ctx, %n) : memref<?xi8>",
        "memplan.synchronize(%ctx)",
        "hip.neg(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
    )
    ctx = make_context()
    module = Parser(ctx, text).parse_module()
    DeadCodeElimination().apply(ctx, module)
    assert [op.name for op in body_ops(module)] == ["memplan.synchronize", "hip.neg"]


def test_readbacks_synchronize_then_read_on_the_host():
    text = in_func(
        "%v = hip.readback_scalar(%ctx, %b : memref<i64>) -> i64",
        "%d = hip.readback_dim(%ctx, %c : memref<i32>) -> index",
        "%w = hip.readback_scalar(%ctx, %t : tensor<f32>) -> f32",
        args="%ctx: !hip.context, %b: memref<i64>, %c: memref<i32>, %t: tensor<f32>",
    )
    module = assert_round_trips(text)
    ctx = module.body.block.first_op.body.block.args[0]
    scalar, dim, tensor_form = body_ops(module)
    for op in (scalar, dim, tensor_form):
        assert synchronized_stream(op) is ctx, op.name
        assert stream_of(op) is None, op.name
    assert effects_of(scalar) == {(MemoryEffectKind.READ, "b")}
    assert effects_of(dim) == {(MemoryEffectKind.READ, "c")}
    assert effects_of(tensor_form) == set()


def test_alloc_output_writes_and_is_no_allocation():
    text = in_func(
        "%o = hip.alloc_output(%ctx, %n) {out_idx = 0 : i64} : memref<?x4xf16>",
        "%p = hip.alloc_output(%ctx, %n) {out_idx = 0 : i64} : memref<?x4xf16>",
        "%q = hip.alloc_output(%ctx) {out_idx = 1 : i64} : memref<4xf16>",
    )
    module = assert_round_trips(text)
    out, _, _ = body_ops(module)
    assert effects_of(out) == {(MemoryEffectKind.WRITE, None)}
    assert plannable_allocation(out) is None
    assert out.out_idx.value.data == 0
    ctx = make_context()
    CommonSubexpressionElimination().apply(ctx, module)
    DeadCodeElimination().apply(ctx, module)
    assert [op.name for op in body_ops(module)] == ["hip.alloc_output"] * 3


def test_alloc_output_builder():
    ctx_arg = Block(arg_types=[ContextType(), IndexType()]).args
    op = AllocOutputOp(ctx_arg[0], MemRefType(f32, [DYNAMIC_INDEX, 4]), 2, [ctx_arg[1]])
    op.verify()
    assert show(op).endswith("{out_idx = 2 : i64} : memref<?x4xf32>")


# -------------------------------------------------------------------- verifiers


def generic_func(line: str, arg_types: str) -> str:
    return (
        '"builtin.module"() ({\n'
        f'  "func.func"() <{{sym_name = "f", function_type = ({arg_types}) -> ()}}> ({{\n'
        f"  ^bb0(%x: {arg_types.split(', ')[0]}, %a: memref<4xf32>, %n: index):\n"
        f"    {line}\n"
        '    "func.return"() : () -> ()\n'
        "  }) : () -> ()\n"
        "}) : () -> ()"
    )


INVALID = [
    # kernel family
    # hip-ep's verifyDpsComputeOp (only add, mul, miopen.add/softmax, silu, matmul,
    # rms_norm, layer_norm, transpose want one kind), then MLIR's destination-style
    # rule (every kernel).
    (in_func("hip.add(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) outs(%t : tensor<4xf32>)",
             args="%ctx: !hip.context, %a: memref<4x8xf32>, %t: tensor<4xf32>"),
     "'hip.add' op all data operands must be the same kind (all tensor or all memref)"),
    (in_func("hip.sigmoid(%ctx) ins(%a : memref<4x8xf32>) outs(%t : tensor<4xf32>)",
             args="%ctx: !hip.context, %a: memref<4x8xf32>, %t: tensor<4xf32>"),
     "'hip.sigmoid' op expected the number of tensor results (0) to be equal to the number of "
     "output tensors (1)"),
    (in_func("hip.add(%ctx) ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%a : memref<4x8xf32>)",
             args="%ctx: !hip.context, %a: memref<4x8xf32>, %t: tensor<4xf32>"),
     "'hip.add' op all data operands must be the same kind (all tensor or all memref)"),
    (in_func("hip.sigmoid(%ctx) ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>)",
             args="%ctx: !hip.context, %t: tensor<4xf32>"),
     "'hip.sigmoid' op expected the number of tensor results (0) to be equal to the number of "
     "output tensors (1)"),
    (in_func("%r = hip.sigmoid(%ctx) ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) : tensor<8xf32>",
             args="%ctx: !hip.context, %t: tensor<4xf32>"),
     "'hip.sigmoid' op expected type of operand #2 ('tensor<4xf32>') to match type of "
     "corresponding result ('tensor<8xf32>')"),
    (in_func('"memplan.launch"(%ctx, %a) <{kernel = @k, operandSegmentSizes = array<i32: 1, 1, 0>}> '
             ": (!hip.context, memref<4x8xf32>) -> ()"),
     "'memplan.launch' op expects at least 1 outs operand, but got 0"),
    (in_func("memplan.launch @k(%ctx) ins(%n : index) outs(%a : memref<4x8xf32>)"),
     "'memplan.launch' op operand #1 must be ranked tensor or memref, but got 'index'"),
    (in_func("hip.exp(%ctx) ins(%a : memref<4x8xf32>) outs(%k : index)"),
     "'hip.exp' op operand #2 must be ranked tensor or memref, but got 'index'"),
    (in_func("hip.cast(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {to = \"f16\"}"),
     "'hip.cast' op attribute 'to' failed to satisfy constraint: 64-bit signless integer attribute"),
    (generic_func('"hip.add"(%x, %a, %a, %a) : (index, memref<4xf32>, memref<4xf32>, '
                  "memref<4xf32>) -> ()", "index, memref<4xf32>, index"),
     "'hip.add' op operand #0 must be !hip.context, but got index"),
    (in_func("%o = hip.alloc_output(%ctx, %n, %k) {out_idx = 0 : i64} : memref<?x4xf16>"),
     "'hip.alloc_output' op expected 1 dynamic size operand(s), got 2"),
    (in_func("%o = hip.readback_dim(%ctx, %a : memref<4x8xf32>) -> i64"),
     "'hip.readback_dim' op result #0 must be index, but got 'i64'"),
    (in_func("hip.loop(%ctx, %n) iter_args(%a : memref<4x8xf32>) body @b {num_loop_carried = 0 : i32}"),
     "'hip.loop' op num_loop_carried (0) must equal the v_init operand count (1)"),
    (in_func("%c = hip.constant {memory_address = 0 : i64, size = 16 : i64} : tensor<4xf32>"),
     "'hip.constant' op memory-address source has null address"),
    # buffers
    (in_func("%p = hip.get_pool(%ctx, %n) {domain_id = -1 : i64} : memref<?xi8>"),
     "'hip.get_pool' op domain_id must be non-negative, but got -1"),
    (in_func("%p = hip.get_pool(%ctx, %n) : memref<?xf32>"),
     "'hip.get_pool' op result must be a 1-D memref of i8"),
    (in_func("%p = hip.get_host_scratch(%ctx, %n) : memref<4x4xi8>"),
     "'hip.get_host_scratch' op result must be a 1-D memref of i8"),
    (in_func("%p = hip.get_pool(%ctx, %n) : memref<?xi8, strided<[2]>>"),
     "'hip.get_pool' op result must be a 1-D memref of i8 with the identity layout"),
    (generic_func('%p = "hip.get_pool"(%x, %a) : (!hip.context, memref<4xf32>) -> memref<?xi8>',
                  "!hip.context, memref<4xf32>, index"),
     "'hip.get_pool' op size operand must be index, but got memref<4xf32>"),
    (generic_func('%p = "hip.get_host_scratch"(%n, %n) : (index, index) -> memref<?xi8>',
                  "index, memref<4xf32>, index"),
     "'hip.get_host_scratch' op operand #0 must be !hip.context, but got index"),
    (in_func("%x = hip.alloc(%ctx) : memref<?x128xf32>"),
     "'hip.alloc' op has 0 dynamic size operands but its result type memref<?x128xf32> "
     "has 1 dynamic dimensions"),
    (in_func("%x = hip.alloc(%ctx, %n, %k) : memref<?x128xf32>"),
     "'hip.alloc' op has 2 dynamic size operands but its result type"),
    (in_func("%x = hip.alloc(%ctx) : tensor<4xf32>"),
     "'hip.alloc' op result must be a ranked memref, but got tensor<4xf32>"),
    (generic_func('%y = "hip.alloc"(%x, %a) '
                  ": (!hip.context, memref<4xf32>) -> memref<?xf32>",
                  "!hip.context, memref<4xf32>, index"),
     "'hip.alloc' op dynamic size operand #0 must be index, but got memref<4xf32>"),
    (in_func("hip.free(%ctx, %n) : index"),
     "'hip.free' op operand #1 must be a ranked memref, but got index"),
    (generic_func('"memplan.synchronize"(%x) : (index) -> ()', "index, memref<4xf32>, index"),
     "'memplan.synchronize' op operand #0 must be !hip.context, but got index"),
]


@pytest.mark.parametrize("text,message", INVALID, ids=[m[:50] for _, m in INVALID])
def test_verifier_rejects(text, message):
    module = Parser(make_context(), text).parse_module()
    with pytest.raises(VerifyException) as info:
        module.verify()
    assert message in str(info.value)


WRONG = '"wrong"'
REQUIRED = [(spec, a) for spec in KERNELS for a in spec.attrs if a.required and a.name != spec.head]


@pytest.mark.parametrize("spec,attr", REQUIRED, ids=[f"{s.name}.{a.name}" for s, a in REQUIRED])
def test_every_required_attribute_is_required_and_typed(spec, attr):
    """HipOps.td's non-optional, non-defaulted attributes, in ODS's words."""
    text = kernel_text(spec, optionals=False, tensor=False)
    written = f"{attr.name} = {SAMPLE_ATTRS[attr.kind]}"
    assert written in text
    for replacement, message in (
        ("", f"'hip.{spec.name}' op requires attribute '{attr.name}'"),
        (f"{attr.name} = {'1 : i64' if attr.kind == 'str' else WRONG}",
         f"'hip.{spec.name}' op attribute '{attr.name}' failed to satisfy constraint: "),
    ):
        bad = re.sub(rf"(?<!\w){re.escape(written)}", replacement, text)
        bad = bad.replace("{, ", "{").replace(", }", "}").replace(", , ", ", ").replace(" {}", "")
        module = Parser(make_context(), bad).parse_module()
        with pytest.raises(VerifyException) as info:
            module.verify()
        assert message in str(info.value)


def test_each_invalid_case_differs_from_a_valid_one_only_in_the_error():
    """The invalid IR above is one mistake away from IR that verifies."""
    parse(in_func("hip.add(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) outs(%a : memref<4x8xf32>)"))
    parse(in_func("hip.cast(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {to = 1 : i64}"))
    parse(in_func("%o = hip.alloc_output(%ctx, %n) {out_idx = 0 : i64} : memref<?x4xf16>"))
    parse(in_func("%o = hip.readback_dim(%ctx, %a : memref<4x8xf32>) -> index"))
    parse(in_func("%c = hip.constant {memory_address = 8 : i64, size = 16 : i64} : tensor<4xf32>"))
    parse(in_func("%p = hip.get_pool(%ctx, %n) {domain_id = 1 : i64} : memref<?xi8>"))
    parse(in_func("%x = hip.alloc(%ctx, %n) : memref<?x128xf32>"))
    parse(in_func("hip.less(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) "
                  "outs(%m : memref<4xi1>)"))
    parse(in_func("hip.loop(%ctx, %n) iter_args(%a : memref<4x8xf32>) body @b {num_loop_carried = 1 : i32}",
                  callees=("b",)))


PARSE_ERRORS = [
    ("hip.add(%ctx) ins(%a, %a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
     "'ins' has 2 operands but 1 types"),
    ("hip.add(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
     "'hip.add' expects 2 operand(s) in 'ins', got 1"),
    ("hip.gemm(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
     "'hip.gemm' expects 2 to 3 operand(s) in 'ins', got 1"),
    ("hip.top_k(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
     "'hip.top_k' expects 2 operand(s) in 'outs', got 1"),
    ("hip.add(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>)", "outs"),
    ("hip.neg(%ctx) outs(%a : memref<4x8xf32>)", "ins"),
    ("memplan.launch(%ctx) outs(%a : memref<4x8xf32>)", "expected a kernel symbol"),
    ("hip.add(%n) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
     "operand is used with type !hip.context"),
    ("%p = hip.get_pool(%ctx) : memref<?xi8>", "expected 2 operands, got 1"),
    ("%x = hip.alloc() : memref<4xf32>", "expected the !hip.context operand"),
    ("hip.free(%ctx, %a) : memref<4x8xf16>", "operand is used with type memref<4x8xf16>"),
]


@pytest.mark.parametrize("line,message", PARSE_ERRORS, ids=[m for _, m in PARSE_ERRORS])
def test_parser_rejects(line, message):
    with pytest.raises(ParseError) as info:
        Parser(make_context(), in_func(line)).parse_module()
    assert message in str(info.value)


def test_stock_xdsl_tools_see_the_dialect_through_the_universe():
    from xdsl.universe import Universe

    hip = Universe.get_multiverse().all_dialects["hip"]()
    assert hip is Hip


def test_interfaces_answer_without_importing_anything_for_its_side_effect():
    """A fresh interpreter that imports only the interface module sees the
    upstream models (memref.load's read tied to its buffer) and the hip ops' own
    traits: nothing depends on some other module having been imported first."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from xdsl.dialects import builtin, memref\n"
        "from xdsl.ir import Block\n"
        "from memplan.interfaces import memory_effects, synchronized_stream\n"
        "assert 'memplan.dialects.mlir.upstream_models' not in sys.modules\n"
        "b = Block(arg_types=[builtin.MemRefType(builtin.f32, [4]), builtin.IndexType()])\n"
        "load = memref.LoadOp.get(b.args[0], [b.args[1]])\n"
        "assert {e.value for e in memory_effects(load)} == {b.args[0]}\n"
        "from memplan.dialects.hip import ReadbackScalarOp, ContextType\n"
        "c = Block(arg_types=[ContextType(), builtin.MemRefType(builtin.i64, [])])\n"
        "rb = ReadbackScalarOp(c.args[0], c.args[1], builtin.i64)\n"
        "assert synchronized_stream(rb) is c.args[0]\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def _hip_op_mentions(path) -> list[str]:
    """Where a module asks for a hip (or memplan) op by name: a string (other than a
    docstring) holding a hip or memplan op name, or an `isinstance`/`is` test against
    an op class imported from memplan's hip or memplan dialect. Building a hip op (a
    pass that creates a pool) is not asking, nor is testing a value's type for
    `!hip.context`."""
    import ast
    import re

    ops = (*Hip.operations, *Memplan.operations)
    names = sorted((op.name for op in ops), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w.])(" + "|".join(re.escape(n) for n in names) + r")(?![\w.])")
    op_classes = {op.__name__ for op in ops} | {"KernelOp"}
    own = ("memplan.dialects.hip", "memplan.dialects.memplan_dialect")
    tree = ast.parse(path.read_text())
    imported: set[str] = set()  # local names of hip op classes
    modules: set[str] = set()  # local names of memplan's hip modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("memplan.dialects"):
            for alias in node.names:
                if (node.module or "").startswith(own) and alias.name in op_classes:
                    imported.add(alias.asname or alias.name)
                if node.module == "memplan.dialects" and alias.name.startswith(("hip", "memplan_dialect")):
                    modules.add(alias.asname or alias.name)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(own) and alias.asname:
                    modules.add(alias.asname)

    def is_hip_class(node: ast.AST) -> str | None:
        if isinstance(node, ast.Name) and node.id in imported:
            return node.id
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in modules and node.attr in op_classes):
            return node.attr
        return None

    docstrings = {  # a string standing alone as a statement documents something
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if match := pattern.search(node.value):
                found.append((node.lineno, f"string {match.group(1)!r}"))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("isinstance", "issubclass"):
            for arg in (ast.walk(node.args[1]) if len(node.args) > 1 else ()):
                if name := is_hip_class(arg):
                    found.append((node.lineno, f"isinstance test on {name}"))
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if name := is_hip_class(side):
                    found.append((node.lineno, f"compared with {name}"))
    return [f"{path.name}:{line}: {what}" for line, what in sorted(found)]


def test_no_pass_or_analysis_names_a_hip_op():
    """Passes and analyses learn what hip ops do from their traits only."""
    from pathlib import Path

    import memplan

    root = Path(memplan.__file__).parent
    files = sorted((*root.glob("passes/**/*.py"), *root.glob("analysis/**/*.py")))
    assert len(files) > 10
    found = [m for path in files for m in _hip_op_mentions(path)]
    assert found == []


def test_the_name_check_catches_each_kind_of_mention(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        '"""Docstrings may say hip.readback_scalar."""\n'
        "LIMIT = 1\n"
        '"""So may attribute docstrings: hip.readback_dim."""\n'
        "from memplan.dialects.hip import ReadbackScalarOp\n"
        "from memplan.dialects.memplan_dialect import SynchronizeOp\n"
        "def f(op):\n"
        "    if op.name == 'hip.readback_dim':\n"
        "        return isinstance(op, ReadbackScalarOp)\n"
        "    if op.name == 'memplan.synchronize':\n"
        "        return isinstance(op, SynchronizeOp)\n"
        "    return type(op) is ReadbackScalarOp\n"
    )
    assert [m.split(": ", 1)[1] for m in _hip_op_mentions(probe)] == [
        "string 'hip.readback_dim'",
        "isinstance test on ReadbackScalarOp",
        "string 'memplan.synchronize'",
        "isinstance test on SynchronizeOp",
        "compared with ReadbackScalarOp",
    ]


def test_a_kernel_launch_is_no_call_but_an_outlined_body_is():
    """`memplan.launch @k` names a device kernel whose effects it declares; `hip.loop`
    runs a function with the context. Only the latter may touch context memory."""
    from memplan.analysis.calls import CallGraph

    module = parse(
        "builtin.module {\n"
        "  func.func @launches(%ctx: !hip.context, %a: memref<4xf32>, %n: index) {\n"
        "    memplan.launch @kernel(%ctx) ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)\n"
        "    func.return\n"
        "  }\n"
        "  func.func @loops(%ctx: !hip.context, %a: memref<4xf32>, %n: index) {\n"
        "    hip.loop(%ctx, %n) iter_args(%a : memref<4xf32>) body @outside {num_loop_carried = 1 : i32}\n"
        "    func.return\n"
        "  }\n"
        "  func.func private @outside(!hip.context, memref<i64>, memref<i1>, memref<4xf32>)\n"
        "}"
    )
    launches, loops, _ = module.body.block.ops
    calls = CallGraph(module)
    assert calls.unknown_context_call(launches) is None
    assert calls.unknown_context_call(loops) is loops.body.block.first_op


def test_the_ordering_analysis_bounds_what_outlined_bodies_do():
    """A buffer handed to hip.loop is read and written at the loop, on the host and
    on the loop's stream; a buffer not handed to it is not touched there."""
    from memplan.analysis.ordering import AccessKind, BlockOrdering

    text = in_func(
        "%a = memref.alloc() : memref<4xf32>",
        "%b = memref.alloc() : memref<4xf32>",
        "hip.loop(%ctx, %n) iter_args(%a : memref<4xf32>) body @body {num_loop_carried = 1 : i32}",
        "hip.neg(%ctx) ins(%b : memref<4xf32>) outs(%b : memref<4xf32>)",
        args="%ctx: !hip.context, %n: index",
        callees=("body",),
    )
    module = parse(text)
    alloc_a, alloc_b, loop, neg = body_ops(module)
    ordering = BlockOrdering(loop.parent_block())
    seen = {(x.kind, x.stream) for x in ordering.info(alloc_a.results[0]).accesses}
    assert seen == {(k, s) for k in AccessKind for s in (None, loop.ctx)}
    assert {x.op for x in ordering.info(alloc_b.results[0]).accesses} == {neg}
    assert ordering.info(alloc_a.results[0]).escape is None
