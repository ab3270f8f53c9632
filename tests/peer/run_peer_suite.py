#!/usr/bin/env python3
"""Run a peer's own lit files against memplan-opt, case by case.

The peers (ROCm hip-ep, IREE, upstream MLIR) are the acceptance measure for
conformance, but their test text must never enter this repository. This runner
reads the files from a checkout you point it at, splits each into cases, rewrites
only the tool name in the RUN lines, and runs every case with lit and FileCheck in
a scratch folder outside the repository:

- a file whose RUN lines use `--split-input-file` splits at its `// -----` lines;
- any other file splits into one case per `*-LABEL:` check, each case being the
  comment block that holds the label and what follows it up to the next case (the
  lines before the first case, RUN lines included, start every case);
- a file with no label, or wrapped in a top-level `module`, is one case.

`--reference TOOL` runs the same cases with the peer's real tool as well
(`iree-opt`, `mlir-opt-22`) and counts memplan only on the cases the reference
passes, which is how "N of the M valid cases" figures are measured.

Examples:

    python tests/peer/run_peer_suite.py --suite hip-ep-memory --root /work/peers/hip-ep
    python tests/peer/run_peer_suite.py --suite iree-folding --root /work/peers/iree \
        --reference /work/iree-venv/bin/iree-opt
    python tests/peer/run_peer_suite.py /work/peers/llvm/mlir/test/Transforms/cse.mlir \
        --reference mlir-opt-22
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PEER_TOOLS = ("hip-mlir-opt", "iree-opt", "mlir-opt")
"""Tool names in peers' RUN lines that memplan-opt stands in for."""

SUITES: dict[str, tuple[str, tuple[str, ...]]] = {
    # name: (environment variable with the default root, files under the root)
    "hip-ep-memory": ("HIP_EP_SRC", tuple(
        f"test/lit/Dialect/{name}.mlir" for name in (
            "hip-optimize-memrefs",
            "hip-materialize-host-scalars",
            "hip-pool-allocs",
            "hip-pool-allocs-dynamic-binning",
            "hip-pool-allocs-fragmentation-report",
            "hip-pool-allocs-lifetime-only",
            "hip-pool-allocs-many-domains",
            "hip-pool-allocs-multi-domain-metadata",
        )
    )),
    "iree-folding": ("IREE_SRC", tuple(
        f"compiler/src/iree/compiler/Dialect/{name}.mlir" for name in (
            "Util/Transforms/test/fold_globals",
            "Util/Transforms/test/fuse_globals",
            "Util/Transforms/test/simplify_global_accesses",
            "Util/Transforms/test/patterns",
            "Util/IR/test/global_folding",
            "Util/IR/test/structural_folding",
            "Stream/IR/test/async_folding",
            "Stream/IR/test/resource_folding",
            "Stream/IR/test/tensor_folding",
            "Stream/IR/test/timepoint_folding",
        )
    )),
    "iree-layout": ("IREE_SRC", (
        "compiler/src/iree/compiler/Dialect/Stream/Transforms/test/layout_slices.mlir",
    )),
    "mlir-generic": ("LLVM_SRC", (
        "mlir/test/Transforms/cse.mlir",
        "mlir/test/Dialect/MemRef/canonicalize.mlir",
    )),
}

_RUN = re.compile(r"^\s*//\s*RUN:(.*)$")
_SPLIT = re.compile(r"^// -----\s*$")
_LABEL = re.compile(r"^\s*//\s*[A-Za-z0-9_-]+-LABEL:")
_TOP_LEVEL_MODULE = re.compile(r"^module\b")
_SYMBOL = re.compile(r"@([\w$.-]+|\"[^\"]*\")")


@dataclass(frozen=True)
class Case:
    source: Path
    index: int
    name: str
    text: str


def run_lines(lines: Sequence[str]) -> list[str]:
    """The file's RUN commands, continuation lines joined."""
    commands: list[str] = []
    pending = ""
    for line in lines:
        match = _RUN.match(line)
        if not match:
            continue
        body = match.group(1).strip()
        if body.endswith("\\"):
            pending += body[:-1] + " "
            continue
        commands.append(pending + body)
        pending = ""
    return commands


