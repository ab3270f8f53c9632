"""`pool-allocs` and `hip-pool-allocs`: every poolable buffer of a function at an
offset in one pool per dominance domain.

hip-ep's `hip-pool-allocs` (its design `pool-allocs-memory-planning.md` and the
runtime contract), planned under the host/device execution model. In each
single-block function whose argument 0 is a runtime context (`RuntimeContext`,
`!hip.context`), every used plannable allocation (`PlannableAllocation`) that may
live in device memory the runtime owns becomes a `memref.view` at a planned byte
offset into the pool its type asks for (`RuntimeContext.memory_request`:
`hip.get_pool(%ctx, %size)`), and its frees are erased.

Which buffers may overlap is the ordering analysis' conflict graph
(`BlockOrdering.conflict_graph`, DESIGN.md section 2): a buffer the host writes while
a kernel enqueued earlier may still read another buffer's bytes is kept apart from
it, and shares them after a synchronize. `live-from-allocation` adds hip-ep's own
rule on top (two buffers whose [allocation, last use] intervals in program order
overlap never share), so its plans are never denser than hip-ep's.

Layout of a domain, as hip-ep lays it out:

- static buffers share a *static prefix*, planned by `memplan.planning` on their
  conflict graph (`best-fit` is hip-ep's largest-first best-fit gap placement);
- a dynamic buffer of byte size `factor * F`, F the product of its size operands,
  is a *group* of its own (`lifetime-only`, the default) placed at a slab's base;
  groups whose members never conflict share a *slab* (first fit), whose width is the
  runtime maximum (`arith.maxui`) of their footprints, rounded up to the alignment
  when that is not known to be a multiple of it. With `lifetime-only=false`, the
  alignment-multiple buffers of SSA-identical size operands form one group packed
  in units of F, and the others go into *buckets* of equal size, one bin (first fit)
  per set of buffers that may share.
- the pool's size is the static prefix plus the slab widths plus each bucket's
  bins; slab offsets are runtime SSA.

A pool is created before the first buffer it holds, so its size may use only values
defined before that point: a buffer joins the earliest domain whose first buffer
comes after its sizes are defined, else it opens a new domain (`domain_id` 1, 2, ...).
The size arithmetic is folded as MLIR's `createOrFold` would (`x * 1`, `x + 0`), and
what ends up unused is not emitted.

The plan is recorded for the runtime as hip-ep records it (`plan_attributes`).
The two names differ in their defaults only (`HipPoolAllocs`): `hip-pool-allocs`
keeps hip-ep's contract (returned buffers pooled, since its pipeline has already
made every graph output a `hip.alloc_output`; hip-ep's placement and intervals);
memplan's `pool-allocs` leaves returned buffers out and plans on the ordering rules
alone. Docs: docs/design/pool-allocs.md.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from memplan.analysis.cache import module_analysis
from memplan.analysis.calls import CallGraph, shared_context_memory
from memplan.analysis.data_layout import alloc_size
from memplan.analysis.ordering import BlockOrdering, BufferInfo, plannable_roots
from memplan.diagnostics import remark
from memplan.interfaces import POOL, RuntimeContext, plannable_allocation
from memplan.lazy_numpy import load_numpy, np
from memplan.passes.base import MemplanPass
from memplan.passes.common import (
    RemarksUnderDebug,
    describe_buffer,
    erase_unused,
    function_bodies,
    index_constant,
    insert_new_ops,
    integer_attr,
    replace_allocation,
    runtime_context,
    view_into,
)
from memplan.planning import STRATEGIES as PLANNERS
from memplan.planning import Buffer, Plan, Problem
from memplan.planning.problem import align_up, check_alignment
from memplan.progress import pass_progress, planning_progress
from memplan.report.ir import kept_apart, record_pool_plan, record_pool_statistics
from memplan.report.recording import listening, plan_report

__all__ = [
    "DEFAULT_ALIGNMENT",
    "DOMAIN_ADVISORY_THRESHOLD",
    "STRATEGIES",
    "Bucket",
    "DomainLayout",
    "Group",
    "HipPoolAllocs",
    "PoolAllocs",
    "check_options",
    "first_fit",
    "group_conflicts",
    "interval_conflicts",
    "plan_attributes",
    "plan_offsets",
    "split_domains",
    "union_graphs",
]

DEFAULT_ALIGNMENT = 256
"""Byte alignment of every offset in the pool, as in hip-ep."""

STRATEGIES = (*PLANNERS, "best-fit")
"""Offset planners: memplan's three (memplan.planning) and hip-ep's placement
(largest first, each into the smallest gap between the placed buffers it conflicts
with, program order on ties)."""

DOMAIN_ADVISORY_THRESHOLD = 8
"""Above this many domains in one function a remark says that size arithmetic was
probably not hoisted (hip-ep's advisory); the plan is made all the same."""

_ATTRIBUTE_PREFIX = "hipdnn."


def check_options(alignment: int, strategy: str, time_limit: float = 1.0) -> None:
    """A `ValueError` naming the fault unless `alignment` is a positive power of two
    (hip-ep's rule, in its words), `strategy` one of `STRATEGIES` and `time_limit` a
    positive number of seconds."""
    check_alignment(alignment)
    _check_strategy(strategy)
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not time_limit > 0  # NaN too
    ):
        raise ValueError(f"time-limit must be a positive number of seconds, got {time_limit}")


