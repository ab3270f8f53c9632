"""``memplan-plan``: plan offsets for DSA CSV files, as a Unix tool.

    memplan-plan [INPUT ...] [-o OUTPUT] [--strategy greedy|best|exact]
                 [--capacity BYTES] [--time-limit SECONDS] [--alignment BYTES]
                 [--seed N] [--report PATH] [--version]

Each INPUT (``-`` or none: stdin) is an ``id,lower,upper,size`` file planned on its
own. ``-o`` writes ``id,lower,upper,size,offset``: to a file (atomically, so it is
either complete or untouched; a device or FIFO is written through), to stdout with
``-o -`` (one CSV after the other for several inputs), or, for several inputs, into
an existing directory as ``DIR/<input file name>`` (``stdin.csv`` for ``-``). Without ``-o`` only the summary is printed: the buffer count, the lower
bound LB, the pool size, R = pool / LB and the time taken, one block per input, on
stdout (on stderr when the plan goes to stdout). ``--report`` writes every plan as
one HTML page (see :mod:`memplan.report`).

Errors are one line on stderr and exit 1; alignment follows memplan-opt's rule (a
positive power of two). Ctrl-C exits 130 and a closed stdout (``| head``) exits 141,
both without a traceback. Progress (best pool, time left) goes to stderr while
planning, only when stderr is a terminal.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from typing import TextIO

import memplan
from memplan.planning import (
    STRATEGIES,
    Plan,
    PlanInputError,
    PlanValidationError,
    format_plan_csv,
    parse_dsa_csv,
    read_dsa_csv,
)
from memplan.planning.problem import Problem, check_alignment
from memplan.progress import planning_progress
from memplan.files import OutputError, quiet_closed_stdout, write_output

STDIN_NAME = "<stdin>"


class _Failure(Exception):
    """A user-facing error: one line on stderr, exit 1."""


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line and exit 1, like every other error of the tool."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _Failure(f"{self.prog}: {message}")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _alignment(text: str) -> int:
    try:
        value = int(text)
        check_alignment(value)
    except ValueError as error:
        detail = str(error) if str(error).startswith("alignment") else f"expected an integer, got {text!r}"
        raise argparse.ArgumentTypeError(detail) from None
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
    parser = _Parser(prog="memplan-plan", description="Plan buffer offsets for DSA CSV files (id,lower,upper,size).")
    parser.add_argument(
        "inputs", nargs="*", default=["-"], metavar="INPUT",
        help="input CSV: id,lower,upper,size; lifetime [lower, upper) (default and '-': stdin)",
    )
    parser.add_argument(
        "-o", "--output",
        help="output CSV id,lower,upper,size,offset ('-': stdout; a directory for several inputs)",
    )
    parser.add_argument("--strategy", choices=tuple(STRATEGIES), default="best", help="planner (default: best)")
    parser.add_argument("--capacity", type=_positive_int, help="pool bytes the plan must fit in")
    parser.add_argument(
        "--time-limit", type=_positive_float, default=10.0, help="seconds for best and exact (default: 10)"
    )
    parser.add_argument(
        "--alignment", type=_alignment, default=1, help="offset alignment in bytes, a power of two (default: 1)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed of best and exact (default: 0)")
    parser.add_argument("--report", metavar="PATH", help="write the plans as one HTML page with pictures")
    parser.add_argument("--version", action="version", version=f"memplan-plan {memplan.__version__}")
    return parser


@dataclass(frozen=True)
class _Planned:
    name: str
    plan: Plan
    seconds: float


def _read(name: str, alignment: int) -> tuple[str, Problem]:
    if name == "-":
        try:
            text = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError as error:
            raise PlanInputError(f"{STDIN_NAME}: not a readable CSV file: {error}") from None
        return STDIN_NAME, parse_dsa_csv(text, STDIN_NAME, alignment)[0]
    return name, read_dsa_csv(name, alignment=alignment)[0]


def _plan(name: str, problem: Problem, args: argparse.Namespace) -> _Planned:
    started = time.monotonic()
    limit = None if args.strategy == "greedy" else args.time_limit
    with planning_progress(f"{name}: {args.strategy}, {len(problem)} buffers", limit) as progress:
        plan = STRATEGIES[args.strategy](
            problem, capacity=args.capacity, time_limit=args.time_limit, seed=args.seed, progress=progress
        )
    if args.capacity is not None and plan.pool_size > args.capacity:
        raise _Failure(
            f"error: {name}: no plan within capacity {args.capacity} found by {args.strategy} "
            f"(best found: {plan.pool_size} bytes)"
        )
    return _Planned(name, plan, time.monotonic() - started)


def _summary(planned: _Planned, strategy: str, stream: TextIO, named: bool) -> None:
    plan = planned.plan
    lower = plan.problem.lower_bound()
    ratio = plan.pool_size / lower if lower else 1.0
    if named:
        print(f"input: {planned.name}", file=stream)
    print(f"buffers: {len(plan.problem)}", file=stream)
    print(f"lower bound: {lower}", file=stream)
    print(f"pool: {plan.pool_size}", file=stream)
    print(f"R: {ratio:.4f}{' (optimal)' if plan.optimal else ''}", file=stream)
    print(f"strategy: {strategy}", file=stream)
    print(f"time: {planned.seconds:.2f} s", file=stream)
    stream.flush()


def _targets(args: argparse.Namespace) -> list[str | None]:
    """Where each input's CSV goes (None: nowhere), checked before any planning."""
    inputs: list[str] = args.inputs
    if inputs.count("-") > 1:
        raise _Failure("error: stdin ('-') can be read only once")
    if args.output is None:
        return [None] * len(inputs)
    if len(inputs) == 1:
        return [args.output]
    if args.output == "-":
        return ["-"] * len(inputs)
    if not os.path.isdir(args.output):
        raise _Failure(f"error: {args.output}: with {len(inputs)} inputs, -o must be an existing directory")
    names = [os.path.basename(name) if name != "-" else "stdin.csv" for name in inputs]
    if len(set(names)) != len(names):
        raise _Failure("error: two inputs have the same file name; their plans would overwrite each other")
    return [os.path.join(args.output, name) for name in names]


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    targets = _targets(args)
    summary = sys.stderr if "-" in targets else sys.stdout
    planned: list[_Planned] = []
    for name, target in zip(args.inputs, targets):
        try:
            shown, problem = _read(name, args.alignment)
        except (PlanInputError, PlanValidationError) as error:
            raise _Failure(f"error: {error}") from None
        result = _plan(shown, problem, args)
        if target is not None:
            try:
                write_output(target, format_plan_csv(result.plan))
            except OutputError as error:
                raise _Failure(f"error: {error}") from None
        _summary(result, args.strategy, summary, named=len(args.inputs) > 1)
        planned.append(result)
    if args.report:
        from memplan.diagnostics import UserError
        from memplan.report import plan_of_intervals, write_report

        try:
            write_report(args.report, [plan_of_intervals(p.plan, p.name) for p in planned], "memplan-plan")
        except UserError as error:
            raise _Failure(f"error: {error}") from None
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return run(argv)
    except SystemExit as stop:  # --help, --version
        return int(stop.code or 0)
    except _Failure as failure:
        print(failure, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        quiet_closed_stdout()
        return 141


if __name__ == "__main__":
    sys.exit(main())
