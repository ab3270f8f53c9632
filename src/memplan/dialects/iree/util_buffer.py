"""IREE's `util` buffers, lists, strings and status (IREE 3.13 syntax, `UtilOps.td`):
`!util.buffer` and its ops, `!util.list<T>` and its ops, `util.string.format` and
`util.string.itoa`, `util.status.check_ok`, and the serializable `#util.composite`.

Memory effects are declared on the ops, on the values they touch: a copy READs its
source and WRITEs its target buffer, a fill or store WRITEs, a load, compare or
hash READs, `buffer.alloc` and `buffer.slice` ALLOCate their result (the slice also
READs its source), `buffer.dealloc` FREEs; list size/get READ the list, resize/set
WRITE it, create/construct ALLOCate. Constants, subspans, sizes, storage queries and
string formatting are Pure. Sizes are declared too (`SizeAware`), so a
`util.buffer.size` folds to the size an op states for the buffer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ShapedType,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import AttributeVariable, irdl_custom_directive
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import AlwaysSpeculatable, Pure
from xdsl.utils.exceptions import VerifyException

from memplan.analysis.data_layout import packed_storage_bytes
from memplan.util_interfaces import CanonicalizedBy, SizeAware, Subranges
from memplan.dialects.iree.util_values import (
    ObjectType,
    PropDict,
    VariantType,
    is_object_compatible,
    verify_no_inherent_attributes,
)
from memplan.interfaces import OperandEffects, all_results, operands_named
from memplan.printing import AsmResultNames, FixedResultNames, sanitize_ssa_name

__all__ = [
    "BUFFER_ATTRIBUTES",
    "BUFFER_OPS",
    "BufferType",
    "CompositeAttr",
    "ListType",
    "SizedStorageAttr",
    "can_implicitly_cast",
    "parse_format_string",
    "storage_size",
]

BUFFER_PATTERNS = CanonicalizedBy("memplan.passes.patterns.util_values")

_INDEX = IndexType()


# --------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """`!util.buffer`: a host byte buffer (imports and exports of stream tensors)."""

    name = "util.buffer"


@irdl_attr_definition
class ListType(ParametrizedAttribute, TypeAttribute):
    """`!util.list<T>`, or `!util.list<?>`: a list of `!util.variant` (any type)."""

    name = "util.list"

    element_type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation("?") is not None:
                return (VariantType(),)
            return (parser.parse_type(),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            if isinstance(self.element_type, VariantType):
                printer.print_string("?")
            else:
                printer.print_attribute(self.element_type)


def can_implicitly_cast(source: Attribute, target: Attribute) -> bool:
    """Whether a list element of one type may be read or written as the other
    (IREE's `ListType::canImplicitlyCast`)."""
    if isinstance(source, VariantType) or isinstance(target, VariantType):
        return True
    if isinstance(source, ObjectType) and is_object_compatible(target):
        return True
    if is_object_compatible(source) and isinstance(target, ObjectType):
        return True
    tensors = TensorType | UnrankedTensorType
    if isinstance(source, tensors) and isinstance(target, tensors):
        return True
    return source == target


# --------------------------------------------------------------------------------
# Serializable attributes
# --------------------------------------------------------------------------------


class SizedStorageAttr(ABC):
    """IREE's `SizedStorageAttr`: an attribute that knows the bytes it serializes to."""

    @abstractmethod
    def storage_size(self) -> int | None: ...


def storage_size(attr: Attribute) -> int | None:
    """The bytes `attr` serializes to in a buffer (dense elements packed at their
    rounded physical width, a string without terminator), or None when it is not
    serializable."""
    if isinstance(attr, SizedStorageAttr):
        return attr.storage_size()
    if isinstance(attr, StringAttr):
        return len(attr.data.encode())
    if isinstance(attr, DenseIntOrFPElementsAttr | DenseResourceAttr):
        type = attr.get_type()
        assert isinstance(type, ShapedType)
        return packed_storage_bytes(type.element_count(), type.get_element_type())
    return None


@irdl_attr_definition
class CompositeAttr(ParametrizedAttribute, SizedStorageAttr):
    """`#util.composite<Nxi8, [value, ...]>`: serializable values laid end to end
    (N bytes in all; `of` computes N). Printed one value a line, four spaces in, as IREE does
    whatever the nesting (its attribute printers cannot know the indent), so the
    print is a fixed point."""

    name = "util.composite"

    total_length: IntAttr
    values: ArrayAttr

    def storage_size(self) -> int | None:
        return self.total_length.data

    @property
    def asm_alias(self) -> str:
        """IREE's alias, `#composite_of_<N>b`."""
        return f"composite_of_{self.total_length.data}b"

    @staticmethod
    def of(values: Sequence[Attribute]) -> CompositeAttr | None:
        """The composite of `values`, its length their storage sizes' sum; None
        when one is not serializable (IREE's builder). IREE's parser takes the
        written length as is, and so does memplan's."""
        sizes = [storage_size(v) for v in values]
        if any(size is None for size in sizes):
            return None
        return CompositeAttr(IntAttr(sum(sizes)), ArrayAttr(values))  # type: ignore[arg-type]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr, ArrayAttr]:
        with parser.in_angle_brackets():
            pos = parser.pos
            shape, element_type = parser.parse_ranked_shape()
            if len(shape) != 1 or shape[0] < 0:
                parser.raise_error("invalid length specifier", pos)
            if element_type != IntegerType(8):
                parser.raise_error("invalid type specifier; expected i8", pos)
            parser.parse_punctuation(",")
            parser.parse_punctuation("[")
            values: list[Attribute] = []
            while parser.parse_optional_punctuation("]") is None:
                values.append(parser.parse_attribute())
                if parser.parse_optional_punctuation(",") is None:
                    parser.parse_punctuation("]")
                    break
        return IntAttr(shape[0]), ArrayAttr(values)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.total_length.data}xi8, [")
        if self.total_length.data > 0:
            printer.print_string("\n", indent=0)
            for value in self.values.data:
                printer.print_string("    ", indent=0)
                printer.print_attribute(value)
                printer.print_string(",\n", indent=0)
        printer.print_string("]>")


# --------------------------------------------------------------------------------
# Lists
# --------------------------------------------------------------------------------


@irdl_op_definition
class ListCreateOp(IRDLOperation):
    """`util.list.create %capacity? : !util.list<T>`: a new empty list."""

    name = "util.list.create"

    initial_capacity = opt_operand_def(IndexType)
    result = result_def(ListType)

    traits = traits_def(OperandEffects(allocates=all_results), AlwaysSpeculatable())

    assembly_format = "($initial_capacity^)? attr-dict `:` type($result)"


@irdl_op_definition
class ListConstructOp(IRDLOperation):
    """`util.list.construct [%a : T, ...] : !util.list<T>`: a new list of the values."""

    name = "util.list.construct"

    values = var_operand_def()
    result = result_def(ListType)

    traits = traits_def(OperandEffects(allocates=all_results), AlwaysSpeculatable())

    def verify_(self) -> None:
        assert isinstance(self.result.type, ListType)
        element = self.result.type.element_type
        for index, value in enumerate(self.values):
            if not can_implicitly_cast(value.type, element):
                raise VerifyException(
                    f"list[{index}] type '{value.type}' cannot be be cast to list "
                    f"type '{element}'"
                )

    @classmethod
    def parse(cls, parser: Parser) -> ListConstructOp:
        operands: list[UnresolvedOperand] = []
        types: list[Attribute] = []

        def entry() -> None:
            operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            types.append(parser.parse_type())

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        values = parser.resolve_operands(operands, types, parser.pos)
        op = cls.create(operands=values, result_types=[type])
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" [")
        printer.print_list(
            self.values,
            lambda v: (
                printer.print_operand(v),
                printer.print_string(" : "),
                printer.print_attribute(v.type),
            ),
        )
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ListSizeOp(IRDLOperation):
    """`util.list.size %list : !util.list<T>`: its element count (READs the list)."""

    name = "util.list.size"

    list = operand_def(ListType)
    result = result_def(IndexType)

    traits = traits_def(OperandEffects(reads=operands_named("list")))

    assembly_format = "$list attr-dict `:` type($list)"


