"""xDSL's `memref` dialect with MLIR's custom syntax for every op memplan reads.

xDSL 0.75 reads and prints `memref.cast`, `memref.copy`, `memref.global`,
`memref.memory_space_cast`, `memref.rank`, `memref.atomic_rmw` and
`memref.extract_aligned_pointer_as_index` only in generic form, and prints the
reassociation of `expand_shape`/`collapse_shape` as `[[0 : i64, 1 : i64]]`. The peers'
dumps (hip-ep, IREE, `mlir-opt`) use MLIR's custom syntax, so memplan-opt must read
and print it exactly.

Each replaced op subclasses xDSL's class under the same name: `isinstance` checks
against `xdsl.dialects.memref`, xDSL's patterns, and the external interface models of
`memplan.dialects.mlir.upstream_models` (looked up along the MRO) keep working. Where
xDSL's verifier is missing or stricter than MLIR's (cast compatibility, copy between
a static and a dynamic shape, reshape groups, global initial values), the subclass
checks what MLIR checks, with MLIR's messages.

Each subclass redeclares all of its operands, results and properties, in xDSL's
order: IRDL collects definitions from every class of the MRO, and in an already
defined xDSL class they have become accessors it rejects. Each also defines its
own `verify_`, because the inherited one runs xDSL's definition as well.

`MemRefMlirSyntax` is the resulting dialect; `memplan.context.make_context()`
registers it in place of xDSL's `memref`. Ops built by code that instantiates xDSL's
classes directly still print generically; `adopt_mlir_syntax` swaps them for these
subclasses before printing. `memplan.printing.builtin_syntax` fixes what xDSL's
builtin printing does differently in memref types and float literals.

`alloc`, `store`, `dealloc` and `subview` are subclassed only to be read faster: they
keep xDSL's definition and printing, and fall back to xDSL's parser.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from math import prod
from typing import ClassVar, cast

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    AnyFloatConstr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    IndexType,
    NoneAttr,
    SignlessIntegerConstraint,
    StridedLayoutAttr,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    i64,
)
from xdsl.dialects.utils import DynamicIndexList, verify_dynamic_index_list
from xdsl.dialects.utils.reshape_ops_utils import ContiguousArrayOfIntArray
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import (
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.parser.base_parser import BaseParser
from xdsl.printer import Printer
from xdsl.rewriter import Rewriter
from xdsl.utils.bitwise_casts import is_power_of_two
from xdsl.utils.exceptions import VerifyException

from memplan.analysis.memref_layout import strides_and_offset
from memplan.dialects.mlir.memref_ops import NEW_OPS, _text  # pyright: ignore[reportPrivateUsage]
from memplan.parsing import SSA_USE, TypeCachingParser

__all__ = [
    "ATOMIC_RMW_KINDS",
    "AtomicRMWOp",
    "CastOp",
    "CollapseShapeOp",
    "CopyOp",
    "ExpandShapeOp",
    "ExtractAlignedPointerAsIndexOp",
    "GlobalOp",
    "MemRefMlirSyntax",
    "MemorySpaceCastOp",
    "RankOp",
    "adopt_mlir_syntax",
    "memory_space_cast_compatible",
    "memref_cast_compatible",
]

_AnyMemRef = base(MemRefType) | base(UnrankedMemRefType)

# ---------------------------------------------------------------------------------
# Type compatibility, as MLIR's verifiers define it
# ---------------------------------------------------------------------------------


def _dims_compatible(a: int, b: int) -> bool:
    return a == DYNAMIC_INDEX or b == DYNAMIC_INDEX or a == b


def _strides_and_offset(t: MemRefType) -> tuple[list[int | None], int | None] | None:
    """Strides and offset of a strided layout, None entries dynamic; None for a
    layout that is not strided (`memplan.analysis.memref_layout`)."""
    layout = strides_and_offset(t)
    if layout is None:
        return None
    strides, offset = layout
    return (
        [None if s == DYNAMIC_INDEX else s for s in strides],
        None if offset == DYNAMIC_INDEX else offset,
    )


def _optional_dims_compatible(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a == b


def memref_cast_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's `memref::CastOp::areCastCompatible`.

    Ranked to ranked: same element type and memory space, same rank, static sizes,
    strides and offset equal wherever both are static. Ranked to unranked or back:
    same element type and memory space. Unranked to unranked is not a cast.
    """
    if isinstance(a, MemRefType) and isinstance(b, MemRefType):
        if a.element_type != b.element_type or a.memory_space != b.memory_space:
            return False
        if a.layout != b.layout:
            sa, sb = _strides_and_offset(a), _strides_and_offset(b)
            if sa is None or sb is None or len(sa[0]) != len(sb[0]):
                return False
            if not _optional_dims_compatible(sa[1], sb[1]):
                return False
            if not all(map(_optional_dims_compatible, sa[0], sb[0])):
                return False
        if a.get_num_dims() != b.get_num_dims():
            return False
        return all(map(_dims_compatible, a.get_shape(), b.get_shape()))
    if isinstance(a, UnrankedMemRefType) and isinstance(b, UnrankedMemRefType):
        return False
    if not isinstance(a, MemRefType | UnrankedMemRefType) or not isinstance(
        b, MemRefType | UnrankedMemRefType
    ):
        return False
    return a.element_type == b.element_type and a.memory_space == b.memory_space


