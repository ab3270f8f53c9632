"""Dynamic Storage Allocation instances in the MiniMalloc CSV format.

Input: a header ``id,lower,upper,size`` (an ``offset`` column, as this module writes,
is accepted and returned) and one buffer a row, lifetime ``[lower, upper)``. Every
problem with a file is reported as ``FILE:LINE: what is wrong``.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from memplan.lazy_numpy import np

from memplan.files import write_output

from .problem import Buffer, Plan, PlanInputError, Problem

REQUIRED_COLUMNS = ("id", "lower", "upper", "size")


def _parse_int(text: str, column: str, where: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise PlanInputError(f"{where}: {column} must be an integer, got {text.strip()!r}") from None


def read_dsa_csv(path: str | os.PathLike, alignment: int = 1) -> tuple[Problem, np.ndarray | None]:
    """Read a DSA CSV file; return the problem and the offsets if the file has them."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PlanInputError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PlanInputError(f"{path}: not a readable CSV file: {error}") from None
    return parse_dsa_csv(text, str(path), alignment)


def parse_dsa_csv(text: str, path: str = "<string>", alignment: int = 1) -> tuple[Problem, np.ndarray | None]:
    """:func:`read_dsa_csv` for text already read; `path` names it in errors."""
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise PlanInputError(f"{path}: not a readable CSV file: {error}") from None
    if not rows:
        raise PlanInputError(f"{path}:1: empty file; expected the header {','.join(REQUIRED_COLUMNS)}")
    header = [cell.strip() for cell in rows[0]]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise PlanInputError(
            f"{path}:1: header must name the columns {','.join(REQUIRED_COLUMNS)}; missing {','.join(missing)}"
        )
    column = {name: header.index(name) for name in header}
    has_offsets = "offset" in column
    buffers: list[Buffer] = []
    offsets: list[int] = []
    first_line_of: dict[str, int] = {}
    for line_number, row in enumerate(rows[1:], start=2):
        if not row or all(not cell.strip() for cell in row):
            continue
        where = f"{path}:{line_number}"
        if len(row) != len(header):
            raise PlanInputError(f"{where}: expected {len(header)} fields, got {len(row)}")
        buffer_id = row[column["id"]].strip()
        if not buffer_id:
            raise PlanInputError(f"{where}: empty id")
        if buffer_id in first_line_of:
            raise PlanInputError(f"{where}: duplicate id {buffer_id!r} (first on line {first_line_of[buffer_id]})")
        first_line_of[buffer_id] = line_number
        lower = _parse_int(row[column["lower"]], "lower", where)
        upper = _parse_int(row[column["upper"]], "upper", where)
        size = _parse_int(row[column["size"]], "size", where)
        if size < 0:
            raise PlanInputError(f"{where}: size must be >= 0, got {size}")
        if lower >= upper:
            raise PlanInputError(f"{where}: upper ({upper}) must be greater than lower ({lower})")
        try:
            buffers.append(Buffer(buffer_id, size, lower, upper, alignment))
        except PlanInputError as error:
            raise PlanInputError(f"{where}: {error}") from None
        if has_offsets:
            offsets.append(_parse_int(row[column["offset"]], "offset", where))
    return Problem.from_intervals(buffers), (np.array(offsets, dtype=np.int64) if has_offsets else None)


def format_plan_csv(plan: Plan) -> str:
    """The plan as ``id,lower,upper,size,offset`` text."""
    problem = plan.problem
    if not problem.has_intervals:
        raise PlanInputError("only interval problems can be written as DSA CSV")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(REQUIRED_COLUMNS + ("offset",))
    for buffer, offset in zip(problem.buffers, plan.offsets.tolist()):
        writer.writerow((buffer.id, buffer.lower, buffer.upper, buffer.size, offset))
    return out.getvalue()


def write_plan_csv(path: str | os.PathLike, plan: Plan) -> None:
    """Write :func:`format_plan_csv` to `path` with :func:`memplan.files.write_output`:
    a regular file is replaced atomically (a failure never leaves half a file), a
    device, FIFO or symlink is written through; `-` is stdout. Raises
    :class:`memplan.files.OutputError`."""
    write_output(os.fspath(path), format_plan_csv(plan))
