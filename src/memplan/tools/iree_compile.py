"""`memplan-iree-compile`: an IREE build whose transient layout is memplan's.

    memplan-iree-compile INPUT -o OUT.vmfb [--layout memplan|iree|none]
        [--iree-compile PATH] [--iree-opt PATH] [--memplan-opt CMD]
        [--layout-pipeline PIPELINE] [--input-phase input|flow]
        [--work-dir DIR] [--iree-flag FLAG ...] [--print-commands] [--dry-run]

IREE lays out every `stream.resource.pack` (the transient slices of a function)
in `iree-stream-layout-slices`, inside its stream phase. This tool splits IREE's
build at that pass:

1. `iree-compile --compile-to=flow` (skipped with `--input-phase flow`);
2. `iree-opt` running the stream phase up to the layout (`STREAM_HEAD`, the order
   of IREE's `Dialect/Stream/Transforms/Passes.cpp`: the tensor and async
   pipelines, then the cmd pipeline's allocation scheduling, transient emplacement,
   size queries and constant packing);
3. the layout: `--layout memplan` runs `memplan-opt -p layout-slices` on the
   callables that hold a pack (with the module's globals; see `split_top_level`) and
   splices them back; `--layout iree` runs IREE's own pass at the same point;
4. `iree-opt` for the rest of the stream phase (`STREAM_TAIL`);
5. `iree-compile --compile-from=stream` to the `.vmfb`.

`--layout none` is IREE's build in one `iree-compile` call, the reference the split
is compared with. Every intermediate is printed with its source locations, so the
split with IREE's own layout gives the very module a straight `iree-compile` gives
(tests/peer/test_iree_pipeline.py checks it byte for byte). The design and the
measured figures are in docs/design/iree-pipeline.md.

iree-compile and iree-opt come from `--iree-compile`/`--iree-opt` or PATH
(`pip install iree-base-compiler==3.13.0`); memplan-opt is this interpreter's
unless `--memplan-opt` names another command. Errors are one line on stderr and
exit 1 (a failing step: its command and the end of its stderr).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

TARGET_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
)
"""IREE's target flags every step gets: the CPU of this machine through llvm-cpu."""

PRINT_FLAGS = ("--mlir-print-debuginfo",)
"""How every intermediate is printed: with locations (a vmfb carries them, so without
them the split's module would differ from IREE's)."""

LOCAL_SCOPE = "--mlir-print-local-scope"
"""Printing without attribute or location aliases, so that each top-level op's text
stands on its own: how the callables memplan lays out are cut out and printed back.
(iree-opt leaves out the `{-# dialect_resources #-}` blobs in this mode, so the
module the rest of the build reads is the one printed with aliases.)"""

FUNCTION_LIKE = ("util.initializer", "util.func")
"""The callables IREE's FunctionLikeNest runs layout-slices on at the stream phase
(it also names func.func, which no stream-phase module holds)."""


def _nest(passes: str) -> str:
    return ",".join(f"{op}({passes})" for op in FUNCTION_LIKE)


STREAM_HEAD = (
    "iree-util-verify-initialization-order",
    "iree-stream-tensor-transformation-pipeline",
    "iree-stream-async-transformation-pipeline",
    "iree-stream-schedule-allocation",
    "iree-stream-emplace-transients",
    "iree-stream-materialize-transient-size-queries",
    _nest("iree-stream-pack-constants"),
)
"""IREE's stream phase (buildStreamTransformPassPipeline) up to the transient layout:
the tensor and async pipelines whole (the async one lays out encoding packs with
IREE's pass; the models here have none), then buildStreamCmdPassPipeline's passes
before its per-callable `pack-constants, layout-slices, canonicalize`. The device
assignment iree-compile runs first is a no-op on flow output, which already holds
its devices."""

IREE_LAYOUT = (_nest("iree-stream-layout-slices"),)
"""IREE's own layout at the split point."""

STREAM_TAIL = (
    _nest("canonicalize"),
    "iree-util-propagate-subranges",
    "iree-stream-cleanup-pipeline",
    "iree-stream-automatic-reference-counting",
    "iree-stream-annotate-constant-transient-size",
    "iree-stream-verify-lowering-to-cmd",
    "iree-stream-optimization-pipeline",
    "iree-stream-cleanup-pipeline",
    "symbol-dce",
)
"""The rest of IREE's stream phase after the layout: the cmd pipeline's canonicalize
and what follows it, the optimization pipeline, the final cleanup and symbol DCE."""

LAYOUTS = ("memplan", "iree", "none")


def module_pipeline(passes: Sequence[str]) -> str:
    """A textual pass pipeline anchored on the module."""
    return f"builtin.module({','.join(passes)})"


