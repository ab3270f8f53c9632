"""Only ops that declare HostInlineRegions run their regions inline on the host."""

from __future__ import annotations

from memplan.analysis.ordering import BlockOrdering
from memplan.analysis.regions import deferring_ancestor
from memplan.context import make_context
from memplan.tools.source import parse_module

PROGRAM = """
func.func @f(%ctx: !hip.context, %x: i64, %o: memref<1xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  %b = memref.alloc() : memref<1xi64>
  scf.if %c {
    "test.later"() ({
      hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
      "test.end"() : () -> ()
    }) : () -> ()
    %z = arith.constant 0 : index
  }
  scf.execute_region {
    memref.store %x, %b[%c0] : memref<1xi64>
    scf.yield
  }
  return
}
"""


def _parse():
    module = parse_module(make_context(allow_unregistered=True), PROGRAM, "t.mlir")
    func = next(iter(module.ops))
    block = func.body.blocks[0]
    allocs = [op.results[0] for op in block.ops if op.name == "memref.alloc"]
    return block, allocs


def test_the_outermost_op_that_does_not_run_inline():
    block, (a, b) = _parse()
    cast = next(u.operation for u in a.uses)
    store = next(u.operation for u in b.uses)
    assert deferring_ancestor(cast, block) is cast.parent_op()  # test.later, not scf.if
    assert deferring_ancestor(store, block) is None


def test_a_buffer_used_inside_escapes_with_a_reason():
    block, (a, b) = _parse()
    ordering = BlockOrdering(block)
    assert "does not declare that it runs its regions inline" in str(ordering.info(a).escape)
    assert ordering.info(b).escape is None
    assert [x.kind.value for x in ordering.info(b).accesses] == ["write"]
