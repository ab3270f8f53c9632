"""What the memory passes (`optimize-memrefs`, `pool-allocs`,
`materialize-host-scalars`) share: which ops are functions, which argument is the
runtime context, whether a function already holds runtime-placed memory, and how
they name buffers in remarks.

Functions are found through `CallableOpInterface` and the context by what its type
declares (`memplan.interfaces.RuntimeContext`), never by op or type names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue, SSAValues
from xdsl.traits import CallableOpInterface

from memplan.diagnostics import location_of, remark
from memplan.op_assembly import assemble, assembles_as_created
from memplan.walk import walk_preorder
from memplan.interfaces import context_memory, get_interface, is_runtime_context

__all__ = [
    "RemarksUnderDebug",
    "describe_buffer",
    "function_bodies",
    "index_constant",
    "insert_new_ops",
    "integer_attr",
    "erase_unused",
    "nested_context_memory",
    "replace_allocation",
    "runtime_context",
    "view_into",
]

def function_bodies(module: ModuleOp) -> list[tuple[Operation, Region]]:
    """Every function-like op (`CallableOpInterface`) with a body, and its body."""
    found: list[tuple[Operation, Region]] = []
    for op in walk_preorder(module):
        callable_ = get_interface(op, CallableOpInterface)
        if callable_ is not None:
            region = callable_.get_callable_region(op)
            if region.blocks:
                found.append((op, region))
    return found


def runtime_context(body: Region) -> SSAValue | None:
    """Argument 0 of the body's entry block when it is the runtime context (its type
    declares `RuntimeContext`): what pools and host scratch are taken from. None
    otherwise."""
    entry = body.blocks.first
    if entry is None or not entry.args or not is_runtime_context(entry.args[0]):
        return None
    return entry.args[0]


def nested_context_memory(function: Operation, kind: str) -> list[Operation]:
    """The ops anywhere inside `function`, nested regions included, that take the
    context memory `kind` (`ContextMemory`), in program order (a pool or scratch
    taken in a branch counts too)."""
    return [
        op for op in walk_preorder(function)
        if (memory := context_memory(op)) is not None and memory.kind == kind
    ]


_INDEX = IndexType()

OpT = TypeVar("OpT", bound=Operation)


@lru_cache(maxsize=4096)
def integer_attr(value: int, type_: IntegerType | IndexType) -> IntegerAttr:
    """`IntegerAttr(value, type_)`, one object per value: building one (range checks,
    verification) costs more than the op that holds it, the memory passes make one
    offset per buffer, and attributes are immutable, so ops may share them."""
    return IntegerAttr(value, type_)


def _build(
    cls: type[OpT], operands: Sequence[SSAValue], result_type: Attribute,
    properties: dict[str, Attribute],
) -> OpT:
    """`cls.create(...)` for the offsets and views the memory passes build by the
    thousand (14k in a 20k-op decoder), field by field where the class allows it
    (`memplan.op_assembly`: a quarter of the constructor's cost)."""
    if assembles_as_created(cls):
        return assemble(cls, operands, (result_type,), properties, {})  # type: ignore[return-value]
    return cls.create(
        operands=operands, result_types=[result_type], properties=properties, location=UNKNOWN_LOC
    )


def index_constant(value: int) -> arith.ConstantOp:
    """`arith.constant value : index`."""
    return _build(arith.ConstantOp, (), _INDEX, {"value": integer_attr(value, _INDEX)})


def view_into(
    source: SSAValue, shift: SSAValue, sizes: Sequence[SSAValue], result_type: MemRefType
) -> memref.ViewOp:
    """`memref.view` of `source` at byte `shift`."""
    return _build(memref.ViewOp, (source, shift, *sizes), result_type, {})


def erase_unused(op: Operation) -> None:
    """Erase `op`, none of whose results is used. `Rewriter.erase_op` gives every
    result a stand-in value with a copy of its name (checked by a regular
    expression), thousands of times per pass; unused results need none."""
    assert all(r.first_use is None for r in op.results), "erasing an op whose results are used"
    op.detach()
    op.drop_all_references()


def insert_new_ops(new_ops: Sequence[Operation], before: Operation) -> None:
    """Link ops just built (no parent, no regions) into `before`'s block ahead of
    it. `Block.insert_op_before` checks for each that it does not hold the block,
    walking up to the module: half the cost of the thousands of offsets and views
    the memory passes insert, and ops without regions hold no block."""
    block = before.parent
    assert block is not None
    previous = before._prev_op  # pyright: ignore[reportPrivateUsage]
    for new in new_ops:
        assert new.parent is None and not new.regions
        new.parent = block
        new._prev_op = previous  # pyright: ignore[reportPrivateUsage]
        if previous is None:
            block._first_op = new  # pyright: ignore[reportPrivateUsage]
        else:
            previous._next_op = new  # pyright: ignore[reportPrivateUsage]
        previous = new
    if previous is not None:
        previous._next_op = before  # pyright: ignore[reportPrivateUsage]
        before._prev_op = previous  # pyright: ignore[reportPrivateUsage]


def replace_allocation(
    op: Operation, new_ops: Sequence[Operation], frees: Iterable[tuple[Operation, int]],
    *, keep_owner: bool = False,
) -> None:
    """Put `new_ops` (just built, without regions) before the allocation `op`, the
    last of them (one result, of the buffer's type) standing for the buffer, and
    erase `op` and the ops in `frees` that freed it.

    The last op takes over the buffer's value itself (its uses and name) as its
    result: one assignment, where moving each use to a new value rewrites that
    user's operand tuple (17k uses of 7k buffers in a 20k-op decoder). From then on
    the value's owner is the new op; with `keep_owner` the uses move to the new
    op's own result instead, for a caller that still reads the allocation through
    the value (a plan report)."""
    value = op.results[0]
    last = new_ops[-1]
    (fresh,) = last.results
    assert fresh.first_use is None and (fresh.type is value.type or fresh.type == value.type)
    insert_new_ops(new_ops, op)
    if keep_owner:
        value.replace_all_uses_with(fresh)
    else:
        value.op = last
        last.results = SSAValues((value,))
        op.results = SSAValues()
    erase_unused(op)
    for free, _ in frees:
        erase_unused(free)


def describe_buffer(value: SSAValue) -> str:
    """`%name (allocated at line:col)`, for remarks that name another buffer."""
    loc = location_of(value.owner) if isinstance(value.owner, Operation) else None
    name = f"%{value.name_hint}" if value.name_hint else "the buffer"
    return f"{name}" + (f" (allocated at {loc.line}:{loc.column})" if loc else "")


class RemarksUnderDebug:
    """For a pass with a `debug` option: `self._remark(op, message)` emits
    `<pass name>: message` as a remark on `op` when `debug` is set, so every memory
    pass explains itself the same way."""

    def _remark(self, op: Operation | None, message: str) -> None:
        if getattr(self, "debug", False):
            remark(op, f"{getattr(self, 'name')}: {message}")
