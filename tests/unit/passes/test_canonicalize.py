"""The canonicalize/apply-patterns driver and its region-level cleanups."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import builtin
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from memplan.analysis.equivalence import op_name
from memplan.analysis.fingerprint import fingerprint
from memplan.context import make_context
from memplan.passes.apply_patterns import ApplyPatterns
from memplan.passes.canonicalize import Canonicalize, GreedyDriver, canonicalization_patterns
from memplan.passes.patterns.common import fold_block_arguments, unique_constants
from memplan.tools.source import parse_module, split_input

CTX = make_context(allow_unregistered=True)
LIT = Path(__file__).resolve().parents[2] / "lit" / "passes"


def parse(text: str) -> builtin.ModuleOp:
    module = parse_module(CTX, text, "test.mlir")
    module.verify()
    return module


def names(module: builtin.ModuleOp) -> list[str]:
    return [op_name(op) for op in module.walk()]


def test_stream_and_upstream_patterns_are_found_through_the_interface():
    module = parse("""
util.func public @f(%r: !stream.resource<*>, %s: index, %c: i1) {
  %0 = stream.async.transfer %r : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  util.return
}
""")
    by_name = {op_name(op): op for op in module.walk()}
    transfer = canonicalization_patterns(by_name["stream.async.transfer"])
    assert [type(p).__name__ for p in transfer] == [
        "FoldTransferOfTransfer", "TransferRemakesCloneable", "ElideTransferOfFreshValue"
    ]
    # xDSL's own trait on cf.cond_br.
    assert canonicalization_patterns(by_name["cf.cond_br"])


def test_a_uniform_argument_of_a_block_reached_twice_from_one_branch():
    """Both edges of one cond_br target ^bb1: the operand goes from both lists."""
    module = parse("""
func.func @f(%c: i1, %a: index) -> index {
  cf.cond_br %c, ^bb1(%a : index), ^bb1(%a : index)
^bb1(%x: index):
  return %x : index
}
""")
    assert fold_block_arguments(module) is True
    module.verify()
    text = str(module)
    assert "^bb1:" in text and "return %a" in text
    assert fold_block_arguments(module) is False


def test_constants_merge_per_isolated_region_and_hoist_once():
    module = parse("""
func.func @f(%c: i1) -> (i32, i32) {
  %x = scf.if %c -> (i32) {
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  } else {
    %one_again = arith.constant 1 : i32
    scf.yield %one_again : i32
  }
  %y = arith.constant 1 : i32
  "test.isolated"() ({
    %inner = arith.constant 1 : i32
    "test.use"(%inner) : (i32) -> ()
  }) : () -> ()
  return %x, %y : i32, i32
}
""")
    assert unique_constants(module) is True
    module.verify()
    func = next(op for op in module.walk() if op_name(op) == "func.func")
    entry = func.regions[0].blocks.first
    assert op_name(entry.first_op) == "arith.constant"
    # One constant in the function's scope, one in the isolated op's.
    assert names(module).count("arith.constant") == 2
    assert unique_constants(module) is False


class _Flip(RewritePattern):
    """Toggles a unit attribute forever: a pattern set that never converges."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if op_name(op) != "test.flip":
            return
        if "on" in op.attributes:
            del op.attributes["on"]
        else:
            op.attributes["on"] = builtin.UnitAttr()
        rewriter.notify_op_modified(op)
        rewriter.has_done_action = True


def test_a_pattern_cycle_ends_within_the_budget():
    module = parse('"test.flip"() : () -> ()')
    driver = GreedyDriver(CTX, extra_patterns=(_Flip(),), max_iterations=3)
    driver.run(module)  # returns instead of looping forever
    module.verify()
    # Each sweep ended on its exhausted budget, not at a fixed point.
    assert driver.converged is False


def test_a_converged_iteration_is_not_rerun_but_counts():
    """The iteration the driver infers (its walk ended on a sweep that applied
    nothing, the cleanups changed nothing) is one a rerun confirms, and it counts
    against max-iterations as MLIR's confirming iteration does."""
    for module in _chunks("canonicalize.mlir"):
        once = module.clone()
        driver = GreedyDriver(CTX)
        applied = driver.simplify(module)
        assert driver.converged
        again = GreedyDriver(CTX)
        assert again.simplify(module) is False and again.converged
        single = GreedyDriver(CTX, max_iterations=1)
        single.simplify(once)
        assert single.converged is not applied


def _chunks(name: str):
    for chunk in split_input((LIT / name).read_text(), split=True):
        yield parse_module(CTX, chunk.text, name)


@pytest.mark.parametrize("pass_class", [Canonicalize, ApplyPatterns])
@pytest.mark.parametrize("name", ["canonicalize.mlir", "apply-patterns.mlir", "cse.mlir"])
def test_one_run_reaches_the_fixed_point(pass_class, name: str):
    for module in _chunks(name):
        pass_class().run(CTX, module)
        before = fingerprint(module)
        assert pass_class().run(CTX, module) is False
        assert fingerprint(module) == before


def test_patterns_of_upstream_ops_reach_xdsls_own_canonicalize():
    """The patterns memplan keeps for upstream ops (a select of subviews, a loop
    only carrying values) are traits of xDSL's classes, so xDSL's canonicalize
    applies them as memplan's does."""
    from xdsl.transforms.canonicalize import CanonicalizePass

    module = parse(
        "util.func public @f(%c: i1, %r: !stream.resource<*>, %n: index) -> (!stream.resource<*>, index) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c8 = arith.constant 8 : index\n"
        "  %a = stream.resource.subview %r[%c0] : !stream.resource<*>{%n} -> !stream.resource<*>{%c8}\n"
        "  %b = stream.resource.subview %r[%c8] : !stream.resource<*>{%n} -> !stream.resource<*>{%c8}\n"
        "  %s = arith.select %c, %a, %b : !stream.resource<*>\n"
        "  %w = scf.while (%x = %n) : (index) -> index {\n"
        "    scf.condition(%c) %x : index\n"
        "  } do {\n"
        "  ^bb0(%y: index):\n"
        "    scf.yield %y : index\n"
        "  }\n"
        "  util.return %s, %w : !stream.resource<*>, index\n"
        "}\n"
    )
    CanonicalizePass().apply(CTX, module)
    names = [op.name for op in module.walk()]
    assert "scf.while" not in names
    selects = [op for op in module.walk() if op.name == "arith.select"]
    assert [s.results[0].type for s in selects] == [builtin.IndexType()]