class ToolError(Exception):
    """A user-facing failure: one line (or a short block) on stderr, exit 1."""


@dataclass(frozen=True)
class Tools:
    """The commands of the build (each a list: a path, or an interpreter and module)."""

    iree_compile: tuple[str, ...]
    iree_opt: tuple[str, ...]
    memplan_opt: tuple[str, ...]


def _find(name: str, given: str | None, which: Callable[[str], str | None]) -> str:
    if given is not None:
        path = Path(given)
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
        raise ToolError(f"--{name} {given}: not an executable file")
    found = which(name)
    if found is None:
        raise ToolError(
            f"cannot find {name}: give --{name} PATH or put it on PATH "
            "(pip install iree-base-compiler==3.13.0 installs it)")
    return found


def find_tools(
    iree_compile: str | None = None,
    iree_opt: str | None = None,
    memplan_opt: str | None = None,
    *,
    need_iree_opt: bool = True,
    which: Callable[[str], str | None] = shutil.which,
) -> Tools:
    """The tools' paths: the ones given, else PATH's; ToolError when one is missing."""
    compile_path = _find("iree-compile", iree_compile, which)
    opt_path = _find("iree-opt", iree_opt, which) if need_iree_opt else ""
    memplan = (tuple(shlex.split(memplan_opt)) if memplan_opt
               else (sys.executable, "-m", "memplan.tools.memplan_opt"))
    return Tools((compile_path,), (opt_path,), memplan)


# --------------------------------------------------------------------------- text


@dataclass
class TopLevelOp:
    """One op of a module's body as printed by iree-opt or memplan-opt."""

    text: str

    @property
    def head(self) -> str:
        return self.text.split("\n", 1)[0].strip()

    @property
    def is_global(self) -> bool:
        return self.head.startswith("util.global ")

    @property
    def is_callable(self) -> bool:
        return any(self.head.startswith(kind + " ") or self.head == kind + " {"
                   for kind in FUNCTION_LIKE)

    @property
    def symbol(self) -> str | None:
        match = re.search(r'@("(?:[^"\\]|\\.)*"|[\w$.-]+)', self.head)
        return match.group(1) if match else None

    @property
    def has_pack(self) -> bool:
        return "stream.resource.pack" in self.text


@dataclass
class ModuleText:
    """A printed module cut into the text before its body, its top-level ops and
    the text after (the closing brace and any `{-# dialect_resources #-}` block)."""

    prefix: str
    ops: list[TopLevelOp]
    suffix: str

    def render(self) -> str:
        return self.prefix + "".join(op.text for op in self.ops) + self.suffix


_OP_START = re.compile(r"^  [^\s}]")


def split_top_level(text: str) -> ModuleText:
    """Cut a module printed with two-space indentation into its top-level ops.

    A top-level op starts at a line indented by exactly two spaces and runs to the
    next such line; lines indented deeper, closing braces at two spaces and lines
    at column zero inside it (the rest of a multi-line attribute) are its own. The
    module ends at its last column-zero `}` before a resource block. Rendering the
    pieces gives the text back unchanged.
    """
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith("module")), None)
    if start is None:
        raise ToolError("no top-level `module` in the printed IR")
    resources = next((i for i, line in enumerate(lines) if line.startswith("{-#")),
                     len(lines))
    end = next((i for i in range(resources - 1, start, -1) if lines[i].startswith("}")),
               None)
    if end is None:
        raise ToolError("the printed module has no closing brace")
    ops: list[TopLevelOp] = []
    current: list[str] | None = None
    for line in lines[start + 1:end]:
        if _OP_START.match(line):
            current = [line]
            ops.append(TopLevelOp(""))
        elif current is None:
            raise ToolError(f"unexpected line before the first op: {line.rstrip()!r}")
        else:
            current.append(line)
        ops[-1].text = "".join(current)
    return ModuleText("".join(lines[:start + 1]), ops, "".join(lines[end:]))


def layout_input(module: ModuleText, picked: Sequence[int] | None = None,
                 ) -> tuple[str, list[int]]:
    """The module memplan lays out: every global and every callable holding a pack
    (the globals let the callables' loads and stores verify); IREE's executables and
    the other callables (with hal ops memplan does not model) stay out. Also the
    indices in `module.ops` of the callables sent. `picked` sends those instead (the
    same callables of the module after a layout, which holds no pack)."""
    if picked is None:
        picked = [i for i, op in enumerate(module.ops) if op.is_callable and op.has_pack]
    picked = list(picked)
    globals_ = [op.text for op in module.ops if op.is_global]
    body = "".join(globals_ + [module.ops[i].text for i in picked])
    return "module {\n" + body + "}\n", picked


