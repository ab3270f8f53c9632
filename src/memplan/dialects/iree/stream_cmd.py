"""IREE's `stream.cmd.*` ops: explicitly scheduled work on allocated resources.

After scheduling, a `stream.cmd.execute` captures the resources it touches
(`with(%r as %arg: !stream.resource<transient>{%size})`) and runs its body on the
device timeline, after its `await` timepoint; its result timepoint says when the
work is done. Inside, commands run in order, `stream.cmd.concurrent` groups ones
that may overlap and `stream.cmd.serial` ones that may not.

Effects, declared on each op and naming the captured value they touch (IREE
declares none and treats the ops as unknown):

- `cmd.fill`: WRITEs its target; `cmd.copy`: READs its source, WRITEs its target;
  `cmd.dispatch`: READs its `ro` and `rw` resources and WRITEs its `wo` and `rw`
  ones (a dispatch that writes none has unknown effects, so it is never dead); `cmd.discard` WRITEs (the contents become undefined); `cmd.flush` and
  `cmd.invalidate` READ and WRITE (they move the contents between devices, so
  they are never dead);
- `cmd.collective`: as a dispatch; `cmd.call`: READ/WRITE of its resource
  operands by their access keywords, unknown when it writes none (the callee is
  external); `cmd.func`: a declaration, unknown;
- `cmd.execute`, `cmd.serial`, `cmd.concurrent`: the effects of their bodies.

Every cmd op carries `CmdPhase`; an execution region holds only such ops and
`Streamable` ones (IREE's verifier; both traits are given to the ops of `stream`
and `stream_runtime` that IREE gives them). The region ops' canonicalization patterns are in
`memplan.passes.patterns.stream_cmd`. Syntax follows StreamOps.td and StreamOps.cpp (IREE 3.13).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    StringAttr,
    IntegerAttr,
    IntegerType,
    SymbolRefAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    IsolatedFromAbove,
    MemoryEffect,
    MemoryEffectKind,
    OpTrait,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.iree.hal import DeviceAffinityAttr
from memplan.dialects.iree.stream import (
    ANY_STREAM_RESOURCE,
    ResourceType,
    SizeAware,
    TimepointType,
    YieldOp,
    _parse_capture_list,
    _parse_fat_arrow,
    _print_capture_list,
    parse_optional_on,
    print_optional_on,
    size_among,
)
from memplan.dialects.iree.stream_runtime import ChannelType, CollectiveAttr
from memplan.util_interfaces import CanonicalizedBy, Subranges
from memplan.dialects.iree.util import (
    parse_entry_points,
    parse_sized_type,
    parse_workload,
    print_entry_points,
    print_sized_type,
    print_workload,
    tied_operands_attr,
)
from memplan.interfaces import OperandEffects, attach_trait, get_interface, operands_named

__all__ = [
    "CMD_OPS",
    "CmdCallOp",
    "CmdCollectiveOp",
    "CmdFuncOp",
    "CmdConcurrentOp",
    "CmdCopyOp",
    "CmdDiscardOp",
    "CmdDispatchOp",
    "CmdExecuteOp",
    "CmdFillOp",
    "CmdFlushOp",
    "CmdInvalidateOp",
    "CmdPhase",
    "CmdSerialOp",
    "ResourceAccess",
]


class CmdPhase(OpTrait):
    """IREE's `Stream_CmdPhaseOp`: an op allowed in a `stream.cmd.execute` body."""


class Streamable(OpTrait):
    """IREE's `StreamableOpInterface`: an op that may run on a stream timeline, so
    an execution region may hold it (`stream.resource.subview` taken inside one)."""


