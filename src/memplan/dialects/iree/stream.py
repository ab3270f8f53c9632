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
  no longer merges the seed's duplicates; memplan does not do that rewrite). Its
  result is one of `FreshValues`: CSE merges two equal clones nobody updates in
  place (docs/design/cse.md, "Values nobody updates"); `tensor.clone` and untied
  dispatches likewise.

Every effect names the value (or symbol) it touches, so alias-aware passes can
reason per resource. Ops with size-aware operands/results answer
`SizeAware.result_size` / `operand_size` (IREE's `SizeAwareOpInterface`), which is
what a `resource.size` folder needs.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal
from enum import Enum

from xdsl.dialects.builtin import (
    AnyFloatConstr,
    ArrayAttr,
    ComplexType,
    DictionaryAttr,
    IndexType,
    IntegerType,
    Signedness,
    IntegerAttr,
    NoneAttr,
    NoneType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
)
from xdsl.ir import (
    Attribute,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
    TypedAttribute,
)
from xdsl.irdl import (
    AnyOf,
    AttrConstraint,
    VerificationContext,
    irdl_to_attr_constraint,
    AttrSizedOperandSegments,
    SameVariadicOperandSize,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
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
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    OperandVariable,
    ParsingState,
    PrintingState,
    TypeDirective,
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
    HasParent,
    IsTerminator,
    OpTrait,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.iree.hal import DeviceAffinityAttr
from memplan.util_interfaces import STREAM_PATTERNS, GlobalStorageType, SizeAware
from memplan.dialects.iree.util import (
    parse_entry_points,
    parse_workload,
    print_entry_points,
    print_workload,
    parse_result_list,
    parse_sized_type,
    print_result_list,
    print_sized_type,
    resolve_tied,
    tied_indices,
    tied_operands_attr,
    verify_tied_operands,
)
from memplan.interfaces import (
    FreshResults,
    OperandEffects,
    SignatureVerifier,
    FreshValues,
    all_results,
    operands_named,
)
from memplan.printing import AsmResultNames, FixedResultNames


__all__ = [
    "STREAM_VALUES",
    "CloneToConsumers",
    "has_tied_uses",
    "tied_operand",
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

class CloneToConsumers(OpTrait):
    """Making the op's result again where it is copied costs less than the copy
    (IREE's `StreamableOpInterface::preferCloneToConsumers`): a splat, an empty
    tensor, an alloca, a clone. The op gives the same contents wherever it runs: it
    reads no resource, or (a clone) one whose value a later copy sees unchanged,
    since async resources are values (a tied update makes a new one; IREE's
    copy-on-write pass keeps it that way)."""


def tied_operand(op: Operation, index: int) -> SSAValue:
    """The operand a result tied to `index` updates (a dispatch counts its ties
    among its resource operands)."""
    if isinstance(op, AsyncDispatchOp):
        return op.resource_operands[index]
    return op.operands[index]


def has_tied_uses(value: SSAValue) -> bool:
    """Whether a user ties a result to `value` (IREE's `hasAnyTiedUses`)."""
    for use in value.uses:
        ties = getattr(use.operation, "tied_result_operands", None)
        if ties is not None and any(
            t is not None and tied_operand(use.operation, t) is value for t in ties()
        ):
            return True
    return False


def _constant_lifetime(value: SSAValue) -> bool:
    """IREE never updates a `constant` resource in place: copy-on-write clones it
    first, and ElideAsyncCopies assumes it immutable where its analysis ends."""
    return isinstance(value.type, ResourceType) and value.type.lifetime == Lifetime.CONSTANT


STREAM_VALUES = FreshValues(immutable=_constant_lifetime, tied_uses=has_tied_uses)
"""A clone's result is a copy of its source, an untied dispatch result a value
computed from its operands; equal ones whose results nobody updates in place share
them (see `memplan.interfaces.FreshValues`)."""


FILL_PATTERN = irdl_to_attr_constraint(IntegerType[Literal[8, 16, 32, 64], Literal[Signedness.SIGNLESS]])
"""IREE's `Stream_FillPatternType`: what a splat or fill of resource bytes repeats."""
PRIMITIVE = AnyOf([base(IndexType), base(IntegerType), AnyFloatConstr, base(ComplexType)])
"""IREE's `Stream_PrimitiveType`: an element value a tensor splat or fill repeats."""

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
class ResourceType(ParametrizedAttribute, TypeAttribute, GlobalStorageType):
    """`!stream.resource<L>`: a sized byte buffer with lifetime L."""

    name = "stream.resource"

    lifetime_attr: StringAttr

    def __init__(self, lifetime: Lifetime | str = Lifetime.UNKNOWN):
        super().__init__(StringAttr(Lifetime(lifetime).value))

    def accepts_access(self, value_type: Attribute) -> bool:
        """A global resource is initialized, stored and loaded as a tensor or a
        resource of any lifetime (IREE's `ResourceType::isAccessStorageCompatible`)."""
        return isinstance(value_type, TensorType | UnrankedTensorType | ResourceType)

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


@dataclass(frozen=True)
class ResourceLifetime(AttrConstraint[ResourceType]):
    """A `!stream.resource` of one of `lifetimes`: IREE's per-lifetime resource
    type constraints, which keep staging memory out of device work and device
    memory out of host loads and stores."""

    lifetimes: frozenset[Lifetime]
    description: str

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, ResourceType) or attr.lifetime not in self.lifetimes:
            raise VerifyException(f"must be {self.description}, but got '{attr}'")

    def get_bases(self) -> set[type[Attribute]] | None:
        return {ResourceType}

    def mapping_type_vars(self, type_var_mapping: Mapping[Any, Any]) -> ResourceLifetime:
        return self


STAGING_RESOURCE = ResourceLifetime(frozenset({Lifetime.STAGING}), "staging resource")
"""IREE's `Stream_StagingResource`: host-visible memory for loads, stores and traces."""
ANY_STREAM_RESOURCE = ResourceLifetime(
    frozenset(Lifetime) - {Lifetime.STAGING},
    "resource or external resource or transient resource or variable resource "
    "or constant resource",
)
"""IREE's `Stream_AnyStreamResource`: any lifetime device work may use (not staging)."""


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


def find_size(value: SSAValue) -> SSAValue | None:
    """The size of a resource value as its defining op states it, if it does."""
    from xdsl.ir import OpResult

    if not isinstance(value, OpResult):
        return None
    trait = value.op.get_trait(SizeAware)
    if trait is None:
        return None
    return trait.result_size(value.op, value.index)


def resource_positions(values: Sequence[SSAValue]) -> dict[int, int]:
    """Index among `values` -> index among its resource-typed values: how IREE
    lists the sizes of a variadic operand or result group (one per resource)."""
    positions: dict[int, int] = {}
    for i, value in enumerate(values):
        if isinstance(value.type, ResourceType):
            positions[i] = len(positions)
    return positions


def size_among(
    values: Sequence[SSAValue], sizes: Sequence[SSAValue], index: int
) -> SSAValue | None:
    """The size of `values[index]` in a group whose `sizes` follow its resources."""
    position = resource_positions(values).get(index)
    return None if position is None else sizes[position]


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
"""`on(#hal.device.affinity<...>)` in a declarative format; hand-written parsers
use `parse_optional_on` / `print_optional_on`, which read and write the same text."""


def parse_optional_on(parser: Parser) -> DeviceAffinityAttr | None:
    if parser.parse_optional_keyword("on") is None:
        return None
    parser.parse_punctuation("(")
    pos = parser.pos
    affinity = parser.parse_attribute()
    if not isinstance(affinity, DeviceAffinityAttr):
        parser.raise_error("expected a #hal.device.affinity", pos)
    parser.parse_punctuation(")")
    return affinity


def print_optional_on(printer: Printer, affinity: DeviceAffinityAttr | None) -> None:
    if affinity is not None:
        printer.print_string(" on(")
        printer.print_attribute(affinity)
        printer.print_string(")")


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
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), Pure(), FixedResultNames(("cst",)), SignatureVerifier())

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

    traits = traits_def(STREAM_PATTERNS, Pure(), SignatureVerifier())

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

    traits = traits_def(STREAM_PATTERNS, FreshResults(), Pure(), SignatureVerifier(), SizeAware.fields(operands={0: "source_size"}, results={0: "result_size"}))

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


