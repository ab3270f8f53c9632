"""memplan's `hip-memory-plan` beside hip-ep's own memory passes, run as a user would.

    python bench/vs_hip_ep.py --hip-mlir-opt PATH --hip-ep-src DIR
        [--sizes 2000 20000 100000] [--fuzz 200] [--repeat 3] [--verbose]

hip-ep: `hip-mlir-opt --hip-materialize-host-scalars --hip-optimize-memrefs
--hip-pool-allocs`; memplan: `memplan-opt -p hip-memory-plan`. Inputs:

- hip-ep's own lit inputs for the three passes (the files of
  `tests/peer/run_peer_suite.py`'s `hip-ep-memory` suite, read from the hip-ep source
  tree DIR, split at `// -----`; one run per file with `--split-input-file`);
- decoders of the given sizes (`bench/pipeline_speed.py`'s `decoder_module` without
  its IREE initializer: host-fed scalars, read-backs, loops), one file each;
- N fuzz programs (`memplan.testing.random_programs`, seeds 0..N-1), one file of
  those both tools accept.

For each: wall seconds (min of `--repeat` runs of the whole process, output to a
file); per tool the bytes of its plan: pool (`hip.get_pool` sizes), host scratch
(`hip.get_host_scratch` sizes) and, apart, static buffers left unpooled (returned
ones); and races in each tool's plan: memplan's checker (`verify-memory-plan`'s
`check_module`, unordered pairs) and its interpreter (the planned function against
the input under the late, early and random schedules; inputs above
`--interpret-max-ops` ops are judged by the checker alone). Then: on every unit
(a lit chunk, a decoder, a fuzz program) whose hip-ep plan is race-free, is
memplan's pool + scratch at most hip-ep's?

Without a `hip-mlir-opt` (no `--hip-mlir-opt`, no `HIP_MLIR_OPT`, or the path is
absent) it says why and exits 0. Not a test: a benchmark, for the figures in
docs/design/hip-memory-plan.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from pipeline_speed import decoder_module  # noqa: E402

from xdsl.dialects.builtin import IntegerAttr, ModuleOp  # noqa: E402
from xdsl.traits import ConstantLike  # noqa: E402

from memplan.analysis.aliasing import static_bytes  # noqa: E402
from memplan.checker import check_module  # noqa: E402
from memplan.context import make_context  # noqa: E402
from memplan.diagnostics import UserError, diagnostic_handler  # noqa: E402
from memplan.interfaces import HOST_SCRATCH, POOL, context_memory, plannable_allocation  # noqa: E402
from memplan.interpreter import run_function  # noqa: E402
from memplan.interpreter.kernels import UnmodelledKernel  # noqa: E402
from memplan.printing import print_mlir  # noqa: E402
from memplan.testing.fuzz import fuzz_schedules  # noqa: E402
from memplan.testing.random_programs import RandomChoices, generate  # noqa: E402
from memplan.tools.source import parse_module  # noqa: E402

HIP_EP_PASSES = ["--hip-materialize-host-scalars", "--hip-optimize-memrefs", "--hip-pool-allocs"]
MEMPLAN_PASSES = ["-p", "hip-memory-plan"]
SPLIT = re.compile(r"^// -----.*$", re.M)


def hip_ep_lit_files(src: Path) -> list[Path]:
    """The hip-ep lit files of the `hip-ep-memory` peer suite, under `src`."""
    spec = importlib.util.spec_from_file_location("run_peer_suite", ROOT / "tests/peer/run_peer_suite.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return [src / name for name in module.SUITES["hip-ep-memory"][1]]


def split(text: str) -> list[str]:
    return SPLIT.split(text)


@dataclass
class Bytes:
    pool: int = 0
    scratch: int = 0
    unpooled: int = 0
    """Static bytes of allocations left in place (returned buffers, in memplan)."""
    dynamic: int = 0
    """Allocations left with a dynamic size (counted, not sized)."""
    dynamic_memory: int = 0
    """Pools or scratch of a runtime size (counted, not sized): not compared."""

    def add(self, other: Bytes) -> None:
        self.pool += other.pool
        self.scratch += other.scratch
        self.unpooled += other.unpooled
        self.dynamic += other.dynamic
        self.dynamic_memory += other.dynamic_memory

    @property
    def planned(self) -> int:
        return self.pool + self.scratch


@dataclass
class Judged:
    """One tool's plan of one unit."""

    bytes: Bytes = field(default_factory=Bytes)
    pairs: int = 0
    """The checker's unordered pairs."""
    interpreter: int = 0
    """Functions whose planned run differs from the input's."""
    interpreted: bool = False
    unchecked: bool = False
    """Too large for the checker here (`--check-max-ops`): bytes only."""
    error: str | None = None
    messages: list[str] = field(default_factory=list)

    @property
    def races(self) -> bool:
        return bool(self.pairs or self.interpreter)


