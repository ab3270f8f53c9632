"""Shared pieces of the random-CFG differential tests (test_cse,
test_simplify_global_accesses): how a random block ends, and how an interpreter
decides a conditional branch the same way before and after a pass."""

from __future__ import annotations

import random

from hypothesis import strategies as st
from xdsl.ir import Block, Operation


def draw_block_exit(draw, block: int, n_blocks: int, return_op: str) -> str:
    """The terminator of block `block` of `n_blocks`: a return, a branch or a
    conditional branch (on %cond, tagged with a seed) to random non-entry blocks."""
    exit_kind = draw(st.sampled_from(["br", "cond_br", "cond_br", "return"]))
    if exit_kind == "return" or n_blocks == 1:
        return f"  {return_op}"
    if exit_kind == "br":
        return f"  cf.br ^bb{draw(st.integers(1, n_blocks - 1))}"
    t, f = draw(st.integers(1, n_blocks - 1)), draw(st.integers(1, n_blocks - 1))
    return f"  cf.cond_br %cond, ^bb{t}, ^bb{f} {{seed = {block}}}"


def take_branch(op: Operation, visits: dict[Operation, int]) -> Block:
    """The successor a `cf.cond_br` of these programs takes: it depends only on the
    branch's seed and how often it was reached, so passes that keep the CFG cannot
    change the path."""
    count = visits[op] = visits.get(op, 0) + 1
    seed = op.attributes["seed"].value.data
    taken = random.Random(seed * 1000 + count).random() < 0.5
    return op.successors[0 if taken else 1]
