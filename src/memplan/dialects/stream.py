"""IREE's `stream` dialect: the subset memplan's cleanup passes read (IREE 3.13 syntax).

Types: `!stream.resource<L>` (L one of `*`, `external`, `staging`, `transient`,
`variable`, `constant`) and `!stream.timepoint`. Attributes:
`#stream.parameter.named<"scope"::"key", {config}> : type` (a parameter loaded from
an archive at runtime) and `#stream.timepoint<immediate>`.

Effects, as IREE 3.13 declares them unless noted, and why they matter to CSE:

- Pure: `tensor.constant`, `resource.size`, `async.transfer` (Pure since IREE's seed
  PR #21921; before it, two identical transfers were never merged, which left the
  seed's initializer with two copies of every encoded weight), `tensor.sizeof`,
  `tensor.encode`, `timepoint.immediate`, `timepoint.join`, `timepoint.await`.
- `async.dispatch`: READs its resource operands, WRITEs the operands its results
  are tied to, and ALLOCates its untied results. IREE 3.13 declares nothing and its
  CSE merges two identical dispatches, so two consumers then share one buffer (IREE
  bug #23665); the ALLOC on fresh results is memplan's deliberate difference.
- `async.alloca`, `resource.alloc`, `resource.alloca` ALLOCate their resource
  result; `resource.dealloca` FREEs its operand.
- `async.clone` is not Pure: it READs its source and ALLOCates its result (IREE
  3.13 canonicalizes same-affinity transfers into clones, which is why its cleanup
  no longer merges the seed's duplicates; memplan does not do that rewrite).

Every effect names the value (or symbol) it touches, so alias-aware passes can
reason per resource. Ops with size-aware operands/results answer
`SizeAware.result_size` / `operand_size` (IREE's `SizeAwareOpInterface`), which is
what a `resource.size` folder needs.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Sequence
from enum import Enum

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    NoneAttr,
    NoneType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
    TypedAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    AlwaysSpeculatable,
    EffectInstance,
    MemoryEffect,
    MemoryEffectKind,
    OpTrait,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.hal import DeviceAffinityAttr
from memplan.dialects.util import (
    parse_result_list,
    parse_sized_type,
    print_result_list,
    print_sized_type,
    resolve_tied,
    tied_indices,
    tied_operands_attr,
    verify_tied_operands,
)
from memplan.interfaces import OperandEffects, all_results, operands_named
from memplan.printing import FixedResultNames

__all__ = [
    "AsyncAllocaOp",
    "AsyncCloneOp",
    "AsyncDispatchOp",
    "AsyncTransferOp",
    "Lifetime",
    "NamedParameterAttr",
    "ResourceAllocOp",
    "ResourceAllocaOp",
    "ResourceDeallocaOp",
    "ResourceSizeOp",
    "ResourceType",
    "SizeAware",
    "Stream",
    "TensorConstantOp",
    "TensorEncodeOp",
    "TensorSizeOfOp",
    "TimepointAttr",
    "TimepointAwaitOp",
    "TimepointImmediateOp",
    "TimepointJoinOp",
    "TimepointType",
    "find_size",
]

# --------------------------------------------------------------------------------
# Types and attributes
# --------------------------------------------------------------------------------


class Lifetime(str, Enum):
    """The lifetime of a `!stream.resource`; `*` is not yet decided."""

    UNKNOWN = "*"
    EXTERNAL = "external"
    STAGING = "staging"
    TRANSIENT = "transient"
    VARIABLE = "variable"
    CONSTANT = "constant"


_LIFETIMES = {lifetime.value: lifetime for lifetime in Lifetime}


@irdl_attr_definition
class ResourceType(ParametrizedAttribute, TypeAttribute):
    """`!stream.resource<L>`: a sized byte buffer with lifetime L."""

    name = "stream.resource"

    lifetime_attr: StringAttr

    def __init__(self, lifetime: Lifetime | str = Lifetime.UNKNOWN):
        super().__init__(StringAttr(Lifetime(lifetime).value))

    @property
    def lifetime(self) -> Lifetime:
        return _LIFETIMES[self.lifetime_attr.data]

    def verify(self) -> None:
        if self.lifetime_attr.data not in _LIFETIMES:
            raise VerifyException(
                f"unknown resource lifetime '{self.lifetime_attr.data}'"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation("*") is not None:
                return (StringAttr("*"),)
            pos = parser.pos
            word = parser.parse_identifier()
            if word not in _LIFETIMES:
                parser.raise_error(
                    f"expected a resource lifetime ({', '.join(_LIFETIMES)}), "
                    f"got '{word}'",
                    pos,
                )
            return (StringAttr(word),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.lifetime_attr.data}>")


@irdl_attr_definition
class TimepointType(ParametrizedAttribute, TypeAttribute):
    """`!stream.timepoint`: a point on the device timeline."""

    name = "stream.timepoint"


def _parse_optional_type_suffix(parser: AttrParser) -> Attribute:
    """MLIR's parser reads `: type` after any dialect attribute; none means `none`."""
    if parser.parse_optional_punctuation(":") is not None:
        return parser.parse_type()
    return NoneType()


