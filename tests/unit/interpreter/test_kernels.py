"""Reference semantics of kernels, on real hip ops."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

from memplan.dialects import hip
from memplan.interpreter import UnmodelledKernel, run_function
from memplan.interpreter.kernels import MODELLED, check_kernels, run_kernel


def kernel(parse, line: str) -> hip.KernelOp:
    """The op of one kernel line; its operands are the function's arguments, typed
    as the line's clauses type them."""
    args: dict[str, str] = {}
    for names, types in re.findall(r"\((%[^:()]+) : ([^()]+(?:\([^()]*\))?[^()]*)\)", line):
        for name, t in zip(names.split(", "), re.split(r", (?=memref)", types)):
            args[name] = t
    signature = ", ".join(["%ctx: !hip.context", *(f"{n}: {t}" for n, t in args.items())])
    module = parse(f"func.func @f({signature}) {{\n  {line}\n  return\n}}\n")
    (op,) = [o for o in module.walk() if isinstance(o, hip.KernelOp)]
    return op


def run(op: hip.KernelOp, *ins: np.ndarray, dtype=np.float32) -> list[np.ndarray]:
    outs = [np.zeros(v.type.get_shape(), dtype=dtype) for v in op.outs]
    run_kernel(op, list(ins), outs)
    return outs


rng = np.random.default_rng(1)
A = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
B = rng.uniform(-1, 1, (4, 2)).astype(np.float32)
C = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
M34 = "memref<3x4xf32>"


@pytest.mark.parametrize("name,fn", [
    ("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.divide),
    ("max", np.maximum), ("min", np.minimum),
])
def test_binary(parse, name, fn):
    op = kernel(parse, f"hip.{name}(%ctx) ins(%a, %c : {M34}, {M34}) outs(%o : {M34})")
    np.testing.assert_allclose(run(op, A, C)[0], fn(A, C), rtol=1e-6)


def test_broadcasting_binary_kernels_broadcast(parse):
    op = kernel(parse, f"hip.add(%ctx) ins(%a, %r : {M34}, memref<4xf32>) outs(%o : {M34})")
    np.testing.assert_allclose(run(op, A, C[0])[0], A + C[0], rtol=1e-6)


def test_matmul_softmax_silu(parse):
    matmul = kernel(parse, f"hip.matmul(%ctx) ins(%a, %b : {M34}, memref<4x2xf32>) "
                           "outs(%o : memref<3x2xf32>)")
    np.testing.assert_allclose(run(matmul, A, B)[0], A @ B, rtol=1e-5)
    softmax = kernel(parse, f"hip.miopen.softmax(%ctx) ins(%a : {M34}) outs(%o : {M34})")
    soft = run(softmax, A)[0]
    np.testing.assert_allclose(soft.sum(axis=-1), 1.0, rtol=1e-5)
    assert np.argmax(soft[0]) == np.argmax(A[0])
    silu = kernel(parse, f"hip.silu(%ctx) ins(%a : {M34}) outs(%o : {M34})")
    np.testing.assert_allclose(run(silu, A)[0], A / (1 + np.exp(-A)), rtol=1e-5)


def test_gemm_reads_its_properties(parse):
    line = (f"hip.gemm(%ctx) ins(%a, %c : {M34}, {M34}) outs(%o : memref<3x3xf32>) "
            "{alpha = 2.000000e+00 : f32, transB = 1 : i64}")
    op = kernel(parse, line)
    assert "transB" in op.properties and "transB" not in op.attributes
    np.testing.assert_allclose(run(op, A, C)[0], 2 * (A @ C.T), rtol=1e-5)
    with_c = kernel(parse, line.replace("ins(%a, %c : ", "ins(%a, %c, %z : ").replace(
        f"{M34}, {M34})", f"{M34}, {M34}, memref<3x3xf32>)"))
    Z = np.ones((3, 3), np.float32)
    np.testing.assert_allclose(run(with_c, A, C, Z)[0], 2 * (A @ C.T) + Z, rtol=1e-5)


def test_cast_converts_to_the_onnx_type_to(parse):
    values = np.array([1.75, -2.5, 3.25], dtype=np.float32)
    to_int = kernel(parse, "hip.cast(%ctx) ins(%a : memref<3xf32>) outs(%o : memref<3xf32>) "
                           "{to = 6 : i64}")
    np.testing.assert_array_equal(run(to_int, values)[0], values.astype(np.int32))
    to_half = kernel(parse, "hip.cast(%ctx) ins(%a : memref<3xf32>) outs(%o : memref<3xf32>) "
                            "{to = 10 : i64}")
    np.testing.assert_array_equal(run(to_half, values)[0], values.astype(np.float16))


def test_transpose_reduce_cumsum_mod_where_read_their_parameters(parse):
    op = kernel(parse, f"hip.transpose(%ctx) ins(%a : {M34}) outs(%o : memref<4x3xf32>) "
                       "{perm = [1, 0]}")
    np.testing.assert_array_equal(run(op, A)[0], A.T)
    axes = np.array([1], dtype=np.int64)
    op = kernel(parse, f"hip.reduce_sum(%ctx) ins(%a, %x : {M34}, memref<1xi64>) "
                       "outs(%o : memref<3xf32>) {keepdims = 0 : i64}")
    np.testing.assert_allclose(run(op, A, axes)[0], A.sum(axis=1), rtol=1e-5)
    op = kernel(parse, f"hip.reduce_max(%ctx) ins(%a, %x : {M34}, memref<0xi64>) "
                       "outs(%o : memref<1x1xf32>)")
    np.testing.assert_array_equal(run(op, A, np.zeros(0, np.int64))[0], A.max(keepdims=True))
    x = np.arange(1, 5, dtype=np.float32)
    op = kernel(parse, "hip.cumsum(%ctx) ins(%x, %ax : memref<4xf32>, memref<1xi64>) "
                       "outs(%y : memref<4xf32>) {exclusive = 1 : i64, reverse = 1 : i64}")
    np.testing.assert_array_equal(run(op, x, np.zeros(1, np.int64))[0],
                                  np.cumsum(x[::-1])[::-1] - x)
    op = kernel(parse, "hip.mod(%ctx) ins(%a, %b : memref<4xf32>, memref<4xf32>) "
                       "outs(%o : memref<4xf32>) {fmod = 1 : i64}")
    np.testing.assert_array_equal(run(op, -x, x[::-1].copy())[0], np.fmod(-x, x[::-1]))
    op = kernel(parse, "hip.where(%ctx) ins(%c, %a, %b : memref<4xi1>, memref<4xf32>, "
                       "memref<4xf32>) outs(%o : memref<4xf32>)")
    cond = np.array([True, False, True, False])
    np.testing.assert_array_equal(run(op, cond, x, -x)[0], np.where(cond, x, -x))


def test_a_launch_is_a_deterministic_function_of_its_symbol_and_inputs(parse):
    line = "memplan.launch @mystery(%ctx) ins(%a : memref<3x4xf32>) outs(%o : memref<5xf32>)"
    op = kernel(parse, line)
    first, again, other = run(op, A)[0], run(op, A.copy())[0], run(op, C)[0]
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)
    renamed = run(kernel(parse, line.replace("@mystery", "@other")), A)[0]
    assert not np.array_equal(first, renamed)
    assert np.all(np.abs(first) <= 1.0)


