"""The part of IREE's `hal` dialect that stream IR refers to: device affinities.

`#hal.device.affinity<@device>` names the device (a global holding a `!hal.device`)
a stream op runs on or a resource lives on; `<@device, [0, 1]>` also restricts it to
some of the device's queues. IREE stores the queue set as a 64-bit mask where -1
means "any queue" (printed without the list); the list prints the set bits in
increasing order, as IREE 3.13 does (`[2, 0]` reads back as `[0, 2]`).
"""

from __future__ import annotations

from abc import abstractmethod

import re

from collections.abc import Callable, Iterable, Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    ComplexType,
    DictionaryAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    OpResult,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    TypeAttribute,
    TypedAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    ConstantLike,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    SymbolTable,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from memplan.util_interfaces import CanonicalizedBy
from memplan.interfaces import OperandEffects, all_results, operands_named
from memplan.opaque import OpaqueBodies
from memplan.printing.naming import AsmResultNames, FixedResultNames, sanitize_ssa_name
from memplan.printing.structure import print_stripped

__all__ = [
    "ANY_QUEUE",
    "AllocatorType",
    "BufferType",
    "BufferViewType",
    "DeviceAffinityAttr",
    "DeviceType",
    "FenceCreateOp",
    "FenceType",
    "Hal",
    "SemaphoreType",
]

ANY_QUEUE = -1
"""The queue mask of an affinity that allows every queue of the device."""

_MASK_BITS = 64


def _mask_from_queues(queues: Iterable[int]) -> int:
    mask = 0
    for queue in queues:
        mask |= 1 << queue
    # Stored as a signed 64-bit value, like IREE's int64_t queue_mask.
    return mask - (1 << _MASK_BITS) if mask >= 1 << (_MASK_BITS - 1) else mask


def _queues(mask: int) -> tuple[int, ...] | None:
    if mask == ANY_QUEUE:
        return None
    mask &= (1 << _MASK_BITS) - 1
    return tuple(bit for bit in range(_MASK_BITS) if mask >> bit & 1)


def _parse_optional_queues(parser: AttrParser) -> int:
    """`, [q, ...]` after a device, as a queue mask (any queue without it)."""
    if parser.parse_optional_punctuation(",") is None:
        return ANY_QUEUE
    queues = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
    for queue in queues:
        if not 0 <= queue < _MASK_BITS:
            parser.raise_error(f"queue ordinal {queue} out of range [0, {_MASK_BITS})")
    return _mask_from_queues(queues)


def _print_queues(printer: Printer, mask: int) -> None:
    queues = _queues(mask)
    if queues is not None:
        printer.print_string(", [" + ", ".join(str(q) for q in queues) + "]")


@irdl_attr_definition
class DeviceAffinityAttr(ParametrizedAttribute):
    """`#hal.device.affinity<@device(, [queues])?>`: where a stream op executes."""

    name = "hal.device.affinity"

    device: SymbolRefAttr
    queue_mask: IntAttr

    def __init__(
        self,
        device: str | StringAttr | SymbolRefAttr,
        queues: Sequence[int] | None = None,
    ):
        if not isinstance(device, SymbolRefAttr):
            device = SymbolRefAttr(device)
        mask = ANY_QUEUE if queues is None else _mask_from_queues(queues)
        super().__init__(device, IntAttr(mask))

    @property
    def queues(self) -> tuple[int, ...] | None:
        """The allowed queue ordinals, or None when any queue may be used."""
        return _queues(self.queue_mask.data)

    def verify(self) -> None:
        if self.device.nested_references.data:
            raise VerifyException(
                "#hal.device.affinity takes a flat symbol reference to a device, "
                f"got {self.device}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[SymbolRefAttr, IntAttr]:
        with parser.in_angle_brackets():
            device = parser.parse_attribute()
            if not isinstance(device, SymbolRefAttr):
                parser.raise_error(
                    "expected a device symbol reference in #hal.device.affinity"
                )
            mask = _parse_optional_queues(parser)
        return device, IntAttr(mask)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.device)
            _print_queues(printer, self.queue_mask.data)


def _opaque_type(type_name: str, doc: str) -> type[ParametrizedAttribute]:
    """A parameterless `!hal.<name>` reference type (a runtime object handle)."""
    cls = type(
        type_name.title().replace("_", "") + "Type",
        (ParametrizedAttribute, TypeAttribute),
        {"name": f"hal.{type_name}", "__doc__": doc, "__module__": __name__},
    )
    return irdl_attr_definition(cls)


