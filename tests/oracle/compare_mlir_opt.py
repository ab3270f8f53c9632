#!/usr/bin/env python3
"""Compare memplan's memref syntax with upstream MLIR's `mlir-opt` (a developer
script, not a test: CI has no mlir-opt).

For every `// -----` chunk of the given files (default: memref_cases.mlir beside this
script), with REF = `mlir-opt` of the chunk (MLIR's own custom form):

  custom      memplan(REF) prints REF again (SSA names and whitespace aside)
  reparse     mlir-opt(memplan(REF)) == REF: MLIR reads memplan's text as the same IR
  generic     mlir-opt(memplan --generic(REF)) == REF
  self-gen    memplan(memplan --generic(REF)) prints REF again
  mlir-gen    memplan(mlir-opt --generic(chunk)) prints REF again

A chunk may restrict itself with a line `// oracle-checks: custom reparse`.

`memplan` is `memplan-opt` by default; `--mlir-printer` parses with
`memplan.context.make_context()` and prints with `memplan.printing.builtin_syntax.MlirBuiltinPrinter`
(in a child process of this script), which shows what memplan-opt prints once it
uses that printer.

Usage:  tests/oracle/compare_mlir_opt.py [--mlir-opt mlir-opt-22] [--mlir-printer]
            [--strict] [-v] [FILE.mlir ...]
Install the oracle with `apt-get install mlir-22-tools`. Exit status 1 on any
difference.
"""

from __future__ import annotations


import argparse
import difflib
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)

# Differences that come from xDSL's printing of non-memref ops; --strict keeps them.
NON_MEMREF_SPELLINGS = (
    (re.compile(r"^(\s*)builtin\.module\b", re.MULTILINE), r"\1module"),
    (re.compile(r"^(\s*)func\.return\b", re.MULTILINE), r"\1return"),
)
SSA_OR_BLOCK = re.compile(r"[%^][A-Za-z_0-9$.\-]+")


def normalize(text: str, strict: bool) -> list[str]:
    """Lines of `text` with SSA values and blocks renamed in order of appearance and
    whitespace collapsed."""
    if not strict:
        for pattern, repl in NON_MEMREF_SPELLINGS:
            text = pattern.sub(repl, text)
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        token = m.group(0)
        return names.setdefault(token, f"{token[0]}v{len(names)}")

    lines = []
    for line in text.splitlines():
        line = " ".join(line.split())
        if line:
            lines.append(SSA_OR_BLOCK.sub(rename, line))
    return lines


class Tools:
    def __init__(self, mlir_opt: str, memplan: str, mlir_printer: bool):
        self.mlir_opt = shlex.split(mlir_opt)
        self.memplan_cmd = shlex.split(memplan)
        self.mlir_printer = mlir_printer

    @staticmethod
    def _run(cmd: list[str], text: str) -> tuple[bool, str]:
        proc = subprocess.run(cmd, input=text, capture_output=True, text=True)
        if proc.returncode != 0:
            return False, proc.stderr or proc.stdout
        return True, proc.stdout

    def mlir(self, text: str, generic: bool = False) -> tuple[bool, str]:
        flags = ["--mlir-print-op-generic"] if generic else []
        return self._run([*self.mlir_opt, *flags, "-"], text)

    def memplan(self, text: str, generic: bool = False) -> tuple[bool, str]:
        flags = ["--mlir-print-op-generic"] if generic else []
        if self.mlir_printer:
            # A fresh process each time: xDSL keeps dialect resources in global state.
            cmd = [sys.executable, __file__, "--print-with-mlir-printer"]
        else:
            cmd = [*self.memplan_cmd, "-"]
        return self._run([*cmd, *flags], text)


def print_with_mlir_printer(text: str, generic: bool) -> tuple[bool, str]:
    """memplan's parse and verify, then `MlirBuiltinPrinter` (with dialect resources)."""
    from io import StringIO

    from xdsl.parser import Parser

    from memplan.context import make_context
    from memplan.printing import MlirPrinter as MlirBuiltinPrinter

    ctx = make_context()
    try:
        module = Parser(ctx, text).parse_module()
        module.verify()
    except Exception as e:  # noqa: BLE001  (report any failure as a difference)
        return False, f"{type(e).__name__}: {e}"
    out = StringIO()
    printer = MlirBuiltinPrinter(stream=out, print_generic_format=generic)
    printer.print_op(module)
    printer.print_metadata(ctx.loaded_dialects)
    out.write("\n")
    return True, out.getvalue()


