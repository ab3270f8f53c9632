"""Reference semantics of hip kernels on numpy arrays.

The interpreter needs kernels that compute exactly what they mean from exactly the
bytes they read, so that a plan that lets one buffer clobber another changes the
result. Each hip-ep kernel it can run has its meaning here (ONNX's, as hip-ep
implements it), with its operands and parameters read through the op's own
accessors: `op.lhs`, `op.perm`, `op.transB` (hip-ep keeps a kernel's attributes
as properties). memplan's own `memplan.launch @k` names no meaning: it writes a
deterministic mix (a hash) of its symbol and the bytes it reads.

A kernel with no meaning here is refused before the run starts
(`UnmodelledKernel`, from `check_kernels`), never run as something else; operands
that do not fit a kernel's meaning (shapes that do not broadcast, a result shape
other than its destination's) fail the run with an `InterpretationError`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import InterpretationError

from memplan.dialects import hip
from memplan.dialects.memplan_dialect import LaunchOp

__all__ = ["MODELLED", "UnmodelledKernel", "check_kernels", "run_kernel"]

Value = Callable[[SSAValue], np.ndarray]
"""The array an operand of the kernel reads (a snapshot taken before any write)."""
Semantics = Callable[[hip.KernelOp, Value], list[np.ndarray]]


class UnmodelledKernel(Exception):
    """A kernel the interpreter has no meaning for: running it as anything else
    would make a differential check meaningless."""


def _int(attr: IntegerAttr) -> int:
    return attr.value.data


def _ints(attr: ArrayAttr) -> list[int]:
    return [a.value.data for a in attr.data]  # type: ignore[attr-defined]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _gelu(op: hip.KernelOp, x: np.ndarray) -> np.ndarray:
    if op.approximate.data == "tanh":  # type: ignore[attr-defined]
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    return 0.5 * x * (1 + np.vectorize(math.erf, otypes=[x.dtype])(x / np.sqrt(2)))


def _unary(fn: Callable[[np.ndarray], np.ndarray]) -> Semantics:
    """hip-ep's one-input elementwise kernels: `x -> y` or `input -> output`."""
    return lambda op, v: [fn(v(op.ins[0]))]


def _binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Semantics:
    """NumPy-broadcasting two-input kernels (`lhs`, `rhs`; `A`, `B` for miopen.add)."""
    return lambda op, v: [fn(v(op.ins[0]), v(op.ins[1]))]


def _divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a / b if a.dtype.kind == "f" else np.trunc(a / b).astype(a.dtype)


def _mod(op: hip.KernelOp, v: Value) -> list[np.ndarray]:
    a, b = v(op.lhs), v(op.rhs)  # type: ignore[attr-defined]
    return [np.fmod(a, b) if _int(op.fmod) else np.mod(a, b)]  # type: ignore[attr-defined]


def _matmul(op: hip.KernelOp, v: Value) -> list[np.ndarray]:
    return [np.matmul(v(op.A), v(op.B))]  # type: ignore[attr-defined]


def _gemm(op: hip.KernelOp, v: Value) -> list[np.ndarray]:
    a, b = v(op.input_a), v(op.input_b)  # type: ignore[attr-defined]
    if _int(op.transA):  # type: ignore[attr-defined]
        a = a.T
    if _int(op.transB):  # type: ignore[attr-defined]
        b = b.T
    result = op.alpha.value.data * (a @ b)  # type: ignore[attr-defined]
    if op.input_c is not None:  # type: ignore[attr-defined]
        result = result + op.beta.value.data * v(op.input_c)  # type: ignore[attr-defined]
    return [result]


_ONNX_TYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16,
               6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64,
               12: np.uint32, 13: np.uint64}
"""ONNX's TensorProto data types (hip.cast's `to`) that numpy holds."""


def _cast(op: hip.KernelOp, v: Value) -> list[np.ndarray]:
    to = _int(op.to)  # type: ignore[attr-defined]
    if to not in _ONNX_TYPES:
        raise InterpretationError(f"'hip.cast' to ONNX data type {to} is not modelled")
    return [v(op.input).astype(_ONNX_TYPES[to])]  # type: ignore[attr-defined]


def _transpose(op: hip.KernelOp, v: Value) -> list[np.ndarray]:
    return [np.transpose(v(op.input), _ints(op.perm))]  # type: ignore[attr-defined]


def _axes(op: hip.KernelOp, v: Value, rank: int) -> tuple[int, ...] | None:
    """ONNX's reduction axes from the `axes` operand: empty means every axis,
    unless `noop_with_empty_axes` (then none: None)."""
    axes = tuple(int(a) for a in v(op.axes).reshape(-1))  # type: ignore[attr-defined]
    if axes:
        return tuple(a % rank for a in axes)
    return None if _int(op.noop_with_empty_axes) else tuple(range(rank))  # type: ignore[attr-defined]


def _reduce(fn: Callable[..., np.ndarray]) -> Semantics:
    def run(op: hip.KernelOp, v: Value) -> list[np.ndarray]:
        data = v(op.data)  # type: ignore[attr-defined]
        axes = _axes(op, v, data.ndim)
        if axes is None:
            return [data]
        return [fn(data, axis=axes, keepdims=bool(_int(op.keepdims)))]  # type: ignore[attr-defined]

    return run


def _l2(data: np.ndarray, axis: tuple[int, ...], keepdims: bool) -> np.ndarray:
    return np.sqrt(np.sum(np.square(data), axis=axis, keepdims=keepdims))