def _check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise ValueError(
            f"unknown strategy '{strategy}'; expected one of {', '.join(STRATEGIES)}"
        )


# ----------------------------------------------------------------- IR-free logic


def split_domains(positions: Sequence[int], ready: Sequence[int]) -> list[int]:
    """The pool domain of each buffer, given in program order.

    `positions[i]` is the index in the block of buffer i's allocation and `ready[i]`
    the index of the last op its size needs (-1 for a static size or one known on
    entry). A domain's pool is created just before its first buffer (its *anchor*), so
    a buffer joins the earliest domain anchored after its size is ready; when none
    is, it opens a new domain anchored at itself. Static buffers therefore all go to
    domain 0, whose pool is created before the first buffer of all. (hip-ep tries the
    latest domain first; the earliest gives static buffers one shared prefix.)
    Anchors increase, so the earliest is found by bisection.
    """
    anchors: list[int] = []
    domains: list[int] = []
    for position, needs in zip(positions, ready, strict=True):
        domain = bisect.bisect_right(anchors, needs)
        if domain == len(anchors):
            anchors.append(position)
        domains.append(domain)
    return domains


def group_conflicts(
    keys: Sequence[Hashable], neighbours: Sequence[np.ndarray]
) -> dict[Hashable, tuple[list[int], tuple[np.ndarray, ...]]]:
    """Split buffers by key (in first-seen order) into groups planned on their own:
    for each key, its members (ascending) and the conflict graph among them as
    sorted neighbour arrays of indices into the members. `neighbours` is the whole
    graph (`BlockOrdering.conflict_graph`); one numpy filter per buffer, and a
    single group keeps the arrays as they are."""
    n = len(keys)
    ids: dict[Hashable, int] = {}
    members: list[list[int]] = []
    group_of = np.empty(n, dtype=np.int64)
    local = np.empty(n, dtype=np.int64)
    for buffer, key in enumerate(keys):
        g = ids.setdefault(key, len(ids))
        if g == len(members):
            members.append([])
        group_of[buffer] = g
        local[buffer] = len(members[g])
        members[g].append(buffer)
    if len(ids) == 1:
        ((key, _),) = ids.items()
        return {key: (members[0], tuple(neighbours))}
    groups: dict[Hashable, tuple[list[int], tuple[np.ndarray, ...]]] = {}
    for key, g in ids.items():
        rows = []
        for m in members[g]:
            row = neighbours[m]
            rows.append(local[row[group_of[row] == g]])
        groups[key] = (members[g], tuple(rows))
    return groups


def interval_conflicts(starts: Sequence[int], ends: Sequence[int]) -> tuple[np.ndarray, ...]:
    """Neighbour arrays of the buffers whose closed intervals `[start, end]` in
    program order overlap (hip-ep's lifetimes: allocation to last use), by the
    planner's interval sweep."""
    buffers = [Buffer(str(i), 1, s, max(s, e) + 1) for i, (s, e) in enumerate(zip(starts, ends))]
    return Problem(buffers).neighbours


def union_graphs(
    a: Sequence[np.ndarray], b: Sequence[np.ndarray]
) -> tuple[np.ndarray, ...]:
    """The neighbour arrays of the union of two graphs on the same nodes."""
    return tuple(np.union1d(x, y).astype(np.int64) for x, y in zip(a, b, strict=True))


def first_fit(items: Sequence[Sequence[int]], neighbours: Sequence[np.ndarray]) -> list[int]:
    """The bin of each item (a set of nodes), in order: the lowest bin holding no
    neighbour of any of its nodes, else a new one. Linear in the items' edges."""
    bin_of = np.full(len(neighbours), -1, dtype=np.int64)
    bins: list[int] = []
    count = 0
    for nodes in items:
        taken: set[int] = set()
        for node in nodes:
            around = bin_of[neighbours[node]]
            taken.update(around[around >= 0].tolist())
        chosen = next(b for b in range(count + 1) if b not in taken)
        count = max(count, chosen + 1)
        bin_of[list(nodes)] = chosen
        bins.append(chosen)
    return bins


