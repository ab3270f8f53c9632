"""`memplan-opt`: mlir-opt for memplan's dialects and passes.

Reads MLIR text (a file or stdin), runs a pass pipeline given as `-p`,
`--pass-pipeline` or one `--NAME` flag per pass, and prints the result. Every
failure is a `file:line:col: error: ...` line on stderr and exit code 1; the output
file is written only when everything succeeded, and atomically.
"""

from __future__ import annotations

import io
import gc
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

import memplan
from memplan.context import make_context
from memplan.diagnostics import (
    Diagnostic,
    Location,
    UserError,
    diagnostic_handler,
    emit,
)
from memplan.printing import print_module
from memplan.passes.registry import PASSES, passes_by_name
from memplan.files import OutputError, open_output, quiet_closed_stdout
from memplan.tools.expected_diagnostics import check, collect_expectations
from memplan.analysis.fingerprint import fingerprint
from memplan.passes.registry import pass_options
from memplan.tools.command_line import CommandLine, Namespace, Option
from memplan.tools.pipeline import (
    ScheduledPass,
    describe_pipeline,
    parse_pass_pipeline,
    pass_spec_from_flag,
)
from memplan.tools.statistics import PassStatistics
from memplan.signatures import Signatures
from memplan.verification import verify_module
from memplan.tools.source import (
    SPLIT_MARKER,
    parse_error_diagnostic,
    parse_module,
    split_input,
)


def _pass_help() -> str:
    lines = ["Passes (each also a --NAME flag; options as --NAME='opt=value'):"]
    for info in sorted(PASSES, key=lambda p: p.name):
        aliases = f" (alias: {', '.join(info.aliases)})" if info.aliases else ""
        lines.append(f"  --{info.name:<36} {info.summary}{aliases}")
        for option in pass_options(info.load()):
            lines.append(f"      --{option.spelled:<32} {option.describe()}")
    return "\n".join(lines)


OPTIONS: tuple[Option, ...] = (
    Option("o", "required", "output file (default: stdout); devices and links are "
           "written through, regular files replaced atomically",
           dest="output", default="-", value_name="filename"),
    Option("p", "list", "comma-separated pass pipeline (xdsl-opt's spelling)",
           dest="passes", aliases=("passes",), value_name="pipeline"),
    Option("pass-pipeline", "list", "MLIR textual pipeline, e.g. "
           "'builtin.module(func.func(cse),canonicalize)'", value_name="pipeline"),
    Option("split-input-file", "optional", "process each chunk between marker lines "
           f"independently (default marker '{SPLIT_MARKER}')", const=SPLIT_MARKER,
           value_name="marker"),
    Option("verify-diagnostics", "optional", "check emitted diagnostics against "
           "expected-* comments in the input", const="all",
           choices=("all", "only-expected"), value_name="mode"),
    Option("allow-unregistered-dialect", "flag",
           "accept ops of dialects memplan does not know", default=False),
    Option("allow-test-dialect", "flag", "accepted for mlir-opt's test build: MLIR's "
           "test-dialect ops (test.graph_region, test.side_effect_op, ...) load "
           "whenever the input uses a test. op", default=False),
    Option("verify-each", "flag", "verify the IR after every pass as well (default: "
           "false; the IR is always verified after parsing and after the pipeline)",
           default=False),
    Option("keep-names", "flag", "print the source's SSA value names instead of "
           "mlir-opt's (%c0, %alloc, %0, %arg0)", default=False,
           aliases=("mlir-print-keep-names",)),
    Option("mlir-print-op-generic", "flag", "print operations in generic form",
           default=False),
    Option("mlir-print-debuginfo", "flag", "print source locations", default=False),
    Option("mlir-print-local-scope", "flag",
           "print attributes inline, without #alias definitions", default=False),
    Option("mlir-print-ir-after-all", "flag", "print the IR to stderr after every pass",
           default=False),
    Option("mlir-print-ir-before-all", "flag", "print the IR to stderr before every pass",
           default=False),
    Option("mlir-print-ir-after", "list", "print the IR to stderr after PASS",
           value_name="pass"),
    Option("mlir-print-ir-before", "list", "print the IR to stderr before PASS",
           value_name="pass"),
    Option("mlir-print-ir-after-change", "flag", "with the after-printing options: "
           "print only when the pass changed the IR", default=False),
    Option("mlir-print-ir-after-failure", "flag",
           "print the IR to stderr after a pass that failed", default=False),
    Option("mlir-pass-statistics", "flag", "print each pass's counters to stderr",
           default=False),
    Option("mlir-pass-statistics-display", "required", "how statistics are shown",
           default="list", choices=("list", "pipeline")),
    Option("mlir-timing", "flag", "print the time spent parsing, verifying, in each "
           "pass and printing", default=False),
    Option("mlir-disable-threading", "flag", "accepted for mlir-opt compatibility "
           "(memplan runs single-threaded)", default=False),
    Option("dump-pass-pipeline", "flag", "print the pass pipeline to stderr before "
           "running it", default=False),
    Option("list-passes", "flag", "print the registered passes and exit", default=False),
    Option("show-dialects", "flag", "print the registered dialects and exit",
           default=False),
    Option("version", "flag", "print the version and exit", default=False),
    Option("help", "flag", "print this help and exit", default=False,
           aliases=("h", "help-hidden")),
)


