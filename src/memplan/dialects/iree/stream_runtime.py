"""IREE's `stream` ops that reach the runtime outside plain resource dataflow:
execution context, resource ownership, constant upload, files, parameter
archives (async and command-buffer transfers), collective channels, external async functions and calls, tensor-phase
dispatches and traces (IREE 3.13 syntax). Registered in `stream.py`'s dialect.

Types: `!stream.channel` (a collective communicator) and `!stream.file` (a
file handle). Attribute: `#stream.collective<kind (with reduction)? : element>`.

Effects, declared on each op (IREE 3.13 unless noted):

- Pure: `context.resolve`, `channel.create`/`split`/`rank`/`count`.
- ALLOC of the resources they create: `resource.constants` (IREE: Pure; memplan
  treats an upload like `async.constant`, so two uploads are never merged),
  `file.constant`, `tensor.parameter.load`, `async.parameter.load`,
  `cmd.parameter.load` (IREE: Pure).
- READ/WRITE of the resource or file operands they access: `file.read` reads its
  file and writes its target, `file.write` the reverse, `async.collective`,
  `async.parameter.read`/`gather`, `cmd.parameter.read`/`gather` write their
  target; writes to a parameter archive (`tensor.parameter.write`,
  `async.parameter.write`/`scatter`, `cmd.parameter.write`/`scatter`) read their
  source and write memory no SSA value names.
- `tensor.dispatch`: as `async.dispatch` (`_DispatchEffects`; IREE: Pure).
- Unknown: `resource.retain`/`release`/`is_terminal` (ownership counts),
  `async.barrier`, `async.call`, `tensor.trace`, as in IREE.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    I32,
    I64,
    IndexType,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TypeAttribute,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    OperandVariable,
    OptionalOperandVariable,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.iree.hal import DeviceAffinityAttr
from memplan.dialects.iree.stream import (
    _AFFINITY,
    EncodingDims,
    ANY_STREAM_RESOURCE,
    Lifetime,
    ResourceLifetime,
    ResourceType,
    STAGING_RESOURCE,
    ShapedTiedResult,
    STREAM_VALUES,
    SizeAware,
    TimepointType,
    _DispatchEffects,
    _ExecuteResultNames,
    _await,
    _dynamic_dim_count,
    _parse_fat_arrow,
    _sized,
    _verify_dims,
    parse_optional_on,
    parse_ranged_call,
    print_optional_on,
    print_ranged_call,
    resource_positions,
    size_among,
)
from memplan.util_interfaces import CanonicalizedBy
from memplan.dialects.iree.util import (
    BufferType,
    UnusedType,
    parse_entry_points,
    parse_workload,
    print_entry_points,
    print_workload,
    parse_result_list,
    parse_results,
    parse_shaped_signature,
    parse_sized_type,
    print_result_list,
    print_shaped_signature,
    print_sized_type,
    resolve_tied,
    tied_indices,
    tied_operands_attr,
    verify_tied_operands,
)
from memplan.interfaces import FreshResults, OperandEffects, all_results, operands_named
from memplan.printing import FixedResultNames

RUNTIME_PATTERNS = CanonicalizedBy("memplan.passes.patterns.stream_runtime")

# --------------------------------------------------------------------------------
# Types and attributes
# --------------------------------------------------------------------------------


@irdl_attr_definition
class ChannelType(ParametrizedAttribute, TypeAttribute):
    """`!stream.channel`: one participant of a collective communication group."""

    name = "stream.channel"


@irdl_attr_definition
class FileType(ParametrizedAttribute, TypeAttribute):
    """`!stream.file`: a file handle resources are read from and written to."""

    name = "stream.file"


COLLECTIVE_KINDS = (
    "all_gather", "all_reduce", "all_to_all", "broadcast", "reduce",
    "reduce_scatter", "send", "recv", "send_recv",
)
COLLECTIVE_REDUCTIONS = ("none", "sum", "product", "minimum", "maximum", "average")
COLLECTIVE_ELEMENT_TYPES = (
    "si8", "ui8", "si16", "ui16", "si32", "ui32", "si64", "ui64",
    "f16", "f32", "f64", "bf16",
)
_COLLECTIVE_PARAM = {
    "broadcast": "source",
    "reduce": "target",
    "send": "target",
    "recv": "source",
    "send_recv": "source_target_pair",
}
"""The keyword of the i32 operand a collective kind takes (`source(%rank)`)."""


@irdl_attr_definition
class CollectiveAttr(ParametrizedAttribute):
    """`#stream.collective<kind (with reduction)? : element_type>`."""

    name = "stream.collective"

    kind: StringAttr
    reduction: StringAttr | NoneAttr
    element_type: StringAttr

    def __init__(self, kind: str, element_type: str, reduction: str | None = None):
        super().__init__(
            StringAttr(kind),
            NoneAttr() if reduction is None else StringAttr(reduction),
            StringAttr(element_type),
        )

    @staticmethod
    def _word(parser: AttrParser, allowed: Sequence[str], what: str) -> StringAttr:
        pos = parser.pos
        word = parser.parse_identifier()
        if word not in allowed:
            parser.raise_error(f"expected a collective {what}, got '{word}'", pos)
        return StringAttr(word)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            kind = cls._word(parser, COLLECTIVE_KINDS, "kind")
            reduction: StringAttr | NoneAttr = NoneAttr()
            if parser.parse_optional_keyword("with") is not None:
                reduction = cls._word(parser, COLLECTIVE_REDUCTIONS, "reduction")
            parser.parse_punctuation(":")
            element_type = cls._word(parser, COLLECTIVE_ELEMENT_TYPES, "element type")
        return kind, reduction, element_type

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data}")
        if isinstance(self.reduction, StringAttr):
            printer.print_string(f" with {self.reduction.data}")
        printer.print_string(f" : {self.element_type.data}>")

    @property
    def param_keyword(self) -> str | None:
        return _COLLECTIVE_PARAM.get(self.kind.data)


_FAVORS = ("debug", "min-peak-memory", "max-concurrency")


@irdl_attr_definition
class PartitioningConfigAttr(ParametrizedAttribute):
    """`#stream.partitioning_config<"favor">` (the `stream.partitioning` attribute
    of a module or function). IREE prints it `<favor-min-peak-memory>`, which its
    own parser rejects; memplan prints the same and reads both."""

    name = "stream.partitioning_config"

    favor: StringAttr

    def __init__(self, favor: str):
        super().__init__(StringAttr(favor))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            pos = parser.pos
            favor = parser.parse_optional_str_literal()
            if favor is None:
                # The printed form: `favor-min-peak-memory`, words between `-`.
                words = [parser.parse_identifier()]
                while parser.parse_optional_punctuation("-") is not None:
                    words.append(parser.parse_identifier())
                favor = "-".join(words).removeprefix("favor-")
            if favor not in _FAVORS:
                parser.raise_error(f"unknown favor value: {favor}", pos)
        return (StringAttr(favor),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<favor-{self.favor.data}>")


_RESOURCE_LIMITS = (
    "max_allocation_size",
    "min_buffer_offset_alignment",
    "max_buffer_range",
    "min_buffer_range_alignment",
    "index_bits",
)
_MEMORY_MODELS = ("Unified", "Discrete")


@irdl_attr_definition
class ResourceConfigAttr(ParametrizedAttribute):
    """`#stream.resource_config<{max_allocation_size = N, ..., memory_model = M}>`:
    a target's buffer limits. Keys may be left out (IREE's defaults: 0, index_bits
    32, alias_mutable_bindings false, memory_model Discrete); all print, the flag
    as 0 or 1 as IREE prints it (memplan also reads that back)."""

    name = "stream.resource_config"

    limits: ArrayAttr[IntAttr]
    alias_mutable_bindings: IntAttr
    memory_model: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        values = {key: 0 for key in _RESOURCE_LIMITS}
        values["index_bits"] = 32
        alias = 0
        model = "Discrete"
        with parser.in_angle_brackets():
            parser.parse_punctuation("{")
            while parser.parse_optional_punctuation("}") is None:
                pos = parser.pos
                key = parser.parse_identifier()
                parser.parse_punctuation("=")
                if key in values:
                    values[key] = parser.parse_integer()
                elif key == "alias_mutable_bindings":
                    flag = parser.parse_optional_boolean()
                    alias = int(flag) if flag is not None else parser.parse_integer()
                elif key == "memory_model":
                    model = parser.parse_identifier()
                    if model not in _MEMORY_MODELS:
                        parser.raise_error(f"unknown memory model '{model}'", pos)
                else:
                    parser.raise_error(f"unknown resource config key '{key}'", pos)
                parser.parse_optional_punctuation(",")
        limits = ArrayAttr([IntAttr(values[key]) for key in _RESOURCE_LIMITS])
        return limits, IntAttr(alias), StringAttr(model)

    def print_parameters(self, printer: Printer) -> None:
        fields = [
            f"{key} = {value.data}" for key, value in zip(_RESOURCE_LIMITS, self.limits.data)
        ]
        fields.append(f"alias_mutable_bindings = {self.alias_mutable_bindings.data}")
        fields.append(f"memory_model = {self.memory_model.data}")
        printer.print_string("<{" + ", ".join(fields) + "}>")


# --------------------------------------------------------------------------------
# Shared syntax
# --------------------------------------------------------------------------------


def _parse_parameter_reference(
    parser: Parser,
) -> tuple[UnresolvedOperand | None, UnresolvedOperand]:
    """`%scope::%key` or `%key` (`::` is two `:` tokens to xDSL's lexer)."""
    first = parser.parse_unresolved_operand()
    if parser.parse_optional_punctuation(":") is None:
        return None, first
    parser.parse_punctuation(":")
    return first, parser.parse_unresolved_operand()


def _print_parameter_reference(
    printer: Printer, scope: SSAValue | None, key: SSAValue
) -> None:
    if scope is not None:
        printer.print_operand(scope)
        printer.print_string("::")
    printer.print_operand(key)


@irdl_custom_directive
class ParameterReference(CustomDirective):
    """`custom<ParameterReference>($scope, $key)`: a parameter archive entry."""

    scope: OptionalOperandVariable
    key: OperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        scope, key = _parse_parameter_reference(parser)
        self.scope.set(state, scope)
        self.key.set(state, key)
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        _print_parameter_reference(printer, self.scope.get(op), self.key.get(op))


def _parse_range(parser: Parser, *, with_end: bool = True) -> tuple[UnresolvedOperand, ...]:
    """`[%offset to %end for %length]` (async ops) or `[%offset for %length]` (cmd)."""
    parser.parse_punctuation("[")
    values = [parser.parse_unresolved_operand()]
    if with_end:
        parser.parse_keyword("to")
        values.append(parser.parse_unresolved_operand())
    parser.parse_keyword("for")
    values.append(parser.parse_unresolved_operand())
    parser.parse_punctuation("]")
    return tuple(values)


def _print_range(printer: Printer, *values: SSAValue) -> None:
    """Inverse of `_parse_range`: (offset, end, length) or (offset, length)."""
    printer.print_string("[")
    printer.print_operand(values[0])
    if len(values) == 3:
        printer.print_string(" to ")
        printer.print_operand(values[1])
    printer.print_string(" for ")
    printer.print_operand(values[-1])
    printer.print_string("]")


def _tied_to(op: Operation, operand: SSAValue) -> tuple[int | None, ...]:
    """The first result tied to `operand`, any other result (a timepoint) fresh."""
    return (op.operands.index(operand),) + (None,) * (len(op.results) - 1)


def _verify_ranges(counts: Sequence[int], message: str) -> None:
    if len(set(counts)) > 1:
        raise VerifyException(message)


# --------------------------------------------------------------------------------
# Context and resource ownership
# --------------------------------------------------------------------------------


@irdl_op_definition
class ContextResolveOp(IRDLOperation):
    """`stream.context.resolve (on(aff))? : types` -- the device (and queue
    affinity, allocator, ...) an affinity stands for. Pure."""

    name = "stream.context.resolve"

    affinity = opt_prop_def(DeviceAffinityAttr)
    results_ = var_result_def()

    traits = traits_def(Pure())

    assembly_format = _AFFINITY + " attr-dict `:` type($results_)"


class _OwnershipOp(IRDLOperation):
    """Ownership claims on a resource; IREE declares no effects (unknown)."""

    operand = operand_def(ResourceType)
    operand_size = operand_def(IndexType)

    assembly_format = "$operand attr-dict `:` " + _sized("operand", "operand_size")


@irdl_op_definition
class ResourceRetainOp(_OwnershipOp):
    """`stream.resource.retain %r : type{%size}` -- one more owner."""

    name = "stream.resource.retain"

    traits = traits_def(SizeAware.fields(operands={0: "operand_size"}))


@irdl_op_definition
class ResourceReleaseOp(_OwnershipOp):
    """`stream.resource.release %r : type{%size}` -- drops a claim; true when it
    was the last one."""

    name = "stream.resource.release"

    result = result_def(i1)

    traits = traits_def(
        SizeAware.fields(operands={0: "operand_size"}), FixedResultNames(("is_terminal",))
    )


@irdl_op_definition
class ResourceIsTerminalOp(_OwnershipOp):
    """`stream.resource.is_terminal %r : type{%size}` -- whether no other owner
    holds the resource."""

    name = "stream.resource.is_terminal"

    result = result_def(i1)

    traits = traits_def(
        SizeAware.fields(operands={0: "operand_size"}), FixedResultNames(("is_terminal",))
    )


@irdl_op_definition
class ResourceConstantsOp(IRDLOperation):
    """`stream.resource.constants (on(aff))? : type{%size} = value, ... =>
    !stream.timepoint` -- uploads (or maps) constant resources."""

    name = "stream.resource.constants"

    result_sizes = var_operand_def(IndexType)
    values = prop_def(ArrayAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    results_ = var_result_def(
        ResourceLifetime(
            frozenset({Lifetime.CONSTANT, Lifetime.VARIABLE}),
            "constant resource or variable resource",
        )
    )
    result_timepoint = result_def(TimepointType)

    traits = traits_def(
        OperandEffects(allocates=lambda op: tuple(op.results[:-1])),
        _ExecuteResultNames(),
    )

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.result_sizes[index] if index < len(self.result_sizes) else None

    def verify_(self) -> None:
        count = len(self.results_)
        if len(self.result_sizes) != count or len(self.values.data) != count:
            raise VerifyException("mismatched constant/result counts")
        if len({r.type for r in self.results_}) > 1:
            raise VerifyException("all results must be of the same type")
        for result in self.results_:
            assert isinstance(result.type, ResourceType)
            if result.type.lifetime_attr.data not in ("constant", "variable"):
                raise VerifyException(
                    "result must be a constant or variable resource, "
                    f"got {result.type}"
                )

    @classmethod
    def parse(cls, parser: Parser) -> ResourceConstantsOp:
        affinity = parse_optional_on(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types: list[Attribute] = []
        sizes: list[SSAValue] = []
        values: list[Attribute] = []

        def entry() -> None:
            pos = parser.pos
            type, size = parse_sized_type(parser)
            if size is None:
                parser.raise_error("expected a sized resource type", pos)
            types.append(type)
            sizes.append(parser.resolve_operand(size, IndexType()))
            parser.parse_punctuation("=")
            values.append(parser.parse_attribute())

        if parser.parse_optional_punctuation("=") is None:
            entry()
            while parser.parse_optional_punctuation(",") is not None:
                entry()
            parser.parse_punctuation("=")
        parser.parse_punctuation(">")
        timepoint = parser.parse_type()
        op = cls.build(
            operands=[sizes],
            properties={"values": ArrayAttr(values), "affinity": affinity},
            result_types=[types, timepoint],
            attributes=attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, self.affinity)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        with printer.indented():
            for i, result in enumerate(self.results_):
                printer._print_new_line()
                print_sized_type(printer, result.type, self.result_sizes[i])
                printer.print_string(" = ")
                printer.print_attribute(self.values.data[i])
                if i < len(self.results_) - 1:
                    printer.print_string(",")
            printer._print_new_line()
        printer.print_string("=> ")
        printer.print_attribute(self.result_timepoint.type)


# --------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------

_AWAIT_OR_COLON = "(`await` `(` $await_timepoint^ `)` `=` `` `>`):(`:`)?"


@irdl_op_definition
class FileConstantOp(IRDLOperation):
    """`stream.file.constant (on(aff))? %buf[%offset for %length] :
    !util.buffer{%size} -> !stream.file` -- a file over constant host memory."""

    name = "stream.file.constant"

    source = operand_def(BufferType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_length = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(FileType)

    traits = traits_def(
        OperandEffects(allocates=all_results),
        SizeAware.fields(operands={0: "source_size"}),
        FixedResultNames(("file",)),
    )

    assembly_format = (
        _AFFINITY + " $source `[` $source_offset `for` $source_length `]` `:` "
        + _sized("source", "source_size") + " `->` type($result) attr-dict-with-keyword"
    )


@irdl_op_definition
class FileReadOp(IRDLOperation):
    """`stream.file.read (on(aff))? (await(%t) =>|:) %file[%off], %r[%o], %len :
    !stream.file -> type{%size} => !stream.timepoint` -- fills a resource range
    from a file. READs the file, WRITEs the target."""

    name = "stream.file.read"

    source = operand_def(FileType)
    source_offset = operand_def(I64)
    target = operand_def(ANY_STREAM_RESOURCE)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    length = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(
        RUNTIME_PATTERNS,
        OperandEffects(reads=operands_named("source"), writes=operands_named("target")),
        SizeAware.fields(operands={2: "target_size"}),
    )

    assembly_format = (
        _AFFINITY + " " + _AWAIT_OR_COLON
        + " $source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` "
        "$length `:` type($source) `->` " + _sized("target", "target_size")
        + " `=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )


@irdl_op_definition
class FileWriteOp(IRDLOperation):
    """`stream.file.write (on(aff))? (await(%t) =>|:) %r[%o], %file[%off], %len :
    type{%size} -> !stream.file => !stream.timepoint` -- writes a resource range
    to a file. READs the source, WRITEs the file."""

    name = "stream.file.write"

    source = operand_def(ANY_STREAM_RESOURCE)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    target = operand_def(FileType)
    target_offset = operand_def(I64)
    length = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result_timepoint = result_def(TimepointType)

    traits = traits_def(
        RUNTIME_PATTERNS,
        OperandEffects(reads=operands_named("source"), writes=operands_named("target")),
        SizeAware.fields(operands={0: "source_size"}),
    )

    assembly_format = (
        _AFFINITY + " " + _AWAIT_OR_COLON
        + " $source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` "
        "$length `:` " + _sized("source", "source_size") + " `->` type($target) "
        "`=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )


# --------------------------------------------------------------------------------
# Barriers and collectives
# --------------------------------------------------------------------------------


@irdl_op_definition
class AsyncBarrierOp(IRDLOperation):
    """`stream.async.barrier (on(aff))? %r : type{%size}` -- the resource, once
    all work on it so far is done (its result is the operand passed through)."""

    name = "stream.async.barrier"

    T: ClassVar = VarConstraint("T", base(ResourceType))
    source = operand_def(T)
    size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)

    traits = traits_def(FreshResults(), SizeAware.fields(operands={0: "size"}, results={0: "size"}))

    assembly_format = (
        _AFFINITY + " $source `:` " + _sized("source", "size") + " attr-dict-with-keyword"
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0,)


@irdl_op_definition
class AsyncCollectiveOp(IRDLOperation):
    """`stream.async.collective<op>[%count] (on(aff))? channel(%ch) (param(%p))?
    %src[range], %dst[range] : type{%size} -> %dst as type{%size}` -- a collective
    operation over a channel; the result is the target updated in place."""

    name = "stream.async.collective"

    target = operand_def(ANY_STREAM_RESOURCE)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    target_length = operand_def(IndexType)
    source = operand_def(ANY_STREAM_RESOURCE)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    source_length = operand_def(IndexType)
    element_count = operand_def(IndexType)
    channel = operand_def(ChannelType)
    param = opt_operand_def(I32)
    op = prop_def(CollectiveAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    traits = traits_def(
        FreshResults(),
        RUNTIME_PATTERNS,
        OperandEffects(reads=operands_named("source"), writes=operands_named("target")),
        SizeAware.fields(
            operands={0: "target_size", 5: "source_size"}, results={0: "target_size"}
        ),
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0,)

    def verify_(self) -> None:
        if self.result.type != self.target.type:
            raise VerifyException(
                "failed to verify that all of {target, result} have same type"
            )
        keyword = self.op.param_keyword
        if keyword is not None and self.param is None:
            raise VerifyException(
                f"collective operation requires a {keyword} parameter but none present"
            )
        if keyword is None and self.param is not None:
            raise VerifyException(
                "collective operation does not require a parameter but one present"
            )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCollectiveOp:
        collective = CollectiveAttr.new(CollectiveAttr.parse_parameters(parser))
        assert isinstance(collective, CollectiveAttr)
        parser.parse_punctuation("[")
        count = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        affinity = parse_optional_on(parser)
        parser.parse_keyword("channel")
        parser.parse_punctuation("(")
        channel = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        param = None
        keyword = collective.param_keyword
        if keyword is not None:
            parser.parse_keyword(keyword)
            parser.parse_punctuation("(")
            param = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
        source = parser.parse_unresolved_operand()
        source_range = _parse_range(parser)
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        target_range = _parse_range(parser)
        parser.parse_punctuation(":")
        source_type, source_size = parse_sized_type(parser)
        parser.parse_punctuation("->")
        if parser.parse_optional_unresolved_operand() is not None:
            parser.parse_keyword("as")
        result_type, target_size = parse_sized_type(parser)
        if source_size is None or target_size is None:
            parser.raise_error("expected sized resource types")
        attributes = parser.parse_optional_attr_dict_with_keyword()
        index = IndexType()

        def idx(values: Sequence[UnresolvedOperand]) -> list[SSAValue]:
            return [parser.resolve_operand(v, index) for v in values]

        op = cls.build(
            operands=[
                parser.resolve_operand(target, result_type),
                *idx([target_size, *target_range]),
                parser.resolve_operand(source, source_type),
                *idx([source_size, *source_range, count]),
                parser.resolve_operand(channel, ChannelType()),
                [] if param is None else [parser.resolve_operand(param, i32)],
            ],
            properties={"op": collective, "affinity": affinity},
            result_types=[result_type],
            attributes=attributes.data if attributes is not None else {},
        )
        return op

    def print(self, printer: Printer) -> None:
        self.op.print_parameters(printer)
        printer.print_string("[")
        printer.print_operand(self.element_count)
        printer.print_string("]")
        print_optional_on(printer, self.affinity)
        printer.print_string(" channel(")
        printer.print_operand(self.channel)
        printer.print_string(")")
        if self.param is not None:
            printer.print_string(f" {self.op.param_keyword}(")
            printer.print_operand(self.param)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_range(printer, self.source_offset, self.source_end, self.source_length)
        printer.print_string(", ")
        printer.print_operand(self.target)
        _print_range(printer, self.target_offset, self.target_end, self.target_length)
        printer.print_string(" : ")
        print_sized_type(printer, self.source.type, self.source_size)
        printer.print_string(" -> ")
        printer.print_operand(self.target)
        printer.print_string(" as ")
        print_sized_type(printer, self.result.type, self.target_size)
        printer.print_op_attributes(self.attributes, print_keyword=True)


# --------------------------------------------------------------------------------
# Channels
# --------------------------------------------------------------------------------


@irdl_op_definition
class ChannelCreateOp(IRDLOperation):
    """`stream.channel.create (on(aff))? (id(%id))? (group("g"))? (rank(%r))?
    (count(%n))? : !stream.channel` -- a collective channel. Pure."""

    name = "stream.channel.create"

    id = opt_operand_def(BufferType)
    rank = opt_operand_def(IndexType)
    count = opt_operand_def(IndexType)
    group = opt_prop_def(StringAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ChannelType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RUNTIME_PATTERNS, Pure(), FixedResultNames(("channel",)))

    assembly_format = (
        _AFFINITY + " (`id` `(` $id^ `)`)? (`group` `(` $group^ `)`)? "
        "(`rank` `(` $rank^ `)`)? (`count` `(` $count^ `)`)? `:` type($result) "
        "attr-dict-with-keyword"
    )


@irdl_op_definition
class ChannelSplitOp(IRDLOperation):
    """`stream.channel.split %ch, %color, %key : !stream.channel ->
    !stream.channel` -- a sub-channel of the participants of one color. Pure."""

    name = "stream.channel.split"

    channel = operand_def(ChannelType)
    color = operand_def(IndexType)
    key = operand_def(IndexType)
    result = result_def(ChannelType)

    traits = traits_def(RUNTIME_PATTERNS, Pure(), FixedResultNames(("channel",)))

    assembly_format = (
        "$channel `,` $color `,` $key `:` type($channel) `->` type($result) "
        "attr-dict-with-keyword"
    )


class _ChannelQueryOp(IRDLOperation):
    channel = operand_def(ChannelType)
    result = result_def(IndexType)

    assembly_format = "$channel `:` type($result) attr-dict-with-keyword"


@irdl_op_definition
class ChannelRankOp(_ChannelQueryOp):
    """`stream.channel.rank %ch : index` -- this participant's rank. Pure."""

    name = "stream.channel.rank"

    traits = traits_def(RUNTIME_PATTERNS, Pure(), FixedResultNames(("ccl_rank",)))


@irdl_op_definition
class ChannelCountOp(_ChannelQueryOp):
    """`stream.channel.count %ch : index` -- the number of participants. Pure."""

    name = "stream.channel.count"

    traits = traits_def(RUNTIME_PATTERNS, Pure(), FixedResultNames(("ccl_count",)))


# --------------------------------------------------------------------------------
# External async functions and calls
# --------------------------------------------------------------------------------


@irdl_op_definition
class AsyncFuncOp(IRDLOperation):
    """`stream.async.func (visibility)? @name(%arg0: type, ...) -> (results)` --
    a streamable function implemented outside the program (a declaration);
    results may be tied to arguments (`-> (%arg0, type)`)."""

    name = "stream.async.func"

    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = opt_region_def()

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return tied_indices(self.tied_operands, len(self.function_type.outputs.data))

    def verify_(self) -> None:
        # Always a declaration, and MLIR's symbol rule for declarations applies.
        if self.sym_visibility is None or self.sym_visibility.data == "public":
            raise VerifyException("symbol declaration cannot have public visibility")
        for what, attrs in (("arguments", self.arg_attrs), ("results", self.res_attrs)):
            for entry in attrs.data if attrs is not None else ():
                if any("." not in name for name in entry.data):
                    raise VerifyException(f"{what} may only have dialect attributes")
        verify_tied_operands(
            self, self.tied_operands, len(self.function_type.outputs.data),
            len(self.function_type.inputs.data),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncFuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        sym_name = parser.parse_symbol_name()
        signature = parse_shaped_signature(parser)
        extra = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_optional_region()
        outputs = signature.outputs
        return cls.build(
            properties={
                "sym_name": sym_name,
                "function_type": FunctionType.from_lists(signature.inputs, outputs),
                "tied_operands": tied_operands_attr(signature.ties) if outputs else None,
                "sym_visibility": visibility,
                # IREE stores each list whenever it has entries, empty ones too.
                "arg_attrs": ArrayAttr(signature.arg_attrs) if signature.arg_attrs else None,
                "res_attrs": ArrayAttr(signature.res_attrs) if signature.res_attrs else None,
            },
            attributes=extra.data if extra is not None else {},
            regions=[region if region is not None else Region()],
        )

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        print_shaped_signature(
            printer, self.function_type, self.tied_result_operands(),
            self.arg_attrs, self.res_attrs, self.body.blocks.first,
        )
        printer.print_op_attributes(self.attributes, print_keyword=True)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body)


@irdl_op_definition
class AsyncCallOp(IRDLOperation):
    """`stream.async.call (on(aff))? @fn(%r[%o to %e for %l], %x) : (type{%size},
    type) -> results` -- calls a `stream.async.func`; results may be tied to
    operands. Effects unknown (those of the callee)."""

    name = "stream.async.call"

    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    resource_operand_offsets = var_operand_def(IndexType)
    resource_operand_ends = var_operand_def(IndexType)
    resource_operand_lengths = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    callee = prop_def(SymbolRefAttr)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    affinity = opt_prop_def(DeviceAffinityAttr)
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(FreshResults(), SizeAware())

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return tied_indices(self.tied_operands, len(self.results))

    def operand_size_of(self, index: int) -> SSAValue | None:
        """The size of operand #index (the resources are the first operands)."""
        return size_among(self.resource_operands, self.resource_operand_sizes, index)

    def result_size_of(self, index: int) -> SSAValue | None:
        return size_among(self.results, self.result_sizes, index)

    def verify_(self) -> None:
        required = len(resource_positions(self.resource_operands))
        present = len(self.resource_operand_offsets)
        _verify_ranges(
            [present, len(self.resource_operand_ends), len(self.resource_operand_lengths)],
            "mismatch on resource range offsets/ends/lengths; counts must match",
        )
        if present != required:
            raise VerifyException(
                f"expects {required} resource range operand sets but {present} "
                "are present"
            )
        if len(self.resource_operand_sizes) != required:
            raise VerifyException("each resource operand needs one size")
        for result in self.results:
            if not isinstance(result.type, ResourceType):
                raise VerifyException(
                    "non-resource return values are not yet supported on async calls"
                )
        verify_tied_operands(
            self, self.tied_operands, len(self.results), len(self.resource_operands)
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCallOp:
        affinity = parse_optional_on(parser)
        pos = parser.pos
        callee = parser.parse_attribute()
        if not isinstance(callee, SymbolRefAttr):
            parser.raise_error("expected a callee symbol", pos)
        call = parse_ranged_call(parser)
        ranges = call.ranges
        ties = ranges["tied_operands"]
        op = cls.build(
            operands=[
                call.operands,
                ranges["operand_sizes"],
                ranges["operand_offsets"],
                ranges["operand_ends"],
                ranges["operand_lengths"],
                ranges["result_sizes"],
            ],
            properties={
                "callee": callee,
                "tied_operands": None if ties is None else tied_operands_attr(ties),
                "affinity": affinity,
            },
            result_types=[call.result_types],
            attributes=call.attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, self.affinity)
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        print_ranged_call(printer, self)


# --------------------------------------------------------------------------------
# Tensor-phase dispatches and traces
# --------------------------------------------------------------------------------


def _parse_shaped(parser: Parser) -> tuple[Attribute, list[UnresolvedOperand]]:
    """`type`, `tensor<?x4xf32>{%d}` or `!stream.resource<*>{%size}`."""
    type = parser.parse_type()
    values: list[UnresolvedOperand] = []
    if isinstance(type, (TensorType, ResourceType)) and (
        isinstance(type, ResourceType) or _dynamic_dim_count(type)
    ):
        values = parser.parse_comma_separated_list(
            parser.Delimiter.BRACES, parser.parse_unresolved_operand
        )
    return type, values


def _print_shaped(printer: Printer, type: Attribute, values: Sequence[SSAValue]) -> None:
    printer.print_attribute(type)
    if values:
        printer.print_string("{")
        printer.print_list(values, printer.print_operand)
        printer.print_string("}")


def _take(values: list[SSAValue], type: Attribute) -> list[SSAValue]:
    """The next dynamic dimensions of `type` from the front of `values`."""
    count = _dynamic_dim_count(type)
    taken = values[:count]
    del values[:count]
    return taken


@irdl_op_definition
class TensorDispatchOp(IRDLOperation):
    """`stream.tensor.dispatch (on(aff))? @ex::@entry([workload])?(operands) :
    (enc{dims} in type{%size}, type) -> results` -- an executable entry point on
    encoded tensors held in resources (the tensor-phase `async.dispatch`)."""

    name = "stream.tensor.dispatch"

    workload = var_operand_def(IndexType)
    resource_operands = var_operand_def()
    operand_sizes = var_operand_def(IndexType)
    operand_encoding_dims = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    result_encoding_dims = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    operand_encodings = prop_def(ArrayAttr)
    result_encodings = prop_def(ArrayAttr)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    affinity = opt_prop_def(DeviceAffinityAttr)
    results_ = var_result_def(ANY_STREAM_RESOURCE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RUNTIME_PATTERNS, FreshResults(), _DispatchEffects(), STREAM_VALUES, SizeAware())

    def tied_result_operands(self) -> tuple[int | None, ...]:
        """Per result, the index into `resource_operands` it is tied to."""
        return tied_indices(self.tied_operands, len(self.results))

    def operand_size_of(self, index: int) -> SSAValue | None:
        """The size of operand #index (the workload comes before the resources)."""
        return size_among(self.resource_operands, self.operand_sizes, index - len(self.workload))

    def result_size_of(self, index: int) -> SSAValue | None:
        return size_among(self.results, self.result_sizes, index)

    def verify_(self) -> None:
        if not self.entry_points.data:
            raise VerifyException("at least one entry point must be defined")
        if len(self.operand_sizes) != len(resource_positions(self.resource_operands)):
            raise VerifyException("each resource operand needs one size")
        if len(self.result_sizes) != len(self.results):
            raise VerifyException("each result needs one size")
        if len(self.operand_encodings.data) != len(self.resource_operands):
            raise VerifyException("each operand needs one encoding entry")
        if len(self.result_encodings.data) != len(self.results):
            raise VerifyException("each result needs one encoding entry")
        for encodings, dims in (
            (self.operand_encodings, self.operand_encoding_dims),
            (self.result_encodings, self.result_encoding_dims),
        ):
            expected = sum(_dynamic_dim_count(e) for e in encodings.data)
            if expected != len(dims):
                raise VerifyException(
                    f"encodings have {expected} dynamic dimensions but "
                    f"{len(dims)} dimension values are attached"
                )
        verify_tied_operands(
            self, self.tied_operands, len(self.results), len(self.resource_operands)
        )

    @classmethod
    def parse(cls, parser: Parser) -> TensorDispatchOp:
        affinity = parse_optional_on(parser)
        entry_points = parse_entry_points(parser)
        index = IndexType()
        workload = parse_workload(parser)
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        types: list[Attribute] = []
        sizes: list[UnresolvedOperand] = []
        encodings: list[Attribute] = []
        encoding_dims: list[UnresolvedOperand] = []

        def operand_type() -> None:
            first, first_values = _parse_shaped(parser)
            if parser.parse_optional_keyword("in") is None:
                types.append(first)
                sizes.extend(first_values)
                encodings.append(UnusedType())
                return
            type, values = _parse_shaped(parser)
            types.append(type)
            sizes.extend(values)
            encodings.append(first)
            encoding_dims.extend(first_values)

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, operand_type)
        if len(types) != len(operands):
            parser.raise_error(f"{len(operands)} operands but {len(types)} types", pos)
        parser.parse_punctuation("->")
        result_types: list[Attribute] = []
        result_sizes: list[UnresolvedOperand] = []
        result_encodings: list[Attribute] = []
        result_dims: list[UnresolvedOperand] = []
        ties: list[int | None] = []

        def result() -> None:
            encoding, dims = _parse_shaped(parser)
            parser.parse_keyword("in")
            entry = parse_result_list(parser, sized=True)
            if len(entry) != 1 or entry[0].size is None:
                parser.raise_error("expected one sized result resource")
            tie, type = resolve_tied(parser, entry[0], operands, types)
            ties.append(tie)
            result_types.append(type)
            result_sizes.append(entry[0].size)  # type: ignore[arg-type]
            result_encodings.append(encoding)
            result_dims.extend(dims)

        parse_results(parser, lambda _: result())

        def idx(values: Sequence[UnresolvedOperand]) -> list[SSAValue]:
            return [parser.resolve_operand(v, index) for v in values]

        return cls.build(
            operands=[
                workload,
                parser.resolve_operands(operands, types, pos),
                idx(sizes),
                idx(encoding_dims),
                idx(result_sizes),
                idx(result_dims),
            ],
            properties={
                "entry_points": ArrayAttr(entry_points),
                "operand_encodings": ArrayAttr(encodings),
                "result_encodings": ArrayAttr(result_encodings),
                "tied_operands": tied_operands_attr(ties) if result_types else None,
                "affinity": affinity,
            },
            result_types=[result_types],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, self.affinity)
        printer.print_string(" ")
        print_entry_points(printer, self.entry_points.data)
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.resource_operands, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        dims = list(self.operand_encoding_dims)
        positions = resource_positions(self.resource_operands)

        def operand_type(i: int) -> None:
            encoding = self.operand_encodings.data[i]
            if not isinstance(encoding, UnusedType):
                _print_shaped(printer, encoding, _take(dims, encoding))
                printer.print_string(" in ")
            position = positions.get(i)
            sizes = [] if position is None else [self.operand_sizes[position]]
            _print_shaped(printer, self.resource_operands[i].type, sizes)

        printer.print_string(" : (")
        printer.print_list(range(len(self.resource_operands)), operand_type)
        printer.print_string(") -> ")
        result_dims = list(self.result_encoding_dims)
        ties = self.tied_result_operands()

        def result(i: int) -> None:
            encoding = self.result_encodings.data[i]
            _print_shaped(printer, encoding, _take(result_dims, encoding))
            printer.print_string(" in ")
            tie = ties[i]
            print_result_list(
                printer,
                [self.results[i].type],
                [self.result_sizes[i]],
                [None if tie is None else self.resource_operands[tie]],
            )

        parens = len(self.results) != 1
        if parens:
            printer.print_string("(")
        printer.print_list(range(len(self.results)), result)
        if parens:
            printer.print_string(")")


@irdl_op_definition
class TensorTraceOp(IRDLOperation):
    """`stream.tensor.trace "key" = [%r : enc{dims} in type{%size}, ...]` --
    prints staging resources at runtime (unknown effects, as in IREE)."""

    name = "stream.tensor.trace"

    resources = var_operand_def(STAGING_RESOURCE)
    resource_sizes = var_operand_def(IndexType)
    resource_encoding_dims = var_operand_def(IndexType)
    key = prop_def(StringAttr)
    resource_encodings = prop_def(ArrayAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(FreshResults(), SizeAware())

    def operand_size_of(self, index: int) -> SSAValue | None:
        return self.resource_sizes[index] if index < len(self.resource_sizes) else None

    def verify_(self) -> None:
        if not (len(self.resources) == len(self.resource_sizes)
                == len(self.resource_encodings.data)):
            raise VerifyException(
                "each resource needs a matching resource encoding and size "
                "(array length mismatch)"
            )
        expected = sum(_dynamic_dim_count(e) for e in self.resource_encodings.data)
        if expected != len(self.resource_encoding_dims):
            raise VerifyException(
                f"encodings have {expected} dynamic dimensions but "
                f"{len(self.resource_encoding_dims)} dimension values are attached"
            )

    @classmethod
    def parse(cls, parser: Parser) -> TensorTraceOp:
        key = parser.parse_str_literal()
        parser.parse_punctuation("=")
        resources: list[SSAValue] = []
        sizes: list[SSAValue] = []
        encodings: list[Attribute] = []
        dims: list[SSAValue] = []
        index = IndexType()

        def entry() -> None:
            resource = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            encoding, encoding_dims = _parse_shaped(parser)
            parser.parse_keyword("in")
            pos = parser.pos
            type, size = parse_sized_type(parser)
            if size is None:
                parser.raise_error("expected a sized resource type", pos)
            resources.append(parser.resolve_operand(resource, type))
            sizes.append(parser.resolve_operand(size, index))
            encodings.append(encoding)
            dims.extend(parser.resolve_operand(d, index) for d in encoding_dims)

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        return cls.build(
            operands=[resources, sizes, dims],
            properties={"key": StringAttr(key), "resource_encodings": ArrayAttr(encodings)},
            attributes=attributes.data if attributes is not None else {},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.key.data)
        printer.print_string(" = [")
        dims = list(self.resource_encoding_dims)
        with printer.indented():
            for i, resource in enumerate(self.resources):
                printer._print_new_line()
                printer.print_operand(resource)
                printer.print_string(" : ")
                encoding = self.resource_encodings.data[i]
                _print_shaped(printer, encoding, _take(dims, encoding))
                printer.print_string(" in ")
                print_sized_type(printer, resource.type, self.resource_sizes[i])
                if i < len(self.resources) - 1:
                    printer.print_string(",")
        printer._print_new_line()
        printer.print_string("]")
        printer.print_op_attributes(self.attributes, print_keyword=True)


# --------------------------------------------------------------------------------
# Parameter archives
# --------------------------------------------------------------------------------

_SOURCE_KEY = "custom<ParameterReference>($source_scope, $source_key) `` `[` $source_offset `]`"
_TARGET_KEY = "custom<ParameterReference>($target_scope, $target_key) `` `[` $target_offset `]`"
_TIMEPOINT_TAIL = " `=` `` `>` type($result_timepoint) attr-dict-with-keyword"
_PARAMETER_NAMES = FixedResultNames(("result", "result_timepoint"))


@irdl_op_definition
class TensorParameterLoadOp(IRDLOperation):
    """`stream.tensor.parameter.load (on(aff))? (%scope::)?%key[%offset] :
    enc{dims} in type{%size}` -- a new resource holding a parameter."""

    name = "stream.tensor.parameter.load"

    source_scope = opt_operand_def(BufferType)
    source_key = operand_def(BufferType)
    source_offset = operand_def(I64)
    result_encoding_dims = var_operand_def(IndexType)
    result_size = operand_def(IndexType)
    result_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        FreshResults(),
        OperandEffects(allocates=all_results), SizeAware.fields(results={0: "result_size"})
    )
    custom_directives = (ParameterReference, EncodingDims)

    assembly_format = (
        _AFFINITY + " " + _SOURCE_KEY + " `:` $result_encoding "
        "custom<EncodingDims>($result_encoding_dims) `in` "
        + _sized("result", "result_size") + " attr-dict-with-keyword"
    )

    def verify_(self) -> None:
        _verify_dims(self.result_encoding, self.result_encoding_dims, "type set")


@irdl_op_definition
class TensorParameterWriteOp(IRDLOperation):
    """`stream.tensor.parameter.write (on(aff))? %r -> (%scope::)?%key[%offset] :
    enc{dims} in type{%size}` -- stores a resource into a parameter archive; the
    result is the source."""

    name = "stream.tensor.parameter.write"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    source = operand_def(T)
    source_encoding_dims = var_operand_def(IndexType)
    source_size = operand_def(IndexType)
    target_scope = opt_operand_def(BufferType)
    target_key = operand_def(BufferType)
    target_offset = operand_def(I64)
    source_encoding = prop_def(TypeAttribute)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        FreshResults(),
        OperandEffects(reads=operands_named("source")),
        MemoryWriteEffect(),
        SizeAware.fields(operands={0: "source_size"}, results={0: "source_size"}),
    )
    custom_directives = (ParameterReference, EncodingDims)

    assembly_format = (
        _AFFINITY + " $source `->` " + _TARGET_KEY + " `:` $source_encoding "
        "custom<EncodingDims>($source_encoding_dims) `in` "
        + _sized("source", "source_size") + " attr-dict-with-keyword"
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return (0,)

    def verify_(self) -> None:
        _verify_dims(self.source_encoding, self.source_encoding_dims, "type set")


@irdl_op_definition
class AsyncParameterLoadOp(IRDLOperation):
    """`stream.async.parameter.load (on(aff))? (await(%t))? (%scope::)?%key[%off]
    : type{%size} => !stream.timepoint` -- a new resource holding a parameter."""

    name = "stream.async.parameter.load"

    await_timepoint = opt_operand_def(TimepointType)
    source_scope = opt_operand_def(BufferType)
    source_key = operand_def(BufferType)
    source_offset = operand_def(I64)
    result_size = operand_def(IndexType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        FreshResults(),
        RUNTIME_PATTERNS,
        OperandEffects(allocates=lambda op: (op.results[0],)),
        SizeAware.fields(results={0: "result_size"}),
        _PARAMETER_NAMES,
    )
    custom_directives = (ParameterReference,)

    assembly_format = (
        _AFFINITY + " " + _await(False) + " " + _SOURCE_KEY + " `:` "
        + _sized("result", "result_size") + _TIMEPOINT_TAIL
    )


@irdl_op_definition
class AsyncParameterReadOp(IRDLOperation):
    """`stream.async.parameter.read (on(aff))? (await(%t))? (%scope::)?%key[%off]
    -> %r[%o to %e for %l] : type{%size} => !stream.timepoint` -- reads a
    parameter into a range of the target (the result)."""

    name = "stream.async.parameter.read"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    target = operand_def(T)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_end = operand_def(IndexType)
    target_length = operand_def(IndexType)
    source_scope = opt_operand_def(BufferType)
    source_key = operand_def(BufferType)
    source_offset = operand_def(I64)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        FreshResults(),
        RUNTIME_PATTERNS,
        OperandEffects(writes=operands_named("target")),
        SizeAware.fields(operands={0: "target_size"}, results={0: "target_size"}),
        _PARAMETER_NAMES,
    )
    custom_directives = (ParameterReference,)

    assembly_format = (
        _AFFINITY + " " + _await(False) + " " + _SOURCE_KEY + " `->` $target `` "
        "`[` $target_offset `to` $target_end `for` $target_length `]` `:` "
        + _sized("target", "target_size") + _TIMEPOINT_TAIL
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return _tied_to(self, self.target)


@irdl_op_definition
class AsyncParameterWriteOp(IRDLOperation):
    """`stream.async.parameter.write (on(aff))? (await(%t))? %r[%o to %e for %l]
    -> (%scope::)?%key[%off] : type{%size} => !stream.timepoint` -- stores a
    range of the source into a parameter archive (the result is the source)."""

    name = "stream.async.parameter.write"

    T: ClassVar = VarConstraint("T", ANY_STREAM_RESOURCE)
    source = operand_def(T)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_end = operand_def(IndexType)
    source_length = operand_def(IndexType)
    target_scope = opt_operand_def(BufferType)
    target_key = operand_def(BufferType)
    target_offset = operand_def(I64)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(T)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        FreshResults(),
        RUNTIME_PATTERNS,
        OperandEffects(reads=operands_named("source")),
        MemoryWriteEffect(),
        SizeAware.fields(operands={0: "source_size"}, results={0: "source_size"}),
        _PARAMETER_NAMES,
    )
    custom_directives = (ParameterReference,)

    assembly_format = (
        _AFFINITY + " " + _await(False) + " $source `` "
        "`[` $source_offset `to` $source_end `for` $source_length `]` `->` "
        + _TARGET_KEY + " `:` " + _sized("source", "source_size") + _TIMEPOINT_TAIL
    )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return _tied_to(self, self.source)


@dataclass
class _BatchRow:
    """One row of a gather or scatter: a parameter and a range of the resource."""

    scope: UnresolvedOperand | None
    key: UnresolvedOperand
    offset: UnresolvedOperand
    resource: UnresolvedOperand
    range: tuple[UnresolvedOperand, ...]
    type: Attribute
    size: UnresolvedOperand | None


def _parse_parameter_row(parser: Parser) -> tuple[UnresolvedOperand | None, ...]:
    """`(%scope::)?%key[%offset]`."""
    scope, key = _parse_parameter_reference(parser)
    parser.parse_punctuation("[")
    offset = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return scope, key, offset


def _parse_resource_row(parser: Parser, with_end: bool) -> tuple[object, ...]:
    """`%r[%offset (to %end)? for %length] : type{%size}`."""
    resource = parser.parse_unresolved_operand()
    resource_range = _parse_range(parser, with_end=with_end)
    parser.parse_punctuation(":")
    type, size = parse_sized_type(parser)
    return resource, resource_range, type, size


def _same_operand(a: UnresolvedOperand | None, b: UnresolvedOperand | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.span.text == b.span.text and a.index == b.index


class _ParameterBatchOp(IRDLOperation):
    """The parameter gathers and scatters: `(on(aff))? (await(%t) (=>)?)?
    { row, ... } (: type)? => !stream.timepoint`, one row per parameter, all rows
    on one resource and one scope. Subclasses name their resource side (`target`
    or `source`), whether a row starts with the parameter, and the async/cmd
    differences: the async ops' ranges have an end and their resource is a result
    (`: type`); the cmd ops write `await(%t) =>`."""

    RESOURCE: ClassVar[str]
    PARAMETER: ClassVar[str]
    PARAMETER_FIRST: ClassVar[bool]
    ROW_MISMATCH: ClassVar[str]
    COUNT_MISMATCH: ClassVar[str]
    RANGE_PARTS: ClassVar[tuple[str, ...]] = ("offsets", "ends", "lengths")
    IS_ASYNC: ClassVar[bool] = True

    @classmethod
    def parse(cls, parser: Parser) -> _ParameterBatchOp:
        affinity = parse_optional_on(parser)
        await_timepoint = None
        if parser.parse_optional_keyword("await") is not None:
            parser.parse_punctuation("(")
            await_timepoint = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            if not cls.IS_ASYNC:
                _parse_fat_arrow(parser)
        rows: list[_BatchRow] = []
        with_end = len(cls.RANGE_PARTS) == 3

        def row() -> None:
            if cls.PARAMETER_FIRST:
                parameter = _parse_parameter_row(parser)
                parser.parse_punctuation("->")
                resource = _parse_resource_row(parser, with_end)
            else:
                resource = _parse_resource_row(parser, with_end)
                parser.parse_punctuation("->")
                parameter = _parse_parameter_row(parser)
            new = _BatchRow(*parameter, *resource)  # type: ignore[arg-type]
            if rows and not (
                _same_operand(rows[0].scope, new.scope)
                and _same_operand(rows[0].resource, new.resource)
            ):
                parser.raise_error(cls.ROW_MISMATCH)
            rows.append(new)

        parser.parse_comma_separated_list(parser.Delimiter.BRACES, row)
        result_types: list[Attribute] = []
        if cls.IS_ASYNC:
            parser.parse_punctuation(":")
            result_types.append(parser.parse_type())
        _parse_fat_arrow(parser)
        result_types.append(parser.parse_type())
        attributes = parser.parse_optional_attr_dict_with_keyword()
        first = rows[0]
        if first.size is None:
            parser.raise_error(f"expected a sized {cls.RESOURCE} resource")
        index, buffer = IndexType(), BufferType()
        groups = {
            cls.RESOURCE: [
                parser.resolve_operand(first.resource, first.type),
                parser.resolve_operand(first.size, index),
                *([parser.resolve_operand(r.range[i], index) for r in rows]
                  for i in range(len(cls.RANGE_PARTS))),
            ],
            cls.PARAMETER: [
                [] if first.scope is None else [parser.resolve_operand(first.scope, buffer)],
                [parser.resolve_operand(r.key, buffer) for r in rows],
                [parser.resolve_operand(r.offset, i64) for r in rows],
            ],
        }
        sides = (cls.PARAMETER, cls.RESOURCE) if cls.PARAMETER_FIRST else (
            cls.RESOURCE, cls.PARAMETER)
        return cls.build(
            operands=[
                *groups[sides[0]],
                *groups[sides[1]],
                [] if await_timepoint is None
                else [parser.resolve_operand(await_timepoint, TimepointType())],
            ],
            properties={"affinity": affinity},
            result_types=result_types,
            attributes=attributes.data if attributes is not None else {},
        )

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, getattr(self, "affinity"))
        timepoint = getattr(self, "await_timepoint")
        if timepoint is not None:
            printer.print_string(" await(")
            printer.print_operand(timepoint)
            printer.print_string(")" if self.IS_ASYNC else ") =>")
        printer.print_string(" {")
        resource: SSAValue = getattr(self, self.RESOURCE)
        size: SSAValue = getattr(self, f"{self.RESOURCE}_size")
        ranges = [getattr(self, f"{self.RESOURCE}_{part}") for part in self.RANGE_PARTS]
        scope: SSAValue | None = getattr(self, f"{self.PARAMETER}_scope")
        keys: Sequence[SSAValue] = getattr(self, f"{self.PARAMETER}_keys")
        offsets: Sequence[SSAValue] = getattr(self, f"{self.PARAMETER}_offsets")

        def print_parameter(i: int) -> None:
            _print_parameter_reference(printer, scope, keys[i])
            printer.print_string("[")
            printer.print_operand(offsets[i])
            printer.print_string("]")

        def print_resource(i: int) -> None:
            printer.print_operand(resource)
            _print_range(printer, *(r[i] for r in ranges))
            printer.print_string(" : ")
            print_sized_type(printer, resource.type, size)

        first, second = (print_parameter, print_resource) if self.PARAMETER_FIRST else (
            print_resource, print_parameter)
        with printer.indented():
            for i in range(len(keys)):
                printer._print_new_line()
                first(i)
                printer.print_string(" -> ")
                second(i)
                if i < len(keys) - 1:
                    printer.print_string(",")
        printer._print_new_line()
        printer.print_string("}")
        if self.IS_ASYNC:
            printer.print_string(" : ")
            printer.print_attribute(self.results[0].type)
        printer.print_string(" => ")
        printer.print_attribute(self.results[-1].type)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def tied_result_operands(self) -> tuple[int | None, ...]:
        if not self.IS_ASYNC:
            return (None,)
        return _tied_to(self, getattr(self, self.RESOURCE))

    def verify_(self) -> None:
        counts = [len(getattr(self, f"{self.PARAMETER}_{part}")) for part in ("keys", "offsets")]
        counts += [len(getattr(self, f"{self.RESOURCE}_{part}")) for part in self.RANGE_PARTS]
        _verify_ranges(counts, self.COUNT_MISMATCH)
        if self.IS_ASYNC and self.results[0].type != getattr(self, self.RESOURCE).type:
            raise VerifyException(f"the result has the type of the {self.RESOURCE}")


@irdl_op_definition
class AsyncParameterGatherOp(_ParameterBatchOp):
    """`stream.async.parameter.gather ... { (%scope::)?%key[%off] -> %r[%o to %e
    for %l] : type{%size}, ... } : type => !stream.timepoint` -- reads many
    parameters into ranges of one target (the result)."""

    name = "stream.async.parameter.gather"

    RESOURCE: ClassVar[str] = "target"
    PARAMETER: ClassVar[str] = "source"
    PARAMETER_FIRST: ClassVar[bool] = True
    ROW_MISMATCH: ClassVar[str] = "each operation must use the same scope and target resource"
    COUNT_MISMATCH: ClassVar[str] = (
        "requires that the source keys, source offsets, target offsets, "
        "target ends, and lengths are all 1:1"
    )

    source_scope = opt_operand_def(BufferType)
    source_keys = var_operand_def(BufferType)
    source_offsets = var_operand_def(I64)
    target = operand_def(ANY_STREAM_RESOURCE)
    target_size = operand_def(IndexType)
    target_offsets = var_operand_def(IndexType)
    target_ends = var_operand_def(IndexType)
    target_lengths = var_operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        FreshResults(),
        RUNTIME_PATTERNS,
        OperandEffects(writes=operands_named("target")),
        SizeAware(),
        _PARAMETER_NAMES,
    )

    def operand_size_of(self, index: int) -> SSAValue | None:
        return self.target_size if self.operands[index] is self.target else None

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.target_size if index == 0 else None


@irdl_op_definition
class AsyncParameterScatterOp(_ParameterBatchOp):
    """`stream.async.parameter.scatter ... { %r[%o to %e for %l] : type{%size} ->
    (%scope::)?%key[%off], ... } : type => !stream.timepoint` -- stores ranges of
    one source into many parameters (the result is the source)."""

    name = "stream.async.parameter.scatter"

    RESOURCE: ClassVar[str] = "source"
    PARAMETER: ClassVar[str] = "target"
    PARAMETER_FIRST: ClassVar[bool] = False
    ROW_MISMATCH: ClassVar[str] = "each operation must use the same source resource and scope"
    COUNT_MISMATCH: ClassVar[str] = (
        "requires that the source offsets, source ends, lengths, target keys, "
        "and target offsets are all 1:1"
    )

    source = operand_def(ANY_STREAM_RESOURCE)
    source_size = operand_def(IndexType)
    source_offsets = var_operand_def(IndexType)
    source_ends = var_operand_def(IndexType)
    source_lengths = var_operand_def(IndexType)
    target_scope = opt_operand_def(BufferType)
    target_keys = var_operand_def(BufferType)
    target_offsets = var_operand_def(I64)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result = result_def(ANY_STREAM_RESOURCE)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        FreshResults(),
        RUNTIME_PATTERNS,
        OperandEffects(reads=operands_named("source")),
        MemoryWriteEffect(),
        SizeAware.fields(operands={0: "source_size"}, results={0: "source_size"}),
        _PARAMETER_NAMES,
    )


# --------------------------------------------------------------------------------
# Parameter transfers in command buffers (stream.cmd.parameter.*)
# --------------------------------------------------------------------------------

_CMD_AWAIT = "(`await` `(` $await_timepoint^ `)` `=` `` `>`)?"


@irdl_op_definition
class CmdParameterLoadOp(IRDLOperation):
    """`stream.cmd.parameter.load (on(aff))? (await(%t) =>)? { (%scope::)?%key[%off]
    : type{%size}, ... } => !stream.timepoint` -- new resources holding
    parameters, one per row, all of one type and one scope."""

    name = "stream.cmd.parameter.load"

    source_scope = opt_operand_def(BufferType)
    source_keys = var_operand_def(BufferType)
    source_offsets = var_operand_def(I64)
    result_sizes = var_operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    results_ = var_result_def(ANY_STREAM_RESOURCE)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        RUNTIME_PATTERNS,
        OperandEffects(allocates=lambda op: tuple(op.results[:-1])),
        SizeAware(),
        _ExecuteResultNames(),
    )

    def result_size_of(self, index: int) -> SSAValue | None:
        return self.result_sizes[index] if index < len(self.result_sizes) else None

    def verify_(self) -> None:
        _verify_ranges(
            [len(self.source_keys), len(self.source_offsets), len(self.result_sizes)],
            "requires that the source keys, source offsets, and result sizes are all 1:1",
        )
        if len({r.type for r in self.results_}) > 1:
            raise VerifyException("all results must be of the same type")

    @classmethod
    def parse(cls, parser: Parser) -> CmdParameterLoadOp:
        affinity = parse_optional_on(parser)
        await_timepoint = None
        if parser.parse_optional_keyword("await") is not None:
            parser.parse_punctuation("(")
            await_timepoint = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            _parse_fat_arrow(parser)
        rows: list[tuple[UnresolvedOperand | None, ...]] = []
        types: list[Attribute] = []
        sizes: list[UnresolvedOperand] = []

        def row() -> None:
            parameter = _parse_parameter_row(parser)
            if rows and not _same_operand(rows[0][0], parameter[0]):
                parser.raise_error("each operation must use the same scope")
            parser.parse_punctuation(":")
            pos = parser.pos
            type, size = parse_sized_type(parser)
            if size is None:
                parser.raise_error("expected a sized resource type", pos)
            rows.append(parameter)
            types.append(type)
            sizes.append(size)

        parser.parse_comma_separated_list(parser.Delimiter.BRACES, row)
        _parse_fat_arrow(parser)
        timepoint_type = parser.parse_type()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        scope = rows[0][0]
        buffer, index = BufferType(), IndexType()
        return cls.build(
            operands=[
                [] if scope is None else [parser.resolve_operand(scope, buffer)],
                [parser.resolve_operand(r[1], buffer) for r in rows],  # type: ignore[arg-type]
                [parser.resolve_operand(r[2], i64) for r in rows],  # type: ignore[arg-type]
                [parser.resolve_operand(size, index) for size in sizes],
                [] if await_timepoint is None
                else [parser.resolve_operand(await_timepoint, TimepointType())],
            ],
            properties={"affinity": affinity},
            result_types=[types, timepoint_type],
            attributes=attributes.data if attributes is not None else {},
        )

    def print(self, printer: Printer) -> None:
        print_optional_on(printer, self.affinity)
        if self.await_timepoint is not None:
            printer.print_string(" await(")
            printer.print_operand(self.await_timepoint)
            printer.print_string(") =>")
        printer.print_string(" {")
        with printer.indented():
            for i, key in enumerate(self.source_keys):
                printer._print_new_line()
                _print_parameter_reference(printer, self.source_scope, key)
                printer.print_string("[")
                printer.print_operand(self.source_offsets[i])
                printer.print_string("] : ")
                print_sized_type(printer, self.results_[i].type, self.result_sizes[i])
                if i < len(self.source_keys) - 1:
                    printer.print_string(",")
        printer._print_new_line()
        printer.print_string("} => ")
        printer.print_attribute(self.result_timepoint.type)
        printer.print_op_attributes(self.attributes, print_keyword=True)


@irdl_op_definition
class CmdParameterReadOp(IRDLOperation):
    """`stream.cmd.parameter.read (on(aff))? (await(%t) =>)? (%scope::)?%key[%off]
    -> %r[%o for %l] : type{%size} => !stream.timepoint` -- WRITEs the target."""

    name = "stream.cmd.parameter.read"

    source_scope = opt_operand_def(BufferType)
    source_key = operand_def(BufferType)
    source_offset = operand_def(I64)
    target = operand_def(ANY_STREAM_RESOURCE)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_length = operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        RUNTIME_PATTERNS, OperandEffects(writes=operands_named("target")), SizeAware()
    )
    custom_directives = (ParameterReference,)

    assembly_format = (
        _AFFINITY + " " + _CMD_AWAIT + " " + _SOURCE_KEY + " `->` $target "
        "`[` $target_offset `for` $target_length `]` `:` "
        + _sized("target", "target_size") + _TIMEPOINT_TAIL
    )

    def operand_size_of(self, index: int) -> SSAValue | None:
        return self.target_size if self.operands[index] is self.target else None


@irdl_op_definition
class CmdParameterWriteOp(IRDLOperation):
    """`stream.cmd.parameter.write (on(aff))? (await(%t) =>)? %r[%o for %l] :
    type{%size} -> (%scope::)?%key[%off] => !stream.timepoint` -- READs the source
    and writes the archive."""

    name = "stream.cmd.parameter.write"

    source = operand_def(ANY_STREAM_RESOURCE)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    source_length = operand_def(IndexType)
    target_scope = opt_operand_def(BufferType)
    target_key = operand_def(BufferType)
    target_offset = operand_def(I64)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        RUNTIME_PATTERNS,
        OperandEffects(reads=operands_named("source")),
        MemoryWriteEffect(),
        SizeAware.fields(operands={0: "source_size"}),
    )
    custom_directives = (ParameterReference,)

    assembly_format = (
        _AFFINITY + " " + _CMD_AWAIT + " $source `[` $source_offset `for` "
        "$source_length `]` `:` " + _sized("source", "source_size") + " `->` "
        + _TARGET_KEY + _TIMEPOINT_TAIL
    )


