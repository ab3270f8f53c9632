"""How memplan's passes scale with the size of a decoder (ops and buffers).

Generates hip IR for a decoder of L layers (each: host-fed scalars, norm, matmuls,
rope, attention, MLP, residual adds; a synchronize every few layers), parses it once
per size, and times every pass of interest on a fresh copy. Beside each memplan pass
it runs a baseline in the same process: xDSL's own `cse` next to memplan's `cse`, and
a plain walk over all ops next to the memory passes, so machine speed cancels out.

    python bench/pass_scaling.py [LAYERS ...]      (default: 4 16 64)

Per size it prints ops, buffers, seconds per pass and microseconds per op; a pass
that scales linearly keeps its us/op flat as the sizes grow.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)

import memplan
from memplan.tools.pipeline import parse_pass_pipeline

HIDDEN = 256
FFN = 704


def decoder_text(layers: int) -> str:
    """A decoder step of `layers` layers in hip IR before memory planning."""
    t = f"memref<1x{HIDDEN}xf16>"
    lines = [
        f"func.func @decoder(%ctx: !hip.context, %x0: {t}, %w: memref<{HIDDEN}x{HIDDEN}xf16>,"
        f" %wu: memref<{HIDDEN}x{FFN}xf16>, %wd: memref<{FFN}x{HIDDEN}xf16>,"
        f" %norm_w: memref<{HIDDEN}xf16>, %len: i64) -> {t} {{",
        "  %c0 = arith.constant 0 : index",
    ]
    x = "%x0"
    for i in range(layers):
        lines += [
            f"  %len{i} = memref.alloc() : memref<1xi64>",
            f"  memref.store %len, %len{i}[%c0] : memref<1xi64>",
            f"  %len32_{i} = memref.alloc() : memref<1xi32>",
            f"  hip.cast(%ctx) ins(%len{i} : memref<1xi64>) outs(%len32_{i} : memref<1xi32>)",
            f"  %n{i} = memref.alloc() : {t}",
            f"  hip.rms_norm(%ctx) ins({x}, %norm_w : {t}, memref<{HIDDEN}xf16>) outs(%n{i} : {t})",
            f"  %q{i} = memref.alloc() : {t}",
            f"  hip.matmul(%ctx) ins(%n{i}, %w : {t}, memref<{HIDDEN}x{HIDDEN}xf16>) outs(%q{i} : {t})",
            f"  %r{i} = memref.alloc() : {t}",
            f"  hip.rope(%ctx) ins(%q{i}, %len32_{i} : {t}, memref<1xi32>) outs(%r{i} : {t})",
            f"  %a{i} = memref.alloc() : {t}",
            f"  hip.attention(%ctx) ins(%r{i}, %n{i}, %n{i} : {t}, {t}, {t}) outs(%a{i} : {t})",
            f"  %h{i} = memref.alloc() : {t}",
            f"  hip.add(%ctx) ins({x}, %a{i} : {t}, {t}) outs(%h{i} : {t})",
            f"  %u{i} = memref.alloc() : memref<1x{FFN}xf16>",
            f"  hip.matmul(%ctx) ins(%h{i}, %wu : {t}, memref<{HIDDEN}x{FFN}xf16>) outs(%u{i} : memref<1x{FFN}xf16>)",
            f"  %s{i} = memref.alloc() : memref<1x{FFN}xf16>",
            f"  hip.silu(%ctx) ins(%u{i} : memref<1x{FFN}xf16>) outs(%s{i} : memref<1x{FFN}xf16>)",
            f"  %d{i} = memref.alloc() : {t}",
            f"  hip.matmul(%ctx) ins(%s{i}, %wd : memref<1x{FFN}xf16>, memref<{FFN}x{HIDDEN}xf16>) outs(%d{i} : {t})",
            f"  %o{i} = memref.alloc() : {t}",
            f"  hip.add(%ctx) ins(%h{i}, %d{i} : {t}, {t}) outs(%o{i} : {t})",
        ]
        if i % 4 == 3:
            lines.append("  hip.synchronize(%ctx)")
        x = f"%o{i}"
    lines += [f"  return {x} : {t}", "}"]
    return "\n".join(lines) + "\n"


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
    ("materialize-host-scalars", memplan_pass("materialize-host-scalars")),
    ("optimize-memrefs", memplan_pass("optimize-memrefs")),
    ("pool-allocs", memplan_pass("pool-allocs")),
    ("hip-memory-plan", memplan_pass("hip-memory-plan")),
    ("verify-memory-plan", memplan_pass("verify-memory-plan")),
]


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [4, 16, 64]
    ctx = memplan.make_context()
    header = f"{'pass':<26}" + "".join(f"{'L=' + str(n):>22}" for n in sizes)
    rows: dict[str, list[str]] = {name: [] for name, _ in RUNS}
    facts: list[str] = []
    for layers in sizes:
        text = decoder_text(layers)
        start = time.perf_counter()
        module = memplan.parse(ctx, text)
        parse_seconds = time.perf_counter() - start
        ops = sum(1 for _ in module.walk())
        buffers = text.count("memref.alloc")
        facts.append(f"L={layers}: {ops} ops, {buffers} buffers, parse {parse_seconds:.2f} s")
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
