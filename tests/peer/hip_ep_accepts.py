#!/usr/bin/env python3
"""Does hip-ep's own `hip-mlir-opt` read everything memplan ships or generates in hip IR?

    python tests/peer/hip_ep_accepts.py --hip-mlir-opt PATH [--fuzz N] [--verbose]

The inputs: `examples/*.mlir`; every `// -----` chunk of the `.mlir` files under
`tests/lit` (their `Inputs/` included); every fenced `mlir` block of `README.md` and
`docs/` that is a whole module; the benchmarks' generated hip IR
(`bench/pipeline_speed.py`'s decoder, `bench/pipeline_pool_bytes.py`'s functions);
N fuzz programs (`memplan.testing.random_programs`, seeds 0..N-1). A chunk counts
when it names `hip` and memplan accepts it; chunks written to be rejected
(`expected-error`) and chunks memplan rejects are the differential test's business.

Each chunk goes to `hip-mlir-opt` as written when every op in it belongs to a
dialect hip-mlir-opt registers (`--allow-unregistered-dialect` when it holds ops of
no dialect, which are written generically); a chunk that also holds ops of another
of memplan's dialects (`memplan.synchronize`, IREE's `stream`/`util`) goes as
memplan prints it with those ops in the generic form, so every hip op is still read
in its custom form. memplan's own print of each chunk is checked the same way
(`--no-printed` skips it). Exit status 1 when hip-mlir-opt rejects any; without a
tool (no `--hip-mlir-opt`, no `HIP_MLIR_OPT`, or the path is absent) it says why
and exits 0 (skipped).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HIP_EP_DIALECTS = frozenset({
    "builtin", "affine", "arith", "bufferization", "cf", "func", "memref", "scf",
    "shape", "linalg", "tensor", "llvm", "hip", "onnx",
})
"""The dialects hip-ep's hip-mlir-opt registers (its tool's DialectRegistry)."""

_SPLIT = re.compile(r"^// -----.*$", re.M)
_FENCE = re.compile(r"^```mlir\n(.*?)^```", re.M | re.S)


@dataclass
class Chunk:
    where: str
    """file:line (or a generator's call) of the chunk."""
    text: str
    source: str
    """Where it comes from: example, lit, docs, bench or fuzz."""


def lit_chunks() -> Iterator[Chunk]:
    for path in sorted((ROOT / "tests" / "lit").rglob("*.mlir")):
        try:
            text = path.read_text()
        except UnicodeDecodeError:  # a deliberately broken input
            continue
        start = 0
        for match in [*_SPLIT.finditer(text), None]:
            end = match.start() if match else len(text)
            line = text.count("\n", 0, start) + 1
            yield Chunk(f"{path.relative_to(ROOT)}:{line}", text[start:end], "lit")
            if match:
                start = match.end()


def example_chunks() -> Iterator[Chunk]:
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        yield Chunk(str(path.relative_to(ROOT)), path.read_text(), "example")


def doc_chunks() -> Iterator[Chunk]:
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text()
        for match in _FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            yield Chunk(f"{path.relative_to(ROOT)}:{line}", match.group(1), "docs")


def bench_chunks() -> Iterator[Chunk]:
    sys.path.insert(0, str(ROOT / "bench"))
    import pipeline_pool_bytes
    import pipeline_speed

    for initializer in (False, True):
        module = pipeline_speed.decoder_module(2000, initializer=initializer)
        yield Chunk(f"bench/pipeline_speed.py decoder_module(2000, initializer={initializer})",
                    module.text, "bench")
    for seed in range(5):
        yield Chunk(f"bench/pipeline_pool_bytes.py synthetic({seed}, 40)",
                    pipeline_pool_bytes.synthetic(seed, 40), "bench")
    yield Chunk("bench/pipeline_pool_bytes.py synthetic(0, 40, uniform=True)",
                pipeline_pool_bytes.synthetic(0, 40, uniform=True), "bench")


def fuzz_chunks(count: int) -> Iterator[Chunk]:
    from memplan.testing.random_programs import RandomChoices, generate

    for seed in range(count):
        yield Chunk(f"random_programs.generate(RandomChoices({seed}))",
                    generate(RandomChoices(seed)).text, "fuzz")


def mixed_print(module) -> str:
    """memplan's print of `module`, ops of dialects hip-mlir-opt lacks in the
    generic form (the rest in their custom form)."""
    import io

    from memplan.printing import MlirPrinter

    class Mixed(MlirPrinter):
        def print_op(self, op) -> None:
            if self.print_generic_format or op.dialect_name() in HIP_EP_DIALECTS:
                super().print_op(op)
                return
            self.print_generic_format = True
            try:
                super().print_op(op)
            finally:
                self.print_generic_format = False

    stream = io.StringIO()
    printer = Mixed(stream=stream)
    printer.print_module(module)
    return stream.getvalue() + "\n"


@dataclass
class Verdict:
    chunk: Chunk
    status: str
    """checked, not-hip, negative (expected-error), memplan-rejects."""
    mode: str = ""
    """as-written, generic-foreign, unregistered."""
    rejected_as_written: str = ""
    rejected_printed: str = ""


def _dialects(module) -> tuple[set[str], bool]:
    from xdsl.ir import Operation
    from xdsl.dialects.builtin import UnregisteredOp

    names: set[str] = set()
    unregistered = False
    for op in module.walk():
        assert isinstance(op, Operation)
        if isinstance(op, UnregisteredOp):
            unregistered = True
            continue
        names.add(op.dialect_name())
    return names, unregistered


def run_tool(tool: str, text: str, unregistered: bool) -> str:
    """'' when hip-mlir-opt reads and verifies `text`, else its first error lines."""
    command = [tool, "-", "-o", os.devnull]
    if unregistered:
        command.insert(1, "--allow-unregistered-dialect")
    # Expected-diagnostic comments are for memplan-opt's passes (hip-mlir-opt 22
    # checks them even without --verify-diagnostics).
    text = text.replace("expected-", "expected_")
    done = subprocess.run(command, input=text, capture_output=True, text=True, timeout=120)
    if done.returncode == 0 and "error:" not in done.stderr:
        return ""
    return "\n".join(done.stderr.strip().splitlines()[:3]) or f"exit {done.returncode}"


def check(chunk: Chunk, tool: str, printed: bool) -> Verdict:
    from memplan.context import make_context
    from memplan.printing import print_mlir
    from memplan.tools.source import parse_module
    from memplan.verification import verify_module

    if "hip." not in chunk.text and "!hip" not in chunk.text:
        return Verdict(chunk, "not-hip")
    if "expected-error" in chunk.text:
        return Verdict(chunk, "negative")
    module = None
    for allow in (False, True):  # ops of no dialect only where memplan-opt needs the flag
        try:
            module = parse_module(make_context(allow_unregistered=allow), chunk.text, chunk.where)
            verify_module(module)
            break
        except Exception:  # noqa: BLE001  (any rejection: not this check's business)
            module = None
    if module is None:
        return Verdict(chunk, "memplan-rejects")
    dialects, unregistered = _dialects(module)
    foreign = dialects - HIP_EP_DIALECTS
    verdict = Verdict(chunk, "checked")
    if foreign:
        verdict.mode = "generic-foreign"
        verdict.rejected_as_written = run_tool(tool, mixed_print(module), True)
        return verdict
    verdict.mode = "unregistered" if unregistered else "as-written"
    verdict.rejected_as_written = run_tool(tool, chunk.text, unregistered)
    if printed:
        verdict.rejected_printed = run_tool(tool, print_mlir(module) + "\n", unregistered)
    return verdict


def find_tool(given: str | None) -> tuple[str | None, str]:
    path = given or os.environ.get("HIP_MLIR_OPT")
    if not path:
        return None, "no --hip-mlir-opt PATH given and HIP_MLIR_OPT is not set"
    if not (Path(path).is_file() and os.access(path, os.X_OK)):
        return None, f"hip-mlir-opt not found at {path}"
    return path, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hip-mlir-opt", metavar="PATH", help="hip-ep's hip-mlir-opt")
    parser.add_argument("--fuzz", type=int, default=300, metavar="N", help="fuzz programs (seeds 0..N-1)")
    parser.add_argument("--no-printed", action="store_true", help="do not check memplan's print of each chunk")
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args(argv)
    tool, why = find_tool(args.hip_mlir_opt)
    if tool is None:
        print(f"skipped: {why}")
        return 0
    sys.path.insert(0, str(ROOT / "src"))
    chunks = [*example_chunks(), *lit_chunks(), *doc_chunks(), *bench_chunks(), *fuzz_chunks(args.fuzz)]
    verdicts = [check(c, tool, not args.no_printed) for c in chunks]
    failures = 0
    table: Counter[tuple[str, str]] = Counter()
    for v in verdicts:
        table[(v.chunk.source, v.status if v.status != "checked" else f"checked {v.mode}")] += 1
        for what, error in (("as written", v.rejected_as_written), ("memplan's print", v.rejected_printed)):
            if error:
                failures += 1
                table[(v.chunk.source, f"REJECTED {what}")] += 1
                print(f"REJECTED ({what}) {v.chunk.where}\n  " + error.replace("\n", "\n  "))
        if args.verbose and v.status == "checked" and not (v.rejected_as_written or v.rejected_printed):
            print(f"ok ({v.mode}) {v.chunk.where}")
    print(f"\n{tool}")
    for (source, status), n in sorted(table.items()):
        print(f"  {source:<8} {status:<28} {n:>5}")
    checked = sum(1 for v in verdicts if v.status == "checked")
    print(f"checked {checked} chunks naming hip; rejections by hip-mlir-opt: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
