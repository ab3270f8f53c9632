"""What an op's memory effects allow the cleanup passes to do with it.

CSE, DCE and the canonicalizer decide from effects alone (`memplan.interfaces.
memory_effects`, value- and symbol-tied where the op's model says so), never from op
names:

- an op without effects may be merged with an equal one and dropped when unused;
- an op that only reads may be merged when nothing that may write what it reads lies
  between, and dropped when unused;
- an op that allocates a fresh result is never merged (two users would then share one
  buffer, IREE bug #23665) but is dropped when unused;
- an op with unknown effects (no effect trait at all) is kept and never merged.

Memory is split into *resources* so that a write blocks only the reads it may
affect. A global (a `SymbolRefAttr` effect) is its own resource: globals never alias.
A value-tied effect names the buffer at the root of its view chain; a root that is the
fresh allocation of some op is its own resource, any other root (a block argument, a
result of an op that does not allocate) may alias every non-global buffer. An effect
on a `NonAddressableResource` touches that resource only (no buffer or global
aliases it; its disjoint parts do not alias each other). Any other effect tied to
nothing may touch any addressable memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute, Operation, OpResult, Region, SSAValue, SSAValues
from xdsl.traits import (
    IsTerminator,
    MemoryEffect,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)

from memplan.analysis.aliasing import root_of
from memplan.interfaces import (
    EffectInstance,
    NonAddressableResource,
    MemoryEffectKind,
    class_has_trait,
    get_interface,
    memory_effects,
)

__all__ = [
    "ANY_BUFFER",
    "EVERYTHING",
    "EffectClass",
    "Purity",
    "Resource",
    "classify",
    "effects_of",
    "is_trivially_dead",
    "memoized_effects",
    "resource_of",
    "written_resources",
    "would_be_trivially_dead",
]


# Enum members bound once: `MemoryEffectKind.READ` is a descriptor lookup (about
# 0.2 us), and these tests run for every effect of every op several times a sweep.
_READ = MemoryEffectKind.READ
_WRITE = MemoryEffectKind.WRITE
_ALLOC = MemoryEffectKind.ALLOC
_FREE = MemoryEffectKind.FREE


class _Wildcard(Enum):
    ANY_BUFFER = "any non-global buffer"
    EVERYTHING = "any memory"


ANY_BUFFER = _Wildcard.ANY_BUFFER
"""A buffer that may alias any other non-global buffer."""
EVERYTHING = _Wildcard.EVERYTHING
"""Unknown memory: may be any global or buffer."""

Resource = SymbolRefAttr | SSAValue | NonAddressableResource | _Wildcard
"""A global, a freshly allocated root buffer, a non-addressable resource, or one
of the two wildcards."""


_Memo = dict[Operation, tuple[SSAValues, dict[str, Attribute], dict[str, Attribute],
                              AbstractSet[EffectInstance] | None]]
_memo: _Memo | None = None
_memo_depth = 0


@contextmanager
def memoized_effects() -> Iterator[None]:
    """Within it, `effects_of` answers an op without regions from a memo while the
    op's operands, properties and attributes are the ones it was computed for.

    An effect model reads only its op: operands (and their types), results (fixed
    for an op's life, as every value's type is), properties and attributes. Passes
    ask the effects of every op several times per sweep (dead-op checks, CSE's
    classes, barriers), and a kernel's value-tied model costs tens of microseconds.
    An op with regions is never memoized: its effects may be its nested ops'."""
    global _memo, _memo_depth
    if _memo_depth == 0:
        _memo = {}
    _memo_depth += 1
    try:
        yield
    finally:
        _memo_depth -= 1
        if _memo_depth == 0:
            _memo = None


def effects_of(op: Operation) -> AbstractSet[EffectInstance] | None:
    """`memory_effects(op)`, with the effects of an op that has its nested ops'
    effects (`RecursiveMemoryEffect`) gathered from memplan's value-tied models of
    those ops rather than xDSL's value-less ones. None means unknown."""
    memo = _memo
    if memo is None or op.regions:
        return _effects_of(op)
    known = memo.get(op)
    operands = op._operands  # pyright: ignore[reportPrivateUsage] (a new tuple per change)
    if (
        known is not None
        and known[0] is operands
        and known[1] == op.properties
        and known[2] == op.attributes
    ):
        return known[3]
    effects = _effects_of(op)
    if effects is not None:
        effects = frozenset(effects)
    memo[op] = (operands, dict(op.properties), dict(op.attributes), effects)
    return effects