@irdl_op_definition
class ListResizeOp(IRDLOperation):
    """`util.list.resize %list, %size : !util.list<T>` (WRITEs the list)."""

    name = "util.list.resize"

    list = operand_def(ListType)
    new_size = operand_def(IndexType)

    traits = traits_def(OperandEffects(writes=operands_named("list")))

    assembly_format = "$list `,` $new_size attr-dict `:` type($list)"


def _element_type(list_type: Attribute) -> Attribute:
    assert isinstance(list_type, ListType)
    return list_type.element_type


@irdl_op_definition
class ListGetOp(IRDLOperation):
    """`util.list.get %list[%i] : !util.list<T>` (`-> U` when read as another type
    a variant or object list allows; READs the list)."""

    name = "util.list.get"

    list = operand_def(ListType)
    index = operand_def(IndexType)
    result = result_def()

    traits = traits_def(OperandEffects(reads=operands_named("list")))

    def verify_(self) -> None:
        element = _element_type(self.list.type)
        if not can_implicitly_cast(element, self.result.type):
            raise VerifyException(
                f"list contains '{element}' and cannot be accessed as "
                f"'{self.result.type}'"
            )

    @classmethod
    def parse(cls, parser: Parser) -> ListGetOp:
        list_ = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        list_type = parser.parse_type()
        if not isinstance(list_type, ListType):
            parser.raise_error("expected !util.list<T> type", pos)
        result_type = list_type.element_type
        if parser.parse_optional_punctuation("->") is not None:
            result_type = parser.parse_type()
            if not can_implicitly_cast(list_type.element_type, result_type):
                parser.raise_error(
                    "list access types must match the same base type as the list "
                    "element type (when not variant)"
                )
        values = parser.resolve_operands([list_, index], [list_type, _INDEX], pos)
        op = cls.create(operands=values, result_types=[result_type])
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.list)
        printer.print_string("[")
        printer.print_operand(self.index)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.list.type)
        if _element_type(self.list.type) != self.result.type:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)