def _command_line() -> CommandLine:
    table = passes_by_name()
    return CommandLine(
        "memplan-opt",
        OPTIONS,
        is_pass=table.__contains__,
        pass_names=lambda: table,
    )


def _help_text(command_line: CommandLine) -> str:
    return (
        "OVERVIEW: memplan-opt: memory planning and cleanup passes for GPU-runtime "
        "MLIR, with mlir-opt's command line\n\n"
        f"{command_line.help()}\n\n{_pass_help()}\n"
    )


@dataclass
class _Timing:
    """mlir-opt's `--mlir-timing` report: wall seconds per phase, the verifier's
    runs summed into one row, and what no row covers (reading the input, building
    the pipeline) as `Rest`, so the rows add up to the run."""

    entries: dict[str, float] = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)

    def add(self, name: str, seconds: float) -> None:
        self.entries[name] = self.entries.get(name, 0.0) + seconds

    @contextmanager
    def measuring(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start)

    def report(self) -> str:
        total = max(time.perf_counter() - self.started, sum(self.entries.values())) or 1e-12
        rows = {**self.entries, "Rest": max(total - sum(self.entries.values()), 0.0)}
        bar = "===" + "-" * 73 + "==="
        lines = [
            bar,
            " " * 25 + "... Execution time report ...",
            bar,
            f"  Total Execution Time: {total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]
        for name, seconds in rows.items():
            lines.append(f"  {seconds:8.4f} ({100 * seconds / total:5.1f}%)  {name}")
        lines.append(f"  {total:8.4f} (100.0%)  Total")
        return "\n".join(lines)


def _print_module(
    module: ModuleOp, args: Namespace, ctx: Context, stream: IO[str], signatures: Signatures | None = None
) -> None:
    print_module(
        module,
        stream,
        generic=args.mlir_print_op_generic,
        debuginfo=args.mlir_print_debuginfo,
        dialects=ctx.loaded_dialects,
        keep_names=args.keep_names,
        local_scope=args.mlir_print_local_scope,
        signatures=signatures,
    )


@dataclass
class _IrPrinting:
    """mlir-opt's `--mlir-print-ir-*` options: which dumps to write around a pass."""

    before_all: bool
    after_all: bool
    before: frozenset[str]
    after: frozenset[str]
    after_change: bool
    after_failure: bool

    @staticmethod
    def from_args(args: Namespace) -> _IrPrinting:
        return _IrPrinting(
            args.mlir_print_ir_before_all,
            args.mlir_print_ir_after_all,
            frozenset(_canonical_pass_names(args.mlir_print_ir_before)),
            frozenset(_canonical_pass_names(args.mlir_print_ir_after)),
            args.mlir_print_ir_after_change,
            args.mlir_print_ir_after_failure,
        )

    def wants_before(self, scheduled: ScheduledPass) -> bool:
        return self.before_all or scheduled.info.name in self.before

    def wants_after(self, scheduled: ScheduledPass) -> bool:
        return self.after_all or scheduled.info.name in self.after


def _canonical_pass_names(spelled: list[str]) -> list[str]:
    """`--mlir-print-ir-after=iree-util-fold-globals` names the pass by any of its
    names; compare by the registry's own name."""
    table = passes_by_name()
    names: list[str] = []
    for group in spelled:
        for name in filter(None, (n.strip() for n in group.split(","))):
            info = table.get(name)
            if info is None:
                raise UserError(f"'{name}' does not refer to a registered pass")
            names.append(info.name)
    return names


def _dump(header: str, module: ModuleOp, args: Namespace, ctx: Context) -> None:
    sys.stderr.write(f"// -----// IR Dump {header} //----- //\n")
    buffer = io.StringIO()
    _print_module(module, args, ctx, buffer)
    sys.stderr.write(buffer.getvalue())


def _run_pass(
    ctx: Context,
    module: ModuleOp,
    scheduled: ScheduledPass,
    args: Namespace,
    printing: _IrPrinting,
    statistics: PassStatistics,
    timing: _Timing,
) -> None:
    if printing.wants_before(scheduled):
        _dump(f"Before {scheduled.title}", module, args, ctx)
    dump_after = printing.wants_after(scheduled)
    before = fingerprint(module) if dump_after and printing.after_change else None
    try:
        with statistics.collecting(scheduled, module), timing.measuring(scheduled.spelled):
            scheduled.run(ctx, module)
        if args.verify_each:
            with timing.measuring("Verifier"):
                verify_module(module)
    except (UserError, DiagnosticException):
        if printing.after_failure:
            name = type(scheduled.pass_instance).__name__
            _dump(f"After {name} Failed ({scheduled.spelled})", module, args, ctx)
        raise
    if dump_after and (before is None or fingerprint(module) != before):
        _dump(f"After {scheduled.title}", module, args, ctx)


def _run_chunk(
    ctx: Context,
    text: str,
    name: str,
    passes: list[ScheduledPass],
    args: Namespace,
    timing: _Timing,
    statistics: PassStatistics,
    out: IO[str],
    separator: str,
) -> bool:
    """Parse, verify, transform and print one chunk into `out` (after
    `separator`); False when it failed (the diagnostics have been emitted; `out`
    holds part of it only when printing failed)."""
    printing = _IrPrinting.from_args(args)
    try:
        try:
            with timing.measuring("Parser"):
                module = parse_module(ctx, text, name)
        except ParseError as error:
            emit(parse_error_diagnostic(error, text, name))
            return None
        # The parsed module is most of the heap and lives until the process ends:
        # frozen, the collector no longer traverses it on every full collection
        # while passes and printing make their (collectable) garbage.
        gc.freeze()
        # One table of op signatures for the chunk: what verified before the
        # passes verifies after them, and the printer knows the keys.
        signatures = Signatures()
        with timing.measuring("Verifier"):
            verify_module(module, signatures)
        for scheduled in passes:
            _run_pass(ctx, module, scheduled, args, printing, statistics, timing)
        # What the passes built (with the collector off) joins the frozen module:
        # else the first young collections while verifying or printing traverse
        # all of it (1-2 s at 100k ops).
        gc.freeze()
        with signatures.reading():  # the module is only read from here on
            if passes and not args.verify_each:
                with timing.measuring("Verifier"):
                    verify_module(module, signatures)
            with timing.measuring("Output"):
                out.write(separator)
                _print_module(module, args, ctx, out, signatures)
        return True
    except UserError as error:
        emit(error.diagnostic())
    except DiagnosticException as error:
        emit(Diagnostic("error", str(error).strip() or type(error).__name__))
    except BrokenPipeError:  # stdout's reader went away while the module printed
        raise
    except Exception as error:  # a bug in memplan; say so instead of a traceback
        if os.environ.get("MEMPLAN_TRACEBACK"):
            raise
        emit(Diagnostic(
            "error",
            f"internal error ({type(error).__name__}: {error}); "
            "rerun with MEMPLAN_TRACEBACK=1 and report it",
            Location(name, 1, 1),
        ))
    return False


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
    if (nul := data.find(b"\x00")) != -1:
        raise UserError(
            f"'{name}' is a binary file, not MLIR text (a NUL byte at offset {nul})",
            location=_byte_location(data, nul, name),
        )
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as error:
        raise UserError(
            f"'{name}' is not UTF-8 text (invalid byte at offset {error.start})",
            location=_byte_location(data, error.start, name),
        ) from None


def _byte_location(data: bytes, offset: int, name: str) -> Location:
    """The line and column of byte `offset`, columns counted in bytes as MLIR's."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return Location(name, data.count(b"\n", 0, offset) + 1, offset - line_start + 1)


def _list_passes() -> str:
    return "Available Passes:\n" + _pass_help().split("\n", 1)[1] + "\n"


def _show_dialects(ctx: Context) -> str:
    names = sorted(ctx.registered_dialect_names)
    return "Available Dialects: " + ", ".join(names) + "\n"


def run(argv: list[str]) -> int:
    timing = _Timing()
    command_line = _command_line()
    args = command_line.parse(argv)
    if args.help:
        sys.stdout.write(_help_text(command_line))
        return 0
    if args.version:
        print(f"memplan-opt {memplan.__version__}")
        return 0
    if args.list_passes:
        sys.stdout.write(_list_passes())
        return 0
    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    if args.show_dialects:
        sys.stdout.write(_show_dialects(ctx))
        return 0
    if len(args.positional) > 1:
        raise UserError(
            f"too many positional arguments: {' '.join(args.positional)} "
            "(memplan-opt reads one input file)"
        )
    input_path = args.positional[0] if args.positional else "-"

    pipeline_texts = list(args.passes) + list(args.pass_pipeline)
    if pipeline_texts and args.pass_flags:
        raise UserError(
            "pass flags (--NAME) cannot be combined with -p/--pass-pipeline; "
            "write the whole pipeline in one place"
        )
    passes: list[ScheduledPass] = []
    for text in pipeline_texts:
        passes.extend(parse_pass_pipeline(text))
    for flag, options in args.pass_flags:
        passes.extend(parse_pass_pipeline(pass_spec_from_flag(flag, options)))
    if args.dump_pass_pipeline:
        sys.stderr.write(
            f"Pass Manager with {len(passes)} passes:\n{describe_pipeline(passes)}\n\n"
        )

    text, name = _read_input(input_path)
    if args.output != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(args.output))):
        raise UserError(f"could not write output file '{args.output}': no such directory")
    statistics = PassStatistics()
    marker = args.split_input_file or SPLIT_MARKER
    chunks = split_input(text, args.split_input_file is not None, marker)

    # Each chunk prints as it finishes straight into the output (a regular file's
    # temporary file, stdout's buffer): the whole text is never held in memory
    # (2.4 MB for a 20k-op decoder, at the run's peak).
    printed_any = False
    failed = False
    try:
        with open_output(args.output) as output:
            out = io.TextIOWrapper(output.stream, encoding="utf-8", newline="\n")
            try:
                for chunk in chunks:
                    emitted: list[Diagnostic] = []
                    mark = None
                    if output.can_cut:
                        out.flush()
                        mark = output.mark()
                    # (stdout is flushed only as its buffer fills, as mlir-opt's is: a
                    # small output still follows all of stderr when both are merged)
                    # mlir-opt separates chunks with the marker on its own line.
                    separator = f"{marker}\n" if printed_any else ""
                    with diagnostic_handler(emitted.append):
                        try:
                            printed = _run_chunk(
                                ctx, chunk.text, name, passes, args, timing, statistics, out, separator
                            )
                        finally:
                            gc.unfreeze()  # the chunk's module may be collected again (main() in-process)
                    failed |= _report(chunk.text, name, emitted, printed, args)
                    if printed:
                        out.write("\n")  # mlir-opt ends each chunk's module with a blank line
                        printed_any = True
                    elif mark is not None:  # what a chunk that failed while printing wrote goes
                        out.flush()
                        output.cut(mark)
                if args.mlir_pass_statistics:
                    sys.stderr.write(statistics.report())
                if args.mlir_timing:
                    print(timing.report(), file=sys.stderr)
                if failed and args.output != "-":
                    output.discard()
            finally:
                out.flush()
                out.detach()  # stdout's buffer stays open
    except OutputError as error:
        raise UserError(str(error)) from None
    return 1 if failed else 0


def _report(
    text: str, name: str, emitted: list[Diagnostic], printed: bool | None, args: Namespace
) -> bool:
    """Print a chunk's diagnostics (or, under --verify-diagnostics, how they differ
    from the expected ones); whether the chunk failed."""
    if args.verify_diagnostics:
        problems = check(
            collect_expectations(text, name),
            emitted,
            only_expected=args.verify_diagnostics == "only-expected",
        )
        for problem in problems:
            print(problem.with_source(text, name), file=sys.stderr)
        return bool(problems)
    for diagnostic in emitted:
        if diagnostic.severity == "error":
            diagnostic = diagnostic.with_source(text, name)
        print(diagnostic, file=sys.stderr)
    return printed is None or any(d.severity == "error" for d in emitted)


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
        quiet_closed_stdout()
        return 141
    except OSError as error:  # the output could not be written: a full disk, say
        print(f"memplan-opt: error: cannot write the output: {error}", file=sys.stderr)
        return 1


def console_main() -> NoReturn:
    """The `memplan-opt` command: `main`, then an exit that skips tearing the IR
    down object by object (0.8 s of a 20k-op run, as long as printing it), as
    LLVM's tools leave their module to the operating system. What was written is
    flushed first; `main` has already closed any output file."""
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = code or 141
    except (OSError, ValueError) as error:  # a full disk behind a redirection
        print(f"memplan-opt: error: cannot write the output: {error}", file=sys.stderr)
        code = code or 1
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    # `python -m` exits normally, so profilers and coverage see the end of the run.
    sys.exit(main())
