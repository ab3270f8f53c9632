"""xDSL's `arith` dialect plus what MLIR's has and xDSL 0.75 lacks.

- `arith.remf` (the floating-point remainder, C's `fmod`) appears in upstream's
  tests and in lowered models; xDSL has the integer remainders only.
- The flags MLIR prints on its ops: `overflow<nsw, nuw>` on `arith.trunci` (xDSL
  has it on add/sub/mul/shl only), `exact` on the divisions and right shifts
  (`isExact`), `nneg` on `arith.extui`, `arith.uitofp` and `arith.index_castui`
  (`nonNeg`), and the rounding mode and fast-math flags of `arith.truncf` and
  `arith.extf`. The ops are subclasses of xDSL's, so xDSL's own patterns and
  `isinstance` checks still see them.
- The integer casts (`trunci`, `extui`, `extsi`, `uitofp`, `sitofp`,
  `index_cast`, `index_castui`) take vectors and tensors as MLIR's do, with MLIR's
  "cast incompatible" message.
- `#arith.overflow` prints `nsw, nuw` with MLIR's space (xDSL prints `nsw,nuw`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import (
    ContainerType,
    IndexType,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "ArithMlir",
    "DivSIOp",
    "DivUIOp",
    "ExtFOp",
    "ExtSIOp",
    "IndexCastOp",
    "SIToFPOp",
    "ExtUIOp",
    "IndexCastUIOp",
    "RemFOp",
    "ShRSIOp",
    "ShRUIOp",
    "TruncFOp",
    "TruncIOp",
    "UIToFPOp",
]

ROUNDING_MODES = ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")
"""MLIR's `arith::RoundingMode` keywords, in the order of their enum values (the
generic form stores the value as an `i32`)."""


def _print_overflow_flags(self: xarith.IntegerOverflowAttr, printer: Printer) -> None:
    with printer.in_angle_brackets():
        flags = [flag.value for flag in xarith.IntegerOverflowFlag if flag in self.data]
        printer.print_string(", ".join(flags) if flags else "none")


# xDSL forbids subclassing a bit-enum attribute and its ops name the class in their
# constraints, so the printer is the one thing replaced.
xarith.IntegerOverflowAttr.print_parameter = _print_overflow_flags  # type: ignore[method-assign]


@irdl_op_definition
class RemFOp(xarith.FloatingPointLikeBinaryOperation):
    """`arith.remf %a, %b : f32`: the remainder of `a / b`, with `a`'s sign."""

    name = "arith.remf"

    traits = traits_def(Pure())


class _OwnFormat:
    """Put first among the bases of a subclass of a defined xDSL op that declares
    its own format or fields: the definition refuses a format beside the parser and
    printer the parent's format generated, and the parent's generated verifier
    checks the parent's fields, so the subclass starts from `Operation`'s and
    states its own checks."""

    print = Operation.print
    parse = Operation.__dict__["parse"]

    def verify_(self) -> None:
        return None


def _element(type: Attribute) -> Attribute:
    return type.element_type if isinstance(type, ContainerType) else type  # type: ignore[union-attr]


def _verify_width(op: Operation, wider_result: bool) -> None:
    """An extension widens and a truncation narrows every element (MLIR's
    message when not)."""
    source, result = op.operands[0].type, op.results[0].type
    source_int, result_int = _element(source), _element(result)
    if isinstance(source_int, IntegerType) and isinstance(result_int, IntegerType):
        wider = result_int.width.data > source_int.width.data
        narrower = result_int.width.data < source_int.width.data
        if (wider_result and wider) or (not wider_result and narrower):
            return
    raise VerifyException(
        f"'{op.name}' op operand type '{source}' and result type '{result}' are "
        "cast incompatible"
    )


class _Exact(_OwnFormat):
    """The fields and format of a division or right shift with MLIR's `exact`."""

    lhs = operand_def(xarith.SignlessIntegerBinaryOperation.T)
    rhs = operand_def(xarith.SignlessIntegerBinaryOperation.T)
    result = result_def(xarith.SignlessIntegerBinaryOperation.T)
    is_exact = opt_prop_def(UnitAttr, prop_name="isExact")
    assembly_format = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)"

