"""When do accesses to a buffer happen? The host/device execution model as an analysis.

Program order is not execution order across the host/device boundary (DESIGN.md
section 2, docs/design/execution-model.md). An op that declares
`StreamExecution` is enqueued on an in-order stream and touches memory later; every
other op runs on the host, at once. For X before Y in program order:

1. host X, host Y: ordered;          2. host X, device Y: ordered;
3. device X, device Y, same stream: ordered;
4. device X on S, host Y (or device Y on another stream): ordered only when an op
   that waits for S (`StreamSynchronization`) lies between them.

Two buffers may occupy the same bytes only when every access to one happens before
every access to the other under these rules.

What the analysis records, for each buffer root of a block (`BlockOrdering.info`):

- every access, through any chain of views (`memplan.analysis.aliasing`), with its
  kind (a read or write effect tied to the value, `memplan.interfaces.memory_effects`)
  and where it runs (host, or the stream of `memplan.interfaces.stream_of`). An op
  that runs outlined bodies with it (`OutlinedBodies`: a runtime loop) reads and
  writes it both on the host and on every stream it hands the bodies. An
  access inside a nested region (a loop or branch body) counts at the op of the
  block that contains it, so a loop keeps its buffers busy for the whole loop, when
  every op around it declares `HostInlineRegions` (`memplan.analysis.regions`);
- why the buffer *escapes*, if it does: a user with unknown effects (an
  unregistered op among them), an effect not tied to a value, an op with regions
  that receives it, a use inside an op that may run its regions later or elsewhere
  (one that does not declare `HostInlineRegions`), a nested terminator that yields
  it, an op that may return an
  alias of it, an op with no effect tied to it that does not declare
  `NoAddressCapture` (it may turn the address into an integer or store it as a
  value), a use in another block. An escaping buffer may never share bytes;
- the block terminator that returns it, if any: such a buffer lives past the end of
  the block, so it may take bytes that are free but never gives its own away;
- the ops that free it (a FREE effect and nothing else), which a pass that merges
  buffers removes or retargets;
- a `Timing`: first and last host access, first and last access per stream.

Only synchronizing ops directly in the block count: one in a loop or branch body may
not run. Positions are keys, 2*i for the sync of the i-th op of the block and 2*i+1
for its accesses, so an op that waits for a stream and then reads (a read-back)
orders its own read after the device work before it; an op that waits once done
with its own accesses (`StreamSynchronization.after_accesses`: a runtime loop
reading its condition back) syncs at 2*i+2, after them and before the next op's.

Queries, none of which scans accesses:

- `precedes(a, b)`: every access of timing `a` happens before every access of `b`.
  O(s * (log k + s)) for s streams and k synchronizing ops; s is 1 in practice.
  Timings are closed under `union`, so a slot shared by several buffers is one
  timing and a candidate costs the same to test against it.
- `may_share(x, y)`: the two roots may occupy the same bytes (either order, neither
  escaping, a returned one only as the later).
- `conflict_graph(roots)`: for each root, the sorted indices of the roots it may
  NOT share bytes with (symmetric adjacency as numpy arrays; `conflicts` gives the
  same as pairs), by one sweep per stream and one for the host over the roots
  sorted by first access, in O((1 + s) * n log n) Python steps (plus list
  insertion) and one numpy sort of the pairs; for offset planners such as
  `pool-allocs`, which need the conflict graph rather than intervals. Escaping roots
  conflict with every other root, and returned roots with each other.
- `explain(a, b)`: why `a` does not precede `b`, for remarks.
"""

from __future__ import annotations

import bisect
import enum
import itertools
import operator
import sys
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass, field
from typing import NamedTuple

from memplan.lazy_numpy import np
from xdsl.dialects.builtin import MemRefType, UnrankedMemRefType
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator

from memplan.analysis.aliasing import alias_uses
from memplan.analysis.equivalence import op_name
from memplan.analysis.regions import deferring_ancestor
from memplan.diagnostics import location_of
from memplan.interfaces import (
    ALL_STREAMS,
    MemoryEffectKind,
    OutlinedBodies,
    StreamExecution,
    StreamSynchronization,
    captures_no_address,
    effect_pairs,
    get_interface,
    plannable_allocation,
    synchronized_stream,
)

__all__ = [
    "NEVER",
    "Access",
    "AccessKind",
    "BlockOrdering",
    "BufferInfo",
    "Escape",
    "Timing",
    "plannable_roots",
]

