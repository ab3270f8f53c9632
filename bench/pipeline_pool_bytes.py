"""Does running optimize-memrefs before pool-allocs cost pool bytes? Measured side by side.

    python bench/pipeline_pool_bytes.py [--programs N] [--uniform U] [--kernels K]
                                        [--strategy S]

For `examples/decoder_step.mlir`, N random synthetic decoder-like functions and U
whose temporaries all have one type and size (slot reuse's best case), runs

    without: materialize-host-scalars,pool-allocs
    with:    materialize-host-scalars,optimize-memrefs,pool-allocs

in-process and prints, for each, the pool bytes (`hipdnn.pool_size` plus every other
domain's static region) and the bytes of static allocations left outside the pool
(buffers a function returns stay out; slot reuse can hand a pooled buffer's slot to a
returned one), then the totals. A synthetic function chains K kernels (fused hipDNN
graphs, `hip.hipdnn_graph`, which take any buffers), each writing a fresh buffer of a
random size and element type and reading up to three of the last six, with host-fed
index buffers read by kernels and an occasional wait (`hip.readback_scalar`); it
returns one buffer. hip-ep's `hip-mlir-opt` reads every function.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from xdsl.dialects import memref  # noqa: E402
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp  # noqa: E402

from memplan.analysis.aliasing import static_bytes  # noqa: E402
from memplan.context import make_context  # noqa: E402
from memplan.tools.pipeline import parse_pass_pipeline  # noqa: E402
from memplan.tools.source import parse_module  # noqa: E402

ELEMENTS = (("f16", 2), ("f32", 4), ("i32", 4), ("i8", 1))
BYTES = (256, 512, 1024, 2048, 4096, 8192, 16384, 65536)


def synthetic(seed: int, kernels: int, uniform: bool = False) -> str:
    """A random single-block function in hip IR (see the module docstring); with
    `uniform`, every kernel writes a 4 KiB f32 buffer."""
    rng = random.Random(seed)
    prefix = "uniform" if uniform else "synthetic"
    lines = [
        f"func.func @{prefix}_{seed}(%ctx: !hip.context, %in: memref<1024xf16>, "
        "%x: i64) -> memref<256xi8> {",
        "  %c0 = arith.constant 0 : index",
    ]
    live: list[tuple[str, str]] = [("%in", "memref<1024xf16>")]
    for k in range(kernels):
        name, width = ("f32", 4) if uniform else rng.choice(ELEMENTS)
        count = 1024 if uniform else max(1, rng.choice(BYTES) // width)
        t = f"memref<{count}x{name}>"
        ins = rng.sample(live[-6:], min(len(live[-6:]), rng.randint(1, 3)))
        if rng.random() < 0.15:
            lines.append(f"  %h{k} = memref.alloc() : memref<32xi64>")
            lines.append(f"  memref.store %x, %h{k}[%c0] : memref<32xi64>")
            ins.append((f"%h{k}", "memref<32xi64>"))
        if rng.random() < 0.1:
            lines.append(f"  %r{k} = hip.readback_scalar(%ctx, %in : memref<1024xf16>) -> f16")
        lines.append(f"  %t{k} = memref.alloc() : {t}")
        lines.append(_graph(k, ins, (f"%t{k}", t)))
        live.append((f"%t{k}", t))
    lines.append("  %result = memref.alloc() : memref<256xi8>")
    lines.append(_graph(kernels, [live[-1]], ("%result", "memref<256xi8>")))
    lines.append("  return %result : memref<256xi8>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _graph(k: int, ins: list[tuple[str, str]], out: tuple[str, str]) -> str:
    """`hip.hipdnn_graph` number `k` reading `ins` and writing `out`."""
    names = ", ".join(v for v, _ in ins)
    types = ", ".join(ty for _, ty in ins)
    uids = ", ".join(str(i) for i in range(1, len(ins) + 1))
    return (
        f"  hip.hipdnn_graph(%ctx) graph_id({k}) ins({names} : {types}) outs({out[0]} : {out[1]}) "
        f"{{input_uids = [{uids}], output_uids = [{len(ins) + 1}]}}"
    )


def measure(text: str, pipeline: str) -> tuple[int, int]:
    """(pool bytes over all domains' static regions, static bytes left outside)."""
    ctx = make_context()
    module = parse_module(ctx, text, "bench.mlir")
    for scheduled in parse_pass_pipeline(pipeline):
        scheduled.instance.apply(ctx, module)
    return pool_bytes(module), outside_bytes(module)


def pool_bytes(module: ModuleOp) -> int:
    sizes = module.attributes.get("hipdnn.pool_sizes")
    if isinstance(sizes, DenseArrayBase):
        return sum(sizes.get_values())
    size = module.attributes.get("hipdnn.pool_size")
    return size.value.data if isinstance(size, IntegerAttr) else 0


def outside_bytes(module: ModuleOp) -> int:
    return sum(
        static_bytes(op.results[0].type) or 0
        for op in module.walk()
        if isinstance(op, memref.AllocOp)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=20)
    parser.add_argument("--uniform", type=int, default=5)
    parser.add_argument("--kernels", type=int, default=40)
    parser.add_argument("--strategy", default="greedy", choices=("greedy", "best", "exact"))
    args = parser.parse_args(argv)
    pool = f"pool-allocs{{strategy={args.strategy}}}"
    without = f"materialize-host-scalars,{pool}"
    with_om = f"materialize-host-scalars,optimize-memrefs,{pool}"
    programs = [("decoder_step", (REPO / "examples" / "decoder_step.mlir").read_text())]
    programs += [
        (f"synthetic_{s}", synthetic(s, args.kernels)) for s in range(args.programs)
    ]
    programs += [
        (f"uniform_{s}", synthetic(s, args.kernels, uniform=True)) for s in range(args.uniform)
    ]
    print(f"strategy {args.strategy}; bytes: pool + outside the pool")
    header = f"{'function':<16} {'without optimize-memrefs':>26} {'with optimize-memrefs':>26} {'extra':>8}"
    print(header)
    totals = [0, 0, 0, 0]
    worse = better = 0
    for name, text in programs:
        a_pool, a_out = measure(text, without)
        b_pool, b_out = measure(text, with_om)
        extra = (b_pool + b_out) - (a_pool + a_out)
        worse += extra > 0
        better += extra < 0
        for i, v in enumerate((a_pool, a_out, b_pool, b_out)):
            totals[i] += v
        print(
            f"{name:<16} {a_pool:>14,} + {a_out:>9,} {b_pool:>14,} + {b_out:>9,} {extra:>+8,}"
        )
    extra = totals[2] + totals[3] - totals[0] - totals[1]
    print(
        f"{'total':<16} {totals[0]:>14,} + {totals[1]:>9,} {totals[2]:>14,} + "
        f"{totals[3]:>9,} {extra:>+8,}"
    )
    print(
        f"optimize-memrefs first: more bytes on {worse}, fewer on {better}, "
        f"equal on {len(programs) - worse - better} of {len(programs)} functions"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
