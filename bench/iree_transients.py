#!/usr/bin/env python3
"""IREE's transient memory against memplan's `layout-slices`, per pack, on real models.

    python bench/iree_transients.py [MODEL.mlir ...] [--dim-values 128,1024]
        [--json OUT] [--iree-bin DIR] [--export-python PY] [--work-dir DIR]

Without files it exports the models of `bench/iree_models.py` (BERT-base, the
8-layer Llama-style decoder with a dynamic sequence, a dynamic-batch small BERT)
with `--export-python` (an interpreter with torch, transformers and iree-turbine);
with files it takes torch-dialect MLIR iree-turbine wrote. Each model goes through
`memplan-iree-compile`'s split (`memplan.tools.iree_compile`): the stream phase up
to the layout once, then IREE's `iree-stream-layout-slices` and memplan's
`layout-slices` on the same module.

Per pack it prints the slices (and how many have dynamic sizes), the lower bound
(the peak of live bytes, sizes rounded up to the range alignment), IREE's total,
memplan's total, their ratios to the bound and memplan's pass time (memplan-opt's
`--mlir-timing` row for the model). A total is the value the pack's first non-arith
user (the `stream.resource.alloca` of the transients) reads after each layout,
evaluated with `memplan.checker.packs`' interpreter; every `hal.buffer_view.dim`
takes the dim value (each of `--dim-values` in turn; static packs once, dim_value
null). `checker_ok` is `memplan.checker.packs.check_numeric` on memplan's offsets
and total at that value.

The packs are read from the module `iree-opt` hands to the layout, which is the
module IREE's own pass sees in a straight `iree-compile` (the split is checked
byte for byte in tests/peer/test_iree_pipeline.py); the bench also reads the packs
of a straight `iree-compile --mlir-print-ir-before=iree-stream-layout-slices` and
stops if their slices differ.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue

import memplan
from memplan.checker.packs import IndexEvaluator, check_numeric
from memplan.dialects.iree.stream import ResourcePackOp
from memplan.passes.layout_slices import resource_alignments
from memplan.planning.dynamic_slices import lower_bound_at
from memplan.tools.iree_compile import (
    IREE_LAYOUT,
    LOCAL_SCOPE,
    PRINT_FLAGS,
    TARGET_FLAGS,
    find_tools,
    layout_input,
    module_pipeline,
    pass_seconds,
    plan_build,
    run_build,
    split_top_level,
)

HERE = Path(__file__).resolve().parent
DEFAULT_ALIGNMENT = 64
"""IREE's default `min-offset-alignment` when no `#stream.resource_config` applies."""


@dataclass
class PackRow:
    model: str
    function: str
    dim_value: int | None
    slices: int
    dynamic_slices: int
    lower_bound: int
    iree_total: int
    memplan_total: int
    checker_ok: bool

    def to_json(self) -> dict:
        return dict(self.__dict__)


# --------------------------------------------------------------------------- IR


def _parse(path: Path) -> ModuleOp:
    return memplan.parse(memplan.make_context(), path.read_text(), str(path))


def _callables(module: ModuleOp) -> list[Operation]:
    return [op for op in module.ops if op.name in ("util.func", "util.initializer")]


def _name(op: Operation, index: int) -> str:
    symbol = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return symbol.data if symbol is not None else f"initializer#{index}"


def _user_key(value: SSAValue, order: dict[Operation, tuple[str, int, int]]):
    """(op name, ordinal among ops of that name, operand index) of the first user of
    `value` in program order that a layout never creates (not arith/util)."""
    best = None
    for use in value.uses:
        place = order.get(use.operation)
        if place is not None and (best is None or place[2] < best[0][2]):
            best = (place, use.index)
    return None if best is None else (best[0][0], best[0][1], best[1])


def _ordinals(function: Operation) -> dict[Operation, tuple[str, int, int]]:
    """Each op a layout never creates: (name, ordinal among its name, walk index)."""
    counts: dict[str, int] = {}
    order = {}
    for index, op in enumerate(function.walk()):
        if op.name.startswith(("arith.", "util.")):
            continue
        counts[op.name] = counts.get(op.name, 0) + 1
        order[op] = (op.name, counts[op.name] - 1, index)
    return order