def splice_layout(module: ModuleText, picked: Sequence[int], laid_out: str) -> str:
    """The module with the callables at `picked` replaced by memplan's output's."""
    result = split_top_level(laid_out)
    callables = [op for op in result.ops if op.is_callable]
    if len(callables) != len(picked):
        raise ToolError(
            f"memplan-opt returned {len(callables)} callables for {len(picked)} sent")
    ops = list(module.ops)
    for index, new in zip(picked, callables):
        if new.symbol != ops[index].symbol:
            raise ToolError(
                f"memplan-opt returned @{new.symbol} where @{ops[index].symbol} was sent")
        text = new.text if new.text.endswith("\n") else new.text + "\n"
        ops[index] = TopLevelOp(text)
    return ModuleText(module.prefix, ops, module.suffix).render()


# --------------------------------------------------------------------------- steps


@dataclass
class Step:
    """One step of the build: a command, or an in-process action on files."""

    name: str
    output: Path
    argv: tuple[str, ...] = ()
    action: Callable[[], None] | None = None

    def describe(self) -> str:
        if self.argv:
            return shlex.join(self.argv)
        return f"# {self.name}: {self.output}"


@dataclass
class Build:
    """The steps that turn one input into a vmfb, and where their outputs go."""

    steps: list[Step]
    work_dir: Path
    files: dict[str, Path] = field(default_factory=dict)


def plan_build(
    input_path: Path,
    output: Path,
    work_dir: Path,
    tools: Tools,
    *,
    layout: str = "memplan",
    layout_pipeline: str = "layout-slices",
    input_phase: str = "input",
    extra_flags: Sequence[str] = (),
    to_vmfb: bool = True,
) -> Build:
    """The steps of a build (nothing runs): see the module docstring."""
    if layout not in LAYOUTS:
        raise ToolError(f"unknown --layout {layout!r} (one of {', '.join(LAYOUTS)})")
    if input_phase not in ("input", "flow"):
        raise ToolError(f"unknown --input-phase {input_phase!r} (input or flow)")
    flags = (*TARGET_FLAGS, *extra_flags)
    compile_ = (*tools.iree_compile, *flags)
    if layout == "none":
        phase = () if input_phase == "input" else ("--compile-from=flow",)
        return Build([Step("iree-compile", output,
                           (*compile_, *phase, str(input_path), "-o", str(output)))],
                     work_dir, {"vmfb": output})
    files = {
        "flow": input_path if input_phase == "flow" else work_dir / "flow.mlir",
        "before-layout": work_dir / "before-layout.mlir",
        "after-layout": work_dir / "after-layout.mlir",
        "stream": work_dir / "stream.mlir",
        "vmfb": output,
    }
    opt = (*tools.iree_opt, *flags, *PRINT_FLAGS)
    steps: list[Step] = []
    if input_phase == "input":
        steps.append(Step("flow", files["flow"], (
            *compile_, "--compile-to=flow", "--mlir-print-debuginfo",
            str(input_path), "-o", str(files["flow"]))))
    steps.append(Step("stream-head", files["before-layout"], (
        *opt, f"--pass-pipeline={module_pipeline(STREAM_HEAD)}",
        str(files["flow"]), "-o", str(files["before-layout"]))))
    if layout == "iree":
        steps.append(Step("layout-iree", files["after-layout"], (
            *opt, f"--pass-pipeline={module_pipeline(IREE_LAYOUT)}",
            str(files["before-layout"]), "-o", str(files["after-layout"]))))
    else:
        files["before-layout-local"] = work_dir / "before-layout.local.mlir"
        files["layout-in"] = work_dir / "layout-in.mlir"
        files["layout-out"] = work_dir / "layout-out.mlir"

        def extract() -> None:
            module = split_top_level(files["before-layout-local"].read_text())
            files["layout-in"].write_text(layout_input(module)[0])

        def splice() -> None:
            module = split_top_level(files["before-layout"].read_text())
            picked = layout_input(module)[1]
            files["after-layout"].write_text(splice_layout(
                module, picked, files["layout-out"].read_text()))

        steps.append(Step("local-scope", files["before-layout-local"], (
            *opt, LOCAL_SCOPE, str(files["before-layout"]),
            "-o", str(files["before-layout-local"]))))
        steps.append(Step("layout-extract", files["layout-in"], action=extract))
        steps.append(Step("layout-memplan", files["layout-out"], (
            *tools.memplan_opt, "-p", layout_pipeline, "--mlir-timing", *PRINT_FLAGS,
            LOCAL_SCOPE, str(files["layout-in"]), "-o", str(files["layout-out"]))))
        steps.append(Step("layout-splice", files["after-layout"], action=splice))
    steps.append(Step("stream-tail", files["stream"], (
        *opt, f"--pass-pipeline={module_pipeline(STREAM_TAIL)}",
        str(files["after-layout"]), "-o", str(files["stream"]))))
    if to_vmfb:
        steps.append(Step("vmfb", output, (
            *compile_, "--compile-from=stream", str(files["stream"]), "-o", str(output))))
    return Build(steps, work_dir, files)


