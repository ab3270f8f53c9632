"""bench/cleanup_vs_iree.py counts ops per kind from generic-form text, with a
clone and a transfer within one device as one kind, and skips without iree-opt."""

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[3] / "bench" / "cleanup_vs_iree.py"
_spec = importlib.util.spec_from_file_location("cleanup_vs_iree", _PATH)
bench = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench  # dataclasses look their module up
_spec.loader.exec_module(bench)

_DEV = "#hal.device.affinity<@dev>"
_OTHER = "#hal.device.affinity<@other>"


def _transfer(props: str, source: str, result: str) -> str:
    return (f'    %1 = "stream.async.transfer"(%0, %s, %s) <{{{props}}}> : '
            f"(!stream.resource<{source}>, index, index) -> !stream.resource<{result}>")


def test_counts_ops_and_merges_same_device_copies():
    text = "\n".join([
        '"builtin.module"() ({',
        '  "util.func"() <{sym_name = "f"}> ({',
        '    %0 = "stream.async.clone"(%a, %s, %s) : (!stream.resource<*>, index, index) -> !stream.resource<*>',
        _transfer(f"source_affinity = {_DEV}, target_affinity = {_DEV}", "constant", "*"),
        _transfer("", "*", "external"),
        _transfer(f"source_affinity = {_DEV}, target_affinity = {_DEV}", "*", "staging"),
        _transfer(f"source_affinity = {_DEV}, target_affinity = {_OTHER}", "*", "*"),
        _transfer(f"target_affinity = {_DEV}", "*", "*"),
        '    "util.return"() : () -> ()',
        "  }) : () -> ()",
        "}) : () -> ()",
    ])
    counts = bench.op_counts(text)
    # The clone, the same-device transfer and the one with no affinities at all.
    assert counts[bench.SAME_DEVICE_COPY] == 3
    # Staging, two devices, and from no stated affinity to one stay transfers.
    assert counts["stream.async.transfer"] == 3
    assert counts["util.func"] == counts["util.return"] == counts["builtin.module"] == 1


def test_row_lists_kinds_above_iree():
    row = bench.Row("d.mlir")
    row.memplan.update({"a": 2, "b": 1})
    row.iree.update({"a": 2, "b": 0, "c": 5})
    assert row.worse() == {"b": (1, 0)}


def test_skips_without_iree_opt(tmp_path, capsys):
    missing = tmp_path / "no-such-iree-opt"
    assert bench.main(["--iree-opt", str(missing), str(tmp_path / "x.mlir")]) == 0
    assert "skipped: no iree-opt" in capsys.readouterr().out
