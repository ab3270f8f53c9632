"""`op.walk()` at half the cost, for the whole-module scans of the memory passes
and their analyses (a 20k-op decoder is scanned several times per pass)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation

__all__ = ["walk_preorder"]


def walk_preorder(op: Operation) -> Iterator[Operation]:
    """`op`, then every op in its regions, each before its own regions' ops: the
    order of xDSL's `op.walk()`, with one generator per op that has regions where
    xDSL nests one per region, block and op."""
    yield op
    for region in op.regions:
        for block in region.blocks:
            nested = block.first_op
            while nested is not None:
                if nested.regions:
                    yield from walk_preorder(nested)
                else:
                    yield nested
                nested = nested.next_op
