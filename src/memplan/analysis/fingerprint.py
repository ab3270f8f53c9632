"""A canonical fingerprint of a piece of IR, for telling whether a pass changed it.

Passes may misreport what they did (IREE's fixed-point iterator looped forever on a
pass that claimed a change it had not made, and ran once when passes changed IR
silently), so anything that must know whether IR changed compares fingerprints.

The fingerprint is exact, not a hash: two fingerprints are equal iff the two pieces
of IR have the same ops in the same order with the same names, attributes,
properties, result types, operand numbering, successors and block/region structure
(block argument types included). SSA names and source locations do not count: they
do not change what the IR means. Values are numbered in order of definition, so
renumbering alone is invisible while any rewiring of uses is seen; a value used
before its definition in the walk (possible in a multi-block region whose blocks are
not listed in dominance order) is tied to its uses by recording, at the definition,
the number its uses got. It costs one pre-order walk (about half a `cse` run).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue

__all__ = ["Fingerprint", "fingerprint"]


@dataclass(frozen=True)
class Fingerprint:
    """The canonical form of an op and everything nested in it; compare with `==`."""

    entries: tuple[Hashable, ...]

    def __len__(self) -> int:
        return len(self.entries)


def fingerprint(root: Operation) -> Fingerprint:
    """The fingerprint of `root` and everything nested in it.

    Values defined outside `root` are numbered (negatively) in order of first use,
    so a sub-op's fingerprint is still canonical.
    """
    values: dict[SSAValue, int] = {}
    outside: dict[SSAValue, int] = {}
    blocks: dict[Block, int] = {}
    entries: list[Hashable] = []

    def number(value: SSAValue) -> int:
        found = values.get(value)
        if found is not None:
            return found
        found = outside.get(value)
        if found is None:
            found = outside[value] = -1 - len(outside)
        return found

    def forward_uses(defined: Sequence[SSAValue]) -> tuple[int | None, ...]:
        """For values used before their definition in the walk (a block listed
        before the block that defines what it uses): the number their uses got, so
        that which forward use is which value is part of the fingerprint."""
        if not outside:
            return ()
        return tuple(outside.get(v) for v in defined)

    def visit_op(op: Operation) -> None:
        entries.append((
            op.name,
            tuple(number(v) for v in op.operands),
            tuple(r.type for r in op.results),
            forward_uses(op.results),
            tuple(blocks.get(b, -1) for b in op.successors),
            tuple(sorted(op.properties.items())),
            tuple(sorted(op.attributes.items())),
            tuple(len(r.blocks) for r in op.regions),
        ))
        for result in op.results:
            values[result] = len(values)
        for region in op.regions:
            # Number the region's blocks first: branches may target later blocks.
            for block in region.blocks:
                blocks[block] = len(blocks)
            for block in region.blocks:
                entries.append((
                    len(block.ops),
                    tuple(a.type for a in block.args),
                    forward_uses(block.args),
                ))
                for arg in block.args:
                    values[arg] = len(values)
                for nested in block.ops:
                    visit_op(nested)

    visit_op(root)
    return Fingerprint(tuple(entries))
