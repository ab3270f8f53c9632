"""An independent check of a laid-out `stream.resource.pack`.

Given the pack's slices (inclusive lifetimes and size values) and the values that
replace its results (each slice's offset and the total, as IR), the check evaluates
that IR with its own interpreter and asks, for each assignment of the unknowns:

- every slice's offset minus the base is a multiple of the offset alignment and >= 0;
- every slice's range, its size rounded up to the range alignment, ends at or below
  the total;
- no two slices of non-zero size whose lifetimes intersect share a byte.

With no unknowns (a static pack) one evaluation decides it exactly. Otherwise
:func:`prove_pack` tries to prove the layout for every value of the unknowns (see
"Symbolic proof" below), and :func:`check_pack` evaluates it: the unknowns (*leaves*: values the interpreter cannot see through) take many
assignments: all 0, all 1, all equal small and large values, and seeded random
mixes of small and large values per leaf, so that layouts built for equal values are
tried on unequal ones too. Assignments under which some size reaches a petabyte
(`_NO_ALLOCATION`, e.g. a negative size read as unsigned) describe no program
and are skipped. It shares no code with the packer (`memplan.planning`,
`memplan.analysis.index_polynomials`): a packer bug shows up here.

The overlap test is a sweep over lifetime events with the live byte ranges kept
sorted by offset (each new range is compared with its two neighbours): O(n log n)
per assignment, no pairwise scan.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, OpResult, SSAValue

__all__ = ["IndexEvaluator", "assignments", "check_pack", "check_numeric", "prove_pack"]

_MASK = (1 << 64) - 1
#: Sizes from here up (a petabyte; or a negative size read as unsigned) describe no
#: allocation: assignments giving one are skipped, and below it the sums of a pack's
#: sizes cannot wrap around 64 bits.
_NO_ALLOCATION = 1 << 50
_SMALL = (2, 3, 5, 7, 13, 17, 63, 64, 65, 100)
_LARGE = (127, 128, 129, 1000, 1024, 4096, 10007, 65536, 1 << 20)


def _predicate(op: arith.CmpiOp) -> int:
    return op.predicate.value.data


# MLIR's arith.cmpi predicates: eq ne slt sle sgt sge ult ule ugt uge.
_COMPARE: dict[int, Callable[[int, int], bool]] = {
    0: lambda a, b: a == b,
    1: lambda a, b: a != b,
    2: lambda a, b: _signed(a) < _signed(b),
    3: lambda a, b: _signed(a) <= _signed(b),
    4: lambda a, b: _signed(a) > _signed(b),
    5: lambda a, b: _signed(a) >= _signed(b),
    6: lambda a, b: a < b,
    7: lambda a, b: a <= b,
    8: lambda a, b: a > b,
    9: lambda a, b: a >= b,
}


def _is_align(op: Operation) -> bool:
    """IREE's `util.align`, known by name: the checker reads the IR it judges without
    importing the dialects that built it."""
    return op.name == "util.align"


def _signed(value: int) -> int:
    return value - (1 << 64) if value >> 63 else value


class IndexEvaluator:
    """Evaluates index arithmetic (64-bit, wrapping) with leaves given by ``leaf``.

    Public because the benchmarks read laid-out totals with the checker's own
    arithmetic rather than the packer's: a figure and a verdict from one evaluator."""

    def __init__(self, leaf: Callable[[SSAValue], int]):
        self.leaf = leaf
        self.values: dict[SSAValue, int] = {}

    def __call__(self, value: SSAValue) -> int:
        if value not in self.values:
            _run(_compile(self.order([value])), self.values, self.leaf)
        return self.values[value]

    def order(self, roots: Sequence[SSAValue]) -> list[SSAValue]:
        """The values ``roots`` need and not yet evaluated, operands first (an
        iterative post-order: a chain of thousands of ops must not hit Python's
        recursion limit)."""
        order: list[SSAValue] = []
        placed: set[SSAValue] = set()
        for root in roots:
            stack = [root]
            while stack:
                top = stack[-1]
                if top in placed or top in self.values:
                    stack.pop()
                    continue
                missing = [o for o in self._operands(top) if o not in placed and o not in self.values]
                if missing:
                    stack.extend(missing)
                    continue
                stack.pop()
                placed.add(top)
                order.append(top)
        return order

    @staticmethod
    def _understood(op) -> bool:
        return isinstance(
            op,
            arith.ConstantOp | arith.AddiOp | arith.SubiOp | arith.MuliOp | arith.MaxUIOp | arith.MinUIOp
            | arith.SelectOp | arith.CmpiOp | arith.CeilDivUIOp | arith.DivUIOp | arith.RemUIOp
            | arith.ShLIOp | arith.IndexCastOp,
        ) or _is_align(op)

    def _operands(self, value: SSAValue) -> Sequence[SSAValue]:
        if isinstance(value, OpResult) and self._understood(value.op):
            return value.op.operands
        return ()

    def leaves(self, roots: Sequence[SSAValue]) -> list[SSAValue]:
        """The values the interpreter cannot see through, reachable from ``roots``."""
        found: list[SSAValue] = []
        seen: set[SSAValue] = set()
        stack = list(roots)
        while stack:
            value = stack.pop()
            if value in seen:
                continue
            seen.add(value)
            operands = self._operands(value)
            if operands:
                stack.extend(operands)
            elif not (isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp)):
                found.append(value)
        return found