def memory_space_cast_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's `memref::MemorySpaceCastOp::areCastCompatible`: only the memory space
    may change; shape, layout and element type stay, ranked stays ranked."""
    if isinstance(a, MemRefType) and isinstance(b, MemRefType):
        return (
            a.element_type == b.element_type
            and a.layout == b.layout
            and a.get_shape() == b.get_shape()
        )
    if isinstance(a, UnrankedMemRefType) and isinstance(b, UnrankedMemRefType):
        return a.element_type == b.element_type
    return False


def _shapes_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's `verifyCompatibleShapes` for two memrefs: an unranked one fits any."""
    if not isinstance(a, MemRefType) or not isinstance(b, MemRefType):
        return True
    return a.get_num_dims() == b.get_num_dims() and all(
        map(_dims_compatible, a.get_shape(), b.get_shape())
    )


# ---------------------------------------------------------------------------------
# Casts and copies
# ---------------------------------------------------------------------------------


@irdl_op_definition
class CastOp(xmemref.CastOp):
    """`memref.cast %v : memref<4xf32> to memref<?xf32>`."""

    name = "memref.cast"

    source = operand_def(_AnyMemRef)
    dest = result_def(_AnyMemRef)

    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def verify_(self) -> None:
        if not memref_cast_compatible(self.source.type, self.dest.type):
            raise VerifyException(
                f"operand type '{_text(self.source.type)}' and result type "
                f"'{_text(self.dest.type)}' are cast incompatible"
            )


@irdl_op_definition
class MemorySpaceCastOp(xmemref.MemorySpaceCastOp):
    """`memref.memory_space_cast %v : memref<4xf32> to memref<4xf32, 1>`."""

    name = "memref.memory_space_cast"

    source = operand_def(_AnyMemRef)
    dest = result_def(_AnyMemRef)

    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def verify_(self) -> None:
        # Replaces xDSL's check, which crashes on unranked memrefs and ignores layout.
        if not memory_space_cast_compatible(self.source.type, self.dest.type):
            raise VerifyException(
                f"operand type '{_text(self.source.type)}' and result type "
                f"'{_text(self.dest.type)}' are cast incompatible"
            )


@irdl_op_definition
class CopyOp(xmemref.CopyOp):
    """`memref.copy %a, %b : memref<4xf32> to memref<?xf32>`.

    MLIR accepts unranked operands and shapes that are merely compatible (a static
    size against a dynamic one); xDSL requires equal ranked shapes, which rejects
    copies `mlir-opt` writes itself.
    """

    name = "memref.copy"

    source = operand_def(_AnyMemRef)
    destination = operand_def(_AnyMemRef)

    assembly_format = (
        "$source `,` $destination attr-dict `:` type($source) `to` type($destination)"
    )

    def verify_(self) -> None:
        src, dst = self.source.type, self.destination.type
        assert isinstance(src, MemRefType | UnrankedMemRefType)
        assert isinstance(dst, MemRefType | UnrankedMemRefType)
        if src.element_type != dst.element_type:
            raise VerifyException("requires the same element type for all operands")
        if not _shapes_compatible(src, dst):
            raise VerifyException("requires the same shape for all operands")


@irdl_op_definition
class RankOp(xmemref.RankOp):
    """`memref.rank %v : memref<*xf32>` (MLIR also accepts unranked memrefs)."""

    name = "memref.rank"

    source = operand_def(_AnyMemRef)
    rank = result_def(IndexType)

    assembly_format = "$source attr-dict `:` type($source)"

    def verify_(self) -> None:
        """Nothing beyond the operand and result types (xDSL's inherited check
        would reject the unranked memrefs MLIR accepts)."""