def plan_offsets(
    sizes: Sequence[int],
    alignments: Sequence[int],
    conflicts: Iterable[tuple[int, int]] | None = None,
    strategy: str = "greedy",
    time_limit: float = 1.0,
    *,
    neighbours: Sequence[np.ndarray] | None = None,
) -> Plan:
    """Offsets for buffers of the given sizes under a conflict graph, given as index
    pairs or (cheaper for large graphs) as sorted neighbour arrays, by the named
    strategy (`STRATEGIES`); every strategy validates its plan."""
    _check_strategy(strategy)
    buffers = [Buffer(str(i), s, alignment=a) for i, (s, a) in enumerate(zip(sizes, alignments))]
    if neighbours is not None:
        problem = Problem.from_neighbours(buffers, neighbours)
    else:
        problem = Problem(buffers, conflicts=conflicts if conflicts is not None else ())
    if strategy == "best-fit":
        return PLANNERS["greedy"](problem, order="size")
    limit = None if strategy == "greedy" else time_limit
    with planning_progress(f"{strategy}: {len(buffers)} buffers", limit) as progress:
        return PLANNERS[strategy](problem, time_limit=time_limit, progress=progress)


def _lower_bound(sizes: Sequence[int], neighbours: Sequence[np.ndarray]) -> int:
    """The planner's lower bound for buffers of `sizes` under the conflict graph."""
    if not sizes:
        return 0
    buffers = [Buffer(str(i), s) for i, s in enumerate(sizes)]
    return Problem.from_neighbours(buffers, neighbours).lower_bound()


@dataclass
class Group:
    """Dynamic buffers of one runtime factor F (the product of `operands`) planned
    together: member k at `units[k] * F` bytes from its slab's base; the group
    spans `span * F` bytes."""

    operands: tuple[SSAValue, ...]
    members: list[int]
    units: list[int]
    span: int


@dataclass
class Bucket:
    """Dynamic buffers of `factor * F` bytes, F the product of `operands`, whose
    factor is no multiple of the alignment (`lifetime-only=false`): bin k holds
    buffers that may share, at `k * align_up(factor * F)` from the bucket's base."""

    factor: int
    operands: tuple[SSAValue, ...]
    bins: list[list[int]] = field(default_factory=list)


@dataclass
class DomainLayout:
    """One pool: its static prefix (offsets of static buffers inside it), then the
    slabs, then the buckets. Buffers are numbered over the function."""

    alignment: int
    """What the static prefix's size, the slab widths and the bucket bins are
    rounded up to (the pass's alignment, or more when a dynamic buffer asks)."""
    static_size: int = 0
    static_offsets: dict[int, int] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)
    slabs: list[list[int]] = field(default_factory=list)
    """Group indices per slab; a slab's groups never conflict and share its base."""
    buckets: list[Bucket] = field(default_factory=list)
    static_lower_bound: int = 0
    dynamic_lower_bound: int = 0
    """In units of F (meaningful when every group shares one F)."""
    minimum_bins: int = 0

    def slab_span(self, slab: Sequence[int]) -> int:
        return max(self.groups[g].span for g in slab)

    def slab_needs_rounding(self, slab: Sequence[int]) -> bool:
        """Whether the slab's width is not known to be a multiple of the alignment:
        with one F for all its groups, when the largest span is not; else when any
        span is not."""
        first = self.groups[slab[0]].operands
        if all(self.groups[g].operands == first for g in slab):
            return self.slab_span(slab) % self.alignment != 0
        return any(self.groups[g].span % self.alignment for g in slab)

    def report(self) -> str:
        """hip-ep's fragmentation figures: each part of the footprint against its
        lower bound."""
        text = (
            f"static {self.static_size}/{self.static_lower_bound} B "
            f"({self.static_size - self.static_lower_bound} frag); "
        )
        units = sum(self.slab_span(s) for s in self.slabs)
        single = len({g.operands for g in self.groups}) <= 1
        if single and not any(self.slab_needs_rounding(s) for s in self.slabs):
            lb = self.dynamic_lower_bound
            text += f"dyn-pool {units}/{lb} units ({units - lb} frag); "
        elif not single:
            text += "dyn-pool coefficient unavailable (mixed runtime factors); "
        else:
            text += "dyn-pool coefficient unavailable (runtime alignment); "
        bins = sum(len(b.bins) for b in self.buckets)
        return (
            text + f"small-buckets {bins}/{self.minimum_bins} bins "
            f"({bins - self.minimum_bins} excess)"
        )


def plan_attributes(
    offsets: Sequence[int | None], domains: Sequence[int], static_sizes: Sequence[int]
) -> dict[str, Attribute]:
    """The plan as hip-ep's code generator reads it (DESIGN.md section 4), buffers
    numbered in program order:

    - `hipdnn.pool_size` (i64): the static prefix of domain 0, in bytes;
    - `hipdnn.buffer_count` (i64): the number of pooled buffers;
    - `hipdnn.buffer_offsets` (array of i64): each buffer's byte offset in its
      domain's pool, -1 when the offset is runtime SSA (`offsets[i]` None);
    - with more than one domain, also `hipdnn.domain_count` (i64),
      `hipdnn.pool_sizes` (each domain's static prefix) and `hipdnn.buffer_domains`.
    """

    def integers(values: Iterable[int]) -> ArrayAttr:
        return ArrayAttr([integer_attr(v, i64) for v in values])

    attributes: dict[str, Attribute] = {
        "pool_size": integer_attr(static_sizes[0] if static_sizes else 0, i64),
        "buffer_count": integer_attr(len(offsets), i64),
        "buffer_offsets": integers(-1 if o is None else o for o in offsets),
    }
    if len(static_sizes) > 1:
        attributes["domain_count"] = integer_attr(len(static_sizes), i64)
        attributes["pool_sizes"] = integers(static_sizes)
        attributes["buffer_domains"] = integers(domains)
    return {_ATTRIBUTE_PREFIX + k: v for k, v in attributes.items()}