_INT_LIKE = xarith.signlessIntegerLike
"""MLIR's signless-integer-like: a scalar, or a vector or tensor of them (xDSL's
casts take scalars only)."""


def _verify_index_cast(op: Operation) -> None:
    source, result = op.operands[0].type, op.results[0].type
    if not isinstance(_element(source), IndexType) ^ isinstance(_element(result), IndexType):
        raise VerifyException(
            f"'{op.name}' op operand type '{source}' and result type '{result}' are "
            "cast incompatible"
        )


_NNEG_FORMAT = "$input (`nneg` $nonNeg^)? attr-dict `:` type($input) `to` type($result)"


@irdl_op_definition
class DivSIOp(_Exact, xarith.DivSIOp):
    """`arith.divsi %a, %b exact : T`: `exact` promises no remainder."""



@irdl_op_definition
class DivUIOp(_Exact, xarith.DivUIOp):
    """`arith.divui %a, %b exact : T`."""



@irdl_op_definition
class ShRSIOp(_Exact, xarith.ShRSIOp):
    """`arith.shrsi %a, %b exact : T`: `exact` promises no set bit is shifted out."""



@irdl_op_definition
class ShRUIOp(_Exact, xarith.ShRUIOp):
    """`arith.shrui %a, %b exact : T`."""



@irdl_op_definition
class TruncIOp(_OwnFormat, xarith.TruncIOp):
    """`arith.trunci %x overflow<nsw> : i64 to i32`: the flags promise the dropped
    bits are copies of the sign bit (`nsw`) or zero (`nuw`)."""

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)
    overflow_flags = prop_def(
        xarith.IntegerOverflowAttr,
        default_value=xarith.IntegerOverflowAttr("none"),
        prop_name="overflowFlags",
    )
    assembly_format = (
        "$input (`overflow` `` $overflowFlags^)? attr-dict `:` "
        "type($input) `to` type($result)"
    )

    def verify_(self) -> None:
        _verify_width(self, wider_result=False)


@irdl_op_definition
class ExtUIOp(_OwnFormat, xarith.ExtUIOp):
    """`arith.extui %x nneg : i32 to i64`: `nneg` promises a non-negative input."""

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)
    non_neg = opt_prop_def(UnitAttr, prop_name="nonNeg")
    assembly_format = _NNEG_FORMAT

    def verify_(self) -> None:
        _verify_width(self, wider_result=True)


@irdl_op_definition
class UIToFPOp(_OwnFormat, xarith.UIToFPOp):
    """`arith.uitofp %x nneg : i32 to f32`."""

    input = operand_def(_INT_LIKE)
    result = result_def(xarith.floatingPointLike)
    non_neg = opt_prop_def(UnitAttr, prop_name="nonNeg")
    assembly_format = _NNEG_FORMAT


@irdl_op_definition
class IndexCastUIOp(_OwnFormat, xarith.IndexCastOp):
    """`arith.index_castui %x nneg : i64 to index`: an index cast that zero-extends."""

    name = "arith.index_castui"

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)
    non_neg = opt_prop_def(UnitAttr, prop_name="nonNeg")
    assembly_format = _NNEG_FORMAT

    def verify_(self) -> None:
        _verify_index_cast(self)


_CAST_FORMAT = "$input attr-dict `:` type($input) `to` type($result)"


@irdl_op_definition
class IndexCastOp(_OwnFormat, xarith.IndexCastOp):
    """`arith.index_cast %x : i64 to index`, of scalars or shaped values."""

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)
    assembly_format = _CAST_FORMAT

    def verify_(self) -> None:
        _verify_index_cast(self)


@irdl_op_definition
class ExtSIOp(_OwnFormat, xarith.ExtSIOp):
    """`arith.extsi %x : i32 to i64`, of scalars or shaped values."""

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)
    assembly_format = _CAST_FORMAT

    def verify_(self) -> None:
        _verify_width(self, wider_result=True)


