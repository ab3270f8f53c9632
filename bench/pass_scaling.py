"""How memplan's passes scale with the size of a decoder (ops and buffers).

Generates the decoder modules of `pipeline_speed.decoder_module` (hip layers with
host-fed scalars, views, a host loop and read-backs; an IREE initializer), parses
each once, and times every pass of interest on a fresh copy. Beside each memplan pass
it runs a baseline in the same process: xDSL's own `cse` next to memplan's `cse`, and
a plain walk over all ops next to the memory passes, so machine speed cancels out.

    python bench/pass_scaling.py [OPS ...]      (default: 2000 8000 32000)

Per size it prints ops, buffers, seconds per pass and microseconds per op; a pass
that scales linearly keeps its us/op flat as the sizes grow.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)

import memplan
from memplan.tools.pipeline import parse_pass_pipeline

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pipeline_speed import decoder_module  # noqa: E402

def walk_all(ctx: Context, module: ModuleOp) -> None:
    """The cheapest whole-module visit: the floor any pass pays."""
    for _ in module.walk():
        pass


def memplan_pass(pipeline: str) -> Callable[[Context, ModuleOp], None]:
    (scheduled,) = parse_pass_pipeline(pipeline)
    return scheduled.instance.apply


RUNS: list[tuple[str, Callable[[Context, ModuleOp], None]]] = [
    ("walk (baseline)", walk_all),
    ("xdsl cse (baseline)", CommonSubexpressionElimination().apply),
    ("memplan cse", memplan_pass("cse")),
    ("canonicalize", memplan_pass("canonicalize")),
    ("stream-cleanup", memplan_pass("stream-cleanup")),
    ("materialize-host-scalars", memplan_pass("materialize-host-scalars")),
    ("optimize-memrefs", memplan_pass("optimize-memrefs")),
    ("pool-allocs", memplan_pass("pool-allocs")),
    ("hip-memory-plan", memplan_pass("hip-memory-plan")),
    ("verify-memory-plan", memplan_pass("verify-memory-plan")),
]


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [2000, 8000, 32000]
    ctx = memplan.make_context()
    header = f"{'pass':<26}" + "".join(f"{str(n) + ' ops':>22}" for n in sizes)
    rows: dict[str, list[str]] = {name: [] for name, _ in RUNS}
    facts: list[str] = []
    for size in sizes:
        text = decoder_module(size).text
        start = time.perf_counter()
        module = memplan.parse(ctx, text)
        parse_seconds = time.perf_counter() - start
        ops = sum(1 for _ in module.walk())
        buffers = text.count("memref.alloc")
        facts.append(f"{size}: {ops} ops, {buffers} buffers, parse {parse_seconds:.2f} s")
        for name, run in RUNS:
            copy = module.clone()
            start = time.perf_counter()
            run(ctx, copy)
            seconds = time.perf_counter() - start
            rows[name].append(f"{seconds:8.3f} s {1e6 * seconds / ops:7.1f} us/op")
    print("\n".join(facts))
    print(header)
    for name, cells in rows.items():
        print(f"{name:<26}" + "".join(f"{c:>22}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
