"""Whether a nested access runs where its enclosing op is: the host-inline-region rule.

An access inside a nested region counts at the enclosing op of the analysed block
only when every op between them declares `HostInlineRegions` (scf's loops and
branches): their regions run on the host before the op returns. Any other op with
regions (`gpu.launch async`, an unregistered op) may run its body later or on
another device, so a buffer used inside it is out of the analyses' reach: it
escapes (DESIGN.md section 2, docs/design/execution-model.md).
"""

from __future__ import annotations

from xdsl.ir import Block, Operation

from memplan.interfaces import host_inline_regions

__all__ = ["deferring_ancestor"]


def deferring_ancestor(op: Operation, block: Block) -> Operation | None:
    """The outermost op between `op` (excluded) and `block` whose regions, which
    contain `op`, may not run inline on the host; None when every one declares
    `HostInlineRegions` (or `op` is directly in `block`)."""
    found: Operation | None = None
    parent = op.parent_op()
    while parent is not None and op.parent_block() is not block:
        if host_inline_regions(parent) is None:
            found = parent
        op = parent
        parent = op.parent_op()
    return found