def _declare_phases() -> None:
    """The phase traits of ops defined in `stream` and `stream_runtime` (IREE's
    traits on those ops), given as external models."""
    from memplan.dialects.iree import stream_runtime as rt
    from memplan.dialects.iree.stream import (
        AsyncAllocaOp, AsyncCloneOp, AsyncConcurrentOp, AsyncConstantOp, AsyncCopyOp,
        AsyncDispatchOp, AsyncFillOp, AsyncSliceOp, AsyncSplatOp, AsyncTransferOp,
        AsyncUpdateOp, ResourceSubviewOp, TensorCloneOp, TensorConstantOp,
        TensorEmptyOp, TensorEncodeOp, TensorFillOp, TensorSliceOp, TensorSplatOp,
        TensorUpdateOp,
    )

    for op_type in (
        AsyncAllocaOp, AsyncCloneOp, AsyncConcurrentOp, AsyncConstantOp, AsyncCopyOp,
        AsyncDispatchOp, AsyncFillOp, AsyncSliceOp, AsyncSplatOp, AsyncTransferOp,
        AsyncUpdateOp, ResourceSubviewOp, TensorCloneOp, TensorConstantOp,
        TensorEmptyOp, TensorEncodeOp, TensorFillOp, TensorSliceOp, TensorSplatOp,
        TensorUpdateOp, rt.AsyncBarrierOp, rt.AsyncCallOp, rt.AsyncCollectiveOp,
        rt.TensorDispatchOp, rt.TensorParameterLoadOp,
    ):
        attach_trait(op_type, Streamable())
    for op_type in (
        rt.ResourceRetainOp, rt.ResourceReleaseOp, rt.ResourceIsTerminalOp,
        rt.FileReadOp, rt.FileWriteOp,
    ):
        attach_trait(op_type, CmdPhase())


class ResourceAccess:
    """IREE's resource access bits, as `resource_accesses` stores them (i32)."""

    READ = 1
    WRITE = 2
    KEYWORDS = {"ro": READ, "wo": WRITE, "rw": READ | WRITE}
    NAMES = {bits: keyword for keyword, bits in KEYWORDS.items()}


def _sized(value: str, size: str) -> str:
    return f"type(${value}) `` `{{` ${size} `}}`"


_RANGE = "$target `[` $target_offset `for` $target_length `]` `:` "


def _verify_size_count(op: Operation, values: Sequence[SSAValue], sizes: Sequence[SSAValue]) -> None:
    required = sum(1 for v in values if isinstance(v.type, ResourceType))
    if required != len(sizes):
        raise VerifyException(
            f"value set has {required} dynamic dimensions but only {len(sizes)} "
            "dimension values are attached"
        )


# --------------------------------------------------------------------------------
# Commands on one resource range
# --------------------------------------------------------------------------------

_TARGET_SIZE = SizeAware.fields(operands={0: "target_size"})
_TARGET_RANGE = Subranges((("target", "target_size", "target_offset", "target_length"),))
"""A command on one range of its target (subviews of it fold into the range)."""
_PATTERNS = CanonicalizedBy("memplan.passes.patterns.stream_cmd")


def _transfer_op(op_name: str, keyword: str, doc: str) -> type[IRDLOperation]:
    """`stream.cmd.flush` / `stream.cmd.invalidate`: a range moved to or from
    another device (`keyword(#affinity)`), READ and WRITTEN."""
    cls = type(
        "Cmd" + op_name.title() + "Op",
        (IRDLOperation,),
        {
            "name": f"stream.cmd.{op_name}",
            "__doc__": doc,
            "__module__": __name__,
            "target": operand_def(ResourceType),
            "target_size": operand_def(IndexType),
            "target_offset": operand_def(IndexType),
            "target_length": operand_def(IndexType),
            "source_affinity": opt_prop_def(DeviceAffinityAttr),
            "traits": traits_def(
                CmdPhase(),
                _TARGET_SIZE,
                _TARGET_RANGE,
                OperandEffects(reads=operands_named("target"), writes=operands_named("target")),
                _PATTERNS,
            ),
            "assembly_format": (
                f"(`{keyword}` `(` qualified($source_affinity)^ `)`)? " + _RANGE
                + _sized("target", "target_size") + " attr-dict-with-keyword"
            ),
        },
    )
    return irdl_op_definition(cls)


CmdFlushOp = _transfer_op(
    "flush", "to",
    "`stream.cmd.flush (to(aff))? %r[%off for %len] : type{%size}` -- makes a range "
    "available to another device.",
)
CmdInvalidateOp = _transfer_op(
    "invalidate", "from",
    "`stream.cmd.invalidate (from(aff))? %r[%off for %len] : type{%size}` -- makes "
    "a range another device flushed visible here.",
)


@irdl_op_definition
class CmdDiscardOp(IRDLOperation):
    """`stream.cmd.discard %r[%off for %len] : type{%size}` -- the range's contents
    are no longer needed."""

    name = "stream.cmd.discard"

    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_length = operand_def(IndexType)

    traits = traits_def(
        CmdPhase(), _TARGET_SIZE, _TARGET_RANGE, OperandEffects(writes=operands_named("target")), _PATTERNS
    )

    assembly_format = _RANGE + _sized("target", "target_size") + " attr-dict-with-keyword"


