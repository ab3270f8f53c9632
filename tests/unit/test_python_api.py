"""The Python API (issue 17): parse verifies unless asked not to, print_ir, the
pass classes in memplan.passes, type hints on every public function, and the
README's Python example as written."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import memplan
import memplan.passes
import memplan.planning
import memplan.report
from memplan.diagnostics import UserError
from memplan.passes.registry import PASSES

ROOT = Path(__file__).resolve().parents[2]

USE_BEFORE_DEFINITION = """\
func.func @f() -> i32 {
  %0 = arith.addi %1, %1 : i32
  %1 = arith.constant 1 : i32
  func.return %0 : i32
}
"""


def test_parse_verifies():
    ctx = memplan.make_context()
    with pytest.raises(UserError) as raised:
        memplan.parse(ctx, USE_BEFORE_DEFINITION, "t.mlir")
    assert str(raised.value.diagnostic()).startswith("t.mlir:2:3: error: 'arith.addi' op operand #0 does not dominate")


def test_parse_can_skip_verification():
    ctx = memplan.make_context()
    module = memplan.parse(ctx, USE_BEFORE_DEFINITION, "t.mlir", verify=False)
    with pytest.raises(UserError, match="does not dominate"):
        memplan.verify(module)


def test_print_ir_round_trips():
    ctx = memplan.make_context()
    text = "func.func @f(%arg0: i32) -> i32 {\n  %0 = arith.addi %arg0, %arg0 : i32\n  return %0 : i32\n}\n"
    printed = memplan.print_ir(memplan.parse(ctx, text))
    assert printed.endswith("\n") and "arith.addi" in printed
    assert memplan.print_ir(memplan.parse(ctx, printed)) == printed


def test_every_registered_pass_class_is_exported_from_memplan_passes():
    for info in PASSES:
        class_name = info.target.split(":")[1]
        assert class_name in memplan.passes.__all__
        assert getattr(memplan.passes, class_name) is info.load()
    with pytest.raises(AttributeError):
        memplan.passes.NoSuchPass  # noqa: B018


@pytest.mark.parametrize("module", [memplan, memplan.planning, memplan.report], ids=lambda m: m.__name__)
def test_public_functions_have_type_hints(module):
    for name in module.__all__:
        value = getattr(module, name)
        if not inspect.isfunction(value):
            continue
        signature = inspect.signature(value)
        missing = [p.name for p in signature.parameters.values() if p.annotation is inspect.Parameter.empty]
        assert not missing, f"{module.__name__}.{name}: no annotation for {missing}"
        assert signature.return_annotation is not inspect.Signature.empty, f"{module.__name__}.{name}: no return type"


def readme_python_example() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("From Python", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README's From Python section has no python block"
    return match.group(1)


def test_readme_python_example_runs_as_written(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    exec(compile(readme_python_example(), "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "%positions host-fed" in out and "hip.get_pool" in out


def test_the_guides_python_blocks_run_in_order(monkeypatch):
    """docs/guide-xdsl-compilers.md stays true: its blocks, run one after another,
    build, plan and read the plan (the last block plans on its own)."""
    monkeypatch.chdir(ROOT)
    guide = (ROOT / "docs" / "guide-xdsl-compilers.md").read_text()
    namespace: dict = {}
    for block in re.findall(r"```python\n(.*?)```", guide, re.S):
        exec(compile(block, "guide-xdsl-compilers.md", "exec"), namespace)
    assert namespace["plan"].pool_size >= namespace["problem"].lower_bound()
