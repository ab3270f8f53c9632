"""The plan checker's rules: which pairs of accesses to shared bytes race.

For two dynamic accesses X before Y in program order, X happens before Y when X
runs on the host, when both run on the same stream, or when an op that waits for
X's stream surely runs between them (DESIGN.md section 2). Structured control flow
follows `HostInlineRegions`: a branch's regions never both run; a loop's run again,
so iteration i is checked against iteration i+1; blocks of one region (a CFG) and
the regions of a non-branch (`scf.while`'s two) may run in either order, so each
access must be ordered before the other by its own block. See
docs/design/verify-memory-plan.md for what is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import inf, prod

from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.traits import CallableOpInterface

from memplan.checker.expressions import Expr, constant
from memplan.checker.model import (
    Access,
    Buffer,
    CallSummary,
    Function,
    Violation,
    op_label,
    value_name,
)
from memplan.diagnostics import location_of
from memplan.interfaces import (
    ALL_STREAMS,
    counted_loop,
    element_access,
    get_interface,
    host_inline_regions,
)
from memplan.symbols import SymbolIndex, SymbolRefScanner

__all__ = ["check_module"]


def _repeats(op: Operation) -> bool:
    """Whether `op`'s regions may run several times per execution (a loop). An op
    with regions that declares nothing runs its regions anywhere; accesses inside it
    are escapes (`Function`), so no access is ever nested in one."""
    inline = host_inline_regions(op)
    return bool(op.regions) and (inline is None or inline.repeats)


def _exclusive(op: Operation | None) -> bool:
    """Whether at most one of `op`'s regions runs per execution (a branch)."""
    inline = None if op is None else host_inline_regions(op)
    return inline is not None and inline.exclusive


def _contains(ancestor: Operation, path: Sequence[tuple[Block, int]]) -> bool:
    """Whether the position `path` lies inside `ancestor`'s regions."""
    for block, _ in path:
        if block.parent_op() is ancestor:
            return True
    return False


