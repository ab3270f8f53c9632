"""Fuzz memory plans: `python bench/fuzz_plans.py N [--seed S] [--out DIR]`.

Generates N random race-free programs, plans each with every memory pipeline in the
registry (each pass alone, all in every order, each named pipeline), checks every
plan with `verify-memory-plan` and runs it in the reference interpreter under the
late, early and (by default) one random schedule against the planless program. Prints how many
programs, buffers, plans and schedules it tried and how many violations it found;
each finding's program is written to DIR (default: bench/fuzz-findings).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from memplan.testing.fuzz import FuzzStats, fuzz_program, memory_pipelines
from memplan.testing.random_programs import RandomChoices, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(Path(__file__).parent / "fuzz-findings"))
    parser.add_argument("--random-schedules", type=int, default=1,
                        help="random schedules per plan, besides late and early")
    parser.add_argument("--progress", type=int, default=0,
                        help="print a line every this many programs")
    args = parser.parse_args(argv)
    pipelines = memory_pipelines()
    print(f"pipelines: {', '.join('+'.join(p) for p in pipelines)}", flush=True)
    total = FuzzStats()
    start = time.perf_counter()
    out = Path(args.out)
    for i in range(args.count):
        seed = args.seed + i
        stats = fuzz_program(generate(RandomChoices(seed)), seed, pipelines,
                             args.random_schedules)
        for n, finding in enumerate(stats.findings):
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"seed{seed}-{n}-{finding.kind}.mlir"
            path.write_text(f"// {finding.kind} after {'+'.join(finding.pipeline) or 'nothing'}: "
                            f"{finding.detail}\n{finding.program}")
        total.add(stats)
        if args.progress and (i + 1) % args.progress == 0:
            print(f"  programs {total.programs} buffers {total.buffers} plans "
                  f"{total.pipelines} schedules {total.schedules} violations "
                  f"{total.violations} generator {len(total.findings) - total.violations} "
                  f"time {time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    kinds = Counter(f.kind for f in total.findings)
    by_pipeline = Counter("+".join(f.pipeline) for f in total.findings if f.kind != "generator")
    print(f"programs: {total.programs}")
    print(f"buffers: {total.buffers}")
    print(f"plans: {total.pipelines} ({total.distinct} distinct, each judged once)")
    print(f"schedules: {total.schedules}")
    print(f"checked without the interpreter: {total.checker_only}")
    print(f"violations: {total.violations}")
    for kind, number in sorted(kinds.items()):
        print(f"  {kind}: {number}")
    for pipeline, number in sorted(by_pipeline.items()):
        print(f"  after {pipeline}: {number}")
    print(f"time: {elapsed:.1f} s")
    return 1 if total.violations else 0


if __name__ == "__main__":
    sys.exit(main())
