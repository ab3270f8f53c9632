"""How many bytes an element takes in memory: LLVM's data layout, in one place.

Every memory pass, the plan checker and the reference interpreter size a buffer as
its element count times `alloc_size(element)`, so the checker and the interpreter
test the plan, not a copy of the planner's arithmetic (DESIGN.md section 2: an
element takes the bytes LLVM's data layout gives it, never ceil(bits / 8)).

LLVM's *alloc size* of a type is its store size (ceil(bits / 8)) rounded up to its
ABI alignment, the distance between consecutive elements of an array. The layout is
x86-64's (hip-ep's host, and a 64-bit device pointer):
`e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128`.

- `iN`: aligned as the smallest of i8, i16, i32, i64, i128 that holds N bits, as
  i128 (16 bytes) past 128 bits. So `i1` 1, `i24` 4, `i33` 8, `i65` 16, `i129` 32.
- `index`: i64 (memplan targets 64-bit runtimes, as hip-ep).
- floats: f16/bf16 2, f32 4, f64 8, f80 and f128 16; 8-, 6- and 4-bit floats 1;
  other widths (tf32) as the integer of their width.
- `complex<T>`: a struct of two T: twice T's alloc size.
- `vector<N x T>` (fixed-size): the store size of N * bits(T) rounded up to a power
  of two (LLVM's natural vector alignment). Scalable vectors have no static size.

`tests/unit/analysis/test_data_layout.py` pins these to what LLVM's `opt` computes
for `getelementptr (T, null, 1)` under that layout.

IREE's stream dialect sizes elements by its own rule (`stream_element_bytes`, its
rounded element byte width), which its folders use; the same test file pins that to
what `iree-opt` 3.13 computes.
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    Float80Type,
    IndexType,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute

__all__ = [
    "INDEX_BITS",
    "abi_alignment",
    "alloc_size",
    "bit_width",
    "packed_storage_bytes",
    "stream_element_bytes",
]

INDEX_BITS = 64
"""The width of `index` in memory (a 64-bit target, as hip-ep's)."""

_INTEGER_ALIGNMENTS = (1, 2, 4, 8, 16)
"""ABI alignments of i8, i16, i32, i64 and i128 in bytes."""


def _power_of_two_ceil(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def _integer_alignment(bits: int) -> int:
    for alignment in _INTEGER_ALIGNMENTS:
        if bits <= 8 * alignment:
            return alignment
    return _INTEGER_ALIGNMENTS[-1]


def bit_width(element: Attribute) -> int | None:
    """The bits of a scalar (integer, index, float) element; None for others."""
    if isinstance(element, IntegerType):
        return element.width.data
    if isinstance(element, IndexType):
        return INDEX_BITS
    if isinstance(element, AnyFloat):
        return element.bitwidth
    return None


def abi_alignment(element: Attribute) -> int | None:
    """The ABI alignment of a memref element type in bytes; None when its size is
    unknown (an opaque type, a scalable vector)."""
    if isinstance(element, Float80Type):
        return 16
    if isinstance(element, ComplexType):
        return abi_alignment(element.element_type)
    if isinstance(element, VectorType):
        size = alloc_size(element)
        return size
    bits = bit_width(element)
    if bits is None:
        return None
    if isinstance(element, AnyFloat) and bits in (16, 32, 64, 128):
        return bits // 8
    return _integer_alignment(bits)


@lru_cache(maxsize=1024)
def alloc_size(element: Attribute) -> int | None:
    """The bytes one element of a memref takes (LLVM's alloc size); None when
    unknown, which every caller treats as "size unknown", never as a guess.
    Memoized: the memory passes ask it per buffer of a few element types, and the
    type tests (abstract float classes) cost more than the hash."""
    if isinstance(element, ComplexType):
        part = alloc_size(element.element_type)
        return None if part is None else 2 * part
    if isinstance(element, VectorType):
        if any(element.get_scalable_dims()):
            return None
        bits = bit_width(element.element_type)
        if bits is None:
            return None
        count = 1
        for d in element.get_shape():
            count *= d
        return _power_of_two_ceil(max(1, -(-count * bits // 8)))
    bits = bit_width(element)
    alignment = abi_alignment(element)
    if bits is None or alignment is None:
        return None
    store = max(1, -(-bits // 8))
    return -(-store // alignment) * alignment


def stream_element_bytes(element: Attribute) -> int | None:
    """The bytes IREE's stream dialect gives one element (its rounded element byte
    width, not LLVM's layout): ceil(bits / 8) rounded up to a power of two, twice
    that for `complex<T>`, the element's times the count for a fixed vector."""
    if isinstance(element, ComplexType):
        part = stream_element_bytes(element.element_type)
        return None if part is None else 2 * part
    if isinstance(element, VectorType):
        if any(element.get_scalable_dims()):
            return None
        part = stream_element_bytes(element.element_type)
        return None if part is None else part * element.element_count()
    bits = bit_width(element)
    if bits is None or bits == 0:
        return None
    return _power_of_two_ceil(-(-bits // 8))


def _logical_bits(element: Attribute) -> int | None:
    if isinstance(element, ComplexType):
        part = bit_width(element.element_type)
        return None if part is None else 2 * part
    if isinstance(element, VectorType):
        part = bit_width(element.element_type)
        return None if part is None else part * element.element_count()
    return bit_width(element)


def packed_storage_bytes(count: int, element: Attribute) -> int | None:
    """The bytes IREE packs `count` elements into when it serializes constants
    (its rounded physical storage size): 1-, 8-, 16-, 32- and 64-bit elements
    take a byte each or their width; others are packed into the next power-of-two
    byte word that holds at least two of them (up to 64 bits), words whole."""
    bits = _logical_bits(element)
    if bits is None or bits == 0:
        return None
    if bits == 1:
        return count
    if bits in (8, 16, 32, 64):
        return count * bits // 8
    word = _power_of_two_ceil(-(-min(2 * bits, 64) // 8)) * 8
    per_word = max(word // bits, 1)
    return -(-count // per_word) * word // 8