def _constant(value) -> int | None:
    attribute = ConstantLike.get_constant_value(value)
    return attribute.value.data if isinstance(attribute, IntegerAttr) else None


def plan_bytes(module: ModuleOp) -> Bytes:
    found = Bytes()
    for op in module.walk():
        memory = context_memory(op)
        if memory is not None:
            size = None if memory.size_index is None else _constant(op.operands[memory.size_index])
            if size is None:
                found.dynamic_memory += 1
            elif memory.kind == POOL:
                found.pool += size
            elif memory.kind == HOST_SCRATCH:
                found.scratch += size
            continue
        if op.results and plannable_allocation(op) is not None:
            size = static_bytes(op.results[0].type)
            if size is None:
                found.dynamic += 1
            else:
                found.unpooled += size
    return found


def _functions(module: ModuleOp) -> list[str]:
    return [
        op.sym_name.data for op in module.ops
        if op.name == "func.func" and op.regions and op.regions[0].blocks
    ]


def judge(before: ModuleOp, after_text: str, schedules, interpret: bool, check: bool = True) -> Judged:
    """The bytes and races of one tool's plan of one unit (`before`: the input)."""
    judged = Judged()
    ctx = make_context(allow_unregistered=True)
    try:
        with diagnostic_handler(lambda d: None):
            after = parse_module(ctx, after_text, "plan.mlir")
    except UserError as error:
        judged.error = f"memplan cannot read the plan: {error.message.splitlines()[0]}"
        return judged
    judged.bytes = plan_bytes(after)
    if not check:
        judged.unchecked = True
        return judged
    violations = check_module(after)
    judged.pairs = len(violations)
    judged.messages = [v.message for v in violations]
    if interpret:
        for name in _functions(before):
            try:
                reference = run_function(before, name, schedules[0])
            except UnmodelledKernel:
                continue  # a kernel without semantics: the checker alone judges it
            if reference.error or any(
                not run_function(before, name, s).same_as(reference) for s in schedules[1:]
            ):
                continue  # the input itself cannot be run or races: not the plan's
            judged.interpreted = True
            for schedule in schedules:
                got = run_function(after, name, schedule)
                if not got.same_as(reference):
                    judged.interpreter += 1
                    judged.messages.append(f"@{name} under {schedule}: {got.error or 'outputs differ'}")
                    break
    return judged


@dataclass
class Unit:
    name: str
    text: str
    ops: int


@dataclass
class Row:
    name: str
    units: int
    seconds: dict[str, float | None]
    judged: dict[str, list[Judged | None]]
    skipped: list[str] = field(default_factory=list)
    input_races: int = 0
    """Units whose input races before any pass (judged for neither tool)."""
    names: list[str] = field(default_factory=list)


# Python bytecode cached as an installed package has it: with PYTHONDONTWRITEBYTECODE
# set (as here) and an editable install, every memplan-opt process would compile
# memplan's sources again (0.3-0.4 s), which no user's run pays.
_TOOL_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
_TOOL_ENV.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "memplan-bench-pycache"))


