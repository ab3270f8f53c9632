"""IREE's `util` value ops: null and casts, comparisons, range and alignment
arithmetic, `sizeof`, `switch`, integer assumptions and compiler hints (IREE 3.13
syntax, `UtilOps.td`), with the `!util.object` and `!util.variant` types and the
`#util.int.assumption` attribute.

All but two are Pure (IREE's `Util_PureOp`): `util.unfoldable_constant` has unknown
effects (it exists so nothing folds it), and `util.hoistable_conversion` has the
effects of its body. Their folders and canonicalizations are patterns declared on
the ops (`memplan.passes.patterns.util_values`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    ComplexType,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    AnyFloat,
    i1,
)
from xdsl.ir import (
    Attribute,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypedAttribute,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    SameVariadicOperandSize,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    Commutative,
    ConstantLike,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

from memplan.util_interfaces import AlignsUp, CanonicalizedBy
from memplan.printing import FixedResultNames

__all__ = [
    "AlignOp",
    "AssumeIntOp",
    "CastOp",
    "CmpEQOp",
    "CmpNEOp",
    "HoistableConversionOp",
    "IntAssumptionAttr",
    "NullOp",
    "NumericOptionalNarrowOp",
    "ObjectType",
    "RangeExtentsOp",
    "RangeMaxOp",
    "RangeMinOp",
    "SizeOfOp",
    "SwitchOp",
    "UnfoldableConstantOp",
    "VALUE_ATTRIBUTES",
    "VALUE_OPS",
    "VariantType",
    "is_object_compatible",
]

VALUE_PATTERNS = CanonicalizedBy("memplan.passes.patterns.util_values")

_RANGE = base(IndexType) | base(IntegerType)
"""IREE's `Util_Range` (and `SignlessIntegerOrIndexLike` for scalars)."""

_PRIMITIVE = base(IndexType) | base(IntegerType) | base(AnyFloat)
"""IREE's `Util_Primitive`."""


# --------------------------------------------------------------------------------
# Types and attributes
# --------------------------------------------------------------------------------


@irdl_attr_definition
class ObjectType(ParametrizedAttribute, TypeAttribute):
    """`!util.object`: some runtime object (reference counted or collected)."""

    name = "util.object"


@irdl_attr_definition
class VariantType(ParametrizedAttribute, TypeAttribute):
    """`!util.variant`: a primitive or an object, known at runtime (`?` in
    `!util.list<?>`)."""

    name = "util.variant"


def is_object_compatible(type: Attribute) -> bool:
    """Whether values of `type` may be objects (IREE's `ObjectType::isCompatible`):
    everything but integers, index, floats and complex numbers."""
    return not isinstance(type, IntegerType | IndexType | AnyFloat | ComplexType)


_ASSUMPTION_KEYS = ("umin", "umax", "udiv")


@irdl_attr_definition
class IntAssumptionAttr(ParametrizedAttribute):
    """`#util.int.assumption<umin = 1, umax = 8, udiv = 4>`: what is known of an
    integer (each bound optional; unsigned)."""

    name = "util.int.assumption"

    umin: IntAttr | NoneAttr
    umax: IntAttr | NoneAttr
    udiv: IntAttr | NoneAttr

    @staticmethod
    def get(
        umin: int | None = None, umax: int | None = None, udiv: int | None = None
    ) -> IntAssumptionAttr:
        return IntAssumptionAttr(
            *(NoneAttr() if v is None else IntAttr(v) for v in (umin, umax, udiv))
        )

    def value(self, key: str) -> int | None:
        field = getattr(self, key)
        return field.data if isinstance(field, IntAttr) else None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        return cls.parse_after_angle(parser)

    @staticmethod
    def parse_after_angle(parser: AttrParser) -> tuple[Attribute, ...]:
        """The assumptions and the closing `>`, once the `<` is read."""
        values: dict[str, int] = {}

        def entry() -> None:
            pos = parser.pos
            key = parser.parse_identifier()
            if key not in _ASSUMPTION_KEYS or key in values:
                parser.raise_error(f"unexpected assumption '{key}'", pos)
            parser.parse_punctuation("=")
            values[key] = parser.parse_integer(allow_negative=False)

        if parser.parse_optional_punctuation(">") is None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
            parser.parse_punctuation(">")
        return tuple(
            IntAttr(values[k]) if k in values else NoneAttr() for k in _ASSUMPTION_KEYS
        )

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(
                ", ".join(
                    f"{k} = {self.value(k)}"
                    for k in _ASSUMPTION_KEYS
                    if self.value(k) is not None
                )
            )