def _effects_of(op: Operation) -> AbstractSet[EffectInstance] | None:
    own_traits = op.get_traits_of_type(MemoryEffect)
    has_external_model = get_interface(op, MemoryEffect) not in own_traits
    if has_external_model or not class_has_trait(
        op, RecursiveMemoryEffect, value_if_unregistered=False
    ):
        return memory_effects(op)
    effects: set[EffectInstance] = set()
    for trait in own_traits:
        if isinstance(trait, RecursiveMemoryEffect):
            continue
        got = trait.get_effects(op)
        if got is None:
            return None
        effects.update(got)
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                got = effects_of(nested)
                if got is None:
                    return None
                effects.update(got)
    return effects


def _allocates(value: SSAValue) -> bool:
    """Whether `value` is a fresh allocation of the op defining it."""
    if not isinstance(value, OpResult):
        return False
    effects = effects_of(value.op)
    return effects is not None and any(
        e.kind is _ALLOC and e.value is value for e in effects
    )


def resource_of(effect: EffectInstance) -> Resource:
    """The resource an effect touches."""
    if isinstance(effect.resource, NonAddressableResource):
        return effect.resource
    target = effect.value
    if target is None:
        return EVERYTHING
    if isinstance(target, SymbolRefAttr):
        return target
    root = root_of(target)
    return root if _allocates(root) else ANY_BUFFER


class EffectClass(Enum):
    PURE = "pure"
    READ_ONLY = "read-only"
    ALLOCATES = "allocates"
    WRITES = "writes"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Purity:
    """An op's effects as the cleanup passes use them."""

    kind: EffectClass
    reads: frozenset[Resource] = frozenset()
    """The resources a READ_ONLY op reads."""


_PURE = Purity(EffectClass.PURE)
_UNKNOWN = Purity(EffectClass.UNKNOWN)


def classify(op: Operation) -> Purity:
    effects = effects_of(op)
    if effects is None:
        return _UNKNOWN
    if not effects:
        return _PURE
    kinds = {e.kind for e in effects}
    if kinds == {_READ}:
        return Purity(EffectClass.READ_ONLY, frozenset(resource_of(e) for e in effects))
    if _WRITE in kinds or _FREE in kinds:
        return Purity(EffectClass.WRITES)
    return Purity(EffectClass.ALLOCATES)


def written_resources(op: Operation) -> frozenset[Resource] | None:
    """What `op` itself may write or free (None: unknown, i.e. anything)."""
    effects = effects_of(op)
    if effects is None:
        return None
    return frozenset(
        resource_of(e)
        for e in effects
        if e.kind is _WRITE or e.kind is _FREE
    )


def regions_written_resources(regions: Iterable[Region]) -> frozenset[Resource] | None:
    """What any op nested in `regions` may write (None: unknown)."""
    written: set[Resource] = set()
    for region in regions:
        for nested in region.walk():
            got = written_resources(nested)
            if got is None:
                return None
            written.update(got)
    return frozenset(written)


def would_be_trivially_dead(op: Operation) -> bool:
    """Whether `op` could be erased if its results were unused: as MLIR's
    `wouldOpBeTriviallyDead`, it is no terminator or symbol and only reads memory
    or allocates its own results."""
    # Unregistered ops count as terminators or symbols here: never dead.
    if class_has_trait(op, IsTerminator, value_if_unregistered=True) or class_has_trait(
        op, SymbolOpInterface, value_if_unregistered=True
    ):
        return False
    effects = effects_of(op)
    if effects is None:
        return False
    for effect in effects:
        if effect.kind is _READ:
            continue
        if (
            effect.kind is _ALLOC
            and isinstance(effect.value, SSAValue)
            and _defined_inside(effect.value, op)
        ):
            continue
        return False
    return True


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    owner_op = owner if isinstance(owner, Operation) else owner.parent_op()
    return owner_op is not None and op.is_ancestor(owner_op)


def is_trivially_dead(op: Operation) -> bool:
    """No result of `op` is used and erasing it changes nothing observable."""
    return all(r.first_use is None for r in op.results) and would_be_trivially_dead(op)