@irdl_op_definition
class CmdParameterGatherOp(_ParameterBatchOp):
    """`stream.cmd.parameter.gather ... { (%scope::)?%key[%off] -> %r[%o for %l] :
    type{%size}, ... } => !stream.timepoint` -- WRITEs ranges of the target."""

    name = "stream.cmd.parameter.gather"

    RESOURCE: ClassVar[str] = "target"
    PARAMETER: ClassVar[str] = "source"
    PARAMETER_FIRST: ClassVar[bool] = True
    ROW_MISMATCH: ClassVar[str] = AsyncParameterGatherOp.ROW_MISMATCH
    COUNT_MISMATCH: ClassVar[str] = (
        "requires that the source keys, source offsets, target offsets, "
        "and target lengths are all 1:1"
    )
    RANGE_PARTS: ClassVar[tuple[str, ...]] = ("offsets", "lengths")
    IS_ASYNC: ClassVar[bool] = False

    source_scope = opt_operand_def(BufferType)
    source_keys = var_operand_def(BufferType)
    source_offsets = var_operand_def(I64)
    target = operand_def(ANY_STREAM_RESOURCE)
    target_size = operand_def(IndexType)
    target_offsets = var_operand_def(IndexType)
    target_lengths = var_operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        RUNTIME_PATTERNS, OperandEffects(writes=operands_named("target")), SizeAware()
    )

    def operand_size_of(self, index: int) -> SSAValue | None:
        return self.target_size if self.operands[index] is self.target else None