@irdl_op_definition
class TensorSizeOfOp(IRDLOperation):
    """`stream.tensor.sizeof (on(aff))? encoding({dims})? : index` -- the storage
    size of a tensor in its encoding on a device. Pure."""

    name = "stream.tensor.sizeof"

    encoding_dims = var_operand_def(IndexType)
    encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    storage_size = result_def(IndexType)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), Pure(), SignatureVerifier())

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

    source = operand_def(ANY_STREAM_RESOURCE)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_encoding = prop_def(TypeAttribute)
    result_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, FreshResults(), Pure(), SignatureVerifier(), SizeAware.fields(operands={0: "source_size"}, results={0: "result_size"}))

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
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), CloneToConsumers(), 
        OperandEffects(allocates=all_results), AlwaysSpeculatable(), SizeAware.fields(results={0: "storage_size"})
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


@irdl_op_definition
class AsyncCloneOp(IRDLOperation):
    """`stream.async.clone (on(aff))? %src : type{%size} -> type{%size}` -- a copy
    of a resource. Not Pure: READs the source, ALLOCates the result."""

    name = "stream.async.clone"

    source = operand_def(ANY_STREAM_RESOURCE)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), CloneToConsumers(), STREAM_VALUES,
        OperandEffects(reads=operands_named("source"), allocates=all_results),
        SizeAware.fields(operands={0: "source_size"}, results={0: "result_size"}),
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


class _DispatchEffects(MemoryEffect):
    """READ of every resource operand, WRITE of the operands results are tied to
    (updated in place), ALLOC of every untied result (a fresh buffer: two
    dispatches are never one, IREE bug #23665). For `async.dispatch` and
    `tensor.dispatch`: ops with `resource_operands` and `tied_result_operands`."""

    @classmethod
    def get_effects(cls, op: Any) -> set[EffectInstance]:
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


@dataclass
class RangedCall:
    """What `parse_ranged_call` read: resolved operands, result types, the size,
    range and tie keywords of the op's constructor, and the attribute dictionary."""

    operands: list[SSAValue]
    result_types: list[Attribute]
    ranges: dict[str, object]
    attributes: dict[str, Attribute]


def parse_ranged_call(parser: Parser) -> RangedCall:
    """`(%r[%offset to %end for %length], %x) attr-dict : (type{%size}, type) ->
    results`: the operands and signature of `stream.async.dispatch` and
    `stream.async.call` (IREE's `custom<DispatchOperands>` and
    `custom<ShapedFunctionType>`)."""
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
    return RangedCall(
        resolved,
        result_types,
        {
            "operand_sizes": sizes,
            "operand_offsets": offsets,
            "operand_ends": ends,
            "operand_lengths": lengths,
            "result_sizes": result_sizes,
            "tied_operands": ties if result_types else None,
        },
        attributes,
    )


def print_ranged_call(printer: Printer, op: Any) -> None:
    """Inverse of `parse_ranged_call`, from the op's `resource_operand*` fields."""
    positions = resource_positions(op.resource_operands)

    def print_operand(i: int) -> None:
        printer.print_operand(op.resource_operands[i])
        if (position := positions.get(i)) is not None:
            printer.print_string("[")
            printer.print_operand(op.resource_operand_offsets[position])
            printer.print_string(" to ")
            printer.print_operand(op.resource_operand_ends[position])
            printer.print_string(" for ")
            printer.print_operand(op.resource_operand_lengths[position])
            printer.print_string("]")

    def print_type(i: int) -> None:
        position = positions.get(i)
        print_sized_type(
            printer,
            op.resource_operands[i].type,
            None if position is None else op.resource_operand_sizes[position],
        )

    count = len(op.resource_operands)
    printer.print_string("(")
    printer.print_list(range(count), print_operand)
    printer.print_string(")")
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : (")
    printer.print_list(range(count), print_type)
    printer.print_string(") -> ")
    ties = op.tied_result_operands()
    print_result_list(
        printer,
        [r.type for r in op.results],
        [op.result_size_of(i) for i in range(len(op.results))],
        [None if t is None else op.resource_operands[t] for t in ties],
    )


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
    results_ = var_result_def(ANY_STREAM_RESOURCE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, FreshResults(), _DispatchEffects(), STREAM_VALUES, SizeAware())

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

    def result_size_of(self, index: int) -> SSAValue | None:
        return size_among(self.results, self.result_sizes, index)

    def operand_size_of(self, index: int) -> SSAValue | None:
        """The size of operand #index (the workload comes before the resources)."""
        return size_among(
            self.resource_operands, self.resource_operand_sizes, index - len(self.workload)
        )

    def verify_(self) -> None:
        if not self.entry_points.data:
            raise VerifyException("at least one entry point must be defined")
        resources = len(resource_positions(self.resource_operands))
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
        result_resources = len(resource_positions(self.results))
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
        affinity = parse_optional_on(parser)
        entry_points = parse_entry_points(parser)

        workload = parse_workload(parser)
        call = parse_ranged_call(parser)
        op = cls(
            entry_points,
            call.operands,
            call.result_types,
            workload=workload,
            affinity=affinity,
            **call.ranges,
        )
        op.attributes.update(call.attributes)
        return op

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, self.affinity)
        printer.print_string(" ")
        print_entry_points(printer, self.entry_points.data)
        print_workload(printer, self.workload)
        print_ranged_call(printer, self)