def run_tool(command: list[str], source: Path, out: Path, split_file: bool) -> tuple[float, str | None]:
    """Wall seconds and the output text (None when the tool fails)."""
    started = time.perf_counter()
    result = subprocess.run(
        [*command, str(source), *(["--split-input-file"] if split_file else []), "-o", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_TOOL_ENV,
    )
    wall = time.perf_counter() - started
    if result.returncode != 0:
        return wall, None
    return wall, out.read_text()


def compare(name: str, units: list[Unit], tools: dict[str, list[str]], scratch: Path,
            repeat: int, interpret_max_ops: int, seed: int, check_max_ops: int) -> Row:
    """Both tools on the `units` both accept, as one file (split when several),
    timed (min of `repeat`), each plan judged."""
    row = Row(name, 0, {}, {})
    stem = re.sub(r"\W+", "_", name)
    source = scratch / f"{stem}.mlir"
    out = scratch / f"{stem}.out.mlir"
    source.write_text("\n// -----\n".join(u.text for u in units))
    accepted = [True] * len(units)
    for tool, command in tools.items():
        if run_tool(command, source, out, len(units) > 1)[1] is not None:
            continue
        # A unit fails the whole file (hip-ep stops at a function without a
        # context, or crashes): find which, one run each.
        for i, unit in enumerate(units):
            one = scratch / f"{stem}.one.mlir"
            one.write_text(unit.text)
            if accepted[i] and run_tool(command, one, out, False)[1] is None:
                accepted[i] = False
                row.skipped.append(f"{unit.name}: {tool} fails")
    units = [u for u, a in zip(units, accepted) if a]
    row.units = len(units)
    row.names = [u.name for u in units]
    several = len(units) > 1
    source.write_text("\n// -----\n".join(u.text for u in units))
    outputs: dict[str, list[str | None]] = {}
    for tool, command in tools.items():
        times, text = [], None
        for _ in range(repeat):
            wall, text = run_tool(command, source, out, several)
            times.append(wall)
        row.seconds[tool] = min(times) if text is not None else None
        chunks: list[str | None] = [None] * len(units)
        if text is not None:
            chunks = list(split(text)) if several else [text]
            if len(chunks) != len(units):
                chunks = [None] * len(units)
        outputs[tool] = chunks
    schedules = fuzz_schedules(seed, 1)
    ctx = make_context(allow_unregistered=True)
    for tool in tools:
        row.judged[tool] = []
    for i, unit in enumerate(units):
        before = None
        try:
            with diagnostic_handler(lambda d: None):
                before = parse_module(ctx, unit.text, f"{unit.name}.mlir")
        except UserError:
            row.skipped.append(f"{unit.name}: memplan rejects the input")
        if before is not None and unit.ops <= check_max_ops and check_module(before):
            row.input_races += 1
            row.skipped.append(f"{unit.name}: the input races before any pass")
            before = None
        for tool in tools:
            text = outputs[tool][i]
            if before is None or text is None:
                row.judged[tool].append(None)
                continue
            row.judged[tool].append(judge(before, text, schedules, unit.ops <= interpret_max_ops,
                                          unit.ops <= check_max_ops))
    return row


def lit_units(src: Path) -> list[Unit]:
    """One unit per function defined in hip-ep's lit files: a module of that
    function, the functions it references and the file's other top-level ops
    (declarations, globals), as memplan prints them. (hip-ep fails a whole module
    when one of its functions has no context.)"""
    ctx = make_context(allow_unregistered=True)
    units = []
    for path in hip_ep_lit_files(src):
        module = parse_module(ctx, path.read_text(), str(path))
        defined = {
            op.sym_name.data: op for op in module.ops
            if op.name == "func.func" and op.regions[0].blocks
        }
        for name in defined:
            keep = {name}
            todo = [name]
            while todo:
                for op in defined[todo.pop()].walk():
                    for attribute in op.attributes.values():
                        target = getattr(getattr(attribute, "root_reference", None), "data", None)
                        if target in defined and target not in keep:
                            keep.add(target)
                            todo.append(target)
            unit = ModuleOp([
                op.clone() for op in module.ops
                if op.name != "func.func" or not op.regions[0].blocks
                or op.sym_name.data in keep
            ])
            text = print_mlir(unit)
            units.append(Unit(f"{path.stem}@{name}", text, text.count("\n")))
    return units


def fuzz_units(count: int, first_seed: int) -> list[Unit]:
    units = []
    for seed in range(first_seed, first_seed + count):
        text = generate(RandomChoices(seed)).text
        units.append(Unit(f"fuzz{seed}", text, text.count("\n")))
    return units


def summarize(rows: list[Row], tools: list[str], verbose: bool) -> int:
    """Print the table; the number of units on which memplan's pool + scratch exceeds
    a race-free hip-ep plan's."""
    hip, mine = tools
    print()
    print(f"| input | units | {hip} s | {mine} s | {hip} pool+scratch (+unpooled) | "
          f"{mine} pool+scratch (+unpooled) | {hip} races (units, pairs, interp.) | {mine} races |")
    print("|---|---|---|---|---|---|---|---|")
    worse_total = 0
    for row in rows:
        totals = {t: Bytes() for t in tools}
        races = {t: [0, 0, 0] for t in tools}
        for t in tools:
            for j in row.judged[t]:
                if j is None or j.error:
                    continue
                totals[t].add(j.bytes)
                races[t][0] += j.races
                races[t][1] += j.pairs
                races[t][2] += j.interpreter
        worse = []
        for k, (a, b) in enumerate(zip(row.judged[hip], row.judged[mine])):
            if a is None or b is None or a.error or b.error or a.races or a.unchecked:
                continue
            if a.bytes.dynamic_memory or b.bytes.dynamic_memory:
                continue  # a pool of a runtime size: not comparable in bytes
            if b.bytes.planned > a.bytes.planned:
                worse.append(f"{row.names[k]}: {b.bytes.planned} > {a.bytes.planned}")
        worse_total += len(worse)

        def seconds(t: str) -> str:
            s = row.seconds.get(t)
            return "fails" if s is None else f"{s:.2f}"

        def money(t: str) -> str:
            b = totals[t]
            extra = f" + {b.unpooled:,}" if b.unpooled else ""
            extra += f" ({b.dynamic} dynamic)" if b.dynamic else ""
            extra += f" ({b.dynamic_memory} pools of runtime size)" if b.dynamic_memory else ""
            return f"{b.pool:,} + {b.scratch:,}{extra}"

        def race(t: str) -> str:
            if any(j is not None and j.unchecked for j in row.judged[t]):
                return "not checked"
            u, p, i = races[t]
            return "0" if not u else f"{u} ({p} pairs, {i} interp.)"

        name = row.name + (f" ({row.input_races} racing inputs left out)" if row.input_races else "")
        print(f"| {name} | {row.units} | {seconds(hip)} | {seconds(mine)} | {money(hip)} | "
              f"{money(mine)} | {race(hip)} | {race(mine)} |")
        if worse:
            print(f"    memplan larger than a race-free {hip} plan on: {', '.join(worse)}")
        reasons = Counter(note.split(": ", 1)[1] for note in row.skipped)
        if reasons:
            print(f"    left out: {', '.join(f'{n} ({k})' for k, n in sorted(reasons.items()))}")
        if verbose:
            for note in row.skipped:
                print(f"    skipped {note}")
            for t in tools:
                for k, j in enumerate(row.judged[t]):
                    if j is not None and (j.races or j.error):
                        first = j.error or j.messages[0]
                        print(f"    {t} {row.names[k]}: {first[:300]}")
    return worse_total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hip-mlir-opt", default=os.environ.get("HIP_MLIR_OPT"))
    parser.add_argument("--hip-ep-src", default=os.environ.get("HIP_EP_SRC"),
                        help="hip-ep's source tree (its test/lit files are read from it)")
    parser.add_argument("--memplan-opt", default=str(Path(sys.executable).parent / "memplan-opt"))
    parser.add_argument("--sizes", nargs="*", type=int, default=[2000, 20000, 100000])
    parser.add_argument("--fuzz", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--interpret-max-ops", type=int, default=3000)
    parser.add_argument("--check-max-ops", type=int, default=30000,
                        help="larger units get bytes and time only (the checker compares "
                        "every access pair within a buffer that slot reuse merged)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    tool = args.hip_mlir_opt
    if not tool or not Path(tool).exists():
        print(f"skipped: hip-ep's hip-mlir-opt is not available ({tool or 'no --hip-mlir-opt or HIP_MLIR_OPT'})")
        return 0
    tools = {"hip-ep": [tool, *HIP_EP_PASSES], "memplan": [args.memplan_opt, *MEMPLAN_PASSES]}
    rows: list[Row] = []
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        if args.hip_ep_src and Path(args.hip_ep_src).is_dir():
            units = lit_units(Path(args.hip_ep_src))
            rows.append(compare(f"hip-ep lit functions", units, tools, scratch, args.repeat,
                                args.interpret_max_ops, args.seed, args.check_max_ops))
        else:
            print("hip-ep's lit inputs skipped: no hip-ep source tree "
                  f"({args.hip_ep_src or 'no --hip-ep-src or HIP_EP_SRC'})")
        for ops in args.sizes:
            module = decoder_module(ops, initializer=False)
            unit = Unit(f"decoder{ops}", module.text, module.ops)
            rows.append(compare(f"decoder {module.ops} ops", [unit], tools, scratch, args.repeat,
                                args.interpret_max_ops, args.seed, args.check_max_ops))
        if args.fuzz:
            rows.append(compare("fuzz programs", fuzz_units(args.fuzz, args.seed), tools, scratch,
                                args.repeat, args.interpret_max_ops, args.seed, args.check_max_ops))
    worse = summarize(rows, list(tools), args.verbose)
    print(f"\nunits where memplan's pool + scratch exceeds a race-free hip-ep plan's: {worse}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