class TypeOnlyAttr(TypedAttribute):
    """An attribute that is its type alone: `#util.null : T`, `#util.uninitialized : T`."""

    type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        parser.parse_punctuation(":")
        return (parser.parse_type(),)

    @classmethod
    def parse_with_type(cls, parser: AttrParser, type: Attribute) -> TypedAttribute:
        return cls.new((type,))

    def print_without_type(self, printer: Printer) -> None:
        return

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(" : ")
        printer.print_attribute(self.type)


@irdl_attr_definition
class NullAttr(TypeOnlyAttr):
    """`#util.null : type`: the null value of a reference type (what `util.null`
    folds to)."""

    name = "util.null"


@irdl_attr_definition
class ByteRangeAttr(ParametrizedAttribute):
    """`#util.byte_range<offset, length>` (IREE's parser has a `[start to end)`
    form that its own lexer rejects, so neither does memplan read it)."""

    name = "util.byte_range"

    offset: IntAttr
    length: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr, IntAttr]:
        with parser.in_angle_brackets():
            offset = parser.parse_integer()
            parser.parse_punctuation(",")
            return IntAttr(offset), IntAttr(parser.parse_integer())

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.offset.data}, {self.length.data}>")


@irdl_attr_definition
class PreprocessingPipelineAttr(ParametrizedAttribute):
    """`#util.preprocessing_pipeline<"pass-pipeline">` on a function."""

    name = "util.preprocessing_pipeline"

    pipeline: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            return (StringAttr(parser.parse_str_literal()),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.pipeline.data)


# --------------------------------------------------------------------------------
# Optional properties as IREE 3.13 prints them
# --------------------------------------------------------------------------------


class PropDict(CustomDirective):
    """An op's optional properties where its format has `attr-dict`, as IREE 3.13
    prints them: `<alignment = 16, mime_type = "text/plain">` before the
    discardable attributes, in declaration order, index-typed integers bare. A
    subclass names the properties as its fields (`AttributeVariable`s)."""

    def _fields(self) -> list[AttributeVariable]:
        return [getattr(self, name) for name in self.parameters]

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_punctuation("<") is None:
            return
        fields = {field.name: field for field in self._fields()}

        def entry() -> None:
            pos = parser.pos
            key = parser.parse_identifier()
            field = fields.get(key)
            if field is None:
                parser.raise_error(f"unexpected property '{key}'", pos)
            parser.parse_punctuation("=")
            value = parser.parse_attribute()
            if (
                isinstance(value, IntegerAttr)
                and key in self.INDEX_PROPERTIES
                and parser.parse_optional_punctuation(":") is None
            ):
                value = IntegerAttr(value.value.data, IndexType())
            field.set(state, value)

        parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
        parser.parse_punctuation(">")

    INDEX_PROPERTIES: ClassVar[frozenset[str]] = frozenset({"alignment"})

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        present = [(f.name, f.get(op)) for f in self._fields() if f.get(op) is not None]
        if not present:
            return
        printer.print_string(" <")

        def entry(item: tuple[str, Attribute | None]) -> None:
            key, value = item
            printer.print_string(f"{key} = ")
            if key in self.INDEX_PROPERTIES and isinstance(value, IntegerAttr):
                printer.print_string(str(value.value.data))
            else:
                assert value is not None
                printer.print_attribute(value)

        printer.print_list(present, entry)
        printer.print_string(">")
        state.should_emit_space = True
        state.last_was_punctuation = False


def verify_no_inherent_attributes(op: IRDLOperation) -> None:
    """IREE 3.13 reads an op's properties only from their `<...>` dictionary: the
    same names among the discardable attributes are an error."""
    for name in op.get_irdl_definition().properties:
        if name in op.attributes:
            raise VerifyException(
                f"inherent attribute '{name}' cannot be parsed from attr-dict when "
                "strict properties in assembly format is enabled"
            )


@irdl_custom_directive
class NarrowRange(PropDict):
    """`<min_value = .., max_value = ..>` of `util.numeric.optional_narrow`."""

    min_value: AttributeVariable
    max_value: AttributeVariable


# --------------------------------------------------------------------------------
# Type manipulation and comparison
# --------------------------------------------------------------------------------


