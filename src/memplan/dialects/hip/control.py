"""hip-ep's control-flow, graph and constant ops.

- `hip.loop` / `hip.if`: the runtime calls outlined body functions (by symbol)
  with the loop-carried or output buffers and the captured values. The device work
  in those bodies is invisible at the call site, so these ops declare
  `OutlinedBodies`: the ordering analysis takes every buffer passed to them as read
  and written there, on the host and on each context's stream the bodies are
  handed. Their own effects are hip-ep's: a write of each memref
  `iter_args`/`outs` operand and a read of each memref capture, so that no cleanup
  pass drops or merges them. A loop whose runtime reads its condition back
  declares that wait (`StreamSynchronization`, after its accesses); `hip.if`'s
  condition is a host value, read without waiting.
- `hip.miopen.graph`, `hip.hipblaslt.graph`: a single-block region of library ops,
  no terminator; `hip.hipdnn_graph_outline` an isolated single-block region ending
  in `hip.yield`.
- `hip.constant` (a tensor constant, inline or external) and `hip.get_constant`
  (its buffer at run time).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I64,
    AnyFloatConstr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FlatSymbolRefAttrConstr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
    i1,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.constraints import EqAttrConstraint
from xdsl.dialects.func import FuncOp
from xdsl.traits import (
    ConstantLike,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SingleBlockImplicitTerminator,
    SymbolTable,
    ensure_terminator,
)
from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.analysis.data_layout import alloc_size
from memplan.dialects.hip.base import TENSOR_OR_MEMREF, ContextType, op_prefix
from memplan.interfaces import (
    OperandEffects,
    OutlinedBodies,
    StreamSynchronization,
    buffer_operands_named,
)

__all__ = [
    "ConstantOp",
    "GetConstantOp",
    "HipDNNGraphOutlineOp",
    "HipblasltGraphOp",
    "IfOp",
    "LoopOp",
    "MiopenGraphOp",
    "YieldOp",
]


def _contexts(op: Operation) -> tuple[SSAValue, ...]:
    """The runtime contexts an outlined body receives (its own and any captured):
    the streams its kernels may be enqueued on."""
    return tuple(dict.fromkeys(v for v in op.operands if isinstance(v.type, ContextType)))


def _verify_body_functions(op: Operation) -> None:
    """hip-ep's symbol-use rule, checked after the op's own (as MLIR verifies symbol
    uses after ops): every outlined body names a `func.func`."""
    trait = op.get_trait(OutlinedBodies)
    assert trait is not None
    for field, callee in zip(trait.fields, trait.callees(op)):
        if not isinstance(SymbolTable.lookup_symbol(op, callee), FuncOp):
            raise VerifyException(
                f"{op_prefix(op)} {field} '{callee}' does not reference a func.func"
            )


def _verify_outlined_modes(op: Operation, count_name: str, count: int,
                           inits: tuple[SSAValue, ...], init_name: str) -> None:
    """hip-ep's loop/if rule: the declared count equals the inits; tensor-mode inits
    are returned (one result each, same type), memref-mode ones are written."""
    if count != len(inits):
        raise VerifyException(
            f"{op_prefix(op)} {count_name} ({count}) must equal the {init_name} operand "
            f"count ({len(inits)})"
        )
    tensor_mode = not inits or isinstance(inits[0].type, TensorType)
    if tensor_mode:
        if count != len(op.results):
            raise VerifyException(
                f"{op_prefix(op)} tensor mode: {count_name} ({count}) must equal the result "
                f"count ({len(op.results)})"
            )
        for i, (init, result) in enumerate(zip(inits, op.results)):
            if init.type != result.type:
                raise VerifyException(
                    f"{op_prefix(op)} result type #{i} ('{result.type}') must match "
                    f"{init_name} type #{i} ('{init.type}')"
                )
    elif op.results:
        raise VerifyException(
            f"{op_prefix(op)} memref mode must have zero results, got {len(op.results)}"
        )


def _reads_condition_back(op: Operation) -> bool:
    """The loop surely waits for its stream: it reads the condition back (no
    `cond_is_passthrough`) and runs at least once (a constant trip count of at least
    1, and an initial condition that is absent, meaning true, or a constant true)."""
    assert isinstance(op, LoopOp)
    if op.cond_is_passthrough is not None:
        return False
    trips = ConstantLike.get_constant_value(op.max_trip_count)
    if not isinstance(trips, IntegerAttr) or trips.value.data < 1:
        return False
    if op.cond_init is None:
        return True
    cond = ConstantLike.get_constant_value(op.cond_init)
    return isinstance(cond, IntegerAttr) and cond.value.data != 0


@irdl_op_definition
class LoopOp(IRDLOperation):
    """`hip.loop(%ctx, %trip_count (, %cond)?) (iter_args(..))? (captures(..))?
    (-> (..))? body @f attr-dict`: the runtime calls `@f` once per iteration.

    Without `cond_is_passthrough` hip-ep's runtime (`hipdnn_ep_run_loop`) waits for
    `%ctx`'s stream after every iteration to read the body's condition back, the
    last one included, so the stream is empty when the loop returns; with it (the
    counted loop) it never waits. A loop that runs no iteration (trip count 0, a
    false initial condition) does not wait either, so the wait is declared only
    when constants show that one iteration runs (`_reads_condition_back`).
    """

    name = "hip.loop"

    ctx = operand_def(ContextType)
    max_trip_count = operand_def(IndexType)
    cond_init = opt_operand_def(EqAttrConstraint(i1))
    v_init = var_operand_def(TENSOR_OR_MEMREF)
    captures = var_operand_def()
    body_func = prop_def(FlatSymbolRefAttrConstr)
    num_loop_carried = prop_def(IntegerAttr.constr(type=EqAttrConstraint(IntegerType(32))))
    cond_is_passthrough = opt_prop_def(UnitAttr)
    v_final = var_result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(
        OutlinedBodies(("body_func",), _contexts),
        OperandEffects(reads=buffer_operands_named("captures"), writes=buffer_operands_named("v_init")),
        StreamSynchronization(0, after_accesses=True, when=_reads_condition_back),
    )
    assembly_format = (
        "`(` $ctx `,` $max_trip_count (`,` $cond_init^)? `)`"
        " (`iter_args` `(` $v_init^ `:` type($v_init) `)`)?"
        " (`captures` `(` $captures^ `:` type($captures) `)`)?"
        " (`->` `(` type($v_final)^ `)`)?"
        " `body` $body_func attr-dict"
    )

    def verify_(self) -> None:
        _verify_outlined_modes(
            self, "num_loop_carried", self.num_loop_carried.value.data, tuple(self.v_init),
            "v_init",
        )
        _verify_body_functions(self)


@irdl_op_definition
class IfOp(IRDLOperation):
    """`hip.if(%ctx, %cond) (outs(..))? (captures(..))? (-> (..))? then @t else @e
    attr-dict`: the runtime calls one of the two functions."""

    name = "hip.if"

    ctx = operand_def(ContextType)
    cond = operand_def(EqAttrConstraint(i1))
    o_init = var_operand_def(TENSOR_OR_MEMREF)
    captures = var_operand_def()
    then_func = prop_def(FlatSymbolRefAttrConstr)
    else_func = prop_def(FlatSymbolRefAttrConstr)
    num_outputs = prop_def(IntegerAttr.constr(type=EqAttrConstraint(IntegerType(32))))
    outputs = var_result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(
        OutlinedBodies(("then_func", "else_func"), _contexts),
        OperandEffects(reads=buffer_operands_named("captures"), writes=buffer_operands_named("o_init")),
    )
    assembly_format = (
        "`(` $ctx `,` $cond `)`"
        " (`outs` `(` $o_init^ `:` type($o_init) `)`)?"
        " (`captures` `(` $captures^ `:` type($captures) `)`)?"
        " (`->` `(` type($outputs)^ `)`)?"
        " `then` $then_func `else` $else_func attr-dict"
    )

    def verify_(self) -> None:
        _verify_outlined_modes(
            self, "num_outputs", self.num_outputs.value.data, tuple(self.o_init), "o_init"
        )
        _verify_body_functions(self)


class _LibraryGraphOp(IRDLOperation):
    """A single block of library ops handed to one library call, no terminator. As
    hip-ep's `SizedRegion<1>`, the region may also be empty (`{\n}`)."""

    body = region_def()

    traits = traits_def(NoTerminator())

    def __init__(self, body: Region, attributes=None):
        super().__init__(regions=(body,), attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> _LibraryGraphOp:
        """`$body attr-dict`; an empty body gets its one (empty) block, as MLIR's
        parser gives a `SingleBlock` op's region."""
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        return cls(body, parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        body = self.body
        if len(body.blocks) == 1 and not body.block.ops and not body.block.args:
            body = Region()  # `{` and `}` on their own lines, as MLIR prints an empty block
        printer.print_region(body, print_entry_block_args=False, print_block_terminators=True)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if len(self.body.blocks) > 1:
            raise VerifyException(
                f"{op_prefix(self)} region #0 ('body') failed to verify constraint: region "
                "with at most 1 blocks"
            )


@irdl_op_definition
class MiopenGraphOp(_LibraryGraphOp):
    """`hip.miopen.graph { .. }`: a MIOpen fusion graph."""

    name = "hip.miopen.graph"


@irdl_op_definition
class HipblasltGraphOp(_LibraryGraphOp):
    """`hip.hipblaslt.graph { .. }`: a hipBLASLt epilogue graph."""

    name = "hip.hipblaslt.graph"


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`hip.yield %v : tensor<..>`: the terminator of `hip.hipdnn_graph_outline`."""

    name = "hip.yield"

    values = var_operand_def(TensorType)

    traits = lazy_traits_def(lambda: (Pure(), IsTerminator(), HasParent(HipDNNGraphOutlineOp)))
    assembly_format = "($values^ `:` type($values))? attr-dict"


@irdl_op_definition
class HipDNNGraphOutlineOp(IRDLOperation):
    """`%r = hip.hipdnn_graph_outline ins(%x : tensor<..>) -> tensor<..> { .. }`: tensor
    ops to be compiled into one hipDNN graph (later `hip.hipdnn_graph`); an
    isolated region ending in `hip.yield`."""

    name = "hip.hipdnn_graph_outline"

    inputs = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    body = region_def("single_block")

    traits = traits_def(
        IsolatedFromAbove(), SingleBlockImplicitTerminator(YieldOp)
    )

    def __init__(self, inputs, result_types, body: Region, attributes=None):
        super().__init__(operands=(inputs,), result_types=(result_types,), regions=(body,),
                         attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> HipDNNGraphOutlineOp:
        """hip-ep's format `ins ( $inputs : type($inputs) ) -> type($results) $body
        attr-dict`; a body without its terminator gets a result-less `hip.yield`."""
        parser.parse_keyword("ins")
        parser.parse_punctuation("(")
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        inputs = parser.resolve_operands(names, types, parser.pos)
        parser.parse_punctuation("->")
        results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        body = parser.parse_region()
        op = cls(inputs, results, body, parser.parse_optional_attr_dict())
        ensure_terminator(op, SingleBlockImplicitTerminator(YieldOp))
        return op

    def print(self, printer: Printer) -> None:
        """The format's text, leaving out a `hip.yield` without operands or
        attributes, as MLIR prints a region whose terminator is implicit."""
        printer.print_string(" ins(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.inputs], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_list([r.type for r in self.results], printer.print_attribute)
        printer.print_string(" ")
        last = self.body.block.last_op if self.body.blocks else None
        elide = isinstance(last, YieldOp) and not last.operands and not last.attributes
        printer.print_region(self.body, print_entry_block_args=True, print_block_terminators=not elide)
        printer.print_op_attributes(self.attributes)


_ELEMENT_BITS = {1, 8, 16, 32, 64}
_FLOATS = (Float16Type, BFloat16Type, Float32Type, Float64Type)
"""The float element types hip-ep's constants may hold. hip-ep sizes an element as
ceil(bits / 8); for these and the integer widths above that is the data layout's
alloc size, so the one size rule (`alloc_size`) gives hip-ep's byte sizes."""
_INT64_MAX = 2**63 - 1


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`%w = hip.constant {value = dense<..> : tensor<..>} : tensor<..>`, or with an
    external source (`location`, `offset`, `size`, or `memory_address`, `size`).
    Pure."""

    name = "hip.constant"

    value = opt_prop_def(base(DenseIntOrFPElementsAttr) | base(DenseResourceAttr))
    source_location = opt_prop_def(StringAttr, prop_name="location")
    offset = opt_prop_def(IntegerAttr[I64])
    memory_address = opt_prop_def(IntegerAttr[I64])
    size = opt_prop_def(IntegerAttr[I64])
    symbol_name_hint = opt_prop_def(StringAttr)
    source_name = opt_prop_def(StringAttr)
    serialization_order = opt_prop_def(IntegerAttr[I64])
    result = result_def(TensorType)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, TensorType)
        where = op_prefix(self)
        if any(d < 0 for d in t.get_shape()):
            raise VerifyException(f"{where} requires a statically shaped ranked tensor result")
        element = t.element_type
        if isinstance(element, IntegerType):
            if element.width.data not in _ELEMENT_BITS:
                raise VerifyException(f"{where} has unsupported integer element type '{element}'")
        elif isinstance(element, _FLOATS):
            pass
        elif AnyFloatConstr.verifies(element):
            raise VerifyException(f"{where} has unsupported floating-point element type '{element}'")
        else:
            raise VerifyException(f"{where} has unsupported element type '{element}'")
        count = 1
        for d in t.get_shape():
            count *= d
        if count > _INT64_MAX:
            raise VerifyException(f"{where} result element count overflows int64")
        element_bytes = alloc_size(element)
        assert element_bytes is not None
        expected = count * element_bytes
        if expected > _INT64_MAX:
            raise VerifyException(f"{where} result byte size overflows int64")
        if self.serialization_order is not None and self.serialization_order.value.data < 0:
            raise VerifyException(f"{where} serialization order must be non-negative")
        if self.value is not None:
            if any(a is not None for a in (self.source_location, self.offset,
                                           self.memory_address, self.size)):
                raise VerifyException(f"{where} inline source must contain only `value`")
            if isinstance(self.value, DenseResourceAttr):
                raise VerifyException(f"{where} inline `value` must be a DenseElementsAttr")
            if self.value.type != t:
                raise VerifyException(
                    f"{where} inline `value` type '{self.value.type}' does not match result "
                    f"type '{t}'"
                )
            return
        file_source = self.source_location is not None or self.offset is not None
        memory_source = self.memory_address is not None
        if file_source and memory_source:
            raise VerifyException(f"{where} file and memory sources are mutually exclusive")
        if not file_source and not memory_source and self.size is None:
            raise VerifyException(
                f"{where} requires exactly one source: `value`, complete file source, or "
                "complete memory source"
            )
        if file_source and (self.source_location is None or self.offset is None or self.size is None):
            raise VerifyException(
                f"{where} external source requires `location`, `offset`, and `size` together"
            )
        if memory_source and self.size is None:
            raise VerifyException(
                f"{where} memory source requires `memory_address` and `size` together"
            )
        if not file_source and not memory_source:
            raise VerifyException(f"{where} external source requires a file location or memory address")
        size = self.size.value.data
        if size <= 0:
            raise VerifyException(f"{where} external source `size` must be positive")
        if size != expected:
            raise VerifyException(
                f"{where} external source byte size {size} does not match result byte size {expected}"
            )
        if memory_source:
            if self.memory_address.value.data == 0:
                raise VerifyException(f"{where} memory-address source has null address")
            return
        offset = self.offset.value.data
        if not self.source_location.data:
            raise VerifyException(f"{where} external source `location` must not be empty")
        if offset < 0:
            raise VerifyException(f"{where} file source `offset` must be non-negative")
        if offset > _INT64_MAX - size:
            raise VerifyException(f"{where} file source range overflows int64")


@irdl_op_definition
class GetConstantOp(IRDLOperation):
    """`%c = hip.get_constant(%ctx, %index) : memref<..>`: the runtime's buffer of
    constant number `%index`. hip-ep declares a READ of the result (the bytes
    exist before the op), so it is never merged across writes; the buffer is the
    runtime's, never planned."""

    name = "hip.get_constant"

    ctx = operand_def(ContextType)
    index = operand_def(EqAttrConstraint(IntegerType(64)))
    result = result_def(MemRefType)

    traits = traits_def(OperandEffects(reads=lambda op: tuple(op.results)))
    assembly_format = "`(` $ctx `,` $index `)` attr-dict `:` type($result)"