@irdl_op_definition
class CmdFillOp(IRDLOperation):
    """`stream.cmd.fill %value, %r[%off for %len] : i32 -> type{%size}` -- splats
    an 8/16/32/64-bit pattern over a range."""

    name = "stream.cmd.fill"

    target = operand_def(ANY_STREAM_RESOURCE)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    target_length = operand_def(IndexType)
    value = operand_def(IntegerType)

    traits = traits_def(
        CmdPhase(), _TARGET_SIZE, _TARGET_RANGE, OperandEffects(writes=operands_named("target")), _PATTERNS
    )

    assembly_format = (
        "$value `,` " + _RANGE + "type($value) `->` "
        + _sized("target", "target_size") + " attr-dict-with-keyword"
    )

    def verify_(self) -> None:
        assert isinstance(self.value.type, IntegerType)
        if self.value.type.width.data not in (8, 16, 32, 64):
            raise VerifyException("fill pattern must be an 8, 16, 32 or 64-bit integer")


@irdl_op_definition
class CmdCopyOp(IRDLOperation):
    """`stream.cmd.copy %src[%so], %dst[%to], %len : type{%ss} -> type{%ts}` --
    copies a range between resources (no overlap, as memcpy)."""

    name = "stream.cmd.copy"

    source = operand_def(ResourceType)
    source_size = operand_def(IndexType)
    source_offset = operand_def(IndexType)
    target = operand_def(ResourceType)
    target_size = operand_def(IndexType)
    target_offset = operand_def(IndexType)
    length = operand_def(IndexType)

    traits = traits_def(
        CmdPhase(),
        SizeAware.fields(operands={0: "source_size", 3: "target_size"}),
        Subranges((
            ("source", "source_size", "source_offset", "length"),
            ("target", "target_size", "target_offset", "length"),
        )),
        OperandEffects(reads=operands_named("source"), writes=operands_named("target")),
        _PATTERNS,
    )

    assembly_format = (
        "$source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` "
        "$length `:` " + _sized("source", "source_size") + " `->` "
        + _sized("target", "target_size") + " attr-dict-with-keyword"
    )


# --------------------------------------------------------------------------------
# stream.cmd.dispatch
# --------------------------------------------------------------------------------


class _DispatchEffects(MemoryEffect):
    """READ/WRITE of each resource as its access keyword says; unknown when it
    writes none (the kernel's other effects are not known, so it is kept, as IREE
    keeps it)."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance] | None:
        assert isinstance(op, CmdDispatchOp | CmdCollectiveOp)
        effects: set[EffectInstance] = set()
        for resource, access in zip(op.resources, op.accesses()):
            if access & ResourceAccess.READ:
                effects.add(EffectInstance(MemoryEffectKind.READ, resource))
            if access & ResourceAccess.WRITE:
                effects.add(EffectInstance(MemoryEffectKind.WRITE, resource))
        if not any(e.kind == MemoryEffectKind.WRITE for e in effects):
            return None
        return effects


@irdl_op_definition
class CmdDispatchOp(IRDLOperation):
    """`stream.cmd.dispatch @ex::@entry([%workload])?((%uniform : types))? {
    ro|wo|rw %r[%off for %len] : type{%size}, ... }` -- one dispatch of an
    executable's entry point (`{@a, @b}` lists alternatives)."""

    name = "stream.cmd.dispatch"

    workload = var_operand_def(IndexType)
    uniform_operands = var_operand_def()
    resources = var_operand_def(ANY_STREAM_RESOURCE)
    resource_sizes = var_operand_def(IndexType)
    resource_offsets = var_operand_def(IndexType)
    resource_lengths = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    resource_accesses = prop_def(ArrayAttr[IntegerAttr])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(CmdPhase(), SizeAware(), _DispatchEffects(), _PATTERNS)

    def accesses(self) -> tuple[int, ...]:
        return tuple(a.value.data for a in self.resource_accesses.data)

    def operand_size_of(self, index: int) -> SSAValue | None:
        first = len(self.workload) + len(self.uniform_operands)
        position = index - first
        if 0 <= position < len(self.resources):
            return self.resource_sizes[position]
        return None

    @classmethod
    def parse(cls, parser: Parser) -> CmdDispatchOp:
        entry_points = parse_entry_points(parser)
        workload = parse_workload(parser)
        uniform: list[SSAValue] = []
        if parser.parse_optional_punctuation("(") is not None:
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            uniform = list(parser.resolve_operands(names, types, pos))
        resources, sizes, offsets, lengths, accesses = _parse_dispatch_resources(parser)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls.build(
            operands=[workload, uniform, resources, sizes, offsets, lengths],
            properties={
                "entry_points": ArrayAttr(entry_points),
                "resource_accesses": ArrayAttr([IntegerAttr(a, i32) for a in accesses]),
            },
        )
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_entry_points(printer, self.entry_points.data)
        print_workload(printer, self.workload)
        if self.uniform_operands:
            printer.print_string("(")
            printer.print_list(self.uniform_operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.uniform_operands], printer.print_attribute)
            printer.print_string(")")
        _print_dispatch_resources(printer, self)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        _verify_resource_ranges(self, "dispatch with ")
        if not self.entry_points.data:
            raise VerifyException("at least one entry point must be defined")


