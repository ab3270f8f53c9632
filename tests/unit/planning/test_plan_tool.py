"""The memplan-plan command, called in process."""

from __future__ import annotations

import pytest

from memplan.tools.plan import main

INPUT = "id,lower,upper,size\na,0,3,4\nb,1,5,2\nc,3,6,3\n"


@pytest.mark.parametrize("strategy", ["greedy", "best", "exact"])
def test_plans_and_reports(tmp_path, capsys, strategy):
    source = tmp_path / "in.csv"
    source.write_text(INPUT)
    target = tmp_path / "out.csv"
    assert main([str(source), "-o", str(target), "--strategy", strategy, "--time-limit", "1"]) == 0
    lines = target.read_text().splitlines()
    assert lines[0] == "id,lower,upper,size,offset"
    assert len(lines) == 4
    out = capsys.readouterr().out
    assert "buffers: 3" in out and "lower bound: 6" in out and "pool: 6" in out and "R: 1.0000" in out


def test_bad_input_is_one_line_and_leaves_no_output(tmp_path, capsys):
    source = tmp_path / "in.csv"
    source.write_text("id,lower,upper,size\na,0,3,4\nb,4,2,2\n")
    target = tmp_path / "out.csv"
    assert main([str(source), "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{source}:3: upper (2) must be greater than lower (4)" in err
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["in.csv"]


def test_capacity_that_cannot_be_met_fails_cleanly(tmp_path, capsys):
    source = tmp_path / "in.csv"
    source.write_text(INPUT)
    target = tmp_path / "out.csv"
    assert main([str(source), "-o", str(target), "--strategy", "exact", "--capacity", "5"]) == 1
    assert "no plan within capacity 5" in capsys.readouterr().err
    assert not target.exists()


def test_alignment_is_applied(tmp_path):
    source = tmp_path / "in.csv"
    source.write_text(INPUT)
    target = tmp_path / "out.csv"
    assert main([str(source), "-o", str(target), "--strategy", "greedy", "--alignment", "8"]) == 0
    offsets = [int(line.split(",")[4]) for line in target.read_text().splitlines()[1:]]
    assert all(offset % 8 == 0 for offset in offsets)


@pytest.mark.parametrize("args", [["--strategy", "nope"], ["--capacity", "-3"], ["--time-limit", "x"]])
def test_bad_arguments_exit_1(tmp_path, capsys, args):
    source = tmp_path / "in.csv"
    source.write_text(INPUT)
    assert main([str(source), "-o", str(tmp_path / "o.csv"), *args]) == 1
    assert capsys.readouterr().err.count("\n") == 1