AllocatorType = _opaque_type("allocator", "`!hal.allocator`: a device's allocator.")
BufferType = _opaque_type("buffer", "`!hal.buffer`: a device buffer.")
BufferViewType = _opaque_type(
    "buffer_view", "`!hal.buffer_view`: a buffer with shape and element type."
)
ChannelType = _opaque_type("channel", "`!hal.channel`: a collective channel.")
CommandBufferType = _opaque_type("command_buffer", "`!hal.command_buffer`.")
DeviceType = _opaque_type("device", "`!hal.device`: a device (globals hold them).")
ExecutableType = _opaque_type("executable", "`!hal.executable`: loaded code.")
FenceType = _opaque_type("fence", "`!hal.fence`: a set of semaphore timepoints.")
FileType = _opaque_type("file", "`!hal.file`: a file handle.")
SemaphoreType = _opaque_type("semaphore", "`!hal.semaphore`: a device timeline.")


# --------------------------------------------------------------------------------
# Device and executable targets (a `!hal.device` global's initial value)
# --------------------------------------------------------------------------------


def _parse_optional_dict(parser: AttrParser) -> DictionaryAttr | None:
    if parser._current_token.kind != MLIRTokenKind.L_BRACE:
        return None
    parsed = parser.parse_attribute()
    assert isinstance(parsed, DictionaryAttr)
    return parsed


def _print_nonempty_dict(printer: Printer, config: DictionaryAttr) -> None:
    if config.data:
        printer.print_string(", ")
        printer.print_attribute(config)


def _sanitize_symbol_name(name: str) -> str:
    """IREE's `sanitizeSymbolName`: characters other than ASCII letters, digits and
    `_` become `_`."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


@irdl_attr_definition
class ExecutableTargetAttr(ParametrizedAttribute):
    """`#hal.executable.target<"backend", "format"(, {config})?>`: what an
    executable is compiled for; `config` holds backend attributes memplan keeps
    opaque (`memplan.opaque`). An empty `config` is not printed (IREE)."""

    name = "hal.executable.target"

    backend: StringAttr
    format: StringAttr

    @property
    def asm_alias(self) -> str:
        """IREE's alias, `#executable_target_<format>`."""
        return "executable_target_" + _sanitize_symbol_name(self.format.data.lower())
    configuration: DictionaryAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            backend = StringAttr(parser.parse_str_literal())
            parser.parse_punctuation(",")
            format = StringAttr(parser.parse_str_literal())
            config = DictionaryAttr({})
            if parser.parse_optional_punctuation(",") is not None:
                config = _parse_optional_dict(parser) or parser.raise_error(
                    "expected a configuration dictionary"
                )
        return backend, format, config

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.backend.data)
            printer.print_string(", ")
            printer.print_string_literal(self.format.data)
            _print_nonempty_dict(printer, self.configuration)


class _DeviceValueAttr(TypedAttribute):
    """An attribute that initializes a `!hal.device` global, printed as IREE's
    typed attributes are: `#hal.device.<kind><...> : !hal.device`. The type is
    always `!hal.device`; reading it without the suffix gives the same attribute."""

    @classmethod
    @abstractmethod
    def _parse_body(cls, parser: AttrParser) -> tuple[Attribute, ...]: ...

    @abstractmethod
    def print_without_type(self, printer: Printer) -> None: ...

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        body = cls._parse_body(parser)
        if parser.parse_optional_punctuation(":") is not None:
            pos = parser.pos
            if not isinstance(parser.parse_type(), DeviceType):
                parser.raise_error(f"#{cls.name} is a !hal.device value", pos)
        return (*body, DeviceType())

    @classmethod
    def parse_with_type(cls, parser: AttrParser, type: Attribute) -> TypedAttribute:  # type: ignore[override]
        return cls.new((*cls._parse_body(parser), DeviceType()))

    def print_parameters(self, printer: Printer) -> None:
        self.print_without_type(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.get_type())


