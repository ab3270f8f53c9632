"""The plan checker's package: its imports, and the rules it took over from the
planners' own assumptions (sizes, view chains, calls, regions, bounds)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import memplan.checker
from memplan.checker import check_module
from memplan.context import make_context
from memplan.tools.source import parse_module


def test_it_shares_only_the_data_layout_with_the_planners():
    imports = set()
    for path in Path(memplan.checker.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        imports |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "memplan.analysis.data_layout" in imports
    assert {m for m in imports if m and m.startswith(("memplan.analysis", "memplan.planning"))} \
        == {"memplan.analysis.data_layout"}


def _check(text: str):
    return check_module(parse_module(make_context(allow_unregistered=True), text, "t.mlir"))


SCALARS = """
func.func @f(%ctx: !hip.context, %x: ELEM, %y: i64, %o: memref<9xf32>, %p: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %at = arith.constant AT : index
  %size = arith.constant 256 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %a = memref.view %s[%c0][] : memref<?xi8> to memref<9xELEM>
  memref.store %x, %a[%c8] : memref<9xELEM>
  hip.cast(%ctx) ins(%a : memref<9xELEM>) outs(%o : memref<9xf32>) {to = 1 : i64}
  %b = memref.view %s[%at][] : memref<?xi8> to memref<1xi64>
  memref.store %y, %b[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%p : memref<1xf32>) {to = 1 : i64}
  return
}
"""


@pytest.mark.parametrize("element, at, races", [
    ("i33", 64, True),   # 9 x i33 is 72 bytes
    ("i33", 72, False),
    ("i24", 36, False),  # 9 x i24 is 36 bytes
    ("i24", 32, True),
])
def test_sizes_are_the_data_layouts(element, at, races):
    violations = _check(SCALARS.replace("ELEM", element).replace("AT", str(at)))
    assert bool(violations) == races


def test_two_calls_of_a_callee_with_scratch_race():
    text = """
    func.func @callee(%ctx: !hip.context, %x: i64, %o: memref<1xf32>) {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>
      %a = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
      memref.store %x, %a[%c0] : memref<1xi64>
      hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
      return
    }
    func.func @caller(%ctx: !hip.context, %x: i64, %o: memref<1xf32>) {
      func.call @callee(%ctx, %x, %o) : (!hip.context, i64, memref<1xf32>) -> ()
      SYNC
      func.call @callee(%ctx, %x, %o) : (!hip.context, i64, memref<1xf32>) -> ()
      return
    }
    """
    racy = _check(text.replace("SYNC", ""))
    assert len(racy) == 1 and racy[0].later.name == racy[0].earlier.name == "func.call"
    assert _check(text.replace("SYNC", "memplan.synchronize(%ctx)")) == []


def test_a_buffer_past_the_scratch_asked_for():
    text = SCALARS.replace("ELEM", "i64").replace("AT", "200").replace(
        "%size = arith.constant 256", "%size = arith.constant 204")
    (violation,) = _check(text)
    assert "reaches past the end" in violation.message


@pytest.mark.parametrize("reference", ["[@callee]", "{callee = @callee}"])
def test_a_callee_named_inside_an_array_or_a_dictionary_is_seen(reference):
    # An op naming its callee anywhere in its attributes runs it: two such ops on
    # one context, unsynchronized, race on the callee's scratch.
    text = """
    func.func @callee(%ctx: !hip.context, %x: i64, %o: memref<1xf32>) {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>
      %a = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
      memref.store %x, %a[%c0] : memref<1xi64>
      hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
      return
    }
    func.func @caller(%ctx: !hip.context, %x: i64, %o: memref<1xf32>) {
      "test.invoke"(%ctx, %x, %o) {target = REF} : (!hip.context, i64, memref<1xf32>) -> ()
      "test.invoke"(%ctx, %x, %o) {target = REF} : (!hip.context, i64, memref<1xf32>) -> ()
      return
    }
    """.replace("REF", reference)
    (violation,) = _check(text)
    assert "@callee's 'hip.get_host_scratch'" in violation.message


def _double_call_chain(depth: int) -> str:
    calls = [f"""
    func.func @f{i}(%ctx: !hip.context, %x: i64) {{
      func.call @f{i + 1}(%ctx, %x) : (!hip.context, i64) -> ()
      func.call @f{i + 1}(%ctx, %x) : (!hip.context, i64) -> ()
      return
    }}""" for i in range(depth)]
    return "\n".join(calls) + f"""
    func.func @f{depth}(%ctx: !hip.context, %x: i64) {{
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>
      %a = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
      memref.store %x, %a[%c0] : memref<1xi64>
      return
    }}"""


def test_each_function_is_summarized_once(monkeypatch):
    # Every path through the chain is one of 2**30; the summaries are 31. Host
    # writes in program order do not race, at any depth.
    import memplan.checker.check as check

    computed = []
    summarize = check._function_summary
    monkeypatch.setattr(check, "_function_summary",
                        lambda fn, *rest: computed.append(fn) or summarize(fn, *rest))
    assert _check(_double_call_chain(30)) == []
    assert len(computed) == len({id(fn.function) for fn in computed}) == 31


def test_a_call_whose_callee_context_cannot_be_mapped_is_reported():
    text = _double_call_chain(0) + """
    func.func @caller(%ctx: !hip.context, %other: !hip.context, %x: i64) {
      "test.invoke"(%x, %ctx, %other) {target = @f0} : (i64, !hip.context, !hip.context) -> ()
      return
    }"""
    (violation,) = _check(text)
    assert violation.later.name == "builtin.unregistered"
    assert "cannot map the callee's context" in violation.message


LOOP_THEN_HOST_STORE = """
func.func @f(%ctx: !hip.context, %n: index, %x: i64) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %size = arith.constant 64 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %a = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  hip.loop(%ctx, TRIPS) iter_args(%a : memref<1xi64>) body @body {num_loop_carried = 1 : i32 FLAGS}
  %b = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %b[%c0] : memref<1xi64>
  return
}
func.func private @body(!hip.context, memref<i64>, memref<i1>, memref<1xi64>, memref<i1>, memref<1xi64>)
"""


@pytest.mark.parametrize("trips, flags, races", [
    ("%c2", "", False),                     # waits for the condition after every iteration
    ("%c2", ", cond_is_passthrough", True),  # a counted loop never waits
    ("%n", "", True),                       # may run no iteration, and then not wait
])
def test_a_loops_bodies_reach_its_buffers_on_its_stream(trips, flags, races):
    """What the bodies enqueue on a buffer handed to the loop may still run after
    it, unless the loop surely read its condition back."""
    violations = _check(LOOP_THEN_HOST_STORE.replace("TRIPS", trips).replace("FLAGS", flags))
    assert bool(violations) == races
    if races:
        assert "device, stream %ctx" in violations[0].message


GENERATIONS = """
func.func @f(%ctx: !hip.context, %x: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %size = arith.constant 64 : index
  %s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>
  %a = memref.view %s[%c0][] : memref<?xi8> to memref<2xi64>
  %b = memref.view %s[%c0][] : memref<?xi8> to memref<2xi64>
  memref.store %x, %a[%c0] : memref<2xi64>
  %r0 = memref.load %a[%c0] : memref<2xi64>
  memref.store %x, %b[%c0] : memref<2xi64>
  %r1 = memref.load %b[%c0] : memref<2xi64>
  FILL
  %r2 = memref.load %a[%c1] : memref<2xi64>
  func.return %r2 : i64
}
"""

_STORES = ("STORE(%a, %c0)", "STORE(%a, %c1)")
_LOOP = ("scf.for %i = %c0 to %c2 step %c1 {", "  STORE(%a, %i)", "}")
_WRITES = {
    "memref.store": "memref.store %x, \\1[\\2] : memref<2xi64>",
    "probe.put": '"probe.put"(%x, \\1, \\2) : (i64, memref<2xi64>, index) -> ()',
}


def _probe_context():
    """memplan's context with `probe.put`: a store declared through interfaces only
    (one element written, the buffer named by its effect), unknown to the checker."""
    from xdsl.dialects.builtin import IndexType, MemRefType
    from xdsl.ir import Dialect
    from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, traits_def, var_operand_def

    from memplan.interfaces import ElementAccess, OperandEffects, operands_named

    @irdl_op_definition
    class PutOp(IRDLOperation):
        name = "probe.put"
        value = operand_def()
        memref = operand_def(MemRefType)
        indices = var_operand_def(IndexType)
        traits = traits_def(ElementAccess("memref", "indices"),
                            OperandEffects(writes=operands_named("memref")))

    ctx = make_context(allow_unregistered=True)
    ctx.load_dialect(Dialect("probe", [PutOp], []))
    return ctx


@pytest.mark.parametrize("fill, store, races", [
    (_STORES, "memref.store", False),
    (_STORES, "probe.put", False),
    (_LOOP, "memref.store", False),
    (_LOOP, "probe.put", False),
    (_STORES[:1], "memref.store", True),  # %a[1] is read with %b's bytes in it
    (_STORES[:1], "probe.put", True),
])
def test_a_buffer_that_comes_back_filled_is_a_new_generation(fill, store, races):
    """%a's bytes went to %b and come back to %a: fine when %a is written whole
    before it is read, by any op that declares writing one element (`ElementAccess`)."""
    import re

    lines = [re.sub(r"STORE\((%\w+), (%\w+)\)", _WRITES[store], line) for line in fill]
    text = GENERATIONS.replace("FILL", "\n  ".join(lines))
    violations = check_module(parse_module(_probe_context(), text, "t.mlir"))
    assert bool(violations) == races
