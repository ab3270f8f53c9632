"""memplan-opt's pipelines against xdsl-opt's and mlir-opt's bare round trip, side by side.

    python bench/pipeline_speed.py [OPS ...] [--repeat N]   (default: 2000 20000 100000)

For each size it writes a generated decoder module (:func:`decoder_module`) to a
temporary folder and runs, one process after the other in the same run:

- ``memplan-opt -p hip-memory-plan`` and ``memplan-opt -p stream-cleanup``, each with
  ``--mlir-timing`` (the pass's own seconds are read from that report);
- ``xdsl-opt`` with no pass: xDSL's bare parse and print of the same file (the
  baseline the ratios are taken against);
- ``mlir-opt-22 --allow-unregistered-dialect`` on the module's generic form (printed
  once by memplan-opt beforehand), when it is installed.

With ``--repeat N`` each process runs N times and the run with the least CPU time is
reported (the machine is shared: the minimum is the figure least disturbed by load).
It prints wall seconds and peak resident memory of each process (from ``wait4``),
the ratios against xdsl-opt, and the growth from one size to the next. Each process
starts cold (about 1 s of imports for the xDSL tools), as a user's run does.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HIDDEN = 512
FFN = 1408
HEADS, KV_HEADS, HEAD_DIM = 8, 4, 64
VOCAB = 32000
MAX_SEQ = 2048
QKV = HIDDEN + 2 * KV_HEADS * HEAD_DIM


@dataclass
class Module:
    text: str
    ops: int
    layers: int
    weights: int


def _layer(i: int, x: str) -> list[str]:
    """One decoder layer in hip IR before memory planning, with hip-ep's kernels and
    the attributes they require: host-fed sequence lengths cast on the device for
    `hip.gqa`, views of a fused QKV buffer, rotary embedding, attention over a KV
    cache, MLP, residual adds, a position loop on the host. Returns the lines; the
    output buffer is ``%out{i}``."""
    t = f"memref<1x{HIDDEN}xf16>"
    heads = f"memref<1x{HEADS}x{HEAD_DIM}xf16>"
    qkv = f"memref<1x{QKV}xf16>"
    strided = f"memref<1x{HIDDEN}xf16, strided<[{QKV}, 1]>>"
    strided_heads = f"memref<1x{HEADS}x{HEAD_DIM}xf16, strided<[{QKV}, {HEAD_DIM}, 1]>>"
    kv = KV_HEADS * HEAD_DIM
    kv_view = [f"memref<1x{kv}xf16, strided<[{QKV}, 1], offset: {HIDDEN + j * kv}>>" for j in (0, 1)]
    cache = f"memref<1x{KV_HEADS}x{MAX_SEQ}x{HEAD_DIM}xf16>"
    table = f"memref<{MAX_SEQ}x{HEAD_DIM // 2}xf16>"
    a = "{alignment = 64 : i64}"
    norm = "{axis = -1 : i64, epsilon = 9.99999974e-06 : f32, stash_type = 1 : i64}"
    return [
        f"  %total{i} = memref.alloc() : memref<i64>",
        f"  %sum{i} = arith.addi %past_len, %step_len : i64",
        f"  memref.store %sum{i}, %total{i}[] : memref<i64>",
        f"  %total32_{i} = memref.alloc() : memref<i32>",
        f"  hip.cast(%ctx) ins(%total{i} : memref<i64>) outs(%total32_{i} : memref<i32>) {{to = 6 : i64}}",
        f"  %seqlen{i} = memref.alloc() : memref<1xi64>",
        f"  %last{i} = arith.subi %sum{i}, %one : i64",
        f"  memref.store %last{i}, %seqlen{i}[%c0] : memref<1xi64>",
        f"  %seqlen32_{i} = memref.alloc() : memref<1xi32>",
        f"  hip.cast(%ctx) ins(%seqlen{i} : memref<1xi64>) outs(%seqlen32_{i} : memref<1xi32>) {{to = 6 : i64}}",
        f"  %positions{i} = memref.alloc() : memref<1x32xi64>",
        f"  scf.for %iv{i} = %c0 to %c32 step %c1 {{",
        f"    %pos{i} = arith.addi %past_idx, %iv{i} : index",
        f"    %pos64_{i} = arith.index_cast %pos{i} : index to i64",
        f"    memref.store %pos64_{i}, %positions{i}[%c0, %iv{i}] : memref<1x32xi64>",
        "  }",
        f"  %xn{i} = memref.alloc() {a} : {t}",
        f"  hip.rms_norm(%ctx) ins({x}, %norm_w : {t}, memref<{HIDDEN}xf16>) outs(%xn{i} : {t}) {norm}",
        f"  %qkv{i} = memref.alloc() {a} : {qkv}",
        f"  hip.matmul(%ctx) ins(%xn{i}, %wqkv : {t}, memref<{HIDDEN}x{QKV}xf16>) outs(%qkv{i} : {qkv})",
        f"  %q{i} = memref.subview %qkv{i}[0, 0] [1, {HIDDEN}] [1, 1] : {qkv} to {strided}",
        f"  %key{i} = memref.subview %qkv{i}[0, {HIDDEN}] [1, {kv}] [1, 1] : {qkv} to {kv_view[0]}",
        f"  %value{i} = memref.subview %qkv{i}[0, {HIDDEN + kv}] [1, {kv}] [1, 1] : {qkv} to {kv_view[1]}",
        f"  %qh{i} = memref.reinterpret_cast %q{i} to offset: [0], sizes: [1, {HEADS}, {HEAD_DIM}], strides: [{QKV}, {HEAD_DIM}, 1] : {strided} to {strided_heads}",
        f"  %qr{i} = memref.alloc() {a} : {heads}",
        f"  hip.rope(%ctx) ins(%qh{i}, %positions{i}, %cos, %sin : {strided_heads}, memref<1x32xi64>, {table}, {table}) outs(%qr{i} : {heads})"
        f" {{interleaved = 0 : i64, num_heads = {HEADS} : i64, rotary_embedding_dim = {HEAD_DIM} : i64}}",
        f"  %att{i} = memref.alloc() {a} : {heads}",
        f"  hip.gqa(%ctx) ins(%qr{i}, %key{i}, %value{i}, %k_past, %v_past, %seqlen32_{i}, %total32_{i} : {heads}, {kv_view[0]}, {kv_view[1]}, {cache}, {cache}, memref<1xi32>, memref<i32>)"
        f" outs(%att{i}, %k_cache, %v_cache : {heads}, {cache}, {cache}) {{kv_num_heads = {KV_HEADS} : i64, num_heads = {HEADS} : i64}}",
        f"  %flat{i} = memref.collapse_shape %att{i} [[0], [1, 2]] : {heads} into {t}",
        f"  %proj{i} = memref.alloc() {a} : {t}",
        f"  hip.matmul(%ctx) ins(%flat{i}, %wo : {t}, memref<{HIDDEN}x{HIDDEN}xf16>) outs(%proj{i} : {t})",
        f"  %h{i} = memref.alloc() {a} : {t}",
        f"  hip.add(%ctx) ins({x}, %proj{i} : {t}, {t}) outs(%h{i} : {t})",
        f"  %hn{i} = memref.alloc() {a} : {t}",
        f"  hip.rms_norm(%ctx) ins(%h{i}, %norm_w : {t}, memref<{HIDDEN}xf16>) outs(%hn{i} : {t}) {norm}",
        f"  %up{i} = memref.alloc() {a} : memref<1x{FFN}xf16>",
        f"  hip.matmul(%ctx) ins(%hn{i}, %w_up : {t}, memref<{HIDDEN}x{FFN}xf16>) outs(%up{i} : memref<1x{FFN}xf16>)",
        f"  %act{i} = memref.alloc() {a} : memref<1x{FFN}xf16>",
        f"  hip.silu(%ctx) ins(%up{i} : memref<1x{FFN}xf16>) outs(%act{i} : memref<1x{FFN}xf16>)",
        f"  %down{i} = memref.alloc() {a} : {t}",
        f"  hip.matmul(%ctx) ins(%act{i}, %w_down : memref<1x{FFN}xf16>, memref<{FFN}x{HIDDEN}xf16>) outs(%down{i} : {t})",
        f"  %out{i} = memref.alloc() {a} : {t}",
        f"  hip.add(%ctx) ins(%h{i}, %down{i} : {t}, {t}) outs(%out{i} : {t})",
        f"  memref.dealloc %total{i} : memref<i64>",
        f"  memref.dealloc %seqlen{i} : memref<1xi64>",
    ]


#: Ops in one layer (each line of :func:`_layer` is one op, the loop's ``}`` its
#: implicit terminator ``scf.yield``).
LAYER_OPS = len(_layer(0, "%x"))


def _read_back(i: int, x: str) -> list[str]:
    """The host reads the greedy token of ``x``: `hip.top_k` with k = 1 (a host-fed
    scalar), then hip-ep's synchronizing `hip.readback_scalar` of the index."""
    t = f"memref<1x{HIDDEN}xf16>"
    return [
        f"    %top{i} = memref.alloc() : memref<1x1xf16>",
        f"    %idx{i} = memref.alloc() : memref<1x1xi64>",
        f"    hip.top_k(%ctx) ins({x}, %top_k : {t}, memref<1xi64>) outs(%top{i}, %idx{i} : memref<1x1xf16>, memref<1x1xi64>)"
        " {axis = 1 : i64, largest = true, sorted = true}",
        f"    %seen{i} = hip.readback_scalar(%ctx, %idx{i} : memref<1x1xi64>) -> i64",
    ]