@irdl_op_definition
class NullOp(IRDLOperation):
    """`util.null : type`: the null value of a reference type."""

    name = "util.null"

    result = result_def()

    traits = traits_def(Pure(), ConstantLike())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, type: Attribute):
        super().__init__(result_types=[type])


@irdl_op_definition
class CastOp(IRDLOperation):
    """`util.cast %x : A to B`: a static or dynamic cast between object types."""

    name = "util.cast"

    operand = operand_def()
    result = result_def()

    traits = traits_def(Pure(), VALUE_PATTERNS)

    assembly_format = "$operand attr-dict `:` type($operand) `to` type($result)"

    def __init__(self, operand: SSAValue | Operation, type: Attribute):
        super().__init__(operands=[operand], result_types=[type])

    def verify_(self) -> None:
        for what, type in (("operand", self.operand.type), ("result", self.result.type)):
            if not is_object_compatible(type):
                raise VerifyException(
                    f"{what} type '{type}' is not object cast compatible"
                )


class _CompareOp(IRDLOperation):
    lhs = operand_def()
    rhs = operand_def()
    result = result_def(IntegerType(1))

    traits = traits_def(Pure(), Commutative(), VALUE_PATTERNS)

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[i1])

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(
                "failed to verify that all of {lhs, rhs} have same type"
            )

    @classmethod
    def parse(cls, parser: Parser) -> _CompareOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        op = cls(*parser.resolve_operands([lhs, rhs], [type, type], parser.pos))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class CmpEQOp(_CompareOp):
    """`util.cmp.eq %a, %b : T`: equality of values `arith.cmpi` cannot compare
    (references such as `!util.buffer`)."""

    name = "util.cmp.eq"

    assembly_format = None


@irdl_op_definition
class CmpNEOp(_CompareOp):
    """`util.cmp.ne %a, %b : T`."""

    name = "util.cmp.ne"

    assembly_format = None


@irdl_op_definition
class NumericOptionalNarrowOp(IRDLOperation):
    """`util.numeric.optional_narrow %x : T as semantic_type {min_value, max_value}`:
    a point where narrowing to `semantic_type` loses nothing."""

    name = "util.numeric.optional_narrow"

    T: ClassVar = VarConstraint("T", base(IntegerType) | base(AnyFloat) | base(TensorType))

    operand = operand_def(T)
    semantic_type = prop_def(TypeAttribute)
    min_value = opt_prop_def(IntegerAttr)
    max_value = opt_prop_def(IntegerAttr)
    result = result_def(T)

    traits = traits_def(Pure())

    custom_directives = (NarrowRange,)
    assembly_format = (
        "$operand `:` type($operand) `as` $semantic_type "
        "custom<NarrowRange>($min_value, $max_value) attr-dict"
    )

    def verify_(self) -> None:
        verify_no_inherent_attributes(self)


# --------------------------------------------------------------------------------
# Range and offset arithmetic
# --------------------------------------------------------------------------------


class _UniformRangeOp(IRDLOperation):
    T: ClassVar = VarConstraint("T", _RANGE)

    operands_ = var_operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), VALUE_PATTERNS)

    assembly_format = "$operands_ attr-dict `:` type($result)"

    def __init__(self, values: Sequence[SSAValue], type: Attribute):
        super().__init__(operands=[values], result_types=[type])


@irdl_op_definition
class RangeMinOp(_UniformRangeOp):
    """`util.range.min %a, %b, ... : T`: the (signed) minimum of the values."""

    name = "util.range.min"


@irdl_op_definition
class RangeMaxOp(_UniformRangeOp):
    """`util.range.max %a, %b, ... : T`."""

    name = "util.range.max"


@irdl_custom_directive
class RangeList(CustomDirective):
    """`custom<RangeList>($offsets, $lengths)`: `[%o for %l], [%o for %l], ...`."""

    offsets: VariadicOperandVariable
    lengths: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        offsets: list[UnresolvedOperand] = []
        lengths: list[UnresolvedOperand] = []

        def entry() -> None:
            offsets.append(parser.parse_unresolved_operand())
            parser.parse_keyword("for")
            lengths.append(parser.parse_unresolved_operand())

        parser.parse_comma_separated_list(
            parser.Delimiter.NONE,
            lambda: parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry),
        )
        self.offsets.set(state, offsets)
        self.lengths.set(state, lengths)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_string(" ")
        printer.print_list(
            zip(self.offsets.get(op), self.lengths.get(op)),
            lambda pair: _print_range(printer, *pair),
        )
        state.should_emit_space = True
        state.last_was_punctuation = False


