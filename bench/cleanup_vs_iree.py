"""memplan's `stream-cleanup` against IREE's own cleanup, per op kind, on real dumps.

    python bench/cleanup_vs_iree.py --iree-opt PATH DUMP.mlir [DUMP.mlir ...]
        [--memplan 'memplan-opt'] [--details] [--keep DIR]

For each dump of stream-phase IR (what `iree-compile --mlir-print-ir-after=...`
prints, custom or generic form) it runs

- `memplan-opt -p stream-cleanup` (memplan's result, M);
- `iree-opt --iree-stream-cleanup-pipeline` (IREE's result, I);
- `iree-opt` on M alone (does IREE accept memplan's result?), and
  `iree-opt --iree-stream-cleanup-pipeline` on M (does IREE's cleanup still find
  something to do?),

and counts the ops of each kind in every result, all printed by `iree-opt` in
generic form so that both sides are counted the same way. A clone and a transfer
within one device count as one kind (`SAME_DEVICE_COPY`): IREE 3.13 spells the
second as the first, memplan keeps the transfer on purpose. It prints one row per
dump: memplan's and IREE's op totals, the kinds where memplan keeps more ops than
IREE (each must be none), and how many ops IREE's cleanup changes on memplan's
result (the sum over kinds of the count differences; 0 when it changes nothing),
marked `(=IREE)` when IREE's cleanup of memplan's result is, text for text, IREE's
cleanup of the dump: there memplan's result means to IREE exactly what IREE's own
does.

Without `iree-opt` at the given path it says so and exits 0: nothing here is part
of the required suite. The dumps are the user's (IREE's output for their models);
none is kept in this repository.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

_OP = re.compile(r'^\s*(?:%[^=]*=\s*)?"([A-Za-z_][\w$.]*)"\s*[(<]')
"""The name of the op a line of generic-form IR starts (one op per line)."""

IREE_CLEANUP = "--iree-stream-cleanup-pipeline"


@dataclass
class Row:
    dump: str
    memplan: Counter = field(default_factory=Counter)
    iree: Counter = field(default_factory=Counter)
    accepted: bool = False
    changes: int = 0
    identical: bool = False
    """IREE's cleanup prints memplan's result unchanged."""
    same_as_iree: bool = False
    """IREE's cleanup of memplan's result is IREE's own result, text for text."""
    error: str = ""

    def worse(self) -> dict[str, tuple[int, int]]:
        """Kinds where memplan keeps more ops than IREE: {kind: (memplan, iree)}."""
        return {
            kind: (n, self.iree.get(kind, 0))
            for kind, n in sorted(self.memplan.items())
            if n > self.iree.get(kind, 0)
        }


SAME_DEVICE_COPY = "stream.async.clone|transfer"
"""The kind a `stream.async.clone` and a same-device `stream.async.transfer` share.
IREE 3.13 rewrites every transfer between equal affinities with no staging side
into a clone; memplan keeps it a transfer on purpose (a transfer is Pure, so CSE
merges duplicated chains: the seed's merge, DESIGN.md section 4). Counted apart,
each such transfer would show as one transfer too many and one clone too few."""

_AFFINITY = re.compile(r"\b(source|target|execution)_affinity = (#hal\.device\.affinity<[^>]*>)")
_RESULT_TYPES = re.compile(r"\((!stream\.resource<[^>]*>), index, index\) -> (!stream\.resource<[^>]*>)")


def _same_device_transfer(line: str) -> bool:
    """A generic-form `stream.async.transfer` line IREE's canonicalizer would turn
    into a clone (equal source and target affinities, no staging side)."""
    affinities = dict(_AFFINITY.findall(line))
    types = _RESULT_TYPES.search(line)
    if types is None or "staging" in types.group(1) or "staging" in types.group(2):
        return False
    return affinities.get("source") == affinities.get("target")


def op_counts(generic_text: str) -> Counter:
    counts: Counter = Counter()
    for line in generic_text.splitlines():
        match = _OP.match(line)
        if not match:
            continue
        name = match.group(1)
        if name == "stream.async.clone" or (
            name == "stream.async.transfer" and _same_device_transfer(line)
        ):
            name = SAME_DEVICE_COPY
        counts[name] += 1
    return counts


def _run(command: list[str], source: Path) -> tuple[int, str, str]:
    done = subprocess.run(
        [*command, str(source)], capture_output=True, text=True, timeout=900
    )
    return done.returncode, done.stdout, done.stderr


