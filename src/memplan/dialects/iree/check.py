"""IREE's `check` dialect (`compiler/src/iree/compiler/Modules/Check/IR/CheckOps.td`):
the assertions IREE's end-to-end tests make about a program's values, which stay
in the IR through every phase memplan reads (`check.expect_eq(%0, %1) : tensor<4xf32>`).

The ops declare no memory effects: they report to the test runtime, so passes keep
them and keep them in order, as IREE does (its `CHECK_Op` has no traits).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyTensorTypeConstr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float32Type,
    FloatAttr,
)
from xdsl.ir import Dialect
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)

from memplan.dialects.iree.hal import DeviceType

__all__ = ["Check"]

_DEVICE = "(`` `<` $device^ `>`)? `` "


@irdl_op_definition
class ExpectTrueOp(IRDLOperation):
    name = "check.expect_true"

    operand = operand_def()

    assembly_format = "`(` $operand `)` attr-dict `:` type($operand)"


@irdl_op_definition
class ExpectFalseOp(IRDLOperation):
    name = "check.expect_false"

    operand = operand_def()

    assembly_format = "`(` $operand `)` attr-dict `:` type($operand)"


@irdl_op_definition
class ExpectAllTrueOp(IRDLOperation):
    name = "check.expect_all_true"

    device = opt_operand_def(DeviceType)
    operand = operand_def()

    assembly_format = _DEVICE + "`(` $operand `)` attr-dict `:` type($operand)"


@irdl_op_definition
class ExpectEqOp(IRDLOperation):
    name = "check.expect_eq"

    T: ClassVar = VarConstraint("T", AnyAttr())
    device = opt_operand_def(DeviceType)
    lhs = operand_def(T)
    rhs = operand_def(T)

    assembly_format = _DEVICE + "`(` $lhs `,` $rhs `)` attr-dict `:` type($lhs)"


@irdl_op_definition
class ExpectEqConstOp(IRDLOperation):
    name = "check.expect_eq_const"

    device = opt_operand_def(DeviceType)
    lhs = operand_def(AnyTensorTypeConstr)
    value = prop_def(DenseIntOrFPElementsAttr | DenseResourceAttr)

    assembly_format = _DEVICE + "`(` $lhs `,` $value `)` attr-dict `:` type($lhs)"


_TOLERANCES = "(`` `,` `atol` $atol^)? (`` `,` `rtol` $rtol^)? `)` attr-dict `:` type($lhs)"


@irdl_op_definition
class ExpectAlmostEqOp(IRDLOperation):
    name = "check.expect_almost_eq"

    T: ClassVar = VarConstraint("T", AnyAttr())
    device = opt_operand_def(DeviceType)
    lhs = operand_def(T)
    rhs = operand_def(T)
    atol = opt_prop_def(FloatAttr[Float32Type])
    rtol = opt_prop_def(FloatAttr[Float32Type])

    assembly_format = _DEVICE + "`(` $lhs `,` $rhs " + _TOLERANCES


@irdl_op_definition
class ExpectAlmostEqConstOp(IRDLOperation):
    name = "check.expect_almost_eq_const"

    device = opt_operand_def(DeviceType)
    lhs = operand_def(AnyTensorTypeConstr)
    value = prop_def(DenseIntOrFPElementsAttr | DenseResourceAttr)
    atol = opt_prop_def(FloatAttr[Float32Type])
    rtol = opt_prop_def(FloatAttr[Float32Type])

    assembly_format = _DEVICE + "`(` $lhs `,` $value " + _TOLERANCES


Check = Dialect(
    "check",
    [
        ExpectTrueOp,
        ExpectFalseOp,
        ExpectAllTrueOp,
        ExpectEqOp,
        ExpectEqConstOp,
        ExpectAlmostEqOp,
        ExpectAlmostEqConstOp,
    ],
)
"""IREE's test assertions, read and printed as IREE writes them."""