def _print_range(printer: Printer, offset: SSAValue, length: SSAValue) -> None:
    printer.print_string("[")
    printer.print_operand(offset)
    printer.print_string(" for ")
    printer.print_operand(length)
    printer.print_string("]")


@irdl_op_definition
class RangeExtentsOp(IRDLOperation):
    """`util.range.extents [%o for %l], ... : T -> %min, %max`: min(offsets) and
    max(offset + length - 1) of a union of ranges."""

    name = "util.range.extents"

    T: ClassVar = VarConstraint("T", _RANGE)

    offsets = var_operand_def(T)
    lengths = var_operand_def(T)
    min = result_def(T)
    max = result_def(T)

    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(Pure(), FixedResultNames(("min", "max")), VALUE_PATTERNS)

    custom_directives = (RangeList,)
    assembly_format = "custom<RangeList>($offsets, $lengths) attr-dict `:` type($min)"

    def __init__(
        self, offsets: Sequence[SSAValue], lengths: Sequence[SSAValue], type: Attribute
    ):
        super().__init__(operands=[offsets, lengths], result_types=[type, type])

    def verify_(self) -> None:
        if len(self.offsets) != len(self.lengths):
            raise VerifyException("expected as many offsets as lengths")


@irdl_op_definition
class AlignOp(IRDLOperation):
    """`util.align %value, %alignment : T`: `value` rounded up to a power-of-two
    `alignment`."""

    name = "util.align"

    T: ClassVar = VarConstraint("T", _RANGE)

    value = operand_def(T)
    alignment = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure(), VALUE_PATTERNS, AlignsUp())

    assembly_format = "$value `,` $alignment attr-dict `:` type($result)"

    def __init__(self, value: SSAValue | Operation, alignment: SSAValue | Operation):
        super().__init__(
            operands=[value, alignment], result_types=[SSAValue.get(value).type]
        )


@irdl_op_definition
class SizeOfOp(IRDLOperation):
    """`util.sizeof T`: the bytes of a type whose size only later lowering knows
    (folds for integers and floats)."""

    name = "util.sizeof"

    sized_type = prop_def(TypeAttribute, prop_name="sizedType")
    size = result_def(IndexType)

    traits = traits_def(Pure(), VALUE_PATTERNS)

    assembly_format = "$sizedType attr-dict-with-keyword"


