"""memref ops that xDSL 0.75 does not define: `reshape`, `transpose`, `realloc`.

Their syntax, verifiers and effects follow MLIR's `MemRefOps.td`, with one
deliberate difference: MLIR marks `memref.reshape` Pure although its result's shape
is the *contents* of the shape buffer; memplan declares that it reads the shape
operand, so CSE never merges two reshapes across a store to their shape.

- `memref.reshape %src(%shape) : (memref<*xf32>, memref<?xindex>) -> memref<*xf32>`:
  a view of `%src` (ViewLike) with the shape stored in `%shape`.
- `memref.transpose %m (d0, d1) -> (d1, d0) : memref<?x?xf32> to memref<?x?xf32,
  strided<[1, ?]>>`: a view of `%m` with permuted sizes and strides.
- `memref.realloc %src(%size)? : memref<2xf32> to memref<4xf32>`: a fresh buffer
  holding `%src`'s elements; it reads and frees `%src` and allocates its result.
"""

from __future__ import annotations

from io import StringIO
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StridedLayoutAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.bitwise_casts import is_power_of_two
from xdsl.utils.exceptions import VerifyException

from memplan.analysis.memref_layout import (
    affine_map_text,
    is_identity_layout,
    strides_and_offset,
)
from memplan.printing.naming import FixedResultNames
from memplan.interfaces import OperandEffects, ViewLike, all_results, operands_named

__all__ = ["ReallocOp", "ReshapeOp", "TransposeOp", "transposed_type"]

_AnyMemRef = base(MemRefType) | base(UnrankedMemRefType)


def _memory_space(t: Attribute) -> Attribute:
    return cast(MemRefType | UnrankedMemRefType, t).memory_space


