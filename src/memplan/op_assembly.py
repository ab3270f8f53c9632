"""Ops made field by field, as `Operation.create` makes them, for the places that
make them by the thousand: the parser rebuilding repeated lines and the memory
passes' offsets and views (a 20k-op decoder: 19k and 14k ops).

xDSL's constructor fills defaults, checks each operand and result through generic
setters and links uses one by one; three quarters of its cost is work these callers
have already done (their dictionaries are complete, their ops have no successors or
regions). `assemble` sets the same fields in the same order, with the same use lists
and result objects. It writes xDSL's private fields, so it is used only for classes
that keep xDSL's own `create`, `__post_init__` and `__new__`
(`assembles_as_created`), and tests hold it to xDSL's constructor
(tests/unit/test_op_assembly.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from xdsl.dialects.builtin import UNKNOWN_LOC
from xdsl.ir import Attribute, OpResult, Operation, SSAValue, SSAValues, Use
from xdsl.irdl import IRDLOperation

__all__ = ["assemble", "assembles_as_created", "constructs_plainly"]

_BASE_CREATE = Operation.create.__func__  # type: ignore[attr-defined]
_PLAIN_POST_INITS = (Operation.__post_init__, IRDLOperation.__post_init__)
_new = object.__new__


def assemble(
    op_type: type[Operation],
    operands: Sequence[SSAValue],
    result_types: Sequence[Attribute],
    properties: dict[str, Attribute],
    attributes: dict[str, Attribute],
    location: Attribute = UNKNOWN_LOC,
) -> Operation:
    """`op_type.create(operands=..., result_types=..., properties=...,
    attributes=..., location=...)` without successors or regions. The op takes the
    dictionaries as they are (a caller reusing one passes a copy) and they must hold
    every default the class would fill."""
    op = _new(op_type)
    uses = []
    index = 0
    for value in operands:
        first = value.first_use
        use = Use(op, index, None, first)
        if first is not None:
            first._prev_use = use  # pyright: ignore[reportPrivateUsage]
        value.first_use = use
        uses.append(use)
        index += 1
    op._operands = SSAValues(operands)  # pyright: ignore[reportPrivateUsage]
    op._operand_uses = tuple(uses)  # pyright: ignore[reportPrivateUsage]
    if len(result_types) == 1:
        op.results = SSAValues((OpResult(result_types[0], op, 0),))
    else:
        op.results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
    op.properties = properties
    op.attributes = attributes
    op.location = location
    op._successors = ()  # pyright: ignore[reportPrivateUsage]
    op._successor_uses = ()  # pyright: ignore[reportPrivateUsage]
    op.regions = ()
    return op


def constructs_plainly(op_type: type[Operation]) -> bool:
    """Whether `op_type` keeps xDSL's `__post_init__` (which only fills defaults)
    and `__new__`: what xDSL's `create` makes of it, `assemble` makes."""
    return op_type.__post_init__ in _PLAIN_POST_INITS and op_type.__new__ is _new


@cache
def assembles_as_created(op_type: type[Operation]) -> bool:
    """Whether `assemble` makes what `op_type.create` makes: the class keeps xDSL's
    `create` and constructs plainly."""
    return getattr(op_type.create, "__func__", None) is _BASE_CREATE and constructs_plainly(op_type)