def _print_type_suffix(printer: Printer, type: Attribute) -> None:
    if not isinstance(type, NoneType):
        printer.print_string(" : ")
        printer.print_attribute(type)


@irdl_attr_definition
class NamedParameterAttr(TypedAttribute):
    """`#stream.parameter.named<("scope"::)?"key"(, {config})?> : type`."""

    name = "stream.parameter.named"

    scope: StringAttr | NoneAttr
    key: StringAttr
    config: DictionaryAttr | NoneAttr
    type: Attribute

    def __init__(
        self,
        key: str | StringAttr,
        type: Attribute = NoneType(),
        *,
        scope: str | StringAttr | None = None,
        config: DictionaryAttr | dict[str, Attribute] | None = None,
    ):
        if isinstance(key, str):
            key = StringAttr(key)
        if isinstance(scope, str):
            scope = StringAttr(scope)
        if isinstance(config, dict):
            config = DictionaryAttr(config)
        super().__init__(
            NoneAttr() if scope is None else scope,
            key,
            NoneAttr() if config is None else config,
            type,
        )

    @classmethod
    def _parse_body(
        cls, parser: AttrParser
    ) -> tuple[StringAttr | NoneAttr, StringAttr, DictionaryAttr | NoneAttr]:
        with parser.in_angle_brackets():
            first = StringAttr(parser.parse_str_literal())
            scope: StringAttr | NoneAttr = NoneAttr()
            key = first
            # `::` is two `:` tokens to xDSL's lexer.
            if parser.parse_optional_punctuation(":") is not None:
                parser.parse_punctuation(":")
                scope, key = first, StringAttr(parser.parse_str_literal())
            config: DictionaryAttr | NoneAttr = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                parsed = parser.parse_attribute()
                if not isinstance(parsed, DictionaryAttr):
                    parser.raise_error("expected a config dictionary")
                config = parsed
        return scope, key, config

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        scope, key, config = cls._parse_body(parser)
        return scope, key, config, _parse_optional_type_suffix(parser)

    @staticmethod
    def parse_with_type(parser: AttrParser, type: Attribute) -> TypedAttribute:
        scope, key, config = NamedParameterAttr._parse_body(parser)
        return NamedParameterAttr.new((scope, key, config, type))

    def print_without_type(self, printer: Printer) -> None:
        printer.print_string("<")
        if isinstance(self.scope, StringAttr):
            printer.print_string_literal(self.scope.data)
            printer.print_string("::")
        printer.print_string_literal(self.key.data)
        if isinstance(self.config, DictionaryAttr):
            printer.print_string(", ")
            printer.print_attribute(self.config)
        printer.print_string(">")

    def print_parameters(self, printer: Printer) -> None:
        self.print_without_type(printer)
        _print_type_suffix(printer, self.type)


