"""Byte-addressed memory for the reference interpreter.

Every allocation (`memref.alloc`, `hip.get_pool`, `hip.get_host_scratch`,
`hip.alloc`, a function argument) is one numpy byte array. A memref value is a
descriptor into it — allocation, aligned-pointer byte offset, element offset, sizes
and strides, as MLIR lowers memrefs — so that two views, a reinterpret_cast or a
pool slot really share bytes, and a plan that overlaps live buffers really
corrupts data.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    IndexType,
    IntegerType,
    MemRefType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

from memplan.analysis.data_layout import alloc_size

__all__ = ["Allocation", "MemRefValue", "contiguous_strides", "dtype_of"]

_ids = count()


def dtype_of(element: Attribute) -> np.dtype:
    """The numpy storage type of a memref element type: one of the size the data
    layout gives it (`alloc_size`), so views, pool slots and scratch offsets land on
    the bytes the planner and the checker reckon with. bf16 is stored as a 2-byte
    float (the interpreter needs its size, not its rounding), f80 as the platform's
    16-byte long double."""
    size = alloc_size(element)
    dtype: np.dtype | None = None
    if isinstance(element, IntegerType) and element.width.data == 1:
        dtype = np.dtype(np.bool_)
    elif isinstance(element, IntegerType | IndexType):
        dtype = _INTEGERS.get(size)  # type: ignore[arg-type]
    elif isinstance(element, AnyFloat) and element.bitwidth >= 16:
        dtype = _FLOATS.get(size)  # type: ignore[arg-type]
    elif isinstance(element, ComplexType) and isinstance(element.element_type, AnyFloat):
        dtype = _COMPLEX.get(size)  # type: ignore[arg-type]
    if dtype is None or dtype.itemsize != size:
        raise InterpretationError(f"unsupported memref element type {element}")
    return dtype


_INTEGERS = {1: np.dtype(np.int8), 2: np.dtype(np.int16), 4: np.dtype(np.int32),
             8: np.dtype(np.int64)}
_FLOATS = {2: np.dtype(np.float16), 4: np.dtype(np.float32), 8: np.dtype(np.float64),
           16: np.dtype(np.longdouble)}
_COMPLEX = {8: np.dtype(np.complex64), 16: np.dtype(np.complex128),
            32: np.dtype(np.clongdouble)}


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides: list[int] = []
    step = 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


@dataclass(eq=False)
class Allocation:
    """One block of bytes; `label` says where it came from (for messages)."""

    data: np.ndarray
    label: str
    ident: int = -1
    released: str | None = None
    """Why its bytes are gone (the runtime grew a context's memory), once they are."""

    @staticmethod
    def zeros(size: int, label: str) -> Allocation:
        if size < 0:
            raise InterpretationError(f"negative allocation size {size} for {label}")
        return Allocation(np.zeros(size, dtype=np.uint8), label, next(_ids))


@dataclass(frozen=True, eq=False)
class MemRefValue:
    """A memref descriptor: bytes `alloc.data[base + offset*itemsize ...]`."""

    alloc: Allocation
    base: int
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: np.dtype

    @staticmethod
    def fresh(t: MemRefType, shape: tuple[int, ...], label: str) -> MemRefValue:
        dtype = dtype_of(t.element_type)
        size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        return MemRefValue(Allocation.zeros(size, label), 0, 0, shape,
                           contiguous_strides(shape), dtype)

    def array(self) -> np.ndarray:
        """A numpy view of exactly these bytes (writes go to the allocation)."""
        if self.alloc.released is not None:
            raise InterpretationError(f"access to {self.alloc.label} after {self.alloc.released}")
        item = self.dtype.itemsize
        start = self.base + self.offset * item
        if any(s == 0 for s in self.shape):
            return np.zeros(self.shape, dtype=self.dtype)
        last = start + sum((d - 1) * s for d, s in zip(self.shape, self.strides)) * item
        lowest = start + sum((d - 1) * s for d, s in zip(self.shape, self.strides) if s < 0) * item
        if lowest < 0 or last + item > self.alloc.data.size:
            raise InterpretationError(
                f"memref of shape {self.shape} at byte {start} is out of the bounds of "
                f"{self.alloc.label} ({self.alloc.data.size} bytes)"
            )
        return np.ndarray(self.shape, dtype=self.dtype, buffer=self.alloc.data,
                          offset=start, strides=tuple(s * item for s in self.strides))

    def is_contiguous(self) -> bool:
        return self.strides == contiguous_strides(self.shape)

    def with_layout(self, offset: int, shape: tuple[int, ...],
                    strides: tuple[int, ...], dtype: np.dtype | None = None) -> MemRefValue:
        return MemRefValue(self.alloc, self.base, offset, shape, strides,
                           self.dtype if dtype is None else dtype)