NEVER = sys.maxsize
"""The key of an access that never happens (a first access of a buffer that has
none) or of a synchronization that never comes."""


class AccessKind(enum.Enum):
    READ = "read"
    WRITE = "write"


class Access(NamedTuple):
    """One access to a buffer, through whichever alias (a tuple, cheap to build:
    one per access of every buffer)."""

    op: Operation
    """The op whose memory effect this is (perhaps nested in a region)."""
    anchor: Operation
    """`op` or its ancestor in the analysed block: where the access counts."""
    key: int
    kind: AccessKind
    stream: SSAValue | None
    """The stream it is enqueued on, None for the host."""


@dataclass(frozen=True)
class Escape:
    """Why a buffer may not share bytes with any other: `op` does something the
    analysis cannot follow."""

    op: Operation
    reason: str

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class Timing:
    """When a buffer (or a set of buffers sharing a slot) is accessed, as keys."""

    first_host: int = NEVER
    last_host: int = -1
    first_device: dict[SSAValue, int] = field(default_factory=dict)
    last_device: dict[SSAValue, int] = field(default_factory=dict)

    @property
    def first(self) -> int:
        return min(self.first_host, *self.first_device.values(), NEVER)

    @property
    def last(self) -> int:
        return max(self.last_host, *self.last_device.values(), -1)

    def first_except(self, stream: SSAValue) -> int:
        """The first access on the host or on a stream other than `stream`."""
        return min(
            self.first_host,
            *(k for s, k in self.first_device.items() if s is not stream),
            NEVER,
        )

    def union(self, other: Timing) -> Timing:
        """The timing of the accesses of both."""
        first_device = dict(self.first_device)
        for s, k in other.first_device.items():
            first_device[s] = min(first_device.get(s, NEVER), k)
        last_device = dict(self.last_device)
        for s, k in other.last_device.items():
            last_device[s] = max(last_device.get(s, -1), k)
        return Timing(
            min(self.first_host, other.first_host),
            max(self.last_host, other.last_host),
            first_device,
            last_device,
        )

    @staticmethod
    def of(accesses: Iterable[Access]) -> Timing:
        first_host, last_host = NEVER, -1
        # [stream, first, last] per stream, found by identity (a block has one
        # stream or few, and an SSAValue hashes in Python)
        streams: list[list] = []
        for access in accesses:
            k, s = access.key, access.stream
            if s is None:
                if k < first_host:
                    first_host = k
                if k > last_host:
                    last_host = k
                continue
            for entry in streams:
                if entry[0] is s:
                    break
            else:
                entry = [s, NEVER, -1]
                streams.append(entry)
            if k < entry[1]:
                entry[1] = k
            if k > entry[2]:
                entry[2] = k
        return Timing(
            first_host,
            last_host,
            {s: first for s, first, _ in streams},
            {s: last for s, _, last in streams},
        )


@dataclass(frozen=True)
class BufferInfo:
    """Everything the memory passes need to know about one buffer root."""

    root: SSAValue
    accesses: tuple[Access, ...]
    timing: Timing
    escape: Escape | None
    returned_by: Operation | None
    """The block's terminator, when it returns the buffer (through a view or not)."""
    frees: tuple[tuple[Operation, int], ...]
    """(op, operand index) of each op that frees the buffer."""
    defined_at: int
    """Index in the block of the op defining the root; -1 for a block argument."""
    last_use: int
    """Index in the block of the last op that uses it through views (frees aside),
    -1 when unused: the end of the buffer's interval in program order."""

    @property
    def escapes(self) -> bool:
        return self.escape is not None

    @property
    def host_accessed(self) -> bool:
        return any(a.stream is None for a in self.accesses)


# What `BlockOrdering._facts` finds a user to be, in the order it asks.
_RETURN, _YIELD, _REGIONS, _OUTLINED, _UNKNOWN, _UNTIED, _EFFECTS = (
    "return", "yield", "regions", "outlined", "unknown", "untied", "effects")

# Effect kinds as bits, by the kind's id (an enum member hashes in Python).
_READ, _WRITE, _FREE, _ALLOC, _OTHER = 1, 2, 4, 8, 16
_KIND_BITS = {
    id(MemoryEffectKind.READ): _READ,
    id(MemoryEffectKind.WRITE): _WRITE,
    id(MemoryEffectKind.FREE): _FREE,
    id(MemoryEffectKind.ALLOC): _ALLOC,
}

