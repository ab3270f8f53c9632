"""Verification checks what depends on an op's signature once per signature, and
still finds every error at its place, worded as by a full check of every op."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, StringAttr, f32, i32, i64
from xdsl.ir import Block, ErasedSSAValue, Operation, Region
from xdsl.irdl import OpDef
from xdsl.utils.exceptions import VerifyException

import memplan
from memplan.diagnostics import UserError
from memplan.passes.pipelines import HipMemoryPlan
from memplan.tools.memplan_opt import main
from memplan.verification import memoized_definition_checks, verify_module

CTX = memplan.make_context()


def _error(text: str) -> str:
    module = memplan.parse(CTX, text, "t.mlir", verify=False)
    with pytest.raises(UserError) as raised:
        verify_module(module)
    return str(raised.value.diagnostic())


def _error_of(module: ModuleOp) -> str:
    with pytest.raises(UserError) as raised:
        verify_module(module)
    return raised.value.message


def test_a_use_before_its_definition_after_a_good_op_of_the_same_signature():
    text = """func.func @f(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  %b = arith.addi %c, %x : i32
  %c = arith.addi %x, %x : i32
  return %b : i32
}
"""
    assert _error(text) == (
        "t.mlir:3:3: error: 'arith.addi' op operand #0 does not dominate this use "
        "(it is defined at t.mlir:4:3)"
    )


def test_a_use_of_the_enclosing_op_s_result_inside_it():
    text = """func.func @f(%lb: index) {
  %r = scf.for %i = %lb to %lb step %lb iter_args(%s = %lb) -> (index) {
    %a = arith.addi %i, %i : index
    %b = arith.addi %r, %i : index
    scf.yield %b : index
  }
  return
}
"""
    assert _error(text).startswith(
        "t.mlir:4:5: error: 'arith.addi' op operand #0 does not dominate this use "
        "(it is defined at t.mlir:2:3)"
    )


def test_a_parent_rule_after_a_good_op_of_the_same_signature():
    text = """func.func @f(%lb: index) {
  scf.for %i = %lb to %lb step %lb {
    scf.yield
  }
  scf.yield
}
"""
    assert _error(text) == (
        "t.mlir:5:3: error: 'scf.yield' op 'scf.yield' expects parent op to be one of "
        "'scf.for', 'scf.if', 'scf.execute_region', 'scf.while', 'scf.index_switch'\n"
        't.mlir:5:3: note: see current operation: "scf.yield"() : () -> ()'
    )


def test_the_terminator_rule_after_a_good_op_of_the_same_signature():
    text = """func.func @f(%x: i32) {
  %a = arith.addi %x, %x : i32
  %b = arith.addi %x, %x : i32
}
"""
    assert _error(text) == (
        "t.mlir:3:3: error: 'arith.addi' op Operation arith.addi terminates block in "
        "single-block region but is not a terminator\n"
        "t.mlir:3:3: note: see current operation: %1 = \"arith.addi\"(%arg0, %arg0) "
        "<{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32"
    )


def test_an_undefined_symbol_after_a_good_op_of_the_same_signature():
    text = """util.global private @g : i32
