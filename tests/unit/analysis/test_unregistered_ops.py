"""Unregistered ops are unknown, not "have every trait".

xDSL's `UnregisteredOp.has_trait` answers True for any trait unless told otherwise;
each analysis must pick the answer that is safe for what it asks.
"""

from __future__ import annotations

from xdsl.context import Context

from memplan.analysis.equivalence import OpKey
from memplan.analysis.purity import effects_of, would_be_trivially_dead
from memplan.context import make_context
from memplan.passes.canonicalize import Canonicalize
from memplan.passes.verify_memory_plan import check_module
from memplan.tools.source import parse_module


def _parse(text: str):
    return parse_module(make_context(allow_unregistered=True), text, "test.mlir")


def _ops(module, name: str):
    return [op for op in module.walk() if getattr(op, "op_name", None) is not None
            and op.op_name.data == name]


def test_unregistered_op_is_not_commutative():
    module = _parse("""
func.func @f(%x: i32, %y: i32) {
  %0 = "test.sub"(%x, %y) : (i32, i32) -> i32
  %1 = "test.sub"(%y, %x) : (i32, i32) -> i32
  %2 = "test.sub"(%x, %y) : (i32, i32) -> i32
  return
}""")
    a, b, c = _ops(module, "test.sub")
    assert OpKey(a) != OpKey(b)
    assert OpKey(a) == OpKey(c)


def test_unregistered_op_has_unknown_effects_and_is_never_dead():
    module = _parse("""
func.func @f(%x: i32) {
  "test.effect"(%x) : (i32) -> ()
  return
}""")
    (op,) = _ops(module, "test.effect")
    assert effects_of(op) is None
    assert not would_be_trivially_dead(op)


SHARED_POOL = """
func.func @f(%ctx: !hip.context, %in: memref<64xf32>, %out: memref<64xf32>, %box: memref<1xmemref<64xf32>>) {
  %size = arith.constant 256 : index
  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>
  %c0 = arith.constant 0 : index
  %s = memref.view %pool[%c0][] : memref<?xi8> to memref<64xf32>
  hip.tanh(%ctx) ins(%in : memref<64xf32>) outs(%s : memref<64xf32>)
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<64xf32>
  USE
  hip.tanh(%ctx) ins(%s : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}"""


def _escape_messages(use: str) -> list[str]:
    module = _parse(SHARED_POOL.replace("USE", use))
    return [v.message for v in check_module(module) if "escapes" in v.message]


def test_checker_takes_an_unregistered_user_for_an_escape_not_a_return():
    (message,) = _escape_messages('"test.fill"(%a) : (memref<64xf32>) -> ()')
    assert "%a escapes" in message and "%s" in message


def test_checker_takes_a_buffer_stored_as_a_value_for_an_escape():
    (message,) = _escape_messages("memref.store %a, %box[%c0] : memref<1xmemref<64xf32>>")
    assert "%a escapes to 'memref.store'" in message


def test_checker_takes_a_pointer_taken_for_an_escape():
    (message,) = _escape_messages(
        "%p = memref.extract_aligned_pointer_as_index %a : memref<64xf32> -> index")
    assert "%a escapes to 'memref.extract_aligned_pointer_as_index'" in message


def test_checker_lets_metadata_reads_share():
    assert _escape_messages("%r = memref.rank %a : memref<64xf32>") == []


def test_canonicalize_keeps_an_initializer_whose_only_op_is_unregistered():
    module = _parse("""
util.initializer {
  "test.side_effect"() : () -> ()
}
util.initializer {
  util.return
}""")
    Canonicalize().apply(Context(), module)
    initializers = [op for op in module.ops if op.name == "util.initializer"]
    assert len(initializers) == 1
    assert _ops(module, "test.side_effect")
