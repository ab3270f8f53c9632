"""`memplan-opt`: mlir-opt for memplan's dialects and passes.

Reads MLIR text (a file or stdin), runs a pass pipeline given as `-p`,
`--pass-pipeline` or one `--NAME` flag per pass, and prints the result. Every
failure is a `file:line:col: error: ...` line on stderr and exit code 1; the output
file is written only when everything succeeded, and atomically.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, OpResult
from xdsl.utils.exceptions import DiagnosticException, ParseError

import memplan
from memplan.context import make_context
from memplan.diagnostics import (
    Diagnostic,
    Location,
    UserError,
    diagnostic_handler,
    emit,
    location_of,
)
from memplan.printing import print_module
from memplan.passes.registry import PASSES, passes_by_name
from memplan.tools.output import OutputError, write_output
from memplan.tools.expected_diagnostics import check, collect_expectations
from memplan.tools.pipeline import (
    ScheduledPass,
    parse_pass_pipeline,
    pass_spec_from_flag,
)
from memplan.tools.source import (
    SPLIT_MARKER,
    parse_error_diagnostic,
    parse_module,
    split_input,
)


class _ArgumentParser(argparse.ArgumentParser):
    """argparse with mlir-opt's exit code (1) and one-line errors."""

    def error(self, message: str):  # type: ignore[override]
        raise UserError(message)


def _pass_help() -> str:
    lines = ["passes (each also a --NAME flag; options as --NAME='opt=value'):"]
    for info in sorted(PASSES, key=lambda p: p.name):
        aliases = f" (alias: {', '.join(info.aliases)})" if info.aliases else ""
        lines.append(f"  {info.name:<28} {info.summary}{aliases}")
        try:
            from xdsl.passes import get_pass_option_infos

            for option in get_pass_option_infos(info.load()):
                default = (
                    f" (default {option.default_value})" if option.default_value else ""
                )
                lines.append(
                    f"  {'':<30}{option.name.replace('_', '-')}: "
                    f"{option.expected_type}{default}"
                )
        except ImportError:
            pass
    return "\n".join(lines)


def _build_argument_parser() -> argparse.ArgumentParser:
    parser = _ArgumentParser(
        prog="memplan-opt",
        description="Memory planning and cleanup passes for GPU-runtime MLIR.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_pass_help(),
    )
    parser.add_argument("input", nargs="?", default="-", help="input file (default: stdin)")
    parser.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    parser.add_argument(
        "-p", "--passes", action="append", default=[], help="comma-separated pass pipeline"
    )
    parser.add_argument(
        "--pass-pipeline", action="append", default=[],
        help="MLIR-style pipeline, e.g. 'builtin.module(cse,canonicalize)'",
    )
    parser.add_argument(
        "--split-input-file", nargs="?", const=SPLIT_MARKER, default=None,
        metavar="MARKER",
        help=f"process each chunk between '{SPLIT_MARKER}' lines independently",
    )
    parser.add_argument(
        "--verify-diagnostics", action="store_true",
        help="check emitted diagnostics against expected-* comments in the input",
    )
    parser.add_argument("--mlir-print-op-generic", action="store_true",
                        help="print operations in generic form")
    parser.add_argument("--mlir-print-debuginfo", action="store_true",
                        help="print source locations")
    parser.add_argument("--mlir-print-ir-after-all", action="store_true",
                        help="print the IR to stderr after every pass")
    parser.add_argument("--mlir-print-ir-before-all", action="store_true",
                        help="print the IR to stderr before every pass")
    parser.add_argument("--mlir-timing", action="store_true",
                        help="print the time spent parsing, in each pass and printing")
    parser.add_argument("--verify-each", action="store_true",
                        help="verify the IR after every pass (default: after the pipeline)")
    parser.add_argument("--allow-unregistered-dialect", action="store_true",
                        help="accept ops of dialects memplan does not know")
    parser.add_argument("--version", action="version",
                        version=f"memplan-opt {memplan.__version__}")
    return parser


def _extract_pass_flags(argv: list[str]) -> tuple[list[str], list[str]]:
    """Split `--NAME[=opts]` pass flags (kept in order) from the other arguments."""
    table = passes_by_name()
    rest: list[str] = []
    pipeline: list[str] = []
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("---"):
            body = arg.lstrip("-")
            name, sep, options = body.partition("=")
            if name in table:
                pipeline.append(pass_spec_from_flag(name, options if sep else None))
                continue
        rest.append(arg)
    return rest, pipeline


