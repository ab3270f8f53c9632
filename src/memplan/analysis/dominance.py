"""Block dominance in one region: the dominator tree, in linear time in practice.

xDSL's `DominanceInfo` computes dominator *sets* by iterating set intersections
(quadratic in blocks and memory); passes that walk a region in dominance order need
the tree itself. This is Cooper, Harvey and Kennedy's "A Simple, Fast Dominance
Algorithm": immediate dominators by intersecting along reverse post-order, then
pre/post numbers of the tree so that `dominates` is O(1).

Blocks unreachable from the entry block have no place in the tree; they are listed
in `unreachable` and dominate nothing.
"""

from __future__ import annotations

from xdsl.ir import Block, Region

__all__ = ["DominatorTree", "successors"]


def successors(block: Block) -> tuple[Block, ...]:
    last = block.last_op
    return tuple(last.successors) if last is not None else ()


class DominatorTree:
    """The dominator tree of the blocks of `region` reachable from its entry."""

    def __init__(self, region: Region):
        blocks = list(region.blocks)
        self.entry: Block | None = blocks[0] if blocks else None
        self.reverse_post_order: list[Block] = self._reverse_post_order()
        reachable = set(self.reverse_post_order)
        self.unreachable: list[Block] = [b for b in blocks if b not in reachable]
        self.idom: dict[Block, Block | None] = self._immediate_dominators()
        self.children: dict[Block, list[Block]] = {b: [] for b in self.reverse_post_order}
        for block in self.reverse_post_order:
            parent = self.idom[block]
            if parent is not None:
                self.children[parent].append(block)
        self._pre: dict[Block, int] = {}
        self._post: dict[Block, int] = {}
        self._number()

    def _reverse_post_order(self) -> list[Block]:
        if self.entry is None:
            return []
        post: list[Block] = []
        visited = {self.entry}
        stack: list[tuple[Block, int]] = [(self.entry, 0)]
        while stack:
            block, next_index = stack[-1]
            succs = successors(block)
            if next_index < len(succs):
                stack[-1] = (block, next_index + 1)
                succ = succs[next_index]
                if succ not in visited and succ.parent is block.parent:
                    visited.add(succ)
                    stack.append((succ, 0))
            else:
                stack.pop()
                post.append(block)
        post.reverse()
        return post

    def _immediate_dominators(self) -> dict[Block, Block | None]:
        order = self.reverse_post_order
        if not order:
            return {}
        index = {b: i for i, b in enumerate(order)}
        preds: dict[Block, list[Block]] = {b: [] for b in order}
        for block in order:
            for succ in successors(block):
                if succ in preds:
                    preds[succ].append(block)
        entry = order[0]
        idom: dict[Block, Block] = {entry: entry}

        def intersect(a: Block, b: Block) -> Block:
            while a is not b:
                while index[a] > index[b]:
                    a = idom[a]
                while index[b] > index[a]:
                    b = idom[b]
            return a

        changed = True
        while changed:
            changed = False
            for block in order[1:]:
                new: Block | None = None
                for pred in preds[block]:
                    if pred in idom:
                        new = pred if new is None else intersect(pred, new)
                if new is not None and idom.get(block) is not new:
                    idom[block] = new
                    changed = True
        result: dict[Block, Block | None] = dict(idom)
        result[entry] = None
        return result

    def _number(self) -> None:
        if self.entry is None:
            return
        counter = 0
        stack: list[tuple[Block, bool]] = [(self.entry, False)]
        while stack:
            block, done = stack.pop()
            if done:
                self._post[block] = counter
                counter += 1
                continue
            self._pre[block] = counter
            counter += 1
            stack.append((block, True))
            stack.extend((child, False) for child in reversed(self.children[block]))

    def is_reachable(self, block: Block) -> bool:
        return block in self._pre

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from the entry to `b` passes through `a` (a block
        dominates itself); False when either is unreachable."""
        if a not in self._pre or b not in self._pre:
            return False
        return self._pre[a] <= self._pre[b] and self._post[b] <= self._post[a]

    def properly_dominates(self, a: Block, b: Block) -> bool:
        return a is not b and self.dominates(a, b)
