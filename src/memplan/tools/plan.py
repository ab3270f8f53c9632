"""``memplan-plan``: plan offsets for a DSA CSV file.

    memplan-plan IN.csv -o OUT.csv [--strategy greedy|best|exact]
                 [--capacity BYTES] [--time-limit SECONDS] [--alignment BYTES]

Writes ``id,lower,upper,size,offset`` and prints the buffer count, the lower bound
LB, the pool size, R = pool / LB and the time taken. Any error is one line on stderr
and exit status 1; the output file is written atomically, so it is either complete or
untouched.
"""

from __future__ import annotations

import argparse
import sys
import time

from memplan.planning import PlanInputError, PlanValidationError, read_dsa_csv, write_plan_csv
from memplan.planning.best import best
from memplan.planning.exact import exact
from memplan.planning.greedy import greedy

STRATEGIES = ("greedy", "best", "exact")


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line and exit 1, like every other error of the tool."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise SystemExit(_fail(f"{self.prog}: {message}"))


def _fail(message: str) -> int:
    print(f"error: {message}" if not message.startswith("memplan-plan") else message, file=sys.stderr)
    return 1


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="memplan-plan", description="Plan buffer offsets for a DSA CSV file (id,lower,upper,size).")
    parser.add_argument("input", help="input CSV: id,lower,upper,size; lifetime [lower, upper)")
    parser.add_argument("-o", "--output", required=True, help="output CSV: id,lower,upper,size,offset")
    parser.add_argument("--strategy", choices=STRATEGIES, default="best", help="planner (default: best)")
    parser.add_argument("--capacity", type=_positive_int, help="pool bytes the plan must fit in")
    parser.add_argument(
        "--time-limit", type=_positive_float, default=10.0, help="seconds for best and exact (default: 10)"
    )
    parser.add_argument("--alignment", type=_positive_int, default=1, help="offset alignment in bytes (default: 1)")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    started = time.monotonic()
    try:
        problem, _ = read_dsa_csv(args.input, alignment=args.alignment)
        if args.strategy == "greedy":
            plan = greedy(problem)
        elif args.strategy == "best":
            plan = best(problem, time_limit=args.time_limit, capacity=args.capacity)
        else:
            plan = exact(problem, capacity=args.capacity, time_limit=args.time_limit)
        if args.capacity is not None and plan.pool_size > args.capacity:
            return _fail(
                f"{args.input}: no plan within capacity {args.capacity} found by {args.strategy} "
                f"(best found: {plan.pool_size} bytes)"
            )
        write_plan_csv(args.output, plan)
    except (PlanInputError, PlanValidationError) as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"{args.output}: cannot write: {error.strerror or error}")
    seconds = time.monotonic() - started
    lower = problem.lower_bound()
    ratio = plan.pool_size / lower if lower else 1.0
    print(f"buffers: {len(problem)}")
    print(f"lower bound: {lower}")
    print(f"pool: {plan.pool_size}")
    print(f"R: {ratio:.4f}{' (optimal)' if plan.optimal or plan.pool_size == lower else ''}")
    print(f"strategy: {args.strategy}")
    print(f"time: {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