# ----------------------------------------------------------------- index arithmetic


_FOLDS = {
    arith.MuliOp: (operator.mul, 1, 0),
    arith.AddiOp: (operator.add, 0, None),
    arith.MaxUIOp: (max, 0, None),
}
"""How each commutative op folds: its value, its neutral and absorbing constants."""


class _Emitter:
    """Index arithmetic built as MLIR's `createOrFold` builds it: constants fold,
    `x * 1`, `x + 0`, `max(x, x)` and `x / 1` are `x`, a constant operand goes on
    the right. `ops` are the new ops in order; `prune` erases the unused ones."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        return self.add(index_constant(value))

    @staticmethod
    def value_of(value: SSAValue) -> int | None:
        """The value of an integer `arith.constant`, else None."""
        op = value.owner
        if isinstance(op, arith.ConstantOp):
            attribute = op.properties["value"]  # IRDL's accessor costs more than the rest
            if isinstance(attribute, IntegerAttr):
                return attribute.value.data
        return None

    def _commutative(self, kind: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        evaluate, neutral, absorbing = _FOLDS[kind]
        x, y = self.value_of(a), self.value_of(b)
        if x is not None and y is not None:
            return self.constant(evaluate(x, y))
        if absorbing is not None and absorbing in (x, y):
            return self.constant(absorbing)
        if y == neutral or (a is b and kind is arith.MaxUIOp):
            return a
        if x == neutral:
            return b
        if x is not None:
            a, b = b, a
        return self.add(kind(a, b))

    def muli(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._commutative(arith.MuliOp, a, b)

    def addi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._commutative(arith.AddiOp, a, b)

    def maxui(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._commutative(arith.MaxUIOp, a, b)

    def divui(self, a: SSAValue, b: SSAValue) -> SSAValue:
        x, y = self.value_of(a), self.value_of(b)
        if x is not None and y:
            return self.constant(x // y)
        if y == 1:
            return a
        return self.add(arith.DivUIOp(a, b))

    def product(self, values: Iterable[SSAValue]) -> SSAValue:
        result = self.constant(1)
        for v in values:
            result = self.muli(result, v)
        return result

    def align_up(self, value: SSAValue, alignment: int) -> SSAValue:
        """`(value + alignment - 1) / alignment * alignment`, as hip-ep writes it."""
        if alignment <= 1:
            return value
        less_one = self.constant(alignment - 1)
        whole = self.constant(alignment)
        return self.muli(self.divui(self.addi(value, less_one), whole), whole)

    def prune(self) -> None:
        for op in reversed(self.ops):
            if all(r.first_use is None for r in op.results):
                erase_unused(op)
        self.ops = [op for op in self.ops if op.parent is not None]


# ----------------------------------------------------------------- candidates


@dataclass
class _Candidate:
    """A buffer that goes into the pool and how its view is built."""

    root: SSAValue
    op: Operation
    info: BufferInfo | None
    """None once the plan is made and nobody records it (`PoolAllocs._pool`)."""
    position: int
    factor: int
    """Bytes, or bytes per unit of the product of `sizes` for a dynamic shape."""
    sizes: tuple[SSAValue, ...]
    alignment: int
    span_type: MemRefType
    """The type of the view into the pool; the root's type unless a reinterpret_cast
    of the span gives the root's strided layout."""


def _strided_span(t: MemRefType) -> tuple[MemRefType, int, list[int]] | None:
    """For a static strided layout: the contiguous type covering its elements, its
    offset and its strides; None when the layout is not static strided."""
    layout = t.layout
    if not isinstance(layout, StridedLayoutAttr) or not t.has_static_shape():
        return None
    strides = layout.get_strides()
    offset = layout.get_offset()
    if offset is None or offset < 0 or any(s is None or s < 0 for s in strides):
        return None
    shape = t.get_shape()
    extent = 0 if 0 in shape else 1 + sum((d - 1) * s for d, s in zip(shape, strides))
    return MemRefType(t.element_type, [offset + extent]), offset, list(strides)


# ----------------------------------------------------------------- the pass