def test_operands_that_do_not_fit_fail_the_run(parse):
    op = kernel(parse, f"hip.matmul(%ctx) ins(%a, %c : {M34}, {M34}) outs(%o : memref<3x3xf32>)")
    with pytest.raises(InterpretationError, match="'hip.matmul': its operands do not fit"):
        run(op, A, C)  # 3x4 @ 3x4 does not multiply (the verifier sees only `?` shapes)
    op = kernel(parse, "hip.neg(%ctx) ins(%a : memref<3x4xf32>) outs(%o : memref<12xf32>)")
    with pytest.raises(InterpretationError, match=r"computes a \[3, 4\] result for a \[12\]"):
        run(op, A)


def test_kernels_without_semantics_are_refused(parse):
    line = ("hip.pad(%ctx) ins(%a, %p : memref<4xf32>, memref<2xi64>) "
            "outs(%o : memref<6xf32>)")
    op = kernel(parse, line)
    assert op.name not in MODELLED
    with pytest.raises(UnmodelledKernel, match="no semantics for 'hip.pad'"):
        run(op, np.zeros(4, np.float32), np.zeros(2, np.int64))
    with pytest.raises(UnmodelledKernel, match="no semantics for 'hip.pad'; it runs only"):
        check_kernels(op.get_toplevel_object())


def test_a_run_with_an_unmodelled_kernel_is_refused_not_part_of_its_outcome(parse):
    module = parse("""
    func.func @f(%ctx: !hip.context, %a: memref<4xf32>, %o: memref<4xf32>) {
      hip.exp(%ctx) ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
      hip.size(%ctx) ins(%a : memref<4xf32>) outs(%o : memref<4xf32>)
      return
    }""")
    with pytest.raises(UnmodelledKernel, match="'hip.size'"):
        run_function(module, "f")


def test_every_modelled_name_is_a_kernel_of_the_dialect():
    assert set(MODELLED) <= set(hip.KERNEL_OPS)


def test_in_place_kernels_read_before_they_write(parse):
    op = kernel(parse, "hip.cumsum(%ctx) ins(%x, %ax : memref<4xf32>, memref<1xi64>) "
                       "outs(%x : memref<4xf32>)")
    x = np.arange(4, dtype=np.float32)
    expected = np.cumsum(x)
    run_kernel(op, [x, np.zeros(1, np.int64)], [x])
    np.testing.assert_array_equal(x, expected)