@irdl_attr_definition
class TimepointAttr(TypedAttribute):
    """`#stream.timepoint<immediate> : !stream.timepoint`, an already-reached
    timepoint (the initial value of timepoint globals)."""

    name = "stream.timepoint"

    type: Attribute

    def __init__(self, type: Attribute | None = None):
        super().__init__(TimepointType() if type is None else type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            parser.parse_keyword("immediate")
        type = _parse_optional_type_suffix(parser)
        return (TimepointType() if isinstance(type, NoneType) else type,)

    @staticmethod
    def parse_with_type(parser: AttrParser, type: Attribute) -> TypedAttribute:
        with parser.in_angle_brackets():
            parser.parse_keyword("immediate")
        return TimepointAttr(type)

    def print_without_type(self, printer: Printer) -> None:
        printer.print_string("<immediate>")

    def print_parameters(self, printer: Printer) -> None:
        self.print_without_type(printer)
        _print_type_suffix(printer, self.type)


# --------------------------------------------------------------------------------
# Interfaces
# --------------------------------------------------------------------------------


class SizeAware(OpTrait, ABC):
    """IREE's `SizeAwareOpInterface`: the byte size of each resource operand and
    result, as an SSA index value (None for values that are not resources)."""

    def result_size(self, op: Operation, index: int) -> SSAValue | None:
        method: Callable[[int], SSAValue | None] | None = getattr(
            op, "result_size_of", None
        )
        return method(index) if method is not None else None

    def operand_size(self, op: Operation, index: int) -> SSAValue | None:
        method: Callable[[int], SSAValue | None] | None = getattr(
            op, "operand_size_of", None
        )
        return method(index) if method is not None else None


def find_size(value: SSAValue) -> SSAValue | None:
    """The size of a resource value as its defining op states it, if it does."""
    from xdsl.ir import OpResult

    if not isinstance(value, OpResult):
        return None
    trait = value.op.get_trait(SizeAware)
    if trait is None:
        return None
    return trait.result_size(value.op, value.index)


def _dynamic_dim_count(type: Attribute) -> int:
    if isinstance(type, TensorType):
        return sum(1 for dim in type.get_shape() if dim < 0)
    return 0


def _verify_dims(type: Attribute, dims: Sequence[SSAValue], what: str) -> None:
    expected = _dynamic_dim_count(type)
    if expected != len(dims):
        raise VerifyException(
            f"{what} has {expected} dynamic dimensions but only {len(dims)} "
            "dimension values are attached"
        )


_AFFINITY = "(`on` `(` qualified($affinity)^ `)`)?"


def _at_operand_brace(parser: Parser) -> bool:
    """Whether the next token is a `{` opening an SSA operand list (`{%d0}`), not
    an attribute dictionary (`{foo}`): MLIR's parser makes the same distinction."""
    content = parser.lexer.input.content
    pos = parser.pos
    if pos >= len(content) or content[pos] != "{":
        return False
    return content[pos + 1 :].lstrip().startswith("%")


@irdl_custom_directive
class EncodingDims(CustomDirective):
    """`custom<EncodingDims>($dims)`: the dynamic dimensions of an encoding type,
    `tensor<?x4xf32>{%d0}`, printed right after the type; nothing when static."""

    dims: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        operands: list[UnresolvedOperand] = []
        if _at_operand_brace(parser):
            operands = parser.parse_comma_separated_list(
                parser.Delimiter.BRACES, parser.parse_unresolved_operand
            )
        self.dims.set(state, operands)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        dims = self.dims.get(op)
        if dims:
            printer.print_string("{")
            printer.print_list(dims, printer.print_operand)
            printer.print_string("}")


# --------------------------------------------------------------------------------
# Pure tensor/resource ops
# --------------------------------------------------------------------------------


@irdl_op_definition
class TensorConstantOp(IRDLOperation):
    """`stream.tensor.constant (on(aff))? : encoding({dims})? in type = value` --
    a resource initialized with a constant or a named parameter. Pure."""

    name = "stream.tensor.constant"

    result_encoding_dims = var_operand_def(IndexType)
    value = prop_def(Attribute)
    result_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)

    traits = traits_def(Pure(), FixedResultNames(("cst",)))

    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " `:` $result_encoding custom<EncodingDims>($result_encoding_dims) "
        "`in` type($result) `=` $value attr-dict-with-keyword"
    )

    def __init__(
        self,
        value: Attribute,
        result_encoding: Attribute,
        result_type: ResourceType = ResourceType(Lifetime.CONSTANT),
        *,
        result_encoding_dims: Sequence[SSAValue | Operation] = (),
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[result_encoding_dims],
            properties={
                "value": value,
                "result_encoding": result_encoding,
                "affinity": affinity,
            },
            result_types=[result_type],
        )
        self.result.name_hint = "cst"

    def verify_(self) -> None:
        _verify_dims(self.result_encoding, self.result_encoding_dims, "type set")


@irdl_op_definition
class ResourceSizeOp(IRDLOperation):
    """`stream.resource.size %r (<affinity = aff>)? : type` -- the byte size of a
    resource. Pure; a folder replaces it by `find_size(%r)` when that is known."""

    name = "stream.resource.size"

    operand = operand_def(ResourceType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(
        self,
        operand: SSAValue | Operation,
        *,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[operand],
            properties={"affinity": affinity},
            result_types=[IndexType()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ResourceSizeOp:
        unresolved = parser.parse_unresolved_operand()
        affinity = None
        if parser.parse_optional_punctuation("<") is not None:
            # IREE prints `<affinity = ...>` and also reads `<{affinity = ...}>`.
            braced = parser.parse_optional_punctuation("{") is not None
            pos = parser.pos
            parser.parse_keyword("affinity")
            parser.parse_punctuation("=")
            affinity = parser.parse_attribute()
            if not isinstance(affinity, DeviceAffinityAttr):
                parser.raise_error("expected a #hal.device.affinity", pos)
            if braced:
                parser.parse_punctuation("}")
            parser.parse_punctuation(">")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type = parser.parse_type()
        op = cls(parser.resolve_operand(unresolved, type), affinity=affinity)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        if self.affinity is not None:
            printer.print_string(" <affinity = ")
            printer.print_attribute(self.affinity)
            printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)


@irdl_op_definition
class AsyncTransferOp(IRDLOperation):
    """`stream.async.transfer (on(exec))? %src : type{%size} (from(aff))? ->
    (to(aff))? type{%size}` -- moves or converts a resource between lifetimes or
    devices. Pure (IREE's seed PR), so CSE merges identical transfers."""

    name = "stream.async.transfer"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_affinity = opt_prop_def(DeviceAffinityAttr)
    target_affinity = opt_prop_def(DeviceAffinityAttr)
    execution_affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)

    traits = traits_def(Pure(), SizeAware())

    assembly_format = (
        "(`on` `(` qualified($execution_affinity)^ `)`)? "
        "$source `:` type($source) `` `{` $source_size `}` "
        "(`from` `(` qualified($source_affinity)^ `)`)? `->` "
        "(`to` `(` qualified($target_affinity)^ `)`)? "
        "type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        result_type: ResourceType,
        result_size: SSAValue | Operation,
        *,
        source_affinity: DeviceAffinityAttr | None = None,
        target_affinity: DeviceAffinityAttr | None = None,
        execution_affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            properties={
                "source_affinity": source_affinity,
                "target_affinity": target_affinity,
                "execution_affinity": execution_affinity,
            },
            result_types=[result_type],
        )

    @property
    def result_affinity(self) -> DeviceAffinityAttr | None:
        """The affinity of the result (IREE 3.13 calls it `target_affinity`)."""
        return self.target_affinity

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.result_size

    def operand_size_of(self, index: int) -> SSAValue | None:
        return self.source_size if index == 0 else None


@irdl_op_definition
class TensorSizeOfOp(IRDLOperation):
    """`stream.tensor.sizeof (on(aff))? encoding({dims})? : index` -- the storage
    size of a tensor in its encoding on a device. Pure."""

    name = "stream.tensor.sizeof"

    encoding_dims = var_operand_def(IndexType)
    encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    storage_size = result_def(IndexType)

    traits = traits_def(Pure())

    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " $encoding custom<EncodingDims>($encoding_dims) attr-dict "
        "`:` type($storage_size)"
    )

    def __init__(
        self,
        encoding: Attribute,
        *,
        encoding_dims: Sequence[SSAValue | Operation] = (),
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[encoding_dims],
            properties={"encoding": encoding, "affinity": affinity},
            result_types=[IndexType()],
        )

    def verify_(self) -> None:
        _verify_dims(self.encoding, self.encoding_dims, "type set")