@irdl_op_definition
class ResourceAllocOp(IRDLOperation):
    """`stream.resource.alloc (uninitialized)? (on(aff))? : type{%size}` -- a
    persistent allocation; ALLOCates its result."""

    name = "stream.resource.alloc"

    storage_size = operand_def(IndexType)
    uninitialized = opt_prop_def(UnitAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)

    traits = traits_def(STREAM_PATTERNS, 
        OperandEffects(allocates=all_results), AlwaysSpeculatable(), SizeAware.fields(results={0: "storage_size"})
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

    traits = traits_def(STREAM_PATTERNS, 
        OperandEffects(allocates=_only_resource_result),
        AlwaysSpeculatable(),
        SizeAware.fields(results={0: "storage_size"}),
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

    @classmethod
    def parse(cls, parser: Parser) -> ResourceAllocaOp:
        parser.parse_keyword("uninitialized")
        indeterminate = parser.parse_optional_keyword("indeterminate") is not None
        affinity = parse_optional_on(parser)
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
        print_optional_on(printer, self.affinity)
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

    traits = traits_def(STREAM_PATTERNS, OperandEffects(frees=operands_named("operand")), SizeAware.fields(operands={0: "operand_size"}))

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


# --------------------------------------------------------------------------------
# Timepoints
# --------------------------------------------------------------------------------


@irdl_op_definition
class TimepointImmediateOp(IRDLOperation):
    """`stream.timepoint.immediate => !stream.timepoint` -- an already-reached
    timepoint. Pure."""

    name = "stream.timepoint.immediate"

    result_timepoint = result_def(TimepointType)

    traits = traits_def(STREAM_PATTERNS, Pure())

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

    traits = traits_def(STREAM_PATTERNS, Pure())

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
    traits = traits_def(STREAM_PATTERNS, Pure(), SizeAware())

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

    def operand_size_of(self, index: int) -> SSAValue | None:
        return size_among(self.resource_operands, self.resource_operand_sizes, index)

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.operand_size_of(index)

    def verify_(self) -> None:
        # Result i is operand i; IREE checks the count, not the types.
        if len(self.results) != len(self.resource_operands):
            raise VerifyException("results/tied operand indices mismatch")
        sized = len(resource_positions(self.resource_operands))
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
        positions = resource_positions(self.resource_operands)
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



# --------------------------------------------------------------------------------
# Shared syntax of the async/tensor/resource ops
# --------------------------------------------------------------------------------


def _sized(value: str, size: str) -> str:
    """`type($value){$size}`: a resource type and its byte size, no space between."""
    return f"type(${value}) `` `{{` ${size} `}}`"


def _await(arrow: bool) -> str:
    """`(await(%t))?`, followed by `=>` on the ops that IREE writes it with."""
    tail = " `=` `` `>`" if arrow else ""
    return f"(`await` `(` $await_timepoint^ `)`{tail})?"


@irdl_custom_directive
class ShapedTiedResult(CustomDirective):
    """`custom<ShapedTiedResult>(type($result), $size)`: `%target as type{%size}`,
    the result of an op that updates its `target` operand in place (IREE's
    directive; the name before `as` is read and ignored, the tie is fixed)."""

    result_type: TypeDirective
    size: OperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_unresolved_operand() is not None:
            parser.parse_keyword("as")
        self.result_type.parse(parser, state)
        parser.parse_punctuation("{")
        self.size.parse(parser, state)
        parser.parse_punctuation("}")

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_operand(getattr(op, "target"))
        printer.print_string(" as ")
        printer.print_attribute(self.result_type.get(op)[0])
        printer.print_string("{")
        printer.print_operand(self.size.get(op))
        printer.print_string("}")


class _TargetTied:
    """Ops whose single result is their `target` operand updated in place."""

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (self.operands.index(getattr(self, "target")),)  # type: ignore[attr-defined]


def _verify_same_type(op: Operation, a: SSAValue, b: SSAValue, what: str) -> None:
    if a.type != b.type:
        raise VerifyException(f"failed to verify that all of {{{what}}} have same type")


# --------------------------------------------------------------------------------
# Async ops (value semantics on resources)
# --------------------------------------------------------------------------------


@irdl_op_definition
class AsyncConstantOp(IRDLOperation):
    """`stream.async.constant (on(aff))? (await(%t))? : type{%size} = value` -- a
    resource holding a constant; ALLOCates its result."""

    name = "stream.async.constant"

    await_timepoint = opt_operand_def(TimepointType)
    result_size = operand_def(IndexType)
    value = prop_def(Attribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), 
        OperandEffects(allocates=all_results), SizeAware.fields(results={0: "result_size"}), FixedResultNames(("cst",))
    )

    assembly_format = (
        _AFFINITY + " " + _await(False) + " `:` " + _sized("result", "result_size")
        + " `=` $value attr-dict-with-keyword"
    )


@irdl_op_definition
class AsyncSplatOp(IRDLOperation):
    """`stream.async.splat (on(aff))? (await(%t))? %v : type -> type{%size}` -- a
    resource filled with one value; ALLOCates its result."""

    name = "stream.async.splat"

    await_timepoint = opt_operand_def(TimepointType)
    value = operand_def(FILL_PATTERN)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), CloneToConsumers(), OperandEffects(allocates=all_results), SizeAware.fields(results={0: "result_size"}))

    assembly_format = (
        _AFFINITY + " " + _await(False) + " $value `:` type($value) `->` "
        + _sized("result", "result_size") + " attr-dict-with-keyword"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        result_type: Attribute,
        result_size: SSAValue | Operation,
        *,
        await_timepoint: SSAValue | Operation | None = None,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[[] if await_timepoint is None else [await_timepoint], value,
                      result_size],
            properties={"affinity": affinity},
            result_types=[result_type],
        )


@irdl_op_definition
class AsyncSliceOp(IRDLOperation):
    """`stream.async.slice (on(aff))? %src[%offset to %end] : type{%size} ->
    type{%size}` -- a copy of a byte range; READs the source, ALLOCates the result."""

    name = "stream.async.slice"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    source = operand_def(T)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), 
        OperandEffects(reads=operands_named("source"), allocates=all_results),
        SizeAware.fields(operands={0: "source_size"}, results={0: "result_size"}),
    )

    assembly_format = (
        _AFFINITY + " $source `[` $source_offset `to` $source_end `]` `:` "
        + _sized("source", "source_size") + " `->` " + _sized("result", "result_size")
        + " attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        source_offset: SSAValue | Operation,
        source_end: SSAValue | Operation,
        result_size: SSAValue | Operation,
        *,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[source, source_size, source_offset, source_end, result_size],
            properties={"affinity": affinity},
            result_types=[SSAValue.get(source).type],
        )

    def verify_(self) -> None:
        _verify_same_type(self, self.source, self.result, "source, result")


@irdl_op_definition
class AsyncFillOp(_TargetTied, IRDLOperation):
    """`stream.async.fill (on(aff))? %v, %t[%off to %end for %len] : type ->
    %t as type{%size}` -- fills a range of the target in place; WRITEs it."""

    name = "stream.async.fill"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    target = operand_def(T)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    target_length = operand_def(IndexType)
    value = operand_def(FILL_PATTERN)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), OperandEffects(writes=operands_named("target")), SizeAware.fields(operands={0: "target_size"}, results={0: "target_size"}))

    custom_directives = (ShapedTiedResult,)

    assembly_format = (
        _AFFINITY + " $value `,` $target `[` $target_offset `to` $target_end `for` "
        "$target_length `]` `:` type($value) `->` "
        "custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        target: SSAValue | Operation,
        target_size: SSAValue | Operation,
        target_offset: SSAValue | Operation,
        target_end: SSAValue | Operation,
        target_length: SSAValue | Operation,
        *,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, target_end, target_length,
                      value],
            properties={"affinity": affinity},
            result_types=[SSAValue.get(target).type],
        )

    def verify_(self) -> None:
        _verify_same_type(self, self.target, self.result, "target, result")


