"""Verifying a module as `mlir-opt` does: op by op, plus the dominance xDSL skips.

One function, `verify_module`, used by memplan-opt (after parsing and after each
pass), by `memplan.parse`/`memplan.verify`, and by the fuzzer.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, OpResult

from memplan.diagnostics import Diagnostic, Location, UserError, location_of
from memplan.interfaces import GraphRegions, get_interface
from memplan.parsing import indexed_symbol_lookups, memoized_definition_checks
from memplan.printing import print_mlir

__all__ = ["verify_module"]


def verify_module(module: ModuleOp) -> None:
    """Verify `module` op by op, so a failure names the op that failed with its
    location, and check that every value is defined before its uses in a block;
    raise `UserError` (with MLIR's `see current operation` note) at the first op
    at fault."""
    positions: dict[Block, dict[Operation, int]] = {}
    with indexed_symbol_lookups(), memoized_definition_checks():
        _verify_ops(module, positions)


def _verify_ops(module: ModuleOp, positions: dict[Block, dict[Operation, int]]) -> None:
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except Exception as error:  # xDSL verifiers raise more than VerifyException
            message = str(error).strip() or type(error).__name__
            # Dialects often prefix the op already ("'hip.add' op ..."; xDSL "op ...").
            message = message.removeprefix(f"'{op.name}' op ").removeprefix("op ")
            failure = UserError(f"'{op.name}' op {message}", op=op)
            failure.notes = (_current_operation_note(op, failure.location),)
            raise failure from None
        _check_dominance(op, positions)


def _current_operation_note(op: Operation, location: Location | None) -> Diagnostic:
    """MLIR's `see current operation: ...`: the op as it is now, in generic form
    (it may differ from the source after passes)."""
    try:
        root = op
        while (parent := root.parent_op()) is not None:
            root = parent
        text = print_mlir(op, generic=True, names_from=root)
    except Exception:  # an op too broken to print still gets its error
        text = f'"{op.name}"(...)'
    return Diagnostic("note", f"see current operation: {text}", location)


def _check_dominance(op: Operation, positions: dict[Block, dict[Operation, int]]) -> None:
    """xDSL does not check that a value is defined before its use in a block (MLIR
    does); without this a use before the definition parses and runs on garbage."""
    for number, operand in enumerate(op.operands):
        if not isinstance(operand, OpResult):
            continue
        block = operand.op.parent_block()
        region = block.parent if block is not None else None
        if block is None or region is None or len(region.blocks) != 1:
            continue  # several blocks: the CFG decides, not the order
        if isinstance(region.parent, ModuleOp) or (
            region.parent is not None
            and get_interface(region.parent, GraphRegions) is not None
        ):
            continue  # a graph region
        user: Operation | None = op
        while user is not None and user.parent_block() is not block:
            user = user.parent_op()
        order = positions.get(block)
        if order is None:
            order = positions[block] = {o: i for i, o in enumerate(block.ops)}
        if user is None or order[user] <= order[operand.op]:
            raise UserError(
                f"'{op.name}' op operand #{number} does not dominate this use "
                f"(it is defined at {location_of(operand.op)})",
                op=op,
            )
