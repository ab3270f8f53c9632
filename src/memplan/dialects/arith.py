"""xDSL's `arith` dialect plus the ops of MLIR's that xDSL 0.75 lacks.

`arith.remf` (the floating-point remainder, C's `fmod`) appears in upstream's
tests and in lowered models; xDSL has the integer remainders only.
"""

from __future__ import annotations

from xdsl.dialects import arith as xarith
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import Pure

__all__ = ["ArithMlir", "RemFOp"]


@irdl_op_definition
class RemFOp(xarith.FloatingPointLikeBinaryOperation):
    """`arith.remf %a, %b : f32`: the remainder of `a / b`, with `a`'s sign."""

    name = "arith.remf"

    traits = traits_def(Pure())


ArithMlir = Dialect(
    "arith",
    [*xarith.Arith.operations, RemFOp],
    list(xarith.Arith.attributes),
    list(xarith.Arith._interfaces),  # pyright: ignore[reportPrivateUsage]
)
"""xDSL's arith dialect with `arith.remf` added."""