func.func @f() {
  %a = util.global.load @g : i32
  %b = util.global.load @h : i32
  return
}
"""
    assert _error(text).startswith(
        "t.mlir:4:3: error: 'util.global.load' op undefined global: @h\n"
        "t.mlir:4:3: note: see current operation: "
    )


def test_a_kernel_of_another_signature_is_checked_in_full():
    text = """func.func @f(%ctx: !hip.context, %a: memref<4x8xf16>, %b: memref<8x2xf16>, %o: memref<4x2xf16>, %p: memref<4x3xf16>) {
  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf16>, memref<8x2xf16>) outs(%o : memref<4x2xf16>)
  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf16>, memref<8x2xf16>) outs(%o : memref<4x2xf16>)
  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf16>, memref<8x2xf16>) outs(%p : memref<4x3xf16>)
  return
}
"""
    assert _error(text).startswith(
        "t.mlir:4:3: error: 'hip.matmul' op dim 1 of result #0 mismatch: expected 2 "
        "[4, 2] but outs has 3 [4, 3]\nt.mlir:4:3: note: see current operation: "
    )


def _function(name: str, *ops: Operation) -> func.FuncOp:
    body = Block(arg_types=(i32,))
    body.add_ops(ops)
    body.add_op(func.ReturnOp())
    return func.FuncOp(name, ((i32,), ()), Region(body))


def test_a_value_from_another_function_is_reported_at_the_function():
    """The isolated op is verified before its body, so its error comes first, even
    though the use also fails dominance."""
    f = _function("f")
    a = arith.AddiOp(f.body.block.args[0], f.body.block.args[0])
    f.body.block.insert_op_before(a, f.body.block.first_op)
    g = _function("g")
    arg = g.body.block.args[0]
    good, bad = arith.AddiOp(arg, arg), arith.AddiOp(a.result, arg)
    g.body.block.insert_ops_before([good, bad], g.body.block.first_op)
    message = _error_of(ModuleOp([f, g]))
    assert message.startswith(
        "'func.func' op Operation using value defined out of its IsolatedFromAbove parent"
    )


def test_an_erased_operand_after_a_good_op_of_the_same_signature():
    f = _function("f")
    arg = f.body.block.args[0]
    gone = arith.AddiOp(arg, arg)
    good, bad = arith.AddiOp(arg, arg), arith.AddiOp(arg, arg)
    bad.operands = [ErasedSSAValue(i32, gone.result), arg]
    f.body.block.insert_ops_before([gone, good, bad], f.body.block.first_op)
    assert _error_of(ModuleOp([f])) == "'arith.addi' op Erased SSA value is used by the operation"


_PLANNED = """func.func @f(%ctx: !hip.context, %a: memref<4x8xf16>, %b: memref<8x2xf16>, %o: memref<4x2xf16>) {
  %t = memref.alloc() : memref<4x2xf16>
  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf16>, memref<8x2xf16>) outs(%t : memref<4x2xf16>)
  %u = memref.alloc() : memref<4x2xf16>
  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf16>, memref<8x2xf16>) outs(%u : memref<4x2xf16>)
  hip.add(%ctx) ins(%t, %u : memref<4x2xf16>, memref<4x2xf16>) outs(%o : memref<4x2xf16>)
  memref.dealloc %t : memref<4x2xf16>
  memref.dealloc %u : memref<4x2xf16>
  return
}
"""


def _misplace_last_view(module: ModuleOp) -> memref.ViewOp:
    """Move the last of the pool's views (an op the pass built, of the same
    signature as the first) before its offset's definition."""
    views = [op for op in module.walk() if isinstance(op, memref.ViewOp)]
    assert len(views) == 2 and views[0].result.type == views[1].result.type
    view = views[-1]
    offset = view.operands[1].owner
    assert isinstance(offset, Operation) and offset.parent is view.parent
    view.detach()
    offset.parent.insert_op_before(view, offset)
    return view


def test_ops_a_pass_created_are_checked_after_it():
    module = memplan.parse(CTX, _PLANNED, "t.mlir")
    HipMemoryPlan().run(CTX, module)
    verify_module(module)
    _misplace_last_view(module)
    assert _error_of(module).startswith("'memref.view' op operand #1 does not dominate this use")


@pytest.mark.parametrize("verify_each", [False, True])
def test_memplan_opt_reports_an_error_a_pass_made(tmp_path, capsys, monkeypatch, verify_each):
    original = HipMemoryPlan.run

    def run(self, ctx, module):
        changed = original(self, ctx, module)
        _misplace_last_view(module)
        return changed

    monkeypatch.setattr(HipMemoryPlan, "run", run)
    source = tmp_path / "t.mlir"
    source.write_text(_PLANNED)
    flags = ["--verify-each"] if verify_each else []
    assert main([str(source), "-p", "hip-memory-plan", *flags]) == 1
    assert "error: 'memref.view' op operand #1 does not dominate this use" in capsys.readouterr().err


