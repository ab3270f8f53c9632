"""Which SSA values name the bytes of which buffer: view chains back to their root.

A view (`memplan.interfaces.ViewLike`: subview, cast, reinterpret_cast, view,
expand/collapse_shape, memory_space_cast, assume_alignment, or any op a dialect
marks so) gives a new name to bytes of its source. Every access through a view is
an access to the *root*, the value at the start of the chain (an allocation, a
block argument, a value of an op that is not a view). This module answers the two
questions the memory analyses ask, from the interface alone:

- `root_of(value)`: the root a value names;
- `alias_uses(root)`: every use of the root and of every view reachable from it,
  each marked as either a view edge (the user is a view of that value) or a real
  use to classify. Each alias is visited once, so the cost is linear in the number
  of uses of the root and its views.

`static_bytes(type)` gives the bytes a statically shaped buffer type spans, for the
passes that compare or pack buffers, with elements sized by the data layout
(`memplan.analysis.data_layout.alloc_size`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from memplan.analysis.data_layout import alloc_size

from memplan.interfaces import ViewLike, get_interface

__all__ = [
    "AliasUse",
    "alias_uses",
    "aliases_of",
    "root_of",
    "static_bytes",
    "view_of",
]

def view_of(op: Operation) -> tuple[SSAValue, int] | None:
    """`(source, operand index)` when `op` is a view whose first result names bytes
    of `source`; None otherwise (also for a view op without results)."""
    trait = get_interface(op, ViewLike)
    if trait is None or not op.results:
        return None
    return trait.view_source(op), trait.source_index


def root_of(value: SSAValue) -> SSAValue:
    """The buffer `value` names: its chain of views followed back to the start (a
    cycle, possible only in unreachable code, ends the walk where it closes)."""
    seen: set[SSAValue] = set()
    while isinstance(value, OpResult) and value.index == 0 and value not in seen:
        view = view_of(value.op)
        if view is None:
            break
        seen.add(value)
        value = view[0]
    return value


class AliasUse(NamedTuple):
    """One use of a value that names bytes of a root buffer (a tuple: the analyses
    make one per use of every buffer, and a frozen dataclass costs 4x to build)."""

    user: Operation
    value: SSAValue
    """The alias the user takes (the root or a view of it)."""
    operand_index: int
    is_view: bool
    """The user is a view of `value`: its first result is another alias, whose own
    uses are reported too; the view op itself touches no memory."""


def alias_uses(root: SSAValue) -> Iterator[AliasUse]:
    """Every use of `root` and of the views reachable from it, depth-first."""
    pending = [root]
    seen = {id(root)}  # (the values stay alive in the IR; an SSAValue hashes in Python)
    while pending:
        value = pending.pop()
        for use in tuple(value.uses):
            user = use.operation
            index = use.index
            # `view_of` without building the source: only the operand index counts.
            trait = get_interface(user, ViewLike)
            is_view = trait is not None and trait.source_index == index and bool(user.results)
            yield AliasUse(user, value, index, is_view)
            if is_view:
                alias = user.results[0]
                if id(alias) not in seen:
                    seen.add(id(alias))
                    pending.append(alias)


def aliases_of(root: SSAValue) -> list[SSAValue]:
    """`root` and every view reachable from it, root first."""
    values = [root]
    values.extend(u.user.results[0] for u in alias_uses(root) if u.is_view)
    return values


def static_bytes(memref_type: Attribute) -> int | None:
    """The bytes of a static, identity-layout memref type; None otherwise."""
    if (
        not isinstance(memref_type, MemRefType)
        or not isinstance(memref_type.layout, NoneAttr)
        or not memref_type.has_static_shape()
    ):
        return None
    width = alloc_size(memref_type.element_type)
    if width is None:
        return None
    return width * memref_type.element_count()
