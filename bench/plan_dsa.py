"""Benchmark the offset planners on the DSA instances, side by side in one run.

    python bench/plan_dsa.py [DIR] [--time-limit S] [--exact-limit S] [--only NAME ...]

For each ``*.csv`` in DIR (default: ``../shared/bench/dsa`` from the repository root)
prints the buffer count, the lower bound LB (peak live bytes), and R = pool / LB with
seconds for: the naive baseline (no sharing: pool = sum of sizes), greedy, best, and
exact. Instances whose name carries a capacity (``A.1048576.csv``) are given that
capacity for exact; exact only runs on instances of at most 2,000 buffers. exact's
limit and seconds are CPU seconds (its clock is ``time.process_time``: on a shared
machine wall time measures the load as much as the search). Every plan is validated by the
planners before it is reported.

``--exact-seeds 0 1 2`` then runs exact alone on the instances with a capacity once
per restart seed, printing seconds per instance and the total per seed: the search
time is heavy-tailed and one seed's figure says little about the next.

``--generated N`` instead runs exact (capacity 1,048,576, ``--exact-limit`` each) on
N instances of MiniMalloc's challenging kind made by :func:`challenging_instance`
(seeds ``--first-seed`` onwards, default 0..N-1; unseen by the search's tuning), and with ``--minimalloc PATH`` runs
that binary on the same CSV files side by side. ``--scaling N`` times greedy on
:func:`trace_instance` at N / 10, N and 10 N buffers beside best fit by size alone.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

import numpy as np  # noqa: E402

from memplan.planning import Problem, read_dsa_csv  # noqa: E402
from memplan.planning.best import best  # noqa: E402
from memplan.planning.exact import exact  # noqa: E402
from memplan.planning.greedy import greedy  # noqa: E402

EXACT_MAX_BUFFERS = 2000
CHALLENGING_CAPACITY = 1 << 20


def challenging_instance(seed: int) -> list[tuple[int, int, int]]:
    """(start, end, size) buffers of MiniMalloc's challenging kind: a 1024 x 1024
    grid of 1 KiB x 1 time unit cells (time x bytes, 1,048,576 each way, as A..H)
    cut into rectangles by random guillotine cuts, and some rectangles left out
    (never those over one chosen moment), so a perfect packing at 1,048,576 bytes
    exists and the bound equals it.

    Even seeds resemble A..E (cuts anywhere, rectangles of very different shapes,
    2-12% left out); odd seeds F..H (cuts near the middle of the longer side of the
    largest rectangle, so similar rectangles; 30-45% left out)."""
    rng = np.random.default_rng(seed)
    similar = seed % 2 == 1
    target = int(rng.integers(160, 330) if similar else rng.integers(110, 260))
    rects = [(0, 0, 1024, 1024)]  # time start, byte start, width, height (in units)
    while len(rects) < target:
        areas = np.array([w * h for _, _, w, h in rects], dtype=np.float64)
        k = int(areas.argmax()) if similar else int(rng.choice(len(rects), p=areas / areas.sum()))
        t, m, w, h = rects[k]
        along_time = w > h if similar else rng.random() < w / (w + h)
        length = w if along_time else h
        if length < 2:
            continue
        if similar:
            cut = int(np.clip(round(length * rng.uniform(0.35, 0.65)), 1, length - 1))
        else:
            cut = int(rng.integers(1, length))
        if along_time:
            rects[k : k + 1] = [(t, m, cut, h), (t + cut, m, w - cut, h)]
        else:
            rects[k : k + 1] = [(t, m, w, cut), (t, m + cut, w, h - cut)]
    drop = rng.uniform(0.30, 0.45) if similar else rng.uniform(0.02, 0.12)
    # The rectangles over one moment all stay: the bound is the capacity, as in A..H.
    moment = int(rng.integers(0, 1024))
    kept = [r for r in rects if r[0] <= moment < r[0] + r[2] or rng.random() >= drop]
    return [(t * 1024, (t + w) * 1024, h * 1024) for t, _, w, h in kept]


def trace_instance(n: int, seed: int = 0) -> list[tuple[int, int, int]]:
    """(start, end, size) buffers of an IOPDDL-like trace of ``n`` buffers: rows of
    S_1 (the IOPDDL trace in ../shared/bench/dsa) drawn at random, each put into one
    of ``n / 28,526`` consecutive copies of S_1's time span (training steps one after
    another), so the buffers live at once, and the conflicts per buffer, stay those
    of S_1 as ``n`` grows."""
    trace, _ = read_dsa_csv(REPO.parent / "shared" / "bench" / "dsa" / "S_1.csv")
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, len(trace), n)
    steps = max(1, round(n / len(trace)))
    shift = rng.integers(0, steps, n) * int(trace.uppers.max())
    lowers, uppers = trace.lowers[pick] + shift, trace.uppers[pick] + shift
    return list(zip(lowers.tolist(), uppers.tolist(), trace.sizes[pick].tolist()))


def timed(run):
    started = time.perf_counter()
    plan = run()
    return plan, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", default=str(REPO.parent / "shared" / "bench" / "dsa"))
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds for best (default 10)")
    parser.add_argument("--exact-limit", type=float, default=60.0, help="seconds for exact (default 60)")
    parser.add_argument("--only", nargs="*", help="instance file names to run (default: all)")
    parser.add_argument("--exact-seeds", nargs="*", type=int, default=[], help="restart seeds for the exact-only table")
    parser.add_argument("--generated", type=int, default=0, help="run exact on N generated challenging instances")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first generated instance (default 0)")
    parser.add_argument("--minimalloc", help="MiniMalloc binary to run beside exact on the generated instances")
    parser.add_argument("--scaling", type=int, default=0, help="time greedy on generated traces of N / 10, N and 10 N buffers")
    args = parser.parse_args(argv)
    if args.generated:
        return generated(range(args.first_seed, args.first_seed + args.generated), args.exact_limit, args.minimalloc)
    if args.scaling:
        return scaling(args.scaling)
    files = sorted(Path(args.directory).glob("*.csv"))
    if args.only:
        files = [f for f in files if f.name in args.only or f.stem in args.only]
    if not files:
        print(f"no .csv instances in {args.directory}", file=sys.stderr)
        return 1
    header = (
        f"{'instance':<16}{'buffers':>8}{'LB':>15}  {'naive R':>8}  {'greedy R':>9}{'s':>7}"
        f"  {'best R':>7}{'s':>7}  {'exact R':>8}{'s':>7}  exact"
    )
    print(header)
    print("-" * len(header))
    for path in files:
        problem, _ = read_dsa_csv(path)
        lower = problem.lower_bound()
        naive = int(problem.sizes.sum()) / lower
        greedy_plan, greedy_seconds = timed(lambda: greedy(problem))
        best_plan, best_seconds = timed(lambda: best(problem, time_limit=args.time_limit))
        match = re.fullmatch(r".*\.(\d+)", path.stem)
        capacity = int(match.group(1)) if match else None
        if len(problem) <= EXACT_MAX_BUFFERS:
            exact_plan, exact_seconds = cpu_timed(
                lambda: exact(problem, capacity=capacity, time_limit=args.exact_limit, clock=time.process_time)
            )
            if capacity is not None:
                outcome = "fits" if exact_plan.pool_size <= capacity else "does not fit"
                outcome += f" {capacity}"
            else:
                outcome = "optimal" if exact_plan.optimal else "not proven"
            exact_text = f"{exact_plan.pool_size / lower:>8.4f}{exact_seconds:>7.2f}  {outcome} ({exact_plan.stats['nodes']} nodes)"
        else:
            exact_text = f"{'-':>8}{'-':>7}  skipped (> {EXACT_MAX_BUFFERS} buffers)"
        print(
            f"{path.name:<16}{len(problem):>8}{lower:>15}  {naive:>8.3f}  "
            f"{greedy_plan.pool_size / lower:>9.4f}{greedy_seconds:>7.2f}  "
            f"{best_plan.pool_size / lower:>7.4f}{best_seconds:>7.2f}  {exact_text}",
            flush=True,
        )
    if args.exact_seeds:
        exact_by_seed(files, args.exact_seeds, args.exact_limit)
    return 0


def exact_by_seed(files: list[Path], seeds: list[int], limit: float) -> None:
    with_capacity = [(f, int(m.group(1))) for f in files if (m := re.fullmatch(r".*\.(\d+)", f.stem))]
    print()
    print(f"{'exact s, seed':<16}" + "".join(f"{f.name.split('.')[0]:>8}" for f, _ in with_capacity) + f"{'total':>9}  fits")
    for seed in seeds:
        cells, total, fitted = [], 0.0, 0
        for path, capacity in with_capacity:
            problem, _ = read_dsa_csv(path)
            plan, seconds = cpu_timed(
                lambda: exact(problem, capacity=capacity, time_limit=limit, seed=seed, clock=time.process_time)
            )
            fits = plan.pool_size <= capacity
            fitted += fits
            total += seconds
            cells.append(f"{seconds:>7.1f}{'' if fits else '!'}")
        print(f"{seed:<16}" + "".join(f"{c:>8}" for c in cells) + f"{total:>9.1f}  {fitted} of {len(cells)}", flush=True)
    print("(! = not fitted within the limit)")


def _cpu_limit(seconds: float) -> None:
    """In MiniMalloc's process: killed after ``seconds`` of CPU, as exact is stopped."""
    whole = max(1, round(seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (whole, whole + 1))


def generated(seeds: range, limit: float, minimalloc: str | None) -> int:
    """exact (and MiniMalloc) on generated challenging instances, seconds each. Both
    get ``limit`` CPU seconds (exact through its clock, MiniMalloc through RLIMIT_CPU):
    on a shared machine a wall-clock limit measures the load as much as the solver."""
    print(f"load average {os.getloadavg()[0]:.2f}; exact limit {limit:.0f} s, capacity {CHALLENGING_CAPACITY}")
    print("seconds are wall/CPU; the limits are CPU seconds")
    print(f"{'seed':<6}{'buffers':>8}{'greedy R':>10}{'exact s':>13}  {'exact':<18}{'pool R':>8}{'MiniMalloc s':>14}")
    fitted = mm_fitted = 0
    exact_total = mm_total = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        for seed in seeds:
            rows = challenging_instance(seed)
            problem = Problem.from_intervals(rows)
            start, cpu_start = time.perf_counter(), time.process_time()
            plan = exact(problem, capacity=CHALLENGING_CAPACITY, time_limit=limit, clock=time.process_time)
            seconds = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
            fits = plan.pool_size <= CHALLENGING_CAPACITY
            fitted += fits
            exact_total += seconds
            greedy_r = greedy(problem).pool_size / CHALLENGING_CAPACITY
            mm_text = "-"
            if minimalloc:
                source = Path(scratch, f"g{seed}.csv")
                source.write_text("id,lower,upper,size\n" + "".join(f"{i},{a},{b},{c}\n" for i, (a, b, c) in enumerate(rows)))
                start = time.perf_counter()
                children = resource.getrusage(resource.RUSAGE_CHILDREN)
                try:
                    done = subprocess.run(
                        [minimalloc, f"--capacity={CHALLENGING_CAPACITY}", f"--input={source}", f"--output={source}.out"],
                        capture_output=True, timeout=50 * limit, preexec_fn=lambda: _cpu_limit(limit),
                    )
                    mm_seconds = time.perf_counter() - start
                    mm_ok = done.returncode == 0 and Path(f"{source}.out").exists()
                except subprocess.TimeoutExpired:
                    mm_seconds, mm_ok = 50 * limit, False
                mm_fitted += mm_ok
                mm_total += mm_seconds
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                mm_cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
                mm_text = f"{mm_seconds:.2f}/{mm_cpu:.2f}" + ("" if mm_ok else "!")
            outcome = f"{'fits' if fits else 'does not fit'} ({plan.stats['nodes']})"
            print(
                f"{seed:<6}{len(problem):>8}{greedy_r:>10.4f}{f'{seconds:.2f}/{cpu:.2f}':>13}  {outcome:<18}"
                f"{plan.pool_size / CHALLENGING_CAPACITY:>8.4f}{mm_text:>14}",
                flush=True,
            )
    count = len(seeds)
    print(f"exact fits {fitted} of {count} ({exact_total:.1f} s in all)", end="")
    print(f"; MiniMalloc {mm_fitted} of {count} ({mm_total:.1f} s)" if minimalloc else "")
    print("(! = not fitted within the limit)")
    return 0


def cpu_timed(run):
    """The result and this process's CPU seconds: on a shared machine wall time
    measures the load as much as the code."""
    started = time.process_time()
    result = run()
    return result, time.process_time() - started


def scaling(n: int) -> int:
    """greedy on generated traces of n / 10, n and 10 n buffers, beside best fit by
    size (CPU seconds), with the growth exponent of each step (1 = linear; n log n
    gives about 1.08 from 62,000 to 620,000)."""
    print(f"load average {os.getloadavg()[0]:.2f}; CPU seconds")
    print(
        f"{'buffers':>9}{'conflicts':>13}{'greedy s':>10}{'R':>8}  {'strategy':<22}{'size s':>8}{'R':>8}"
        f"{'greedy exp':>11}{'size exp':>9}"
    )
    previous = None
    for count in (n // 10, n, 10 * n):
        problem = Problem.from_intervals(trace_instance(count))
        lower = problem.lower_bound()
        plan, took = cpu_timed(lambda: greedy(problem))
        by_size, size_took = cpu_timed(lambda: greedy(problem, order="size"))
        growth = ""
        if previous is not None:
            scale = np.log(count / previous[0])
            growth = f"{np.log(took / previous[1]) / scale:>11.2f}{np.log(size_took / previous[2]) / scale:>9.2f}"
        print(
            f"{count:>9}{problem.conflict_count():>13}{took:>10.2f}{plan.pool_size / lower:>8.4f}  {plan.strategy:<22}"
            f"{size_took:>8.2f}{by_size.pool_size / lower:>8.4f}{growth}",
            flush=True,
        )
        if previous is not None and count == 10 * n:
            print(f"10x buffers: {took / previous[1]:.1f}x the greedy time, {size_took / previous[2]:.1f}x best fit by size's")
        previous = (count, took, size_took)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
