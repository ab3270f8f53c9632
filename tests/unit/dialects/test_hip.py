"""The hip dialect: syntax round-trips, the interfaces passes query, and verifiers."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType, ModuleOp, f32, i8
from xdsl.ir import Block
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
    ElementRule,
    FreeOp,
    GetHostScratchOp,
    GetPoolOp,
    Hip,
    KernelOp,
    LaunchOp,
    SynchronizeOp,
)
from memplan.interfaces import (
    MemoryEffectKind,
    memory_effects,
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


def in_func(*lines: str, args: str = ARGS) -> str:
    """`lines` inside a function, in exactly the text the printer produces."""
    body = "".join(f"    {line}\n" for line in lines)
    return (
        "builtin.module {\n"
        f"  func.func @f({args}) {{\n{body}    func.return\n  }}\n}}"
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


def kernel_line(name: str, n_ins: int, n_outs: int, attrs: str = "") -> str:
    ins = ""
    if n_ins:
        ins = (
            f" ins({', '.join(['%a'] * n_ins)} : "
            f"{', '.join(['memref<4x8xf32>'] * n_ins)})"
        )
    outs = (
        f" outs({', '.join(['%s'] * n_outs)} : "
        f"{', '.join(['memref<4x8xf32, strided<[8, 1], offset: ?>>'] * n_outs)})"
    )
    return f"{name}(%ctx){ins}{outs}{attrs}"


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize("spec", KERNELS, ids=[s.name for s in KERNELS])
def test_every_kernel_round_trips(spec):
    n_outs = max(spec.outs[0], 1)
    text = in_func(kernel_line(f"hip.{spec.name}", spec.ins[0], n_outs))
    (op,) = body_ops(assert_round_trips(text))
    assert type(op) is KERNEL_OPS[f"hip.{spec.name}"]
    assert len(op.ins) == spec.ins[0] and len(op.outs) == n_outs


@pytest.mark.parametrize("spec", KERNELS, ids=[s.name for s in KERNELS])
def test_every_kernel_accepts_its_largest_arity_with_attributes(spec):
    n_ins = spec.ins[1] if spec.ins[1] is not None else spec.ins[0] + 2
    n_outs = spec.outs[1] if spec.outs[1] is not None else spec.outs[0] + 2
    line = kernel_line(f"hip.{spec.name}", n_ins, n_outs, ' {axis = 1 : i64, mode = "x"}')
    (op,) = body_ops(assert_round_trips(in_func(line)))
    assert set(op.attributes) == {"axis", "mode"}


def test_kernel_syntax_with_distinct_operands_and_types():
    text = in_func(
        "hip.matmul(%ctx) ins(%s, %a : memref<4x8xf32, strided<[8, 1], offset: ?>>, "
        "memref<4x8xf32>) outs(%a : memref<4x8xf32>) {transpose_b = true}",
        "hip.cast(%ctx) ins(%h : memref<4x8xf16>) outs(%a : memref<4x8xf32>)",
        "hip.miopen.softmax(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
        "hip.where(%ctx) ins(%m, %a, %a : memref<4xi1>, memref<4x8xf32>, "
        "memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
    )
    matmul, cast, softmax, where = body_ops(assert_round_trips(text))
    assert [v.name_hint for v in matmul.ins] == ["s", "a"]
    assert [v.name_hint for v in matmul.outs] == ["a"]
    assert isinstance(cast.ins[0].type, MemRefType) and cast.ins[0].type.element_type != f32
    assert softmax.name == "hip.miopen.softmax"
    assert len(where.ins) == 3


def test_empty_ins_is_omitted_and_accepted_written_out():
    text = in_func("hip.fill(%ctx) outs(%a : memref<4x8xf32>) {value = 1.000000e+00 : f32}")
    (op,) = body_ops(assert_round_trips(text))
    assert len(op.ins) == 0
    written = text.replace("hip.fill(%ctx) outs", "hip.fill(%ctx) ins() outs")
    assert show(parse(written)) == text


def test_generic_form_of_a_kernel_names_its_segments():
    module = parse(in_func(kernel_line("hip.add", 2, 1)))
    generic = show(module, generic=True)
    assert '"hip.add"(%ctx, %a, %a, %s) <{operandSegmentSizes = array<i32: 1, 2, 1>}>' in generic


def test_launch_round_trips():
    text = in_func(
        'hip.launch @"fused-kernel:0"(%ctx) ins(%a : memref<4x8xf32>) outs(%s : '
        "memref<4x8xf32, strided<[8, 1], offset: ?>>) {grid = [4 : i64, 1 : i64]}",
        "hip.launch @k(%ctx) outs(%a : memref<4x8xf32>)",
        "hip.launch @lib::@k(%ctx) outs(%a : memref<4x8xf32>)",
    )
    first, second, third = body_ops(assert_round_trips(text))
    assert isinstance(first, LaunchOp) and first.kernel.root_reference.data == "fused-kernel:0"
    assert "kernel" in first.properties and "kernel" not in first.attributes
    assert second.kernel.root_reference.data == "k"
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
        "hip.synchronize(%ctx)",
        'hip.synchronize(%ctx) {reason = "readback"}',
    )
    ops = body_ops(assert_round_trips(text))
    pool, pool2, scratch, x, y, z = ops[:6]
    assert pool.domain == 0 and pool.domain_id is None
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


def test_domain_id_in_generic_attr_dict_is_a_property():
    module = parse(
        '"builtin.module"() ({\n'
        '  "func.func"() <{sym_name = "f", function_type = (!hip.context, index) -> ()}> ({\n'
        "  ^bb0(%ctx: !hip.context, %n: index):\n"
        '    %p = "hip.get_pool"(%ctx, %n) {domain_id = 3 : i64} : '
        "(!hip.context, index) -> memref<?xi8>\n"
        '    "func.return"() : () -> ()\n'
        "  }) : () -> ()\n"
        "}) : () -> ()"
    )
    (pool,) = body_ops(module)
    assert pool.domain == 3 and "domain_id" not in pool.attributes


def test_builders_produce_the_documented_text():
    block = Block(arg_types=[ContextType(), IndexType(), MemRefType(f32, [4])])
    ctx, n, buf = block.args
    ctx.name_hint, n.name_hint, buf.name_hint = "ctx", "n", "buf"
    pool = GetPoolOp(ctx, n, domain=1)
    scratch = GetHostScratchOp(ctx, n)
    alloc = AllocOp(ctx, MemRefType(f32, [DYNAMIC_INDEX, 8]), [n])
    launch = LaunchOp("k", ctx, [buf], [buf])
    relu = KERNEL_OPS["hip.relu"](ctx, [buf], [buf])
    ops = [pool, scratch, alloc, launch, relu, FreeOp(ctx, alloc), SynchronizeOp(ctx)]
    block.add_ops(ops)
    for op in ops:
        op.verify()
    assert pool.result.type == MemRefType(i8, [DYNAMIC_INDEX])
    text = show(launch)
    assert text == "hip.launch @k(%ctx) ins(%buf : memref<4xf32>) outs(%buf : memref<4xf32>)"
    assert show(pool).endswith("hip.get_pool(%ctx, %n) {domain_id = 1 : i64} : memref<?xi8>")


# ----------------------------------------------------------------- the table


def test_table_names_are_unique_and_all_registered():
    names = [spec.name for spec in KERNELS]
    assert len(names) == len(set(names))
    registered = {op.name for op in Hip.operations}
    assert {f"hip.{n}" for n in names} <= registered
    assert {"hip.launch", "hip.get_pool", "hip.get_host_scratch", "hip.alloc",
            "hip.free", "hip.synchronize"} <= registered
    assert [t.name for t in Hip.attributes] == ["hip.context"]


def test_table_covers_the_kernels_hip_ep_dumps_use():
    wanted = """matmul mul add sub div cast miopen.softmax miopen.add rms_norm layer_norm
        rope transpose gather silu sigmoid tanh gemm cumsum pad tile expand slice where
        concat reduce_sum reduce_mean reduce_max exp log sqrt rsqrt neg abs pow relu
        gelu erf softmax argmax topk equal less greater and not conv""".split()
    names = {spec.name for spec in KERNELS}
    assert set(wanted) <= names
    assert len(names) >= 90


def test_kernel_classes_share_one_definition():
    classes = set(KERNEL_OPS.values())
    assert len(classes) == len(KERNELS)
    for cls in classes:
        assert issubclass(cls, KernelOp)
        # parse and print come from KernelOp (irdl only wraps verify_ per class)
        assert "parse" not in vars(cls) and "print" not in vars(cls)
        assert cls.parse.__func__ is KernelOp.parse.__func__ and cls.print is KernelOp.print
        assert cls.SPEC is not None and cls.name == f"hip.{cls.SPEC.name}"
    assert KERNEL_OPS["hip.miopen.softmax"].__name__ == "MiopenSoftmaxOp"
    assert KERNEL_OPS["hip.and"].__name__ == "AndOp"


# ------------------------------------------------------------------ interfaces


INTERFACE_IR = in_func(
    "hip.matmul(%ctx) ins(%a, %s : memref<4x8xf32>, memref<4x8xf32, strided<[8, 1], "
    "offset: ?>>) outs(%a : memref<4x8xf32>)",
    "hip.launch @k(%ctx) ins(%h : memref<4x8xf16>) outs(%s, %a : memref<4x8xf32, "
    "strided<[8, 1], offset: ?>>, memref<4x8xf32>)",
    "%pool = hip.get_pool(%ctx, %n) : memref<?xi8>",
    "%scratch = hip.get_host_scratch(%ctx, %n) : memref<?xi8>",
    "%x = hip.alloc(%ctx, %n) : memref<?x128xf32>",
    "hip.free(%ctx, %x) : memref<?x128xf32>",
    "hip.synchronize(%ctx)",
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


def test_every_kernel_is_stream_ordered_with_operand_effects():
    for name, cls in KERNEL_OPS.items():
        spec = cls.SPEC
        text = in_func(kernel_line(name, spec.ins[0], max(spec.outs[0], 1)))
        (op,) = body_ops(parse(text))
        assert stream_of(op) is op.ctx
        kinds = {kind for kind, _ in effects_of(op)}
        assert kinds == ({MemoryEffectKind.READ} if spec.ins[0] else set()) | {
            MemoryEffectKind.WRITE
        }


def test_cse_keeps_allocations_and_synchronizations_apart():
    text = in_func(
        "%p = hip.get_pool(%ctx, %n) : memref<?xi8>",
        "%q = hip.get_pool(%ctx, %n) : memref<?xi8>",
        "%s1 = hip.get_host_scratch(%ctx, %n) : memref<?xi8>",
        "%s2 = hip.get_host_scratch(%ctx, %n) : memref<?xi8>",
        "%x = hip.alloc(%ctx, %n) : memref<?xf32>",
        "%y = hip.alloc(%ctx, %n) : memref<?xf32>",
        "hip.synchronize(%ctx)",
        "hip.synchronize(%ctx)",
        "hip.relu(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
        "hip.relu(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
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
        "hip.synchronize(%ctx)",
        "hip.relu(%ctx) ins(%a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
    )
    ctx = make_context()
    module = Parser(ctx, text).parse_module()
    DeadCodeElimination().apply(ctx, module)
    assert [op.name for op in body_ops(module)] == ["hip.synchronize", "hip.relu"]


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
    (in_func(kernel_line("hip.add", 1, 1)), "'hip.add' op expects 2 ins operands, but got 1"),
    (in_func(kernel_line("hip.relu", 2, 1)), "'hip.relu' op expects 1 ins operand, but got 2"),
    (in_func(kernel_line("hip.matmul", 4, 1)),
     "'hip.matmul' op expects 2 to 3 ins operands, but got 4"),
    (in_func(kernel_line("hip.topk", 1, 1)), "'hip.topk' op expects 2 outs operands, but got 1"),
    (in_func(kernel_line("hip.concat", 0, 1)),
     "'hip.concat' op expects at least 1 ins operand, but got 0"),
    (in_func("hip.gelu(%ctx) ins(%a : memref<4x8xf32>) outs()"),
     "'hip.gelu' op expects 1 outs operand, but got 0"),
    (in_func("hip.launch @k(%ctx) ins(%a : memref<4x8xf32>) outs()"),
     "'hip.launch' op expects at least 1 outs operand, but got 0"),
    (in_func("hip.launch @k(%ctx) ins(%n : index) outs(%a : memref<4x8xf32>)"),
     "'hip.launch' op ins operand #0 must be a ranked memref, but got index"),
    (in_func("hip.exp(%ctx) ins(%a : memref<4x8xf32>) outs(%k : index)"),
     "'hip.exp' op outs operand #0 must be a ranked memref, but got index"),
    (in_func("hip.sub(%ctx) ins(%a, %h : memref<4x8xf32>, memref<4x8xf16>) "
             "outs(%a : memref<4x8xf32>)"),
     "'hip.sub' op expects all ins and outs to have the same element type, "
     "but got f32 and f16"),
    (in_func("hip.less(%ctx) ins(%a, %h : memref<4x8xf32>, memref<4x8xf16>) "
             "outs(%m : memref<4xi1>)"),
     "'hip.less' op expects all ins to have the same element type, but got f32 and f16"),
    (in_func("hip.gather(%ctx) ins(%h, %m : memref<4x8xf16>, memref<4xi1>) "
             "outs(%a : memref<4x8xf32>)"),
     "'hip.gather' op expects ins #0 and outs #0 to have the same element type, "
     "but got f16 and f32"),
    (generic_func('"hip.add"(%x, %a, %a, %a) <{operandSegmentSizes = array<i32: 1, 2, 1>}> '
                  ": (index, memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()",
                  "index, memref<4xf32>, index"),
     "'hip.add' op operand #0 must be !hip.context, but got index"),
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
    (generic_func('%y = "hip.alloc"(%x, %a) <{operandSegmentSizes = array<i32: 1, 1>}> '
                  ": (!hip.context, memref<4xf32>) -> memref<?xf32>",
                  "!hip.context, memref<4xf32>, index"),
     "'hip.alloc' op dynamic size operand #0 must be index, but got memref<4xf32>"),
    (in_func("hip.free(%ctx, %n) : index"),
     "'hip.free' op operand #1 must be a ranked memref, but got index"),
    (generic_func('"hip.synchronize"(%x) : (index) -> ()', "index, memref<4xf32>, index"),
     "'hip.synchronize' op operand #0 must be !hip.context, but got index"),
]


@pytest.mark.parametrize("text,message", INVALID, ids=[m[:50] for _, m in INVALID])
def test_verifier_rejects(text, message):
    module = Parser(make_context(), text).parse_module()
    with pytest.raises(VerifyException) as info:
        module.verify()
    assert message in str(info.value)


def test_each_invalid_case_differs_from_a_valid_one_only_in_the_error():
    """The invalid IR above is one mistake away from IR that verifies."""
    parse(in_func(kernel_line("hip.add", 2, 1)))
    parse(in_func(kernel_line("hip.topk", 1, 2)))
    parse(in_func("%p = hip.get_pool(%ctx, %n) {domain_id = 1 : i64} : memref<?xi8>"))
    parse(in_func("%x = hip.alloc(%ctx, %n) : memref<?x128xf32>"))
    parse(in_func("hip.less(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>) "
                  "outs(%m : memref<4xi1>)"))


PARSE_ERRORS = [
    ("hip.add(%ctx) ins(%a, %a : memref<4x8xf32>) outs(%a : memref<4x8xf32>)",
     "'ins' has 2 operands but 1 types"),
    ("hip.add(%ctx) ins(%a, %a : memref<4x8xf32>, memref<4x8xf32>)", "outs"),
    ("hip.add(%ctx, %ctx) outs(%a : memref<4x8xf32>)", "expected 1 operands, got 2"),
    ("hip.launch(%ctx) outs(%a : memref<4x8xf32>)", "expected a kernel symbol"),
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


def test_element_rules_are_used_by_the_table():
    used = {spec.elements for spec in KERNELS}
    assert used == set(ElementRule)


def test_stock_xdsl_tools_see_the_dialect_through_the_universe():
    from xdsl.universe import Universe

    hip = Universe.get_multiverse().all_dialects["hip"]()
    assert hip is Hip