def _case_name(text: str, fallback: str) -> str:
    for line in text.splitlines():
        if _LABEL.match(line) or line.lstrip().startswith(("func.func", "util.func", "util.global")):
            symbol = _SYMBOL.search(line)
            if symbol:
                return symbol.group(1)
    return fallback


_PREFIXES = re.compile(r"--?check-prefix(?:es)?[= ]([\w,-]+)")
_DIRECTIVE = re.compile(r"^\s*//\s*([A-Za-z0-9_-]+?)(?:-(?:LABEL|NEXT|SAME|DAG|NOT|COUNT-\d+|EMPTY))?:")


def _drop_unchecked_runs(lines: Sequence[str]) -> str:
    """A label case without the RUN lines whose FileCheck prefixes check nothing in
    it (a file-wide `--check-prefix=ALIGN64` run checks only the cases that carry
    ALIGN64 lines; FileCheck fails on a prefix with no directive at all)."""
    used = {m.group(1) for line in lines if not _RUN.match(line) and (m := _DIRECTIVE.match(line))}
    kept: list[str] = []
    command: list[str] = []
    for line in lines:
        if not _RUN.match(line):
            kept.append(line)
            continue
        command.append(line)
        if line.rstrip().endswith("\\"):
            continue
        text = " ".join(command)
        prefixes = {"CHECK"}
        for match in _PREFIXES.finditer(text):
            prefixes = set(match.group(1).split(","))
        if "FileCheck" not in text or prefixes & used:
            kept.extend(command)
        command = []
    return "".join(kept + command)


def split_cases(path: Path) -> list[Case]:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = [line for line in lines if _RUN.match(line)]
    if any("split-input-file" in command for command in run_lines(lines)):
        chunks: list[list[str]] = [[]]
        for line in lines:
            if _SPLIT.match(line):
                chunks.append([])
            else:
                chunks[-1].append(line)
        texts = [
            "".join(chunk if number == 0 else header + ["\n"] + chunk)
            for number, chunk in enumerate(chunks)
        ]
    else:
        starts: list[int] = []
        if not any(_TOP_LEVEL_MODULE.match(line) for line in lines):
            for number, line in enumerate(lines):
                if not _LABEL.match(line):
                    continue
                start = number
                while start > 0 and lines[start - 1].lstrip().startswith("//"):
                    start -= 1
                if not starts or start != starts[-1]:  # one case per comment block
                    starts.append(start)
        if len(starts) < 2:
            texts = ["".join(lines)]
        else:
            preamble = lines[: starts[0]]
            bounds = starts + [len(lines)]
            texts = [
                _drop_unchecked_runs(preamble + lines[begin:end])
                for begin, end in zip(bounds, bounds[1:])
            ]
    return [
        Case(path, number, _case_name(text, f"case{number}"), text)
        for number, text in enumerate(texts)
        if text.strip()
    ]


def _rewrite_tool(text: str, tool: str) -> str:
    pattern = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, PEER_TOOLS)) + r")(?![\w-])")

    def rewrite(line: str) -> str:
        return pattern.sub(lambda _: tool, line) if _RUN.match(line) else line

    return "".join(rewrite(line) for line in text.splitlines(keepends=True))


_LIT_CONFIG = """\
import lit.formats
config.name = "peer"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = {root!r}
config.environment["PATH"] = {path!r}
config.substitutions.append(("FileCheck", {filecheck!r}))
"""