@irdl_op_definition
class CmdParameterScatterOp(_ParameterBatchOp):
    """`stream.cmd.parameter.scatter ... { %r[%o for %l] : type{%size} ->
    (%scope::)?%key[%off], ... } => !stream.timepoint` -- READs ranges of the
    source and writes the archive."""

    name = "stream.cmd.parameter.scatter"

    RESOURCE: ClassVar[str] = "source"
    PARAMETER: ClassVar[str] = "target"
    PARAMETER_FIRST: ClassVar[bool] = False
    ROW_MISMATCH: ClassVar[str] = AsyncParameterScatterOp.ROW_MISMATCH
    COUNT_MISMATCH: ClassVar[str] = (
        "requires that the source offsets, source lengths, target keys, "
        "and target offsets are all 1:1"
    )
    RANGE_PARTS: ClassVar[tuple[str, ...]] = ("offsets", "lengths")
    IS_ASYNC: ClassVar[bool] = False

    source = operand_def(ANY_STREAM_RESOURCE)
    source_size = operand_def(IndexType)
    source_offsets = var_operand_def(IndexType)
    source_lengths = var_operand_def(IndexType)
    target_scope = opt_operand_def(BufferType)
    target_keys = var_operand_def(BufferType)
    target_offsets = var_operand_def(I64)
    await_timepoint = opt_operand_def(TimepointType)
    affinity = opt_prop_def(DeviceAffinityAttr)
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        RUNTIME_PATTERNS,
        OperandEffects(reads=operands_named("source")),
        MemoryWriteEffect(),
        SizeAware.fields(operands={0: "source_size"}),
    )


STREAM_RUNTIME_OPS = (
    ContextResolveOp,
    ResourceRetainOp,
    ResourceReleaseOp,
    ResourceIsTerminalOp,
    ResourceConstantsOp,
    FileConstantOp,
    FileReadOp,
    FileWriteOp,
    AsyncBarrierOp,
    AsyncCollectiveOp,
    ChannelCreateOp,
    ChannelSplitOp,
    ChannelRankOp,
    ChannelCountOp,
    AsyncFuncOp,
    AsyncCallOp,
    TensorDispatchOp,
    TensorTraceOp,
    TensorParameterLoadOp,
    TensorParameterWriteOp,
    AsyncParameterLoadOp,
    AsyncParameterReadOp,
    AsyncParameterWriteOp,
    AsyncParameterGatherOp,
    AsyncParameterScatterOp,
    CmdParameterLoadOp,
    CmdParameterReadOp,
    CmdParameterWriteOp,
    CmdParameterGatherOp,
    CmdParameterScatterOp,
)
STREAM_RUNTIME_ATTRIBUTES = (
    ChannelType, FileType, CollectiveAttr, PartitioningConfigAttr, ResourceConfigAttr
)