@irdl_op_definition
class TensorEncodeOp(IRDLOperation):
    """`stream.tensor.encode (on(aff))? %src : enc({dims})? in type{%size} ->
    enc({dims})? in type{%size}` -- re-lays-out a tensor for another encoding.
    Pure; folds to its source when both encodings are equal."""

    name = "stream.tensor.encode"

    source = operand_def(ResourceType)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_encoding = prop_def(TypeAttribute)
    result_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), SizeAware())

    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " $source `:` $source_encoding "
        "custom<EncodingDims>($source_encoding_dims) `in` type($source) `` `{` "
        "$source_size `}` `->` $result_encoding custom<EncodingDims>($result_encoding_dims) `in` "
        "type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_encoding: Attribute,
        source_size: SSAValue | Operation,
        result_encoding: Attribute,
        result_size: SSAValue | Operation,
        result_type: ResourceType = ResourceType(),
        *,
        source_encoding_dims: Sequence[SSAValue | Operation] = (),
        result_encoding_dims: Sequence[SSAValue | Operation] = (),
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[
                source,
                source_encoding_dims,
                source_size,
                result_encoding_dims,
                result_size,
            ],
            properties={
                "source_encoding": source_encoding,
                "result_encoding": result_encoding,
                "affinity": affinity,
            },
            result_types=[result_type],
        )

    def verify_(self) -> None:
        _verify_dims(self.source_encoding, self.source_encoding_dims, "type set")
        _verify_dims(self.result_encoding, self.result_encoding_dims, "type set")

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.result_size

    def operand_size_of(self, index: int) -> SSAValue | None:
        return self.source_size if index == 0 else None


# --------------------------------------------------------------------------------
# Allocation, cloning, dispatch
# --------------------------------------------------------------------------------


@irdl_op_definition
class AsyncAllocaOp(IRDLOperation):
    """`stream.async.alloca (on(aff))? : type{%size}` -- a fresh transient
    resource; ALLOCates its result."""

    name = "stream.async.alloca"

    storage_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)

    traits = traits_def(
        OperandEffects(allocates=all_results), AlwaysSpeculatable(), SizeAware()
    )

    assembly_format = (
        _AFFINITY + " attr-dict `:` type($result) `` `{` $storage_size `}`"
    )

    def __init__(
        self,
        result_type: ResourceType,
        storage_size: SSAValue | Operation,
        *,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[storage_size],
            properties={"affinity": affinity},
            result_types=[result_type],
        )

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.storage_size


@irdl_op_definition
class AsyncCloneOp(IRDLOperation):
    """`stream.async.clone (on(aff))? %src : type{%size} -> type{%size}` -- a copy
    of a resource. Not Pure: READs the source, ALLOCates the result."""

    name = "stream.async.clone"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)

    traits = traits_def(
        OperandEffects(reads=operands_named("source"), allocates=all_results),
        SizeAware(),
    )

    assembly_format = (
        _AFFINITY + " $source `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        result_type: ResourceType,
        result_size: SSAValue | Operation,
        *,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            properties={"affinity": affinity},
            result_types=[result_type],
        )

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.result_size

    def operand_size_of(self, index: int) -> SSAValue | None:
        return self.source_size if index == 0 else None


