"""Builtin types and literals as mlir-opt prints them.

Types and float literals are printed by xDSL's builtin dialect, not by ops, so the
differences from MLIR's text sit in a printer class.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    ArrayAttr,
    AffineMapAttr,
    AnyFloat,
    FileLineColLoc,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    UnrankedMemRefType,
    i1,
    i64,
)
from xdsl.ir import Attribute


from memplan.analysis.memref_layout import affine_map_text, is_identity_layout
from memplan.printing.output import FastOutputPrinter, string_literal




class MlirBuiltinPrinter(FastOutputPrinter):
    """A Printer that writes memref types and float literals as `mlir-opt` does.

    Types and literals are printed by xDSL's builtin dialect, not by the ops, so
    these fixes have to sit in the printer:
    - MLIR elides the `i64` of an integer memory space (`memref<4xf32, 1>`) and of
      the integers in an array (`[0, 1]`); xDSL prints `memref<4xf32, 1 : i64>` and
      `[0 : i64, 1 : i64]`.
    - MLIR prints NaN and infinities as upper-case bits (`0xFF800000`); xDSL
      prints lower case.
    - MLIR rounds the 6-digit exponential form half away from zero
      (`3.140625 : bf16` prints `3.140630e+00`); xDSL rounds half to even.
    - MLIR prints affine maps with precedence (`d0 * 4 + d1 - 3`), xDSL fully
      parenthesized; MLIR drops an identity affine-map layout from memref types.
    MLIR reads xDSL's forms too; the fixes make the text identical to peer dumps.

    Every override defers to `super()`, so memplan's tool printer can derive from
    this class (`class MlirPrinter(MlirBuiltinPrinter)`) and keep its own
    `print_attribute` (aliases) in front.
    """

    _floats: dict[tuple[float, AnyFloat], str] | None = None

    def print_float(self, value: float, type: AnyFloat) -> None:
        if math.isnan(value) or math.isinf(value):
            raw = type.pack((value,))
            self.print_string(f"0x{raw[::-1].hex().upper()}")
            return
        # The decimal rounding and the round trip through the type's bytes cost
        # more than printing the op; a module repeats a few constants (epsilons).
        # Zero is left out: -0.0 and 0.0 are one key.
        if self._floats is None:
            self._floats = {}
        known = self._floats.get((value, type)) if value else None
        if known is not None:
            self.print_string(known)
            return
        text = _mlir_exponential(value)
        if type.unpack(type.pack([float(text)]), 1)[0] != value:
            # mlir-opt's second try: `APFloat::toString()` (enough digits to read
            # back), kept when it has a decimal point.
            bits = _SIGNIFICAND_BITS.get(type.__class__)
            text = ""
            if bits is not None:
                text = _apfloat_text(value, 2 + bits * 59 // 196, 3, truncate_zero=True)
            if "." not in text:
                text = self.printed_aside(lambda: super(MlirBuiltinPrinter, self).print_float(value, type))
        if value:
            self._floats[(value, type)] = text
        self.print_string(text)

    def print_attribute(self, attribute: Attribute) -> None:
        if type(attribute) is IntegerAttr:
            # xDSL's own compares the type with i1 twice (a dataclass comparison).
            ty = attribute.type
            if isinstance(ty, IndexType) or ty != i1:
                self.print_string(f"{attribute.value.data:d} : ")
                self.print_attribute(ty)
            else:
                self.print_string("true" if attribute.value.data else "false")
            return
        if type(attribute) is FileLineColLoc:
            # Every op's location with --mlir-print-debuginfo: one write.
            text = (
                f"{string_literal(attribute.filename.data)}:"
                f"{attribute.line.data:d}:{attribute.column.data:d}"
            )
            self.print_string(text if self.printing_location else f"loc({text})")
            return
        if isinstance(attribute, AffineMapAttr):
            self.print_string(f"affine_map<{affine_map_text(attribute.data)}>")
            return
        if isinstance(attribute, MemRefType | UnrankedMemRefType) and (
            _is_i64_int(attribute.memory_space)
            or (isinstance(attribute, MemRefType) and _identity_map(attribute))
        ):
            self._print_memref_type(attribute)
            return
        if isinstance(attribute, ArrayAttr) and any(_is_i64_int(a) for a in attribute.data):
            self.print_string("[")
            self.print_list(attribute.data, self._print_array_element)
            self.print_string("]")
            return
        super().print_attribute(attribute)

    def _print_array_element(self, attribute: Attribute) -> None:
        if _is_i64_int(attribute):
            assert isinstance(attribute, IntegerAttr)
            self.print_string(str(attribute.value.data))
        else:
            self.print_attribute(attribute)

    def _print_memref_type(self, t: MemRefType | UnrankedMemRefType) -> None:
        self.print_string("memref<")
        if isinstance(t, UnrankedMemRefType):
            self.print_string("*x")
        elif t.get_num_dims():
            self.print_dimension_list(t.get_shape())
            self.print_string("x")
        self.print_attribute(t.element_type)
        if isinstance(t, MemRefType) and not is_identity_layout(
            t.layout, t.get_num_dims()
        ):
            self.print_string(", ")
            self.print_attribute(t.layout)
        space = t.memory_space
        if isinstance(space, IntegerAttr):
            self.print_string(f", {space.value.data}")
        elif not isinstance(space, NoneAttr):
            self.print_string(", ")
            self.print_attribute(space)
        self.print_string(">")


def _mlir_exponential(value: float) -> str:
    """`APFloat::toString(precision 6, padding 0, no truncation)`: mlir-opt's first
    try at a float literal (`1.500000e+00`)."""
    if value == 0:
        return "-0.000000e+00" if math.copysign(1.0, value) < 0 else "0.000000e+00"
    return _apfloat_text(value, 6, 0, truncate_zero=False)


def _apfloat_text(value: float, precision: int, width: int, truncate_zero: bool) -> str:
    """LLVM's `APFloat::toString(precision, width, truncate_zero)` of a nonzero finite
    value, digit for digit: the exact binary value's decimal digits, the lowest cut
    away (a truncation) until about `precision` digits' worth of bits remain, then
    rounded half up on the next digit to `precision` significant digits; scientific
    unless `width` zeros or fewer pad it. The cut is why mlir-opt prints the f32
    nearest 1e-5 as `9.99999974E-6`: `9.999999e-06` does not read back to it."""
    numerator, denominator = abs(value).as_integer_ratio()
    twos = denominator.bit_length() - 1  # the denominator is a power of two
    digits, exp = (numerator * 5**twos, -twos) if twos else (numerator, 0)
    required = (precision * 196 + 58) // 59
    discard = max(digits.bit_length() - required, 0) * 59 // 196
    if discard:
        digits //= 10**discard
        exp += discard
    text = str(digits)
    stripped = text.rstrip("0")
    exp += len(text) - len(stripped)
    text = stripped
    if len(text) > precision:
        exp += len(text) - precision
        kept = str(int(text[:precision]) + (text[precision] >= "5"))  # 99..9 + 1 carries
        text = kept.rstrip("0")
        exp += len(kept) - len(text)
    count = len(text)
    if width == 0:
        scientific = True
    elif exp >= 0:
        scientific = exp > width or count + exp > precision
    else:
        msd = exp + count - 1
        scientific = msd < 0 and -msd > width
    sign = "-" if value < 0 else ""
    if scientific:
        exp += count - 1
        mantissa = text[0] + "." + (text[1:] or ("0" if truncate_zero else ""))
        if not truncate_zero and precision > count - 1:
            mantissa += "0" * (precision - count + 1)
        exponent = f"{exp:+d}" if truncate_zero else f"{'+' if exp >= 0 else '-'}{abs(exp):02d}"
        return f"{sign}{mantissa}{'E' if truncate_zero else 'e'}{exponent}"
    if exp >= 0:
        return sign + text + "0" * exp
    unit = -exp
    if unit < count:
        return f"{sign}{text[:count - unit]}.{text[count - unit:]}"
    return f"{sign}0.{'0' * (unit - count)}{text}"


_SIGNIFICAND_BITS = {Float16Type: 11, BFloat16Type: 8, Float32Type: 24, Float64Type: 53}
"""APFloat's precision (significand bits) of the float types a Python float holds
exactly."""


def _identity_map(t: MemRefType) -> bool:
    """An identity affine-map layout, which MLIR drops from the type."""
    return isinstance(t.layout, AffineMapAttr) and is_identity_layout(
        t.layout, t.get_num_dims()
    )


def _is_i64_int(attr: Attribute) -> bool:
    return isinstance(attr, IntegerAttr) and attr.type == i64