def _verify_resource_ranges(op: CmdDispatchOp | CmdCollectiveOp, prefix: str) -> None:
    count = len(op.resources)
    if not (
        len(op.resource_sizes) == len(op.resource_offsets)
        == len(op.resource_lengths) == len(op.resource_accesses.data) == count
    ):
        raise VerifyException(f"{prefix}{count} resources has mismatched associated ranges")
    for access in op.accesses():
        if access not in ResourceAccess.NAMES:
            raise VerifyException(f"resource access {access} is none of ro, wo, rw")


def _print_access_range(printer: Printer, access: int, resource: SSAValue, offset: SSAValue, length: SSAValue) -> None:
    """`ro %r[%offset for %length]`."""
    printer.print_string(ResourceAccess.NAMES.get(access, "") + " ")
    printer.print_operand(resource)
    printer.print_string("[")
    printer.print_operand(offset)
    printer.print_string(" for ")
    printer.print_operand(length)
    printer.print_string("]")


def _print_dispatch_resources(printer: Printer, op: CmdDispatchOp | CmdCollectiveOp) -> None:
    """` { ro %r[%o for %l] : type{%size}, ... }`, one resource a line (IREE's
    `custom<DispatchResources>`)."""
    printer.print_string(" {")
    accesses = op.accesses()
    count = len(op.resources)
    for i in range(count):
        printer.print_string("\n  ")
        _print_access_range(printer, accesses[i], op.resources[i], op.resource_offsets[i], op.resource_lengths[i])
        printer.print_string(" : ")
        print_sized_type(printer, op.resources[i].type, op.resource_sizes[i])
        if i < count - 1:
            printer.print_string(",")
    printer.print_string("\n}")


def _parse_access_range(parser: Parser) -> tuple[int, UnresolvedOperand, SSAValue, SSAValue] | None:
    """`(ro|wo|rw) %r[%offset for %length]`, or None without an access keyword."""
    keyword = parser.parse_optional_keyword("ro") or parser.parse_optional_keyword("wo") or parser.parse_optional_keyword("rw")
    if keyword is None:
        return None
    index = IndexType()
    name = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    offset = parser.resolve_operand(parser.parse_unresolved_operand(), index)
    parser.parse_keyword("for")
    length = parser.resolve_operand(parser.parse_unresolved_operand(), index)
    parser.parse_punctuation("]")
    return ResourceAccess.KEYWORDS[keyword], name, offset, length


def _parse_dispatch_resources(
    parser: Parser,
) -> tuple[list[SSAValue], list[SSAValue], list[SSAValue], list[SSAValue], list[int]]:
    """`{ (ro|wo|rw) %r[%off for %len] : type{%size}, ... }`."""
    index = IndexType()
    resources: list[SSAValue] = []
    sizes: list[SSAValue] = []
    offsets: list[SSAValue] = []
    lengths: list[SSAValue] = []
    accesses: list[int] = []

    def entry() -> None:
        pos = parser.pos
        ranged = _parse_access_range(parser)
        if ranged is None:
            parser.raise_error("expected ro, wo or rw", pos)
        access, name, offset, length = ranged
        parser.parse_punctuation(":")
        type, size = parse_sized_type(parser)
        if size is None:
            parser.raise_error("expected the resource's size: type{%size}")
        resources.append(parser.resolve_operand(name, type))
        sizes.append(parser.resolve_operand(size, index))
        offsets.append(offset)
        lengths.append(length)
        accesses.append(access)

    parser.parse_punctuation("{")
    if parser.parse_optional_punctuation("}") is None:
        parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
        parser.parse_punctuation("}")
    return resources, sizes, offsets, lengths, accesses