@irdl_attr_definition
class DeviceTargetAttr(_DeviceValueAttr):
    """`#hal.device.target<"id"(, {config})?(, [executable targets])?> :
    !hal.device`: a device of a given kind and the executables it runs."""

    name = "hal.device.target"

    device_id: StringAttr
    configuration: DictionaryAttr
    executable_targets: ArrayAttr[ExecutableTargetAttr]
    type: Attribute

    @property
    def asm_alias(self) -> str:
        """IREE's alias, `#device_target_<id>` (`_<ordinal>_` with an ordinal)."""
        name = self.device_id.data.lower()
        ordinal = self.configuration.data.get("ordinal")
        if isinstance(ordinal, IntegerAttr):
            name += f"_{ordinal.value.data}_"
        return "device_target_" + _sanitize_symbol_name(name)

    @classmethod
    def _parse_body(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            device_id = StringAttr(parser.parse_str_literal())
            config = DictionaryAttr({})
            targets: list[Attribute] = []
            if parser.parse_optional_punctuation(",") is not None:
                parsed = _parse_optional_dict(parser)
                if parsed is not None:
                    config = parsed
                if parsed is None or parser.parse_optional_punctuation(",") is not None:
                    targets = parser.parse_comma_separated_list(
                        parser.Delimiter.SQUARE, parser.parse_attribute
                    )
        for target in targets:
            if not isinstance(target, ExecutableTargetAttr):
                parser.raise_error(f"expected #hal.executable.target, got {target}")
        return device_id, config, ArrayAttr(targets)

    def print_without_type(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.device_id.data)
            _print_nonempty_dict(printer, self.configuration)
            if self.executable_targets.data:
                printer.print_string(", [")
                printer.print_list(self.executable_targets.data, printer.print_attribute)
                printer.print_string("]")


@irdl_attr_definition
class DeviceAliasAttr(_DeviceValueAttr):
    """`#hal.device.alias<"id"([ordinal])?(, {config})?> : !hal.device`: a device
    chosen by its kind's defaults at compile time."""

    name = "hal.device.alias"

    device_id: StringAttr
    ordinal: IntAttr | NoneAttr
    configuration: DictionaryAttr | NoneAttr
    type: Attribute

    @classmethod
    def _parse_body(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            device_id = StringAttr(parser.parse_str_literal())
            ordinal: IntAttr | NoneAttr = NoneAttr()
            if parser.parse_optional_punctuation("[") is not None:
                ordinal = IntAttr(parser.parse_integer())
                parser.parse_punctuation("]")
            config: DictionaryAttr | NoneAttr = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                config = _parse_optional_dict(parser) or parser.raise_error(
                    "expected a configuration dictionary"
                )
        return device_id, ordinal, config

    def print_without_type(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.device_id.data)
            if isinstance(self.ordinal, IntAttr):
                printer.print_string(f"[{self.ordinal.data}]")
            if isinstance(self.configuration, DictionaryAttr):
                printer.print_string(", ")
                printer.print_attribute(self.configuration)


@irdl_attr_definition
class DeviceOrdinalAttr(_DeviceValueAttr):
    """`#hal.device.ordinal<N> : !hal.device`: the N-th device found at runtime."""

    name = "hal.device.ordinal"

    ordinal: IntAttr
    type: Attribute

    @classmethod
    def _parse_body(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            return (IntAttr(parser.parse_integer()),)

    def print_without_type(self, printer: Printer) -> None:
        printer.print_string(f"<{self.ordinal.data}>")


@irdl_attr_definition
class DeviceFallbackAttr(_DeviceValueAttr):
    """`#hal.device.fallback<@device> : !hal.device`: the device another global
    holds."""

    name = "hal.device.fallback"

    device: SymbolRefAttr
    type: Attribute

    @classmethod
    def _parse_body(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            device = parser.parse_attribute()
            if not isinstance(device, SymbolRefAttr) or device.nested_references.data:
                parser.raise_error("expected a flat device symbol reference")
        return (device,)

    def print_without_type(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.device)


@irdl_attr_definition
class DeviceSelectAttr(_DeviceValueAttr):
    """`#hal.device.select<[devices]> : !hal.device`: the first of the listed
    devices (each a device value attribute) available at runtime."""

    name = "hal.device.select"

    devices: ArrayAttr
    type: Attribute

    @classmethod
    def _parse_body(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            devices = parser.parse_attribute()
        if not isinstance(devices, ArrayAttr):
            parser.raise_error("expected an array of devices")
        return (devices,)

    def print_without_type(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.devices)

    def verify(self) -> None:
        if not self.devices.data:
            raise VerifyException("#hal.device.select needs at least one device")


@irdl_attr_definition
class DevicePromiseAttr(ParametrizedAttribute):
    """`#hal.device.promise<@device(, [queues])?>`: an affinity on a device that
    will exist once devices are materialized (queues as in `#hal.device.affinity`)."""

    name = "hal.device.promise"

    device: StringAttr
    queue_mask: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, IntAttr]:
        with parser.in_angle_brackets():
            device = parser.parse_symbol_name()
            mask = _parse_optional_queues(parser)
        return device, IntAttr(mask)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_symbol_name(self.device.data)
            _print_queues(printer, self.queue_mask.data)


# --------------------------------------------------------------------------------
# Ops stream-phase IR uses at the ABI boundary (buffer views)
# --------------------------------------------------------------------------------


_I32 = IntegerType(32)
"""HAL's element and encoding type codes are i32 values."""


def _is_element_type(type: Attribute) -> bool:
    return isinstance(type, IntegerType | AnyFloat | ComplexType)


class _ElementTypeName(AsmResultNames):
    """`%element_type_f32`, as IREE names `hal.element_type`'s result."""

    def result_names(self, op: Operation) -> Sequence[str | None]:
        assert isinstance(op, ElementTypeOp)
        return [sanitize_ssa_name("element_type_" + _type_text(op.type))]


def _type_text(type: Attribute) -> str:
    import io

    stream = io.StringIO()
    Printer(stream=stream).print_attribute(type)
    return stream.getvalue()


@irdl_op_definition
class ElementTypeOp(IRDLOperation):
    """`hal.element_type<f32> : i32` -- the runtime's code for an element type.
    Pure."""

    name = "hal.element_type"

    type = prop_def(TypeAttribute)
    result = result_def(_I32)

    traits = traits_def(Pure(), _ElementTypeName())

    assembly_format = "`<` $type `>` attr-dict `:` type($result)"

    def verify_(self) -> None:
        if not _is_element_type(self.type):
            raise VerifyException("unsupported element type")


class _EncodingTypeName(AsmResultNames):
    def result_names(self, op: Operation) -> Sequence[str | None]:
        assert isinstance(op, EncodingTypeOp)
        return ["dense_row_major" if op.encoding is None else None]


@irdl_op_definition
class EncodingTypeOp(IRDLOperation):
    """`hal.encoding_type<dense_row_major> : i32` -- the runtime's code for an
    encoding; no encoding attribute means dense row-major, the only one the
    runtime knows (IREE's verifier rejects others). Pure."""

    name = "hal.encoding_type"

    encoding = opt_prop_def(Attribute)
    result = result_def(_I32)

    traits = traits_def(Pure(), _EncodingTypeName())

    @classmethod
    def parse(cls, parser: Parser) -> EncodingTypeOp:
        parser.parse_punctuation("<")
        encoding = None
        if parser.parse_optional_keyword("dense_row_major") is None:
            encoding = parser.parse_attribute()
        parser.parse_punctuation(">")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls.build(properties={"encoding": encoding}, result_types=[parser.parse_type()])
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        if self.encoding is None:
            printer.print_string("dense_row_major")
        else:
            printer.print_attribute(self.encoding)
        printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.encoding is not None:
            raise VerifyException("unsupported encoding type")


_VIEW = "`<` $buffer_view `:` type($buffer_view) `>`"


@irdl_op_definition
class BufferViewAssertOp(IRDLOperation):
    """`hal.buffer_view.assert<%v : !hal.buffer_view> message("m") shape([%d, ...])
    type(%t) encoding(%e)` -- fails at runtime unless the view has that shape,
    element type and encoding. Declares no effect, as IREE (it may abort), so it
    is never removed."""

    name = "hal.buffer_view.assert"

    buffer_view = operand_def(BufferViewType)
    message = prop_def(StringAttr)
    element_type = operand_def(_I32)
    encoding_type = operand_def(_I32)
    shape = var_operand_def(IndexType)

    assembly_format = (
        _VIEW + " `message` `(` $message `)` `shape` `(` `[` $shape `]` `)` "
        "`type` `(` $element_type `)` `encoding` `(` $encoding_type `)` "
        "attr-dict-with-keyword"
    )


@irdl_op_definition
class BufferViewCreateOp(IRDLOperation):
    """`hal.buffer_view.create buffer(%b : !hal.buffer)[%off, %len] shape([...])
    type(%t) encoding(%e) : !hal.buffer_view` -- a view of a buffer. Pure."""

    name = "hal.buffer_view.create"

    source_buffer = operand_def(BufferType)
    source_offset = operand_def(IndexType)
    source_length = operand_def(IndexType)
    element_type = operand_def(_I32)
    encoding_type = operand_def(_I32)
    shape = var_operand_def(IndexType)
    result = result_def(BufferViewType)

    traits = traits_def(Pure(), FixedResultNames(("view",)))

    assembly_format = (
        "`buffer` `(` $source_buffer `:` type($source_buffer) `)` "
        "`` `[` $source_offset `,` $source_length `]` `shape` `(` `[` $shape `]` `)` "
        "`type` `(` $element_type `)` `encoding` `(` $encoding_type `)` "
        "`:` type($result) attr-dict-with-keyword"
    )


def _view_query(op_name: str, result_type: Attribute, doc: str, names: tuple[str, ...] = ()) -> type[IRDLOperation]:
    """A Pure `hal.buffer_view.<query><%v : !hal.buffer_view> : type` op."""
    traits = [Pure()] + ([FixedResultNames(names)] if names else [])
    cls = type(
        "BufferView" + op_name.title().replace("_", "") + "Op",
        (IRDLOperation,),
        {
            "name": f"hal.buffer_view.{op_name}",
            "__doc__": doc,
            "__module__": __name__,
            "buffer_view": operand_def(BufferViewType),
            "result": result_def(result_type),
            "traits": traits_def(*traits),
            "assembly_format": _VIEW + " `:` type($result) attr-dict-with-keyword",
        },
    )
    return irdl_op_definition(cls)


BufferViewBufferOp = _view_query(
    "buffer", BufferType, "`hal.buffer_view.buffer<%v : !hal.buffer_view> : !hal.buffer`.", ("buffer",)
)
BufferViewRankOp = _view_query("rank", IndexType, "`hal.buffer_view.rank<%v : !hal.buffer_view> : index`.")
BufferViewElementTypeOp = _view_query(
    "element_type", _I32, "`hal.buffer_view.element_type<%v : !hal.buffer_view> : i32`."
)
BufferViewEncodingTypeOp = _view_query(
    "encoding_type", _I32, "`hal.buffer_view.encoding_type<%v : !hal.buffer_view> : i32`."
)


@irdl_op_definition
class BufferViewDimOp(IRDLOperation):
    """`hal.buffer_view.dim<%v : !hal.buffer_view>[N] : index` -- one dimension of
    the view's shape. Pure."""

    name = "hal.buffer_view.dim"

    buffer_view = operand_def(BufferViewType)
    index = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = _VIEW + " `` `[` $index `]` `:` type($result) attr-dict-with-keyword"


# --------------------------------------------------------------------------------
# Executables (after the stream phase): variants of an executable per target
# --------------------------------------------------------------------------------


def parse_visibility(parser: Parser) -> StringAttr | None:
    """IREE's `custom<SymbolVisibility>`: an optional `public`/`private`/`nested`."""
    keyword = parser.parse_optional_visibility_keyword()
    return None if keyword is None else StringAttr(getattr(keyword, "data", keyword))


def print_visibility(printer: Printer, visibility: StringAttr | None) -> None:
    if visibility is not None:
        printer.print_string(f" {visibility.data}")


def print_body(printer: Printer, region: Region) -> None:
    """` { ... }` without its implicit terminator."""
    printer.print_string(" ")
    printer.print_region(region, print_entry_block_args=False, print_block_terminators=False)


def _check_parent(op: Operation, parent_type: type[Operation]) -> None:
    parent = op.parent_op()
    if parent is not None and not isinstance(parent, parent_type):
        raise VerifyException(f"'{op.name}' expects parent op '{parent_type.name}'")


def end_op(op_name: str, parent: Callable[[], type[Operation]], doc: str) -> type[IRDLOperation]:
    """`<op_name> attr-dict`: the implicit terminator of the op `parent()` returns
    (a function: the parent is defined after its terminator)."""

    def verify_(self: IRDLOperation) -> None:
        _check_parent(self, parent())

    cls = type(
        "".join(part.title() for part in op_name.replace("_", ".").split(".")) + "Op",
        (IRDLOperation,),
        {
            "name": op_name,
            "__doc__": doc,
            "__module__": __name__,
            "traits": traits_def(IsTerminator()),
            "assembly_format": "attr-dict",
            "verify_": verify_,
        },
    )
    return irdl_op_definition(cls)


ExecutableEndOp = end_op(
    "hal.executable_end", lambda: ExecutableOp, "`hal.executable_end` -- `hal.executable`'s implicit terminator."
)


@irdl_op_definition
class ExecutableOp(IRDLOperation):
    """`hal.executable (private)? (lazy)? @name attr-dict-with-keyword { variants }`
    -- an executable compiled for one or more targets. Declares no effects (IREE).
    A variant's entry points are `@name::@variant::@export`."""

    name = "hal.executable"

    sym_name = prop_def(StringAttr)
    sym_visibility = opt_prop_def(StringAttr)
    lazy = opt_prop_def(UnitAttr)
    body = region_def("single_block")

    traits = traits_def(
        IsolatedFromAbove(),
        SymbolOpInterface(),
        SymbolTable(),
        SingleBlockImplicitTerminator(ExecutableEndOp),
        OpaqueBodies(("hal.executable.binary",)),
    )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableOp:
        visibility = parse_visibility(parser)
        lazy = parser.parse_optional_keyword("lazy") is not None
        name = parser.parse_symbol_name()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls.build(
            properties={"sym_name": name, "sym_visibility": visibility, "lazy": UnitAttr() if lazy else None},
            regions=[parser.parse_region()],
        )
        ensure_terminator(op, SingleBlockImplicitTerminator(ExecutableEndOp))
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        if self.lazy is not None:
            printer.print_string(" lazy")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        print_body(printer, self.body)


ExecutableVariantEndOp = end_op(
    "hal.executable.variant_end",
    lambda: ExecutableVariantOp,
    "`hal.executable.variant_end` -- a variant's implicit terminator.",
)


@irdl_op_definition
class ExecutableVariantOp(IRDLOperation):
    """`hal.executable.variant (public)? @name target(<"backend", "format", {..}>)
    (objects(..))? (sources(..))? attr-dict-with-keyword { exports; module }` --
    the executable for one target. Its exports, conditions, constant blocks and
    module are kept as text (`memplan.opaque`); exports keep their symbol names."""

    name = "hal.executable.variant"

    sym_name = prop_def(StringAttr)
    sym_visibility = opt_prop_def(StringAttr)
    target = prop_def(ExecutableTargetAttr)
    objects = opt_prop_def(ArrayAttr)
    sources = opt_prop_def(DictionaryAttr)
    body = region_def("single_block")

    traits = traits_def(
        IsolatedFromAbove(),
        SymbolOpInterface(),
        SymbolTable(),
        SingleBlockImplicitTerminator(ExecutableVariantEndOp),
        OpaqueBodies(
            (
                "builtin.module",
                "hal.executable.export",
                "hal.executable.condition",
                "hal.executable.constant.block",
            )
        ),
    )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableVariantOp:
        visibility = parse_visibility(parser)
        name = parser.parse_symbol_name()
        parser.parse_keyword("target")
        parser.parse_punctuation("(")
        pos = parser.pos
        if parser._current_token.kind == MLIRTokenKind.HASH_IDENT:  # noqa: SLF001 (an alias or the full attribute)
            target = parser.parse_attribute()
            if not isinstance(target, ExecutableTargetAttr):
                parser.raise_error("expected #hal.executable.target", pos, parser.pos)
        else:
            target = ExecutableTargetAttr.new(ExecutableTargetAttr.parse_parameters(parser))
        parser.parse_punctuation(")")
        properties: dict[str, Attribute | None] = {
            "sym_name": name, "sym_visibility": visibility, "target": target
        }
        for keyword in ("objects", "sources"):
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("(")
                properties[keyword] = parser.parse_attribute()
                parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls.build(properties=properties, regions=[parser.parse_region()])
        ensure_terminator(op, SingleBlockImplicitTerminator(ExecutableVariantEndOp))
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" target(")
        print_stripped(printer, self.target)
        printer.print_string(")")
        for keyword in ("objects", "sources"):
            value = getattr(self, keyword)
            if value is not None:
                printer.print_string(f" {keyword}(")
                printer.print_attribute(value)
                printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        print_body(printer, self.body)

    def verify_(self) -> None:
        _check_parent(self, ExecutableOp)


_I64 = IntegerType(64)


def _parse_fence_flags(parser: Parser) -> IntegerAttr:
    """HAL's FenceFlagBitfield in custom form: a case name, as a keyword or string
    (`None`, `Reserved`); stored as the i64 the generic form shows."""
    at = parser.pos
    name = parser.parse_optional_str_literal()
    if name is None:
        name = parser.parse_optional_identifier()
    if name not in _FENCE_FLAGS:
        parser.raise_error(
            "expected string or keyword containing one of the following enum values "
            "for attribute 'flags' [" + ", ".join(_FENCE_FLAGS) + "]",
            at,
            parser.pos,
        )
    return IntegerAttr(_FENCE_FLAGS[name], _I64)


def _print_fence_flags(printer: Printer, flags: IntegerAttr) -> None:
    """As MLIR prints a bit enum: a single set bit's name as a keyword; the empty
    set (`None`) quoted."""
    name = next(n for n, v in _FENCE_FLAGS.items() if v == flags.value.data)
    printer.print_string(name if flags.value.data else f'"{name}"')


_FENCE_FLAGS = {"None": 0, "Reserved": 1}
"""IREE's HAL_FenceFlagBitfieldAttr cases (an I64BitEnumAttr)."""


@irdl_op_definition
class FenceCreateOp(IRDLOperation):
    """`hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence` -- a
    fresh fence; ALLOCates its result (unused ones are dead)."""

    name = "hal.fence.create"

    device = operand_def(DeviceType)
    flags = prop_def(IntegerAttr[IntegerType])
    result = result_def(FenceType)

    traits = traits_def(OperandEffects(allocates=all_results), FixedResultNames(("fence",)))

    @classmethod
    def parse(cls, parser: Parser) -> FenceCreateOp:
        parser.parse_keyword("device")
        parser.parse_punctuation("(")
        device = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        device_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_keyword("flags")
        parser.parse_punctuation("(")
        flags = _parse_fence_flags(parser)
        parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        (device,) = parser.resolve_operands([device], [device_type], parser.pos)
        op = cls.build(operands=[device], properties={"flags": flags}, result_types=[result_type])
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" device(")
        printer.print_operand(self.device)
        printer.print_string(" : ")
        printer.print_attribute(self.device.type)
        printer.print_string(") flags(")
        _print_fence_flags(printer, self.flags)
        printer.print_string(") : ")
        printer.print_attribute(self.result.type)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if self.flags.type != _I64 or self.flags.value.data not in _FENCE_FLAGS.values():
            raise VerifyException(f"invalid properties {{flags = {self.flags.value.data} : {self.flags.type}}}")


_FENCE = "`<` $fence `:` type($fence) `>`"
_BUFFER = "`<` $buffer `:` type($buffer) `>`"
_STATUS = IntegerType(32)
"""IREE's Util_Status: an i32 status code."""


@irdl_op_definition
class FenceSignalOp(IRDLOperation):
    """`hal.fence.signal<%f : !hal.fence>` -- reaches the fence. Declares no effect
    (IREE), so it is kept."""

    name = "hal.fence.signal"

    fence = operand_def(FenceType)

    assembly_format = _FENCE + " attr-dict-with-keyword"


@irdl_op_definition
class FenceFailOp(IRDLOperation):
    """`hal.fence.fail<%f : !hal.fence> status(%s)` -- fails the fence. Declares no
    effect (IREE)."""

    name = "hal.fence.fail"

    fence = operand_def(FenceType)
    status = operand_def(_STATUS)

    assembly_format = _FENCE + " `status` `(` $status `)` attr-dict-with-keyword"


@irdl_op_definition
class FenceQueryOp(IRDLOperation):
    """`hal.fence.query<%f : !hal.fence> : i32` -- whether the fence was reached, as
    a status. Declares no effect (IREE): the answer changes over time."""

    name = "hal.fence.query"

    fence = operand_def(FenceType)
    status = result_def(_STATUS)

    assembly_format = _FENCE + " `:` type($status) attr-dict-with-keyword"


HAL_PATTERNS = CanonicalizedBy("memplan.passes.patterns.hal")
"""Canonicalization patterns of hal ops (`memplan.passes.patterns.hal`)."""


@irdl_op_definition
class FenceAwaitOp(IRDLOperation):
    """`hal.fence.await until([%f, ...]) timeout_millis(%t) flags("None") : i32` --
    yields the caller until every fence is reached; its status. A yield point that
    declares no effect (IREE), so it is kept and never merged; an await of no
    fence is an OK status and a repeated fence is awaited once (declared
    patterns)."""

    name = "hal.fence.await"

    timeout_millis = operand_def(IntegerType(32))
    fences = var_operand_def(FenceType)
    flags = prop_def(IntegerAttr[IntegerType])
    status = result_def(_STATUS)

    traits = traits_def(FixedResultNames(("status",)), HAL_PATTERNS)

    @classmethod
    def parse(cls, parser: Parser) -> FenceAwaitOp:
        parser.parse_keyword("until")
        parser.parse_punctuation("(")
        fences = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(")")
        parser.parse_keyword("timeout_millis")
        parser.parse_punctuation("(")
        timeout = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        parser.parse_keyword("flags")
        parser.parse_punctuation("(")
        flags = _parse_fence_flags(parser)
        parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        status_type = parser.parse_type()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        operands = parser.resolve_operands(
            [timeout, *fences], [IntegerType(32), *[FenceType()] * len(fences)], parser.pos
        )
        op = cls.build(operands=[operands[0], operands[1:]], properties={"flags": flags},
                       result_types=[status_type])
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" until([")
        printer.print_list(self.fences, printer.print_operand)
        printer.print_string("]) timeout_millis(")
        printer.print_operand(self.timeout_millis)
        printer.print_string(") flags(")
        _print_fence_flags(printer, self.flags)
        printer.print_string(") : ")
        printer.print_attribute(self.status.type)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if self.flags.type != _I64 or self.flags.value.data not in _FENCE_FLAGS.values():
            raise VerifyException(f"invalid properties {{flags = {self.flags.value.data} : {self.flags.type}}}")


@irdl_op_definition
class DevicesCountOp(IRDLOperation):
    """`hal.devices.count : index` -- how many devices the runtime has. Pure."""

    name = "hal.devices.count"

    result = result_def(IndexType)

    traits = traits_def(Pure(), FixedResultNames(("device_count",)))

    assembly_format = "attr-dict `:` type($result)"


class _DeviceName(AsmResultNames):
    """`%device_<N>` for a constant index, else `%device_n` (IREE's names)."""

    def result_names(self, op: Operation) -> Sequence[str | None]:
        assert isinstance(op, DevicesGetOp)
        index = ConstantLike.get_constant_value(op.index) if isinstance(op.index, OpResult) else None
        return ["device_" + (str(index.value.data) if isinstance(index, IntegerAttr) else "n")]


@irdl_op_definition
class DevicesGetOp(IRDLOperation):
    """`hal.devices.get %i : !hal.device` -- the runtime's device at an index. Pure."""

    name = "hal.devices.get"

    index = operand_def(IndexType)
    result = result_def(DeviceType)

    traits = traits_def(Pure(), _DeviceName())

    assembly_format = "$index attr-dict `:` type($result)"


@irdl_op_definition
class BufferLengthOp(IRDLOperation):
    """`hal.buffer.length<%b : !hal.buffer> : index` -- the buffer's byte length.
    Pure."""

    name = "hal.buffer.length"

    buffer = operand_def(BufferType)
    result = result_def(IndexType)

    traits = traits_def(Pure(), FixedResultNames(("length",)))

    assembly_format = _BUFFER + " `:` type($result) attr-dict-with-keyword"


@irdl_op_definition
class BufferSubspanOp(IRDLOperation):
    """`hal.buffer.subspan<%b : !hal.buffer>[%offset, %length] : !hal.buffer` -- a
    byte range of a buffer, as a buffer. Pure."""

    name = "hal.buffer.subspan"

    source_buffer = operand_def(BufferType)
    source_offset = operand_def(IndexType)
    length = operand_def(IndexType)
    result = result_def(BufferType)

    traits = traits_def(Pure(), FixedResultNames(("buffer",)))

    assembly_format = (
        "`<` $source_buffer `:` type($source_buffer) `>` `` `[` $source_offset `,` $length `]` "
        "`:` type($result) attr-dict-with-keyword"
    )


@irdl_op_definition
class BufferAllocationPreserveOp(IRDLOperation):
    """`hal.buffer.allocation.preserve<%b : !hal.buffer>` -- adds an owner to the
    buffer's allocation; READs and WRITEs the buffer (IREE)."""

    name = "hal.buffer.allocation.preserve"

    buffer = operand_def(BufferType)

    traits = traits_def(OperandEffects(reads=operands_named("buffer"), writes=operands_named("buffer")))

    assembly_format = _BUFFER + " attr-dict-with-keyword"


@irdl_op_definition
class BufferAllocationDiscardOp(IRDLOperation):
    """`hal.buffer.allocation.discard<%b : !hal.buffer> : i1` -- drops the caller's
    ownership; whether it was the last owner. READs and WRITEs the buffer (IREE)."""

    name = "hal.buffer.allocation.discard"

    buffer = operand_def(BufferType)
    result = result_def(IntegerType(1))

    traits = traits_def(
        OperandEffects(reads=operands_named("buffer"), writes=operands_named("buffer")),
        FixedResultNames(("was_terminal",)),
    )

    assembly_format = _BUFFER + " `:` type($result) attr-dict-with-keyword"


@irdl_op_definition
class BufferAllocationIsTerminalOp(IRDLOperation):
    """`hal.buffer.allocation.is_terminal<%b : !hal.buffer> : i1` -- whether the
    allocation has a single owner. READs the buffer (IREE)."""

    name = "hal.buffer.allocation.is_terminal"

    buffer = operand_def(BufferType)
    result = result_def(IntegerType(1))

    traits = traits_def(OperandEffects(reads=operands_named("buffer")), FixedResultNames(("is_terminal",)))

    assembly_format = _BUFFER + " `:` type($result) attr-dict-with-keyword"


Hal = Dialect(
    "hal",
    [
        FenceCreateOp,
        FenceSignalOp,
        FenceFailOp,
        FenceQueryOp,
        FenceAwaitOp,
        DevicesCountOp,
        DevicesGetOp,
        BufferLengthOp,
        BufferSubspanOp,
        BufferAllocationPreserveOp,
        BufferAllocationDiscardOp,
        BufferAllocationIsTerminalOp,
        ExecutableOp,
        ExecutableEndOp,
        ExecutableVariantOp,
        ExecutableVariantEndOp,
        ElementTypeOp,
        EncodingTypeOp,
        BufferViewAssertOp,
        BufferViewCreateOp,
        BufferViewBufferOp,
        BufferViewRankOp,
        BufferViewElementTypeOp,
        BufferViewEncodingTypeOp,
        BufferViewDimOp,
    ],
    [
        DeviceAffinityAttr,
        DevicePromiseAttr,
        DeviceTargetAttr,
        DeviceAliasAttr,
        DeviceOrdinalAttr,
        DeviceFallbackAttr,
        DeviceSelectAttr,
        ExecutableTargetAttr,
        AllocatorType,
        BufferType,
        BufferViewType,
        ChannelType,
        CommandBufferType,
        DeviceType,
        ExecutableType,
        FenceType,
        FileType,
        SemaphoreType,
    ],
)