@irdl_op_definition
class AsyncUpdateOp(_TargetTied, IRDLOperation):
    """`stream.async.update (on(aff))? %u, %t[%off to %end] : type{%size} ->
    %t as type{%size}` -- writes `update` into a range of the target in place;
    READs the update, WRITEs the target."""

    name = "stream.async.update"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    target = operand_def(T)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    update = operand_def(ANY_STREAM_RESOURCE)
    update_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), 
        OperandEffects(reads=operands_named("update"), writes=operands_named("target")),
        SizeAware.fields(operands={0: "target_size", 4: "update_size"}, results={0: "target_size"}),
    )

    custom_directives = (ShapedTiedResult,)

    assembly_format = (
        _AFFINITY + " $update `,` $target `[` $target_offset `to` $target_end `]` `:` "
        + _sized("update", "update_size") + " `->` "
        "custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"
    )

    def __init__(
        self,
        update: SSAValue | Operation,
        update_size: SSAValue | Operation,
        target: SSAValue | Operation,
        target_size: SSAValue | Operation,
        target_offset: SSAValue | Operation,
        target_end: SSAValue | Operation,
        *,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, target_end, update,
                      update_size],
            properties={"affinity": affinity},
            result_types=[SSAValue.get(target).type],
        )

    def verify_(self) -> None:
        _verify_same_type(self, self.target, self.result, "target, result")


@irdl_op_definition
class AsyncCopyOp(_TargetTied, IRDLOperation):
    """`stream.async.copy (on(aff))? %s[%o to %e], %t[%o to %e], %len :
    type{%size} -> %t as type{%size}` -- copies a range into the target in place;
    READs the source, WRITEs the target."""

    name = "stream.async.copy"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    target = operand_def(T)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    source = operand_def(ANY_STREAM_RESOURCE)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    length = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), 
        OperandEffects(reads=operands_named("source"), writes=operands_named("target")),
        SizeAware.fields(operands={0: "target_size", 4: "source_size"}, results={0: "target_size"}),
    )

    custom_directives = (ShapedTiedResult,)

    assembly_format = (
        _AFFINITY + " $source `[` $source_offset `to` $source_end `]` `,` "
        "$target `[` $target_offset `to` $target_end `]` `,` $length `:` "
        + _sized("source", "source_size") + " `->` "
        "custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        source_offset: SSAValue | Operation,
        source_end: SSAValue | Operation,
        target: SSAValue | Operation,
        target_size: SSAValue | Operation,
        target_offset: SSAValue | Operation,
        target_end: SSAValue | Operation,
        length: SSAValue | Operation,
        *,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, target_end, source,
                      source_size, source_offset, source_end, length],
            properties={"affinity": affinity},
            result_types=[SSAValue.get(target).type],
        )

    def verify_(self) -> None:
        _verify_same_type(self, self.target, self.result, "target, result")


@irdl_op_definition
class AsyncCastOp(IRDLOperation):
    """`stream.async.cast (on(aff))? %src : type{%size} -> type{%size}` -- the same
    resource seen with another lifetime (no copy). Pure."""

    name = "stream.async.cast"

    source = operand_def(ANY_STREAM_RESOURCE)
    source_size = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), Pure(), SizeAware.fields(operands={0: "source_size"}, results={0: "result_size"}))

    assembly_format = (
        _AFFINITY + " $source `:` " + _sized("source", "source_size") + " `->` "
        + _sized("result", "result_size") + " attr-dict"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        result_type: Attribute,
        result_size: SSAValue | Operation,
        *,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[source, source_size, result_size],
            properties={"affinity": affinity},
            result_types=[result_type],
        )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0,)


@irdl_op_definition
class AsyncLoadOp(IRDLOperation):
    """`stream.async.load %src[%offset] : type{%size} -> T` -- reads one element of
    a staging resource; READs it."""

    name = "stream.async.load"

    source = operand_def(STAGING_RESOURCE)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result = result_def()

    traits = traits_def(STREAM_PATTERNS, FreshResults(), OperandEffects(reads=operands_named("source")), SizeAware.fields(operands={0: "source_size"}))

    assembly_format = (
        "$source `[` $source_offset `]` `:` " + _sized("source", "source_size")
        + " `->` type($result) attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        source_offset: SSAValue | Operation,
        result_type: Attribute,
    ):
        super().__init__(
            operands=[source, source_size, source_offset], result_types=[result_type]
        )


@irdl_op_definition
class AsyncStoreOp(_TargetTied, IRDLOperation):
    """`stream.async.store %v, %t[%offset] : T -> %t as type{%size}` -- writes one
    element of a staging resource in place; WRITEs it."""

    name = "stream.async.store"

    T: ClassVar = VarConstraint("T", STAGING_RESOURCE)
    target = operand_def(T)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    value = operand_def()
    result = result_def(T)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), OperandEffects(writes=operands_named("target")), SizeAware.fields(operands={0: "target_size"}, results={0: "target_size"}))

    custom_directives = (ShapedTiedResult,)

    assembly_format = (
        "$value `,` $target `[` $target_offset `]` `:` type($value) `->` "
        "custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        target: SSAValue | Operation,
        target_size: SSAValue | Operation,
        target_offset: SSAValue | Operation,
    ):
        super().__init__(
            operands=[target, target_size, target_offset, value],
            result_types=[SSAValue.get(target).type],
        )

    def verify_(self) -> None:
        _verify_same_type(self, self.target, self.result, "target, result")



# --------------------------------------------------------------------------------
# Execution regions
# --------------------------------------------------------------------------------


def _parse_capture_list(
    parser: Parser,
) -> tuple[list[UnresolvedOperand], list[Parser.Argument], list[Attribute],
           list[UnresolvedOperand]]:
    """`(%x as %arg: type{%size}, ...)`: captured values, the region's arguments
    they become, their types and sizes (IREE's `custom<ResourceRegion>` operands)."""
    operands: list[UnresolvedOperand] = []
    arguments: list[Parser.Argument] = []
    types: list[Attribute] = []
    sizes: list[UnresolvedOperand] = []

    def entry() -> None:
        operands.append(parser.parse_unresolved_operand())
        parser.parse_keyword("as")
        unresolved = parser.parse_argument(expect_type=False)
        parser.parse_punctuation(":")
        type, size = parse_sized_type(parser)
        arguments.append(unresolved.resolve(type))
        types.append(type)
        if size is not None:
            sizes.append(size)

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, entry)
    return operands, arguments, types, sizes


