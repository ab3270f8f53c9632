"""The memory passes' shared rewriting helpers (`memplan.passes.common`): the ops
they build directly equal xDSL's, and an allocation's value moves to its
replacement whole."""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    UNKNOWN_LOC,
    IndexType,
    IntegerAttr,
    MemRefType,
    i8,
    i32,
)
from xdsl.ir import Block, Operation

from memplan.context import make_context
from memplan.passes.common import (
    function_bodies,
    index_constant,
    replace_allocation,
    view_into,
)
from memplan.tools.source import parse_module
from memplan.walk import walk_preorder


def _fields(op: Operation) -> dict[str, object]:
    """Every field of `op` (the instance's or its class's default), with uses and
    results as what they refer to."""
    names = set(vars(op)) | {
        "_operands", "_operand_uses", "results", "_successors", "_successor_uses",
        "properties", "attributes", "location", "regions", "parent",
    }
    fields: dict[str, object] = {}
    for name in sorted(names):
        value = getattr(op, name)
        if name == "_operand_uses":
            value = [(u.operation is op, u.index) for u in value]
        elif name == "results":
            value = [(r.type, r.op is op, r.index, r.name_hint, r.first_use) for r in value]
        fields[name] = value
    return fields


def _values() -> tuple[Block, Operation, Operation, Operation]:
    block = Block(arg_types=[MemRefType(i8, [DYNAMIC_INDEX])])
    shift = arith.ConstantOp(IntegerAttr(64, IndexType()))
    size = arith.ConstantOp(IntegerAttr(4, IndexType()))
    alloc = memref.AllocOp.get(i32, shape=[4])
    block.add_ops([shift, size, alloc])
    return block, shift, size, alloc


def test_index_constant_is_what_xdsl_builds() -> None:
    built = index_constant(192)
    expected = arith.ConstantOp.create(
        result_types=[IndexType()],
        properties={"value": IntegerAttr(192, IndexType())},
        location=UNKNOWN_LOC,
    )
    assert _fields(built) == _fields(expected)
    built.verify()
    assert str(built) == str(expected)


def test_view_is_what_xdsl_builds() -> None:
    block, shift, size, _ = _values()
    for sizes, result_type in (
        ((), MemRefType(i32, [4])),
        ((size.result,), MemRefType(i32, [DYNAMIC_INDEX])),
    ):
        built = view_into(block.args[0], shift.result, sizes, result_type)
        expected = memref.ViewOp.create(
            operands=[block.args[0], shift.result, *sizes],
            result_types=[result_type],
            location=UNKNOWN_LOC,
        )
        assert _fields(built) == _fields(expected)
        assert built.source is block.args[0] and built.byte_shift is shift.result
        assert list(built.sizes) == list(sizes)
        built.verify()
        assert str(built) == str(expected)
    # Each operand lists the views among its uses.
    assert sum(1 for u in shift.result.uses if isinstance(u.operation, memref.ViewOp)) == 4


def test_replacement_takes_the_allocations_value() -> None:
    block, shift, size, alloc = _values()
    buffer = alloc.memref
    buffer.name_hint = "buffer"
    load = memref.LoadOp.get(buffer, [shift.result])
    dealloc = memref.DeallocOp.get(buffer)
    block.add_ops([load, dealloc])
    view = view_into(block.args[0], shift.result, (), buffer.type)
    replace_allocation(alloc, [view], [(dealloc, 0)])
    assert view.results == (buffer,) and buffer.owner is view and buffer.index == 0
    assert buffer.name_hint == "buffer"
    assert [u.operation for u in buffer.uses] == [load]
    assert load.memref is buffer
    assert alloc.parent is None and dealloc.parent is None and not alloc.results
    assert list(block.ops) == [shift, size, view, load]


def test_replacement_at_either_end_of_a_block() -> None:
    """The new ops take the allocation's place in the block's list of ops, also as
    its first and last ops, and the block can be walked both ways."""
    t = MemRefType(i32, [4])
    block = Block(arg_types=[MemRefType(i8, [DYNAMIC_INDEX])])
    first, last = memref.AllocOp.get(i32, shape=[4]), memref.AllocOp.get(i32, shape=[4])
    block.add_ops([first, last])
    ops = {}
    for alloc in (first, last):
        shift = index_constant(0)
        view = view_into(block.args[0], shift.result, (), t)
        replace_allocation(alloc, [shift, view], [])
        ops[alloc] = [shift, view]
    expected = ops[first] + ops[last]
    assert list(block.ops) == expected
    assert list(block.walk(reverse=True)) == expected[::-1]
    assert block.first_op is expected[0] and block.last_op is expected[-1]
    assert all(op.parent is block for op in expected)
    assert first.parent is None and first.next_op is None and first.prev_op is None
    block.verify()


def test_replacement_keeping_the_owner_moves_the_uses() -> None:
    block, shift, _, alloc = _values()
    buffer = alloc.memref
    buffer.name_hint = "buffer"
    load = memref.LoadOp.get(buffer, [shift.result])
    block.add_op(load)
    view = view_into(block.args[0], shift.result, (), buffer.type)
    replace_allocation(alloc, [view], [], keep_owner=True)
    assert buffer.owner is alloc and not buffer.uses
    assert load.memref is view.result and view.result.name_hint == "buffer"



def test_walk_is_xdsls_walk() -> None:
    module = parse_module(make_context(), """
    builtin.module {
      func.func @f(%n: index, %c: i1) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        scf.for %i = %c0 to %n step %c1 {
          scf.if %c {
            %a = memref.alloc() : memref<4xi32>
          } else {
          }
          %b = memref.alloc() : memref<2xi32>
        }
        func.return
      }
      builtin.module {
        func.func private @g()
      }
      func.func @h() {
        func.return
      }
    }
    """, "<walk>")
    walked = list(walk_preorder(module))
    assert walked == list(module.walk())
    assert len(walked) == 16  # with the three implicit scf.yield
    assert [f.sym_name.data for f, _ in function_bodies(module)] == ["f", "h"]