@irdl_op_definition
class ExtractAlignedPointerAsIndexOp(xmemref.ExtractAlignedPointerAsIndexOp):
    """`memref.extract_aligned_pointer_as_index %v : memref<4xf32> -> index`."""

    name = "memref.extract_aligned_pointer_as_index"

    source = operand_def(_AnyMemRef)
    aligned_pointer = result_def(IndexType)

    assembly_format = "$source `:` type($source) `->` type(results) attr-dict"

    def verify_(self) -> None:
        """Nothing beyond the operand and result types (xDSL's inherited check
        would reject the unranked memrefs MLIR accepts)."""


# ---------------------------------------------------------------------------------
# atomic_rmw
# ---------------------------------------------------------------------------------

ATOMIC_RMW_KINDS: tuple[str, ...] = (
    "addf",
    "addi",
    "andi",
    "assign",
    "maximumf",
    "maxnumf",
    "maxs",
    "maxu",
    "minimumf",
    "minnumf",
    "mins",
    "minu",
    "mulf",
    "muli",
    "ori",
    "xori",
)
"""MLIR's `arith::AtomicRMWKind`, in enum order: the index is the `kind` value."""

_FLOAT_KINDS = frozenset(
    {"addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"}
)
_INTEGER_KINDS = frozenset(
    {"addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori"}
)


@irdl_custom_directive
class AtomicRMWKindKeyword(CustomDirective):
    """The `kind` property as MLIR's keyword (`addf`), stored as its enum value."""

    kind: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        keyword = parser.parse_optional_keyword_in(ATOMIC_RMW_KINDS)
        if keyword is None:
            parser.raise_error(
                f"expected an atomic_rmw kind, one of {', '.join(ATOMIC_RMW_KINDS)}",
                pos,
            )
        self.kind.set(state, IntegerAttr(ATOMIC_RMW_KINDS.index(keyword), i64))

    def print(self, printer: Printer, state: PrintingState, op: Operation) -> None:
        state.print_whitespace(printer)
        kind = self.kind.get(op)  # pyright: ignore[reportArgumentType]
        assert isinstance(kind, IntegerAttr)
        printer.print_string(ATOMIC_RMW_KINDS[kind.value.data])

    def is_present(self, op: Operation) -> bool:
        return True


@irdl_op_definition
class AtomicRMWOp(xmemref.AtomicRMWOp):
    """`memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32`."""

    name = "memref.atomic_rmw"

    T: ClassVar = VarConstraint("T", AnyFloatConstr | SignlessIntegerConstraint)

    value = operand_def(T)
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    kind = prop_def(IntegerAttr[I64])
    result = result_def(T)

    assembly_format = (
        "custom<AtomicRMWKindKeyword>($kind) $value `,` $memref `[` $indices `]` "
        "attr-dict `:` `(` type($value) `,` type($memref) `)` `->` type($result)"
    )
    custom_directives = (AtomicRMWKindKeyword,)

    def verify_(self) -> None:
        memref_type = cast(MemRefType, self.memref.type)
        if memref_type.get_num_dims() != len(self.indices):
            raise VerifyException(
                "expects the number of subscripts to be equal to memref rank"
            )
        index = self.kind.value.data
        if not 0 <= index < len(ATOMIC_RMW_KINDS):
            raise VerifyException(f"unknown atomic_rmw kind {index}")
        kind = ATOMIC_RMW_KINDS[index]
        value_type = self.value.type
        if kind in _FLOAT_KINDS and isinstance(value_type, IntegerType):
            raise VerifyException(f"with kind '{kind}' expects a floating-point type")
        if kind in _INTEGER_KINDS and not isinstance(value_type, IntegerType):
            raise VerifyException(f"with kind '{kind}' expects an integer type")


# ---------------------------------------------------------------------------------
# expand_shape / collapse_shape
# ---------------------------------------------------------------------------------