def _by_key(function: Operation) -> dict[tuple[str, int], Operation]:
    return {key[:2]: op for op, key in _ordinals(function).items()}


@dataclass
class PackInfo:
    function: str
    starts: list[int]
    ends: list[int]
    sizes: list[SSAValue]
    dynamic: int
    offset_alignment: int
    range_alignment: int
    total_key: tuple | None
    offset_keys: list[tuple | None]


def read_packs(module: ModuleOp) -> list[tuple[int, list[PackInfo]]]:
    """Per callable (its index): its packs with their slices and the users that
    will read their results."""
    result = []
    for index, function in enumerate(_callables(module)):
        order = _ordinals(function)
        packs = []
        for op in function.walk():
            if not isinstance(op, ResourcePackOp):
                continue
            intervals = [a.value.data for a in op.lifetime_intervals.data]
            sizes = list(op.dynamic_slice_sizes)
            dynamic = sum(1 for s in sizes if _constant(s) is None)
            offset_alignment, range_alignment = resource_alignments(op, DEFAULT_ALIGNMENT)
            packs.append(PackInfo(
                _name(function, index), intervals[0::2], intervals[1::2], sizes, dynamic,
                offset_alignment, range_alignment,
                _user_key(op.total_length, order),
                [_user_key(v, order) for v in op.packed_offsets]))
        result.append((index, packs))
    return result


