"""Element byte sizes pinned to LLVM's data layout.

The expected sizes are what LLVM 14's `opt -passes=instcombine` folds
`ptrtoint (getelementptr (T, null, 1))` to under the x86-64 layout
`e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128`
(the LLVM type is given beside each MLIR type), not values computed by the code.
"""

import pytest
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    Float8E4M3FNType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    VectorType,
)

from memplan.analysis.aliasing import static_bytes
from memplan.analysis.data_layout import abi_alignment, alloc_size, stream_element_bytes
from memplan.interpreter.memory import dtype_of

f16, bf16, f32, f64 = Float16Type(), BFloat16Type(), Float32Type(), Float64Type()

LLVM_ALLOC_SIZES = [
    # (MLIR element type, LLVM type, opt's alloc size)
    (IntegerType(1), "i1", 1),
    (IntegerType(7), "i7", 1),
    (IntegerType(8), "i8", 1),
    (IntegerType(9), "i9", 2),
    (IntegerType(16), "i16", 2),
    (IntegerType(17), "i17", 4),
    (IntegerType(24), "i24", 4),
    (IntegerType(32), "i32", 4),
    (IntegerType(33), "i33", 8),
    (IntegerType(48), "i48", 8),
    (IntegerType(64), "i64", 8),
    (IntegerType(65), "i65", 16),
    (IntegerType(96), "i96", 16),
    (IntegerType(128), "i128", 16),
    (IntegerType(129), "i129", 32),
    (IntegerType(256), "i256", 32),
    (IndexType(), "i64", 8),
    (f16, "half", 2),
    (bf16, "bfloat", 2),
    (f32, "float", 4),
    (f64, "double", 8),
    (Float80Type(), "x86_fp80", 16),
    (Float128Type(), "fp128", 16),
    (Float8E4M3FNType(), "i8 (LLVM has no f8: its storage)", 1),
    (ComplexType(f32), "{float, float}", 8),
    (ComplexType(f64), "{double, double}", 16),
    (ComplexType(f16), "{half, half}", 4),
    (ComplexType(IntegerType(24)), "{i24, i24}", 8),
    (ComplexType(Float80Type()), "{x86_fp80, x86_fp80}", 32),
    (VectorType(f32, [4]), "<4 x float>", 16),
    (VectorType(f32, [3]), "<3 x float>", 16),
    (VectorType(f32, [8]), "<8 x float>", 32),
    (VectorType(f64, [2]), "<2 x double>", 16),
    (VectorType(f64, [3]), "<3 x double>", 32),
    (VectorType(IntegerType(1), [4]), "<4 x i1>", 1),
    (VectorType(IntegerType(1), [8]), "<8 x i1>", 1),
    (VectorType(IntegerType(1), [16]), "<16 x i1>", 2),
    (VectorType(IntegerType(8), [3]), "<3 x i8>", 4),
    (VectorType(IntegerType(16), [5]), "<5 x i16>", 16),
    (VectorType(IntegerType(24), [4]), "<4 x i24>", 16),
    (VectorType(IntegerType(33), [2]), "<2 x i33>", 16),
]


@pytest.mark.parametrize("element, llvm, expected", LLVM_ALLOC_SIZES,
                         ids=[str(row[0]) for row in LLVM_ALLOC_SIZES])
def test_alloc_size_is_llvms(element, llvm, expected):
    assert alloc_size(element) == expected, f"LLVM's {llvm} takes {expected} bytes"


@pytest.mark.parametrize("element", [NoneType(), VectorType(f32, [4], ArrayAttr([BoolAttr.from_bool(True)]))])
def test_unknown_sizes_are_none(element):
    assert alloc_size(element) is None
    assert abi_alignment(element) is None


def test_not_ceil_bits_over_eight():
    """The race of issue 15: 9 x i33 is 72 bytes, not 45; 256 x i24 is 1024."""
    assert static_bytes(MemRefType(IntegerType(33), [9])) == 72
    assert static_bytes(MemRefType(IntegerType(24), [256])) == 1024


INTERPRETED = {"i1", "i7", "i8", "i9", "i16", "i17", "i24", "i32", "i33", "i48", "i64",
               "half", "bfloat", "float", "double", "x86_fp80", "{float, float}",
               "{double, double}", "{x86_fp80, x86_fp80}"}


@pytest.mark.parametrize("element, llvm, expected",
                         [row for row in LLVM_ALLOC_SIZES if row[1] in INTERPRETED],
                         ids=lambda x: str(x) if not isinstance(x, int) else None)
def test_the_interpreter_stores_elements_in_their_alloc_size(element, llvm, expected):
    assert dtype_of(element).itemsize == expected


# What iree-opt 3.13 sizes one element as, read off the slice its
# `FoldAsyncCloneIntoLoad` folder makes for a load of that type (the
# `arith.constant` byte count of the staged slice), not computed here.
IREE_ELEMENT_BYTES = [
    (IntegerType(1), 1),
    (IntegerType(24), 4),
    (IntegerType(65), 16),
    (bf16, 2),
    (f64, 8),
    (ComplexType(f32), 8),
    (VectorType(IntegerType(8), [3]), 3),
]


@pytest.mark.parametrize("element, expected", IREE_ELEMENT_BYTES, ids=str)
def test_stream_element_bytes_are_iree_opts(element, expected):
    assert stream_element_bytes(element) == expected


def test_stream_element_bytes_unknown_for_opaque_types():
    assert stream_element_bytes(NoneType()) is None
