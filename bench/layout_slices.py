"""layout-slices on synthetic packs: lower bound, IREE's algorithm, memplan.

    python bench/layout_slices.py [--scale 10000] [--values 128,1024,2048] [FILE.mlir ...]

For each synthetic pack (`memplan.testing.packs`: BERT-style encoders, a Llama-style
decoder with a dynamic sequence length, random static and mixed packs) it runs the
pass in-process and prints the slices, the lower bound (peak of live bytes, sizes
rounded up to the alignment), IREE's algorithm on the same slices (memplan's
reimplementation: its greedy for static slices, one region per size value for
dynamic ones), memplan's total read from the emitted IR by the pack checker's own
interpreter, the ratios and the pass time. Dynamic packs are reported at each of
`--values` (the sequence length) and as the worst ratio over s = 1, 2, 4, ..., 16384.

FILE.mlir arguments: IR dumps holding `stream.resource.pack` ops (e.g. from
`iree-compile --mlir-print-ir-before=iree-stream-layout-slices`): static packs are
reported the same way, dynamic ones at each of `--values` for every unknown.

`--scale N`: the pass alone (parse excluded, process time) on a random static pack
of N slices. Figures, not a timed test.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import arith

from memplan.analysis.index_polynomials import IndexPolynomials
from memplan.checker.packs import IndexEvaluator
from memplan.context import make_context
from memplan.dialects.iree.stream import ResourcePackOp
from memplan.passes.layout_slices import LayoutSlices, resource_alignments
from memplan.planning.dynamic_slices import iree_dynamic_layout, lower_bound_at
from memplan.planning.polynomials import Poly
from memplan.planning.slices import iree_greedy, slice_problem
from memplan.testing.packs import PackSpec, decoder_pack, encoder_pack, pack_ir, random_pack
from memplan.tools.source import parse_module

ALIGNMENT = 64


def _align(value: int) -> int:
    return -(-value // ALIGNMENT) * ALIGNMENT


def _run(text: str, name: str):
    module = parse_module(make_context(), text, name)
    started = time.process_time()
    LayoutSlices().apply(Context(), module)
    seconds = time.process_time() - started
    fn = next(op for op in module.walk() if op.name == "util.func")
    return list(fn.body.blocks[0].ops)[-1].operands[0], seconds


def _proven(text: str, name: str) -> str:
    """Whether the pack checker proves the layout for every value of the unknowns."""
    (lowered,) = LayoutSlices().lower_all(parse_module(make_context(), text, name))
    started = time.process_time()
    unproven = lowered.prove()
    seconds = time.process_time() - started
    return f"proven for every s ({seconds:.2f} s)" if not unproven else f"not proven: {unproven[0]}"


def _iree_total(spec: PackSpec, value: int) -> int:
    starts = [a for a, _, _ in spec.slices]
    ends = [b for _, b, _ in spec.slices]
    reserved = []
    for _, _, size in spec.slices:
        if isinstance(size, int):
            reserved.append(Poly.const(_align(size)))
        else:
            reserved.append(Poly({(0,): _align(size[0]), (0, 0): _align(size[1])}))
    layout = iree_dynamic_layout(starts, ends, reserved, [s for *_, s in spec.slices], ALIGNMENT, ALIGNMENT)
    return layout.total_upper.evaluate([value])


def report_static(spec: PackSpec) -> None:
    total_value, seconds = _run(pack_ir(spec), spec.name)
    starts = [a for a, _, _ in spec.slices]
    ends = [b for _, b, _ in spec.slices]
    sizes = spec.sizes_at(0)
    bound = slice_problem(starts, ends, sizes, ALIGNMENT, ALIGNMENT).lower_bound()
    _, iree = iree_greedy(starts, ends, sizes, ALIGNMENT, ALIGNMENT)
    memplan = IndexEvaluator(lambda v: 0)(total_value)
    print(
        f"{spec.name:34} {len(spec.slices):6} {'static':>8} {bound:14,} {iree:14,} {memplan:14,} "
        f"{iree / bound:7.3f} {memplan / bound:7.3f} {seconds:6.2f}s"
    )


def report_dynamic(spec: PackSpec, values: list[int]) -> None:
    total_value, seconds = _run(pack_ir(spec), spec.name)
    starts = [a for a, _, _ in spec.slices]
    ends = [b for _, b, _ in spec.slices]
    dynamic = sum(isinstance(size, tuple) for *_, size in spec.slices)
    worst = (0.0, 0)
    for exponent in range(15):
        value = 1 << exponent
        bound = lower_bound_at(starts, ends, [_align(s) for s in spec.sizes_at(value)])
        ratio = IndexEvaluator(lambda v, value=value: value)(total_value) / bound
        worst = max(worst, (ratio, value))
    for value in values:
        bound = lower_bound_at(starts, ends, [_align(s) for s in spec.sizes_at(value)])
        iree = _iree_total(spec, value)
        memplan = IndexEvaluator(lambda v, value=value: value)(total_value)
        print(
            f"{spec.name:34} {len(spec.slices):6} {f'{dynamic}@s={value}':>8} {bound:14,} {iree:14,} {memplan:14,} "
            f"{iree / bound:7.3f} {memplan / bound:7.3f} {seconds:6.2f}s"
        )
    print(f"{'':34} worst memplan/bound over s = 1..16384: {worst[0]:.3f} (s = {worst[1]}); "
          f"{_proven(pack_ir(spec), spec.name)}")


def report_file(path: Path, values: list[int]) -> None:
    """Every pack of an IR dump: static ones as the synthetic ones; dynamic ones at
    each of ``values`` for every unknown, IREE's algorithm on the same polynomial
    sizes, memplan's total read from the emitted IR."""
    module = parse_module(make_context(), path.read_text(), str(path))
    packs = [op for op in module.walk() if isinstance(op, ResourcePackOp)]
    for index, pack in enumerate(packs):
        bounds = [a.value.data for a in pack.lifetime_intervals.data]
        starts, ends = bounds[0::2], bounds[1::2]
        sizes = [_constant(size) for size in pack.dynamic_slice_sizes]
        name = f"{path.stem}#{index}"
        if all(size is not None for size in sizes):
            report_static(PackSpec(name, tuple(zip(starts, ends, sizes))))
            continue
        offset_alignment, range_alignment = resource_alignments(pack, ALIGNMENT)
        unit = math.lcm(offset_alignment, range_alignment)
        reader = IndexPolynomials()
        reserved = [reader.aligned(size, unit) for size in pack.dynamic_slice_sizes]
        baseline = iree_dynamic_layout(starts, ends, reserved, list(pack.dynamic_slice_sizes), offset_alignment, range_alignment)
        copy = parse_module(make_context(), path.read_text(), str(path))
        started = time.process_time()
        lowered = LayoutSlices().lower_all(copy)[index]
        seconds = time.process_time() - started
        for value in values:
            read = IndexEvaluator(lambda v, value=value: value)
            spans = [-(-read(size) // range_alignment) * range_alignment for size in lowered.sizes]
            bound = lower_bound_at(starts, ends, spans)
            iree = baseline.total_upper.evaluate(reader.values_at(value))
            memplan = read(lowered.total)
            print(
                f"{name:34} {len(starts):6} {f'{sum(s is None for s in sizes)}@{value}':>8} {bound:14,} {iree:14,} "
                f"{memplan:14,} {iree / bound:7.3f} {memplan / bound:7.3f} {seconds:6.2f}s"
            )
        unproven = lowered.prove()
        print(f"{'':34} {'proven for every value of the unknowns' if not unproven else unproven[0]}")


def _constant(value) -> int | None:
    return value.owner.value.value.data if isinstance(value.owner, arith.ConstantOp) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--values", default="128,1024,2048", help="sequence lengths for dynamic packs")
    parser.add_argument("--scale", type=int, default=10000, help="slices of the scaling pack (0: skip)")
    args = parser.parse_args(argv)
    values = [int(v) for v in args.values.split(",")]
    print(
        f"{'pack':34} {'slices':>6} {'dynamic':>8} {'lower bound':>14} {'IREE':>14} {'memplan':>14} "
        f"{'IREE/LB':>7} {'ours/LB':>7} {'pass':>7}"
    )
    if args.files:
        for path in args.files:
            report_file(path, values)
    else:
        report_static(encoder_pack())
        report_static(encoder_pack(layers=6, seq=384, hidden=512, heads=8, inter=2048))
        for seed in range(3):
            report_static(random_pack(300, seed))
        report_dynamic(decoder_pack(), values)
        report_dynamic(decoder_pack(layers=4, hidden=2048, heads=32, kv_heads=8, inter=5632), values)
        for seed in range(3):
            report_dynamic(random_pack(150, seed, max_life=10, dynamic=0.6), values)
    if args.scale:
        spec = random_pack(args.scale, 1)
        text = pack_ir(spec)
        started = time.perf_counter()
        module = parse_module(make_context(), text, "scale.mlir")
        parse_seconds = time.perf_counter() - started
        started = time.process_time()
        LayoutSlices().apply(Context(), module)
        seconds = time.process_time() - started
        print(f"\nscaling: {args.scale} static slices: layout-slices {seconds:.2f} s (process time; parse {parse_seconds:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