def _cumsum(op: hip.KernelOp, v: Value) -> list[np.ndarray]:
    x = v(op.x)  # type: ignore[attr-defined]
    axis = int(v(op.axis).reshape(-1)[0]) % max(x.ndim, 1)  # type: ignore[attr-defined]
    if _int(op.reverse):  # type: ignore[attr-defined]
        x = np.flip(x, axis)
    total = np.cumsum(x, axis=axis, dtype=x.dtype)
    if _int(op.exclusive):  # type: ignore[attr-defined]
        total = total - x
    return [np.flip(total, axis) if _int(op.reverse) else total]  # type: ignore[attr-defined]


def _where(op: hip.KernelOp, v: Value) -> list[np.ndarray]:
    return [np.where(v(op.condition), v(op.x), v(op.y))]  # type: ignore[attr-defined]


MODELLED: dict[str, Semantics] = {
    "hip.abs": _unary(np.abs),
    "hip.neg": _unary(np.negative),
    "hip.exp": _unary(np.exp),
    "hip.log": _unary(np.log),
    "hip.sqrt": _unary(np.sqrt),
    "hip.reciprocal": _unary(np.reciprocal),
    "hip.sin": _unary(np.sin),
    "hip.cos": _unary(np.cos),
    "hip.ceil": _unary(np.ceil),
    "hip.sign": _unary(np.sign),
    "hip.sigmoid": _unary(_sigmoid),
    "hip.tanh": _unary(np.tanh),
    "hip.softplus": _unary(lambda x: np.log1p(np.exp(x))),
    "hip.silu": _unary(lambda x: x * _sigmoid(x)),
    "hip.not": _unary(np.logical_not),
    "hip.miopen.softmax": _unary(_softmax),
    "hip.gelu": lambda op, v: [_gelu(op, v(op.input))],  # type: ignore[attr-defined]
    "hip.leaky_relu": lambda op, v: [  # type: ignore[attr-defined]
        np.where(v(op.input) >= 0, v(op.input), op.alpha.value.data * v(op.input))],
    "hip.add": _binary(np.add),
    "hip.miopen.add": _binary(np.add),
    "hip.sub": _binary(np.subtract),
    "hip.mul": _binary(np.multiply),
    "hip.div": _binary(_divide),
    "hip.min": _binary(np.minimum),
    "hip.max": _binary(np.maximum),
    "hip.equal": _binary(np.equal),
    "hip.less": _binary(np.less),
    "hip.and": _binary(np.logical_and),
    "hip.or": _binary(np.logical_or),
    "hip.mod": _mod,
    "hip.where": _where,
    "hip.matmul": _matmul,
    "hip.gemm": _gemm,
    "hip.cast": _cast,
    "hip.transpose": _transpose,
    "hip.cumsum": _cumsum,
    "hip.reduce_sum": _reduce(np.sum),
    "hip.reduce_mean": _reduce(np.mean),
    "hip.reduce_max": _reduce(np.max),
    "hip.reduce_min": _reduce(np.min),
    "hip.reduce_prod": _reduce(np.prod),
    "hip.reduce_l2": _reduce(_l2),
}
"""The kernels the interpreter runs, by op name, each with its meaning."""


def check_kernels(module: ModuleOp) -> None:
    """Refuse a module holding a kernel the interpreter has no meaning for."""
    for op in module.walk():
        if isinstance(op, hip.KernelOp) and not isinstance(op, LaunchOp):
            if op.name not in MODELLED:
                raise UnmodelledKernel(
                    f"the interpreter has no semantics for '{op.name}'; it runs only "
                    f"{', '.join(sorted(MODELLED))} and memplan.launch"
                )


def _mix(label: str, ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> None:
    """Outputs from a hash of the kernel's symbol and its input bytes."""
    digest = hashlib.blake2b(label.encode(), digest_size=16)
    for array in ins:
        digest.update(str(array.shape).encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    seed = int.from_bytes(digest.digest()[:8], "little")
    rng = np.random.default_rng(seed)
    for out in outs:
        if out.dtype.kind == "f":
            values = rng.uniform(-1.0, 1.0, size=out.shape).astype(out.dtype)
        elif out.dtype == np.bool_:
            values = rng.integers(0, 2, size=out.shape).astype(np.bool_)
        else:
            values = rng.integers(-100, 100, size=out.shape).astype(out.dtype)
        out[...] = values


def run_kernel(op: hip.KernelOp, ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> None:
    """Read every input (`op.ins` order), then write every output (`op.outs`
    order): in-place kernels read first."""
    snapshot = [np.array(a, copy=True) for a in ins]
    if isinstance(op, LaunchOp):
        _mix(str(op.kernel), snapshot, outs)
        return
    arrays = {id(value): a for value, a in zip(op.ins, snapshot, strict=True)}
    semantics = MODELLED.get(op.name)
    if semantics is None:
        raise UnmodelledKernel(f"the interpreter has no semantics for '{op.name}'")
    with np.errstate(all="ignore"):
        try:
            results = semantics(op, lambda value: arrays[id(value)])
        except (ValueError, TypeError, IndexError, np.exceptions.AxisError) as error:
            raise InterpretationError(f"'{op.name}': its operands do not fit: {error}") from None
    for out, result in zip(outs, results, strict=True):
        result = np.asarray(result)
        if result.shape != out.shape:
            raise InterpretationError(
                f"'{op.name}' computes a {list(result.shape)} result for a "
                f"{list(out.shape)} destination"
            )
        out[...] = result.astype(out.dtype)