def _print_capture_list(
    printer: Printer,
    operands: Sequence[SSAValue],
    arguments: Sequence[SSAValue],
    sizes: Sequence[SSAValue],
) -> None:
    printer.print_string("(")
    remaining = list(sizes)

    def entry(i: int) -> None:
        printer.print_operand(operands[i])
        printer.print_string(" as ")
        printer.print_operand(arguments[i])
        printer.print_string(": ")
        size = remaining.pop(0) if isinstance(arguments[i].type, ResourceType) else None
        print_sized_type(printer, arguments[i].type, size)

    printer.print_list(range(len(operands)), entry)
    printer.print_string(")")


class _ResourceRegionOp(IRDLOperation):
    """`stream.async.execute` and `stream.async.concurrent`: a region that takes
    resources by capture (`with(%r as %arg: type{%size})`) and yields results,
    each fresh or tied to a captured operand. Effects are those of the body."""


    def tied_result_operands(self) -> tuple[int | None, ...]:
        return tied_indices(self.tied_operands, len(self.resource_results))

    @property
    @abstractmethod
    def resource_results(self) -> Sequence[SSAValue]:
        """The resource results (the timepoint excluded, where there is one)."""

    def operand_size_of(self, index: int) -> SSAValue | None:
        return size_among(self.resource_operands, self.resource_operand_sizes, index)

    def result_size_of(self, index: int) -> SSAValue | None:
        return size_among(self.resource_results, self.result_sizes, index)

    def verify_(self) -> None:
        verify_tied_operands(
            self, self.tied_operands, len(self.resource_results),
            len(self.resource_operands),
        )
        block = self.body.block
        if len(block.args) != len(self.resource_operands):
            raise VerifyException("region takes one argument per captured operand")

    @classmethod
    def _parse_body(cls, parser: Parser) -> dict[str, object]:
        parser.parse_keyword("with")
        operands, arguments, types, sizes = _parse_capture_list(parser)
        entries = []
        if parser.parse_optional_punctuation("->") is not None:
            entries = parse_result_list(parser, sized=True)
        region = parser.parse_region(arguments)
        index = IndexType()
        pos = parser.pos
        ties: list[int | None] = []
        result_types: list[Attribute] = []
        result_sizes: list[SSAValue] = []
        for entry in entries:
            tie, type = resolve_tied(parser, entry, operands, types)
            ties.append(tie)
            result_types.append(type)
            if entry.size is not None:
                result_sizes.append(parser.resolve_operand(entry.size, index))
        return {
            "operands": parser.resolve_operands(operands, types, pos),
            "sizes": [parser.resolve_operand(size, index) for size in sizes],
            "result_types": result_types,
            "result_sizes": result_sizes,
            "ties": ties,
            "region": region,
        }

    def _print_body(self, printer: Printer) -> None:
        printer.print_string(" with")
        block = self.body.block
        _print_capture_list(
            printer, self.resource_operands, block.args, self.resource_operand_sizes
        )
        results = self.resource_results
        if results:
            printer.print_string(" -> ")
            ties = self.tied_result_operands()
            print_result_list(
                printer,
                [r.type for r in results],
                [self.result_size_of(i) for i in range(len(results))],
                [None if t is None else self.resource_operands[t] for t in ties],
            )
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


class _ExecuteResultNames(AsmResultNames):
    """IREE's names for an execute region's results: the resources as one group
    `%results:N` and `%result_timepoint`."""

    def result_names(self, op: Operation) -> Sequence[str | None]:
        return ["results"] * (len(op.results) - 1) + ["result_timepoint"]


@irdl_op_definition
class AsyncExecuteOp(_ResourceRegionOp):
    """`stream.async.execute (on(aff))? (await(%t) =>)? with(captures) -> results
    { ... } => !stream.timepoint` -- a region of async work run on the device
    timeline; its timepoint says when the results are ready."""

    name = "stream.async.execute"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(DeviceAffinityAttr)
    body = region_def("single_block")
    await_timepoint = opt_operand_def(TimepointType)
    results_ = var_result_def()
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        STREAM_PATTERNS, RecursiveMemoryEffect(), SizeAware(), _ExecuteResultNames()
    )

    @property
    def resource_results(self) -> Sequence[SSAValue]:
        return self.results_

    def __init__(
        self,
        operands: Sequence[SSAValue | Operation],
        operand_sizes: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue | Operation],
        body: Region,
        *,
        tied_operands: Sequence[int | None] | None = None,
        await_timepoint: SSAValue | Operation | None = None,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[operands, operand_sizes, result_sizes,
                      [] if await_timepoint is None else [await_timepoint]],
            properties={
                "tied_operands": None if not result_types or tied_operands is None
                else tied_operands_attr(tied_operands),
                "affinity": affinity,
            },
            result_types=[result_types, TimepointType()],
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncExecuteOp:
        affinity = parse_optional_on(parser)
        await_timepoint = None
        if parser.parse_optional_keyword("await") is not None:
            parser.parse_punctuation("(")
            await_timepoint = parser.resolve_operand(
                parser.parse_unresolved_operand(), TimepointType()
            )
            parser.parse_punctuation(")")
            _parse_fat_arrow(parser)
        parts = cls._parse_body(parser)
        _parse_fat_arrow(parser)
        parser.parse_type()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(
            parts["operands"], parts["sizes"], parts["result_types"],
            parts["result_sizes"], parts["region"], tied_operands=parts["ties"],
            await_timepoint=await_timepoint, affinity=affinity,
        )  # type: ignore[arg-type]
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, self.affinity)
        if self.await_timepoint is not None:
            printer.print_string(" await(")
            printer.print_operand(self.await_timepoint)
            printer.print_string(") =>")
        self._print_body(printer)
        printer.print_string(" => ")
        printer.print_attribute(self.result_timepoint.type)
        printer.print_op_attributes(self.attributes, print_keyword=True)


class _YieldParent(OpTrait):
    """IREE's ParentOneOf for `stream.yield`: an async execution region, or an op
    whose implicit terminator is `stream.yield` (the cmd regions, `stream_cmd`)."""

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is None or isinstance(parent, AsyncExecuteOp | AsyncConcurrentOp):
            return
        implicit = parent.get_trait(SingleBlockImplicitTerminator)
        if implicit is None or implicit.op_type is not type(op):
            raise VerifyException(
                f"'{op.name}' expects parent op to be an execution region, not '{parent.name}'"
            )


