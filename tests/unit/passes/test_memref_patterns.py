"""The memref patterns are declared on xDSL's memref ops: xDSL's own canonicalize,
in a plain xDSL context, applies them once memplan's universe entry is loaded."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, memref, test
from xdsl.parser import Parser
from xdsl.transforms.canonicalize import CanonicalizePass

import memplan.universe  # noqa: F401  (what xdsl-opt loads)

TEXT = """
func.func @f(%n: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %d = memref.dim %a, %c0 : memref<?xf32>
  %r = "memref.rank"(%a) : (memref<?xf32>) -> index
  "test.op"(%a) : (memref<?xf32>) -> ()
  func.return %d, %r : index, index
}
"""


def test_xdsl_canonicalize_applies_memplan_memref_patterns():
    ctx = Context()
    for dialect in (arith.Arith, builtin.Builtin, func.Func, memref.MemRef, test.Test):
        ctx.load_dialect(dialect)
    module = Parser(ctx, TEXT).parse_module()
    CanonicalizePass().apply(ctx, module)
    names = [op.name for op in module.walk()]
    assert "memref.dim" not in names and "memref.rank" not in names
    ret = next(op for op in module.walk() if isinstance(op, func.ReturnOp))
    fn = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    assert ret.operands[0] is fn.body.block.args[0]
    rank = ret.operands[1].owner
    assert isinstance(rank, arith.ConstantOp) and rank.value.value.data == 1
