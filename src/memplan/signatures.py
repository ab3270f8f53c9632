"""An op's signature as a dictionary key: its class (or another head), operand and
result types, properties and attributes, equal values as one.

A decoder has tens of thousands of ops but a few hundred signatures; what depends
on the signature alone is done once per signature: verification
(`memplan.verification`) and the text of an op apart from its values' names
(`memplan.printing.structure`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.ir import Attribute, Operation

__all__ = ["Signatures"]


class Signatures:
    """Keys of signatures under a head, and which of them passed (a check, for
    verification).

    Compared by identity after interning: the parser shares equal types and
    attributes, but a pass builds a new type object per op it creates (every
    `memref.view` of a pool), so each object is mapped, by value, to the first
    equal one, and then found by its id (which stays its own: the object is
    kept). Equal attributes (xDSL compares floats by their bits) print the same
    text."""

    def __init__(self) -> None:
        self._ids: dict[int, int] = {}
        self._first: dict[Attribute, int] = {}
        self._kept: list[Attribute] = []
        self.passed_keys: set[tuple[object, ...]] = set()
        """The keys of the signatures that passed."""
        # Each distinct signature's number: keys and the table by op hold ints,
        # which the garbage collector does not track (a tuple kept per op made
        # it run a collection every 700 ops, a full one on a large module).
        self._numbers: dict[tuple[object, ...], int] = {}
        # Signature numbers by op id (ops stay while the IR is only read); -1:
        # no key.
        self._op_keys: dict[int, int] | None = None

    def unknown(self, head: object, op: Operation) -> tuple[object, ...] | None:
        """None when an op of `op`'s signature under `head` passed; else the key
        `passed` records once `op` has passed (an empty one when an attribute is
        unhashable: nothing is recorded)."""
        key = self.key(head, op)
        return None if key in self.passed_keys else key

    def passed(self, key: tuple[object, ...]) -> None:
        if key:
            self.passed_keys.add(key)

    def _intern(self, value: Attribute) -> int:
        found = self._first.setdefault(value, id(value))
        if found != id(value):  # a later equal object (the first is in `_first`)
            self._kept.append(value)
        self._ids[id(value)] = found
        return found

    def shape(self, op: Operation) -> tuple[object, ...] | None:
        """What an op's IRDL definition checks of it beyond its signature: its
        number of successors and, per region, the number of blocks and the types
        of the entry block's arguments (None when a type is unhashable)."""
        ids, intern = self._ids.get, self._intern
        shape: list[object] = [len(op._successors)]  # pyright: ignore[reportPrivateUsage]
        try:
            for region in op.regions:
                entry = region.first_block
                shape.append(len(region.blocks))
                if entry is not None:
                    shape += [ids(id(a.type)) or intern(a.type) for a in entry.args]
                shape.append(None)
        except TypeError:
            return None
        return tuple(shape)

    def key(self, head: object, op: Operation) -> tuple[object, ...]:
        """`op`'s signature under `head`; empty when an attribute is unhashable
        (no key: nothing may be shared)."""
        number = self.number(op)
        return (head, number) if number >= 0 else ()

    def number(self, op: Operation) -> int:
        """The number of `op`'s signature; -1 when an attribute is unhashable."""
        memo = self._op_keys
        number = None if memo is None else memo.get(id(op))
        if number is None:
            signature = self._signature(op)
            if signature:
                number = self._numbers.get(signature)
                if number is None:
                    number = self._numbers[signature] = len(self._numbers)
            else:
                number = -1
            if memo is not None:
                memo[id(op)] = number
        return number

    @property
    def memoizing(self) -> bool:
        """Whether each op's signature is kept (within `reading`)."""
        return self._op_keys is not None

    @property
    def memo(self) -> dict[int, int] | None:
        """Each op's `number` by op id, found so far within `reading`; else None.
        (For loops over many ops: a lookup here is cheaper than a call.)"""
        return self._op_keys

    def _signature(self, op: Operation) -> tuple[object, ...]:
        ids = self._ids
        try:  # every object already known, the common case: no call per value
            parts = [ids[id(v._type)] for v in op._operands]  # pyright: ignore[reportPrivateUsage]
            parts.append(None)
            for result in op.results:
                parts.append(ids[id(result._type)])  # pyright: ignore[reportPrivateUsage]
            for name, value in op.properties.items():
                parts += (name, ids[id(value)])
            parts.append(None)
            for name, value in op.attributes.items():
                parts += (name, ids[id(value)])
            return tuple(parts)
        except KeyError:
            pass
        get, intern = ids.get, self._intern
        try:
            return (
                *[get(id(v.type)) or intern(v.type) for v in op._operands],  # pyright: ignore[reportPrivateUsage]
                None, *[get(id(r.type)) or intern(r.type) for r in op.results],
                *[x for n, a in op.properties.items() for x in (n, get(id(a)) or intern(a))],
                None,
                *[x for n, a in op.attributes.items() for x in (n, get(id(a)) or intern(a))],
            )
        except TypeError:
            return ()

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Within it the IR is only read (a verification, then the printing of
        the same module): each op's signature is found once and kept by op."""
        self._op_keys = {}
        try:
            yield
        finally:
            self._op_keys = None