@irdl_custom_directive
class Reassociation(CustomDirective):
    """`[[0, 1], [2]]`: MLIR prints the indices without types. xDSL's own form,
    `[[0 : i64, 1 : i64], [2 : i64]]`, is accepted too."""

    reassociation: AttributeVariable

    @staticmethod
    def _parse_index(parser: Parser) -> IntegerAttr:
        value = parser.parse_integer(allow_boolean=False, allow_negative=False)
        if parser.parse_optional_punctuation(":") is not None:
            pos = parser.pos
            if parser.parse_type() != i64:
                parser.raise_error("reassociation indices must be i64", pos)
        return IntegerAttr(value, i64)

    def parse(self, parser: Parser, state: ParsingState) -> None:
        groups = parser.parse_comma_separated_list(
            BaseParser.Delimiter.SQUARE,
            lambda: ArrayAttr(
                parser.parse_comma_separated_list(
                    BaseParser.Delimiter.SQUARE, lambda: self._parse_index(parser)
                )
            ),
        )
        self.reassociation.set(state, ArrayAttr(groups))

    def print(self, printer: Printer, state: PrintingState, op: Operation) -> None:
        state.print_whitespace(printer)
        attr = self.reassociation.get(op)  # pyright: ignore[reportArgumentType]
        assert isinstance(attr, ArrayAttr)
        groups = cast(ArrayAttr[ArrayAttr[IntegerAttr]], attr)
        printer.print_string(
            "["
            + ", ".join(
                "[" + ", ".join(str(i.value.data) for i in group) + "]"
                for group in groups
            )
            + "]"
        )

    def is_present(self, op: Operation) -> bool:
        return True


def _verify_reassociation(
    collapsed: MemRefType, expanded: MemRefType, groups: ArrayAttr[ArrayAttr[IntegerAttr]]
) -> None:
    """MLIR's reshape checks: one group per collapsed dim covering the expanded dims
    in order, and each collapsed size equal to the product of its group."""
    collapsed_rank, expanded_rank = collapsed.get_num_dims(), expanded.get_num_dims()
    if collapsed_rank == 0:
        if len(groups) != 0:
            raise VerifyException("expected an empty reassociation for a rank-0 memref")
        if any(d != 1 for d in expanded.get_shape()):
            raise VerifyException("expected all unit dims when reshaping to rank 0")
        return
    if len(groups) != collapsed_rank:
        raise VerifyException(
            f"expected collapsed rank ({collapsed_rank}) to equal the number of "
            f"reassociation maps ({len(groups)})"
        )
    flat = [i.value.data for group in groups for i in group]
    if flat != list(range(expanded_rank)):
        raise VerifyException(
            f"expected reassociation map #{len(groups) - 1} to be valid and contiguous"
            if flat
            else "expected non-empty reassociation groups"
        )
    expanded_shape = expanded.get_shape()
    for dim, group in enumerate(groups):
        sizes = [expanded_shape[i.value.data] for i in group]
        collapsed_size = collapsed.get_shape()[dim]
        if DYNAMIC_INDEX in sizes:
            if collapsed_size != DYNAMIC_INDEX:
                raise VerifyException(
                    f"collapsed dim ({dim}) must be dynamic if and only if "
                    "reassociation group is dynamic"
                )
        elif collapsed_size != prod(sizes):
            raise VerifyException(
                f"collapsed dim size ({collapsed_size}) must equal reassociation "
                f"group size ({prod(sizes)})"
            )


@irdl_op_definition
class CollapseShapeOp(xmemref.CollapseShapeOp):
    """`memref.collapse_shape %a [[0, 1]] : memref<4x8xf32> into memref<32xf32>`."""

    name = "memref.collapse_shape"

    src = operand_def(MemRefType)
    result = result_def(MemRefType)
    reassociation = prop_def(ContiguousArrayOfIntArray())

    # xDSL's class has a format: reset the inherited parse/print so that IRDL
    # accepts a new format instead of seeing hand-written methods.
    parse = classmethod(Operation.parse.__func__)
    print = Operation.print

    assembly_format = (
        "$src custom<Reassociation>($reassociation) attr-dict `:` type($src) "
        "`into` type($result)"
    )
    custom_directives = (Reassociation,)

    def verify_(self) -> None:
        _verify_reassociation(
            cast(MemRefType, self.result.type),
            cast(MemRefType, self.src.type),
            self.reassociation,
        )