@irdl_op_definition
class SIToFPOp(_OwnFormat, xarith.SIToFPOp):
    """`arith.sitofp %x : i32 to f32`, of scalars or shaped values."""

    input = operand_def(_INT_LIKE)
    result = result_def(xarith.floatingPointLike)
    assembly_format = _CAST_FORMAT


class _RoundingFloatCast(_OwnFormat):
    """`$input (rounding mode)? (fastmath<...>)? attr-dict : T to U`, the syntax of
    `arith.truncf`; `arith.extf` has no rounding mode."""

    HAS_ROUNDING: ClassVar[bool] = True

    @classmethod
    def parse(cls, parser: Parser):
        input = parser.parse_unresolved_operand()
        properties = {}
        if cls.HAS_ROUNDING:
            for value, keyword in enumerate(ROUNDING_MODES):
                if parser.parse_optional_keyword(keyword) is not None:
                    properties["roundingmode"] = IntegerAttr(value, i32)
                    break
        if parser.parse_optional_keyword("fastmath") is not None:
            properties["fastmath"] = xarith.FastMathFlagsAttr.new(
                xarith.FastMathFlagsAttr.parse_parameter(parser)
            )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        input_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        (operand,) = parser.resolve_operands([input], [input_type], parser.pos)
        op = cls.create(  # type: ignore[attr-defined]
            operands=[operand], result_types=[result_type], properties=properties
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)  # type: ignore[attr-defined]
        rounding = self.properties.get("roundingmode")  # type: ignore[attr-defined]
        if isinstance(rounding, IntegerAttr):
            printer.print_string(f" {ROUNDING_MODES[rounding.value.data]}")
        fastmath = self.properties.get("fastmath")  # type: ignore[attr-defined]
        if isinstance(fastmath, xarith.FastMathFlagsAttr) and fastmath.data:
            printer.print_string(" fastmath")
            fastmath.print_parameter(printer)
        printer.print_op_attributes(self.attributes)  # type: ignore[attr-defined]
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)  # type: ignore[attr-defined]
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)  # type: ignore[attr-defined]


@irdl_op_definition
class TruncFOp(_RoundingFloatCast, xarith.TruncFOp):
    """`arith.truncf %x to_nearest_even fastmath<fast> : f32 to bf16`."""

    input = operand_def(xarith.floatingPointLike)
    result = result_def(xarith.floatingPointLike)
    roundingmode = opt_prop_def(IntegerAttr[IntegerType])
    fastmath = opt_prop_def(xarith.FastMathFlagsAttr)
    assembly_format = None


    def verify_(self) -> None:
        mode = self.roundingmode
        if mode is not None and not 0 <= mode.value.data < len(ROUNDING_MODES):
            raise VerifyException(
                "attribute 'roundingmode' failed to satisfy constraint: "
                "Floating point rounding mode"
            )


@irdl_op_definition
class ExtFOp(_RoundingFloatCast, xarith.ExtFOp):
    """`arith.extf %x fastmath<nnan> : bf16 to f32`."""

    input = operand_def(xarith.floatingPointLike)
    result = result_def(xarith.floatingPointLike)
    HAS_ROUNDING: ClassVar[bool] = False
    fastmath = opt_prop_def(xarith.FastMathFlagsAttr)
    assembly_format = None



_EXTENDED = (
    DivSIOp, DivUIOp, ShRSIOp, ShRUIOp, TruncIOp, ExtUIOp, UIToFPOp, TruncFOp, ExtFOp,
    IndexCastOp, ExtSIOp, SIToFPOp,
)

ArithMlir = Dialect(
    "arith",
    [
        *(op for op in xarith.Arith.operations if op.name not in {e.name for e in _EXTENDED}),
        *_EXTENDED,
        IndexCastUIOp,
        RemFOp,
    ],
    list(xarith.Arith.attributes),
    list(xarith.Arith._interfaces),  # pyright: ignore[reportPrivateUsage]
)
"""xDSL's arith dialect with MLIR's flags and the ops xDSL lacks."""