@irdl_op_definition
class AsyncConcurrentOp(_ResourceRegionOp):
    """`stream.async.concurrent (on(aff))? with(captures) -> results { ... }` -- a
    wave of work inside an execute region that may run concurrently."""

    name = "stream.async.concurrent"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(DeviceAffinityAttr)
    body = region_def("single_block")
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, RecursiveMemoryEffect(), SizeAware())

    @property
    def resource_results(self) -> Sequence[SSAValue]:
        return self.results_

    def __init__(
        self,
        operands: Sequence[SSAValue | Operation],
        operand_sizes: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_sizes: Sequence[SSAValue | Operation],
        body: Region,
        *,
        tied_operands: Sequence[int | None] | None = None,
        affinity: DeviceAffinityAttr | None = None,
    ):
        super().__init__(
            operands=[operands, operand_sizes, result_sizes],
            properties={
                "tied_operands": None if not result_types or tied_operands is None
                else tied_operands_attr(tied_operands),
                "affinity": affinity,
            },
            result_types=[result_types],
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncConcurrentOp:
        affinity = parse_optional_on(parser)
        parts = cls._parse_body(parser)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(
            parts["operands"], parts["sizes"], parts["result_types"],
            parts["result_sizes"], parts["region"], tied_operands=parts["ties"],
            affinity=affinity,
        )  # type: ignore[arg-type]
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, self.affinity)
        self._print_body(printer)
        printer.print_op_attributes(self.attributes, print_keyword=True)


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`stream.yield (%r, ... : type{%size}, ...)?` -- returns the results of an
    execution region. Pure terminator."""

    name = "stream.yield"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)

    # One size per resource, no segment sizes in the generic form (IREE).
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(STREAM_PATTERNS, 
        Pure(), IsTerminator(), ReturnLike(), _YieldParent()
    )

    def __init__(
        self,
        operands: Sequence[SSAValue | Operation] = (),
        sizes: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(operands=[operands, sizes])

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        attributes = parser.parse_optional_attr_dict()
        operands: list[UnresolvedOperand] = []
        typed: list[tuple[Attribute, UnresolvedOperand | None]] = []
        first = parser.parse_optional_unresolved_operand()
        if first is not None:
            operands.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            typed = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, lambda: parse_sized_type(parser)
            )
        pos = parser.pos
        values = parser.resolve_operands(operands, [t for t, _ in typed], pos)
        sizes = [parser.resolve_operand(sz, IndexType()) for _, sz in typed if sz]
        op = cls(values, sizes)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if not self.resource_operands:
            return
        printer.print_string(" ")
        printer.print_list(self.resource_operands, printer.print_operand)
        printer.print_string(" : ")
        sizes = list(self.resource_operand_sizes)
        printer.print_list(
            self.resource_operands,
            lambda v: print_sized_type(
                printer, v.type,
                sizes.pop(0) if isinstance(v.type, ResourceType) and sizes else None,
            ),
        )



# --------------------------------------------------------------------------------
# Tensor ops (before the async phase: resources with an encoding)
# --------------------------------------------------------------------------------


def _encoded(value: str, encoding: str, dims: str, size: str) -> str:
    """`enc({dims})? in type{%size}`: a resource holding a tensor of `enc`."""
    return (
        f"${encoding} custom<EncodingDims>(${dims}) `in` "
        + _sized(value, size)
    )


class _EncodedResult:
    """Size of the one result of a tensor op that states it as `result_size`."""

    def result_size_of(self, index: int) -> SSAValue | None:
        return getattr(self, "result_size")


@irdl_op_definition
class TensorImportOp(_EncodedResult, IRDLOperation):
    """`stream.tensor.import (on(aff))? (consume)? %buf : type -> enc({dims})? in
    type{%size}` -- wraps an external buffer as a resource (the same memory)."""

    name = "stream.tensor.import"

    source = operand_def()
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(TypeAttribute)
    consume = opt_prop_def(UnitAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ResourceType)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), Pure(), SizeAware())
    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " (`consume` $consume^)? $source `:` type($source) `->` "
        + _encoded("result", "result_encoding", "result_encoding_dims", "result_size")
        + " attr-dict-with-keyword"
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0,)

    def verify_(self) -> None:
        _verify_dims(self.result_encoding, self.result_encoding_dims, "type set")


@irdl_op_definition
class TensorExportOp(IRDLOperation):
    """`stream.tensor.export (on(aff))? %r : enc({dims})? in type{%size} -> type`
    -- the resource as an external buffer (the same memory)."""

    name = "stream.tensor.export"

    source = operand_def(ResourceType)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    source_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def()

    traits = traits_def(STREAM_PATTERNS, FreshResults(), Pure(), SizeAware.fields(operands={0: "source_size"}))
    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " $source `:` "
        + _encoded("source", "source_encoding", "source_encoding_dims", "source_size")
        + " `->` type($result) attr-dict-with-keyword"
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0,)

    def verify_(self) -> None:
        _verify_dims(self.source_encoding, self.source_encoding_dims, "type set")


@irdl_op_definition
class TensorEmptyOp(_EncodedResult, IRDLOperation):
    """`stream.tensor.empty (on(aff))? : enc({dims})? in type{%size}` -- a tensor
    with no elements' worth of contents yet; ALLOCates its result."""

    name = "stream.tensor.empty"

    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), CloneToConsumers(), OperandEffects(allocates=all_results), SizeAware(), FixedResultNames(("empty",)))
    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " `:` "
        + _encoded("result", "result_encoding", "result_encoding_dims", "result_size")
        + " attr-dict-with-keyword"
    )

    def verify_(self) -> None:
        _verify_dims(self.result_encoding, self.result_encoding_dims, "type set")


@irdl_op_definition
class TensorSplatOp(_EncodedResult, IRDLOperation):
    """`stream.tensor.splat (on(aff))? %v : T -> enc({dims})? in type{%size}` -- a
    tensor of one repeated value; ALLOCates its result."""

    name = "stream.tensor.splat"

    value = operand_def(PRIMITIVE)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, FreshResults(), CloneToConsumers(), OperandEffects(allocates=all_results), SizeAware())
    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " $value `:` type($value) `->` "
        + _encoded("result", "result_encoding", "result_encoding_dims", "result_size")
        + " attr-dict-with-keyword"
    )

    def verify_(self) -> None:
        _verify_dims(self.result_encoding, self.result_encoding_dims, "type set")


@irdl_op_definition
class TensorCloneOp(_EncodedResult, IRDLOperation):
    """`stream.tensor.clone (on(aff))? %src : enc in type{%size} -> enc in
    type{%size}` -- a copy of a tensor; READs the source, ALLOCates the result."""

    name = "stream.tensor.clone"

    source = operand_def(ANY_STREAM_RESOURCE)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_encoding = prop_def(TypeAttribute)
    result_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, FreshResults(), CloneToConsumers(), STREAM_VALUES,
        OperandEffects(reads=operands_named("source"), allocates=all_results),
        SizeAware.fields(operands={0: "source_size"}),
    )
    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " $source `:` "
        + _encoded("source", "source_encoding", "source_encoding_dims", "source_size")
        + " `->` "
        + _encoded("result", "result_encoding", "result_encoding_dims", "result_size")
        + " attr-dict-with-keyword"
    )

    def verify_(self) -> None:
        _verify_dims(self.source_encoding, self.source_encoding_dims, "type set")
        _verify_dims(self.result_encoding, self.result_encoding_dims, "type set")


@irdl_op_definition
class TensorSliceOp(_EncodedResult, IRDLOperation):
    """`stream.tensor.slice (on(aff))? %src[%starts for %lengths] : enc in
    type{%size} -> enc in type{%size}` -- a copy of a sub-tensor; READs the source,
    ALLOCates the result."""

    name = "stream.tensor.slice"

    source = operand_def(ANY_STREAM_RESOURCE)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    source_encoding = prop_def(TypeAttribute)
    result_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, FreshResults(), 
        OperandEffects(reads=operands_named("source"), allocates=all_results),
        SizeAware.fields(operands={0: "source_size"}),
    )
    custom_directives = (EncodingDims,)

    assembly_format = (
        _AFFINITY + " $source `[` $start_indices `for` $lengths `]` `:` "
        + _encoded("source", "source_encoding", "source_encoding_dims", "source_size")
        + " `->` "
        + _encoded("result", "result_encoding", "result_encoding_dims", "result_size")
        + " attr-dict-with-keyword"
    )