ALL_CHECKS = ("custom", "reparse", "generic", "self-gen", "mlir-gen")
ONLY = re.compile(r"^// oracle-checks:(.*)$", re.MULTILINE)


def compare_chunk(
    tools: Tools, chunk: str, strict: bool, report: Callable[[str, bool, str], None]
) -> bool:
    """Run the checks on one chunk; a `// oracle-checks: a b` line limits them."""
    wanted = set(ALL_CHECKS)
    if (m := ONLY.search(chunk)) is not None:
        wanted = set(m.group(1).split())
        assert wanted <= set(ALL_CHECKS), f"unknown checks {wanted - set(ALL_CHECKS)}"
    skipped = report

    def report(check: str, ok: bool, detail: str) -> None:  # noqa: F811
        if check in wanted or check not in ALL_CHECKS:
            skipped(check, ok, detail)

    ok, ref = tools.mlir(chunk)
    if not ok:
        report("mlir-opt rejects the snippet", False, ref)
        return False
    norm_ref = normalize(ref, strict)
    all_ok = True

    def same_as_ref(check: str, produced: tuple[bool, str], exact: bool) -> None:
        nonlocal all_ok
        ok, text = produced
        if not ok:
            report(check, False, text)
            all_ok = False
            return
        a, b = (ref.splitlines(), text.splitlines()) if exact else (
            norm_ref,
            normalize(text, strict),
        )
        diff = "\n".join(difflib.unified_diff(a, b, "mlir-opt", "memplan", lineterm=""))
        report(check, not diff, diff)
        all_ok &= not diff

    custom = tools.memplan(ref)
    same_as_ref("custom", custom, exact=False)
    if custom[0]:
        same_as_ref("reparse", tools.mlir(custom[1]), exact=True)
    generic = tools.memplan(ref, generic=True)
    if generic[0]:
        same_as_ref("generic", tools.mlir(generic[1]), exact=True)
        same_as_ref("self-gen", tools.memplan(generic[1]), exact=False)
    else:
        report("generic", False, generic[1])
        all_ok = False
    ok, mlir_generic = tools.mlir(chunk, generic=True)
    same_as_ref("mlir-gen", tools.memplan(mlir_generic), exact=False)
    return all_ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, default=[HERE / "memref_cases.mlir"])
    ap.add_argument("--mlir-opt", default="mlir-opt-22")
    ap.add_argument("--memplan", default="memplan-opt", help="memplan command line")
    ap.add_argument("--mlir-printer", action="store_true",
                    help="parse/print in this process with MlirBuiltinPrinter")
    ap.add_argument("--strict", action="store_true",
                    help="also report builtin.module / func.return spellings")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--print-with-mlir-printer", action="store_true",
                    help=argparse.SUPPRESS)
    ap.add_argument("--mlir-print-op-generic", action="store_true",
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.print_with_mlir_printer:
        ok, text = print_with_mlir_printer(sys.stdin.read(), args.mlir_print_op_generic)
        (sys.stdout if ok else sys.stderr).write(text)
        return 0 if ok else 1

    tools = Tools(args.mlir_opt, args.memplan, args.mlir_printer)
    failures = checks = 0
    for path in args.files:
        for index, chunk in enumerate(SPLIT.split(path.read_text())):
            if not chunk.strip() or not re.search(r"^\s*[^/\s]", chunk, re.MULTILINE):
                continue
            label = f"{path.name} chunk {index}"

            def report(check: str, ok: bool, detail: str) -> None:
                nonlocal failures, checks
                checks += 1
                failures += not ok
                if not ok or args.verbose:
                    print(f"{'ok  ' if ok else 'FAIL'} {label}: {check}")
                if not ok and detail:
                    print("    " + detail.replace("\n", "\n    "))

            compare_chunk(tools, chunk, args.strict, report)
    print(f"{checks - failures}/{checks} checks equal to mlir-opt")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