# --------------------------------------------------------------------------------
# stream.cmd.collective, stream.cmd.func, stream.cmd.call
# --------------------------------------------------------------------------------


@irdl_op_definition
class CmdCollectiveOp(IRDLOperation):
    """`stream.cmd.collective<all_reduce with sum : f32>[%count] channel(%ch)
    (param(%p : i32))? { ro|wo|rw %r[%off for %len] : type{%size}, ... }` -- a
    collective operation over a channel. Effects as a dispatch's."""

    name = "stream.cmd.collective"

    op = prop_def(CollectiveAttr)
    channel = operand_def(ChannelType)
    element_count = operand_def(IndexType)
    param = opt_operand_def(i32)
    resources = var_operand_def(ANY_STREAM_RESOURCE)
    resource_sizes = var_operand_def(IndexType)
    resource_offsets = var_operand_def(IndexType)
    resource_lengths = var_operand_def(IndexType)
    resource_accesses = prop_def(ArrayAttr[IntegerAttr])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(CmdPhase(), SizeAware(), _DispatchEffects(), _PATTERNS)

    accesses = CmdDispatchOp.accesses

    def operand_size_of(self, index: int) -> SSAValue | None:
        position = index - (3 if self.param is not None else 2)
        return self.resource_sizes[position] if 0 <= position < len(self.resources) else None

    @classmethod
    def parse(cls, parser: Parser) -> CmdCollectiveOp:
        collective = CollectiveAttr.new(CollectiveAttr.parse_parameters(parser))
        index = IndexType()
        parser.parse_punctuation("[")
        count = parser.resolve_operand(parser.parse_unresolved_operand(), index)
        parser.parse_punctuation("]")
        parser.parse_keyword("channel")
        parser.parse_punctuation("(")
        channel = parser.resolve_operand(parser.parse_unresolved_operand(), ChannelType())
        parser.parse_punctuation(")")
        param: list[SSAValue] = []
        if parser.parse_optional_keyword("param") is not None:
            parser.parse_punctuation("(")
            name = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            param = [parser.resolve_operand(name, parser.parse_type())]
            parser.parse_punctuation(")")
        resources, sizes, offsets, lengths, accesses = _parse_dispatch_resources(parser)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls.build(
            operands=[channel, count, param, resources, sizes, offsets, lengths],
            properties={
                "op": collective,
                "resource_accesses": ArrayAttr([IntegerAttr(a, i32) for a in accesses]),
            },
        )
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        self.op.print_parameters(printer)
        printer.print_string("[")
        printer.print_operand(self.element_count)
        printer.print_string("] channel(")
        printer.print_operand(self.channel)
        printer.print_string(")")
        if self.param is not None:
            printer.print_string(" param(")
            printer.print_operand(self.param)
            printer.print_string(" : ")
            printer.print_attribute(self.param.type)
            printer.print_string(")")
        _print_dispatch_resources(printer, self)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        _verify_resource_ranges(self, "with ")


