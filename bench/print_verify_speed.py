"""memplan-opt's phases around the passes: verification, printing and start-up.

    python bench/print_verify_speed.py [OPS ...] [--input FILE] [--repeat N]   (default: 20000)

For each decoder (:func:`pipeline_speed.decoder_module`, or ``--input``) it parses
once and reports CPU seconds, the least of N runs (the machine is shared), of what
memplan-opt does around ``hip-memory-plan``: the verification before the pass,
then, on the planned module, the verification after it and the printing (``Output``
in ``--mlir-timing``), both with the chunk's one table of signatures (the one
before the pass stands in for it: the same signatures passed). Then, each in a
fresh interpreter, start-up: ``import memplan.tools.memplan_opt``, ``memplan-opt
--version`` and a run of the pipeline on a 200-op decoder (mostly imports).

Python compiles memplan's sources at every start when ``PYTHONDONTWRITEBYTECODE``
is set and no ``__pycache__`` exists (an editable install): start-up is measured
after ``compileall``, as an installed package starts.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from pipeline_speed import decoder_module  # noqa: E402


def _least(run, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def phases(text: str, repeat: int) -> dict[str, float]:
    from memplan.context import make_context
    from memplan.printing import print_module
    from memplan.signatures import Signatures
    from memplan.tools.pipeline import parse_pass_pipeline
    from memplan.tools.source import parse_module
    from memplan.verification import verify_module

    ctx = make_context()
    module = parse_module(ctx, text, "decoder.mlir")
    gc.freeze()
    before = _least(lambda: verify_module(module, Signatures()), repeat)
    for scheduled in parse_pass_pipeline("hip-memory-plan"):
        scheduled.run(ctx, module)
    after, output = float("inf"), float("inf")
    for _ in range(repeat):
        signatures = Signatures()
        verify_module(module, signatures)
        with signatures.reading():
            start = time.process_time()
            verify_module(module, signatures)
            middle = time.process_time()
            print_module(module, io.StringIO(), dialects=ctx.loaded_dialects, signatures=signatures)
            end = time.process_time()
        after, output = min(after, middle - start), min(output, end - middle)
    gc.unfreeze()
    return {"verify before": before, "verify after": after, "Output": output}


def _child_cpu(argv: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def startup(repeat: int) -> dict[str, float]:
    compileall.compile_dir(str(Path(__file__).parents[1] / "src"), quiet=1)
    with tempfile.TemporaryDirectory() as folder:
        small = Path(folder) / "d200.mlir"
        small.write_text(decoder_module(200, initializer=False).text)
        tool = [sys.executable, "-m", "memplan.tools.memplan_opt"]
        return {
            "import": _child_cpu([sys.executable, "-c", "import memplan.tools.memplan_opt"], repeat),
            "--version": _child_cpu([*tool, "--version"], repeat),
            "200-op run": _child_cpu(
                [*tool, "-p", "hip-memory-plan", str(small), "-o", str(Path(folder) / "o.mlir")], repeat
            ),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ops", nargs="*", type=int, default=[20000])
    parser.add_argument("--input", type=Path, help="an input file instead of generated decoders")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    inputs = (
        [(args.input.name, args.input.read_text())]
        if args.input
        else [(f"{n} ops", decoder_module(n, initializer=False).text) for n in args.ops]
    )
    for name, text in inputs:
        figures = phases(text, args.repeat)
        print(f"{name}: " + ", ".join(f"{k} {v:.3f} s" for k, v in figures.items()))
    figures = startup(args.repeat)
    print("start-up (CPU, fresh interpreter): " + ", ".join(f"{k} {v:.3f} s" for k, v in figures.items()))
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("(PYTHONDONTWRITEBYTECODE is set: without __pycache__ every start compiles memplan)")


if __name__ == "__main__":
    main()