@irdl_op_definition
class TensorFillOp(_TargetTied, IRDLOperation):
    """`stream.tensor.fill (on(aff))? %v, %t([%starts for %lengths])? : T -> enc
    in %t as type{%size}` -- fills (part of) a tensor in place; WRITEs it."""

    name = "stream.tensor.fill"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    target = operand_def(T)
    target_encoding_dims = var_operand_def(IndexType)
    target_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    lengths = var_operand_def(IndexType)
    value = operand_def(PRIMITIVE)
    target_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, FreshResults(), OperandEffects(writes=operands_named("target")), SizeAware.fields(operands={0: "target_size"}, results={0: "target_size"}))
    custom_directives = (EncodingDims, ShapedTiedResult)

    assembly_format = (
        _AFFINITY + " $value `,` $target (`[` $start_indices `for` $lengths^ `]`)? "
        "`:` type($value) `->` $target_encoding "
        "custom<EncodingDims>($target_encoding_dims) `in` "
        "custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"
    )


@irdl_op_definition
class TensorUpdateOp(_TargetTied, IRDLOperation):
    """`stream.tensor.update (on(aff))? %u, %t[%starts] : enc in type{%size} ->
    enc in %t as type{%size}` -- writes a tensor into another in place; READs the
    update, WRITEs the target."""

    name = "stream.tensor.update"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    target = operand_def(T)
    target_encoding_dims = var_operand_def(IndexType)
    target_size = operand_def(IndexType)
    start_indices = var_operand_def(IndexType)
    update = operand_def(ANY_STREAM_RESOURCE)
    update_encoding_dims = var_operand_def(IndexType)
    update_size = operand_def(IndexType)
    target_encoding = prop_def(TypeAttribute)
    update_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, FreshResults(), 
        OperandEffects(reads=operands_named("update"), writes=operands_named("target")),
        SizeAware.fields(results={0: "target_size"}),
    )
    custom_directives = (EncodingDims, ShapedTiedResult)

    assembly_format = (
        _AFFINITY + " $update `,` $target `[` $start_indices `]` `:` "
        + _encoded("update", "update_encoding", "update_encoding_dims", "update_size")
        + " `->` $target_encoding custom<EncodingDims>($target_encoding_dims) `in` "
        "custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"
    )


@irdl_op_definition
class TensorLoadOp(IRDLOperation):
    """`stream.tensor.load %r([%indices])? : enc in type{%size} -> T` -- reads one
    element of a staging tensor; READs it."""

    name = "stream.tensor.load"

    source = operand_def(STAGING_RESOURCE)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    indices = var_operand_def(IndexType)
    source_encoding = prop_def(TypeAttribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, FreshResults(), OperandEffects(reads=operands_named("source")), SizeAware.fields(operands={0: "source_size"}))
    custom_directives = (EncodingDims,)

    assembly_format = (
        "$source (`[` $indices^ `]`)? `:` "
        + _encoded("source", "source_encoding", "source_encoding_dims", "source_size")
        + " `->` type($result) attr-dict-with-keyword"
    )


@irdl_op_definition
class TensorStoreOp(_TargetTied, IRDLOperation):
    """`stream.tensor.store %v, %t([%indices])? : T -> enc in %t as type{%size}` --
    writes one element of a staging tensor in place; WRITEs it."""

    name = "stream.tensor.store"

    T: ClassVar = VarConstraint("T", STAGING_RESOURCE)
    target = operand_def(T)
    target_encoding_dims = var_operand_def(IndexType)
    target_size = operand_def(IndexType)
    indices = var_operand_def(IndexType)
    value = operand_def()
    target_encoding = prop_def(TypeAttribute)
    result = result_def(T)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, FreshResults(), OperandEffects(writes=operands_named("target")), SizeAware.fields(results={0: "target_size"}))
    custom_directives = (EncodingDims, ShapedTiedResult)

    assembly_format = (
        "$value `,` $target (`[` $indices^ `]`)? `:` type($value) `->` "
        "$target_encoding custom<EncodingDims>($target_encoding_dims) `in` "
        "custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"
    )


# --------------------------------------------------------------------------------
# Resource ops (explicit memory)
# --------------------------------------------------------------------------------


@irdl_op_definition
class ResourceLoadOp(IRDLOperation):
    """`stream.resource.load %r[%offset] : type{%size} -> T` -- reads from a mapped
    staging resource; READs it."""

    name = "stream.resource.load"

    source = operand_def(STAGING_RESOURCE)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result = result_def()

    traits = traits_def(STREAM_PATTERNS, OperandEffects(reads=operands_named("source")), SizeAware.fields(operands={0: "source_size"}))

    assembly_format = (
        "$source `[` $source_offset `]` `:` " + _sized("source", "source_size")
        + " `->` type($result) attr-dict-with-keyword"
    )


@irdl_op_definition
class ResourceStoreOp(IRDLOperation):
    """`stream.resource.store %v, %r[%offset] : T -> type{%size}` -- writes into a
    mapped staging resource; WRITEs it."""

    name = "stream.resource.store"

    target = operand_def(STAGING_RESOURCE)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    value = operand_def()

    traits = traits_def(STREAM_PATTERNS, OperandEffects(writes=operands_named("target")), SizeAware.fields(operands={0: "target_size"}))

    assembly_format = (
        "$value `,` $target `[` $target_offset `]` `:` type($value) `->` "
        + _sized("target", "target_size") + " attr-dict-with-keyword"
    )


@irdl_op_definition
class ResourceSubviewOp(IRDLOperation):
    """`stream.resource.subview %r[%offset] : type{%size} -> type{%size}` -- a view
    of a byte range of a resource (the same memory). Pure."""

    name = "stream.resource.subview"

    T: ClassVar = VarConstraint("T", base(ResourceType))
    source = operand_def(T)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    result_size = operand_def(IndexType)
    result = result_def(T)

    traits = traits_def(STREAM_PATTERNS, Pure(), SizeAware.fields(operands={0: "source_size"}, results={0: "result_size"}))

    assembly_format = (
        "$source `[` $source_offset `]` `:` " + _sized("source", "source_size")
        + " `->` " + _sized("result", "result_size") + " attr-dict-with-keyword"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        source_size: SSAValue | Operation,
        source_offset: SSAValue | Operation,
        result_size: SSAValue | Operation,
    ):
        super().__init__(
            operands=[source, source_size, source_offset, result_size],
            result_types=[SSAValue.get(source).type],
        )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0,)


