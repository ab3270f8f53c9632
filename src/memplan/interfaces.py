"""Op interfaces the memory and cleanup passes query instead of op names.

Passes never ask "is this a `hip.matmul`?"; they ask an op whether it is a view of
another buffer, whether it runs asynchronously on a device stream, whether it waits
for a stream, and which values its memory effects touch. Dialects answer by
declaring the traits below. Ops defined outside memplan (xDSL's `memref`, for
instance) get the same answers through *external models*, all attached in one module,
`memplan.dialects.mlir.upstream_models`, in the style of MLIR's `attachInterface`; the
first query loads it, so no caller has to import anything for its side effect and a
pass never special-cases those ops either.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects.builtin import MemRefType, SymbolRefAttr, UnrankedMemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    OpTrait,
    Resource,
)

from memplan import providers

__all__ = [
    "class_has_trait",
    "HOST_SCRATCH",
    "POOL",
    "EffectInstance",
    "AutomaticAllocation",
    "AutomaticAllocationScope",
    "CountedLoop",
    "ElementAccess",
    "GraphRegions",
    "NonAddressableResource",
    "HostInlineRegions",
    "MemoryEffectKind",
    "NoAddressCapture",
    "OutlinedBodies",
    "PlannableAllocation",
    "RuntimeContext",
    "SignaturePrinter",
    "SignatureVerifier",
    "StreamExecution",
    "StreamSynchronization",
    "SuccessorOperands",
    "FreshResults",
    "FreshValues",
    "ViewBytes",
    "ViewLike",
    "attach_trait",
    "attach_trait_when_imported",
    "buffer_operands_named",
    "is_buffer",
    "captures_no_address",
    "counted_loop",
    "element_access",
    "get_interface",
    "host_inline_regions",
    "is_runtime_context",
    "memory_effects",
    "effect_pairs",
    "outlined_bodies",
    "outlined_streams",
    "plannable_allocation",
    "stream_of",
    "synchronized_stream",
    "fresh_values",
    "view_source",
]

TraitT = TypeVar("TraitT", bound=OpTrait)

_EXTERNAL_TRAITS: dict[type[Operation], list[OpTrait]] = {}


def attach_trait(op_type: type[Operation], trait: OpTrait) -> None:
    """Give an op class defined elsewhere one of memplan's interfaces.

    External traits take precedence over the op's own traits of the same kind, so a
    value-tied memory-effect model replaces xDSL's value-less one.
    """
    traits = _EXTERNAL_TRAITS.setdefault(op_type, [])
    traits[:] = [t for t in traits if type(t) is not type(trait)]
    traits.append(trait)
    _BY_CLASS.clear()


_WHEN_IMPORTED: dict[str, list[tuple[str, OpTrait]]] = {}
"""Module name -> (class name, trait) to attach once that module is imported."""


def attach_trait_when_imported(module: str, class_name: str, trait: OpTrait) -> None:
    """`attach_trait` for a class of `module`, attached once the module is imported
    (at once if it is): a model must not import a dialect no input uses (xDSL's
    complex and tensor cost 0.05-0.1 s), and none of its ops exists before."""
    if module in sys.modules:
        attach_trait(getattr(sys.modules[module], class_name), trait)
    else:
        _WHEN_IMPORTED.setdefault(module, []).append((class_name, trait))


def _attach_imported() -> None:
    for module in [m for m in _WHEN_IMPORTED if m in sys.modules]:
        for class_name, trait in _WHEN_IMPORTED.pop(module):
            attach_trait(getattr(sys.modules[module], class_name), trait)


_MODELS_LOADED = False


def _load_upstream_models() -> None:
    """Attach the models of `memplan.dialects.mlir.upstream_models` before the first
    query, so an answer never depends on which module happened to be imported
    (through `memplan.providers`: this module imports no dialect)."""
    global _MODELS_LOADED
    if not _MODELS_LOADED:
        _MODELS_LOADED = True
        providers.attach_upstream_models()


def _external_traits(op: Operation) -> list[OpTrait]:
    """External models of the op's class or of the nearest base class that has some
    (memplan subclasses some xDSL ops to give them MLIR's custom syntax)."""
    _load_upstream_models()
    if _WHEN_IMPORTED:
        _attach_imported()
    for cls in type(op).__mro__:
        if (traits := _EXTERNAL_TRAITS.get(cls)) is not None:
            return traits
    return []


_BY_CLASS: dict[tuple[object, ...], tuple[object, object]] = {}
"""Answers about op classes (`get_interface`, `class_has_trait`), each with the
class's own trait set it was found among (xDSL's `add_trait` replaces that set;
`attach_trait` clears all): the passes ask every op of a module the same few
questions, and xDSL scans the class's traits for each."""


def _by_class(op: Operation, key: object, compute: Callable[[Operation], object]) -> object:
    """`compute(op)` for `op`'s class and `key`, computed once while the class's
    trait set is the same object (`compute` may read only what the class says)."""
    cls = type(op)
    own = cls.traits.traits
    known = _BY_CLASS.get((cls, key))
    if known is not None and known[0] is own:
        return known[1]
    answer = compute(op)
    _BY_CLASS[(cls, key)] = (own, answer)
    return answer


def get_interface(op: Operation, trait_type: type[TraitT]) -> TraitT | None:
    """The op's implementation of an interface: external model first, then its own.

    `_by_class` written out: the passes ask this of every op of a module several
    times (some 180k calls on a 20k-op decoder), and a call more costs as much as
    the lookup."""
    cls = type(op)
    own = cls.traits.traits
    known = _BY_CLASS.get((cls, trait_type))
    if known is not None and known[0] is own:
        return known[1]  # type: ignore[return-value]
    answer = next((t for t in _external_traits(op) if isinstance(t, trait_type)), None)
    if answer is None:
        answer = op.get_trait(trait_type)
    _BY_CLASS[(cls, trait_type)] = (own, answer)
    return answer


def class_has_trait(op: Operation, trait: type[OpTrait], *, value_if_unregistered: bool) -> bool:
    """`op.has_trait(trait, value_if_unregistered=...)`, answered once per op class."""
    return _by_class(  # type: ignore[return-value]
        op, (trait, value_if_unregistered),
        lambda o: o.has_trait(trait, value_if_unregistered=value_if_unregistered),
    )


def _memory_effect_traits(op: Operation) -> tuple[MemoryEffect, ...]:
    """The models `memory_effects` asks: the external ones when the op's class has
    some, else its own (what xDSL's `get_effects` asks), found once per class."""
    external = tuple(t for t in _external_traits(op) if isinstance(t, MemoryEffect))
    return external or tuple(op.get_traits_of_type(MemoryEffect))


def _effect_models(op: Operation) -> tuple[MemoryEffect, ...]:
    """`_memory_effect_traits` of `op`'s class, found once."""
    return _by_class(op, memory_effects, _memory_effect_traits)  # type: ignore[return-value]


def memory_effects(op: Operation) -> Set[EffectInstance] | None:
    """The op's memory effects, tied to values where the op's model says so.

    None means unknown: the op may do anything to any memory it can reach.
    """
    traits = _effect_models(op)
    if not traits:
        return None
    effects: set[EffectInstance] = set()
    for trait in traits:
        got = trait.get_effects(op)
        if got is None:
            return None
        effects.update(got)
    return effects


EffectPair = tuple[MemoryEffectKind, "SSAValue | SymbolRefAttr | None"]


def effect_pairs(op: Operation) -> list[EffectPair] | None:
    """`memory_effects(op)` as `(kind, value)` pairs, perhaps repeated (None:
    unknown), for an analysis that asks every op of a block and needs no set: an
    `OperandEffects` model lists its pairs without building and hashing an
    `EffectInstance` for each."""
    getters: tuple[Callable[[Operation], list[EffectPair] | None], ...] = _by_class(  # type: ignore[assignment]
        op, effect_pairs, _pair_getters)
    if not getters:
        return None
    if len(getters) == 1:
        return getters[0](op)
    pairs: list[EffectPair] = []
    for getter in getters:
        got = getter(op)
        if got is None:
            return None
        pairs += got
    return pairs


def _pair_getters(op: Operation) -> tuple[Callable[[Operation], list[EffectPair] | None], ...]:
    """What lists the pairs of each of the effect models of `op`'s class."""
    return tuple(
        t.pairs if isinstance(t, OperandEffects) else _pairs_of(t) for t in _effect_models(op)
    )


def _pairs_of(model: MemoryEffect) -> Callable[[Operation], list[EffectPair] | None]:
    """`effect_pairs` for a model that only builds `EffectInstance`s."""

    def pairs(op: Operation) -> list[EffectPair] | None:
        got = model.get_effects(op)
        return None if got is None else [(e.kind, e.value) for e in got]

    return pairs


@dataclass(frozen=True)
class ViewBytes:
    """Where a view's result lies in its source, in bytes from the source's aligned
    pointer, as `memplan.analysis.byte_ranges.Linear` expressions: `shift` moves
    the pointer, the result reaches `[start, end)`. None: not known (`end` None: up
    to the source's end)."""

    shift: object | None
    start: object | None
    end: object | None


@dataclass(frozen=True)
class NonAddressableResource(Resource):
    """Memory no pointer reaches (MLIR's non-addressable resources): a counter, a
    device queue's state. It never aliases a buffer, a global or unknown
    addressable memory; two such resources overlap only when one's `path` is a
    prefix of the other's (a resource and its parts), so siblings are disjoint.
    An op with unknown effects may still touch it."""

    path: tuple[str, ...]

    def name(self) -> str:
        return "/".join(self.path)

    def overlaps(self, other: NonAddressableResource) -> bool:
        shorter = min(len(self.path), len(other.path))
        return self.path[:shorter] == other.path[:shorter]


@dataclass(frozen=True)
class AutomaticAllocationScope(OpTrait):
    """Stack allocations made in the op's regions are released when control leaves
    the op (MLIR's `AutomaticAllocationScope`: functions, `memref.alloca_scope`,
    parallel loops)."""


@dataclass(frozen=True)
class AutomaticAllocation(OpTrait):
    """The op's result is a stack allocation (`memref.alloca`), released by the
    nearest enclosing `AutomaticAllocationScope`."""


@dataclass(frozen=True)
class GraphRegions(OpTrait):
    """The op's regions are graph regions (MLIR's `RegionKind::Graph`): values may be
    used before, in program order, they are defined, so program order is no
    dominance there."""


@dataclass(frozen=True)
class SignaturePrinter(OpTrait):
    """The op's custom `print` writes one line that depends on nothing but its
    signature (as `SignatureVerifier`'s) and the names of its operands and
    results, each printed once through the printer: so memplan's printer prints
    one op of each signature and fills in the names of the others (as it does for
    declarative formats)."""


@dataclass(frozen=True)
class SignatureVerifier(OpTrait):
    """The op's `verify_` (its IRDL definition and its own checks, not its traits'
    verifiers) looks at nothing but its signature: its class, operand and result
    types, properties and attributes. So `memplan.verification` runs it once per
    signature, and for another op of that signature only the checks that depend on
    where the op is (its traits' verifiers, the terminator rule). Not for an op
    whose verifier looks at its operands' definitions, its uses, its parent or
    symbols."""


@dataclass(frozen=True)
class ViewLike(OpTrait):
    """The op's first result is a view of the buffer in operand `source_index`.

    Accesses through the result are accesses to the source's bytes, so liveness and
    ordering follow views back to their root buffer. `bytes` is the op's byte-range
    model (`byte_range`); without one the result may reach any byte of the source.
    `places`: the result is a buffer of its own placed in the source's bytes (a
    typed buffer at a byte shift, a new layout on an allocation: how planners place
    buffers), not a part of the source's contents.
    """

    source_index: int = 0
    bytes: Callable[[Operation], ViewBytes | None] | None = None
    places: bool = False

    def view_source(self, op: Operation) -> SSAValue:
        return op.operands[self.source_index]

    def byte_range(self, op: Operation) -> ViewBytes | None:
        """Which bytes of the source the result reaches (None: any)."""
        return None if self.bytes is None else self.bytes(op)


@dataclass(frozen=True)
class FreshResults(OpTrait):
    """Every result of the op is a new value in storage of its own, never the
    storage of an operand, unless the op ties it to that operand (IREE's Stream
    async-phase contract: an untied result of a streamable op is a new resource).
    A consumer without it and without an ALLOC of a result may hand an operand's
    storage on (a select, a barrier), so `FreshValues` counts it as an escape."""


def _never_immutable(value: SSAValue) -> bool:
    return False


@dataclass(frozen=True)
class FreshValues(OpTrait):
    """The op's allocated results are new values computed only from what it
    reads (IREE's `stream.async.clone`, an untied `stream.async.dispatch`): two
    equal ops with nothing written between give equal values.

    Such ops allocate, so CSE keeps them apart by default (merged, two consumers
    that update the result in place would share one buffer: IREE bug #23665). Two
    equal ops may share their results when none is ever updated in place, since
    then nobody can tell one buffer from two (IREE's ElideAsyncCopies: "if no
    writes occur, reads can safely share buffers"). `shareable` answers it from
    the uses, conservatively: see its docstring. `immutable(value)`: the value's
    type promises nobody mutates it after it is made (IREE's `constant` lifetime:
    copy-on-write always clones it before an in-place update), so it may also be
    stored."""

    immutable: Callable[[SSAValue], bool] = _never_immutable
    tied_uses: Callable[[SSAValue], bool] = lambda value: True  # noqa: E731

    def shareable(self, op: Operation) -> bool:
        """Whether no use of the op's results may mutate one in place or hand it
        to code memplan does not see. Every use must be by an op that

        - ties no result to it (`tied_uses`: an in-place update, which after
          copy-on-write materialization reuses the buffer of a single-use value);
        - declares its effects (no call, no unknown op), and writes or frees
          nothing but, when the value is `immutable`, a global symbol (a store);
        - is no terminator (a return or branch passes it on) and no view of it;
        - makes every result of the value's type fresh (`FreshResults`, or an
          ALLOC of the result): no select or barrier forwarding the buffer."""
        return all(self._unmutated(result) for result in op.results)

    def _unmutated(self, result: SSAValue) -> bool:
        if self.tied_uses(result):
            return False
        immutable = self.immutable(result)
        for use in result.uses:
            user = use.operation
            if class_has_trait(user, IsTerminator, value_if_unregistered=True):
                return False
            if get_interface(user, ViewLike) is not None:
                return False
            effects = memory_effects(user)
            if effects is None:
                return False
            allocated = set()
            for effect in effects:
                if effect.kind is MemoryEffectKind.ALLOC:
                    allocated.add(effect.value)
                elif effect.kind is not MemoryEffectKind.READ and not (
                    immutable and isinstance(effect.value, SymbolRefAttr)
                ):
                    return False
            if get_interface(user, FreshResults) is None and any(
                r.type == result.type and r not in allocated for r in user.results
            ):
                return False
        return True


def fresh_values(op: Operation) -> FreshValues | None:
    """The op's model when its allocated results are values computed from reads."""
    return get_interface(op, FreshValues)


def view_source(op: Operation) -> SSAValue | None:
    """The buffer `op` views, or None when `op` is not a view."""
    trait = get_interface(op, ViewLike)
    return trait.view_source(op) if trait is not None else None


@dataclass(frozen=True)
class HostInlineRegions(OpTrait):
    """The op runs its regions on the host, inline: they are done when it returns,
    and an access in them is an access by the host at the op (DESIGN.md section 2).

    `repeats`: a region may run several times per execution of the op (a loop,
    whose regions run in order each time: `scf.while`'s condition, then its body);
    `exclusive`: at most one of its regions runs per execution (a branch). An op
    with regions that does not declare this (`gpu.launch`, an unregistered op) may
    run its regions later or elsewhere: a buffer used inside it escapes.
    """

    repeats: bool = False
    exclusive: bool = False


def host_inline_regions(op: Operation) -> HostInlineRegions | None:
    """How `op` runs its regions when it declares that it runs them inline."""
    return get_interface(op, HostInlineRegions)


@dataclass(frozen=True)
class CountedLoop(OpTrait):
    """The op runs its single-block region once for each value of the induction
    variable (the block's first argument) from operand `lower` up to, not including,
    operand `upper`, stepping by operand `step` (MLIR's `LoopLikeOpInterface` with
    a single induction variable), so an analysis can tell which values it takes."""

    lower: str
    upper: str
    step: str

    def induction_variable(self, op: Operation) -> SSAValue:
        return op.regions[0].blocks[0].args[0]

    def bounds(self, op: Operation) -> tuple[SSAValue, SSAValue, SSAValue]:
        """(lower, upper, step)."""
        return getattr(op, self.lower), getattr(op, self.upper), getattr(op, self.step)


def counted_loop(op: Operation) -> CountedLoop | None:
    """How `op` counts its iterations, when it is a counted loop."""
    return get_interface(op, CountedLoop)


@dataclass(frozen=True)
class ElementAccess(OpTrait):
    """The op reads or writes exactly one element of a buffer: the element at the
    operands `indices` (a variadic operand field) of the buffer in operand field
    `buffer` (`memref.load`, `memref.store`), so an analysis can tell which elements
    a sequence of accesses covers."""

    buffer: str
    indices: str

    def buffer_of(self, op: Operation) -> SSAValue:
        return getattr(op, self.buffer)

    def indices_of(self, op: Operation) -> Sequence[SSAValue]:
        return tuple(getattr(op, self.indices))


def element_access(op: Operation) -> ElementAccess | None:
    """Which element `op` accesses, when it accesses a single one."""
    return get_interface(op, ElementAccess)


@dataclass(frozen=True)
class NoAddressCapture(OpTrait):
    """The op reads only the metadata of its buffer operands (shape, rank): it
    neither touches their bytes nor keeps or passes on their address.

    A buffer operand without a memory effect tied to it is otherwise taken to
    escape: an op may turn the address into an integer
    (`memref.extract_aligned_pointer_as_index`, a cast), store it as a value
    (`memref.store %buf, %box[..]`, whose effect names only `%box`) or hand it on,
    and the bytes are then reached where no analysis follows them. Only ops that
    declare this trait (`memref.dim`, `memref.rank`) are known not to.
    """


def captures_no_address(op: Operation) -> bool:
    """Whether `op` declares that it reads only its operands' metadata."""
    return get_interface(op, NoAddressCapture) is not None


@dataclass(frozen=True)
class StreamExecution(OpTrait):
    """The op is enqueued on the in-order device stream named by operand
    `stream_index` and returns at once.

    Its memory effects take place later: after all device work enqueued before it on
    that stream, and at no fixed point relative to later host ops (DESIGN.md
    section 2). An op without this trait executes synchronously on the host.
    """

    stream_index: int = 0

    def stream(self, op: Operation) -> SSAValue:
        return op.operands[self.stream_index]


def stream_of(op: Operation) -> SSAValue | None:
    """The stream `op` is enqueued on, or None when it runs on the host."""
    trait = get_interface(op, StreamExecution)
    return trait.stream(op) if trait is not None else None


def _always(op: Operation) -> bool:
    return True


@dataclass(frozen=True)
class StreamSynchronization(OpTrait):
    """The host blocks in this op until the stream in operand `stream_index` is empty.

    After it returns, every device access enqueued on that stream before it has
    completed. `stream_index=None` means the op waits for every stream.

    `after_accesses`: the host waits once the op is done with its own accesses (a
    runtime loop reading each iteration's condition back), so those are complete
    too; otherwise it waits before them (a read-back waits, then reads). `when`:
    the op waits only when this holds of it (a loop that may run no iteration
    waits only when its operands say it runs one).
    """

    stream_index: int | None = 0
    after_accesses: bool = False
    when: Callable[[Operation], bool] = _always

    def stream(self, op: Operation) -> SSAValue | None:
        if self.stream_index is None:
            return None
        return op.operands[self.stream_index]


ALL_STREAMS = object()
"""What an op that waits for every stream synchronizes (see `synchronized_stream`)."""


def synchronized_stream(op: Operation, *, after_accesses: bool = False) -> SSAValue | object | None:
    """What `op` waits for before its own accesses (`after_accesses`: once done with
    them): a stream value, `ALL_STREAMS`, or None when it does not wait then."""
    trait = get_interface(op, StreamSynchronization)
    if trait is None or trait.after_accesses is not after_accesses or not trait.when(op):
        return None
    stream = trait.stream(op)
    return ALL_STREAMS if stream is None else stream


class RuntimeContext:
    """A type whose values are runtime contexts (hip-ep's `!hip.context`): handles
    that name an in-order device stream and own memory kept once per context (host
    scratch, pools). Types declare it by subclassing, as MLIR types implement a type
    interface, so analyses and passes ask a type this instead of naming its class."""

    def memory_request(
        self, kind: str, context: SSAValue, size: SSAValue, key: object = None
    ) -> Operation:
        """A new op asking the runtime for at least `size` bytes of the context's
        memory `kind` (`POOL`, `HOST_SCRATCH`) with `key` (a pool's domain; None or 0:
        the first), declaring `ContextMemory` of that kind and key, its result the
        memory. The type builds it because only its dialect knows the op: passes
        stay unchanged for another runtime. `ValueError` for a kind it has no op for."""
        raise ValueError(f"{self} has no op for {kind} memory")


def is_runtime_context(value: SSAValue) -> bool:
    """Whether `value` is a runtime context (its type declares `RuntimeContext`)."""
    return isinstance(value.type, RuntimeContext)


def _no_streams(op: Operation) -> tuple[SSAValue, ...]:
    return ()


@dataclass(frozen=True)
class OutlinedBodies(OpTrait):
    """The op calls functions named by its symbol properties `fields` (outlined
    bodies, such as a runtime loop's) with its operands, and returns when they have
    returned.

    What the bodies do is not visible at the op, only its bounds: they may read and
    write every buffer passed to the op, on the host while the op runs and on each
    stream in `streams(op)` (the contexts they are handed; device work enqueued there
    may run after the op returns). They reach no other buffer and no other stream.
    """

    fields: tuple[str, ...]
    streams: Callable[[Operation], tuple[SSAValue, ...]] = _no_streams

    def callees(self, op: Operation) -> tuple[str, ...]:
        return tuple(getattr(op, f).root_reference.data for f in self.fields)


def outlined_bodies(op: Operation) -> tuple[str, ...]:
    """The names of the functions `op` runs as outlined bodies (empty: none)."""
    trait = get_interface(op, OutlinedBodies)
    return trait.callees(op) if trait is not None else ()


def outlined_streams(op: Operation) -> tuple[SSAValue, ...]:
    """The streams the outlined bodies of `op` may enqueue device work on."""
    trait = get_interface(op, OutlinedBodies)
    return trait.streams(op) if trait is not None else ()


POOL = "pool"
"""The `ContextMemory` kind of the runtime's device pool (one per domain: the key)."""

HOST_SCRATCH = "host scratch"
"""The `ContextMemory` kind of the runtime's host-mapped scratch buffer."""


@dataclass(frozen=True)
class ContextMemory(OpTrait):
    """The op's result is memory the runtime keeps once per context (operand
    `context_index`), not per op or per function: every op of the same `kind` (which
    memory of the context: `POOL`, `HOST_SCRATCH`) and `key` on that context returns
    the same bytes, in whichever function it runs. The runtime grows it when a larger
    size is asked for, waiting for the stream and dropping the old bytes."""

    kind: str
    context_index: int = 0
    key: Callable[[Operation], object] | None = None
    size_index: int | None = 1
    """The operand holding the bytes asked for (None: the op asks for no size)."""

    def identity(self, op: Operation) -> tuple[object, ...]:
        """What makes two such ops the same bytes, given the same context."""
        return (self.kind, None if self.key is None else self.key(op))


def context_memory(op: Operation) -> ContextMemory | None:
    """The op's context-memory model when its result is memory kept per context."""
    return get_interface(op, ContextMemory)


def _no_alignment(op: Operation) -> int | None:
    return None


@dataclass(frozen=True)
class PlannableAllocation(OpTrait):
    """The op's result is a fresh buffer that a memory planner may place anywhere.

    Nothing but the program owns its bytes, so it may take another buffer's slot or
    an offset in a pool whenever the ordering rules allow (DESIGN.md section 2). Its
    size is its result type, with one `dynamic_sizes` operand per dynamic dimension;
    `alignment` is the byte alignment it asks for (None: the default). Memory the
    runtime places (a pool, host scratch, runtime allocations) is not plannable.
    """

    dynamic_sizes: Callable[[Operation], tuple[SSAValue, ...]]
    alignment: Callable[[Operation], int | None] = _no_alignment


def plannable_allocation(op: Operation) -> PlannableAllocation | None:
    """The op's allocation model when its result is a buffer planners may place."""
    return get_interface(op, PlannableAllocation)


@dataclass(frozen=True)
class OperandEffects(MemoryEffect):
    """Memory effects on operands and results chosen by accessor functions.

    `reads`/`writes`/`frees` return the values an op reads, writes or frees;
    `allocates` the values it creates. Used both as a trait by memplan's ops and as
    an external model for ops that declare only value-less effects.
    """

    reads: Callable[[Operation], tuple[SSAValue, ...]] | None = None
    writes: Callable[[Operation], tuple[SSAValue, ...]] | None = None
    allocates: Callable[[Operation], tuple[SSAValue, ...]] | None = None
    frees: Callable[[Operation], tuple[SSAValue, ...]] | None = None

    def get_effects(self, op: Operation) -> Set[EffectInstance]:  # type: ignore[override]
        return {EffectInstance(kind, v) for kind, v in self.pairs(op)}

    def pairs(self, op: Operation) -> list[tuple[MemoryEffectKind, SSAValue]]:
        """The effects as `(kind, value)` pairs (`effect_pairs`); a subclass that
        finds its values otherwise overrides this, not `get_effects`."""
        pairs: list[tuple[MemoryEffectKind, SSAValue]] = []
        for getter, kind in (
            (self.reads, MemoryEffectKind.READ),
            (self.writes, MemoryEffectKind.WRITE),
            (self.allocates, MemoryEffectKind.ALLOC),
            (self.frees, MemoryEffectKind.FREE),
        ):
            if getter is not None:
                pairs += [(kind, v) for v in getter(op)]
        return pairs


def operands_named(*names: str) -> Callable[[Operation], tuple[SSAValue, ...]]:
    """An accessor for `OperandEffects` returning the named (variadic) operands."""

    def get(op: Operation) -> tuple[SSAValue, ...]:
        assert isinstance(op, IRDLOperation)
        values: list[SSAValue] = []
        for name in names:
            field = getattr(op, name)
            if field is None:
                continue
            # (a variadic group is a tuple: tested first, as `SSAValue` is an ABC
            # whose isinstance costs more than the rest of the loop)
            if not isinstance(field, tuple) and isinstance(field, SSAValue):
                values.append(field)
            else:
                values.extend(field)
        return tuple(values)

    return get


_BUFFER_CLASSES: dict[type, bool] = {}
"""Whether each attribute class is a memref type, asked once (`isinstance` of an
xDSL type goes through `ABCMeta.__instancecheck__`; a kernel asks it per operand)."""


def is_buffer(value: SSAValue) -> bool:
    """Whether the value is memory (a memref) rather than a tensor or a scalar."""
    cls = type(value.type)
    known = _BUFFER_CLASSES.get(cls)
    if known is None:
        known = _BUFFER_CLASSES[cls] = issubclass(cls, (MemRefType, UnrankedMemRefType))
    return known


def buffer_operands_named(*names: str) -> Callable[[Operation], tuple[SSAValue, ...]]:
    """Like `operands_named`, keeping only memref-typed values: an op that takes a
    tensor or a memref in the same operand touches memory only in memref form."""
    get = operands_named(*names)

    def buffers(op: Operation) -> tuple[SSAValue, ...]:
        return tuple(v for v in get(op) if is_buffer(v))

    return buffers


def all_results(op: Operation) -> tuple[SSAValue, ...]:
    return tuple(op.results)


@dataclass(frozen=True)
class SuccessorOperands(OpTrait):
    """Terminator operand field `fields[i]` (a variadic operand of an IRDL op) holds
    the values passed to the block arguments of successor `i`."""

    fields: tuple[str, ...]

    def forwarded(self, op: Operation, successor: int) -> Sequence[SSAValue]:
        return tuple(getattr(op, self.fields[successor]))

    def without(self, op: Operation, drop: dict[int, set[int]]) -> Operation:
        """A copy of `op` that no longer passes, to each successor `i` in `drop`, the
        operands at the positions `drop[i]`."""
        assert isinstance(op, IRDLOperation)
        dropped_fields = {self.fields[i]: positions for i, positions in drop.items()}
        groups: list[SSAValue | Sequence[SSAValue] | None] = []
        for name, _ in op.get_irdl_definition().operands:
            group = getattr(op, name)
            if name in dropped_fields:
                group = [v for i, v in enumerate(group) if i not in dropped_fields[name]]
            groups.append(group)
        properties = {k: v for k, v in op.properties.items() if k != "operandSegmentSizes"}
        return type(op).build(
            operands=groups,
            result_types=[r.type for r in op.results],
            properties=properties,
            attributes=dict(op.attributes),
            successors=list(op.successors),
        )