@irdl_op_definition
class CmdFuncOp(IRDLOperation):
    """`stream.cmd.func private @f(%arg0[%arg1 for %arg2]: !stream.resource<*>,
    %arg3: i32) -> results` -- an external function `stream.cmd.call` calls; a
    resource argument brings its offset and length (two index arguments after it
    in `function_type`). Only declarations, as IREE."""

    name = "stream.cmd.func"

    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = opt_region_def()

    traits = traits_def(CmdPhase(), IsolatedFromAbove(), SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> CmdFuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        sym_name = parser.parse_symbol_name()
        index = IndexType()
        inputs: list[Attribute] = []
        arg_attrs: list[DictionaryAttr] = []

        def argument() -> None:
            parser.parse_unresolved_operand()
            ranged = parser.parse_optional_punctuation("[") is not None
            if ranged:
                parser.parse_unresolved_operand()
                parser.parse_keyword("for")
                parser.parse_unresolved_operand()
                parser.parse_punctuation("]")
            parser.parse_punctuation(":")
            inputs.append(parser.parse_type())
            arg_attrs.append(DictionaryAttr(parser.parse_optional_attr_dict()))
            if ranged:
                inputs.extend((index, index))
                arg_attrs.extend((DictionaryAttr({}), DictionaryAttr({})))

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, argument)
        outputs: list[Attribute] = []
        res_attrs: list[DictionaryAttr] = []

        def result() -> None:
            outputs.append(parser.parse_type())
            res_attrs.append(DictionaryAttr(parser.parse_optional_attr_dict()))

        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                parser.parse_comma_separated_list(parser.Delimiter.NONE, result)
                parser.parse_punctuation(")")
            else:
                parser.parse_comma_separated_list(parser.Delimiter.NONE, result)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_optional_region()
        return cls.build(
            properties={
                "sym_name": sym_name,
                "function_type": FunctionType.from_lists(inputs, outputs),
                "sym_visibility": visibility,
                "arg_attrs": ArrayAttr(arg_attrs) if arg_attrs else None,
                "res_attrs": ArrayAttr(res_attrs) if res_attrs else None,
            },
            attributes=attributes.data if attributes is not None else {},
            regions=[region if region is not None else Region()],
        )

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        inputs = self.function_type.inputs.data
        arg_attrs = self.arg_attrs.data if self.arg_attrs is not None else None
        printer.print_string("(")
        i = 0
        while i < len(inputs):
            if i:
                printer.print_string(", ")
            printer.print_string(f"%arg{i}")
            first = i
            if isinstance(inputs[i], ResourceType):
                printer.print_string(f"[%arg{i + 1} for %arg{i + 2}]")
                i += 3
            else:
                i += 1
            printer.print_string(": ")
            printer.print_attribute(inputs[first])
            if arg_attrs is not None and arg_attrs[first].data:
                printer.print_string(" ")
                printer.print_attr_dict(arg_attrs[first].data)
        printer.print_string(")")
        outputs = self.function_type.outputs.data
        if outputs:
            res_attrs = self.res_attrs.data if self.res_attrs is not None else None
            printer.print_string(" -> ")
            if len(outputs) != 1:
                printer.print_string("(")

            def result(j: int) -> None:
                printer.print_attribute(outputs[j])
                if res_attrs is not None and res_attrs[j].data:
                    printer.print_string(" ")
                    printer.print_attr_dict(res_attrs[j].data)

            printer.print_list(range(len(outputs)), result)
            if len(outputs) != 1:
                printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body)

    def verify_(self) -> None:
        # MLIR's rule for function declarations.
        if not self.body.blocks and (self.sym_visibility is None or self.sym_visibility.data == "public"):
            raise VerifyException("symbol declaration cannot have public visibility")


