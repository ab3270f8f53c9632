"""An independent check of a laid-out `stream.resource.pack`.

Given the pack's slices (inclusive lifetimes and size values) and the values that
replace its results (each slice's offset and the total, as IR), the check evaluates
that IR with its own interpreter and asks, for each assignment of the unknowns:

- every slice's offset minus the base is a multiple of the offset alignment and >= 0;
- every slice's range, its size rounded up to the range alignment, ends at or below
  the total;
- no two slices of non-zero size whose lifetimes intersect share a byte.

With no unknowns (a static pack) one evaluation decides it exactly. Otherwise the
unknowns (*leaves*: values the interpreter cannot see through) take many
assignments: all 0, all 1, all equal small and large values, and seeded random
mixes of small and large values per leaf, so that layouts built for equal values are
tried on unequal ones too. It shares no code with the packer (`memplan.planning`,
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
from xdsl.ir import OpResult, SSAValue

__all__ = ["assignments", "check_pack", "check_numeric"]

_MASK = (1 << 64) - 1
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


def _signed(value: int) -> int:
    return value - (1 << 64) if value >> 63 else value


class _Interpreter:
    """Evaluates index arithmetic (64-bit, wrapping) with leaves given by ``leaf``."""

    def __init__(self, leaf: Callable[[SSAValue], int]):
        self.leaf = leaf
        self.values: dict[SSAValue, int] = {}

    def __call__(self, value: SSAValue) -> int:
        # Iterative post-order: a chain of thousands of ops must not hit Python's
        # recursion limit.
        stack = [value]
        while stack:
            top = stack[-1]
            if top in self.values:
                stack.pop()
                continue
            operands = self._operands(top)
            missing = [o for o in operands if o not in self.values]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            self.values[top] = self._compute(top)
        return self.values[value]

    @staticmethod
    def _understood(op) -> bool:
        return isinstance(
            op,
            arith.ConstantOp | arith.AddiOp | arith.SubiOp | arith.MuliOp | arith.MaxUIOp | arith.MinUIOp
            | arith.SelectOp | arith.CmpiOp | arith.CeilDivUIOp | arith.DivUIOp | arith.RemUIOp
            | arith.ShLIOp | arith.IndexCastOp,
        ) or op.name == "util.align"

    def _operands(self, value: SSAValue) -> Sequence[SSAValue]:
        if isinstance(value, OpResult) and self._understood(value.op):
            return value.op.operands
        return ()

    def _compute(self, value: SSAValue) -> int:
        if not isinstance(value, OpResult) or not self._understood(value.op):
            return self.leaf(value) & _MASK
        op = value.op
        v = [self.values[o] for o in op.operands]
        if isinstance(op, arith.ConstantOp):
            attr = op.value
            return attr.value.data & _MASK if isinstance(attr, IntegerAttr) else self.leaf(value) & _MASK
        if isinstance(op, arith.AddiOp):
            return (v[0] + v[1]) & _MASK
        if isinstance(op, arith.SubiOp):
            return (v[0] - v[1]) & _MASK
        if isinstance(op, arith.MuliOp):
            return (v[0] * v[1]) & _MASK
        if isinstance(op, arith.MaxUIOp):
            return max(v)
        if isinstance(op, arith.MinUIOp):
            return min(v)
        if isinstance(op, arith.SelectOp):
            return v[1] if v[0] & 1 else v[2]
        if isinstance(op, arith.CmpiOp):
            return int(_COMPARE[_predicate(op)](v[0], v[1]))
        if isinstance(op, arith.CeilDivUIOp):
            return (v[0] + v[1] - 1) // v[1] if v[1] else 0
        if isinstance(op, arith.DivUIOp):
            return v[0] // v[1] if v[1] else 0
        if isinstance(op, arith.RemUIOp):
            return v[0] % v[1] if v[1] else 0
        if isinstance(op, arith.ShLIOp):
            return (v[0] << v[1]) & _MASK if v[1] < 64 else 0
        if isinstance(op, arith.IndexCastOp):
            return v[0]
        # util.align %value, %alignment: the next multiple (alignment a power of two).
        alignment = v[1]
        return ((v[0] + alignment - 1) & ~(alignment - 1)) & _MASK if alignment else v[0]

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
    leaves = _Interpreter(lambda _v: 0).leaves(roots)
    numbering = {leaf: i for i, leaf in enumerate(leaves)}
    tried = assignments(random_assignments) if leaves else [lambda _i: 0]
    for assign in tried:
        interpreter = _Interpreter(lambda value: assign(numbering[value]))
        problems = check_numeric(
            starts,
            ends,
            [interpreter(s) for s in sizes],
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
