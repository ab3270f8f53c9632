"""Index values read as polynomials over the values the program cannot see through.

`layout-slices` reads each dynamic slice size (`arith.muli %dim, %c4096`, ...) into
a :class:`~memplan.planning.polynomials.Poly` whose atoms are the *leaves*: values
arithmetic cannot see into (function arguments, `hal.buffer_view.dim`, loads), or
ops it reads as a whole (a `util.align`, `ceildivui` or `divui` that does not divide
exactly, a `subi`, `maxui`, ...). Atoms are numbered in the order met; every atom is
>= 0 as an index value, which is what the planner's proofs need.

Exact rules: `constant`, `addi`, `muli`, `shli` by a constant, `index_cast(ui)`;
`util.align(p, a)` is ``p`` when every coefficient of ``p`` is a multiple of ``a``
(then so is every value), ``p - c + align(c, a)`` when only the constant ``c``
is not; `ceildivui`/`divui` by ``c`` divide exactly when every coefficient is a
multiple of ``c``. A polynomial with a negative coefficient (from `subi`) becomes an
atom of its own, so every polynomial read is non-negative and monotone.

:meth:`IndexPolynomials.values_at` evaluates the atoms with every leaf set to one
number: the tuning points of the planner.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import OpResult, SSAValue

from memplan.interfaces import get_interface
from memplan.planning.polynomials import Poly
from memplan.util_interfaces import AlignsUp

__all__ = ["AlignedAtom", "IndexPolynomials", "align_poly"]

_MAX_DEPTH = 64
_MASK = (1 << 64) - 1


class AlignedAtom(tuple):
    """An atom the reader makes up: ``align(value, alignment)`` for a value whose
    polynomial is not known to be a multiple (emitted as `util.align`)."""

    __slots__ = ()

    def __new__(cls, value: SSAValue, alignment: int):
        return super().__new__(cls, (value, alignment))

    @property
    def value(self) -> SSAValue:
        return self[0]

    @property
    def alignment(self) -> int:
        return self[1]


def _constant(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def align_poly(poly: Poly, alignment: int) -> Poly | None:
    """``align(poly, alignment)`` as a polynomial when that is exact, else None."""
    if alignment <= 1 or poly.divisible_by(alignment):
        return poly
    constant = poly.constant()
    if constant is not None:
        return Poly.const(-(-constant // alignment) * alignment)
    rest = Poly(t for t in poly.terms if t[0] != ())
    if rest.divisible_by(alignment):
        c = (poly - rest).constant() or 0
        return rest + Poly.const(-(-c // alignment) * alignment)
    return None


class IndexPolynomials:
    """Reads index values of one function into polynomials over shared atoms."""

    def __init__(self) -> None:
        self.atoms: list[SSAValue | AlignedAtom] = []
        self._ids: dict[object, int] = {}
        self._memo: dict[SSAValue, Poly] = {}

    def atom(self, key: SSAValue | AlignedAtom) -> Poly:
        index = self._ids.get(key)
        if index is None:
            index = self._ids[key] = len(self.atoms)
            self.atoms.append(key)
        return Poly.atom(index)

    def read(self, value: SSAValue, depth: int = 0) -> Poly:
        """`value` as a polynomial with non-negative coefficients."""
        poly = self._memo.get(value)
        if poly is None:
            poly = self._read(value, depth)
            if not poly.coefficients_nonnegative():
                poly = self.atom(value)
            self._memo[value] = poly
        return poly

    def aligned(self, value: SSAValue, alignment: int) -> Poly:
        """``align(value, alignment)``: exact when the polynomial allows, else an
        :class:`AlignedAtom`."""
        exact = align_poly(self.read(value), alignment)
        return exact if exact is not None else self.atom(AlignedAtom(value, alignment))

    def _read(self, value: SSAValue, depth: int) -> Poly:
        constant = _constant(value)
        if constant is not None:
            return Poly.const(constant)
        if not isinstance(value, OpResult) or depth > _MAX_DEPTH:
            return self.atom(value)
        op = value.op

        def sub(operand: SSAValue) -> Poly:
            return self.read(operand, depth + 1)

        if isinstance(op, arith.IndexCastOp):  # index_castui derives from it
            return sub(op.input)
        if isinstance(op, arith.AddiOp):
            return sub(op.lhs) + sub(op.rhs)
        if isinstance(op, arith.MuliOp):
            return sub(op.lhs) * sub(op.rhs)
        if isinstance(op, arith.SubiOp):
            difference = sub(op.lhs) - sub(op.rhs)
            return difference if difference.coefficients_nonnegative() else self.atom(value)
        if isinstance(op, arith.ShLIOp):
            shift = _constant(op.rhs)
            if shift is not None and 0 <= shift < 63:
                return sub(op.lhs).scale(1 << shift)
        if (align := get_interface(op, AlignsUp)) is not None:
            alignment = _constant(align.alignment(op))
            if alignment is not None and alignment > 0 and alignment & (alignment - 1) == 0:
                exact = align_poly(sub(align.value(op)), alignment)
                if exact is not None:
                    return exact
        if isinstance(op, arith.CeilDivUIOp | arith.DivUIOp):
            divisor = _constant(op.rhs)
            if divisor is not None and divisor > 0:
                inner = sub(op.lhs)
                if inner.divisible_by(divisor):
                    return inner.divide(divisor)
        return self.atom(value)

    # -- tuning points ---------------------------------------------------------------

    def values_at(self, leaf: int) -> list[int]:
        """The value of every atom when every leaf is ``leaf``."""
        memo: dict[SSAValue, int] = {}
        values = []
        for key in self.atoms:
            if isinstance(key, AlignedAtom):
                inner = _evaluate(key.value, leaf, memo, 0)
                values.append(-(-inner // key.alignment) * key.alignment)
            else:
                values.append(_evaluate(key, leaf, memo, 0))
        return values


def _evaluate(value: SSAValue, leaf: int, memo: dict[SSAValue, int], depth: int) -> int:
    """`value` with every leaf set to ``leaf`` (unsigned 64-bit index arithmetic)."""
    known = memo.get(value)
    if known is not None:
        return known
    constant = _constant(value)
    if constant is not None:
        return constant & _MASK
    result = leaf
    if isinstance(value, OpResult) and depth <= _MAX_DEPTH:
        op = value.op

        def of(operand: SSAValue) -> int:
            return _evaluate(operand, leaf, memo, depth + 1)

        if isinstance(op, arith.IndexCastOp):
            result = of(op.input)
        elif isinstance(op, arith.AddiOp):
            result = (of(op.lhs) + of(op.rhs)) & _MASK
        elif isinstance(op, arith.SubiOp):
            result = (of(op.lhs) - of(op.rhs)) & _MASK
        elif isinstance(op, arith.MuliOp):
            result = (of(op.lhs) * of(op.rhs)) & _MASK
        elif isinstance(op, arith.ShLIOp):
            result = (of(op.lhs) << min(of(op.rhs), 64)) & _MASK
        elif isinstance(op, arith.MaxUIOp):
            result = max(of(op.lhs), of(op.rhs))
        elif isinstance(op, arith.MinUIOp):
            result = min(of(op.lhs), of(op.rhs))
        elif isinstance(op, arith.CeilDivUIOp | arith.DivUIOp):
            divisor = of(op.rhs)
            if divisor:
                numerator = of(op.lhs)
                result = -(-numerator // divisor) if isinstance(op, arith.CeilDivUIOp) else numerator // divisor
        elif (align := get_interface(op, AlignsUp)) is not None:
            alignment = of(align.alignment(op))
            if alignment:
                result = -(-of(align.value(op)) // alignment) * alignment & _MASK
    memo[value] = result
    return result