_KEY = operator.attrgetter("key")


def plannable_roots(block: Block | BlockOrdering) -> list[SSAValue]:
    """The results of the block's ops that are `PlannableAllocation`s, in order
    (from a `BlockOrdering`'s list of the ops when given one, rather than another
    walk of the block)."""
    ops = block.ops if isinstance(block, BlockOrdering) else [op for op in block.ops]
    models: dict[type, object] = {}  # the model of each op class, asked once
    roots: list[SSAValue] = []
    for op in ops:
        model = models.get(type(op), models)
        if model is models:
            model = models[type(op)] = plannable_allocation(op)
        if model is not None and op.results:
            roots.append(op.results[0])
    return roots


def _adjacency(
    n: int, sources: list[np.ndarray], targets: list[np.ndarray]
) -> tuple[np.ndarray, ...]:
    """Sorted, symmetric, duplicate-free neighbour arrays of `n` nodes from edge
    lists (either direction, duplicates and self-loops allowed)."""
    if not sources:
        empty = np.empty(0, dtype=np.int64)
        return tuple(empty for _ in range(n))
    a = np.concatenate(sources)
    b = np.concatenate(targets)
    keep = a != b
    a, b = a[keep], b[keep]
    keys = np.concatenate((a * n + b, b * n + a))
    keys.sort()  # (np.unique hashes first, several times slower on millions of keys)
    if len(keys):
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    rows, cols = np.divmod(keys, n)
    bounds = np.searchsorted(rows, np.arange(n + 1, dtype=np.int64))
    return tuple(cols[bounds[i]:bounds[i + 1]] for i in range(n))


def _may_return_alias(op: Operation) -> bool:
    return any(isinstance(r.type, MemRefType | UnrankedMemRefType) for r in op.results)


def _capture_reason(op: Operation, effects: Sized) -> str:
    """Why a use with no effect tied to the buffer escapes: the op may keep or pass
    on the address (`NoAddressCapture` says it does not)."""
    if effects:
        return (
            f"passed to '{op_name(op)}', whose memory effects are on other values: it may "
            "store or pass on its address"
        )
    return (
        f"its address is taken by '{op_name(op)}', which does not access it and does not "
        "declare that it reads only its metadata"
    )