# --------------------------------------------------------------------------------
# Value utilities and compiler hints
# --------------------------------------------------------------------------------


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """`util.switch T from [%a, %b] at %index else %default : T`: `values[index]`,
    or `default` when the index is out of range."""

    name = "util.switch"

    index = operand_def(IndexType)
    default_value = operand_def(_PRIMITIVE)
    values = var_operand_def(_PRIMITIVE)
    result = result_def(_PRIMITIVE)

    traits = traits_def(Pure(), VALUE_PATTERNS)

    def __init__(
        self, index: SSAValue, default: SSAValue, values: Sequence[SSAValue]
    ):
        super().__init__(
            operands=[index, default, values], result_types=[default.type]
        )

    def verify_(self) -> None:
        if self.default_value.type != self.result.type:
            raise VerifyException(
                "failed to verify that all of {default_value, result} have same type"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        type = parser.parse_type()
        parser.parse_keyword("from")
        values = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_keyword("at")
        index = parser.parse_unresolved_operand()
        parser.parse_keyword("else")
        default = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        pos = parser.pos
        (index_value,) = parser.resolve_operands([index], [IndexType()], pos)
        (default_value,) = parser.resolve_operands([default], [type], pos)
        resolved = parser.resolve_operands(values, [type] * len(values), pos)
        op = cls.create(
            operands=[index_value, default_value, *resolved],
            result_types=[result_type],
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.default_value.type)
        printer.print_string(" from [")
        printer.print_list(self.values, printer.print_operand)
        printer.print_string("] at ")
        printer.print_operand(self.index)
        printer.print_string(" else ")
        printer.print_operand(self.default_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


def _parse_assumption(parser: Parser) -> IntAssumptionAttr:
    """An assumption stripped (`<umin = 0>`) or in full (`#util.int.assumption<..>`)."""
    if parser.parse_optional_punctuation("<") is not None:
        return IntAssumptionAttr.new(IntAssumptionAttr.parse_after_angle(parser))
    pos = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, IntAssumptionAttr):
        parser.raise_error("expected an #util.int.assumption", pos)
    return attr


@irdl_op_definition
class AssumeIntOp(IRDLOperation):
    """`util.assume.int %a<umin = 0, umax = 9>, %b[<udiv = 4>, <udiv = 8>] : T, U`:
    each result is its operand, with rows of assumptions about it (one row
    broadcasts to the others' rank)."""

    name = "util.assume.int"

    operands_ = var_operand_def(_RANGE)
    assumptions = prop_def(ArrayAttr[ArrayAttr[IntAssumptionAttr]])
    results_ = var_result_def(_RANGE)

    traits = traits_def(Pure(), VALUE_PATTERNS)

    def __init__(
        self,
        values: Sequence[SSAValue],
        assumptions: Sequence[Sequence[IntAssumptionAttr]],
    ):
        super().__init__(
            operands=[values],
            result_types=[[v.type for v in values]],
            properties={"assumptions": ArrayAttr([ArrayAttr(r) for r in assumptions])},
        )

    def rows(self, index: int) -> tuple[IntAssumptionAttr, ...]:
        return tuple(self.assumptions.data[index].data)

    def verify_(self) -> None:
        if tuple(self.operands_.types) != tuple(self.results_.types):
            raise VerifyException(
                "failed to verify that all of {operands, results} have same type"
            )
        if len(self.operands_) != len(self.assumptions.data):
            raise VerifyException(
                f"expected {len(self.operands_)} assumption rows to match number "
                "of operands"
            )
        rank = None
        for index, row in enumerate(self.assumptions.data):
            if len(row.data) == 1:
                continue
            if rank is not None and rank != len(row.data):
                raise VerifyException(
                    f"expected operand #{index} to have {rank} assumptions but it "
                    f"has {len(row.data)}"
                )
            rank = len(row.data)

    @classmethod
    def parse(cls, parser: Parser) -> AssumeIntOp:
        operands: list[UnresolvedOperand] = []
        rows: list[list[IntAssumptionAttr]] = []

        def entry() -> None:
            operands.append(parser.parse_unresolved_operand())
            if parser.parse_optional_punctuation("[") is None:
                rows.append([_parse_assumption(parser)])
                return
            row: list[IntAssumptionAttr] = []
            if parser.parse_optional_punctuation("]") is None:
                row = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, lambda: _parse_assumption(parser)
                )
                parser.parse_punctuation("]")
            rows.append(row)

        parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        values = parser.resolve_operands(operands, types, parser.pos)
        attributes = parser.parse_optional_attr_dict()
        op = cls(values, rows)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        """IREE's layout: two or more operands one a line, two levels in, and the
        types on a line of their own, one level in."""
        printer.print_string(" ")
        multi_line = len(self.operands_) > 1

        def operands() -> None:
            for index, value in enumerate(self.operands_):
                if index:
                    printer.print_string(", \n" if multi_line else ", ")
                printer.print_operand(value)
                row = self.rows(index)
                if len(row) == 1:
                    row[0].print_parameters(printer)
                else:
                    printer.print_string("[")
                    printer.print_list(row, lambda a: a.print_parameters(printer))
                    printer.print_string("]")

        if multi_line:
            with printer.indented(2):
                printer.print_string("\n")
                operands()
            with printer.indented(1):
                printer.print_string("\n: ")
                printer.print_list(self.operands_.types, printer.print_attribute)
                printer.print_op_attributes(self.attributes)
            return
        operands()
        printer.print_string(" : ")
        printer.print_list(self.operands_.types, printer.print_attribute)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class HoistableConversionOp(IRDLOperation):
    """`util.hoistable_conversion "tag" inverts("inverse") (%a = %x, ...) :
    (T) -> (U) { ... util.return ... }`: a conversion that loop passes may hoist
    or cancel against its inverse; running its body once is its meaning."""

    name = "util.hoistable_conversion"

    tag = prop_def(StringAttr)
    inverse_tag = prop_def(StringAttr, prop_name="inverseTag")
    inputs = var_operand_def()
    results_ = var_result_def()
    body = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        blocks = list(self.body.blocks)
        if len(blocks) != 1:
            raise VerifyException("expected exactly one block in the body region")
        block = blocks[0]
        if len(block.args) != len(self.inputs):
            raise VerifyException(
                f"expected {len(self.inputs)} block arguments but got {len(block.args)}"
            )
        for i, (arg, value) in enumerate(zip(block.args, self.inputs)):
            if arg.type != value.type:
                raise VerifyException(
                    f"block argument #{i} type '{arg.type}' does not match input "
                    f"type '{value.type}'"
                )
        terminator = block.last_op
        if terminator is None or terminator.name != "util.return":
            raise VerifyException("expected the body to end in util.return")
        if len(terminator.operands) != len(self.results_):
            raise VerifyException(
                f"return has {len(terminator.operands)} operands but op has "
                f"{len(self.results_)} results"
            )
        for i, (value, result) in enumerate(zip(terminator.operands, self.results_)):
            if value.type != result.type:
                raise VerifyException(
                    f"return operand #{i} type '{value.type}' does not match result "
                    f"type '{result.type}'"
                )

    @classmethod
    def parse(cls, parser: Parser) -> HoistableConversionOp:
        tag = parser.parse_str_literal()
        parser.parse_keyword("inverts")
        parser.parse_punctuation("(")
        inverse = parser.parse_str_literal()
        parser.parse_punctuation(")")
        names: list[Parser.UnresolvedArgument] = []
        inputs: list[UnresolvedOperand] = []

        def assignment() -> None:
            names.append(parser.parse_argument(expect_type=False))
            parser.parse_punctuation("=")
            inputs.append(parser.parse_unresolved_operand())

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, assignment)
        parser.parse_punctuation(":")
        pos = parser.pos
        signature = parser.parse_function_type()
        if len(signature.inputs) != len(inputs):
            parser.raise_error(
                "expected as many input types as operands (expected "
                f"{len(inputs)} got {len(signature.inputs)})",
                pos,
            )
        values = parser.resolve_operands(inputs, signature.inputs.data, pos)
        arguments = [n.resolve(t) for n, t in zip(names, signature.inputs.data)]
        body = parser.parse_region(arguments)
        attributes = parser.parse_optional_attr_dict()
        op = cls.create(
            operands=values,
            result_types=list(signature.outputs.data),
            properties={"tag": StringAttr(tag), "inverseTag": StringAttr(inverse)},
            regions=[body],
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.tag)
        printer.print_string(" inverts(")
        printer.print_attribute(self.inverse_tag)
        printer.print_string(") (")
        block = self.body.block
        printer.print_list(
            zip(block.args, self.inputs),
            lambda pair: (
                printer.print_operand(pair[0]),
                printer.print_string(" = "),
                printer.print_operand(pair[1]),
            ),
        )
        printer.print_string(") : ")
        printer.print_attribute(
            FunctionType.from_lists(list(self.inputs.types), list(self.results_.types))
        )
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class UnfoldableConstantOp(IRDLOperation):
    """`util.unfoldable_constant 42 : i32`: a constant nothing may fold (unknown
    effects); canonicalizes to `arith.constant` behind `util.optimization_barrier`."""

    name = "util.unfoldable_constant"

    value = prop_def(Attribute)
    result = result_def()

    traits = traits_def(VALUE_PATTERNS)

    @classmethod
    def parse(cls, parser: Parser) -> UnfoldableConstantOp:
        attributes = parser.parse_optional_attr_dict()
        value = parser.parse_attribute()
        if isinstance(value, SymbolRefAttr):
            parser.parse_punctuation(":")
            type = parser.parse_type()
        elif isinstance(value, TypedAttribute):
            type = value.get_type()
        else:
            parser.raise_error("expected a typed attribute or a symbol and a type")
        op = cls.create(result_types=[type], properties={"value": value})
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_op_attributes(self.attributes)
        if self.attributes:
            printer.print_string(" ")
        printer.print_attribute(self.value)
        if isinstance(self.value, SymbolRefAttr):
            printer.print_string(" : ")
            printer.print_attribute(self.result.type)


VALUE_OPS = (
    NullOp,
    CastOp,
    CmpEQOp,
    CmpNEOp,
    NumericOptionalNarrowOp,
    RangeMinOp,
    RangeMaxOp,
    RangeExtentsOp,
    AlignOp,
    SizeOfOp,
    SwitchOp,
    AssumeIntOp,
    HoistableConversionOp,
    UnfoldableConstantOp,
)
"""The value ops, registered in the `util` dialect (`memplan.dialects.iree.util`)."""

VALUE_ATTRIBUTES = (
    ObjectType,
    VariantType,
    IntAssumptionAttr,
    NullAttr,
    ByteRangeAttr,
    PreprocessingPipelineAttr,
)