#: Ops of one read-back.
READ_BACK_OPS = len(_read_back(0, "%x"))


def _weight(k: int) -> tuple[list[str], list[str]]:
    """An IREE initializer's chain for one weight, hoisted twice as IREE's
    const-eval hoisting leaves it (the duplicate chain is what stream-cleanup's
    CSE and global folding remove): the globals, then the initializer's ops."""
    w = f'"__auto.blk.{k}.w"'
    enc = f"__hoisted_{k}__encoded"
    tensor = "tensor<64x64xf16>"
    dev = "#hal.device.affinity<@__device_0>"
    globals_ = [
        f"  util.global private @{w} : !stream.resource<constant>",
        f'  util.global private @"__auto.blk.{k}.w__size" : index',
    ]
    body = [
        f'    %cst{k} = stream.tensor.constant on({dev}) : {tensor} in !stream.resource<constant> = #stream.parameter.named<"model"::"blk.{k}.w"> : {tensor}',
        f"    %cs{k} = stream.resource.size %cst{k} : !stream.resource<constant>",
        f"    util.global.store %cst{k}, @{w} : !stream.resource<constant>",
        f'    util.global.store %cs{k}, @"__auto.blk.{k}.w__size" : index',
    ]
    for copy in range(2):
        g = f"{enc}_{copy}"
        globals_ += [
            f"  util.global private @{g} : !stream.resource<constant>",
            f"  util.global private @{g}__size : index",
        ]
        s, r = f"%s{k}_{copy}", f"%r{k}_{copy}"
        body += [
            f'    {s} = util.global.load @"__auto.blk.{k}.w__size" : index',
            f"    {r} = util.global.load @{w} : !stream.resource<constant>",
            f"    %t{k}_{copy} = stream.async.transfer {r} : !stream.resource<constant>{{{s}}} from({dev}) -> to({dev}) !stream.resource<*>{{{s}}}",
            f"    %z{k}_{copy} = stream.tensor.sizeof on({dev}) {tensor} : index",
            f"    %e{k}_{copy} = stream.tensor.encode on({dev}) %t{k}_{copy} : {tensor} in !stream.resource<*>{{{s}}} -> {tensor} in !stream.resource<*>{{%z{k}_{copy}}}",
            f"    %b{k}_{copy} = stream.async.transfer %e{k}_{copy} : !stream.resource<*>{{%z{k}_{copy}}} from({dev}) -> to({dev}) !stream.resource<constant>{{%z{k}_{copy}}}",
            f"    util.global.store %b{k}_{copy}, @{g} : !stream.resource<constant>",
            f"    util.global.store %z{k}_{copy}, @{g}__size : index",
        ]
    return globals_, body