class _CallEffects(MemoryEffect):
    """READ/WRITE of each resource operand as its access keyword says; unknown
    when it writes none (the callee is external)."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance] | None:
        assert isinstance(op, CmdCallOp)
        effects: set[EffectInstance] = set()
        accesses = iter(a.value.data for a in op.resource_operand_accesses.data)
        for operand in op.resource_operands:
            if not isinstance(operand.type, ResourceType):
                continue
            access = next(accesses, 0)
            if access & ResourceAccess.READ:
                effects.add(EffectInstance(MemoryEffectKind.READ, operand))
            if access & ResourceAccess.WRITE:
                effects.add(EffectInstance(MemoryEffectKind.WRITE, operand))
        if not any(e.kind == MemoryEffectKind.WRITE for e in effects):
            return None
        return effects


@irdl_op_definition
class CmdCallOp(IRDLOperation):
    """`stream.cmd.call @f(ro %r[%off for %len], %x) : (type{%size}, i32) ->
    results` -- calls a `stream.cmd.func` on resource ranges and values."""

    name = "stream.cmd.call"

    callee = prop_def(SymbolRefAttr)
    resource_operands = var_operand_def()
    resource_operand_sizes = var_operand_def(IndexType)
    resource_operand_offsets = var_operand_def(IndexType)
    resource_operand_lengths = var_operand_def(IndexType)
    result_sizes = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    resource_operand_accesses = prop_def(ArrayAttr[IntegerAttr])
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(CmdPhase(), SizeAware(), _CallEffects())

    def operand_size_of(self, index: int) -> SSAValue | None:
        if index >= len(self.resource_operands):
            return None
        return size_among(self.resource_operands, self.resource_operand_sizes, index)

    @classmethod
    def parse(cls, parser: Parser) -> CmdCallOp:
        callee = parser.parse_symbol_name()
        names: list[UnresolvedOperand] = []
        offsets: list[SSAValue] = []
        lengths: list[SSAValue] = []
        accesses: list[int] = []

        def operand() -> None:
            ranged = _parse_access_range(parser)
            if ranged is None:
                names.append(parser.parse_unresolved_operand())
                return
            access, name, offset, length = ranged
            names.append(name)
            offsets.append(offset)
            lengths.append(length)
            accesses.append(access)

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, operand)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        typed = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parse_sized_type(parser))
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("(") is not None:
            results = [] if parser.parse_optional_punctuation(")") is not None else None
            if results is None:
                results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                parser.parse_punctuation(")")
        else:
            results = [parser.parse_type()]
        index = IndexType()
        operands = parser.resolve_operands(names, [t for t, _ in typed], pos)
        sizes = [parser.resolve_operand(size, index) for _, size in typed if size is not None]
        op = cls.build(
            operands=[operands, sizes, offsets, lengths, []],
            result_types=[results],
            properties={
                "callee": SymbolRefAttr(callee),
                "resource_operand_accesses": ArrayAttr([IntegerAttr(a, i32) for a in accesses]),
                # As IREE's parser: an untied entry per result, none without results.
                "tied_operands": tied_operands_attr([None] * len(results)) if results else None,
            },
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        accesses = [a.value.data for a in self.resource_operand_accesses.data]
        position = 0

        def operand(value: SSAValue) -> None:
            nonlocal position
            if not isinstance(value.type, ResourceType):
                printer.print_operand(value)
                return
            _print_access_range(
                printer, accesses[position], value,
                self.resource_operand_offsets[position], self.resource_operand_lengths[position],
            )
            position += 1

        printer.print_string("(")
        printer.print_list(self.resource_operands, operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        sizes = list(self.resource_operand_sizes)
        printer.print_list(
            self.resource_operands,
            lambda v: print_sized_type(printer, v.type, sizes.pop(0) if isinstance(v.type, ResourceType) else None),
        )
        printer.print_string(") -> ")
        if len(self.results_) == 1:
            printer.print_attribute(self.results_[0].type)
        else:
            printer.print_string("(")
            printer.print_list([r.type for r in self.results_], printer.print_attribute)
            printer.print_string(")")

    def verify_(self) -> None:
        _verify_size_count(self, self.resource_operands, self.resource_operand_sizes)
        resources = sum(1 for v in self.resource_operands if isinstance(v.type, ResourceType))
        ranges = len(self.resource_operand_offsets)
        if len(self.resource_operand_lengths) != ranges:
            raise VerifyException("mismatch on resource range offsets/lengths; counts must match")
        if ranges != resources:
            raise VerifyException(
                f"expects {resources} resource range operand sets but {ranges} are present"
            )


# --------------------------------------------------------------------------------
# Execution regions
# --------------------------------------------------------------------------------


def _verify_cmd_body(op: Operation) -> None:
    for nested in op.regions[0].block.ops:
        if not (
            isinstance(nested, YieldOp)
            or get_interface(nested, CmdPhase) is not None
            or get_interface(nested, Streamable) is not None
        ):
            raise VerifyException(
                f"explicit execution regions must only contain explicit ops, not '{nested.name}'"
            )


def _verify_all_captured(region: Region) -> None:
    """IREE's check: every resource the body uses is a region argument or made
    inside it."""
    block = region.block
    available = set(block.args)
    for nested in block.ops:
        for operand in nested.operands:
            if isinstance(operand.type, ResourceType) and operand not in available:
                raise VerifyException(
                    f"used resource not listed in explicit captures (or produced "
                    f"internally), by '{nested.name}'"
                )
        available.update(nested.results)


_YIELDS = SingleBlockImplicitTerminator(YieldOp)


@irdl_op_definition
class CmdExecuteOp(IRDLOperation):
    """`stream.cmd.execute (once)? (on(aff))? (await(%t) =>)? with(%r as %arg:
    type{%size}, ...) { commands } => !stream.timepoint` -- the captured resources'
    commands, run on the device timeline after `await`."""

    name = "stream.cmd.execute"

    resource_operands = var_operand_def(ResourceType)
    resource_operand_sizes = var_operand_def(IndexType)
    await_timepoint = opt_operand_def(TimepointType)
    once = opt_prop_def(UnitAttr)
    affinity = opt_prop_def(DeviceAffinityAttr)
    body = region_def("single_block")
    result_timepoint = result_def(TimepointType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(CmdPhase(), RecursiveMemoryEffect(), _YIELDS, SizeAware(), _PATTERNS)

    def operand_size_of(self, index: int) -> SSAValue | None:
        if index >= len(self.resource_operands):
            return None
        return size_among(self.resource_operands, self.resource_operand_sizes, index)

    @classmethod
    def parse(cls, parser: Parser) -> CmdExecuteOp:
        once = parser.parse_optional_keyword("once") is not None
        affinity = parse_optional_on(parser)
        await_timepoint: list[SSAValue] = []
        if parser.parse_optional_keyword("await") is not None:
            parser.parse_punctuation("(")
            await_timepoint = [parser.resolve_operand(parser.parse_unresolved_operand(), TimepointType())]
            parser.parse_punctuation(")")
            _parse_fat_arrow(parser)
        parser.parse_keyword("with")
        names, arguments, types, sizes = _parse_capture_list(parser)
        pos = parser.pos
        operands = parser.resolve_operands(names, types, pos)
        region = parser.parse_region(arguments)
        _parse_fat_arrow(parser)
        pos = parser.pos
        if not isinstance(parser.parse_type(), TimepointType):
            parser.raise_error("expected !stream.timepoint", pos)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        index = IndexType()
        op = cls.build(
            operands=[operands, [parser.resolve_operand(s, index) for s in sizes], await_timepoint],
            properties={"once": UnitAttr() if once else None, "affinity": affinity},
            result_types=[TimepointType()],
            regions=[region],
        )
        ensure_terminator(op, _YIELDS)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        if self.once is not None:
            printer.print_string(" once")
        print_optional_on(printer, self.affinity)
        if self.await_timepoint is not None:
            printer.print_string(" await(")
            printer.print_operand(self.await_timepoint)
            printer.print_string(") =>")
        printer.print_string(" with")
        _print_capture_list(printer, self.resource_operands, self.body.block.args, self.resource_operand_sizes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=False)
        printer.print_string(" => ")
        printer.print_attribute(self.result_timepoint.type)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        _verify_size_count(self, self.resource_operands, self.resource_operand_sizes)
        block = self.body.block
        if len(block.args) != len(self.resource_operands):
            raise VerifyException("region takes one argument per captured operand")
        for arg, operand in zip(block.args, self.resource_operands):
            if arg.type != operand.type:
                raise VerifyException("captured operand and region argument types differ")
        _verify_all_captured(self.body)
        _verify_cmd_body(self)


class _WaveOp(IRDLOperation):
    """`stream.cmd.serial { ... }` and `stream.cmd.concurrent { ... }`: a group of
    commands nested in an execution region."""

    @classmethod
    def parse(cls, parser: Parser) -> _WaveOp:
        region = parser.parse_region()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls.build(regions=[region])
        ensure_terminator(op, _YIELDS)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.regions[0], print_entry_block_args=False, print_block_terminators=False)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, CmdExecuteOp | CmdSerialOp | CmdConcurrentOp):
            raise VerifyException(
                f"'{self.name}' expects parent op to be one of 'stream.cmd.execute', "
                "'stream.cmd.serial', 'stream.cmd.concurrent'"
            )
        _verify_cmd_body(self)


@irdl_op_definition
class CmdSerialOp(_WaveOp):
    """`stream.cmd.serial { ... }` -- commands that run one after the other."""

    name = "stream.cmd.serial"

    body = region_def("single_block")

    traits = traits_def(CmdPhase(), RecursiveMemoryEffect(), _YIELDS, _PATTERNS)


@irdl_op_definition
class CmdConcurrentOp(_WaveOp):
    """`stream.cmd.concurrent { ... }` -- commands that may run at the same time."""

    name = "stream.cmd.concurrent"

    body = region_def("single_block")

    traits = traits_def(CmdPhase(), RecursiveMemoryEffect(), _YIELDS, _PATTERNS)


CMD_OPS: tuple[type[Operation], ...] = (
    CmdCollectiveOp,
    CmdFuncOp,
    CmdCallOp,
    CmdFlushOp,
    CmdInvalidateOp,
    CmdDiscardOp,
    CmdFillOp,
    CmdCopyOp,
    CmdDispatchOp,
    CmdExecuteOp,
    CmdSerialOp,
    CmdConcurrentOp,
)

_declare_phases()