@dataclass(frozen=True)
class PoolAllocs(RemarksUnderDebug, MemplanPass):
    """Place every poolable buffer of a function at a planned offset in one pool
    per domain (memplan's defaults: returned buffers stay out)."""

    name = "pool-allocs"

    shares_analyses = True

    alignment: int = DEFAULT_ALIGNMENT
    """Byte alignment of every offset (a positive power of two); a buffer asking for
    more (`alignment = N` on the allocation) gets its own."""

    strategy: str = "greedy"
    """How static prefixes and groups are planned: greedy, best, exact
    (memplan.planning) or best-fit (hip-ep's placement)."""

    time_limit: float = 1.0
    """Seconds the best and exact strategies may spend per plan."""

    lifetime_only: bool = True
    """Each dynamic buffer is a group of its own (hip-ep's default); false packs
    alignment-multiple buffers of identical size operands into one group first."""

    pool_returned: bool = False
    """Pool buffers the function returns too (hip-ep's contract, where graph outputs
    are already `hip.alloc_output`); else they stay out: the next invocation reuses
    the pool while the caller may still read them."""

    live_from_allocation: bool = False
    """Also keep apart buffers whose [allocation, last use] intervals in program
    order overlap (hip-ep's lifetimes), on top of the ordering rules."""

    emit_fragmentation_report: bool = False
    """Remark, per domain, each part of the footprint against its lower bound."""

    debug: bool = False
    """Remark which buffers stay out of the pool and why, and what was planned."""

    report: str | None = None
    """Write the plan to this path as an HTML report (picture and tables)."""

    def __post_init__(self) -> None:
        check_options(self.alignment, self.strategy, self.time_limit)

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        with plan_report(self.report, f"{self.name} plan"), pass_progress(self.name):
            return self._run(module)

    def _run(self, module: ModuleOp) -> bool:
        recorded: list[tuple[Operation, dict[str, Attribute]]] = []
        pooled_before: list[Operation] = []
        with_context = False
        calls = module_analysis(module, CallGraph)
        for function, region in module_analysis(module, function_bodies):
            entry = region.blocks[0]
            if calls.context_memory_in(function, POOL) is not None:
                # It counts for the module's plan even though it is not planned now.
                pooled_before.append(function)
                self._remark(function, "function left alone: it already takes a pool")
                continue
            if runtime_context(region) is None:
                self._remark(function, "function left alone: argument 0 is not a runtime context")
                continue
            with_context = True
            if (why := shared_context_memory(calls, function, POOL)) is not None:
                self._remark(function, f"function left alone: {why}")
                continue
            if len(region.blocks) != 1:
                self._remark(
                    function,
                    f"function left alone: its body has {len(region.blocks)} blocks; "
                    "pooling plans one block",
                )
                continue
            attributes = self._pool(function, entry)
            if attributes is not None:
                recorded.append((function, attributes))
        if not recorded and (pooled_before or not with_context):
            return False
        if not recorded:
            # hip-ep's reader expects the plan even when nothing is pooled.
            plan = plan_attributes([], [], [])
            if all(module.attributes.get(k) == v for k, v in plan.items()):
                return False
            self._set_plan(module, plan)
            return True
        pooled = len(recorded) + len(pooled_before)
        if pooled == 1:
            self._set_plan(module, recorded[0][1])
        else:
            earlier = {k: v for k, v in module.attributes.items() if k.startswith(_ATTRIBUTE_PREFIX)}
            if len(pooled_before) == 1 and not any(
                k.startswith(_ATTRIBUTE_PREFIX) for k in pooled_before[0].attributes
            ):
                # The module's plan was that function's: it keeps it.
                pooled_before[0].attributes.update(earlier)
            self._set_plan(module, {})
            for function, attributes in recorded:
                function.attributes.update(attributes)
            self._remark(
                module,
                f"{pooled} functions take pools: each records its plan on itself, "
                "the module none",
            )
        return True

    @staticmethod
    def _set_plan(module: ModuleOp, attributes: dict[str, Attribute]) -> None:
        for key in [k for k in module.attributes if k.startswith(_ATTRIBUTE_PREFIX)]:
            del module.attributes[key]
        module.attributes.update(attributes)

    # ------------------------------------------------------------- selection

    def _candidate(
        self, ordering: BlockOrdering, root: SSAValue, types: dict[int, tuple]
    ) -> _Candidate | None:
        """`root` as a pool candidate, or None (and a remark) when it stays out.
        `types`: `_type_facts` of each buffer type met so far, by id (a model's
        buffers share a few type objects)."""
        op = root.owner
        assert isinstance(op, Operation)
        info = ordering.info(root)
        t = root.type
        facts = types.get(id(t))
        if facts is None:
            facts = types[id(t)] = (t, *self._type_facts(t))
        _, excluded, factor, dynamic, span_type = facts
        reason = self._exclusion(info) or excluded
        if reason is not None:
            self._remark(op, f"buffer left out of the pool: {reason}")
            return None
        allocation = plannable_allocation(op)
        alignment = max(self.alignment, allocation.alignment(op) or 1)
        position = ordering.index(op)
        assert position is not None
        # (one size operand per dynamic dimension: none to ask a static one for)
        sizes = tuple(allocation.dynamic_sizes(op)) if dynamic else ()
        return _Candidate(root, op, info, position, factor, sizes, alignment, span_type)

    def _exclusion(self, info: BufferInfo) -> str | None:
        """Why the buffer of `info` may not live in the pool, as far as its uses
        tell; None when it may."""
        if info.escape is not None:
            return f"{info.escape}"
        if info.returned_by is not None and not self.pool_returned:
            return (
                f"returned by '{info.returned_by.name}'; the next invocation reuses the "
                "pool while the caller may still read it"
            )
        return None

    @staticmethod
    def _type_facts(t: Attribute) -> tuple[str | None, int, bool, MemRefType | None]:
        """For a buffer of type `t`: why its type keeps it out of the pool (None when
        it does not), and else its bytes (per unit of the product of its dynamic
        sizes), whether it has dynamic sizes, and the type of its view into the pool
        (`t`, unless a reinterpret_cast of the span gives `t`'s strided layout)."""
        if not isinstance(t, MemRefType):
            return f"{t} is not a memref", 0, False, None
        if not isinstance(t.memory_space, NoneAttr):
            return f"{t} is not in the default memory space of the pool", 0, False, None
        width = alloc_size(t.element_type)
        if width is None:
            return f"the size of {t.element_type} is unknown", 0, False, None
        if isinstance(t.layout, NoneAttr):
            factor = width
            dynamic = False
            for d in t.get_shape():
                if d != DYNAMIC_INDEX:
                    factor *= d
                else:
                    dynamic = True
            return None, factor, dynamic, t
        span = _strided_span(t)
        if span is None:
            return f"{t} has a layout that is not static strided with a static shape", 0, False, None
        span_type = span[0]
        return None, width * span_type.element_count(), False, span_type

    # ------------------------------------------------------------- planning

    def _pool(self, function: Operation, block: Block) -> dict[str, Attribute] | None:
        ordering = BlockOrdering(block)
        roots = [r for r in plannable_roots(ordering) if r.uses]
        if not roots:
            return None
        # The planner's numpy, imported before the buffers are analysed rather than
        # among their short-lived objects: a 20k-op decoder's peak RSS is 6 MiB lower so.
        load_numpy()
        types: dict[int, tuple] = {}
        candidates = [
            c for r in roots if (c := self._candidate(ordering, r, types)) is not None
        ]
        ordering.forget_effects()
        if not candidates:
            return None
        graph = ordering.conflict_graph([c.root for c in candidates])
        if self.live_from_allocation:
            graph = union_graphs(
                graph,
                interval_conflicts(
                    [c.info.defined_at for c in candidates], [c.info.last_use for c in candidates]
                ),
            )
        self._explain_conflicts(ordering, candidates, graph)
        ready = [self._ready(ordering, c) for c in candidates]
        domains = split_domains([c.position for c in candidates], ready)
        count = max(domains) + 1
        if count > DOMAIN_ADVISORY_THRESHOLD:
            remark(
                function,
                f"{self.name}: dominance partition produced {count} domains (advisory "
                f"threshold {DOMAIN_ADVISORY_THRESHOLD}): size arithmetic defined between "
                "allocations was probably not hoisted above them; the plan is made anyway",
            )
        layouts: list[DomainLayout] = []
        for d, (members, neighbours) in group_conflicts(domains, graph).items():
            assert d == len(layouts)
            layouts.append(self._plan_domain(candidates, members, neighbours))
            if self.emit_fragmentation_report:
                remark(function, f"{self.name} fragmentation: domain {d}: {layouts[d].report()}")
        if self.debug:
            self._describe_domains(candidates, domains, layouts)
        pools = [(x.static_size, x.static_lower_bound, len(x.slabs)) for x in layouts]
        frees = [c.info.frees for c in candidates]
        if not listening():
            # Nobody reads the analysis after the rewrite: its memory goes to the
            # rewrite's new ops (the peak of a 20k-op decoder's run is lower so).
            ordering = graph = members = neighbours = None  # type: ignore[assignment]
            for c in candidates:
                c.info = None
            offsets = self._rewrite(block.args[0], candidates, frees, domains, layouts)
            record_pool_statistics(len(candidates), pools)
        else:
            offsets = self._rewrite(block.args[0], candidates, frees, domains, layouts)
            record_pool_plan(
                block, ordering, [c.info for c in candidates],
                [None if c.sizes else c.factor for c in candidates], offsets, domains,
                pools, graph, self.strategy,
            )
        return plan_attributes(offsets, domains, [x.static_size for x in layouts])

    def _plan_domain(
        self, candidates: list[_Candidate], members: list[int], neighbours: tuple[np.ndarray, ...]
    ) -> DomainLayout:
        """Plan one domain (`members`: buffer numbers in program order; `neighbours`:
        their conflict graph, local indices)."""
        alignment = max(
            [self.alignment] + [candidates[b].alignment for b in members if candidates[b].sizes]
        )
        layout = DomainLayout(alignment)
        kinds: list[Hashable] = []
        for b in members:
            c = candidates[b]
            if not c.sizes:
                kinds.append("static")
            elif self.lifetime_only or c.factor % alignment == 0:
                kinds.append("grouped")
            else:
                kinds.append(("bucket", c.factor, c.sizes))
        for kind, (local, graph) in group_conflicts(kinds, neighbours).items():
            numbers = [members[i] for i in local]
            if kind == "static":
                self._plan_static(layout, candidates, numbers, graph)
            elif kind == "grouped":
                self._plan_groups(layout, candidates, numbers, graph)
            else:
                _, factor, sizes = kind  # type: ignore[misc]
                bucket = Bucket(factor, sizes)
                for number, bin_ in zip(numbers, first_fit([[i] for i in range(len(numbers))], graph)):
                    if bin_ == len(bucket.bins):
                        bucket.bins.append([])
                    bucket.bins[bin_].append(number)
                layout.buckets.append(bucket)
                if self.emit_fragmentation_report:
                    layout.minimum_bins += _lower_bound([1] * len(numbers), graph)
        return layout

    def _plan_static(
        self, layout: DomainLayout, candidates: list[_Candidate], numbers: list[int],
        graph: tuple[np.ndarray, ...],
    ) -> None:
        plan = plan_offsets(
            [candidates[b].factor for b in numbers],
            [candidates[b].alignment for b in numbers],
            strategy=self.strategy,
            time_limit=self.time_limit,
            neighbours=graph,
        )
        layout.static_offsets = {b: int(o) for b, o in zip(numbers, plan.offsets)}
        layout.static_size = int(align_up(plan.pool_size, layout.alignment))
        if self.emit_fragmentation_report or self.debug or listening():
            layout.static_lower_bound = _lower_bound(
                [int(align_up(candidates[b].factor, layout.alignment)) for b in numbers], graph
            )

    def _plan_groups(
        self, layout: DomainLayout, candidates: list[_Candidate], numbers: list[int],
        graph: tuple[np.ndarray, ...],
    ) -> None:
        """Groups of dynamic buffers (one per buffer with `lifetime-only`, else one per
        set of SSA-identical size operands, packed in units of F), then slabs by first
        fit over the groups, larger spans first."""
        classes = group_conflicts([candidates[b].sizes for b in numbers], graph)
        groups: list[tuple[Group, list[int]]] = []  # and the members' local indices
        for sizes, (local, class_graph) in classes.items():
            if self.lifetime_only:
                for i in local:
                    b = numbers[i]
                    groups.append((Group(sizes, [b], [0], candidates[b].factor), [i]))
                continue
            plan = plan_offsets(
                [candidates[numbers[i]].factor for i in local],
                [candidates[numbers[i]].alignment for i in local],
                strategy=self.strategy,
                time_limit=self.time_limit,
                neighbours=class_graph,
            )
            span = int(align_up(plan.pool_size, layout.alignment))
            group = Group(sizes, [numbers[i] for i in local], [int(o) for o in plan.offsets], span)
            groups.append((group, list(local)))
        if self.lifetime_only:
            groups.sort(key=lambda g: -g[0].span)  # stable: class, then program order
        for (group, _), slab in zip(groups, first_fit([g[1] for g in groups], graph)):
            if slab == len(layout.slabs):
                layout.slabs.append([])
            layout.slabs[slab].append(len(layout.groups))
            layout.groups.append(group)
        if self.emit_fragmentation_report or self.debug:
            layout.dynamic_lower_bound = _lower_bound([candidates[b].factor for b in numbers], graph)

    def _describe_domains(
        self, candidates: list[_Candidate], domains: list[int], layouts: list[DomainLayout]
    ) -> None:
        members: list[list[int]] = [[] for _ in layouts]
        for b, d in enumerate(domains):
            members[d].append(b)
        for d, layout in enumerate(layouts):
            first = candidates[members[d][0]].op
            if d:
                self._remark(
                    first,
                    f"opens pool domain {d}: its size is defined after the first buffer "
                    "of every earlier domain",
                )
            self._remark(
                first,
                f"domain {d}: {_count(len(members[d]), 'buffer')}, static prefix "
                f"{layout.static_size} bytes (lower bound {layout.static_lower_bound}), "
                f"{_count(len(layout.slabs), 'slab')}, {_count(len(layout.buckets), 'bucket')}",
            )

    @staticmethod
    def _ready(ordering: BlockOrdering, candidate: _Candidate) -> int:
        """The index of the last op of the block the buffer's size needs, or -1."""
        needs = -1
        for size in candidate.sizes:
            owner = size.owner
            if isinstance(owner, Operation):
                index = ordering.index(owner)
                if index is not None:
                    needs = max(needs, index)
        return needs

    def _explain_conflicts(
        self,
        ordering: BlockOrdering,
        candidates: list[_Candidate],
        graph: tuple[np.ndarray, ...],
    ) -> None:
        """Remark, for each buffer kept apart from an earlier one that is dead in
        program order before it is allocated, which access forbids sharing (the
        first such earlier buffer)."""
        if not self.debug:
            return
        for j, i, why in kept_apart(ordering, [c.info for c in candidates], graph):
            self._remark(
                candidates[j].op,
                f"kept apart from {describe_buffer(candidates[i].root)} in the pool: {why}",
            )

    # ------------------------------------------------------------- rewriting

    @staticmethod
    def _rewrite(
        context: SSAValue,
        candidates: list[_Candidate],
        frees: list[tuple[tuple[Operation, int], ...]],
        domains: list[int],
        layouts: list[DomainLayout],
    ) -> list[int | None]:
        """Take each domain's pool before its first buffer, replace every buffer by
        its view (erasing the ops in `frees` that freed it), and return each
        buffer's offset when it is a constant."""
        # A recorded plan reads each buffer's allocation through its value.
        recorded = listening()
        offsets: list[SSAValue | None] = [None] * len(candidates)
        pools: list[SSAValue] = []
        emitters: list[_Emitter] = []
        anchors: dict[int, Operation] = {}
        for b, d in enumerate(domains):
            anchors.setdefault(d, candidates[b].op)
        for d, layout in enumerate(layouts):
            anchor = anchors[d]
            emitter = _Emitter()
            pools.append(_emit_pool(emitter, context, d, layout, offsets))
            insert_new_ops(emitter.ops, anchor)
            emitters.append(emitter)
        constants: list[int | None] = []
        for b, c in enumerate(candidates):
            shift = offsets[b]
            assert shift is not None
            constants.append(_Emitter.value_of(shift))
            view = view_into(pools[domains[b]], shift, c.sizes, c.span_type)
            ops: list[Operation] = [view]
            if c.span_type is not c.root.type and c.span_type != c.root.type:
                t = c.root.type
                assert isinstance(t, MemRefType)
                _, offset, strides = _strided_span(t)  # type: ignore[misc]
                ops.append(memref.ReinterpretCastOp.from_dynamic(
                    view.results[0], [offset], list(t.get_shape()), strides, t
                ))
            replace_allocation(c.op, ops, frees[b], keep_owner=recorded)
        for emitter in emitters:
            emitter.prune()
        return constants


