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
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

__all__ = ["Allocation", "MemRefValue", "contiguous_strides", "dtype_of"]

_ids = count()


def dtype_of(element: Attribute) -> np.dtype:
    """The numpy storage type of a memref element type (bf16 is stored as 2-byte
    floats: the interpreter needs its size, not its rounding)."""
    if isinstance(element, IndexType):
        return np.dtype(np.int64)
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return np.dtype(np.bool_)
        for bits, dtype in ((8, np.int8), (16, np.int16), (32, np.int32), (64, np.int64)):
            if width <= bits:
                return np.dtype(dtype)
    if isinstance(element, Float16Type | BFloat16Type):
        return np.dtype(np.float16)
    if isinstance(element, Float32Type):
        return np.dtype(np.float32)
    if isinstance(element, Float64Type):
        return np.dtype(np.float64)
    if isinstance(element, AnyFloat):
        return np.dtype(np.float32)
    raise InterpretationError(f"unsupported memref element type {element}")


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