@irdl_op_definition
class ListSetOp(IRDLOperation):
    """`util.list.set %list[%i], %v : !util.list<T>` (`U -> !util.list<T>` when the
    value is another type the list allows; WRITEs the list)."""

    name = "util.list.set"

    list = operand_def(ListType)
    index = operand_def(IndexType)
    value = operand_def()

    traits = traits_def(OperandEffects(writes=operands_named("list")))

    def verify_(self) -> None:
        element = _element_type(self.list.type)
        if not can_implicitly_cast(self.value.type, element):
            raise VerifyException(
                f"list contains '{element}' and cannot be mutated as '{self.value.type}'"
            )

    @classmethod
    def parse(cls, parser: Parser) -> ListSetOp:
        list_ = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        leading = parser.parse_type()
        if parser.parse_optional_punctuation("->") is not None:
            value_type, list_type = leading, parser.parse_type()
        else:
            list_type = leading
            value_type = list_type.element_type if isinstance(list_type, ListType) else None
        if not isinstance(list_type, ListType) or value_type is None:
            parser.raise_error("expected an !util.list<T> type", pos)
        values = parser.resolve_operands(
            [list_, index, value], [list_type, _INDEX, value_type], pos
        )
        op = cls.create(operands=values)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.list)
        printer.print_string("[")
        printer.print_operand(self.index)
        printer.print_string("], ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if _element_type(self.list.type) != self.value.type:
            printer.print_attribute(self.value.type)
            printer.print_string(" -> ")
        printer.print_attribute(self.list.type)


# --------------------------------------------------------------------------------
# Buffers
# --------------------------------------------------------------------------------


_SOURCE_RANGE = Subranges((("source", "source_size", "source_offset", "length"),))
_TARGET_RANGE = Subranges((("target", "target_size", "target_offset", "length"),))


@irdl_custom_directive
class AlignmentProps(PropDict):
    """`<alignment = N>` of an allocating buffer op."""

    alignment: AttributeVariable


@irdl_custom_directive
class ConstantProps(PropDict):
    """`<alignment = N, mime_type = "..">` of `util.buffer.constant`."""

    alignment: AttributeVariable
    mime_type: AttributeVariable


def _verify_alignment(op: IRDLOperation, alignment: IntegerAttr | None) -> None:
    verify_no_inherent_attributes(op)
    if alignment is not None:
        value = alignment.value.data
        if value > 0 and value & (value - 1):
            raise VerifyException("invalid alignment; must be a power of two")


class _ConstantNames(AsmResultNames):
    def result_names(self, op: Operation) -> Sequence[str | None]:
        assert isinstance(op, BufferConstantOp)
        return (op.name_.data if op.name_ is not None else "buffer_cst",)


@irdl_op_definition
class BufferConstantOp(IRDLOperation):
    """`util.buffer.constant "name"? {alignment, mime_type} : !util.buffer = value`:
    a host buffer holding a serializable value (dense elements, a string, a byte
    pattern, a composite)."""

    name = "util.buffer.constant"

    name_ = opt_prop_def(StringAttr, prop_name="name")
    value = prop_def(Attribute)
    alignment = opt_prop_def(IntegerAttr[IndexType])
    mime_type = opt_prop_def(StringAttr)
    result = result_def(BufferType)

    traits = traits_def(Pure(), _ConstantNames(), BUFFER_PATTERNS)

    custom_directives = (ConstantProps,)
    assembly_format = (
        "($name^)? custom<ConstantProps>($alignment, $mime_type) attr-dict `:` "
        "type($result) `=` $value"
    )

    def __init__(self, value: Attribute, alignment: int | None = None):
        properties: dict[str, Attribute] = {"value": value}
        if alignment is not None:
            properties["alignment"] = IntegerAttr(alignment, _INDEX)
        super().__init__(result_types=[BufferType()], properties=properties)

    def verify_(self) -> None:
        if storage_size(self.value) is None:
            raise VerifyException(
                "attribute 'value' failed to satisfy constraint: buffer-like constant "
                "attribute values"
            )
        _verify_alignment(self, self.alignment)


@irdl_op_definition
class BufferAllocOp(IRDLOperation):
    """`util.buffer.alloc uninitialized {alignment} : !util.buffer{%size}`."""

    name = "util.buffer.alloc"

    storage_size = operand_def(IndexType)
    alignment = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(BufferType)

    traits = traits_def(
        OperandEffects(allocates=all_results),
        AlwaysSpeculatable(),
        SizeAware.fields(results={0: "storage_size"}),
        FixedResultNames(("buffer",)),
    )

    custom_directives = (AlignmentProps,)
    assembly_format = (
        "`uninitialized` custom<AlignmentProps>($alignment) attr-dict `:` "
        "type($result) `` `{` $storage_size `}`"
    )

    def verify_(self) -> None:
        _verify_alignment(self, self.alignment)


@irdl_op_definition
class BufferDeallocOp(IRDLOperation):
    """`util.buffer.dealloc %b : !util.buffer{%size}`: the contents may go (FREEs)."""

    name = "util.buffer.dealloc"

    operand = operand_def(BufferType)
    operand_size = operand_def(IndexType)

    traits = traits_def(
        OperandEffects(frees=operands_named("operand")),
        SizeAware.fields(operands={0: "operand_size"}),
    )

    assembly_format = (
        "$operand `:` type($operand) `{` $operand_size `}` attr-dict-with-keyword"
    )


@irdl_op_definition
class BufferSliceOp(IRDLOperation):
    """`util.buffer.slice %src[%offset] : !util.buffer{%src_size} ->
    !util.buffer{%size}`: a copy of a range (READs the source, ALLOCates)."""

    name = "util.buffer.slice"

    source = operand_def(BufferType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result_size = operand_def(IndexType)
    alignment = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(BufferType)

    traits = traits_def(
        OperandEffects(reads=operands_named("source"), allocates=all_results),
        SizeAware.fields(operands={0: "source_size"}, results={0: "result_size"}),
        Subranges((("source", "source_size", "source_offset", "result_size"),)),
        FixedResultNames(("buffer",)),
    )

    custom_directives = (AlignmentProps,)
    assembly_format = (
        "$source `[` $source_offset `]` custom<AlignmentProps>($alignment) "
        "attr-dict `:` type($source) `` `{` "
        "$source_size `}` `->` type($result) `` `{` $result_size `}`"
    )

    def verify_(self) -> None:
        _verify_alignment(self, self.alignment)


@irdl_op_definition
class BufferSubspanOp(IRDLOperation):
    """`util.buffer.subspan %src[%offset] : !util.buffer{%src_size} ->
    !util.buffer{%length}`: a view of a range (aliases the source; Pure)."""

    name = "util.buffer.subspan"

    source = operand_def(BufferType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result_size = operand_def(IndexType)
    result = result_def(BufferType)

    traits = traits_def(
        Pure(),
        SizeAware.fields(operands={0: "source_size"}, results={0: "result_size"}),
        FixedResultNames(("buffer_span",)),
        BUFFER_PATTERNS,
    )

    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` "
        "`->` type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue,
        source_size: SSAValue,
        offset: SSAValue,
        length: SSAValue,
    ):
        super().__init__(
            operands=[source, source_size, offset, length], result_types=[BufferType()]
        )


@irdl_op_definition
class BufferSizeOp(IRDLOperation):
    """`util.buffer.size %b : !util.buffer`: its total byte length."""

    name = "util.buffer.size"

    operand = operand_def(BufferType)
    result = result_def(IndexType)

    traits = traits_def(Pure(), FixedResultNames(("buffer_size",)), BUFFER_PATTERNS)

    assembly_format = "$operand `:` type($operand) attr-dict-with-keyword"

    def __init__(self, buffer: SSAValue):
        super().__init__(operands=[buffer], result_types=[_INDEX])


@irdl_op_definition
class BufferStorageOp(IRDLOperation):
    """`util.buffer.storage %b : !util.buffer{%size} -> (memref<?xi8>, index)`: the
    storage as a memref and the offset of the buffer in it."""

    name = "util.buffer.storage"

    operand = operand_def(BufferType)
    operand_size = operand_def(IndexType)
    result = result_def(MemRefType)
    offset = result_def(IndexType)

    traits = traits_def(
        Pure(),
        SizeAware.fields(operands={0: "operand_size"}),
        FixedResultNames(("buffer_storage", "buffer_offset")),
        BUFFER_PATTERNS,
    )

    assembly_format = (
        "$operand `:` type($operand) `` `{` $operand_size `}` `->` `(` type($result) "
        "`,` type($offset) `)` attr-dict-with-keyword"
    )


@irdl_op_definition
class BufferCopyOp(IRDLOperation):
    """`util.buffer.copy %src[%so], %dst[%to], %length : !util.buffer{%ss} ->
    !util.buffer{%ts}`: memcpy (READs the source, WRITEs the target)."""

    name = "util.buffer.copy"

    source = operand_def(BufferType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    target = operand_def(BufferType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    length = operand_def(IndexType)

    traits = traits_def(
        OperandEffects(reads=operands_named("source"), writes=operands_named("target")),
        SizeAware.fields(operands={0: "source_size", 3: "target_size"}),
        Subranges(_SOURCE_RANGE.ranges + _TARGET_RANGE.ranges),
    )

    assembly_format = (
        "$source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` "
        "$length `:` type($source) `` `{` $source_size `}` `->` type($target) `` "
        "`{` $target_size `}` attr-dict-with-keyword"
    )


@irdl_op_definition
class BufferCompareOp(IRDLOperation):
    """`util.buffer.compare %a[%ao], %b[%bo], %length : !util.buffer{%as},
    !util.buffer{%bs}`: whether the ranges hold equal bytes (READs both)."""

    name = "util.buffer.compare"

    lhs = operand_def(BufferType)
    lhs_size = operand_def(IndexType)
    lhs_offset = operand_def(IndexType)
    rhs = operand_def(BufferType)
    rhs_size = operand_def(IndexType)
    rhs_offset = operand_def(IndexType)
    length = operand_def(IndexType)
    result = result_def(i1)

    traits = traits_def(
        OperandEffects(reads=operands_named("lhs", "rhs")),
        AlwaysSpeculatable(),
        SizeAware.fields(operands={0: "lhs_size", 3: "rhs_size"}),
        Subranges((
            ("lhs", "lhs_size", "lhs_offset", "length"),
            ("rhs", "rhs_size", "rhs_offset", "length"),
        )),
    )

    assembly_format = (
        "$lhs `[` $lhs_offset `]` `,` $rhs `[` $rhs_offset `]` `,` $length `:` "
        "type($lhs) `` `{` $lhs_size `}` `,` type($rhs) `` `{` $rhs_size `}` "
        "attr-dict-with-keyword"
    )


_FILL_PATTERN = base(IntegerType) | base(AnyFloat) | base(IndexType)


class _WriteRangeOp(IRDLOperation):
    """A value written to `target[target_offset for length]` (the value operand,
    declared by the op, comes first)."""

    target = operand_def(BufferType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    length = operand_def(IndexType)

    traits = traits_def(
        OperandEffects(writes=operands_named("target")),
        SizeAware.fields(operands={1: "target_size"}),
        _TARGET_RANGE,
    )


@irdl_op_definition
class BufferFillOp(_WriteRangeOp):
    """`util.buffer.fill %pattern, %dst[%offset for %length] : T ->
    !util.buffer{%size}` (WRITEs the target)."""

    name = "util.buffer.fill"

    pattern = operand_def(_FILL_PATTERN)

    assembly_format = (
        "$pattern `,` $target `[` $target_offset `for` $length `]` `:` "
        "type($pattern) `->` type($target) `` `{` $target_size `}` "
        "attr-dict-with-keyword"
    )


@irdl_op_definition
class BufferStoreOp(_WriteRangeOp):
    """`util.buffer.store %v, %dst[%offset for %length] : T -> !util.buffer{%size}`
    (WRITEs the target)."""

    name = "util.buffer.store"

    source = operand_def(_FILL_PATTERN)

    assembly_format = (
        "$source `,` $target `[` $target_offset `for` $length `]` `:` "
        "type($source) `->` type($target) `` `{` $target_size `}` "
        "attr-dict-with-keyword"
    )


class _ReadRangeOp(IRDLOperation):
    """A result computed from `source[source_offset for length]`."""

    source = operand_def(BufferType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    length = operand_def(IndexType)

    traits = traits_def(
        OperandEffects(reads=operands_named("source")),
        SizeAware.fields(operands={0: "source_size"}),
        _SOURCE_RANGE,
    )

    assembly_format = (
        "$source `[` $source_offset `for` $length `]` `:` type($source) `` `{` "
        "$source_size `}` `->` type($result) attr-dict-with-keyword"
    )


@irdl_op_definition
class BufferLoadOp(_ReadRangeOp):
    """`util.buffer.load %src[%offset for %length] : !util.buffer{%size} -> T`
    (READs the source)."""

    name = "util.buffer.load"

    result = result_def(_FILL_PATTERN)


@irdl_op_definition
class BufferHashOp(_ReadRangeOp):
    """`util.buffer.hash %src[%offset for %length] : !util.buffer{%size} -> i64`:
    SipHash-2-4 of a range (READs the source)."""

    name = "util.buffer.hash"

    result = result_def(i64)


# --------------------------------------------------------------------------------
# Strings and status
# --------------------------------------------------------------------------------


def parse_format_string(format: str, arg_count: int) -> list[str | int] | str:
    """The segments of a `util.string.format` template (literal text, or the index
    of an argument), or IREE's message for why it is invalid."""
    segments: list[str | int] = []
    literal: list[str] = []
    sequential = explicit = False
    next_index = 0
    max_index = -1
    i = 0
    while i < len(format):
        c = format[i]
        if c in "{}" and format[i + 1 : i + 2] == c:
            literal.append(c)
            i += 2
            continue
        if c == "}":
            return "unmatched '}' in format string"
        if c != "{":
            literal.append(c)
            i += 1
            continue
        close = format.find("}", i + 1)
        if close < 0:
            return "unclosed '{' in format string"
        if literal:
            segments.append("".join(literal))
            literal = []
        content = format[i + 1 : close]
        if not content:
            sequential = True
            segments.append(next_index)
            next_index += 1
        elif content.isdigit():
            explicit = True
            max_index = max(max_index, int(content))
            segments.append(int(content))
        else:
            return (
                f"invalid placeholder '{{{content}}}' in format string; expected "
                "'{}' or '{N}'"
            )
        i = close + 1
    if literal:
        segments.append("".join(literal))
    if sequential and explicit:
        return "cannot mix sequential '{}' and explicit '{N}' placeholders"
    expected = max_index + 1 if explicit else next_index
    if expected != arg_count:
        return (
            "format string placeholder count does not match the "
            f"{arg_count} provided argument(s)"
        )
    return segments


class _FormatNames(AsmResultNames):
    """IREE's name for a formatted string: the template's identifier characters,
    `N` per placeholder, `_` for `.`, `-`, `/` (at most 32)."""

    def result_names(self, op: Operation) -> Sequence[str | None]:
        assert isinstance(op, StringFormatOp)
        format = op.format.data
        name: list[str] = []
        i = 0
        while i < len(format) and len(name) < 32:
            c = format[i]
            if c in "{}" and format[i + 1 : i + 2] == c:
                i += 2
            elif c == "{":
                close = format.find("}", i + 1)
                if close < 0:
                    break
                name.append("N")
                i = close + 1
            elif c == "}":
                i += 1
            else:
                if c in ".-/":
                    name.append("_")
                elif c.isascii() and (c.isalnum() or c == "_"):
                    name.append(c)
                i += 1
        return (sanitize_ssa_name("".join(name)) or "formatted",)


_STRING_ARG = base(IndexType) | base(IntegerType) | base(BufferType)


@irdl_op_definition
class StringFormatOp(IRDLOperation):
    """`util.string.format "blk.{}.w"(%i) : (index) -> !util.buffer`: a string
    from a template (`{}` or `{N}` placeholders, `{{`/`}}` for braces); integers
    print unsigned, buffers as their bytes."""

    name = "util.string.format"

    format = prop_def(StringAttr)
    args = var_operand_def(_STRING_ARG)
    result = result_def(BufferType)

    traits = traits_def(Pure(), _FormatNames(), BUFFER_PATTERNS)

    assembly_format = "$format `(` $args `)` attr-dict `:` functional-type($args, $result)"

    def verify_(self) -> None:
        segments = parse_format_string(self.format.data, len(self.args))
        if isinstance(segments, str):
            raise VerifyException(segments)


@irdl_op_definition
class StringItoaOp(IRDLOperation):
    """`util.string.itoa %v : index -> !util.buffer`: the unsigned decimal text."""

    name = "util.string.itoa"

    value = operand_def(base(IndexType) | base(IntegerType))
    result = result_def(BufferType)

    traits = traits_def(Pure(), FixedResultNames(("itoa",)), BUFFER_PATTERNS)

    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value], result_types=[BufferType()])


@irdl_op_definition
class StatusCheckOkOp(IRDLOperation):
    """`util.status.check_ok %status, "message"?`: fail the invocation unless the
    i32 status is ok (unknown effects: never moved or erased)."""

    name = "util.status.check_ok"

    status = operand_def(IntegerType(32))
    message = opt_prop_def(StringAttr)

    assembly_format = "$status (`,` $message^)? attr-dict"


BUFFER_OPS = (
    ListCreateOp,
    ListConstructOp,
    ListSizeOp,
    ListResizeOp,
    ListGetOp,
    ListSetOp,
    BufferConstantOp,
    BufferAllocOp,
    BufferDeallocOp,
    BufferSliceOp,
    BufferSubspanOp,
    BufferSizeOp,
    BufferStorageOp,
    BufferCopyOp,
    BufferCompareOp,
    BufferFillOp,
    BufferLoadOp,
    BufferStoreOp,
    BufferHashOp,
    StringFormatOp,
    StringItoaOp,
    StatusCheckOkOp,
)
"""The buffer, list, string and status ops, registered in the `util` dialect."""

BUFFER_ATTRIBUTES = (BufferType, ListType, CompositeAttr)
