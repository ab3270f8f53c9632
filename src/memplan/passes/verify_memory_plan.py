"""`verify-memory-plan`: an independent check that a memory plan never races.

A planner bug must not hide behind the planner's own analysis, so this checker
shares no code with `memplan.analysis` or `memplan.planning`. It reads only what the
IR says about itself (`memplan.interfaces`: effects, streams, synchronizations,
views) and derives, its own simple way:

- byte ranges: every buffer value maps to a root (an allocation, pool, scratch,
  argument, or any value that is not a view) and a byte range in it. `memref.view`
  adds its byte shift when it is a constant; `memref.reinterpret_cast` and
  `memref.subview` keep the base pointer and use the static offset of their result
  type; casts keep the range. Anything unknown means the whole root.
- logical ("original") buffers: a root, and every `memref.view` or
  `memref.reinterpret_cast` result, starts one; other views (subview, cast,
  expand/collapse, memory-space cast, ...) stay in their source's buffer. After slot
  reuse or pooling, two logical buffers share a root.
- ordering, from DESIGN.md section 2, over the dynamic executions of structured
  control flow: an access on the host is ordered before everything after it in
  program order; a device access on stream S before later work on S, and before
  anything else only when an op that waits for S runs in between. Ops in an `scf.if`
  branch may not run; ops of a loop body run once per iteration, so a loop orders
  iteration i before i+1 only through its body's synchronizations.

Reported: (1) two accesses to overlapping bytes of different logical buffers (or of
one buffer's instances in different loop iterations) that are unordered, or whose
buffers interleave in program order; (2) two unordered accesses to one logical
buffer of which one writes (slot reuse by replacing one buffer with another merges
two original buffers into one value; their race then shows here); (3) a buffer that
escapes (to an op that does not say what it does with it) sharing bytes with
another. See docs/design/verify-memory-plan.md.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from math import inf, prod

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.traits import CallableOpInterface, IsTerminator

from memplan.diagnostics import Diagnostic, UserError, emit, location_of
from memplan.interfaces import (
    ALL_STREAMS,
    MemoryEffectKind,
    captures_no_address,
    get_interface,
    memory_effects,
    stream_of,
    synchronized_stream,
    view_source,
)
from memplan.passes.base import MemplanPass

__all__ = ["VerifyMemoryPlan", "Violation", "check_module"]

# Ops whose regions run at most once per execution of the op; any other op with
# regions is treated as a loop (its regions may run many times).
_ONCE = (scf.IfOp, scf.IndexSwitchOp, scf.ExecuteRegionOp)


# ----------------------------------------------------------------- byte ranges


def _element_bytes(t: MemRefType) -> int:
    element = t.element_type
    if isinstance(element, IndexType):
        return 8
    if isinstance(element, IntegerType | AnyFloat):
        return max(1, (element.bitwidth + 7) // 8)
    return 8


@dataclass(frozen=True)
class _Lin:
    """An index expression: constant + sum of coefficient * atom. An atom is an SSA
    value the checker cannot see through, or `("ceil", c, e)` for
    `arith.ceildivui(e, c)`. Atoms are assumed non-negative (they are sizes and
    offsets), which is what lets `nonnegative` prove dynamic ranges apart."""

    const: int = 0
    terms: tuple[tuple[object, int], ...] = ()

    @staticmethod
    def atom(key: object) -> _Lin:
        return _Lin(0, ((key, 1),))

    def __add__(self, other: _Lin) -> _Lin:
        terms = dict(self.terms)
        for key, k in other.terms:
            terms[key] = terms.get(key, 0) + k
        return _Lin(self.const + other.const,
                    tuple((key, k) for key, k in terms.items() if k != 0))

    def scale(self, factor: int) -> _Lin:
        if factor == 0:
            return _Lin()
        return _Lin(self.const * factor, tuple((key, k * factor) for key, k in self.terms))

    def __sub__(self, other: _Lin) -> _Lin:
        return self + other.scale(-1)

    def constant(self) -> int | None:
        return None if self.terms else self.const

    def nonnegative(self) -> bool:
        """A proof that the expression is >= 0 for all non-negative atoms:
        c*ceil(e/c) >= e, c*ceil(e/c) <= e + c - 1, and plain atoms >= 0."""
        expr = self
        for _ in range(16):
            ceil = next(((key, k) for key, k in expr.terms
                         if isinstance(key, tuple) and key[0] == "ceil"), None)
            if ceil is None:
                break
            (_, divisor, inner), k = ceil
            rest = _Lin(expr.const, tuple(t for t in expr.terms if t[0] != ceil[0]))
            if k > 0:
                expr = rest + (inner.scale(k // divisor) if k % divisor == 0 else _Lin())
            elif (-k) % divisor == 0:
                m = -k // divisor
                expr = rest - inner.scale(m) - _Lin(m * (divisor - 1))
            else:
                return False
        if any(k < 0 for _, k in expr.terms):
            return False
        return expr.const >= 0


def _linear(value: SSAValue, depth: int = 0) -> _Lin:
    """`value` as an index expression (an opaque atom where it cannot see)."""
    if not isinstance(value, OpResult) or depth > 16:
        return _Lin.atom(value)
    op = value.op
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return _Lin(op.value.value.data)
    if isinstance(op, arith.IndexCastOp):
        return _linear(op.input, depth + 1)
    if isinstance(op, arith.AddiOp | arith.SubiOp):
        lhs, rhs = _linear(op.lhs, depth + 1), _linear(op.rhs, depth + 1)
        return lhs + rhs if isinstance(op, arith.AddiOp) else lhs - rhs
    if isinstance(op, arith.MuliOp):
        lhs, rhs = _linear(op.lhs, depth + 1), _linear(op.rhs, depth + 1)
        if lhs.constant() is not None:
            return rhs.scale(lhs.const)
        if rhs.constant() is not None:
            return lhs.scale(rhs.const)
    if isinstance(op, arith.CeilDivUIOp):
        divisor = _linear(op.rhs, depth + 1).constant()
        if divisor is not None and divisor > 0:
            inner = _linear(op.lhs, depth + 1)
            if inner.constant() is not None:
                return _Lin(-(-inner.const // divisor))
            return _Lin.atom(("ceil", divisor, inner))
    return _Lin.atom(value)


def _constant(value: SSAValue) -> int | None:
    """The value of an index/integer computed from constants, else None."""
    return _linear(value).constant()


def _extent(t: MemRefType, sizes: Sequence[SSAValue]) -> _Lin | None:
    """Elements of an identity-layout type whose one dynamic size is an index
    expression (what a pool planner's dynamic slabs look like)."""
    if not isinstance(t.layout, NoneAttr):
        return None
    dynamic = [d for d in t.get_shape() if d == DYNAMIC_INDEX]
    if len(dynamic) != 1 or len(sizes) != 1:
        return None
    static = prod(d for d in t.get_shape() if d != DYNAMIC_INDEX)
    return _linear(sizes[0]).scale(static)


def _elements(t: MemRefType, sizes: Sequence[SSAValue] = ()) -> tuple[int, int] | None:
    """(offset, extent) in elements of a memref type relative to its aligned
    pointer; dynamic sizes are taken from `sizes` when those are constants."""
    shape = list(t.get_shape())
    dynamic = iter(sizes)
    for i, d in enumerate(shape):
        if d == DYNAMIC_INDEX:
            size = next(dynamic, None)
            value = None if size is None else _constant(size)
            if value is None:
                return None
            shape[i] = value
    if isinstance(t.layout, NoneAttr):
        return 0, prod(shape)
    if not isinstance(t.layout, StridedLayoutAttr):
        return None
    offset = t.layout.get_offset()
    strides = t.get_strides()
    if offset is None or strides is None or any(s is None for s in strides):
        return None
    if any(d == 0 for d in shape):
        return offset, 0
    return offset, 1 + sum((d - 1) * abs(s) for d, s in zip(shape, strides))


# -------------------------------------------------------------------- the model


@dataclass(eq=False)
class _Buffer:
    """A logical buffer: a root, or a view/reinterpret_cast into one."""

    head: SSAValue
    root: SSAValue
    lo: _Lin
    hi: _Lin | None
    """Byte range in the root; `hi` None: up to the root's end."""
    def_path: tuple[tuple[Block, int], ...]
    escapes_at: Operation | None = None
    accesses: list[_Access] = field(default_factory=list)

    def name(self) -> str:
        return _value_name(self.head)


@dataclass(eq=False)
class _Access:
    op: Operation
    buffer: _Buffer
    write: bool
    stream: SSAValue | None
    """The stream the access runs on; None on the host."""
    waits: object | None
    """What the op waits for before it accesses (`synchronized_stream`)."""
    path: tuple[tuple[Block, int], ...]
    """(block, index of the op or its ancestor in that block), outermost first."""
    order: int
    """Pre-order position in the function, to pick readable witnesses."""
    fresh: bool = False
    """A write of the whole buffer by an op that takes only buffers (a kernel's
    `outs`, a copy's target): what the buffer held before no longer matters."""

    def describe(self) -> str:
        kind = "write" if self.write else "read"
        where = "host" if self.stream is None else f"device, stream {_value_name(self.stream)}"
        loc = location_of(self.op)
        return f"{kind} of {self.buffer.name()} ({where}) by '{self.op.name}' at {loc}"


@dataclass(frozen=True)
class Violation:
    """Two accesses the plan lets race; `later` is where the error is reported."""

    later: Operation
    earlier: Operation
    message: str

    def diagnostics(self) -> list[Diagnostic]:
        return [
            Diagnostic("error", self.message, location_of(self.later)),
            Diagnostic("note", "the other access is here", location_of(self.earlier)),
        ]


def _value_name(value: SSAValue) -> str:
    if value.name_hint:
        return f"%{value.name_hint}"
    if isinstance(value, OpResult):
        return f"the result of '{value.op.name}' at {location_of(value.op)}"
    return f"block argument #{value.index}"


@dataclass
class _Block:
    """The ops of one block and its synchronization points, by op index."""

    ops: list[Operation] = field(default_factory=list)
    index: dict[Operation, int] = field(default_factory=dict)
    sync_at: list[int] = field(default_factory=list)
    sync_for: list[object] = field(default_factory=list)

    def any_sync(self, stream: SSAValue, lo: float, hi: float) -> bool:
        """An op strictly between indexes lo and hi waits for `stream`."""
        start = bisect.bisect_right(self.sync_at, lo)
        for position, target in zip(self.sync_at[start:], self.sync_for[start:]):
            if position >= hi:
                return False
            if target is ALL_STREAMS or target is stream:
                return True
        return False


class _Function:
    """Everything the checker knows about one function body."""

    def __init__(self, body_ops: Iterable[Operation], top: Block):
        self.blocks: dict[Block, _Block] = {}
        self.values: dict[SSAValue, tuple[_Buffer, _Lin | None]] = {}
        """value -> (logical buffer, byte position of its aligned pointer)."""
        self.buffers: list[_Buffer] = []
        self.partial: set[SSAValue] = set()
        """Values that name only part of their logical buffer (subviews)."""
        self.order = 0
        self.args = list(top.args)
        self._walk_block(top, ())

    # -- derivation

    def _root(self, value: SSAValue, path: tuple[tuple[Block, int], ...]) -> None:
        if not isinstance(value.type, MemRefType):
            return
        ext = _elements(value.type)
        width = _element_bytes(value.type)
        if ext is None:
            buffer = _Buffer(value, value, _Lin(), None, path)
        else:
            buffer = _Buffer(value, value, _Lin(ext[0] * width),
                             _Lin((ext[0] + ext[1]) * width), path)
        self.buffers.append(buffer)
        self.values[value] = (buffer, _Lin())

    def _info(self, value: SSAValue, path: tuple[tuple[Block, int], ...]):
        if value not in self.values:
            self._root(value, path)
        return self.values[value]

    def _view(self, op: Operation, source: SSAValue, path) -> None:
        result = op.results[0]
        if not isinstance(result.type, MemRefType) or not isinstance(source.type, MemRefType):
            for r in op.results:
                self._root(r, path)
            return
        buffer, base = self._info(source, path)
        width = _element_bytes(result.type)
        if isinstance(op, memref.ViewOp | memref.ReinterpretCastOp):
            lo, hi = _Lin(), None
            if isinstance(op, memref.ViewOp):
                base = None if base is None else base + _linear(op.byte_shift)
                ext = _elements(result.type, op.sizes)
                symbolic = None if ext is not None else _extent(result.type, op.sizes)
                if base is not None and symbolic is not None:
                    lo, hi = base, base + symbolic.scale(width)
            else:
                ext = _elements(result.type)
            if base is not None and ext is not None:
                lo = base + _Lin(ext[0] * width)
                hi = base + _Lin((ext[0] + ext[1]) * width)
            new = _Buffer(result, buffer.root, lo, hi, path)
            self.buffers.append(new)
            self.values[result] = (new, base)
        else:
            self.values[result] = (buffer, base)
            if isinstance(op, memref.SubviewOp) or source in self.partial:
                self.partial.add(result)
        for r in op.results[1:]:
            self._root(r, path)

    def _access(self, op, value, write, path) -> None:
        if not isinstance(value.type, MemRefType):
            return
        buffer, _ = self._info(value, path)
        stream = stream_of(op)
        fresh = write and value not in self.partial and all(
            isinstance(o.type, MemRefType) or o is stream for o in op.operands)
        buffer.accesses.append(_Access(
            op, buffer, write, stream, synchronized_stream(op), path, self.order, fresh
        ))

    def _escape(self, op: Operation, value: SSAValue, path) -> None:
        if isinstance(value.type, MemRefType):
            buffer, _ = self._info(value, path)
            if buffer.escapes_at is None:
                buffer.escapes_at = op

    def _walk_block(self, block: Block, outer: tuple[tuple[Block, int], ...]) -> None:
        info = self.blocks[block] = _Block()
        for arg in block.args:
            self._root(arg, (*outer, (block, -1)))
        for i, op in enumerate(block.ops):
            info.ops.append(op)
            info.index[op] = i
            path = (*outer, (block, i))
            self.order += 1
            waits = synchronized_stream(op)
            if waits is not None:
                info.sync_at.append(i)
                info.sync_for.append(waits)
            self._visit(op, path)
            for region in op.regions:
                for inner in region.blocks:
                    self._walk_block(inner, path)

    def _visit(self, op: Operation, path) -> None:
        source = view_source(op)
        if source is not None and op.results:
            self._view(op, source, path)
            return
        for result in op.results:
            self._root(result, path)
        buffers = [v for v in op.operands if isinstance(v.type, MemRefType)]
        if not buffers:
            return
        # An unregistered op using a buffer is no return: its effects are unknown.
        if op.has_trait(IsTerminator, value_if_unregistered=False):
            parent = op.parent_op()
            if parent is not None and get_interface(parent, CallableOpInterface) is not None:
                # Returned: the caller reads it once the runtime synchronized.
                for value in buffers:
                    self._returned(op, value, path)
            else:
                for value in buffers:
                    self._escape(op, value, path)
            return
        if op.regions:
            for value in buffers:
                self._escape(op, value, path)
            return
        effects = memory_effects(op)
        if effects is None:
            for value in buffers:
                self._escape(op, value, path)
            return
        for effect in effects:
            if effect.kind not in (MemoryEffectKind.READ, MemoryEffectKind.WRITE):
                continue
            write = effect.kind == MemoryEffectKind.WRITE
            targets = buffers if effect.value is None else [effect.value]
            for value in targets:
                self._access(op, value, write, path)
        # A buffer operand no effect names may have its address kept or stored as a
        # value (`memref.store %buf, %box[..]`), unless the op reads only metadata.
        if any(e.value is None for e in effects) or captures_no_address(op):
            return
        tied = {e.value for e in effects}
        for value in buffers:
            if value not in tied:
                self._escape(op, value, path)

    def _returned(self, op: Operation, value: SSAValue, path) -> None:
        buffer, _ = self._info(value, path)
        buffer.accesses.append(_Access(op, buffer, False, None, ALL_STREAMS, path, self.order))

    def finish(self, terminator: Operation | None) -> None:
        """Memref arguments are outputs too: the caller reads them after the call."""
        if terminator is None:
            return
        block = terminator.parent_block()
        assert block is not None
        path = ((block, self.blocks[block].index[terminator]),)
        for arg in self.args:
            if isinstance(arg.type, MemRefType) and arg in self.values:
                self._returned(terminator, arg, path)


# ------------------------------------------------------------------ ordering


def _repeats(op: Operation) -> bool:
    return bool(op.regions) and not isinstance(op, _ONCE)


def _contains(ancestor: Operation, path: Sequence[tuple[Block, int]]) -> bool:
    """Whether the position `path` lies inside `ancestor`'s regions."""
    for block, _ in path:
        if block.parent_op() is ancestor:
            return True
    return False


class _Checker:
    def __init__(self, fn: _Function):
        self.fn = fn
        self.violations: list[Violation] = []
        self._seen: set[tuple[Operation, Operation]] = set()

    def _waits_between(self, stream, first: _Access, second: _Access, level: int,
                       divergence: tuple[int, int] | None) -> bool:
        """A wait for `stream` runs after `first` and before `second`.

        Levels deeper than `level` on first's path contribute the ops after it in
        their block, on second's path the ops before it; `divergence` is the pair of
        indexes in the block at `level` (same iteration) or None (across iterations,
        where the deeper levels start at `level`)."""
        fn = self.fn
        start = level + 1 if divergence is not None else level
        for block, index in first.path[start:]:
            if fn.blocks[block].any_sync(stream, index, inf):
                return True
        for block, index in second.path[start:]:
            if fn.blocks[block].any_sync(stream, -inf, index):
                return True
        if divergence is not None:
            block = first.path[level][0]
            if fn.blocks[block].any_sync(stream, divergence[0], divergence[1]):
                return True
        return second.waits is ALL_STREAMS or second.waits is stream

    def _before(self, first: _Access, second: _Access, level: int, divergence) -> bool:
        if first.stream is None:
            return True
        if second.stream is first.stream:
            return True
        return self._waits_between(first.stream, first, second, level, divergence)

    def _report(self, later: _Access, earlier: _Access, why: str,
                instances: bool = False) -> None:
        key = (later.op, earlier.op)
        if key in self._seen:
            return
        self._seen.add(key)
        a, b = later.buffer, earlier.buffer
        if a is b and instances:
            what = f"the bytes of {a.name()} by two of its instances"
        elif a is b:
            what = (f"{a.name()} (a race within one buffer: the input races, or slot "
                    "reuse merged two buffers into it)")
        else:
            what = (f"overlapping bytes of {b.name()} and {a.name()} "
                    f"(both in {_value_name(a.root)})")
        self.violations.append(Violation(
            later.op, earlier.op,
            f"unordered accesses to {what}: {later.describe()} and {earlier.describe()}; {why}",
        ))

    def _why(self, first: _Access, second: _Access) -> str:
        if first.stream is None:
            return "they may run in any order"
        engine = "host" if second.stream is None else "other stream's"
        return (f"the {engine} {'write' if second.write else 'read'} may happen before "
                f"the enqueued {'write' if first.write else 'read'} runs: no op between "
                f"them waits for stream {_value_name(first.stream)}")

    def check_pair(self, x: _Access, y: _Access, same_instance_rule: bool,
                   distinct: bool) -> bool:
        """Check every execution of x against every execution of y; return whether a
        violation was found. `distinct`: x and y belong to different buffers."""
        if x.op is y.op:
            if distinct:
                self._report(y, x, "one op accesses both buffers")
                return True
            return False
        found = False
        depth = 0
        limit = min(len(x.path), len(y.path))
        while depth < limit and x.path[depth] == y.path[depth]:
            depth += 1
        must = distinct or same_instance_rule
        if depth == limit:  # one op contains the other
            if must:
                self._report(y, x, "one access is inside the op of the other")
                return True
            return False
        root = x.buffer.root
        # Loops around both accesses: iteration i against i' > i.
        for level in range(depth):
            block, index = x.path[level]
            loop = self.fn.blocks[block].ops[index] if index >= 0 else None
            if loop is None or not _repeats(loop):
                continue
            if _root_inside(root, loop):
                continue
            if distinct:
                cross_distinct = True
            else:
                cross_distinct = _contains(loop, x.buffer.def_path)
            if not cross_distinct and not same_instance_rule:
                continue
            for first, second in ((x, y), (y, x)):
                if not self._before(first, second, level + 1, None):
                    self._report(second, first, self._why(first, second)
                                 + " (in consecutive iterations of the loop at "
                                 f"{location_of(loop)})", instances=cross_distinct)
                    found = True
        # The same iteration.
        bx, ix = x.path[depth]
        by, iy = y.path[depth]
        if bx is not by:
            parent = bx.parent_op()
            exclusive = (parent is not None and not _repeats(parent)
                         and bx.parent_region() is not by.parent_region())
            if not exclusive and must:
                self._report(y, x, "they are in different blocks of one region")
                return True
            return found
        if not must:
            return found
        first, second = (x, y) if ix < iy else (y, x)
        if not self._before(first, second, depth, (min(ix, iy), max(ix, iy))):
            self._report(second, first, self._why(first, second))
            found = True
        return found

    def check(self) -> None:
        by_root: dict[SSAValue, list[_Buffer]] = {}
        for buffer in self.fn.buffers:
            if buffer.accesses or buffer.escapes_at is not None:
                by_root.setdefault(buffer.root, []).append(buffer)
        for buffers in by_root.values():
            for buffer in buffers:
                self._check_one(buffer)
            # Constant ranges by a sweep; the others against every buffer.
            fixed = [b for b in buffers if b.lo.constant() is not None
                     and b.hi is not None and b.hi.constant() is not None]
            fixed.sort(key=lambda b: b.lo.const)
            for i, a in enumerate(fixed):
                for b in fixed[i + 1:]:
                    if b.lo.const >= a.hi.const:  # type: ignore[union-attr]
                        break
                    if a.hi.const > a.lo.const and b.hi.const > b.lo.const:  # type: ignore[union-attr]
                        self._check_two(a, b)
            others = [b for b in buffers if not any(b is f for f in fixed)]
            for i, a in enumerate(others):
                for b in (*fixed, *others[i + 1:]):
                    if not _disjoint(a, b):
                        self._check_two(a, b)

    def _check_one(self, buffer: _Buffer) -> None:
        """Every pair of accesses of one buffer with a write in it: two reads cannot
        race, and a weight read by every layer has thousands of them."""
        accesses = buffer.accesses
        writes = [i for i, access in enumerate(accesses) if access.write]
        for i in writes:
            for j, other in enumerate(accesses):
                if j == i or (other.write and j < i):
                    continue  # itself, or a write pair already checked
                x, y = (accesses[i], other) if i < j else (other, accesses[i])
                self.check_pair(x, y, same_instance_rule=True, distinct=False)

    def _check_two(self, a: _Buffer, b: _Buffer) -> None:
        for escaping, other in ((a, b), (b, a)):
            if escaping.escapes_at is not None:
                key = (escaping.escapes_at, other.head)
                if key not in self._seen:
                    self._seen.add(key)
                    self.violations.append(Violation(
                        escaping.escapes_at,
                        other.accesses[0].op if other.accesses else escaping.escapes_at,
                        f"{escaping.name()} escapes to '{escaping.escapes_at.name}' at "
                        f"{location_of(escaping.escapes_at)}, which may access it at any "
                        f"time, but shares bytes of {_value_name(a.root)} with "
                        f"{other.name()}",
                    ))
                return
        found = False
        for x in a.accesses:
            for y in b.accesses:
                found |= self.check_pair(x, y, same_instance_rule=True, distinct=True)
        if not found:
            self._check_interleaving(a, b)

    def _check_interleaving(self, a: _Buffer, b: _Buffer) -> None:
        level = 0
        pa, pb = a.def_path, b.def_path
        while level < min(len(pa), len(pb)) and pa[level][0] is pb[level][0]:
            if pa[level] != pb[level]:
                break
            level += 1
        # `level` indexes the deepest common block of both definitions.
        if level == min(len(pa), len(pb)):
            level -= 1
        found = _interleaved(a.accesses, b.accesses, level, None)
        if found == "order" and _fresh_generations(a, b, level):
            return
        if found:
            starts = {id(buf): min(s.order for s in buf.accesses) for buf in (a, b)}
            first, second = (a, b) if starts[id(a)] <= starts[id(b)] else (b, a)
            inner = min(second.accesses, key=lambda s: s.order)
            outer = max(first.accesses, key=lambda s: s.order)
            self._report(inner, outer,
                         f"accesses of {second.name()} lie between accesses of "
                         f"{first.name()} to the same bytes")


def _disjoint(a: _Buffer, b: _Buffer) -> bool:
    """A proof that the byte ranges of `a` and `b` share no byte (or one is empty)."""
    for x, y in ((a, b), (b, a)):
        if x.hi is not None and (x.lo - x.hi).nonnegative():
            return True  # empty
        if x.hi is not None and (y.lo - x.hi).nonnegative():
            return True
    return False


def _root_inside(root: SSAValue, loop: Operation) -> bool:
    """Whether the root is defined inside `loop` (then each iteration has its own)."""
    op = root.op if isinstance(root, OpResult) else root.owner.parent_op()
    while op is not None:
        if op is loop:
            return True
        op = op.parent_op()
    return False


def _interleaved(xs: list[_Access], ys: list[_Access], level: int,
                 direction: str | None) -> str | None:
    """Whether accesses of two buffers interleave in program order, lifting each to
    its ancestor in the block at `level` of its path: "loop" when a loop around
    both does it, "order" when their order in one block does, else None."""
    xs = [s for s in xs if len(s.path) > level]
    ys = [s for s in ys if len(s.path) > level]
    if not xs or not ys:
        return None
    px = [s.path[level][1] for s in xs]
    py = [s.path[level][1] for s in ys]
    for forward, (pa, pb, sa, sb) in (("xy", (px, py, xs, ys)), ("yx", (py, px, ys, xs))):
        if direction not in (None, forward):
            continue
        if max(pa) < min(pb):
            return None
        if max(pa) == min(pb):
            shared = max(pa)
            op = _op_at(sa, level, shared)
            if not op.regions:
                return None  # one op touching both: reported as a pair
            if _repeats(op):
                return "loop"
            outside = any(p != shared for p in pa) or any(p != shared for p in pb)
            inner_direction = forward if outside else direction
            inner_a = [s for s in sa if s.path[level][1] == shared]
            inner_b = [s for s in sb if s.path[level][1] == shared]
            for region in op.regions:
                for block in region.blocks:
                    ia = [s for s in inner_a if s.path[level + 1][0] is block]
                    ib = [s for s in inner_b if s.path[level + 1][0] is block]
                    first, second = (ia, ib) if forward == "xy" else (ib, ia)
                    found = _interleaved(first, second, level + 1, inner_direction)
                    if found:
                        return found
            return None
    return "order"


def _fresh_generations(a: _Buffer, b: _Buffer, level: int) -> bool:
    """Whether two buffers that alternate in program order only ever come back
    with writes that cover them before any read: slot reuse that replaced buffers
    by one value makes one logical buffer of several original ones, and each later
    one starts by writing all of itself."""
    accesses = sorted((*a.accesses, *b.accesses), key=lambda s: s.order)
    seen: set[int] = set()
    previous: _Buffer | None = None
    for i, access in enumerate(accesses):
        buffer = access.buffer
        if buffer is not previous:
            if id(buffer) in seen and not _covered_before_read(
                [s for s in accesses[i:] if s.buffer is buffer], level
            ):
                return False
            seen.add(id(buffer))
            previous = buffer
    return True


def _covered_before_read(accesses: list[_Access], level: int) -> bool:
    """The accesses (in program order) write every element before reading one:
    a fresh whole write, host stores at constant indices, or a loop at `level`
    from 0 to the size by 1 storing at its induction variable and reading nothing
    of the buffer."""
    if not accesses:
        return True
    head = accesses[0].buffer.head
    t = head.type
    if not isinstance(t, MemRefType) or not t.has_static_shape():
        count = None
    else:
        count = prod(t.get_shape())
    covered: set[int] = set()
    for access in accesses:
        if not access.write:
            return False
        if access.fresh and len(access.path) == level + 1:
            return True
        op = access.op
        if count is None or not isinstance(op, memref.StoreOp) or op.memref is not head:
            return False
        indices = [_constant(i) for i in op.indices]
        if len(access.path) == level + 1 and None not in indices:
            flat = 0
            for index, size in zip(indices, t.get_shape()):
                flat = flat * size + index  # type: ignore[operator]
            covered.add(flat)
        elif len(access.path) == level + 2 and len(op.indices) == 1:
            loop = op.parent_op()
            if not (isinstance(loop, scf.ForOp) and op.indices[0] is loop.body.block.args[0]
                    and _constant(loop.lb) == 0 and _constant(loop.step) == 1
                    and _constant(loop.ub) == count):
                return False
            inside = [s for s in accesses if s.op.parent_op() is loop]
            return all(s.write for s in inside)
        else:
            return False
        if len(covered) == count:
            return True
    return False


def _op_at(accesses: list[_Access], level: int, index: int) -> Operation:
    """The ancestor, in the block at `level`, of the access lifted to `index`."""
    for access in accesses:
        block, i = access.path[level]
        if i == index:
            op: Operation | None = access.op
            while op is not None and op.parent_block() is not block:
                op = op.parent_op()
            assert op is not None
            return op
    raise AssertionError("no access at that index")


# ------------------------------------------------------------------- the pass


def check_module(module: ModuleOp) -> list[Violation]:
    """Every violation of DESIGN.md section 2 in the module's functions."""
    violations: list[Violation] = []
    for op in module.walk():
        callable_ = get_interface(op, CallableOpInterface)
        if callable_ is None:
            continue
        region = callable_.get_callable_region(op)
        if not region.blocks:
            continue
        top = region.blocks.first
        assert top is not None
        fn = _Function(top.ops, top)
        if len(region.blocks) > 1:
            for block in list(region.blocks)[1:]:
                fn._walk_block(block, ())
        # An unregistered last op may be the terminator: the arguments are outputs.
        terminator = top.last_op if top.last_op is not None and top.last_op.has_trait(
            IsTerminator, value_if_unregistered=True) else None
        fn.finish(terminator)
        checker = _Checker(fn)
        checker.check()
        violations.extend(checker.violations)
    return violations


@dataclass(frozen=True)
class VerifyMemoryPlan(MemplanPass):
    """Fail when two accesses to the same bytes of different buffers may race."""

    name = "verify-memory-plan"

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        violations = check_module(module)
        for violation in violations:
            for diagnostic in violation.diagnostics():
                emit(diagnostic)
        if violations:
            first = violations[0].later
            while first.parent_op() is not None and get_interface(
                first, CallableOpInterface
            ) is None:
                first = first.parent_op()
            raise UserError(
                f"verify-memory-plan: {len(violations)} unordered pair(s) of accesses "
                "to shared bytes (see the errors above)",
                op=first,
            )
        return False