def _emit_pool(
    e: _Emitter,
    context: SSAValue,
    domain: int,
    layout: DomainLayout,
    offsets: list[SSAValue | None],
) -> SSAValue:
    """The ops of one domain, in hip-ep's order: each group's F and each bucket's
    aligned size, the group footprints and slab widths, the pool's size, the pool,
    then every buffer's offset (written into `offsets`)."""
    factors = [e.product(g.operands) for g in layout.groups]
    bucket_sizes = []
    for bucket in layout.buckets:
        size = e.constant(bucket.factor)
        for operand in bucket.operands:
            size = e.muli(size, operand)
        bucket_sizes.append(e.align_up(size, layout.alignment))
    footprints = [e.muli(f, e.constant(g.span)) for f, g in zip(factors, layout.groups)]
    widths = []
    for slab in layout.slabs:
        width = footprints[slab[0]]
        for g in slab[1:]:
            width = e.maxui(width, footprints[g])
        if layout.slab_needs_rounding(slab):
            width = e.align_up(width, layout.alignment)
        widths.append(width)
    size = e.constant(layout.static_size)
    for width in widths:
        size = e.addi(size, width)
    for bucket, bin_size in zip(layout.buckets, bucket_sizes):
        size = e.addi(size, e.muli(bin_size, e.constant(len(bucket.bins))))
    assert isinstance(context.type, RuntimeContext)
    pool = e.add(context.type.memory_request(POOL, context, size, domain))
    pool.name_hint = "pool" if domain == 0 else f"pool_{domain}"
    for b, offset in sorted(layout.static_offsets.items()):
        offsets[b] = e.constant(offset)
    base = e.constant(layout.static_size)
    for slab, width in zip(layout.slabs, widths):
        for g in slab:
            group = layout.groups[g]
            for b, units in zip(group.members, group.units):
                offsets[b] = base if units == 0 else e.addi(base, e.muli(factors[g], e.constant(units)))
        base = e.addi(base, width)
    for bucket, bin_size in zip(layout.buckets, bucket_sizes):
        for k, members in enumerate(bucket.bins):
            at = e.addi(base, e.muli(bin_size, e.constant(k)))
            for b in members:
                offsets[b] = at
        base = e.addi(base, e.muli(bin_size, e.constant(len(bucket.bins))))
    return pool


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class HipPoolAllocs(PoolAllocs):
    """hip-ep's `hip-pool-allocs` contract: returned buffers are pooled (its pipeline
    has made every graph output a `hip.alloc_output` before), buffers live from
    their allocation to their last use as well as by the ordering rules, and static
    prefixes are placed by hip-ep's best fit."""

    name = "hip-pool-allocs"

    strategy: str = "best-fit"
    pool_returned: bool = True
    live_from_allocation: bool = True