def _element_type(t: Attribute) -> Attribute:
    return cast(MemRefType | UnrankedMemRefType, t).element_type


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """`memref.reshape %src(%shape) : (memref<4x4xf32>, memref<1xindex>) ->
    memref<16xf32>`."""

    name = "memref.reshape"

    source = operand_def(_AnyMemRef)
    shape = operand_def(MemRefType)
    result = result_def(_AnyMemRef)

    traits = traits_def(
        ViewLike(0),
        OperandEffects(reads=operands_named("shape")),
        FixedResultNames(("reshape",)),
    )

    assembly_format = (
        "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, source: SSAValue, shape: SSAValue, result_type: Attribute):
        super().__init__(operands=[source, shape], result_types=[result_type])

    def verify_(self) -> None:
        src, shape, res = self.source.type, self.shape.type, self.result.type
        if _element_type(src) != _element_type(res):
            raise VerifyException(
                "element types of source and destination memref types should be the same"
            )
        if _memory_space(src) != _memory_space(res):
            raise VerifyException(
                "source and destination memref types should have the same memory space"
            )
        if isinstance(src, MemRefType) and not is_identity_layout(
            src.layout, src.get_num_dims()
        ):
            raise VerifyException("source memref type should have identity affine map")
        assert isinstance(shape, MemRefType)
        if shape.get_num_dims() != 1 or not isinstance(
            shape.element_type, IntegerType | IndexType
        ):
            raise VerifyException(
                "operand #1 must be 1D memref of signless integer or index values"
            )
        length = shape.get_shape()[0]
        if isinstance(res, MemRefType):
            if not is_identity_layout(res.layout, res.get_num_dims()):
                raise VerifyException(
                    "result memref type should have identity affine map"
                )
            if length == DYNAMIC_INDEX:
                raise VerifyException(
                    "cannot use shape operand with dynamic length to reshape to "
                    "statically-ranked memref type"
                )
            if length != res.get_num_dims():
                raise VerifyException(
                    "length of shape operand differs from the result's memref rank"
                )


def transposed_type(source: MemRefType, permutation: AffineMap) -> MemRefType | None:
    """The type MLIR gives `memref.transpose` of `source`: sizes and strides
    permuted, same offset, as a strided layout. None for a layout that is not
    strided."""
    layout = strides_and_offset(source)
    if layout is None:
        return None
    strides, offset = layout
    order = [cast(AffineDimExpr, e).position for e in permutation.results]
    shape = source.get_shape()
    return MemRefType(
        source.element_type,
        [shape[i] for i in order],
        StridedLayoutAttr(
            [None if strides[i] == DYNAMIC_INDEX else strides[i] for i in order],
            None if offset == DYNAMIC_INDEX else offset,
        ),
        source.memory_space,
    )


def _is_permutation(amap: AffineMap) -> bool:
    results = amap.results
    return (
        amap.num_symbols == 0
        and len(results) == amap.num_dims
        and all(isinstance(e, AffineDimExpr) for e in results)
        and sorted(cast(AffineDimExpr, e).position for e in results)
        == list(range(amap.num_dims))
    )


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to
    memref<8x4xf32, strided<[1, 8]>>`."""

    name = "memref.transpose"

    in_ = operand_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    result = result_def(MemRefType)

    traits = traits_def(ViewLike(0), NoMemoryEffect(), FixedResultNames(("transpose",)))

    def __init__(self, source: SSAValue, permutation: AffineMap, result_type: Attribute):
        super().__init__(
            operands=[source],
            result_types=[result_type],
            properties={"permutation": AffineMapAttr(permutation)},
        )

    def verify_(self) -> None:
        amap = self.permutation.data
        src = cast(MemRefType, self.in_.type)
        res = cast(MemRefType, self.result.type)
        if not _is_permutation(amap):
            raise VerifyException("expected a permutation map")
        if amap.num_dims != src.get_num_dims():
            raise VerifyException("expected a permutation map of same rank as the input")
        if src.element_type != res.element_type or src.memory_space != res.memory_space:
            raise VerifyException(
                "result type and input type differ in element type or memory space"
            )
        expected = transposed_type(src, amap)
        if expected is None:
            return  # an opaque layout: nothing memplan can compare
        if expected.get_shape() != res.get_shape():
            raise VerifyException(
                "result type is not equivalent to the canonical transposed input type"
            )
        actual = strides_and_offset(res)
        if actual is not None and actual != strides_and_offset(expected):
            raise VerifyException(
                "result type is not equivalent to the canonical transposed input type"
            )

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        unresolved = parser.parse_unresolved_operand()
        amap = parser.parse_affine_map()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        source = parser.resolve_operand(unresolved, source_type)
        op = cls(source, amap, result_type)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.in_)
        printer.print_string(" " + affine_map_text(self.permutation.data))
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.in_.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ReallocOp(IRDLOperation):
    """`memref.realloc %src : memref<2xf32> to memref<4xf32>`, with `(%size)` when
    the result's size is dynamic."""

    name = "memref.realloc"

    source = operand_def(MemRefType)
    dynamic_result_size = opt_operand_def(IndexType)
    alignment = opt_prop_def(IntegerAttr)
    result = result_def(MemRefType)

    traits = traits_def(
        OperandEffects(
            reads=operands_named("source"),
            frees=operands_named("source"),
            allocates=all_results,
        )
    )

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = (
        "$source (`(` $dynamic_result_size^ `)`)? attr-dict `:` type($source) "
        "`to` type(results)"
    )

    def verify_(self) -> None:
        src = cast(MemRefType, self.source.type)
        res = cast(MemRefType, self.result.type)
        if src.get_num_dims() != 1 or res.get_num_dims() != 1:
            raise VerifyException("expects 1-D memrefs")
        if src.element_type != res.element_type:
            raise VerifyException(
                "different element types are specified for source and result"
            )
        if src.memory_space != res.memory_space:
            raise VerifyException(
                "different memory spaces specified for source and result"
            )
        for t, which in ((src, "source"), (res, "result")):
            if not is_identity_layout(t.layout, 1):
                raise VerifyException(f"unsupported layout for {which} memref type")
        dynamic = res.get_shape()[0] == DYNAMIC_INDEX
        if dynamic and self.dynamic_result_size is None:
            raise VerifyException(
                f"missing dimension operand for result type '{_text(res)}'"
            )
        if not dynamic and self.dynamic_result_size is not None:
            raise VerifyException("unnecessary dimension operand")
        if self.alignment is not None:
            value = cast(IntegerAttr, self.alignment).value.data
            if value <= 0 or not is_power_of_two(value):
                raise VerifyException("alignment must be a positive power of 2")


def _text(attr: Attribute) -> str:
    """`attr` as MLIR prints it, for diagnostics that quote types."""
    from memplan.printing.builtin_syntax import MlirBuiltinPrinter

    out = StringIO()
    MlirBuiltinPrinter(stream=out).print_attribute(attr)
    return out.getvalue()


NEW_OPS: tuple[type[Operation], ...] = (ReshapeOp, TransposeOp, ReallocOp)
"""The ops memplan adds to xDSL's memref dialect."""