@dataclass
class _Timing:
    entries: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.entries[name] = self.entries.get(name, 0.0) + seconds

    def report(self) -> str:
        total = sum(self.entries.values()) or 1e-12
        bar = "===" + "-" * 73 + "==="
        lines = [
            bar,
            " " * 25 + "... Execution time report ...",
            bar,
            f"  Total Execution Time: {total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]
        for name, seconds in self.entries.items():
            lines.append(f"  {seconds:8.4f} ({100 * seconds / total:5.1f}%)  {name}")
        lines.append(f"  {total:8.4f} (100.0%)  Total")
        return "\n".join(lines)


def _print_module(module: ModuleOp, args: argparse.Namespace, ctx: Context) -> str:
    buffer = io.StringIO()
    print_module(
        module,
        buffer,
        generic=args.mlir_print_op_generic,
        debuginfo=args.mlir_print_debuginfo,
        dialects=ctx.loaded_dialects,
    )
    return buffer.getvalue()


def _verify(module: ModuleOp) -> None:
    """Verify op by op so a failure names the op that failed, with its location."""
    positions: dict[Block, dict[Operation, int]] = {}
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except Exception as error:  # xDSL verifiers raise more than VerifyException
            message = str(error).strip() or type(error).__name__
            # Dialects often prefix the op already ("'hip.add' op ..."; xDSL "op ...").
            message = message.removeprefix(f"'{op.name}' op ").removeprefix("op ")
            raise UserError(f"'{op.name}' op {message}", op=op) from None
        _check_dominance(op, positions)


def _check_dominance(op: Operation, positions: dict[Block, dict[Operation, int]]) -> None:
    """xDSL does not check that a value is defined before its use in a block (MLIR
    does); without this a use before the definition parses and runs on garbage."""
    for number, operand in enumerate(op.operands):
        if not isinstance(operand, OpResult):
            continue
        block = operand.op.parent_block()
        region = block.parent if block is not None else None
        if block is None or region is None or len(region.blocks) != 1:
            continue  # several blocks: the CFG decides, not the order
        if isinstance(region.parent, ModuleOp):
            continue  # a graph region
        user: Operation | None = op
        while user is not None and user.parent_block() is not block:
            user = user.parent_op()
        order = positions.get(block)
        if order is None:
            order = positions[block] = {o: i for i, o in enumerate(block.ops)}
        if user is None or order[user] <= order[operand.op]:
            raise UserError(
                f"'{op.name}' op operand #{number} does not dominate this use "
                f"(it is defined at {location_of(operand.op)})",
                op=op,
            )


def _run_chunk(
    ctx: Context,
    text: str,
    name: str,
    passes: list[ScheduledPass],
    args: argparse.Namespace,
    timing: _Timing,
) -> str | None:
    """Parse, verify, transform and print one chunk; None when it failed (the
    diagnostics have been emitted)."""
    try:
        start = time.perf_counter()
        try:
            module = parse_module(ctx, text, name)
        except ParseError as error:
            emit(parse_error_diagnostic(error, text, name))
            return None
        timing.add("Parser", time.perf_counter() - start)
        _verify(module)
        for scheduled in passes:
            if args.mlir_print_ir_before_all:
                print(f"// -----// IR Dump Before {scheduled.spelled} //----- //",
                      file=sys.stderr)
                sys.stderr.write(_print_module(module, args, ctx))
            start = time.perf_counter()
            scheduled.instance.apply(ctx, module)
            timing.add(scheduled.spelled, time.perf_counter() - start)
            if args.verify_each:
                _verify(module)
            if args.mlir_print_ir_after_all:
                print(f"// -----// IR Dump After {scheduled.spelled} //----- //",
                      file=sys.stderr)
                sys.stderr.write(_print_module(module, args, ctx))
        if passes and not args.verify_each:
            _verify(module)
        start = time.perf_counter()
        printed = _print_module(module, args, ctx)
        timing.add("Output", time.perf_counter() - start)
        return printed
    except UserError as error:
        emit(error.diagnostic())
    except DiagnosticException as error:
        emit(Diagnostic("error", str(error).strip() or type(error).__name__))
    except Exception as error:  # a bug in memplan; say so instead of a traceback
        if os.environ.get("MEMPLAN_TRACEBACK"):
            raise
        emit(Diagnostic(
            "error",
            f"internal error ({type(error).__name__}: {error}); "
            "rerun with MEMPLAN_TRACEBACK=1 and report it",
            Location(name, 1, 1),
        ))
    return None


def _read_input(path: str) -> tuple[str, str]:
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise UserError(f"could not open input file '{path}': {error.strerror}") from None
        name = path
    if b"\x00" in data:
        raise UserError(f"'{name}' is a binary file, not MLIR text")
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as error:
        raise UserError(
            f"'{name}' is not UTF-8 text (invalid byte at offset {error.start})"
        ) from None


def _write_output(path: str, text: str) -> None:
    try:
        write_output(path, text)
    except OutputError as error:
        raise UserError(str(error)) from None


def run(argv: list[str]) -> int:
    rest, flag_pipeline = _extract_pass_flags(argv)
    args = _build_argument_parser().parse_args(rest)
    pipeline_texts = list(args.passes) + list(args.pass_pipeline)
    if pipeline_texts and flag_pipeline:
        raise UserError(
            "pass flags (--NAME) cannot be combined with -p/--pass-pipeline; "
            "write the whole pipeline in one place"
        )
    passes: list[ScheduledPass] = []
    for text in pipeline_texts:
        passes.extend(parse_pass_pipeline(text))
    for spec in flag_pipeline:
        passes.extend(parse_pass_pipeline(spec))

    text, name = _read_input(args.input)
    if args.output != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(args.output))):
        raise UserError(f"could not write output file '{args.output}': no such directory")
    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    timing = _Timing()
    chunks = split_input(text, args.split_input_file is not None,
                         args.split_input_file or SPLIT_MARKER)

    outputs: list[str] = []
    failed = False
    for chunk in chunks:
        emitted: list[Diagnostic] = []
        with diagnostic_handler(emitted.append):
            printed = _run_chunk(ctx, chunk.text, name, passes, args, timing)
        if args.verify_diagnostics:
            problems = check(collect_expectations(chunk.text, name), emitted)
            for problem in problems:
                print(problem, file=sys.stderr)
            failed |= bool(problems)
        else:
            for diagnostic in emitted:
                print(diagnostic, file=sys.stderr)
            failed |= printed is None or any(d.severity == "error" for d in emitted)
        if printed is not None:
            outputs.append(printed)

    if args.mlir_timing:
        print(timing.report(), file=sys.stderr)
    separator = f"{args.split_input_file or SPLIT_MARKER}\n"
    result = separator.join(outputs)
    if failed and args.output != "-":
        return 1
    _write_output(args.output, result)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return run(argv)
    except UserError as error:
        print(error.diagnostic(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