_TIMING_ROW = re.compile(r"^\s*([\d.]+)\s+\(\s*[\d.]+%\)\s+(\S.*?)\s*$")


def pass_seconds(timing_report: str, names: Sequence[str] = ("layout-slices",)) -> float | None:
    """The wall seconds `--mlir-timing` reports for the named passes (None: absent)."""
    total, seen = 0.0, False
    for line in timing_report.splitlines():
        match = _TIMING_ROW.match(line)
        if match and match.group(2) in names:
            total += float(match.group(1))
            seen = True
    return total if seen else None


@dataclass
class StepResult:
    """What a step that ran left: its time and its stderr (memplan-opt's timing)."""

    name: str
    seconds: float
    stderr: str


def run_build(build: Build, *, echo: Callable[[str], None] | None = None,
              runner: Callable[..., subprocess.CompletedProcess] = subprocess.run,
              ) -> list[StepResult]:
    """Run the steps in order; ToolError naming the step that failed."""
    build.work_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for step in build.steps:
        if echo is not None:
            echo(step.describe())
        began = time.perf_counter()
        stderr = ""
        if step.action is not None:
            step.action()
        else:
            done = runner(list(step.argv), capture_output=True, text=True)
            stderr = done.stderr or ""
            if done.returncode != 0:
                tail = "\n".join(stderr.strip().splitlines()[-12:])
                raise ToolError(
                    f"step {step.name} failed (exit {done.returncode}): "
                    f"{shlex.join(step.argv)}\n{tail}")
        results.append(StepResult(step.name, time.perf_counter() - began, stderr))
    return results


# --------------------------------------------------------------------------- CLI


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memplan-iree-compile",
        description="Build a model with IREE, its transient layout done by memplan's "
                    "layout-slices (or IREE's own at the same split point).")
    parser.add_argument("input", type=Path, help="IREE input (e.g. torch-dialect MLIR "
                        "from iree-turbine), or flow-phase MLIR with --input-phase flow")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the .vmfb")
    parser.add_argument("--layout", choices=LAYOUTS, default="memplan",
                        help="memplan: memplan-opt's layout-slices; iree: IREE's own "
                             "pass at the split point; none: one straight iree-compile")
    parser.add_argument("--layout-pipeline", default="layout-slices",
                        help="memplan-opt's pipeline at the split point "
                             "(default: layout-slices)")
    parser.add_argument("--input-phase", choices=("input", "flow"), default="input")
    parser.add_argument("--iree-compile", help="path of iree-compile (default: PATH's)")
    parser.add_argument("--iree-opt", help="path of iree-opt (default: PATH's)")
    parser.add_argument("--memplan-opt", help="memplan-opt command (default: this "
                        "interpreter's memplan.tools.memplan_opt)")
    parser.add_argument("--work-dir", type=Path, help="keep the intermediates here "
                        "(default: a temporary directory, removed)")
    parser.add_argument("--iree-flag", action="append", default=[], metavar="FLAG",
                        help="one more flag for iree-compile and iree-opt (repeatable)")
    parser.add_argument("--print-commands", action="store_true",
                        help="print each step's command to stderr before it runs")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the commands and run nothing")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if not args.dry_run and not args.input.is_file():
            raise ToolError(f"{args.input}: no such file")
        tools = find_tools(args.iree_compile, args.iree_opt, args.memplan_opt,
                           need_iree_opt=args.layout != "none")
        temporary = None
        work_dir = args.work_dir
        if work_dir is None:
            temporary = tempfile.TemporaryDirectory(prefix="memplan-iree-")
            work_dir = Path(temporary.name)
        try:
            build = plan_build(args.input, args.output, work_dir, tools,
                               layout=args.layout, layout_pipeline=args.layout_pipeline,
                               input_phase=args.input_phase, extra_flags=args.iree_flag)
            if args.dry_run:
                for step in build.steps:
                    print(step.describe())
                return 0
            echo = ((lambda text: print(text, file=sys.stderr))
                    if args.print_commands else None)
            results = run_build(build, echo=echo)
            for result in results:
                if result.name == "layout-memplan":
                    seconds = pass_seconds(result.stderr)
                    if seconds is not None:
                        print(f"memplan-iree-compile: layout-slices {seconds:.3f} s",
                              file=sys.stderr)
        finally:
            if temporary is not None:
                temporary.cleanup()
    except ToolError as error:
        print(f"memplan-iree-compile: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
