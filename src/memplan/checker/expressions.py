"""Index expressions the plan checker proves byte ranges apart with.

An expression is a constant plus a sum of coefficient * atom; an atom is an SSA
value the checker cannot see through, `("ceil", c, e)` for `arith.ceildivui(e, c)`
(and `divui(e, c)` as `ceil((e - c + 1) / c)`), or `("max", a, b)` for
`arith.maxui(a, b)`. `linear(value)` reads index arithmetic (constants,
`addi`/`subi`, `muli` by a constant, `index_cast`, `ceildivui`/`divui` by a
constant, `maxui`) into one; `of_bytes` reads a
view's byte-range answer (`memplan.interfaces.ViewBytes`, whose terms are SSA
values) the same way. Atoms are assumed non-negative (they are sizes and offsets),
which is what lets `Expr.nonnegative` prove dynamic ranges apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import OpResult, SSAValue

__all__ = ["Expr", "constant", "linear", "of_bytes"]


@dataclass(frozen=True)
class Expr:
    """constant + sum of coefficient * atom (see the module docstring)."""

    const: int = 0
    terms: tuple[tuple[object, int], ...] = ()

    @staticmethod
    def atom(key: object) -> Expr:
        return Expr(0, ((key, 1),))

    def __add__(self, other: Expr) -> Expr:
        terms = dict(self.terms)
        for key, k in other.terms:
            terms[key] = terms.get(key, 0) + k
        return Expr(self.const + other.const,
                    tuple((key, k) for key, k in terms.items() if k != 0))

    def scale(self, factor: int) -> Expr:
        if factor == 0:
            return Expr()
        return Expr(self.const * factor, tuple((key, k * factor) for key, k in self.terms))

    def __sub__(self, other: Expr) -> Expr:
        return self + other.scale(-1)

    def constant(self) -> int | None:
        return None if self.terms else self.const

    def nonnegative(self, depth: int = 0) -> bool:
        """A proof that the expression is >= 0 for all non-negative atoms:
        c*ceil(e/c) >= e, c*ceil(e/c) <= e + c - 1, max(a, b) >= a and >= b, and
        plain atoms >= 0."""
        expr = self
        for _ in range(16):
            special = next(((key, k) for key, k in expr.terms
                            if isinstance(key, tuple) and key[0] in ("ceil", "max")), None)
            if special is None:
                break
            key, k = special
            rest = Expr(expr.const, tuple(t for t in expr.terms if t[0] != key))
            if key[0] == "max":
                # A lower bound for a positive coefficient: either operand will do.
                return k > 0 and depth < 8 and any(
                    (rest + side.scale(k)).nonnegative(depth + 1) for side in key[1:])
            _, divisor, inner = key
            if k > 0:
                expr = rest + (inner.scale(k // divisor) if k % divisor == 0 else Expr())
            elif (-k) % divisor == 0:
                m = -k // divisor
                expr = rest - inner.scale(m) - Expr(m * (divisor - 1))
            else:
                return False
        if any(k < 0 for _, k in expr.terms):
            return False
        return expr.const >= 0


def linear(value: SSAValue, depth: int = 0) -> Expr:
    """`value` as an index expression (an opaque atom where it cannot see)."""
    if not isinstance(value, OpResult) or depth > 16:
        return Expr.atom(value)
    op = value.op
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return Expr(op.value.value.data)
    if isinstance(op, arith.IndexCastOp):
        return linear(op.input, depth + 1)
    if isinstance(op, arith.AddiOp | arith.SubiOp):
        lhs, rhs = linear(op.lhs, depth + 1), linear(op.rhs, depth + 1)
        return lhs + rhs if isinstance(op, arith.AddiOp) else lhs - rhs
    if isinstance(op, arith.MuliOp):
        lhs, rhs = linear(op.lhs, depth + 1), linear(op.rhs, depth + 1)
        if lhs.constant() is not None:
            return rhs.scale(lhs.const)
        if rhs.constant() is not None:
            return lhs.scale(rhs.const)
    if isinstance(op, arith.CeilDivUIOp | arith.DivUIOp):
        divisor = linear(op.rhs, depth + 1).constant()
        if divisor is not None and divisor > 0:
            inner = linear(op.lhs, depth + 1)
            if isinstance(op, arith.DivUIOp):
                # floor(e / c) = ceil((e - c + 1) / c): hip-ep rounds up this way.
                inner = inner - Expr(divisor - 1)
            if inner.constant() is not None:
                return Expr(-(-inner.const // divisor))
            return Expr.atom(("ceil", divisor, inner))
    if isinstance(op, arith.MaxUIOp):
        lhs, rhs = linear(op.lhs, depth + 1), linear(op.rhs, depth + 1)
        if lhs.constant() is not None and rhs.constant() is not None:
            return Expr(max(lhs.const, rhs.const))
        return Expr.atom(("max", lhs, rhs))
    return Expr.atom(value)


def constant(value: SSAValue) -> int | None:
    """The value of an index/integer computed from constants, else None."""
    return linear(value).constant()


def of_bytes(expression: object | None) -> Expr | None:
    """A view's byte-range expression (`Linear`: `const` and `terms` of SSA values
    and coefficients) with each value read by `linear`; None stays None."""
    if expression is None:
        return None
    result = Expr(getattr(expression, "const"))
    for value, k in getattr(expression, "terms"):
        result = result + linear(value).scale(k)
    return result
