"""Float literals as mlir-opt prints them (LLVM's `APFloat::toString`).

The expected texts were printed by mlir-opt-22 from the same constants; a random
3,000-constant comparison with the real tool is noted in docs/memplan-opt.md.
"""

import struct

import pytest
from xdsl.dialects.builtin import bf16, f16, f32, f64

from memplan.printing import MlirPrinter


def _round(value: float, fmt: str) -> float:
    return struct.unpack(fmt, struct.pack(fmt, value))[0]


CASES = [
    # six significant digits read back: mlir-opt's first form
    (1.5, f64, "1.500000e+00"),
    (0.3, f64, "3.000000e-01"),
    (1.23457, f64, "1.234570e+00"),
    (_round(0.1, "f"), f32, "1.000000e-01"),
    (_round(3.14159, "f"), f32, "3.141590e+00"),
    (-2.0, f32, "-2.000000e+00"),
    (0.25, f16, "2.500000e-01"),
    # the digits are cut before they are rounded, so these do not read back and
    # take APFloat's full form
    (_round(1e-5, "f"), f32, "9.99999974E-6"),
    (_round(1e-6, "f"), f32, "9.99999997E-7"),
    (0.7, f64, "0.69999999999999996"),
    (1.234567, f64, "1.234567"),
    (9.9999996, f64, "9.9999996000000006"),
]


@pytest.mark.parametrize("value, type, text", CASES, ids=[c[2] for c in CASES])
def test_float_literals_print_as_mlir_opt_prints_them(value, type, text):
    printer = MlirPrinter()
    assert printer.printed_aside(lambda: printer.print_float(value, type)) == text


def test_bf16_uses_its_own_precision():
    # bf16 has 8 significand bits: 1.0078125 is exact, and reads back from 1.007812e+00
    # only in bf16's precision.
    printer = MlirPrinter()
    assert printer.printed_aside(lambda: printer.print_float(1.0078125, bf16)) == "1.007810e+00"
