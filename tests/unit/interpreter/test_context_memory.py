"""Host scratch and pools are one per context in the interpreter, as in hip-ep's
runtime: a callee's scratch is its caller's bytes, and growing it drops them."""

from __future__ import annotations

from memplan.interpreter import run_function

SHARED = """
func.func @callee(%ctx: !hip.context, %x: i64) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>
  %a = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  return
}
func.func @main(%ctx: !hip.context) -> i64 {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : i64
  %c9 = arith.constant 9 : i64
  %c64 = arith.constant 64 : index
  %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>
  %b = memref.view %s[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %c7, %b[%c0] : memref<1xi64>
  func.call @callee(%ctx, %c9) : (!hip.context, i64) -> ()
  %v = memref.load %b[%c0] : memref<1xi64>
  return %v : i64
}
"""


def test_a_callees_scratch_is_its_callers_bytes(parse):
    outcome = run_function(parse(SHARED), "main")
    assert outcome.error is None
    assert outcome.results == (9,)


def test_a_larger_request_releases_the_old_bytes(parse):
    grown = SHARED.replace(
        "%c64 = arith.constant 64 : index\n  %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>\n"
        "  %a",
        "%c64 = arith.constant 128 : index\n  %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>\n"
        "  %a",
    )
    assert grown != SHARED
    outcome = run_function(parse(grown), "main")
    assert outcome.error is not None and "replaced it" in outcome.error


def test_pools_of_different_domains_are_apart(parse):
    text = """
    func.func @main(%ctx: !hip.context) -> i64 {
      %c0 = arith.constant 0 : index
      %c7 = arith.constant 7 : i64
      %c9 = arith.constant 9 : i64
      %c256 = arith.constant 256 : index
      %p0 = hip.get_pool(%ctx, %c256) : memref<?xi8>
      %p1 = hip.get_pool(%ctx, %c256) {domain_id = 1 : i64} : memref<?xi8>
      %a = memref.view %p0[%c0][] : memref<?xi8> to memref<1xi64>
      %b = memref.view %p1[%c0][] : memref<?xi8> to memref<1xi64>
      memref.store %c7, %a[%c0] : memref<1xi64>
      memref.store %c9, %b[%c0] : memref<1xi64>
      %v = memref.load %a[%c0] : memref<1xi64>
      return %v : i64
    }
    """
    assert run_function(parse(text), "main").results == (7,)