def _compile(order: Sequence[SSAValue]) -> list[tuple[SSAValue, str, tuple[SSAValue, ...], object]]:
    """Each value of ``order`` (operands first) as (value, kind, operands, extra):
    the op tests done once, not once per assignment."""
    program = []
    for value in order:
        op = value.op if isinstance(value, OpResult) else None
        kind, extra = "leaf", None
        if op is not None and IndexEvaluator._understood(op):
            if isinstance(op, arith.ConstantOp):
                attr = op.value
                kind, extra = ("const", attr.value.data & _MASK) if isinstance(attr, IntegerAttr) else ("leaf", None)
            elif isinstance(op, arith.CmpiOp):
                kind, extra = "cmp", _COMPARE[_predicate(op)]
            else:
                kind = next(name for cls, name in _KINDS if isinstance(op, cls)) if not _is_align(op) else "align"
        program.append((value, kind, tuple(op.operands) if op is not None else (), extra))
    return program


_KINDS = (
    (arith.AddiOp, "add"), (arith.SubiOp, "sub"), (arith.MuliOp, "mul"), (arith.MaxUIOp, "max"),
    (arith.MinUIOp, "min"), (arith.SelectOp, "select"), (arith.CeilDivUIOp, "ceildiv"),
    (arith.DivUIOp, "div"), (arith.RemUIOp, "rem"), (arith.ShLIOp, "shl"), (arith.IndexCastOp, "cast"),
)


def _run(program, values: dict[SSAValue, int], leaf: Callable[[SSAValue], int]) -> None:
    """Evaluate a compiled program into ``values`` (64-bit, wrapping)."""
    for value, kind, operands, extra in program:
        if kind == "const":
            values[value] = extra
            continue
        if kind == "leaf":
            values[value] = leaf(value) & _MASK
            continue
        v = [values[o] for o in operands]
        if kind == "add":
            r = (v[0] + v[1]) & _MASK
        elif kind == "mul":
            r = (v[0] * v[1]) & _MASK
        elif kind == "max":
            r = max(v)
        elif kind == "select":
            r = v[1] if v[0] & 1 else v[2]
        elif kind == "cmp":
            r = int(extra(v[0], v[1]))
        elif kind == "align":
            r = ((v[0] + v[1] - 1) & ~(v[1] - 1)) & _MASK if v[1] else v[0]
        elif kind == "sub":
            r = (v[0] - v[1]) & _MASK
        elif kind == "min":
            r = min(v)
        elif kind == "ceildiv":
            r = (v[0] + v[1] - 1) // v[1] if v[1] else 0
        elif kind == "div":
            r = v[0] // v[1] if v[1] else 0
        elif kind == "rem":
            r = v[0] % v[1] if v[1] else 0
        elif kind == "shl":
            r = (v[0] << v[1]) & _MASK if v[1] < 64 else 0
        else:  # cast
            r = v[0]
        values[value] = r


