"""Polynomials over non-negative unknowns, and their maxima: the sizes and offsets of
dynamic slices, free of IR.

An *atom* is an unknown integer >= 0 named by an int (the caller keeps what it
stands for). A :class:`Poly` is a sum of integer coefficients times monomials (sorted
tuples of atoms, repeats for powers). A :class:`MaxPoly` is the maximum of a few
polynomials.

The one proof used everywhere: if every coefficient of ``q - p`` is >= 0 then
``p <= q`` for every value of the atoms (each monomial of atoms >= 0 is >= 0).
:meth:`Poly.dominated_by` is that test; :class:`MaxPoly` keeps only polynomials no
other one dominates (a Pareto set), so ``max`` stays exact and small.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["MaxPoly", "Monomial", "Poly"]

Monomial = tuple[int, ...]


class Poly:
    """sum of coefficient * monomial; immutable, hashable."""

    __slots__ = ("terms", "_hash")

    def __init__(self, terms: Mapping[Monomial, int] | Iterable[tuple[Monomial, int]] = ()):
        items = terms.items() if isinstance(terms, Mapping) else terms
        merged: dict[Monomial, int] = {}
        for monomial, k in items:
            merged[monomial] = merged.get(monomial, 0) + k
        self.terms: tuple[tuple[Monomial, int], ...] = tuple(sorted((m, k) for m, k in merged.items() if k != 0))
        self._hash = hash(self.terms)

    @staticmethod
    def const(value: int) -> Poly:
        return Poly({(): value})

    @staticmethod
    def atom(atom: int) -> Poly:
        return Poly({(atom,): 1})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Poly) and self.terms == other.terms

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for monomial, k in self.terms:
            names = "*".join(f"x{a}" for a in monomial)
            parts.append(str(k) if not names else (names if k == 1 else f"{k}*{names}"))
        return " + ".join(parts)

    def __add__(self, other: Poly) -> Poly:
        return Poly(self.terms + other.terms)

    def __sub__(self, other: Poly) -> Poly:
        return Poly(self.terms + tuple((m, -k) for m, k in other.terms))

    def __mul__(self, other: Poly) -> Poly:
        return Poly(
            (tuple(sorted(m1 + m2)), k1 * k2) for m1, k1 in self.terms for m2, k2 in other.terms
        )

    def scale(self, factor: int) -> Poly:
        return Poly((m, k * factor) for m, k in self.terms)

    def constant(self) -> int | None:
        """The value when no atom appears, else None."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    def coefficients_nonnegative(self) -> bool:
        return all(k >= 0 for _, k in self.terms)

    def divisible_by(self, divisor: int) -> bool:
        """Every coefficient is a multiple of ``divisor``: then so is every value."""
        return all(k % divisor == 0 for _, k in self.terms)

    def divide(self, divisor: int) -> Poly:
        """Exact division; only when :meth:`divisible_by`."""
        return Poly((m, k // divisor) for m, k in self.terms)

    def dominated_by(self, other: Poly) -> bool:
        """A proof that ``self <= other`` for every value of the atoms (>= 0)."""
        return (other - self).coefficients_nonnegative()

    def evaluate(self, values: Sequence[int] | Mapping[int, int]) -> int:
        total = 0
        for monomial, k in self.terms:
            term = k
            for atom in monomial:
                term *= values[atom]
            total += term
        return total

    def atoms(self) -> set[int]:
        return {a for m, _ in self.terms for a in m}


class MaxPoly:
    """max of polynomials, none dominated by another; immutable.

    Above ``cap`` members the set is replaced by one polynomial whose coefficient of
    each monomial is the largest any member has: it dominates every member (an upper
    bound, so a layout built on it stays valid), at the cost of some slack."""

    __slots__ = ("members",)

    def __init__(self, members: Iterable[Poly], cap: int = 8):
        kept: list[Poly] = []
        for poly in sorted(set(members), key=lambda p: (len(p.terms), p.terms)):
            if any(poly.dominated_by(other) for other in kept):
                continue
            kept = [other for other in kept if not other.dominated_by(poly)]
            kept.append(poly)
        if len(kept) > cap:
            top: dict[Monomial, int] = {}
            for poly in kept:
                for m, k in poly.terms:
                    top[m] = max(top.get(m, 0), k)
            kept = [Poly(top)]
        self.members: tuple[Poly, ...] = tuple(sorted(kept, key=lambda p: p.terms))

    def largest(self, points: Sequence[Sequence[int]], keep: int) -> MaxPoly:
        """The members largest at ``points`` (at most ``keep``): a lower bound (any
        subset of the members is one)."""
        if len(self.members) <= keep:
            return self
        ranked = sorted(self.members, key=lambda p: [-p.evaluate(v) for v in points])
        return MaxPoly(ranked[:keep], cap=keep)

    @property
    def single(self) -> Poly | None:
        return self.members[0] if len(self.members) == 1 else None

    @staticmethod
    def of(poly: Poly) -> MaxPoly:
        return MaxPoly((poly,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MaxPoly) and self.members == other.members

    def __hash__(self) -> int:
        return hash(self.members)

    def __repr__(self) -> str:
        if len(self.members) == 1:
            return repr(self.members[0])
        return "max(" + ", ".join(map(repr, self.members)) + ")"

    def plus(self, poly: Poly) -> MaxPoly:
        return MaxPoly(member + poly for member in self.members)

    def evaluate(self, values: Sequence[int] | Mapping[int, int]) -> int:
        return max(member.evaluate(values) for member in self.members)

    def dominated_by(self, other: MaxPoly) -> bool:
        """A proof that ``self <= other`` everywhere: each member is dominated by some
        member of ``other``."""
        return all(any(p.dominated_by(q) for q in other.members) for p in self.members)

    @staticmethod
    def maximum(parts: Iterable[MaxPoly], cap: int = 8) -> MaxPoly:
        members = [m for part in parts for m in part.members]
        return MaxPoly(members or (Poly(),), cap)
