"""Benchmark the offset planners on the DSA instances, side by side in one run.

    python bench/plan_dsa.py [DIR] [--time-limit S] [--exact-limit S] [--only NAME ...]

For each ``*.csv`` in DIR (default: ``../shared/bench/dsa`` from the repository root)
prints the buffer count, the lower bound LB (peak live bytes), and R = pool / LB with
seconds for: the naive baseline (no sharing: pool = sum of sizes), greedy, best, and
exact. Instances whose name carries a capacity (``A.1048576.csv``) are given that
capacity for exact; exact only runs on instances of at most 2,000 buffers, from
greedy's plan (so its seconds are its own search's). Every plan is validated by the
planners before it is reported.

``--exact-seeds 0 1 2`` then runs exact alone on the instances with a capacity once
per restart seed, printing seconds per instance and the total per seed: the search
time is heavy-tailed and one seed's figure says little about the next.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from memplan.planning import read_dsa_csv  # noqa: E402
from memplan.planning.best import best  # noqa: E402
from memplan.planning.exact import exact  # noqa: E402
from memplan.planning.greedy import greedy  # noqa: E402

EXACT_MAX_BUFFERS = 2000


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
    args = parser.parse_args(argv)
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
            exact_plan, exact_seconds = timed(
                lambda: exact(problem, capacity=capacity, time_limit=args.exact_limit)
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
            plan, seconds = timed(lambda: exact(problem, capacity=capacity, time_limit=limit, seed=seed))
            fits = plan.pool_size <= capacity
            fitted += fits
            total += seconds
            cells.append(f"{seconds:>7.1f}{'' if fits else '!'}")
        print(f"{seed:<16}" + "".join(f"{c:>8}" for c in cells) + f"{total:>9.1f}  {fitted} of {len(cells)}", flush=True)
    print("(! = not fitted within the limit)")


if __name__ == "__main__":
    sys.exit(main())