@irdl_op_definition
class ExpandShapeOp(xmemref.ExpandShapeOp):
    """`memref.expand_shape %a [[0, 1], [2]] output_shape [%d, 4, 8] :
    memref<?x8xf32> into memref<?x4x8xf32>`."""

    name = "memref.expand_shape"

    src = operand_def(MemRefType)
    output_shape = var_operand_def(IndexType)
    result = result_def(MemRefType)
    reassociation = prop_def(ContiguousArrayOfIntArray())
    static_output_shape = prop_def(DenseArrayBase.constr(i64))

    parse = classmethod(Operation.parse.__func__)
    print = Operation.print

    assembly_format = (
        "$src custom<Reassociation>($reassociation) `output_shape` "
        "custom<DynamicIndexList>($output_shape, $static_output_shape) attr-dict "
        "`:` type($src) `into` type($result)"
    )
    custom_directives = (Reassociation, DynamicIndexList)

    def verify_(self) -> None:
        result = cast(MemRefType, self.result.type)
        _verify_reassociation(
            cast(MemRefType, self.src.type), result, self.reassociation
        )
        static = self.static_output_shape.get_values()
        verify_dynamic_index_list(
            static, self.output_shape, DYNAMIC_INDEX, " in the output shape"
        )
        if len(static) != result.get_num_dims():
            raise VerifyException(
                f"expected number of static shape dims to be equal to the output "
                f"rank ({result.get_num_dims()}) but found {len(static)} inputs instead"
            )
        for pos, (given, actual) in enumerate(zip(static, result.get_shape())):
            if given != DYNAMIC_INDEX and given != actual:
                raise VerifyException(f"invalid output shape provided at pos {pos}")


# ---------------------------------------------------------------------------------
# global
# ---------------------------------------------------------------------------------

_VISIBILITIES = ("public", "private", "nested")


def _parse_dense_resource_without_type(
    parser: Parser, tensor_type: TensorType
) -> DenseResourceAttr:
    """`dense_resource<handle>` after the keyword, typed by the global's type.

    xDSL parses this attribute only with a trailing `: type`; the resource
    bookkeeping (`{-# dialect_resources ... #-}`) goes through the parser's own
    handle parser so the blob is printed back.
    """
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface

    parser.parse_punctuation("<", " in dense_resource attribute")
    interface = Builtin.get_interface(OpAsmDialectInterface)
    assert interface is not None
    handle = parser._parse_dialect_resource_handle(  # pyright: ignore[reportPrivateUsage]
        "builtin", interface
    )
    parser.parse_punctuation(">", " in dense_resource attribute")
    return DenseResourceAttr.from_params(handle, tensor_type)


_LITERAL_ELEMENT = re.compile(r"0x[0-9a-fA-F]+|true|false|[-+]?[0-9][0-9.eE+-]*")


def _with_hex_float_elements(
    attr: DenseIntOrFPElementsAttr, source: str
) -> DenseIntOrFPElementsAttr:
    """Reread hexadecimal elements of a float `dense<...>` as bit patterns.

    MLIR prints NaN and infinities in float elements as their bits (`0xFF800000`
    is -inf in f32); xDSL 0.75 reads such an element as the integer 4286578688.
    `source` is the text from `<` on; the literal was already validated by xDSL.
    """
    element_type = attr.get_element_type()
    literal = source[: source.find(">")]
    if not isinstance(element_type, AnyFloat) or "0x" not in literal:
        return attr
    if literal.lstrip("< \t\n").startswith('"'):
        return attr  # a hex string of raw bytes, which xDSL reads correctly
    tokens = _LITERAL_ELEMENT.findall(literal)
    values = list(cast(Sequence[float], attr.get_values()))
    width = element_type.compile_time_size
    for index, token in enumerate(tokens):
        if token.startswith("0x"):
            bits = int(token, 16).to_bytes(width, "little")
            value = element_type.unpack(bits, 1)[0]
            targets = range(len(values)) if len(tokens) == 1 else (index,)
            for target in targets:
                values[target] = value
    return DenseIntOrFPElementsAttr.from_list(
        cast(TensorType[AnyFloat], attr.type), values
    )