def _constant(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and value.op.name == "arith.constant":
        attr = value.op.properties.get("value")
        return getattr(getattr(attr, "value", None), "data", None)
    return None


class UnknownLeaf(Exception):
    pass


def _signed(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >> 63 else value


def _trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


_MORE_OPS = {
    # Index arithmetic the checker's interpreter leaves out, as the bench meets it
    # in IREE's size computations (signed, 64-bit).
    "arith.divsi": lambda a, b: _trunc_div(_signed(a), _signed(b)),
    "arith.ceildivsi": lambda a, b: -_trunc_div(-_signed(a), _signed(b))
    if (_signed(a) > 0) == (_signed(b) > 0) else _trunc_div(_signed(a), _signed(b)),
    "arith.floordivsi": lambda a, b: _signed(a) // _signed(b),
    "arith.remsi": lambda a, b: _signed(a) - _signed(b) * _trunc_div(_signed(a), _signed(b)),
    "arith.maxsi": lambda a, b: max(_signed(a), _signed(b)),
    "arith.minsi": lambda a, b: min(_signed(a), _signed(b)),
    "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b,
    "arith.shrui": lambda a, b: a >> b,
    "arith.index_castui": lambda a: a,
    "arith.extui": lambda a: a,
    "arith.extsi": lambda a: a,
    "arith.trunci": lambda a: a,
    "util.assume.int": lambda a, *_: a,
}


def _evaluator(dim_value: int | None) -> IndexEvaluator:
    """The checker's interpreter, with `hal.buffer_view.dim` giving `dim_value` and
    the ops of `_MORE_OPS` evaluated here; any other leaf is an error."""
    def leaf(value: SSAValue) -> int:
        if isinstance(value, OpResult):
            op = value.op
            if op.name == "hal.buffer_view.dim":
                if dim_value is None:
                    raise UnknownLeaf("a dynamic dimension with no --dim-values")
                return dim_value
            compute = _MORE_OPS.get(op.name)
            if compute is not None:
                return compute(*(interpreter(o) for o in op.operands))
            raise UnknownLeaf(f"cannot evaluate a size read from {op.name}")
        raise UnknownLeaf("cannot evaluate a size read from a block argument")

    interpreter = IndexEvaluator(leaf)
    return interpreter


def _read(function: Operation, key, evaluate: IndexEvaluator) -> int | None:
    if key is None:
        return None
    name, ordinal, operand = key
    op = _by_key(function).get((name, ordinal))
    if op is None or operand >= len(op.operands):
        return None
    return evaluate(op.operands[operand])


def _round_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


# --------------------------------------------------------------------------- build


def prepare(model: str, source: Path, work: Path, tools,
            layout_pipeline: str = "layout-slices") -> dict:
    """Run the split up to both layouts; the parsed callables before and after."""
    build = plan_build(source, work / "unused.vmfb", work, tools, layout="memplan",
                       layout_pipeline=layout_pipeline, to_vmfb=False)
    build.steps = [s for s in build.steps if s.name != "stream-tail"]
    results = {r.name: r for r in run_build(build)}
    files = build.files
    memplan_seconds = pass_seconds(results["layout-memplan"].stderr)
    after_iree = work / "after-iree.mlir"
    after_iree_local = work / "after-iree.local.mlir"
    opt = (*tools.iree_opt, *TARGET_FLAGS, *PRINT_FLAGS)
    for argv in (
        (*opt, f"--pass-pipeline={module_pipeline(IREE_LAYOUT)}",
         str(files["before-layout"]), "-o", str(after_iree)),
        (*opt, LOCAL_SCOPE, str(after_iree), "-o", str(after_iree_local)),
    ):
        done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"{model}: {' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    iree_in = work / "layout-iree-out.mlir"
    picked = layout_input(split_top_level(files["before-layout-local"].read_text()))[1]
    iree_in.write_text(
        layout_input(split_top_level(after_iree_local.read_text()), picked)[0])
    return {
        "before": _parse(files["layout-in"]),
        "iree": _parse(iree_in),
        "memplan": _parse(files["layout-out"]),
        "memplan_seconds": memplan_seconds,
        "flow": files["flow"],
    }


_DUMP_HEADER = re.compile(r"^// -----// IR Dump Before .*iree-stream-layout-slices")
_SLICE = re.compile(r"\[(\d+), (\d+)\] = ")


def straight_dump_packs(flow: Path, tools) -> list[list[tuple[int, int]]]:
    """The lifetimes of every pack IREE's own cmd-phase layout sees in a straight
    `iree-compile --mlir-print-ir-before=iree-stream-layout-slices` (the last dump
    of each callable: the async phase's layout runs on it first)."""
    argv = (*tools.iree_compile, *TARGET_FLAGS, "--compile-from=flow", "--compile-to=stream",
            "--mlir-print-ir-before=iree-stream-layout-slices", "--mlir-disable-threading",
            str(flow), "-o", str(flow.with_suffix(".straight-stream.mlir")))
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    dumps: list[list[str]] = []
    for line in done.stderr.splitlines():
        if _DUMP_HEADER.match(line):
            dumps.append([])
        elif dumps:
            dumps[-1].append(line)
    last: dict[str, list[list[tuple[int, int]]]] = {}
    for lines in dumps:
        head = next((l for l in lines if l.strip()), "")
        key = head.split("(")[0]
        packs: list[list[tuple[int, int]]] = []
        inside = False
        for l in lines:
            if "stream.resource.pack" in l:
                packs.append([])
                inside = True
            if inside:
                packs[-1].extend((int(a), int(b)) for a, b in _SLICE.findall(l))
                if "} : index" in l:
                    inside = False
        last[key] = packs
    return [p for packs in last.values() for p in packs]


def compare(model: str, data: dict, dim_values: list[int]) -> list[PackRow]:
    rows = []
    before = read_packs(data["before"])
    iree_functions = _callables(data["iree"])
    memplan_functions = _callables(data["memplan"])
    for index, packs in before:
        for pack in packs:
            values = dim_values if pack.dynamic else [None]
            for value in values:
                rows.append(_row(model, pack, value, iree_functions[index],
                                 memplan_functions[index]))
    return rows


def _row(model, pack: PackInfo, value, iree_function, memplan_function) -> PackRow:
    evaluate = _evaluator(value)
    sizes = [evaluate(s) for s in pack.sizes]
    reserved = [_round_up(s, pack.range_alignment) for s in sizes]
    lower = _round_up(lower_bound_at(pack.starts, pack.ends, reserved), pack.range_alignment)
    iree_total = _read(iree_function, pack.total_key, _evaluator(value))
    memplan_evaluate = _evaluator(value)
    memplan_total = _read(memplan_function, pack.total_key, memplan_evaluate)
    offsets = [_read(memplan_function, key, memplan_evaluate) for key in pack.offset_keys]
    ok = memplan_total is not None and None not in offsets and not check_numeric(
        pack.starts, pack.ends, sizes, offsets, memplan_total, 0,
        pack.offset_alignment, pack.range_alignment)
    return PackRow(model, pack.function, value, len(sizes), pack.dynamic, lower,
                   -1 if iree_total is None else iree_total,
                   -1 if memplan_total is None else memplan_total, bool(ok))


# --------------------------------------------------------------------------- CLI


def _export(names, out: Path, python: str) -> list[tuple[str, Path]]:
    argv = [python, str(HERE / "iree_models.py"), "--out", str(out), *names]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"export failed ({' '.join(argv)}):\n{done.stderr[-3000:]}")
    return [(name, out / f"{name}.mlir") for name in names]


def _ratio(total: int, lower: int) -> str:
    return f"{total / lower:.3f}" if lower > 0 and total >= 0 else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path, metavar="MODEL.mlir")
    parser.add_argument("--dim-values", default="128,1024",
                        help="values every dynamic input dimension takes in turn")
    parser.add_argument("--json", type=Path, help="write one object per pack and value")
    parser.add_argument("--iree-bin", type=Path,
                        help="folder of iree-compile and iree-opt (default: PATH)")
    parser.add_argument("--export-python", default=sys.executable,
                        help="python with torch, transformers, iree-turbine (exports)")
    parser.add_argument("--names", default="bert-base,llama-decoder,bert-small-dynbatch",
                        help="models to export when no file is given")
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/iree-transients"))
    parser.add_argument("--layout-pipeline", default="layout-slices",
                        help="memplan-opt's pipeline at the split point, e.g. "
                             "'layout-slices{tuning-values=128,1024}'")
    parser.add_argument("--no-cross-check", action="store_true",
                        help="skip reading the packs of a straight iree-compile too")
    args = parser.parse_args(argv)
    dim_values = [int(v) for v in args.dim_values.split(",") if v]
    bin_ = args.iree_bin
    try:
        tools = find_tools(str(bin_ / "iree-compile") if bin_ else None,
                           str(bin_ / "iree-opt") if bin_ else None)
    except Exception as error:  # ToolError: a clear reason, no traceback
        print(f"iree_transients: {error}", file=sys.stderr)
        return 2
    if args.models:
        models = [(path.stem, path) for path in args.models]
    else:
        models = _export(args.names.split(","), args.work_dir / "models", args.export_python)
    rows: list[PackRow] = []
    header = (f"{'model':<22}{'function':<18}{'dim':>6}{'slices':>8}{'dyn':>5}"
              f"{'lower bound':>14}{'IREE':>14}{'memplan':>14}{'IREE/LB':>9}{'mp/LB':>8}"
              f"{'mp/IREE':>9}{'ok':>4}")
    print(header)
    for name, source in models:
        work = args.work_dir / name
        began = time.perf_counter()
        data = prepare(name, source, work, tools, args.layout_pipeline)
        if not args.no_cross_check:
            theirs = straight_dump_packs(data["flow"], tools)
            ours = [list(zip(p.starts, p.ends))
                    for _, packs in read_packs(data["before"]) for p in packs]
            if sorted(map(tuple, theirs)) != sorted(map(tuple, ours)):
                raise SystemExit(f"{name}: the packs of the straight iree-compile differ "
                                 f"from the split's ({len(theirs)} vs {len(ours)})")
        model_rows = compare(name, data, dim_values)
        rows.extend(model_rows)
        for row in model_rows:
            value = "-" if row.dim_value is None else str(row.dim_value)
            print(f"{row.model:<22}{row.function[:17]:<18}{value:>6}{row.slices:>8}"
                  f"{row.dynamic_slices:>5}{row.lower_bound:>14}{row.iree_total:>14}"
                  f"{row.memplan_total:>14}{_ratio(row.iree_total, row.lower_bound):>9}"
                  f"{_ratio(row.memplan_total, row.lower_bound):>8}"
                  f"{_ratio(row.memplan_total, row.iree_total):>9}"
                  f"{'yes' if row.checker_ok else 'NO':>4}")
        seconds = data["memplan_seconds"]
        print(f"# {name}: memplan layout-slices {seconds:.3f} s (memplan-opt --mlir-timing), "
              f"model done in {time.perf_counter() - began:.1f} s", flush=True)
    if args.json:
        args.json.write_text(json.dumps([row.to_json() for row in rows], indent=1) + "\n")
    return 0 if all(row.checker_ok for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