class _Checker:
    def __init__(self, fn: Function):
        self.fn = fn
        self.violations: list[Violation] = []
        self._seen: set[tuple[Operation, Operation]] = set()

    def _waits_between(self, stream, first: Access, second: Access, level: int,
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

    def _before(self, first: Access, second: Access, level: int, divergence) -> bool:
        if first.stream is None:
            return True
        if second.stream is first.stream:
            return True
        return self._waits_between(first.stream, first, second, level, divergence)

    def _report(self, later: Access, earlier: Access, why: str,
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
                    f"(both in {value_name(a.root) if a.root is b.root else a.where()})")
        self.violations.append(Violation(
            later.op, earlier.op,
            f"unordered accesses to {what}: {later.describe()} and {earlier.describe()}; {why}",
        ))

    def _why(self, first: Access, second: Access) -> str:
        if first.stream is None:
            return "they may run in any order"
        engine = "host" if second.stream is None else "other stream's"
        return (f"the {engine} {'write' if second.write else 'read'} may happen before "
                f"the enqueued {'write' if first.write else 'read'} runs: no op between "
                f"them waits for stream {value_name(first.stream)}")

    def check_pair(self, x: Access, y: Access, same_instance_rule: bool,
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
            # Blocks of one region (a CFG) or regions of one op run in an order the
            # checker does not follow, perhaps both ways: each access must be ordered
            # before the other by what its own block does after or before it.
            # Regions of a branch never both run.
            if _exclusive(bx.parent_op()) and bx.parent_region() is not by.parent_region():
                return found
            if not must:
                return found
            for first, second in ((x, y), (y, x)):
                if not _may_follow(first.path[depth][0], second.path[depth][0]):
                    continue
                if not self._before(first, second, depth, None):
                    self._report(second, first, self._why(first, second)
                                 + " (in blocks that may run in either order)")
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
        by_group: dict[object, list[Buffer]] = {}
        for buffer in self.fn.buffers:
            if buffer.accesses or buffer.escapes_at is not None:
                by_group.setdefault(buffer.group, []).append(buffer)
                self._check_bounds(buffer)
        for buffers in by_group.values():
            for buffer in buffers:
                self._check_one(buffer)
            # Constant ranges by byte cells and time order; the others against
            # every buffer.
            fixed = [b for b in buffers if b.lo is not None and b.lo.constant() is not None
                     and b.hi is not None and b.hi.constant() is not None]
            self._check_fixed(fixed)
            fixed_ids = {id(b) for b in fixed}
            others = [b for b in buffers if id(b) not in fixed_ids]
            for i, a in enumerate(others):
                for b in (*fixed, *others[i + 1:]):
                    if not _disjoint(a, b):
                        self._check_two(a, b)

    def _check_fixed(self, fixed: list[Buffer]) -> None:
        """Every pair of buffers of constant byte ranges that share a byte, or a
        subset whose order implies the rest, in time linear in the buffers for a plan
        that reuses bytes in turn (a pool of thousands of buffers in a few dozen
        slots: all pairs per slot would be quadratic).

        The bytes are cut into cells at every range's ends; the buffers covering a
        cell all share its bytes. A buffer whose accesses all lie in one block (at
        the top of their paths) spans the positions of the ops there that hold
        them; sorted by span, the buffers of a cell form components of overlapping
        spans. Every pair within a component is checked, and every pair of two
        consecutive components. That suffices: between components the spans are
        disjoint, so each access of one runs in an earlier op of the block than each
        of the other, and "x happens before y" (x on the host; the same stream; or a
        wait for x's stream between them, DESIGN.md section 2) is then transitive: a
        wait between x and y is also between x and any later z, as long as it runs
        whenever x does (after x in x's own blocks, or in the block itself, or y
        waits in the block). So the checked pairs of consecutive components order
        every pair of components. Buffers whose accesses lie in several blocks, that
        are accessed inside an op with a wait inside (a wait there may not run while
        a later access does: a branch not taken, a loop run zero times), and
        escaping ones, are checked against every buffer they share a byte with. A cell where a race is found has all its
        pairs checked, so that each racing pair is reported."""
        live = [b for b in fixed if b.hi.const > b.lo.const]  # type: ignore[union-attr]
        live.sort(key=lambda b: b.lo.const)  # type: ignore[union-attr]
        checked: set[tuple[int, int]] = set()

        def check(a: Buffer, b: Buffer) -> None:
            key = (id(a), id(b)) if id(a) < id(b) else (id(b), id(a))
            if key not in checked:
                checked.add(key)
                self._check_two(a, b)

        blocks_of = self.fn.blocks

        def unconditional(a: Access) -> bool:
            """Whether every wait that may order `a` after an earlier access runs
            whether or not `a` does: no wait inside the ops around it (one there
            runs only when they run their regions, perhaps zero times)."""
            if len(a.path) == 1:
                return True
            return a.waits is None and not any(blocks_of[blk].sync_at for blk, _ in a.path[1:])

        spans: dict[int, tuple[Block, int, int] | None] = {}
        for b in live:
            blocks = {a.path[0][0] for a in b.accesses}
            if (b.escapes_at is not None or len(blocks) != 1
                    or not all(unconditional(a) for a in b.accesses)):
                spans[id(b)] = None
                continue
            positions = [a.path[0][1] for a in b.accesses]
            spans[id(b)] = (blocks.pop(), min(positions), max(positions))
        bounds = sorted({b.lo.const for b in live} | {b.hi.const for b in live})  # type: ignore[union-attr]
        cell_of = {v: i for i, v in enumerate(bounds)}
        cells: list[list[Buffer]] = [[] for _ in range(max(0, len(bounds) - 1))]
        for b in live:
            for c in range(cell_of[b.lo.const], cell_of[b.hi.const]):  # type: ignore[union-attr]
                cells[c].append(b)
        seen_cells: set[tuple[int, ...]] = set()
        for members in cells:
            ident = tuple(id(b) for b in members)
            if len(members) < 2 or ident in seen_cells:
                continue
            seen_cells.add(ident)
            found, seen = len(self.violations), set(self._seen)
            self._check_cell(members, spans, check)
            if len(self.violations) > found:
                # A race breaks the implication: every pair of the cell instead, in
                # the order of their ranges, so that each racing pair is reported.
                del self.violations[found:]
                self._seen = seen
                for i, a in enumerate(members):
                    for b in members[i + 1:]:
                        self._check_two(a, b)
                        checked.add((id(a), id(b)) if id(a) < id(b) else (id(b), id(a)))

    def _check_cell(
        self, members: list[Buffer], spans: dict[int, tuple[Block, int, int] | None],
        check: Callable[[Buffer, Buffer], None],
    ) -> None:
        """The pairs of one cell's buffers that imply the others (`_check_fixed`)."""
        by_block: dict[Block, list[Buffer]] = {}
        irregular: list[Buffer] = []
        for b in members:
            span = spans[id(b)]
            if span is None:
                irregular.append(b)
            else:
                by_block.setdefault(span[0], []).append(b)
        for b in irregular:
            for other in members:
                if other is not b:
                    check(b, other)
        if len(by_block) > 1:
            groups = list(by_block.values())
            for i, group in enumerate(groups):
                for other_group in groups[i + 1:]:
                    for a in group:
                        for b in other_group:
                            check(a, b)
        for group in by_block.values():
            group.sort(key=lambda b: spans[id(b)][1:])  # type: ignore[index]
            components: list[list[Buffer]] = []
            end = -1
            for b in group:
                _, first, last = spans[id(b)]  # type: ignore[misc]
                if components and first <= end:
                    components[-1].append(b)
                    end = max(end, last)
                else:
                    components.append([b])
                    end = last
            for k, component in enumerate(components):
                for i, a in enumerate(component):
                    for b in component[i + 1:]:
                        check(a, b)
                if k + 1 < len(components):
                    for a in component:
                        for b in components[k + 1]:
                            check(a, b)

    def _check_bounds(self, buffer: Buffer) -> None:
        """A buffer placed past the end of its root's bytes (then it overlaps whatever
        lies there)."""
        if buffer.limit is None or buffer.hi is None or buffer.head is buffer.root:
            return
        if (buffer.hi - buffer.limit - Expr(1)).nonnegative() and buffer.accesses:
            first = min(buffer.accesses, key=lambda a: a.order)
            self.violations.append(Violation(
                first.op, first.op,
                f"{buffer.name()} reaches past the end of {buffer.where()}: its bytes "
                "end after the bytes asked for",
            ))

    def _check_one(self, buffer: Buffer) -> None:
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

    def _check_two(self, a: Buffer, b: Buffer) -> None:
        for escaping, other in ((a, b), (b, a)):
            if escaping.escapes_at is not None:
                key = (escaping.escapes_at, other.head)
                if key not in self._seen:
                    self._seen.add(key)
                    self.violations.append(Violation(
                        escaping.escapes_at,
                        other.accesses[0].op if other.accesses else escaping.escapes_at,
                        f"{escaping.name()} escapes to '{op_label(escaping.escapes_at)}' at "
                        f"{location_of(escaping.escapes_at)}, which may access it at any "
                        f"time, but shares bytes of {a.where()} with "
                        f"{other.name()}",
                    ))
                return
        found = False
        for x in a.accesses:
            for y in b.accesses:
                found |= self.check_pair(x, y, same_instance_rule=True, distinct=True)
        if not found:
            self._check_interleaving(a, b)

    def _check_interleaving(self, a: Buffer, b: Buffer) -> None:
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


def _may_follow(first: Block, second: Block) -> bool:
    """Whether `second` may run after `first`: always for blocks of different
    regions of one op (a loop's regions alternate), else when `second` is reachable
    from `first` through successors in their region."""
    if first.parent_region() is not second.parent_region():
        return True
    seen = {first}
    pending = [first]
    while pending:
        block = pending.pop()
        last = block.last_op
        for successor in () if last is None else last.successors:
            if successor is second:
                return True
            if successor not in seen:
                seen.add(successor)
                pending.append(successor)
    return False


def _disjoint(a: Buffer, b: Buffer) -> bool:
    """A proof that the byte ranges of `a` and `b` share no byte (or one is empty)."""
    for x, y in ((a, b), (b, a)):
        if x.hi is None or x.lo is None:
            continue
        if (x.lo - x.hi).nonnegative():
            return True  # empty
        if y.lo is not None and (y.lo - x.hi).nonnegative():
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


def _interleaved(xs: list[Access], ys: list[Access], level: int,
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


def _fresh_generations(a: Buffer, b: Buffer, level: int) -> bool:
    """Whether two buffers that alternate in program order only ever come back
    with writes that cover them before any read: slot reuse that replaced buffers
    by one value makes one logical buffer of several original ones, and each later
    one starts by writing all of itself."""
    accesses = sorted((*a.accesses, *b.accesses), key=lambda s: s.order)
    seen: set[int] = set()
    previous: Buffer | None = None
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


def _covered_before_read(accesses: list[Access], level: int) -> bool:
    """The accesses (in program order) write every element before reading one:
    a fresh whole write, single-element writes (`ElementAccess`) at constant
    indices, or a counted loop (`CountedLoop`) at `level` from 0 to the size by 1
    writing the element at its induction variable and reading nothing of the
    buffer."""
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
        element = element_access(op)
        if count is None or element is None or element.buffer_of(op) is not head:
            return False
        at = element.indices_of(op)
        indices = [constant(i) for i in at]
        if len(access.path) == level + 1 and None not in indices:
            flat = 0
            for index, size in zip(indices, t.get_shape()):
                flat = flat * size + index  # type: ignore[operator]
            covered.add(flat)
        elif len(access.path) == level + 2 and len(at) == 1:
            loop = op.parent_op()
            counted = None if loop is None else counted_loop(loop)
            if counted is None or at[0] is not counted.induction_variable(loop):
                return False
            lower, upper, step = counted.bounds(loop)
            if (constant(lower), constant(step), constant(upper)) != (0, 1, count):
                return False
            inside = [s for s in accesses if s.op.parent_op() is loop]
            return all(s.write for s in inside)
        else:
            return False
        if len(covered) == count:
            return True
    return False


def _op_at(accesses: list[Access], level: int, index: int) -> Operation:
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


# ------------------------------------------------------------------- calls


def _bodies(module: ModuleOp) -> list[tuple[Operation, list[Block]]]:
    found = []
    for op in module.walk():
        callable_ = get_interface(op, CallableOpInterface)
        if callable_ is not None:
            region = callable_.get_callable_region(op)
            if region.blocks:
                found.append((op, list(region.blocks)))
    return found


def _own_summaries(fn: Function) -> list[tuple[object, int, CallSummary]]:
    """What `fn` does itself to context memory taken from its entry arguments:
    (identity, argument index, summary with the argument as context)."""
    found = []
    groups: dict[object, list[Buffer]] = {}
    for buffer in fn.buffers:
        if isinstance(buffer.group, tuple) and buffer.accesses:
            groups.setdefault(buffer.group, []).append(buffer)
    for (identity, context), buffers in groups.items():
        if context not in fn.args:
            continue
        accesses = [a for b in buffers for a in b.accesses]
        los = [b.lo.constant() if b.lo is not None else None for b in buffers]
        his = [b.hi.constant() if b.hi is not None else None for b in buffers]
        known = None not in los and None not in his
        found.append((identity, fn.args.index(context), CallSummary(
            identity, context,
            Expr(min(los)) if known else None,  # type: ignore[type-var]
            Expr(max(his)) if known else None,  # type: ignore[type-var]
            any(not a.write and a.stream is None for a in accesses),
            any(a.write and a.stream is None for a in accesses),
            any(not a.write and a.stream is not None for a in accesses),
            any(a.write and a.stream is not None for a in accesses),
            f"@{_symbol(fn.function)}'s '{buffers[0].memory or identity[0]}'",  # type: ignore[index]
            buffers[0].memory,
        )))
    return found


def _symbol(function: Operation) -> str:
    name = function.properties.get("sym_name") or function.attributes.get("sym_name")
    return getattr(name, "data", "?")


Summary = tuple[object, int, CallSummary]


def _call_summaries(
    module: ModuleOp, bodies
) -> tuple[dict[Operation, dict[Operation, list]], list[Violation]]:
    """For each function, each call-like op in it (naming a function whose body the
    module holds) and what that function and its callees do to the context memory
    of the contexts the call passes, as `CallSummary`s on the caller's values; and a
    violation at each call whose callee's context the checker cannot name among the
    call's operands (it cannot tell what the call touches)."""
    plain = {f: Function(f, blocks) for f, blocks in bodies}
    sites: dict[Operation, list[tuple[Operation, Operation]]] = {f: [] for f in plain}
    symbols = SymbolIndex(module)
    scanner = SymbolRefScanner()
    for f in plain:
        for op in f.walk():
            for ref in scanner.op_refs(op):
                target = symbols.lookup(ref)
                if target in plain:
                    sites[f].append((op, target))
    summaries = _function_summaries(plain, sites)
    result: dict[Operation, dict[Operation, list]] = {}
    unmapped: list[Violation] = []
    for f in plain:
        calls: dict[Operation, list] = {}
        for op, target in sites[f]:
            for identity, index, summary in summaries[target]:
                context = _mapped(op, target, index)
                if context is not None:
                    calls.setdefault(op, []).append(_at(summary, context))
                elif not any(v.later is op for v in unmapped):
                    unmapped.append(Violation(op, op, (
                        f"cannot map the callee's context: @{_symbol(target)} reaches "
                        f"{summary.label} on the context of its argument {index}, and this "
                        "call passes no single value of that argument's type")))
        result[f] = calls
    return result, unmapped


def _function_summaries(
    plain: dict[Operation, Function], sites: dict[Operation, list[tuple[Operation, Operation]]]
) -> dict[Operation, list[Summary]]:
    """Each function's summaries (its own and its callees', on its entry arguments),
    each computed once, callees first (reverse topological order of the call graph).
    A call back into a function whose summary is still being computed (recursion)
    is cut there: that function's accesses are its own call's."""
    summaries: dict[Operation, list[Summary]] = {}
    for root in plain:
        if root in summaries:
            continue
        in_progress = {root}
        stack = [(root, iter(sites[root]))]
        while stack:
            f, pending = stack[-1]
            target = next((t for _, t in pending if t not in summaries and t not in in_progress), None)
            if target is not None:
                in_progress.add(target)
                stack.append((target, iter(sites[target])))
                continue
            stack.pop()
            in_progress.discard(f)
            summaries[f] = _function_summary(plain[f], sites[f], summaries)
    return summaries


def _function_summary(
    fn: Function, sites: list[tuple[Operation, Operation]], done: dict[Operation, list[Summary]]
) -> list[Summary]:
    """`fn`'s own summaries and those of the callees in `done` that its calls map
    onto its entry arguments, each distinct one once."""
    found: dict[Summary, None] = dict.fromkeys(_own_summaries(fn))
    for op, target in sites:
        for identity, index, summary in done.get(target, ()):
            context = _mapped(op, target, index)
            if context is not None and context in fn.args:
                found[(identity, fn.args.index(context), _at(summary, context))] = None
    return list(found)


def _mapped(op: Operation, target: Operation, index: int) -> SSAValue | None:
    """The caller's value a call passes as the callee's argument `index`: the
    operand at that position when its type matches, else the only operand of the
    argument's type."""
    callable_ = get_interface(target, CallableOpInterface)
    assert callable_ is not None
    arg = callable_.get_callable_region(target).blocks[0].args[index]
    if index < len(op.operands) and op.operands[index].type == arg.type:
        return op.operands[index]
    same = [v for v in op.operands if v.type == arg.type]
    return same[0] if len(same) == 1 else None


def _at(summary: CallSummary, context: SSAValue) -> CallSummary:
    return CallSummary(summary.identity, context, summary.lo, summary.hi,
                       summary.host_reads, summary.host_writes, summary.device_reads,
                       summary.device_writes, summary.label, summary.memory)


def check_module(module: ModuleOp) -> list[Violation]:
    """Every violation of DESIGN.md section 2 in the module's functions."""
    bodies = _bodies(module)
    calls, violations = _call_summaries(module, bodies)
    for function, blocks in bodies:
        checker = _Checker(Function(function, blocks, calls.get(function)))
        checker.check()
        violations.extend(checker.violations)
    return violations