def test_one_full_check_per_signature(monkeypatch):
    """Of many equal kernels, only the first runs its IRDL definition's check."""
    checked = _counting_definition_checks(monkeypatch)
    line = "  hip.matmul(%ctx) ins(%a, %b : memref<4x8xf16>, memref<8x2xf16>) outs(%o : memref<4x2xf16>)\n"
    text = ("func.func @f(%ctx: !hip.context, %a: memref<4x8xf16>, %b: memref<8x2xf16>, "
            "%o: memref<4x2xf16>) {\n" + line * 5 + "  return\n}\n")
    module = memplan.parse(CTX, text, verify=False)
    verify_module(module)
    kernels = [op for op in checked if op.name == "hip.matmul"]
    assert len(kernels) == 1


# ------------------------------------------------------- memoized definition checks


def _counting_definition_checks(monkeypatch) -> list[Operation]:
    """OpDef.verify recording the ops it checks (installed before the memo, which
    calls it on a miss)."""
    checked: list[Operation] = []
    original = OpDef.verify

    def verify(op_def: OpDef, op: Operation) -> None:
        checked.append(op)
        original(op_def, op)

    monkeypatch.setattr(OpDef, "verify", verify)
    return checked


def test_memoized_definition_checks_check_a_combination_once(monkeypatch):
    checked = _counting_definition_checks(monkeypatch)
    t = MemRefType(f32, [4])
    first, same, other = memref.AllocOp([], [], t), memref.AllocOp([], [], t), memref.AllocOp(
        [], [], MemRefType(f32, [8]))
    with memoized_definition_checks():
        for op in (first, same, other):
            op.verify()
    assert checked == [first, other]


def test_memoized_definition_checks_take_equal_type_objects_as_one(monkeypatch):
    """A pass builds a new type object per op: equal ones share one check."""
    checked = _counting_definition_checks(monkeypatch)
    first, equal, other = (memref.AllocOp([], [], t) for t in (
        MemRefType(f32, [4]), MemRefType(f32, [4]), MemRefType(f32, [8])))
    assert first.memref.type is not equal.memref.type
    with memoized_definition_checks():
        for op in (first, equal, other):
            op.verify()
    assert checked == [first, other]


def test_memoized_definition_checks_still_reject_what_differs():
    t = MemRefType(f32, [4])
    good = memref.AllocOp([], [], t, alignment=IntegerAttr(64, i64))
    bad = memref.AllocOp([], [], t)
    bad.properties["alignment"] = StringAttr("64")  # alignment must be an integer
    with memoized_definition_checks():
        good.verify()
        with pytest.raises(VerifyException):
            bad.verify()


def test_memoized_definition_checks_run_traits_every_time():
    inside = func.FuncOp("f", ((), ()))
    returned = func.ReturnOp()
    inside.body.block.add_op(returned)
    alone = func.ReturnOp()  # its parent must be a function (a trait's rule)
    ModuleOp([alone])
    with memoized_definition_checks():
        returned.verify()
        with pytest.raises(VerifyException):
            alone.verify()


_LOOPS = """func.func @f(%lb: index) {
  scf.for %i = %lb to %lb step %lb {
    scf.yield
  }
  scf.for %j = %lb to %lb step %lb {
    scf.yield
  }
  return
}
"""


