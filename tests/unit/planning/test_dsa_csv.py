"""Reading and writing DSA CSV files; every bad file names its line."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from memplan.planning import Plan, PlanInputError, greedy, read_dsa_csv, write_plan_csv


def write(tmp_path, text: str):
    path = tmp_path / "in.csv"
    path.write_text(text)
    return path


def test_round_trip_with_offsets(tmp_path):
    path = write(tmp_path, "id,lower,upper,size\n0,0,3,4\n1,1,5,2\n7,3,6,3\n")
    problem, offsets = read_dsa_csv(path)
    assert offsets is None
    assert [b.id for b in problem.buffers] == ["0", "1", "7"]
    plan = greedy(problem)
    out = tmp_path / "out.csv"
    write_plan_csv(out, plan)
    assert out.read_text().splitlines()[0] == "id,lower,upper,size,offset"
    again, read_offsets = read_dsa_csv(out)
    assert [b.size for b in again.buffers] == [4, 2, 3]
    assert read_offsets.tolist() == plan.offsets.tolist()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("", 1, "empty file"),
        ("id,lower,size\n", 1, "header must name the columns id,lower,upper,size; missing upper"),
        ("id,lower,upper,size\n0,0,3,4\n1,x,5,2\n", 3, "lower must be an integer, got 'x'"),
        ("id,lower,upper,size\n0,0,3,4\n1,5,5,2\n", 3, r"upper \(5\) must be greater than lower \(5\)"),
        ("id,lower,upper,size\n0,0,3,-4\n", 2, "size must be >= 0"),
        ("id,lower,upper,size\n0,0,3\n", 2, "expected 4 fields, got 3"),
        ("id,lower,upper,size\n0,0,3,4\n\n0,1,2,3\n", 4, "duplicate id '0' \\(first on line 2\\)"),
        ("id,lower,upper,size\n,0,3,4\n", 2, "empty id"),
    ],
)
def test_bad_files_name_file_and_line(tmp_path, text, line, message):
    path = write(tmp_path, text)
    with pytest.raises(PlanInputError, match=f"^{path}:{line}: {message}"):
        read_dsa_csv(path)


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(PlanInputError, match="cannot read"):
        read_dsa_csv(tmp_path / "absent.csv")


def test_failed_write_leaves_no_file(tmp_path):
    problem, _ = read_dsa_csv(write(tmp_path, "id,lower,upper,size\n0,0,3,4\n"))
    target = tmp_path / "out.csv"
    target.write_text("previous")

    class Boom(Exception):
        pass

    class Exploding(np.ndarray):
        def tolist(self):
            raise Boom

    offsets = np.zeros(len(problem), dtype=np.int64).view(Exploding)
    with pytest.raises(Boom):
        write_plan_csv(target, Plan(problem, offsets, "test"))
    assert target.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv", "out.csv"]


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a device needs root")
def test_device_node_is_written_through_not_replaced(tmp_path):
    problem, _ = read_dsa_csv(write(tmp_path, "id,lower,upper,size\n0,0,3,4\n"))
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the /dev/null device
    write_plan_csv(null, greedy(problem))
    assert stat.S_ISCHR(null.lstat().st_mode)
    assert os.major(null.lstat().st_rdev) == 1 and os.minor(null.lstat().st_rdev) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv", "null"]
