"""When two ops compute the same thing: the hash key CSE and constant merging use.

Two ops are equal when they have the same name, operands (the same SSA values, in
any order for commutative ops),
properties, attributes, result types and structurally equal regions. Source
locations are not part of an op's meaning and do not count. The hash covers all but
the regions' contents, so comparing regions op by op happens only on a hash hit.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.traits import Commutative

__all__ = ["OpKey", "op_name", "regions_equivalent"]


def op_name(op: Operation) -> str:
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def _dict_hash(entries: dict[str, Attribute]) -> int:
    return hash(frozenset(entries.items())) if entries else 0


def _operands(op: Operation) -> tuple[SSAValue, ...]:
    """The operands, in a canonical order for commutative ops (`a + b` is `b + a`)."""
    if op.has_trait(Commutative, value_if_unregistered=False):
        return tuple(sorted(op.operands, key=id))
    return tuple(op.operands)


class OpKey:
    """An op as a hash key: equal keys are ops that compute the same thing."""

    __slots__ = ("op", "_operands", "_hash")

    def __init__(self, op: Operation):
        self.op = op
        self._operands = _operands(op)
        self._hash = hash((
            op_name(op),
            self._operands,
            tuple(op.result_types),
            _dict_hash(op.properties),
            _dict_hash(op.attributes),
            tuple(len(r.blocks) for r in op.regions),
        ))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OpKey):
            return NotImplemented
        a, b = self.op, other.op
        return (
            self._hash == other._hash
            and op_name(a) == op_name(b)
            and self._operands == other._operands
            and tuple(a.result_types) == tuple(b.result_types)
            and a.properties == b.properties
            and a.attributes == b.attributes
            and regions_equivalent(a.regions, b.regions)
        )


def regions_equivalent(left: Sequence[Region], right: Sequence[Region]) -> bool:
    """Whether two lists of regions are the same code: same blocks, ops (compared as
    `OpKey` does, result types included) and uses, where each value defined inside
    corresponds to its counterpart and every value from outside is the same value."""
    if len(left) != len(right):
        return False
    mapping: dict[SSAValue | Block, SSAValue | Block] = {}
    pairs: list[tuple[Region, Region]] = list(zip(left, right))
    while pairs:
        ra, rb = pairs.pop()
        blocks_a, blocks_b = list(ra.blocks), list(rb.blocks)
        if len(blocks_a) != len(blocks_b):
            return False
        for ba, bb in zip(blocks_a, blocks_b):
            if len(ba.args) != len(bb.args) or ba.arg_types != bb.arg_types:
                return False
            mapping[ba] = bb
            mapping.update(zip(ba.args, bb.args))
        for ba, bb in zip(blocks_a, blocks_b):
            ops_a, ops_b = list(ba.ops), list(bb.ops)
            if len(ops_a) != len(ops_b):
                return False
            for oa, ob in zip(ops_a, ops_b):
                if (
                    op_name(oa) != op_name(ob)
                    or len(oa.operands) != len(ob.operands)
                    or len(oa.successors) != len(ob.successors)
                    or len(oa.regions) != len(ob.regions)
                    or tuple(oa.result_types) != tuple(ob.result_types)
                    or oa.properties != ob.properties
                    or oa.attributes != ob.attributes
                ):
                    return False
                if any(mapping.get(va, va) is not vb
                       for va, vb in zip(oa.operands, ob.operands)):
                    return False
                if any(mapping.get(sa) is not sb
                       for sa, sb in zip(oa.successors, ob.successors)):
                    return False
                mapping.update(zip(oa.results, ob.results))
                pairs.extend(zip(oa.regions, ob.regions))
    return True
