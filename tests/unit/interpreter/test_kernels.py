"""Reference semantics of kernels."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr

from memplan.interpreter.kernels import run_kernel


def _op(name: str, **attrs: int):
    """Kernels read only their attributes from the op."""
    return SimpleNamespace(attributes={k: IntegerAttr(v, 64) for k, v in attrs.items()})


def _run(name, ins, out_shape, dtype=np.float32, **attrs):
    out = np.zeros(out_shape, dtype=dtype)
    run_kernel(_op(name, **attrs), name, ins, [out])
    return out


rng = np.random.default_rng(1)
A = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
B = rng.uniform(-1, 1, (4, 2)).astype(np.float32)
C = rng.uniform(-1, 1, (3, 4)).astype(np.float32)


@pytest.mark.parametrize("name,fn", [
    ("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.divide),
])
def test_binary(name, fn):
    np.testing.assert_allclose(_run(name, [A, C], A.shape), fn(A, C), rtol=1e-6)


def test_matmul_gemm_softmax_silu_cast():
    np.testing.assert_allclose(_run("matmul", [A, B], (3, 2)), A @ B, rtol=1e-5)
    np.testing.assert_allclose(_run("gemm", [A, A], (3, 3), transB=1), A @ A.T, rtol=1e-5)
    soft = _run("miopen.softmax", [A], A.shape)
    np.testing.assert_allclose(soft.sum(axis=-1), 1.0, rtol=1e-5)
    assert np.argmax(soft[0]) == np.argmax(A[0])
    np.testing.assert_allclose(_run("silu", [A], A.shape), A / (1 + np.exp(-A)), rtol=1e-5)
    ints = np.array([1, -2, 3], dtype=np.int64)
    assert _run("cast", [ints], (3,), dtype=np.int32).tolist() == [1, -2, 3]


def test_unknown_kernel_is_a_deterministic_function_of_its_inputs():
    first = _run("launch:@mystery", [A], (5,))
    again = _run("launch:@mystery", [A.copy()], (5,))
    other = _run("launch:@mystery", [C], (5,))
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)
    assert np.all(np.abs(first) <= 1.0)


def test_shapes_that_do_not_fit_fall_back_to_the_mix():
    out = _run("matmul", [A, A], (3, 3))  # 3x4 @ 3x4 does not multiply
    assert not np.all(out == 0)


def test_in_place_kernels_read_before_they_write():
    x = np.arange(4, dtype=np.float32)
    run_kernel(_op("cumsum"), "cumsum", [x], [x])
    assert x.tolist() == [0.0, 1.0, 3.0, 6.0]