def assignments(count: int, seed: int = 0) -> list[Callable[[int], int]]:
    """Functions from a leaf's number to its value, one per assignment: uniform 0, 1,
    each small and large value, then seeded random mixes."""
    result: list[Callable[[int], int]] = [lambda _i, v=v: v for v in (0, 1, *_SMALL, *_LARGE)]
    rng = random.Random(seed)
    for _ in range(count):
        choices = [rng.choice(_SMALL + _LARGE + (0, 1)) for _ in range(64)]
        result.append(lambda i, c=choices: c[i % len(c)] if i < len(c) else c[(i * 7919) % len(c)])
    return result


def check_numeric(
    starts: Sequence[int],
    ends: Sequence[int],
    sizes: Sequence[int],
    offsets: Sequence[int],
    total: int,
    base: int,
    offset_alignment: int,
    range_alignment: int = 1,
) -> list[str]:
    """The problems of one evaluated layout (empty when it is valid)."""
    problems: list[str] = []
    spans = []
    for i, (size, offset) in enumerate(zip(sizes, offsets)):
        relative = offset - base
        if relative < 0:
            problems.append(f"slice {i}: offset {offset} is below the base {base}")
        elif relative % offset_alignment:
            problems.append(f"slice {i}: offset {relative} past the base is not a multiple of {offset_alignment}")
        span = -(-size // range_alignment) * range_alignment
        spans.append(span)
        if offset + span > total:
            problems.append(f"slice {i}: ends at {offset + span}, past the total {total}")
        if problems:
            return problems
    # Events: a slice is live on [start, end]; at one time starts come before ends
    # (inclusive lifetimes: two slices meeting at one time overlap).
    events = []
    for i, span in enumerate(spans):
        if span > 0:
            events.append((starts[i], 0, i))
            events.append((ends[i], 1, i))
    events.sort()
    live: list[tuple[int, int]] = []  # (offset, slice), sorted
    for _time, kind, i in events:
        key = (offsets[i], i)
        if kind == 1:
            del live[bisect.bisect_left(live, key)]
            continue
        at = bisect.bisect_left(live, key)
        if at > 0:
            other = live[at - 1][1]
            if offsets[other] + spans[other] > offsets[i]:
                return [_overlap(other, i, offsets, spans, starts, ends)]
        if at < len(live):
            other = live[at][1]
            if offsets[i] + spans[i] > offsets[other]:
                return [_overlap(other, i, offsets, spans, starts, ends)]
        live.insert(at, key)
    return problems


def _overlap(a: int, b: int, offsets, spans, starts, ends) -> str:
    return (
        f"slices {a} (lifetime [{starts[a]}, {ends[a]}], bytes [{offsets[a]}, {offsets[a] + spans[a]})) and "
        f"{b} (lifetime [{starts[b]}, {ends[b]}], bytes [{offsets[b]}, {offsets[b] + spans[b]})) share bytes"
    )


def check_pack(
    starts: Sequence[int],
    ends: Sequence[int],
    sizes: Sequence[SSAValue],
    offsets: Sequence[SSAValue],
    total: SSAValue,
    base: SSAValue | None,
    offset_alignment: int,
    range_alignment: int = 1,
    *,
    random_assignments: int = 24,
) -> list[str]:
    """The problems of a laid-out pack, evaluated exactly when nothing is unknown and
    at many assignments of the unknowns otherwise; for a failing assignment the
    message names the leaves' values."""
    roots = [*sizes, *offsets, total, *([base] if base is not None else [])]
    leaves = IndexEvaluator(lambda _v: 0).leaves(roots)
    numbering = {leaf: i for i, leaf in enumerate(leaves)}
    tried = assignments(random_assignments) if leaves else [lambda _i: 0]
    # One topological order of everything the roots need, evaluated per assignment
    # without searching again.
    program = _compile(IndexEvaluator(lambda _v: 0).order(roots))
    for assign in tried:
        interpreter = IndexEvaluator(lambda value: assign(numbering[value]))
        _run(program, interpreter.values, interpreter.leaf)
        evaluated = [interpreter(s) for s in sizes]
        if any(size >= _NO_ALLOCATION for size in evaluated):
            continue  # a size no program allocates (a negative one read as unsigned)
        problems = check_numeric(
            starts,
            ends,
            evaluated,
            [interpreter(o) for o in offsets],
            interpreter(total),
            interpreter(base) if base is not None else 0,
            offset_alignment,
            range_alignment,
        )
        if problems:
            if leaves:
                where = ", ".join(f"leaf {i} = {assign(i)}" for i in range(min(len(leaves), 6)))
                problems = [f"{problems[0]} (at {where})"]
            return problems
    return []


# --------------------------------------------------------------------------------
# Symbolic proof
# --------------------------------------------------------------------------------
#
# A value is read as bounds: polynomials with non-negative coefficients over atoms
# (index values, so >= 0), ``lower`` (the value is >= each) and ``upper`` (the
# value is <= the largest). Exact values have lower == upper == {p}. An op whose
# result cannot be read exactly from exact operands (`util.align` of a value not a
# multiple, an inexact division, ...) is an atom named by its kind and its operands'
# readings, so the same computation met twice (the checker's own rounding of a size
# and the `util.align` the IR holds) is the same atom. ``q - p`` with every
# coefficient >= 0 proves ``p <= q`` for all values of the atoms. Arithmetic is taken
# as exact (no 64-bit wrap-around).

_Poly = tuple  # sorted ((monomial, coefficient), ...), monomial a sorted tuple of atom numbers
_MAX_MEMBERS = 16
_MAX_LOWER = 32


def _poly(terms: dict) -> _Poly:
    return tuple(sorted((m, k) for m, k in terms.items() if k))


def _const(value: int) -> _Poly:
    return _poly({(): value})


def _p_add(a: _Poly, b: _Poly) -> _Poly:
    terms = dict(a)
    for m, k in b:
        terms[m] = terms.get(m, 0) + k
    return _poly(terms)


def _p_mul(a: _Poly, b: _Poly) -> _Poly:
    terms: dict = {}
    for m1, k1 in a:
        for m2, k2 in b:
            m = tuple(sorted(m1 + m2))
            terms[m] = terms.get(m, 0) + k1 * k2
    return _poly(terms)


def _p_le(a: _Poly, b: _Poly) -> bool:
    """a <= b for all atoms >= 0 (coefficient-wise)."""
    terms = dict(b)
    for m, k in a:
        terms[m] = terms.get(m, 0) - k
    return all(k >= 0 for k in terms.values())


def _p_constant(a: _Poly) -> int | None:
    if not a:
        return 0
    if len(a) == 1 and a[0][0] == ():
        return a[0][1]
    return None


def _p_divisible(a: _Poly, k: int) -> bool:
    return all(c % k == 0 for _, c in a)


def _round_up(p: _Poly, k: int) -> _Poly | None:
    """align(p, k) exactly, when the coefficients allow."""
    if k <= 1 or _p_divisible(p, k):
        return p
    rest = tuple(t for t in p if t[0] != ())
    if _p_divisible(rest, k):
        c = _p_constant(tuple(t for t in p if t[0] == ())) or 0
        return _p_add(rest, _const(-(-c // k) * k))
    return None


def _undominated(members) -> tuple[_Poly, ...]:
    """Members no other member is proven >= (for a lower set as for an upper set, a
    dominated member says nothing the other does not)."""
    unique = list(dict.fromkeys(members))
    return tuple(p for i, p in enumerate(unique) if not any(j != i and _p_le(p, q) for j, q in enumerate(unique)))


def _coefficient_max(members) -> _Poly:
    terms: dict = {}
    for p in members:
        for m, k in p:
            terms[m] = max(terms.get(m, 0), k)
    return _poly(terms)


class _Bound:
    __slots__ = ("lower", "upper")

    def __init__(self, lower, upper):
        lower = tuple(dict.fromkeys(lower))
        if len(lower) > _MAX_LOWER:
            # Any subset of a lower set is one: keep the undominated, then the first.
            lower = _undominated(lower)[:_MAX_LOWER]
        self.lower = lower
        if upper is not None:
            upper = _undominated(upper)
            if len(upper) > _MAX_MEMBERS:
                # One polynomial above every member: still an upper bound.
                upper = (_coefficient_max(upper),)
        self.upper = upper

    @staticmethod
    def exact(p: _Poly) -> _Bound:
        return _Bound((p,), (p,))

    @property
    def single(self) -> _Poly | None:
        if self.upper is not None and len(self.upper) == 1 and self.lower == self.upper:
            return self.upper[0]
        return None


_NOTHING = _Bound((_const(0),), None)


_MAX_PAIRS = 64


def _lower_pairs(a, b, combine) -> tuple[_Poly, ...]:
    """Members of a lower set of ``combine(x, y)``: every pair when few, else each
    member of one side with the first of the other (a subset is still one)."""
    if len(a) * len(b) <= _MAX_PAIRS:
        return tuple(combine(x, y) for x in a for y in b)
    return tuple(combine(x, b[0]) for x in a) + tuple(combine(a[0], y) for y in b[1:])


def _upper_pairs(a, b, combine) -> tuple[_Poly, ...] | None:
    """An upper set of ``combine(x, y)`` (monotone, atoms >= 0): every pair when
    few, else one polynomial above each side combined."""
    if a is None or b is None:
        return None
    if len(a) * len(b) <= _MAX_PAIRS:
        return tuple(combine(x, y) for x in a for y in b)
    return (combine(_coefficient_max(a), _coefficient_max(b)),)


class _Reader:
    """Reads index values into :class:`_Bound` for one case of the selections."""

    def __init__(self, case: dict[SSAValue, bool], atoms: dict[object, int]):
        self.case = case
        self.atoms = atoms
        self.memo: dict[SSAValue, _Bound] = {}

    def atom(self, key) -> _Bound:
        """An unknown named by ``key`` (a value, or an op kind and its operands'
        readings), numbered on first sight; shared by every case."""
        number = self.atoms.setdefault(key, len(self.atoms))
        return _Bound.exact((((number,), 1),))

    def align(self, value: _Bound, k: int, key) -> _Bound:
        p = value.single
        if p is not None:
            exact = _round_up(p, k)
            return _Bound.exact(exact) if exact is not None else self.atom(("align", p, k))
        upper = None
        if value.upper is not None:
            upper = tuple(u if _round_up(u, k) == u else _p_add(u, _const(k - 1)) for u in value.upper)
        return _Bound(value.lower, upper)

    def __call__(self, value: SSAValue) -> _Bound:
        stack = [value]
        while stack:
            top = stack[-1]
            if top in self.memo:
                stack.pop()
                continue
            operands = self._operands(top)
            missing = [o for o in operands if o not in self.memo]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            self.memo[top] = self._read(top)
        return self.memo[value]

    def _operands(self, value: SSAValue) -> Sequence[SSAValue]:
        if isinstance(value, OpResult) and IndexEvaluator._understood(value.op):
            op = value.op
            if isinstance(op, arith.SelectOp) and op.operands[0] in self.case:
                return (op.operands[1] if self.case[op.operands[0]] else op.operands[2],)
            return op.operands
        return ()

    def _read(self, value: SSAValue) -> _Bound:
        if not isinstance(value, OpResult) or not IndexEvaluator._understood(value.op):
            return self.atom(value)
        op = value.op
        if isinstance(op, arith.ConstantOp):
            attr = op.value
            return _Bound.exact(_const(attr.value.data)) if isinstance(attr, IntegerAttr) else self.atom(value)
        if isinstance(op, arith.SelectOp):
            if op.operands[0] in self.case:
                return self.memo[op.operands[1] if self.case[op.operands[0]] else op.operands[2]]
            a, b = self.memo[op.operands[1]], self.memo[op.operands[2]]
            upper = None if a.upper is None or b.upper is None else a.upper + b.upper
            return _Bound((_const(0),), upper)
        v = [self.memo[o] for o in op.operands]
        if isinstance(op, arith.IndexCastOp):
            return v[0]
        if isinstance(op, arith.AddiOp | arith.MuliOp):
            combine = _p_add if isinstance(op, arith.AddiOp) else _p_mul
            return _Bound(_lower_pairs(v[0].lower, v[1].lower, combine), _upper_pairs(v[0].upper, v[1].upper, combine))
        if isinstance(op, arith.MaxUIOp):
            upper = None if v[0].upper is None or v[1].upper is None else v[0].upper + v[1].upper
            return _Bound(v[0].lower + v[1].lower, upper)
        if isinstance(op, arith.MinUIOp):
            return _Bound((_const(0),), v[0].upper)
        if _is_align(op):
            k = v[1].single and _p_constant(v[1].single)
            if k:
                return self.align(v[0], k, value)
            return _NOTHING
        p = v[0].single
        k = v[1].single and _p_constant(v[1].single) if len(v) > 1 else None
        if isinstance(op, arith.CeilDivUIOp | arith.DivUIOp) and p is not None and k:
            if _p_divisible(p, k):
                return _Bound.exact(tuple((m, c // k) for m, c in p))
            return self.atom((op.name, p, k))
        if isinstance(op, arith.ShLIOp) and p is not None and k is not None and k < 64:
            return _Bound.exact(tuple((m, c << k) for m, c in p))
        return _NOTHING


def _proves_above(high: _Bound, low: _Bound, span: _Bound) -> bool:
    """high >= low + span for every value: each pair of upper members of ``low``
    and ``span`` is below some lower member of ``high``."""
    if low.upper is None or span.upper is None:
        return False
    return all(any(_p_le(_p_add(u, w), h) for h in high.lower) for u in low.upper for w in span.upper)


_ZERO = _Bound.exact(_const(0))


class _Prover:
    """Proves ``v >= x + extra`` (``v``, ``x`` values, ``extra`` a bound) by the
    structure of the arithmetic, falling back to the bound sets: ``maxui(a, b) >=
    t`` when either operand is; ``v >= maxui(c, d) + e`` when ``v`` is above both;
    ``a + b >= t`` when ``a`` is (``b >= 0``), or when ``a >= x`` and ``b >=
    extra``. Memoised, so a DAG of maxima is walked once per goal."""

    def __init__(self, reader: _Reader):
        self.read = reader
        self.memo: dict[tuple, bool] = {}

    def _resolve(self, value: SSAValue) -> SSAValue:
        while isinstance(value, OpResult) and isinstance(value.op, arith.SelectOp) and value.op.operands[0] in self.read.case:
            op = value.op
            value = op.operands[1] if self.read.case[op.operands[0]] else op.operands[2]
        return value

    def ge(self, v: SSAValue, x: SSAValue | None, extra: _Bound) -> bool:
        v = self._resolve(v)
        x = None if x is None else self._resolve(x)
        key = (v, x, id(extra))
        known = self.memo.get(key)
        if known is not None:
            return known
        self.memo[key] = False  # no circular proofs
        result = self._ge(v, x, extra)
        self.memo[key] = result
        return result

    def _ge(self, v: SSAValue, x: SSAValue | None, extra: _Bound) -> bool:
        low = _ZERO if x is None else self.read(x)
        if (x is None or v is x) and extra is _ZERO:
            return True
        if v is x and extra.upper is not None and all(any(_p_le(u, h) for h in _ZERO.lower) for u in extra.upper):
            return True
        if _proves_above(self.read(v), low, extra):
            return True
        op = v.op if isinstance(v, OpResult) else None
        if isinstance(op, arith.MaxUIOp):
            if any(self.ge(a, x, extra) for a in op.operands):
                return True
        if x is not None and isinstance(x.op if isinstance(x, OpResult) else None, arith.MaxUIOp):
            if all(self.ge(v, c, extra) for c in x.op.operands):
                return True
        if isinstance(op, arith.AddiOp):
            for a, b in (op.operands, op.operands[::-1]):
                if self.ge(a, x, extra):
                    return True
                rest = self.read(b)
                if extra is not _ZERO and _proves_above(rest, _ZERO, extra) and self.ge(a, x, _ZERO):
                    return True
        return False


def _conflicts(starts: Sequence[int], ends: Sequence[int], live: Sequence[bool]):
    """Pairs of live slices whose inclusive lifetimes meet (a sweep; O(n log n + pairs))."""
    order = sorted((i for i in range(len(starts)) if live[i]), key=lambda i: starts[i])
    active: list[int] = []
    for i in order:
        active = [j for j in active if ends[j] >= starts[i]]
        for j in active:
            yield j, i
        active.append(i)


def prove_pack(
    starts: Sequence[int],
    ends: Sequence[int],
    sizes: Sequence[SSAValue],
    offsets: Sequence[SSAValue],
    total: SSAValue,
    base: SSAValue | None,
    range_alignment: int = 1,
    *,
    max_conditions: int = 4,
) -> list[str]:
    """What the symbolic proof could not show (empty: no two slices that meet share
    a byte and the total covers every slice, for every value of the unknowns).
    Selections (`arith.select`) are split into cases over their distinct conditions
    (up to ``max_conditions``, every combination); offsets are measured from the
    base, so it need not be read."""
    del base
    conditions: list[SSAValue] = []
    seen: set[SSAValue] = set()
    stack = [*offsets, total]
    while stack:
        value = stack.pop()
        if value in seen or not isinstance(value, OpResult) or not IndexEvaluator._understood(value.op):
            continue
        seen.add(value)
        if isinstance(value.op, arith.SelectOp) and value.op.operands[0] not in conditions:
            conditions.append(value.op.operands[0])
        stack.extend(value.op.operands)
    if len(conditions) > max_conditions:
        conditions = []
    atoms: dict[object, int] = {}
    for bits in range(1 << len(conditions)):
        reader = _Reader({c: bool(bits >> k & 1) for k, c in enumerate(conditions)}, atoms)
        prover = _Prover(reader)
        spans = [reader.align(reader(s), range_alignment, None) for s in sizes]
        live = [span.single != () for span in spans]
        # A slice proven below another ends below that one's start, hence below
        # the total once the other is: coverage is proven for the rest only.
        below_another = [False] * len(sizes)
        for j, i in _conflicts(starts, ends, live):
            if prover.ge(offsets[i], offsets[j], spans[j]):
                below_another[j] = True
            elif prover.ge(offsets[j], offsets[i], spans[i]):
                below_another[i] = True
            else:
                return [f"slices {j} and {i} are not proven apart"]
        for j in range(len(sizes)):
            if live[j] and not below_another[j] and not prover.ge(total, offsets[j], spans[j]):
                return [f"slice {j} is not proven to end below the total"]
    return []