def run_cases(cases: Sequence[Case], tool: str, folder: Path, jobs: int,
              filecheck: str | None = None) -> dict[Case, bool]:
    """Write the cases under `folder`, run them with lit, and say which passed."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    bin_dir = os.path.dirname(sys.executable)
    path = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
    filecheck = (shutil.which(filecheck, path=path) if filecheck else
                 shutil.which("filecheck", path=path) or shutil.which("FileCheck", path=path))
    if filecheck is None:
        raise SystemExit("run_peer_suite: filecheck not found (pip install filecheck, or --filecheck)")
    (folder / "lit.cfg.py").write_text(
        _LIT_CONFIG.format(root=str(folder), path=path, filecheck=filecheck)
    )
    by_file: dict[str, Case] = {}
    for case in cases:
        relative = f"{case.source.stem}/{case.index:03d}.mlir"
        target = folder / relative
        target.parent.mkdir(exist_ok=True)
        target.write_text(_rewrite_tool(case.text, tool), encoding="utf-8")
        by_file[relative] = case
    lit = shutil.which("lit", path=path)
    if lit is None:
        raise SystemExit("run_peer_suite: lit not found (pip install lit)")
    process = subprocess.run(
        [lit, "-v", "-j", str(jobs), str(folder)],
        capture_output=True, text=True, check=False,
    )
    (folder / "lit.log").write_text(process.stdout + process.stderr, encoding="utf-8")
    result_line = re.compile(r"^(PASS|FAIL|XFAIL|XPASS|UNRESOLVED|UNSUPPORTED|TIMEOUT): peer :: (\S+)")
    outcome: dict[Case, bool] = {}
    for line in process.stdout.splitlines():
        match = result_line.match(line)
        if match and match.group(2) in by_file:
            outcome[by_file[match.group(2)]] = match.group(1) == "PASS"
    return {case: outcome.get(case, False) for case in cases}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
    )
    parser.add_argument("files", nargs="*", type=Path, help="peer lit files (absolute or under --root)")
    parser.add_argument("--suite", choices=sorted(SUITES), help="a named list of peer files")
    parser.add_argument("--root", type=Path, help="the peer checkout (default: the suite's environment variable)")
    parser.add_argument("--tool", default="memplan-opt", help="the command that replaces the peer's tool name")
    parser.add_argument("--reference", help="the peer's real tool, to count only the cases valid on it")
    parser.add_argument("--results", type=Path, default=None,
                        help="scratch folder for the cases and lit.log (default: a temporary folder)")
    parser.add_argument("--filter", default=None, help="run only cases whose name matches this regex")
    parser.add_argument("--filecheck", default=None,
                        help="the FileCheck to run (default: the Python `filecheck` beside this Python); "
                             "LLVM's own (`FileCheck-22`) where the two differ: the Python one also looks "
                             "for a CHECK-NOT string in the whole line of the next match, past where that match starts")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the summary")
    args = parser.parse_args(argv)

    files = list(args.files)
    root = args.root
    if args.suite:
        variable, names = SUITES[args.suite]
        root = root or (Path(os.environ[variable]) if variable in os.environ else None)
        if root is None:
            parser.error(f"--suite {args.suite} needs --root or ${variable}")
        files += [Path(name) for name in names]
    if not files:
        parser.error("no peer files given")
    files = [f if f.is_absolute() or root is None else root / f for f in files]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        parser.error("not found: " + ", ".join(missing))

    repository = Path(__file__).resolve().parents[2]
    results = args.results or Path(tempfile.mkdtemp(prefix="memplan-peer-"))
    if results.resolve().is_relative_to(repository):
        parser.error("--results must lie outside the repository (peer text never enters it)")

    cases = [case for path in files for case in split_cases(path)]
    if args.filter:
        cases = [case for case in cases if re.search(args.filter, case.name)]
    passed = run_cases(cases, args.tool, results / "memplan", args.jobs, args.filecheck)
    valid = (
        run_cases(cases, args.reference, results / "reference", args.jobs, args.filecheck)
        if args.reference else {case: True for case in cases}
    )

    total_valid = total_passed = 0
    for path in files:
        mine = [case for case in cases if case.source == path]
        counted = [case for case in mine if valid[case]]
        good = [case for case in counted if passed[case]]
        total_valid += len(counted)
        total_passed += len(good)
        print(f"{path.name}: {len(good)}/{len(counted)}"
              + (f" (of {len(mine)} cases, {len(counted)} valid on the reference)" if args.reference else ""))
        if not args.quiet:
            for case in counted:
                if not passed[case]:
                    print(f"  FAIL {case.index:3d} @{case.name}  "
                          f"({results / 'memplan' / case.source.stem / f'{case.index:03d}.mlir'})")
    print(f"total: {total_passed}/{total_valid}  (cases and lit.log under {results})")
    return 0 if total_passed == total_valid else 1


if __name__ == "__main__":
    sys.exit(main())