def compare(dump: Path, iree_opt: str, memplan: list[str], keep: Path) -> Row:
    row = Row(dump.name)
    stem = keep / dump.stem
    code, mine, err = _run([*memplan, "-p", "stream-cleanup"], dump)
    if code != 0:
        row.error = "memplan-opt failed: " + err.strip().splitlines()[-1][:200]
        return row
    mine_path = stem.with_suffix(".memplan.mlir")
    mine_path.write_text(mine)
    code, theirs, err = _run([iree_opt, IREE_CLEANUP, "--mlir-print-op-generic"], dump)
    if code != 0:
        row.error = "iree-opt's cleanup failed on the dump: " + err.strip()[:200]
        return row
    stem.with_suffix(".iree.mlir").write_text(theirs)
    row.iree = op_counts(theirs)
    code, mine_generic, err = _run([iree_opt, "--mlir-print-op-generic"], mine_path)
    row.accepted = code == 0
    if not row.accepted:
        row.error = "iree-opt rejects memplan's result: " + err.strip()[:300]
        return row
    row.memplan = op_counts(mine_generic)
    code, again, err = _run([iree_opt, IREE_CLEANUP, "--mlir-print-op-generic"], mine_path)
    if code != 0:
        row.error = "iree-opt's cleanup failed on memplan's result: " + err.strip()[:200]
        return row
    stem.with_suffix(".memplan+iree.mlir").write_text(again)
    after = op_counts(again)
    row.changes = sum(
        abs(after.get(kind, 0) - row.memplan.get(kind, 0))
        for kind in set(after) | set(row.memplan)
    )
    row.identical = again == mine_generic
    row.same_as_iree = again == theirs
    return row


def _print_row(row: Row, width: int, details: bool) -> bool:
    """Print one dump's row; whether it falls short (an error, a kind above IREE,
    or something left for IREE's cleanup)."""
    if row.error:
        print(f"{row.dump:<{width}}  ERROR {row.error}", flush=True)
        return True
    worse = row.worse()
    again = f"{row.changes} changes" + (" (=IREE)" if row.same_as_iree else "")
    worse_text = ", ".join(f"{k} {m}>{i}" for k, (m, i) in worse.items()) or "none"
    print(f"{row.dump:<{width}}  {sum(row.memplan.values()):>7}  "
          f"{sum(row.iree.values()):>4}  {again:<18}  {worse_text}")
    if details:
        for kind in sorted(set(row.memplan) | set(row.iree)):
            m, i = row.memplan.get(kind, 0), row.iree.get(kind, 0)
            if m != i:
                print(f"    {kind}: memplan {m}, IREE {i}")
    sys.stdout.flush()
    return bool(worse) or row.changes > 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", nargs="+", type=Path)
    parser.add_argument("--iree-opt", required=True, help="path of IREE's iree-opt")
    parser.add_argument("--memplan", default="memplan-opt",
                        help="the memplan-opt command (default: memplan-opt)")
    parser.add_argument("--details", action="store_true",
                        help="print the per-kind counts where the two differ")
    parser.add_argument("--keep", type=Path,
                        help="write every result here (default: a temporary folder)")
    args = parser.parse_args(argv)
    iree_opt = shutil.which(args.iree_opt) or (
        args.iree_opt if Path(args.iree_opt).is_file() else None
    )
    if iree_opt is None:
        print(f"skipped: no iree-opt at {args.iree_opt} (pip install "
              "iree-base-compiler==3.13.0 gives one)")
        return 0
    memplan = shlex.split(args.memplan)
    width = max(len(d.name) for d in args.dumps)
    print(f"{'dump':<{width}}  memplan  IREE  IREE-after-memplan  kinds memplan > IREE",
          flush=True)
    rows: list[Row] = []
    bad = 0
    with tempfile.TemporaryDirectory(prefix="cleanup-vs-iree-") as scratch:
        keep = args.keep or Path(scratch)
        keep.mkdir(parents=True, exist_ok=True)
        for dump in args.dumps:
            row = compare(dump, iree_opt, memplan, keep)
            rows.append(row)
            bad += _print_row(row, width, args.details)
    fewer = sum(
        1 for r in rows
        if not r.error and sum(r.memplan.values()) < sum(r.iree.values())
    )
    print(f"{len(rows)} dumps: {len(rows) - bad} with no kind above IREE and "
          f"nothing left for IREE's cleanup; {fewer} with fewer ops than IREE")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