def test_memoized_definition_checks_of_ops_with_regions_see_their_entry_blocks(monkeypatch):
    """An op with regions is checked once per signature and region shape (block
    counts, entry argument types): a loop whose body's argument changed type is
    checked again, and rejected."""
    module = memplan.parse(CTX, _LOOPS, "t.mlir", verify=False)
    first, second = [op for op in module.walk() if op.name == "scf.for"]
    checked = _counting_definition_checks(monkeypatch)
    with memoized_definition_checks():
        first.verify(verify_nested_ops=False)
        second.verify(verify_nested_ops=False)
        assert second not in checked
        body = second.body.block
        body.erase_arg(body.args[0])
        body.insert_arg(i32, 0)
        with pytest.raises(VerifyException):
            second.verify(verify_nested_ops=False)
    assert second in checked


def test_a_table_shared_across_a_change_still_finds_the_changed_op():
    """What passed before a pass is known after it by signature only: an op the
    pass broke has a signature never seen, and is checked in full."""
    from memplan.signatures import Signatures

    text = """func.func @f(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  return %a : i32
}
"""
    module = memplan.parse(CTX, text, "t.mlir", verify=False)
    signatures = Signatures()
    verify_module(module, signatures)
    add = next(op for op in module.walk() if op.name == "arith.addi")
    add.properties["overflowFlags"] = StringAttr("none")
    with pytest.raises(UserError):
        verify_module(module, signatures)
    with signatures.reading(), pytest.raises(UserError):
        verify_module(module, signatures)


def test_signatures_are_kept_by_op_only_while_reading():
    from memplan.signatures import Signatures

    signatures = Signatures()
    op = memref.AllocOp([], [], MemRefType(f32, [4]))
    before = signatures.key("head", op)
    with signatures.reading():
        assert signatures.key("head", op) == before
        op.results[0]._type = MemRefType(f32, [8])  # (never done while reading)
        assert signatures.key("head", op) == before  # the kept one
    assert signatures.key("head", op) != before


def test_an_error_in_a_function_before_its_use_of_an_outside_value():
    """The function's isolation is checked as the walk reaches each use; an error
    found before the use (here a use before its definition) still gives way to
    the function's, as when the function is checked before its body."""
    f = _function("f")
    a = arith.AddiOp(f.body.block.args[0], f.body.block.args[0])
    f.body.block.insert_op_before(a, f.body.block.first_op)
    g = _function("g")
    arg = g.body.block.args[0]
    later = arith.AddiOp(arg, arg)
    early, outside = arith.AddiOp(later.result, arg), arith.AddiOp(a.result, arg)
    g.body.block.insert_ops_before([early, later, outside], g.body.block.first_op)
    assert _error_of(ModuleOp([f, g])).startswith(
        "'func.func' op Operation using value defined out of its IsolatedFromAbove parent"
    )
    outside.detach()
    outside.erase()
    assert "does not dominate this use" in _error_of(ModuleOp([f.clone(), g.clone()]))


def test_a_nested_isolated_op_is_reported_at_itself():
    text = """func.func @f(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  builtin.module {
    %b = arith.addi %a, %a : i32
  }
  return %a : i32
}
"""
    with pytest.raises(UserError) as raised:
        verify_module(memplan.parse(CTX, text, "t.mlir", verify=False))
    assert raised.value.message.startswith("'builtin.module' op Operation using value defined out of")
    verify_module(memplan.parse(CTX, text.replace("arith.addi %a, %a", "arith.addi %c, %c").replace(
        "builtin.module {", "builtin.module {\n    %c = arith.constant 1 : i32"), "t.mlir", verify=False))


def test_what_an_unregistered_op_holds_is_checked_by_no_one():
    """xDSL's check takes an unregistered op for an isolated one (it does not look
    inside), and the op's own verification checks nothing."""
    text = """func.func @f(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  "test.unknown_isolated"() ({
    %b = arith.addi %a, %a : i32
    "test.finish"() : () -> ()
  }) : () -> ()
  return %a : i32
}
"""
    verify_module(memplan.parse(memplan.make_context(allow_unregistered=True), text, "t.mlir", verify=False))