#: Ops of one weight: 6 globals, 4 + 2 x 8 initializer ops.
WEIGHT_OPS = 26


def decoder_module(ops: int, initializer: bool = True) -> Module:
    """A module of about ``ops`` operations, like the IR hip-ep and IREE print for
    a decoder: a hip function (a fifth of the ops go to the initializer) whose
    layers each read host-fed scalars, take views, run kernels over temporaries and
    synchronize every fourth layer with a host read-back; and an IREE-style
    ``util.initializer`` with each weight's encode chain hoisted twice.

    With ``initializer=False`` every op is in the hip function, and hip-ep's own
    ``hip-mlir-opt`` reads the module (it has no ``util``/``stream`` dialect); the
    function reads hip-ep's ops only either way (tests/peer/hip_ep_accepts.py)."""
    weights = max(1, ops // 5 // WEIGHT_OPS) if initializer else 0
    per_layer = LAYER_OPS + READ_BACK_OPS / 4
    layers = max(1, int((ops - weights * WEIGHT_OPS) / per_layer))
    t = f"memref<1x{HIDDEN}xf16>"
    table = f"memref<{MAX_SEQ}x{HEAD_DIM // 2}xf16>"
    cache = f"memref<1x{KV_HEADS}x{MAX_SEQ}x{HEAD_DIM}xf16>"
    lines = ["module {"]
    initializer: list[str] = []
    for k in range(weights):
        globals_, body = _weight(k)
        lines += globals_
        initializer += body
    if weights:
        lines += ["  util.initializer {", *initializer, "    util.return", "  }"]
    lines += [
        f"  func.func @decode(%ctx: !hip.context, %x0: {t}, %norm_w: memref<{HIDDEN}xf16>,"
        f" %wqkv: memref<{HIDDEN}x{QKV}xf16>, %wo: memref<{HIDDEN}x{HIDDEN}xf16>,"
        f" %w_up: memref<{HIDDEN}x{FFN}xf16>, %w_down: memref<{FFN}x{HIDDEN}xf16>,"
        f" %cos: {table}, %sin: {table}, %k_past: {cache}, %v_past: {cache},"
        f" %k_cache: {cache}, %v_cache: {cache}, %past_len: i64, %step_len: i64) -> i64 {{",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %c32 = arith.constant 32 : index",
        "    %one = arith.constant 1 : i64",
        "    %past_idx = arith.index_cast %past_len : i64 to index",
        "    %top_k = memref.alloc() : memref<1xi64>",
        "    memref.store %one, %top_k[%c0] : memref<1xi64>",
    ]
    func_ops = 7
    x = "%x0"
    body: list[str] = []
    for i in range(layers):
        body += [line.replace("  ", "    ", 1) for line in _layer(i, x)]
        func_ops += LAYER_OPS
        x = f"%out{i}"
        if i % 4 == 3:
            body += _read_back(i, x)
            func_ops += READ_BACK_OPS
    last = _read_back(layers, x)
    lines += [*body, *last, f"    return %seen{layers} : i64", "  }", "}"]
    func_ops += READ_BACK_OPS + 2  # the last read-back, return and func.func
    total = 1 + func_ops  # the module
    if weights:
        total += weights * WEIGHT_OPS + 2  # the initializer and its return
    return Module("\n".join(lines) + "\n", total, layers, weights)


@dataclass
class Run:
    wall: float
    cpu: float
    peak_mib: float
    phases: dict[str, float]


def run_once(command: list[str]) -> Run:
    """Run to completion; wall seconds, CPU seconds and peak RSS of that process
    alone (``wait4``), and the phases of an ``--mlir-timing`` report on stderr."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        report = err.read().decode(errors="replace")
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{report[-2000:]}")
    phases = {
        m.group(2): float(m.group(1))
        for m in re.finditer(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(\S.*?)\s*$", report, re.M)
    }
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, phases)


def tool(name: str) -> str | None:
    """A tool next to this Python (the venv's entry points), else on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("sizes", nargs="*", type=int, metavar="OPS", help="module sizes in ops")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="runs per process; the least CPU time is reported")
    args = parser.parse_args(argv)
    sizes = args.sizes or [2000, 20000, 100000]

    def run(command: list[str]) -> Run:
        return min((run_once(command) for _ in range(max(1, args.repeat))), key=lambda r: r.cpu)

    memplan_opt, xdsl_opt, mlir_opt = tool("memplan-opt"), tool("xdsl-opt"), tool("mlir-opt-22")
    if memplan_opt is None or xdsl_opt is None:
        print("memplan-opt and xdsl-opt must be installed (pip install -e .)", file=sys.stderr)
        return 1
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; mlir-opt-22: {mlir_opt or 'not installed'}")
    results: dict[int, dict[str, Run]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for ops in sizes:
            module = decoder_module(ops)
            source = Path(scratch, f"decoder_{ops}.mlir")
            source.write_text(module.text)
            runs = {
                "xdsl-opt parse+print": run([xdsl_opt, str(source)]),
                "hip-memory-plan": run([memplan_opt, str(source), "-p", "hip-memory-plan", "--mlir-timing"]),
                "stream-cleanup": run([memplan_opt, str(source), "-p", "stream-cleanup", "--mlir-timing"]),
            }
            if mlir_opt is not None:
                generic = Path(scratch, f"decoder_{ops}.generic.mlir")
                subprocess.run([memplan_opt, str(source), "--mlir-print-op-generic", "-o", str(generic)], check=True)
                runs["mlir-opt-22 generic"] = run([mlir_opt, "--allow-unregistered-dialect", str(generic), "-o", os.devnull])
            results[ops] = runs
            print(f"\n{module.ops} ops ({module.layers} layers, {module.weights} weights), load {os.getloadavg()[0]:.2f}")
            base = runs["xdsl-opt parse+print"]
            print(f"{'run':<22}{'wall s':>8}{'cpu s':>8}{'MiB':>8}{'wall x':>8}{'cpu x':>8}{'mem x':>7}   phases (s)")
            for name, r in runs.items():
                phases = "  ".join(f"{k} {v:.2f}" for k, v in r.phases.items() if k != "Total")
                print(
                    f"{name:<22}{r.wall:>8.2f}{r.cpu:>8.2f}{r.peak_mib:>8.0f}{r.wall / base.wall:>8.2f}"
                    f"{r.cpu / base.cpu:>8.2f}{r.peak_mib / base.peak_mib:>7.2f}   {phases}",
                    flush=True,
                )
    if len(sizes) > 1:
        print("\ngrowth (cpu seconds) from one size to the next")
        for small, large in zip(sizes, sizes[1:]):
            cells = "  ".join(
                f"{name} {results[large][name].cpu / results[small][name].cpu:.2f}x" for name in results[large]
            )
            print(f"{small} -> {large} ops: {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