@irdl_op_definition
class ResourceTransientsOp(IRDLOperation):
    """`stream.resource.transients (on(aff))? (await(%t) =>)? %r : type{%size} from
    %storage : type{%size} => !stream.timepoint` -- places a resource's transient
    allocations in the given storage; the result is the resource."""

    name = "stream.resource.transients"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    resource = operand_def(T)
    resource_size = operand_def(IndexType)
    storage = operand_def(ResourceType)
    storage_size = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(STREAM_PATTERNS, Pure(), SizeAware.fields(operands={0: "resource_size", 2: "storage_size"}, results={0: "resource_size"}), FixedResultNames(("result", "result_timepoint")))

    assembly_format = (
        _AFFINITY + " " + _await(True) + " $resource `:` "
        + _sized("resource", "resource_size") + " `from` $storage `:` "
        + _sized("storage", "storage_size")
        + " `=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0, None)


@irdl_op_definition
class ResourceTryMapOp(IRDLOperation):
    """`stream.resource.try_map (on(aff))? %buf[%offset] : type -> i1,
    type{%size}` -- maps host memory as a resource when the device can. Only
    ALLOCates its result (IREE: Pure + MemAlloc), so an unused one is dead."""

    name = "stream.resource.try_map"

    source = operand_def()
    source_offset = operand_def(IndexType)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    did_map = result_def()
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(STREAM_PATTERNS, OperandEffects(allocates=operands_named("result")), SizeAware.fields(results={1: "result_size"}), FixedResultNames(("did_map", "result")))

    assembly_format = (
        _AFFINITY + " $source `[` $source_offset `]` `:` type($source) `->` "
        "type($did_map) `,` " + _sized("result", "result_size")
        + " attr-dict-with-keyword"
    )


@irdl_op_definition
class ResourcePackOp(IRDLOperation):
    """`stream.resource.pack (on(aff))? (offset(%o))? slices({[s, e] = %size, ...})
    : index` -- offsets that pack slices with the given lifetime intervals into
    one slab, and the slab's length. Pure."""

    name = "stream.resource.pack"

    offset = opt_operand_def(IndexType)
    dynamic_slice_sizes = var_operand_def(IndexType)
    lifetime_intervals = prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(DeviceAffinityAttr)
    total_length = result_def(IndexType)
    packed_offsets = var_result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(STREAM_PATTERNS, Pure())

    def verify_(self) -> None:
        if len(self.lifetime_intervals.data) != 2 * len(self.dynamic_slice_sizes):
            raise VerifyException("lifetime intervals must be start/end pairs")
        if len(self.packed_offsets) != len(self.dynamic_slice_sizes):
            raise VerifyException("one packed offset per slice")

    @classmethod
    def parse(cls, parser: Parser) -> ResourcePackOp:
        affinity = parse_optional_on(parser)
        offset = None
        if parser.parse_optional_keyword("offset") is not None:
            parser.parse_punctuation("(")
            offset = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
            parser.parse_punctuation(")")
        parser.parse_keyword("slices")
        parser.parse_punctuation("(")
        intervals: list[int] = []
        sizes: list[SSAValue] = []

        def slice_entry() -> None:
            parser.parse_punctuation("[")
            intervals.append(parser.parse_integer())
            parser.parse_punctuation(",")
            intervals.append(parser.parse_integer())
            parser.parse_punctuation("]")
            parser.parse_punctuation("=")
            sizes.append(
                parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
            )

        # IREE's parser takes a trailing comma after the last slice.
        parser.parse_punctuation("{")
        while parser.parse_optional_punctuation("}") is None:
            slice_entry()
            if parser.parse_optional_punctuation(",") is None:
                parser.parse_punctuation("}")
                break
        parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        parser.parse_type()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls.build(
            operands=[[] if offset is None else [offset], sizes],
            properties={
                "lifetime_intervals": ArrayAttr(
                    [IntegerAttr(i, IndexType()) for i in intervals]
                ),
                "affinity": affinity,
            },
            result_types=[IndexType(), [IndexType()] * len(sizes)],
        )
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, self.affinity)
        if self.offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(self.offset)
            printer.print_string(")")
        printer.print_string(" slices({")
        intervals = [a.value.data for a in self.lifetime_intervals.data]
        count = len(self.dynamic_slice_sizes)
        for i, size in enumerate(self.dynamic_slice_sizes):
            printer.print_string("\n")
            printer.print_string(f"  [{intervals[2 * i]}, {intervals[2 * i + 1]}] = ",
                                 indent=0)
            printer.print_operand(size)
            if i < count - 1:
                printer.print_string(",")
        if count:
            printer.print_string("\n")
        printer.print_string("}) : index")
        printer.print_op_attributes(self.attributes, print_keyword=True)


# --------------------------------------------------------------------------------
# More timepoint ops
# --------------------------------------------------------------------------------


@irdl_op_definition
class TimepointImportOp(IRDLOperation):
    """`stream.timepoint.import (on(aff))? %a, ... : (types) => !stream.timepoint`
    -- a timepoint from external values (a fence, a semaphore and its value)."""

    name = "stream.timepoint.import"

    operands_ = var_operand_def()
    affinity = opt_prop_def(DeviceAffinityAttr)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(STREAM_PATTERNS, Pure())

    assembly_format = (
        _AFFINITY + " $operands_ `:` `(` type($operands_) `)` `=` `` `>` "
        "type($result_timepoint) attr-dict-with-keyword"
    )


@irdl_op_definition
class TimepointExportOp(IRDLOperation):
    """`stream.timepoint.export (on(aff))? %t => (types)` -- external values for a
    timepoint."""

    name = "stream.timepoint.export"

    await_timepoint = operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    results_ = var_result_def()

    traits = traits_def(STREAM_PATTERNS, Pure())

    assembly_format = (
        _AFFINITY + " $await_timepoint `=` `` `>` `(` type($results_) `)` "
        "attr-dict-with-keyword"
    )


@irdl_op_definition
class TimepointChainExternalOp(IRDLOperation):
    """`stream.timepoint.chain_external (on(aff))? %t => (%fence : type)` -- signals
    external values once the timepoint is reached; WRITEs them."""

    name = "stream.timepoint.chain_external"

    await_timepoint = operand_def(TimepointType)
    external_values = var_operand_def()
    affinity = opt_prop_def(DeviceAffinityAttr)

    traits = traits_def(STREAM_PATTERNS, OperandEffects(writes=operands_named("external_values")))

    assembly_format = (
        _AFFINITY + " $await_timepoint `=` `` `>` "
        "`(` $external_values `:` type($external_values) `)` attr-dict-with-keyword"
    )


@irdl_op_definition
class TimepointBarrierOp(IRDLOperation):
    """`stream.timepoint.barrier (on(aff))? %r : type{%size} => !stream.timepoint`
    -- the resource and a timepoint reached when its pending work is done."""

    name = "stream.timepoint.barrier"

    T: ClassVar = VarConstraint("T", base(ResourceType))
    resource = operand_def(T)
    resource_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(STREAM_PATTERNS, Pure(), SizeAware.fields(operands={0: "resource_size"}, results={0: "resource_size"}), FixedResultNames(("result", "result_timepoint")))

    assembly_format = (
        _AFFINITY + " $resource `:` " + _sized("resource", "resource_size")
        + " `=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0, None)
