"""The peer-suite runner splits files into the cases their RUN lines imply."""

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "peer" / "run_peer_suite.py"
_spec = importlib.util.spec_from_file_location("run_peer_suite", _PATH)
runner = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = runner  # dataclasses look their module up
_spec.loader.exec_module(runner)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cases.mlir"
    path.write_text(text)
    return path


def test_split_input_file_cases_each_get_the_run_lines(tmp_path):
    path = _write(tmp_path, (
        "// RUN: iree-opt --split-input-file --cse %s | FileCheck %s\n"
        "// CHECK-LABEL: @one\nfunc.func @one() { return }\n"
        "// -----\n"
        "// CHECK-LABEL: @two\nfunc.func @two() { return }\n"
    ))
    cases = runner.split_cases(path)
    assert [case.name for case in cases] == ["one", "two"]
    assert all(case.text.count("// RUN:") == 1 for case in cases)
    assert "@one" not in cases[1].text


def test_label_cases_keep_preamble_and_their_comment_block(tmp_path):
    path = _write(tmp_path, (
        "// RUN: hip-mlir-opt --hip-pool-allocs %s | FileCheck %s\n"
        "// SHARED: something\n\n"
        "// A comment about the first case.\n//\n"
        "// CHECK-LABEL: func.func @first\n// OTHER-LABEL: func.func @first\n"
        "func.func @first() { return }\n\n"
        "// CHECK-LABEL: func.func @second\nfunc.func @second() { return }\n"
    ))
    first, second = runner.split_cases(path)
    assert (first.name, second.name) == ("first", "second")
    assert "A comment about the first case" in first.text
    assert "@second" not in first.text and "@first" not in second.text
    assert "// SHARED: something" in second.text


def test_wrapped_module_and_unlabelled_files_are_one_case(tmp_path):
    path = _write(tmp_path, (
        "// RUN: mlir-opt --cse %s | FileCheck %s\n"
        "module {\n// CHECK-LABEL: @a\nfunc.func @a() { return }\n"
        "// CHECK-LABEL: @b\nfunc.func @b() { return }\n}\n"
    ))
    assert len(runner.split_cases(path)) == 1


def test_only_run_lines_have_the_tool_renamed():
    text = "// RUN: iree-opt --cse %s\n// CHECK: iree-opt\nmlir-opt-22 x\n"
    rewritten = runner._rewrite_tool(text, "memplan-opt")
    assert rewritten.splitlines() == [
        "// RUN: memplan-opt --cse %s", "// CHECK: iree-opt", "mlir-opt-22 x",
    ]


def test_label_cases_drop_run_lines_whose_prefix_checks_nothing_there(tmp_path):
    path = _write(tmp_path, (
        "// RUN: hip-mlir-opt --hip-pool-allocs %s | FileCheck %s\n"
        "// RUN: hip-mlir-opt --hip-pool-allocs='alignment=64' %s \\\n"
        "// RUN:   | FileCheck %s --check-prefix=WIDE\n"
        "// RUN: not hip-mlir-opt --hip-pool-allocs='alignment=3' %s 2>&1 | FileCheck %s --check-prefix=BAD\n"
        "// BAD: power of 2\n\n"
        "// CHECK-LABEL: func.func @first\nfunc.func @first() { return }\n\n"
        "// CHECK-LABEL: func.func @second\n// WIDE-LABEL: func.func @second\n"
        "func.func @second() { return }\n"
    ))
    first, second = runner.split_cases(path)
    assert "WIDE" not in first.text and "alignment=64" not in first.text
    assert first.text.count("// RUN:") == 2 and "--check-prefix=BAD" in first.text
    assert second.text.count("// RUN:") == 4