class BlockOrdering:
    """The ordering facts of one block: positions, synchronizing points, and per-root
    `BufferInfo` (computed on first request, in time linear in its uses)."""

    def __init__(self, block: Block):
        self.block = block
        # (a comprehension: `list` asks the block's length first, a second walk)
        self.ops: list[Operation] = [op for op in block.ops]
        # Keyed by id: xDSL hashes ops and values in Python (`__hash__` returns
        # `id(self)`), which costs a call per lookup; the block keeps its ops alive.
        self._index = {id(op): i for i, op in enumerate(self.ops)}
        self._syncs: dict[object, list[int]] = {}
        self._sync_ops: list[Operation] = []
        waits: dict[type, object] = {}  # the model of each op class, asked once
        for i, op in enumerate(self.ops):
            model = waits.get(type(op), waits)
            if model is waits:
                model = waits[type(op)] = get_interface(op, StreamSynchronization)
            if model is None:
                continue  # (most ops do not wait)
            for key, stream in (
                (2 * i, synchronized_stream(op)),
                (2 * i + 2, synchronized_stream(op, after_accesses=True)),
            ):
                if stream is not None:
                    self._syncs.setdefault(stream, []).append(key)
                    self._sync_ops.append(op)
        self._infos: dict[int, BufferInfo] = {}
        """By the root's id (the info keeps the root alive)."""
        self._effects: dict[int, tuple] = {}
        """Each user's `_facts` by id (the entry keeps the user alive, so its id is
        not reused), asked once: a kernel is a user of every buffer it touches."""
        self._places: dict[int, tuple[Operation, int | Escape]] = {}
        """`_place` of each user nested in an op of the block (or outside it)."""
        self._classes: dict[type[Operation], tuple] = {}
        """`_models` of each op class met."""

    def _models(
        self, op: Operation
    ) -> tuple[bool, OutlinedBodies | None, StreamExecution | None]:
        """Whether `op`'s class is a terminator, and its `OutlinedBodies` and
        `StreamExecution` models, asked once per class (xDSL scans the class's
        traits on each `has_trait`). An unregistered op answers every `has_trait`
        with True: it is no return, but an op whose effects are unknown."""
        cls = type(op)
        known = self._classes.get(cls)
        if known is None:
            known = self._classes[cls] = (
                op.has_trait(IsTerminator, value_if_unregistered=False),
                get_interface(op, OutlinedBodies),
                get_interface(op, StreamExecution),
            )
        return known

    # ------------------------------------------------------------- positions

    def index(self, op: Operation) -> int | None:
        """The index in the block of `op` or of its ancestor there; None when `op`
        is not inside the block."""
        index = self._index
        while op is not None:
            i = index.get(id(op))
            if i is not None:
                return i
            op = op.parent_op()
        return None

    def next_sync(self, stream: SSAValue, key: int) -> int:
        """The key of the first op after `key` that waits for `stream`, or NEVER."""
        best = NEVER
        for sync_stream in (stream, ALL_STREAMS):
            keys = self._syncs.get(sync_stream)
            if keys:
                j = bisect.bisect_right(keys, key)
                if j < len(keys):
                    best = min(best, keys[j])
        return best

    def sync_points(self) -> list[Operation]:
        """The synchronizing ops of the block, in order."""
        return list(dict.fromkeys(self._sync_ops))

    # ------------------------------------------------------------- buffers

    def info(self, root: SSAValue) -> BufferInfo:
        cached = self._infos.get(id(root))
        if cached is None:
            cached = self._infos[id(root)] = self._collect(root)
        return cached

    def forget_effects(self) -> None:
        """Drop the memo of the users' effects, for a caller that has collected
        every `info` it asks for (a 20k-op decoder's memo holds 2.5 MiB of effect
        sets while the pass goes on to rewrite the block)."""
        self._effects.clear()
        self._places.clear()

    def _place(self, user: Operation) -> int | Escape:
        """The index of the op of the block where a use by `user`, which is not
        directly in the block, counts; or why it escapes: `user` is outside the
        block, or inside an op that may run its regions later or elsewhere."""
        i = self.index(user)
        if i is None:
            return Escape(user, f"used by '{op_name(user)}' outside its block")
        deferred = deferring_ancestor(user, self.block)
        if deferred is not None:
            return Escape(deferred, f"used inside '{op_name(deferred)}', which does not "
                          "declare that it runs its regions inline on the host")
        return i

    def _facts(self, user: Operation) -> tuple:
        """What `user` does with the buffers it takes, asked of the op once (a
        kernel is a user of every buffer it touches): `(user, category, ...)`, the
        categories tested in the order `_collect` documents; for `_EFFECTS`, the
        effect bits per value (by id; the tuple keeps the effects and so their
        values alive) and the stream."""
        terminator, outlined, stream_model = self._models(user)
        if terminator:
            facts: tuple = (user, _RETURN if user.parent_block() is self.block else _YIELD)
        elif user.regions:
            facts = (user, _REGIONS)
        elif outlined is not None and outlined.callees(user):
            facts = (user, _OUTLINED, (None, *outlined.streams(user)))
        else:
            effects = effect_pairs(user)
            bits: dict[int, int] | None = {}
            if effects is None:
                facts = (user, _UNKNOWN)
            else:
                for k, v in effects:
                    if v is None and k is not MemoryEffectKind.ALLOC:
                        bits = None
                        break
                    key = id(v)
                    bits[key] = bits.get(key, 0) | _KIND_BITS.get(id(k), _OTHER)
                if bits is None:
                    facts = (user, _UNTIED)
                else:
                    stream = None if stream_model is None else stream_model.stream(user)
                    facts = (user, _EFFECTS, bits, stream, effects)
        self._effects[id(user)] = facts
        return facts

    def _collect(self, root: SSAValue) -> BufferInfo:
        """One pass over the uses of `root` and its views; for each use, in order:
        a user outside the block or deferred escapes; a view extends the live range;
        a terminator returns it (or yields it out of a region: escapes); an op with
        regions escapes; outlined bodies read and write it; unknown or untied
        effects escape; a free is recorded (escapes with other effects); an
        allocation escapes; no effect tied to it escapes unless the op declares it
        takes no address; else its reads and writes are accesses. The first escape
        found is the reason."""
        accesses: list[Access] = []
        frees: list[tuple[Operation, int]] = []
        escape: Escape | None = None
        returned_by: Operation | None = None
        last_use = -1
        index = self._index
        memo = self._effects
        ops = self.ops
        for user, value, operand_index, is_view in alias_uses(root):
            i = index.get(id(user))
            if i is None:  # nested in an op of the block, or elsewhere
                known = self._places.get(id(user))
                if known is None:
                    known = self._places[id(user)] = (user, self._place(user))
                i = known[1]
                if not isinstance(i, int):
                    if escape is None:
                        escape = i
                    continue
            if is_view:
                if i > last_use:
                    last_use = i
                continue
            facts = memo.get(id(user))
            if facts is None:
                facts = self._facts(user)
            category = facts[1]
            if category is _EFFECTS:
                kinds = facts[2].get(id(value), 0)
                if kinds & _FREE:
                    if kinds != _FREE or user.results:
                        if escape is None:
                            escape = Escape(user, f"freed by '{op_name(user)}' together with "
                                            "other effects")
                    else:
                        frees.append((user, operand_index))
                    continue
                if i > last_use:
                    last_use = i
                if kinds & _ALLOC:
                    if escape is None:
                        escape = Escape(user, f"allocated again by '{op_name(user)}'")
                    continue
                if not kinds:
                    if escape is None:
                        if _may_return_alias(user):
                            escape = Escape(user, f"'{op_name(user)}' may return an alias of it")
                        elif not captures_no_address(user):
                            escape = Escape(user, _capture_reason(user, facts[4]))
                    continue
                stream = facts[3]
                if kinds & _READ:
                    accesses.append(Access(user, ops[i], 2 * i + 1, AccessKind.READ, stream))
                if kinds & _WRITE:
                    accesses.append(Access(user, ops[i], 2 * i + 1, AccessKind.WRITE, stream))
            elif category is _RETURN or category is _YIELD:
                if i > last_use:
                    last_use = i
                if category is _RETURN:
                    returned_by = user
                elif escape is None:
                    escape = Escape(user, f"yielded out of a nested region by '{op_name(user)}'")
            elif category is _OUTLINED:
                # The bodies may read and write it anywhere they can reach: on the
                # host while the op runs, and on the streams they are handed.
                if i > last_use:
                    last_use = i
                for stream in facts[2]:
                    for access_kind in (AccessKind.READ, AccessKind.WRITE):
                        accesses.append(Access(user, ops[i], 2 * i + 1, access_kind, stream))
            elif escape is None:
                if category is _REGIONS:
                    escape = Escape(user, f"passed into the regions of '{op_name(user)}'")
                elif category is _UNKNOWN:
                    escape = Escape(user, f"used by '{op_name(user)}', whose memory effects "
                                    "are unknown")
                else:
                    escape = Escape(user, f"used by '{op_name(user)}', which has an effect not "
                                    "tied to a value")

        accesses.sort(key=_KEY)
        owner = root.op if isinstance(root, OpResult) else None
        defined_at = index.get(id(owner), -1) if owner is not None else -1
        return BufferInfo(
            root,
            tuple(accesses),
            Timing.of(accesses),
            escape,
            returned_by,
            tuple(frees),
            defined_at,
            last_use,
        )

    # ------------------------------------------------------------- queries

    def precedes(self, a: Timing, b: Timing) -> bool:
        """Every access of `a` happens before every access of `b`."""
        if a.last_host >= b.first:
            return False
        for stream, last in a.last_device.items():
            if last >= b.first_device.get(stream, NEVER):
                return False
            other = b.first_except(stream)
            if other != NEVER and self.next_sync(stream, last) >= other:
                return False
        return True

    def may_share(self, x: SSAValue, y: SSAValue) -> bool:
        """Roots `x` and `y` may occupy the same bytes."""
        a, b = self.info(x), self.info(y)
        if a.escapes or b.escapes:
            return False
        return (a.returned_by is None and self.precedes(a.timing, b.timing)) or (
            b.returned_by is None and self.precedes(b.timing, a.timing)
        )

    def end(self, timing: Timing, stream: SSAValue | None) -> int:
        """The last key at which an access of `timing` may still be pending for a
        later access on `stream` (None: the host). A later access with a larger key
        is ordered after all of them."""
        end = timing.last_host
        for s, last in timing.last_device.items():
            end = max(end, last if s is stream else self.next_sync(s, last))
        return end

    def conflicts(self, roots: Sequence[SSAValue]) -> set[tuple[int, int]]:
        """Index pairs `(i, j)`, `i < j`, of `roots` that may not share bytes: the
        edges of `conflict_graph`, for callers and tests that want pairs."""
        return {
            (i, j)
            for i, neighbours in enumerate(self.conflict_graph(roots))
            for j in neighbours[neighbours > i].tolist()
        }

    def conflict_graph(self, roots: Sequence[SSAValue]) -> tuple[np.ndarray, ...]:
        """For each of `roots`, the sorted indices (int64) of the roots it may not
        share bytes with: a symmetric adjacency without self-loops, the form
        `memplan.planning.Problem.from_neighbours` takes as it is.

        Sorted by first access, a buffer B conflicts with an earlier-starting A
        exactly when, for the host or some stream, B's first access there is no
        later than `end(A, there)`. One sweep per place keeps the earlier buffers
        whose end has not passed, sorted by end, and reports the suffix as one list
        slice; the reported (B, A) edges are then mirrored, deduplicated across
        places and split into rows by one numpy sort. Python does O(n log n) work
        per place plus list copies; the pairs themselves are handled in bulk.
        """
        infos = [self.info(r) for r in roots]
        n = len(infos)
        sources: list[np.ndarray] = []
        targets: list[np.ndarray] = []
        live: list[int] = []
        returned_list: list[int] = []
        for i, info in enumerate(infos):
            if info.escape is not None:
                sources.append(np.full(n, i, dtype=np.int64))
                targets.append(np.arange(n, dtype=np.int64))
            else:
                live.append(i)
            if info.returned_by is not None:
                returned_list.append(i)
        # Returned buffers all live past the end of the block, accessed or not.
        returned = np.array(returned_list, dtype=np.int64)
        if len(returned) > 1:
            sources.append(np.repeat(returned, len(returned)))
            targets.append(np.tile(returned, len(returned)))
        timings = [info.timing for info in infos]
        firsts = [NEVER] * n
        streams: list[SSAValue] = []  # (by identity: an SSAValue hashes in Python)
        for i in live:
            timing = timings[i]
            firsts[i] = timing.first
            for stream in timing.first_device:
                if not any(stream is s for s in streams):
                    streams.append(stream)
        order = sorted(live, key=firsts.__getitem__)  # (stable: program order on ties)
        owners: list[int] = []
        chunks: list[list[int]] = []
        bisect_left, bisect_right = bisect.bisect_left, bisect.bisect_right
        for place in (None, *streams):
            ends: list[int] = []  # sorted; `members[k]` ends at `ends[k]`
            members: list[int] = []
            for j in order:
                timing = timings[j]
                passed = bisect_left(ends, firsts[j])
                if passed:
                    del ends[:passed], members[:passed]
                first_here = (
                    timing.first_host if place is None
                    else timing.first_device.get(place, NEVER)
                )
                if first_here != NEVER and members:
                    reached = members[bisect_left(ends, first_here):]
                    if reached:
                        owners.append(j)
                        chunks.append(reached)
                end = NEVER if infos[j].returned_by is not None else self.end(timing, place)
                if end >= 0:
                    k = bisect_right(ends, end)
                    ends.insert(k, end)
                    members.insert(k, j)
        if chunks:
            lengths = np.fromiter(map(len, chunks), dtype=np.int64, count=len(chunks))
            sources.append(np.repeat(np.array(owners, dtype=np.int64), lengths))
            targets.append(
                np.fromiter(
                    itertools.chain.from_iterable(chunks), dtype=np.int64, count=int(lengths.sum())
                )
            )
        return _adjacency(n, sources, targets)

    def explain(self, a: Timing, b: Timing) -> str | None:
        """Why `a` does not precede `b` (None when it does), naming the accesses."""
        if a.last_host >= b.first:
            return (
                f"it is accessed at {self._where(a.last_host)}, after this buffer's "
                f"first access at {self._where(b.first)}"
            )
        for stream, last in a.last_device.items():
            same = b.first_device.get(stream, NEVER)
            if last >= same:
                return (
                    f"its device access at {self._where(last)} is not enqueued before "
                    f"this buffer's at {self._where(same)}"
                )
            other = b.first_except(stream)
            if other != NEVER and self.next_sync(stream, last) >= other:
                return (
                    f"its device access at {self._where(last)} may still be running at "
                    f"{self._where(other)}: no op in between waits for its stream"
                )
        return None

    def _where(self, key: int) -> str:
        op = self.ops[key // 2]
        loc = location_of(op)
        return f"'{op_name(op)}'" + (f" ({loc.line}:{loc.column})" if loc is not None else "")