@irdl_op_definition
class GlobalOp(xmemref.GlobalOp):
    """`memref.global "private" constant @x : memref<2xf32> = dense<[1.0, 2.0]>`.

    Unlike xDSL's definition, visibility (absent means public) and the initial value
    (absent means an external declaration) are optional, as in MLIR, and the initial
    value may be a `dense_resource`.
    """

    name = "memref.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(MemRefType)
    initial_value = opt_prop_def(
        UnitAttr | DenseIntOrFPElementsAttr | DenseResourceAttr
    )
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr[I64])

    _PRINTED: ClassVar[frozenset[str]] = frozenset(
        {"sym_name", "sym_visibility", "type", "initial_value", "constant"}
    )

    @staticmethod
    def get(  # pyright: ignore[reportIncompatibleMethodOverride]
        sym_name: StringAttr | str,
        sym_type: MemRefType,
        initial_value: Attribute | None = None,
        sym_visibility: StringAttr | str | None = "private",
        constant: bool = False,
        alignment: int | IntegerAttr | None = None,
    ) -> GlobalOp:
        if isinstance(sym_name, str):
            sym_name = StringAttr(sym_name)
        if isinstance(sym_visibility, str):
            sym_visibility = StringAttr(sym_visibility)
        if isinstance(alignment, int):
            alignment = IntegerAttr(alignment, 64)
        return GlobalOp.build(
            properties={
                "sym_name": sym_name,
                "sym_visibility": sym_visibility,
                "type": sym_type,
                "initial_value": initial_value,
                "constant": UnitAttr() if constant else None,
                "alignment": alignment,
            }
        )

    @staticmethod
    def tensor_type(memref_type: MemRefType) -> TensorType:
        """The type MLIR requires of an elements initial value."""
        return TensorType(memref_type.element_type, memref_type.get_shape())

    def verify_(self) -> None:
        memref_type = self.type
        if DYNAMIC_INDEX in memref_type.get_shape():
            raise VerifyException(
                f"type should be static shaped memref, but got '{_text(memref_type)}'"
            )
        init = self.initial_value
        if isinstance(init, DenseIntOrFPElementsAttr | DenseResourceAttr):
            expected = self.tensor_type(memref_type)
            actual = init.type if isinstance(init, DenseIntOrFPElementsAttr) else (
                init.get_type()
            )
            if actual != expected:
                raise VerifyException(
                    f"initial value expected to be of type '{_text(expected)}', but "
                    f"was of type '{_text(actual)}'"
                )
        if self.alignment is not None:
            value = self.alignment.value.data
            if value <= 0 or not is_power_of_two(value):
                raise VerifyException(
                    f"alignment attribute value {value} is not a positive power of 2"
                )
        if (
            self.sym_visibility is not None
            and self.sym_visibility.data not in _VISIBILITIES
        ):
            raise VerifyException(
                f"visibility expected to be one of {list(_VISIBILITIES)}, but got "
                f"'{self.sym_visibility.data}'"
            )

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        properties: dict[str, Attribute] = {}
        pos = parser.pos
        if (visibility := parser.parse_optional_str_literal()) is not None:
            if visibility not in _VISIBILITIES:
                parser.raise_error(
                    f"expected one of {', '.join(_VISIBILITIES)} as visibility", pos
                )
            properties["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            properties["constant"] = UnitAttr()
        properties["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        pos = parser.pos
        memref_type = parser.parse_type()
        if not isinstance(memref_type, MemRefType):
            parser.raise_error(
                f"type should be static shaped memref, but got '{_text(memref_type)}'",
                pos,
            )
        properties["type"] = memref_type
        if parser.parse_optional_punctuation("=") is not None:
            properties["initial_value"] = cls._parse_initial_value(parser, memref_type)
        pos = parser.pos
        attributes = parser.parse_optional_attr_dict()
        for name in cls._PRINTED & attributes.keys():
            parser.raise_error(f"'{name}' is part of memref.global's syntax", pos)
        if "alignment" in attributes:
            properties["alignment"] = attributes.pop("alignment")
        return cls.build(properties=properties, attributes=attributes)

    @classmethod
    def _parse_initial_value(cls, parser: Parser, memref_type: MemRefType) -> Attribute:
        if parser.parse_optional_keyword("uninitialized") is not None:
            return UnitAttr()
        pos = parser.pos
        if DYNAMIC_INDEX in memref_type.get_shape():
            parser.raise_error(
                f"type should be static shaped memref, but got '{_text(memref_type)}'",
                pos,
            )
        tensor_type = cls.tensor_type(memref_type)
        if parser.parse_optional_keyword("dense") is not None:
            start = parser.pos
            attr = parser.parse_dense_int_or_fp_elements_attr(tensor_type)  # pyright: ignore[reportArgumentType]
            return _with_hex_float_elements(
                attr, parser.lexer.input.content[start : parser.pos]
            )
        if parser.parse_optional_keyword("dense_resource") is not None:
            return _parse_dense_resource_without_type(parser, tensor_type)
        parser.raise_error(
            "expected 'uninitialized', 'dense<...>' or 'dense_resource<...>'", pos
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.sym_visibility is not None:
            printer.print_string_literal(self.sym_visibility.data)
            printer.print_string(" ")
        if self.constant is not None:
            printer.print_string("constant ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        init = self.initial_value
        if isinstance(init, UnitAttr):
            printer.print_string(" = uninitialized")
        elif isinstance(init, DenseIntOrFPElementsAttr | DenseResourceAttr):
            printer.print_string(" = ")
            init.print_without_type(printer)
        extra = {
            name: attr
            for name, attr in self.properties.items()
            if name not in self._PRINTED
        }
        printer.print_op_attributes(extra | self.attributes)


# ---------------------------------------------------------------------------------
# Fast reading of the ops a decoder repeats thousands of times
# ---------------------------------------------------------------------------------
# xDSL reads these token by token (store and dealloc through the declarative format
# machinery). When the op's text has the plain form and its memref type was parsed
# before, these subclasses read it straight from the text; anything else (attributes,
# comments, a new type, an error) goes to xDSL's parser with nothing consumed, so
# IR and diagnostics stay the same. They print as xDSL's classes do.

_SSA_LIST = rf"(?:{SSA_USE}\s*,\s*)*{SSA_USE}"
_STORE_TEXT = re.compile(rf"({SSA_USE})\s*,\s*({SSA_USE})\s*\[\s*({_SSA_LIST})?\s*\]\s*:\s*")
_DEALLOC_TEXT = re.compile(rf"({SSA_USE})\s*:\s*")
_ALLOC_TEXT = re.compile(r"\(\s*\)\s*:\s*")


def _memref_type_after(parser: Parser, pattern: re.Pattern[str]) -> tuple[re.Match[str], MemRefType, int] | None:
    """`pattern` matched at the next token, then a memref type parsed before: the
    match, the type and where its text ends."""
    if not isinstance(parser, TypeCachingParser):
        return None
    found = pattern.match(parser.lexer.input.content, parser.pos)
    if found is None:
        return None
    typed = parser.cached_type_at(found.end())
    if typed is None or not isinstance(typed[0], MemRefType):
        return None
    return found, typed[0], typed[1]


class StoreOp(xmemref.StoreOp):
    """`memref.store %v, %m[%i] : memref<4xf32>`."""

    @classmethod
    def parse(cls, parser: Parser) -> xmemref.StoreOp:
        fast = _memref_type_after(parser, _STORE_TEXT)
        if fast is None:
            return super().parse(parser)
        found, memref_type, end = fast
        value, memref, *indices = parser.operands_in(found.start(), found.end())
        index = IndexType()
        operands = [
            parser.resolve_operand(value, memref_type.element_type),
            parser.resolve_operand(memref, memref_type),
            *(parser.resolve_operand(i, index) for i in indices),
        ]
        parser.skip_to(end)
        return cls.create(operands=operands)


class DeallocOp(xmemref.DeallocOp):
    """`memref.dealloc %m : memref<4xf32>`."""

    @classmethod
    def parse(cls, parser: Parser) -> xmemref.DeallocOp:
        fast = _memref_type_after(parser, _DEALLOC_TEXT)
        if fast is None:
            return super().parse(parser)
        (memref,) = parser.operands_in(*fast[0].span())
        operands = [parser.resolve_operand(memref, fast[1])]
        parser.skip_to(fast[2])
        return cls.create(operands=operands)


class AllocOp(xmemref.AllocOp):
    """`memref.alloc() : memref<4xf32>`."""

    @classmethod
    def parse(cls, parser: Parser) -> xmemref.AllocOp:
        fast = _memref_type_after(parser, _ALLOC_TEXT)
        if fast is not None:
            parser.skip_to(fast[2])
            return cls((), (), fast[1])
        content = parser.lexer.input.content
        found = _ALLOC_TEXT.match(content, parser.pos)
        if (not isinstance(parser, TypeCachingParser) or found is None
                or not content.startswith("memref<", found.end())):
            return super().parse(parser)
        # The first alloc of a type: read it as a type (xDSL reads an attribute,
        # the same parse for `memref<`), so that it is cached for the next ones.
        parser.skip_to(found.end())
        return cls((), (), parser.parse_type())


_STATIC_LIST = r"\[\s*((?:-?\d{1,18}\s*,\s*)*-?\d{1,18})?\s*\]"
_SUBVIEW_TEXT = re.compile(
    rf"({SSA_USE})\s*{_STATIC_LIST}\s*{_STATIC_LIST}\s*{_STATIC_LIST}\s*:\s*"
)
_TO_TEXT = re.compile(r"\s*to\s+")


def _static_indices(text: str | None) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in text.split(",")] if text else [])


class SubviewOp(xmemref.SubviewOp):
    """`memref.subview %m[0, 4] [1, 4] [1, 1] : memref<..> to memref<..>`; the fast
    path reads only fully static offsets, sizes and strides."""

    @classmethod
    def parse(cls, parser: Parser) -> xmemref.SubviewOp:
        fast = _memref_type_after(parser, _SUBVIEW_TEXT)
        if fast is None:
            return super().parse(parser)
        found, source_type, end = fast
        to = _TO_TEXT.match(parser.lexer.input.content, end)
        result = None if to is None else parser.cached_type_at(to.end())
        if result is None or not isinstance(result[0], MemRefType):
            return super().parse(parser)
        (source,) = parser.operands_in(found.start(1), found.end(1))
        operand = parser.resolve_operand(source, source_type)
        parser.skip_to(result[1])
        return cls.build(
            operands=[operand, [], [], []],
            result_types=[result[0]],
            properties={
                "static_offsets": _static_indices(found.group(2)),
                "static_sizes": _static_indices(found.group(3)),
                "static_strides": _static_indices(found.group(4)),
            },
        )


_FAST_READ: dict[type[Operation], type[Operation]] = {
    xmemref.SubviewOp: SubviewOp,
    xmemref.StoreOp: StoreOp,
    xmemref.DeallocOp: DeallocOp,
    xmemref.AllocOp: AllocOp,
}

# ---------------------------------------------------------------------------------
# The dialect
# ---------------------------------------------------------------------------------

_REPLACEMENTS: dict[type[Operation], type[Operation]] = {
    xmemref.CastOp: CastOp,
    xmemref.MemorySpaceCastOp: MemorySpaceCastOp,
    xmemref.CopyOp: CopyOp,
    xmemref.RankOp: RankOp,
    xmemref.ExtractAlignedPointerAsIndexOp: ExtractAlignedPointerAsIndexOp,
    xmemref.AtomicRMWOp: AtomicRMWOp,
    xmemref.CollapseShapeOp: CollapseShapeOp,
    xmemref.ExpandShapeOp: ExpandShapeOp,
    xmemref.GlobalOp: GlobalOp,
}

MemRefMlirSyntax = Dialect(
    "memref",
    [_REPLACEMENTS.get(op, _FAST_READ.get(op, op)) for op in xmemref.MemRef.operations]
    + list(NEW_OPS),
    list(xmemref.MemRef.attributes),
    list(xmemref.MemRef._interfaces),  # pyright: ignore[reportPrivateUsage]
)
"""xDSL's memref dialect with the ops above in place of xDSL's classes, plus the ops
xDSL lacks (`memplan.dialects.mlir.memref_ops`)."""


def declare_canonicalization_patterns() -> None:
    """Give every memref op (xDSL's classes, whose traits memplan's subclasses
    share, and the ops memplan adds) the table of
    `memplan.passes.patterns.memref`, as MLIR's `hasCanonicalizer`.

    This changes xDSL's memref op classes, so it is not done on import: it is called
    by what makes a context or a pass list that should see the patterns
    (`memplan.context.make_context()`, memplan's `xdsl.universe` entry).
    Idempotent."""
    from memplan.util_interfaces import CanonicalizedBy

    patterns = CanonicalizedBy("memplan.passes.patterns.memref")
    for op in (*xmemref.MemRef.operations, *MemRefMlirSyntax.operations):
        if patterns not in op.traits.traits:
            op.traits.add_trait(patterns)


def adopt_mlir_syntax(root: Operation) -> int:
    """Replace every op under `root` (included) that is an instance of exactly one of
    xDSL's replaced classes by the same op of memplan's subclass, so that it prints
    in MLIR's syntax. Result names and uses are kept. Returns how many were replaced.

    Passes that build `xdsl.dialects.memref.CastOp(...)` and friends create xDSL's
    class, which prints generically; the tool calls this before printing.
    """
    stale = [op for op in root.walk() if type(op) in _REPLACEMENTS]
    for op in stale:
        new = _REPLACEMENTS[type(op)].create(
            operands=op.operands,
            result_types=op.result_types,
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            successors=op.successors,
            regions=[op.detach_region(r) for r in tuple(op.regions)],
        )
        for old_result, new_result in zip(op.results, new.results, strict=True):
            new_result.name_hint = old_result.name_hint
        if op.parent is None:
            raise ValueError(f"cannot replace the detached root op {op.name}")
        Rewriter.replace_op(op, new)
    return len(stale)