class _DispatchEffects(MemoryEffect):
    """READ of every resource operand, WRITE of the operands results are tied to
    (updated in place), ALLOC of every untied result (a fresh buffer: two
    dispatches are never one, IREE bug #23665)."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        assert isinstance(op, AsyncDispatchOp)
        effects = {
            EffectInstance(MemoryEffectKind.READ, value)
            for value in op.resource_operands
            if isinstance(value.type, ResourceType)
        }
        for result, tie in zip(op.results, op.tied_result_operands()):
            if tie is None:
                effects.add(EffectInstance(MemoryEffectKind.ALLOC, result))
            else:
                effects.add(
                    EffectInstance(MemoryEffectKind.WRITE, op.resource_operands[tie])
                )
        return effects


def _parse_dispatch_operand(
    parser: Parser,
    operands: list[UnresolvedOperand],
    ranges: list[tuple[int, UnresolvedOperand, UnresolvedOperand, UnresolvedOperand]],
) -> None:
    """`%x` or `%x[%offset to %end for %length]`."""
    operand = parser.parse_unresolved_operand()
    if parser.parse_optional_punctuation("[") is not None:
        offset = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        end = parser.parse_unresolved_operand()
        parser.parse_keyword("for")
        length = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        ranges.append((len(operands), offset, end, length))
    operands.append(operand)


@irdl_op_definition
class AsyncDispatchOp(IRDLOperation):
    """`stream.async.dispatch (on(aff))? @ex::@entry([workload])?(operands) :
    (types) -> results` -- runs an executable entry point on resource ranges.

    Resource operands are written `%r[%offset to %end for %length]` and typed
    `type{%size}`; a result is either fresh (`type{%size}`) or tied to an operand
    (`%r{%size}`, `%r as type{%size}`). `tied_operands` indexes
    `resource_operands`. Effects: see `_DispatchEffects`.
    """

    name = "stream.async.dispatch"

    workload = var_operand_def(IndexType)
    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    resource_operand_offsets = var_operand_def(IndexType)
    resource_operand_ends = var_operand_def(IndexType)
    resource_operand_lengths = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(DeviceAffinityAttr)
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(_DispatchEffects(), SizeAware())

    def __init__(
        self,
        entry_points: SymbolRefAttr | Sequence[SymbolRefAttr],
        operands: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        *,
        workload: Sequence[SSAValue | Operation] = (),
        operand_sizes: Sequence[SSAValue | Operation] = (),
        operand_offsets: Sequence[SSAValue | Operation] = (),
        operand_ends: Sequence[SSAValue | Operation] = (),
        operand_lengths: Sequence[SSAValue | Operation] = (),
        result_sizes: Sequence[SSAValue | Operation] = (),
        tied_operands: Sequence[int | None] | None = None,
        affinity: DeviceAffinityAttr | None = None,
    ):
        """Sizes/offsets/ends/lengths list one entry per resource-typed operand, in
        order; `result_sizes` one per resource-typed result."""
        if isinstance(entry_points, SymbolRefAttr):
            entry_points = [entry_points]
        if tied_operands is None and result_types:
            tied_operands = [None] * len(result_types)
        super().__init__(
            operands=[
                workload,
                operands,
                operand_sizes,
                operand_offsets,
                operand_ends,
                operand_lengths,
                result_sizes,
            ],
            properties={
                "entry_points": ArrayAttr(entry_points),
                "tied_operands": (
                    None if tied_operands is None else tied_operands_attr(tied_operands)
                ),
                "affinity": affinity,
            },
            result_types=[result_types],
        )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        """Per result, the index into `resource_operands` it is tied to."""
        return tied_indices(self.tied_operands, len(self.results))

    def _resource_positions(self, values: Sequence[SSAValue]) -> dict[int, int]:
        positions: dict[int, int] = {}
        for i, value in enumerate(values):
            if isinstance(value.type, ResourceType):
                positions[i] = len(positions)
        return positions

    def result_size_of(self, index: int) -> SSAValue | None:
        position = self._resource_positions(self.results).get(index)
        return None if position is None else self.result_sizes[position]

    def operand_size_of(self, index: int) -> SSAValue | None:
        """The size of `resource_operands[index]` (not of the op's operand #index)."""
        position = self._resource_positions(self.resource_operands).get(index)
        return None if position is None else self.resource_operand_sizes[position]

    def verify_(self) -> None:
        if not self.entry_points.data:
            raise VerifyException("at least one entry point must be defined")
        resources = len(self._resource_positions(self.resource_operands))
        if len(self.resource_operand_sizes) != resources:
            raise VerifyException(
                f"value set has {resources} dynamic dimensions but only "
                f"{len(self.resource_operand_sizes)} dimension values are attached"
            )
        if not (
            len(self.resource_operand_offsets)
            == len(self.resource_operand_ends)
            == len(self.resource_operand_lengths)
            == resources
        ):
            raise VerifyException(
                "mismatch on resource range offsets/ends/lengths; counts must match"
            )
        result_resources = len(self._resource_positions(self.results))
        if len(self.result_sizes) != result_resources:
            raise VerifyException(
                f"value set has {result_resources} dynamic dimensions but only "
                f"{len(self.result_sizes)} dimension values are attached"
            )
        # IREE 3.13 does not check tie indices of dispatches; an out-of-range
        # tie would crash its tied-op helpers, so memplan rejects it.
        verify_tied_operands(
            self, self.tied_operands, len(self.results), len(self.resource_operands)
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncDispatchOp:
        affinity = None
        if parser.parse_optional_keyword("on") is not None:
            parser.parse_punctuation("(")
            pos = parser.pos
            affinity = parser.parse_attribute()
            if not isinstance(affinity, DeviceAffinityAttr):
                parser.raise_error("expected a #hal.device.affinity", pos)
            parser.parse_punctuation(")")

        def parse_symbol() -> SymbolRefAttr:
            pos = parser.pos
            symbol = parser.parse_attribute()
            if not isinstance(symbol, SymbolRefAttr):
                parser.raise_error("expected an entry point symbol", pos)
            return symbol

        if parser.parse_optional_punctuation("{") is not None:
            entry_points = [parse_symbol()]
            while parser.parse_optional_punctuation(",") is not None:
                entry_points.append(parse_symbol())
            parser.parse_punctuation("}")
        else:
            entry_points = [parse_symbol()]

        workload: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation("[") is not None:
            if parser.parse_optional_punctuation("]") is None:
                workload.append(parser.parse_unresolved_operand())
                while parser.parse_optional_punctuation(",") is not None:
                    workload.append(parser.parse_unresolved_operand())
                parser.parse_punctuation("]")

        pos = parser.pos
        operands: list[UnresolvedOperand] = []
        ranges: list[
            tuple[int, UnresolvedOperand, UnresolvedOperand, UnresolvedOperand]
        ] = []
        parser.parse_comma_separated_list(
            parser.Delimiter.PAREN,
            lambda: _parse_dispatch_operand(parser, operands, ranges),
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        typed = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parse_sized_type(parser)
        )
        parser.parse_punctuation("->")
        entries = parse_result_list(parser, sized=True)

        if len(typed) != len(operands):
            parser.raise_error(
                f"{len(operands)} operands but {len(typed)} operand types", pos
            )
        operand_types = [t for t, _ in typed]
        index = IndexType()
        resolved = parser.resolve_operands(operands, operand_types, pos)
        sizes = [
            parser.resolve_operand(size, index) for _, size in typed if size is not None
        ]
        offsets = [parser.resolve_operand(r[1], index) for r in ranges]
        ends = [parser.resolve_operand(r[2], index) for r in ranges]
        lengths = [parser.resolve_operand(r[3], index) for r in ranges]
        ties: list[int | None] = []
        result_types: list[Attribute] = []
        result_sizes: list[SSAValue] = []
        for entry in entries:
            tie, type = resolve_tied(parser, entry, operands, operand_types)
            ties.append(tie)
            result_types.append(type)
            if entry.size is not None:
                result_sizes.append(parser.resolve_operand(entry.size, index))
        op = cls(
            entry_points,
            resolved,
            result_types,
            workload=[parser.resolve_operand(w, index) for w in workload],
            operand_sizes=sizes,
            operand_offsets=offsets,
            operand_ends=ends,
            operand_lengths=lengths,
            result_sizes=result_sizes,
            tied_operands=ties if result_types else None,
            affinity=affinity,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        if self.affinity is not None:
            printer.print_string(" on(")
            printer.print_attribute(self.affinity)
            printer.print_string(")")
        printer.print_string(" ")
        if len(self.entry_points.data) == 1:
            printer.print_attribute(self.entry_points.data[0])
        else:
            printer.print_string("{")
            printer.print_list(self.entry_points.data, printer.print_attribute)
            printer.print_string("}")
        if self.workload:
            printer.print_string("[")
            printer.print_list(self.workload, printer.print_operand)
            printer.print_string("]")
        positions = self._resource_positions(self.resource_operands)

        def print_operand(i: int) -> None:
            printer.print_operand(self.resource_operands[i])
            if (position := positions.get(i)) is not None:
                printer.print_string("[")
                printer.print_operand(self.resource_operand_offsets[position])
                printer.print_string(" to ")
                printer.print_operand(self.resource_operand_ends[position])
                printer.print_string(" for ")
                printer.print_operand(self.resource_operand_lengths[position])
                printer.print_string("]")

        def print_type(i: int) -> None:
            position = positions.get(i)
            print_sized_type(
                printer,
                self.resource_operands[i].type,
                None if position is None else self.resource_operand_sizes[position],
            )

        count = len(self.resource_operands)
        printer.print_string("(")
        printer.print_list(range(count), print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_list(range(count), print_type)
        printer.print_string(") -> ")
        ties = self.tied_result_operands()
        print_result_list(
            printer,
            [r.type for r in self.results],
            [self.result_size_of(i) for i in range(len(self.results))],
            [None if t is None else self.resource_operands[t] for t in ties],
        )


@irdl_op_definition
class ResourceAllocOp(IRDLOperation):
    """`stream.resource.alloc (uninitialized)? (on(aff))? : type{%size}` -- a
    persistent allocation; ALLOCates its result."""

    name = "stream.resource.alloc"

    storage_size = operand_def(IndexType)
    uninitialized = opt_prop_def(UnitAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)

    traits = traits_def(
        OperandEffects(allocates=all_results), AlwaysSpeculatable(), SizeAware()
    )

    assembly_format = (
        "(`uninitialized` $uninitialized^)? " + _AFFINITY
        + " attr-dict `:` type($result) `` `{` $storage_size `}`"
    )

    def __init__(
        self,
        result_type: ResourceType,
        storage_size: SSAValue | Operation,
        *,
        uninitialized: bool = False,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[storage_size],
            properties={
                "uninitialized": UnitAttr() if uninitialized else None,
                "affinity": affinity,
            },
            result_types=[result_type],
        )

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.storage_size


def _only_resource_result(op: Operation) -> tuple[SSAValue, ...]:
    return (op.results[0],)


@irdl_op_definition
class ResourceAllocaOp(IRDLOperation):
    """`stream.resource.alloca uninitialized (indeterminate)? (on(aff))?
    (await(%t) => | :) type{%size} => !stream.timepoint` -- a transient allocation
    usable once its timepoint is reached. ALLOCates the resource result."""

    name = "stream.resource.alloca"

    storage_size = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    indeterminate_lifetime = opt_prop_def(UnitAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(
        OperandEffects(allocates=_only_resource_result),
        AlwaysSpeculatable(),
        SizeAware(),
        FixedResultNames(("result", "result_timepoint")),
    )

    def __init__(
        self,
        result_type: ResourceType,
        storage_size: SSAValue | Operation,
        *,
        await_timepoint: SSAValue | Operation | None = None,
        indeterminate_lifetime: bool = False,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[storage_size, [] if await_timepoint is None else [await_timepoint]],
            properties={
                "indeterminate_lifetime": UnitAttr() if indeterminate_lifetime else None,
                "affinity": affinity,
            },
            result_types=[result_type, TimepointType()],
        )

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.storage_size if index == 0 else None

    @classmethod
    def parse(cls, parser: Parser) -> ResourceAllocaOp:
        parser.parse_keyword("uninitialized")
        indeterminate = parser.parse_optional_keyword("indeterminate") is not None
        affinity = _parse_optional_on(parser)
        await_timepoint = None
        if parser.parse_optional_keyword("await") is not None:
            parser.parse_punctuation("(")
            await_timepoint = parser.resolve_operand(
                parser.parse_unresolved_operand(), TimepointType()
            )
            parser.parse_punctuation(")")
            _parse_fat_arrow(parser)
        else:
            parser.parse_punctuation(":")
        attributes = parser.parse_optional_attr_dict()
        type, size = parse_sized_type(parser)
        if size is None:
            parser.raise_error("expected `{%size}` after the resource type")
        _parse_fat_arrow(parser)
        parser.parse_type()
        if not isinstance(type, ResourceType):
            parser.raise_error(f"expected a !stream.resource type, got {type}")
        op = cls(
            type,
            parser.resolve_operand(size, IndexType()),
            await_timepoint=await_timepoint,
            indeterminate_lifetime=indeterminate,
            affinity=affinity,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" uninitialized")
        if self.indeterminate_lifetime is not None:
            printer.print_string(" indeterminate")
        _print_optional_on(printer, self.affinity)
        if self.await_timepoint is not None:
            printer.print_string(" await(")
            printer.print_operand(self.await_timepoint)
            printer.print_string(") =>")
        else:
            printer.print_string(" :")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        print_sized_type(printer, self.result.type, self.storage_size)
        printer.print_string(" => ")
        printer.print_attribute(self.result_timepoint.type)


def _parse_fat_arrow(parser: Parser) -> None:
    """`=>`, which xDSL's lexer reads as `=` then `>`."""
    parser.parse_punctuation("=")
    parser.parse_punctuation(">")


def _parse_optional_on(parser: Parser) -> DeviceAffinityAttr | None:
    if parser.parse_optional_keyword("on") is None:
        return None
    parser.parse_punctuation("(")
    pos = parser.pos
    affinity = parser.parse_attribute()
    if not isinstance(affinity, DeviceAffinityAttr):
        parser.raise_error("expected a #hal.device.affinity", pos)
    parser.parse_punctuation(")")
    return affinity


def _print_optional_on(printer: Printer, affinity: DeviceAffinityAttr | None) -> None:
    if affinity is not None:
        printer.print_string(" on(")
        printer.print_attribute(affinity)
        printer.print_string(")")


@irdl_op_definition
class ResourceDeallocaOp(IRDLOperation):
    """`stream.resource.dealloca (origin)? (on(aff))? (await(%t) =>)? %r :
    type{%size} => !stream.timepoint` -- frees a transient allocation once the
    timepoint is reached; FREEs its operand."""

    name = "stream.resource.dealloca"

    operand = operand_def(ResourceType)
    operand_size = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    prefer_origin = opt_prop_def(UnitAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(OperandEffects(frees=operands_named("operand")), SizeAware())

    assembly_format = (
        "(`origin` $prefer_origin^)? " + _AFFINITY
        + " (`await` `(` $await_timepoint^ `)` `=` `` `>`)? $operand `:` "
        "type($operand) `` `{` $operand_size `}` `=` `` `>` type($result_timepoint) "
        "attr-dict"
    )

    def __init__(
        self,
        operand: SSAValue | Operation,
        operand_size: SSAValue | Operation,
        *,
        await_timepoint: SSAValue | Operation | None = None,
        prefer_origin: bool = False,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[
                operand,
                operand_size,
                [] if await_timepoint is None else [await_timepoint],
            ],
            properties={
                "prefer_origin": UnitAttr() if prefer_origin else None,
                "affinity": affinity,
            },
            result_types=[TimepointType()],
        )

    def operand_size_of(self, index: int) -> SSAValue | None:
        return self.operand_size if index == 0 else None


# --------------------------------------------------------------------------------
# Timepoints
# --------------------------------------------------------------------------------


@irdl_op_definition
class TimepointImmediateOp(IRDLOperation):
    """`stream.timepoint.immediate => !stream.timepoint` -- an already-reached
    timepoint. Pure."""

    name = "stream.timepoint.immediate"

    result_timepoint = result_def(TimepointType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict `=` `` `>` type($result_timepoint)"

    def __init__(self):
        super().__init__(result_types=[TimepointType()])


@irdl_op_definition
class TimepointJoinOp(IRDLOperation):
    """`stream.timepoint.join max(%a, %b) => !stream.timepoint` -- reached when all
    operands are. Pure."""

    name = "stream.timepoint.join"

    await_timepoints = var_operand_def(TimepointType)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(Pure())

    assembly_format = (
        "`max` `(` $await_timepoints `)` `=` `` `>` type($result_timepoint) "
        "attr-dict-with-keyword"
    )

    def __init__(self, await_timepoints: Sequence[SSAValue | Operation]):
        super().__init__(operands=[await_timepoints], result_types=[TimepointType()])



@irdl_op_definition
class TimepointAwaitOp(IRDLOperation):
    """`stream.timepoint.await (sync)? %t => %r, ... : type{%size}, ...` -- the
    resources as they are once the timepoint is reached; result i is operand i.
    Pure (IREE's CSE merges identical awaits)."""

    name = "stream.timepoint.await"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    await_timepoint = operand_def(TimepointType)
    sync = opt_prop_def(UnitAttr)
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), SizeAware())

    def __init__(
        self,
        await_timepoint: SSAValue | Operation,
        resource_operands: Sequence[SSAValue | Operation],
        resource_operand_sizes: Sequence[SSAValue | Operation],
        *,
        sync: bool = False,
    ):
        types = [SSAValue.get(v).type for v in resource_operands]
        super().__init__(
            operands=[resource_operands, resource_operand_sizes, await_timepoint],
            properties={"sync": UnitAttr() if sync else None},
            result_types=[types],
        )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return tuple(range(len(self.results)))

    def _resource_positions(self) -> dict[int, int]:
        positions: dict[int, int] = {}
        for i, value in enumerate(self.resource_operands):
            if isinstance(value.type, ResourceType):
                positions[i] = len(positions)
        return positions

    def operand_size_of(self, index: int) -> SSAValue | None:
        position = self._resource_positions().get(index)
        return None if position is None else self.resource_operand_sizes[position]

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.operand_size_of(index)

    def verify_(self) -> None:
        # Result i is operand i; IREE checks the count, not the types.
        if len(self.results) != len(self.resource_operands):
            raise VerifyException("results/tied operand indices mismatch")
        sized = len(self._resource_positions())
        if len(self.resource_operand_sizes) != sized:
            raise VerifyException(
                f"value set has {sized} dynamic dimensions but only "
                f"{len(self.resource_operand_sizes)} dimension values are attached"
            )

    @classmethod
    def parse(cls, parser: Parser) -> TimepointAwaitOp:
        sync = parser.parse_optional_keyword("sync") is not None
        timepoint = parser.resolve_operand(
            parser.parse_unresolved_operand(), TimepointType()
        )
        _parse_fat_arrow(parser)
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(",") is not None:
            operands.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(":")
        typed = [parse_sized_type(parser)]
        while parser.parse_optional_punctuation(",") is not None:
            typed.append(parse_sized_type(parser))
        attributes = parser.parse_optional_attr_dict_with_keyword()
        if len(typed) != len(operands):
            parser.raise_error(
                f"{len(operands)} resources but {len(typed)} types", pos
            )
        resources = parser.resolve_operands(operands, [t for t, _ in typed], pos)
        sizes = [
            parser.resolve_operand(size, IndexType())
            for _, size in typed
            if size is not None
        ]
        op = cls(timepoint, resources, sizes, sync=sync)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        if self.sync is not None:
            printer.print_string(" sync")
        printer.print_string(" ")
        printer.print_operand(self.await_timepoint)
        printer.print_string(" => ")
        printer.print_list(self.resource_operands, printer.print_operand)
        printer.print_string(" : ")
        positions = self._resource_positions()
        printer.print_list(
            range(len(self.resource_operands)),
            lambda i: print_sized_type(
                printer,
                self.resource_operands[i].type,
                None
                if (p := positions.get(i)) is None
                else self.resource_operand_sizes[p],
            ),
        )
        printer.print_op_attributes(self.attributes, print_keyword=True)


Stream = Dialect(
    "stream",
    [
        TensorConstantOp,
        ResourceSizeOp,
        AsyncTransferOp,
        TensorSizeOfOp,
        TensorEncodeOp,
        AsyncAllocaOp,
        AsyncCloneOp,
        AsyncDispatchOp,
        ResourceAllocOp,
        ResourceAllocaOp,
        ResourceDeallocaOp,
        TimepointImmediateOp,
        TimepointJoinOp,
        TimepointAwaitOp,
    ],
    [ResourceType, TimepointType, NamedParameterAttr, TimepointAttr],
)
