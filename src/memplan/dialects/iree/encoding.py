"""The part of IREE's `iree_encoding` dialect that stream-phase IR uses.

`#iree_encoding.testing<>` is IREE's opaque test encoding: a tensor type carrying it
(`tensor<4096x4096xf8E4M3FNUZ, #iree_encoding.testing<>>`) is laid out differently
from the plain tensor, so `stream.tensor.encode` between the two is a real copy and
two encodes of the same source are a common subexpression. IREE prints every
`iree_encoding` attribute through an alias (`#encoding`, `#encoding1`, ...), which
memplan's printer reproduces from the attribute's `asm_alias`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntAttr, IntegerAttr, NoneAttr, StringAttr, TensorType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "EncodingAttr",
    "IdentityEncodingAttr",
    "IreeEncoding",
    "LayoutAttr",
    "PaddingAttr",
    "SerializableEncoding",
    "TestingEncodingAttr",
    "UnknownEncodingAttr",
    "is_identity_tensor_encoding",
]


@irdl_attr_definition
class TestingEncodingAttr(ParametrizedAttribute):
    """`#iree_encoding.testing<>`, or with `layouts = [...]` and/or
    `original_element_type = T` (IREE's `struct(params)`: any order in, declared
    order out)."""

    name = "iree_encoding.testing"

    layouts: ArrayAttr | NoneAttr
    original_element_type: Attribute

    def __init__(self, layouts: Sequence[Attribute] | None = None, original_element_type: Attribute | None = None):
        super().__init__(
            NoneAttr() if layouts is None else ArrayAttr(layouts),
            NoneAttr() if original_element_type is None else original_element_type,
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        with parser.in_angle_brackets():
            fields = _parse_struct(
                parser, {"layouts": parser.parse_attribute, "original_element_type": parser.parse_type}, ()
            )
        return (fields.get("layouts", NoneAttr()), fields.get("original_element_type", NoneAttr()))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_struct(printer, (("layouts", self.layouts), ("original_element_type", self.original_element_type)))


def _parse_struct(
    parser: AttrParser, fields: dict[str, Callable[[], Attribute]], required: Sequence[str]
) -> dict[str, Attribute]:
    """MLIR's `struct(...)` directive: `key = value` pairs in any order, each at
    most once, the required ones present."""
    values: dict[str, Attribute] = {}
    at = parser.pos
    key = parser.parse_optional_identifier()
    while key is not None:
        if key not in fields or key in values:
            parser.raise_error(f"duplicate or unknown struct parameter name: {key}", at, parser.pos)
        parser.parse_punctuation("=")
        values[key] = fields[key]()
        if parser.parse_optional_punctuation(",") is None:
            break
        at = parser.pos
        key = parser.parse_identifier()
    missing = [key for key in required if key not in values]
    if missing:
        parser.raise_error(f"struct is missing required parameter: {missing[0]}")
    return values


def _print_struct(printer: Printer, fields: Sequence[tuple[str, Attribute]], custom: dict[str, Callable[[Attribute], str]] | None = None) -> None:
    """`key = value, ...` in declared order, absent (NoneAttr) optional ones left out."""
    first = True
    for key, value in fields:
        if isinstance(value, NoneAttr):
            continue
        if not first:
            printer.print_string(", ")
        first = False
        printer.print_string(f"{key} = ")
        if custom is not None and key in custom:
            printer.print_string(custom[key](value))
        else:
            printer.print_attribute(value)


# memplan's printer prints attributes with an `asm_alias` through `#<alias>` (set
# here: xDSL reserves annotated class fields for parameters).
TestingEncodingAttr.asm_alias = "encoding"  # type: ignore[attr-defined]

class SerializableEncoding(ABC):
    """IREE's `SerializableAttr`: an encoding whose storage layout is decided. An
    identity layout stores the tensor exactly as without the encoding, so
    re-encoding between it and no encoding is no copy."""

    @abstractmethod
    def is_identity_layout(self) -> bool: ...


def is_identity_tensor_encoding(type: Attribute) -> bool:
    """A ranked tensor without an encoding, or with a serialized identity one."""
    if not isinstance(type, TensorType):
        return False
    encoding = type.encoding
    if isinstance(encoding, NoneAttr):
        return True
    return isinstance(encoding, SerializableEncoding) and encoding.is_identity_layout()


DYNAMIC_PADDING = -(1 << 63)
"""A `?` entry of `#iree_encoding.padding` (MLIR's `ShapedType::kDynamic`)."""


@irdl_attr_definition
class PaddingAttr(SerializableEncoding, ParametrizedAttribute):
    """`#iree_encoding.padding<[0, ?, 4]>`: per-dimension padding (`?` when not yet
    known, stored as `DYNAMIC_PADDING`); all zeros is the identity layout."""

    name = "iree_encoding.padding"

    padding: ArrayAttr[IntAttr]

    def is_identity_layout(self) -> bool:
        return all(p.data == 0 for p in self.padding.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[ArrayAttr[IntAttr]]:
        def entry() -> IntAttr:
            if parser.parse_optional_punctuation("?") is not None:
                return IntAttr(DYNAMIC_PADDING)
            return IntAttr(parser.parse_integer())

        with parser.in_angle_brackets():
            values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
        return (ArrayAttr(values),)

    def print_parameters(self, printer: Printer) -> None:
        text = ", ".join(
            "?" if p.data == DYNAMIC_PADDING else str(p.data) for p in self.padding.data
        )
        printer.print_string(f"<[{text}]>")


@irdl_attr_definition
class UnknownEncodingAttr(ParametrizedAttribute):
    """`#iree_encoding.unknown`: an encoding not known yet (never an identity)."""

    name = "iree_encoding.unknown"


@irdl_attr_definition
class LayoutAttr(ParametrizedAttribute):
    """`#iree_encoding.layout<[layouts]>`: the resolved layouts of an encoding."""

    name = "iree_encoding.layout"

    layouts: ArrayAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[ArrayAttr]:
        with parser.in_angle_brackets():
            layouts = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_attribute
            )
        return (ArrayAttr(layouts),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<[")
        printer.print_list(self.layouts.data, printer.print_attribute)
        printer.print_string("]>")


ENCODING_OP_TYPES = ("matmul", "scaled_matmul", "conv")
"""IREE's EncodingOpType cases, in their i32 order."""


def _dynamic_list_text(values: Attribute) -> str:
    assert isinstance(values, ArrayAttr)
    return "[" + ", ".join(
        "?" if v.value.data == DYNAMIC_PADDING else str(v.value.data) for v in values.data  # type: ignore[union-attr]
    ) + "]"


def _parse_dynamic_list(parser: AttrParser) -> ArrayAttr:
    """IREE's `custom<DynamicI64ArrayAttr>`: `[4, ?, 8]` as i64 integers."""

    def entry() -> IntegerAttr:
        if parser.parse_optional_punctuation("?") is not None:
            return IntegerAttr(DYNAMIC_PADDING, 64)
        return IntegerAttr(parser.parse_integer(), 64)

    return ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry))


def _composed_dims(entry: Attribute) -> int | None | bool:
    """The dimension count of a `user_indexing_maps` entry composed as IREE does
    (a map, or a chain of maps whose composition starts from the first); None for
    an empty entry, False when it does not compose."""
    if isinstance(entry, AffineMapAttr):
        return entry.data.num_dims
    if isinstance(entry, ArrayAttr):
        if not entry.data:
            return None
        if not all(isinstance(m, AffineMapAttr) for m in entry.data):
            return False
        return entry.data[0].data.num_dims  # type: ignore[union-attr]
    return False


@irdl_attr_definition
class EncodingAttr(ParametrizedAttribute):
    """`#iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul,
    element_types = [...], (original_element_type = T,)? (user_indexing_maps =
    [...],)? (iteration_sizes = [?, 4],)?>`: how to data-tile a tensor, before a
    layout is chosen (not serialized, so never an identity layout)."""

    name = "iree_encoding.encoding"

    operand_index: IntegerAttr
    op_type: StringAttr
    element_types: ArrayAttr
    original_element_type: Attribute
    user_indexing_maps: ArrayAttr | NoneAttr
    iteration_sizes: ArrayAttr | NoneAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        def op_type() -> StringAttr:
            at = parser.pos
            keyword = parser.parse_optional_identifier()
            if keyword not in ENCODING_OP_TYPES:
                parser.raise_error(
                    "expected iree_encoding::EncodingOpType to be one of: " + ", ".join(ENCODING_OP_TYPES),
                    at,
                    parser.pos,
                )
            return StringAttr(keyword)

        def integer() -> Attribute:
            at = parser.pos
            value = parser.parse_attribute()
            if not isinstance(value, IntegerAttr):
                parser.raise_error("expected an integer attribute for operand_index", at, parser.pos)
            return value

        at = parser.pos
        with parser.in_angle_brackets():
            fields = _parse_struct(
                parser,
                {
                    "operand_index": integer,
                    "op_type": op_type,
                    "element_types": parser.parse_attribute,
                    "original_element_type": parser.parse_type,
                    "user_indexing_maps": parser.parse_attribute,
                    "iteration_sizes": lambda: _parse_dynamic_list(parser),
                },
                ("operand_index", "op_type", "element_types"),
            )
        parameters = tuple(
            fields.get(key, NoneAttr())
            for key in ("operand_index", "op_type", "element_types", "original_element_type", "user_indexing_maps", "iteration_sizes")
        )
        try:
            cls.new(parameters).verify()
        except VerifyException as error:
            parser.raise_error(str(error), at, parser.pos)
        return parameters

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string("operand_index = ")
            printer.print_attribute(self.operand_index)
            printer.print_string(f", op_type = {self.op_type.data}, element_types = ")
            printer.print_attribute(self.element_types)
            rest = (
                ("original_element_type", self.original_element_type),
                ("user_indexing_maps", self.user_indexing_maps),
                ("iteration_sizes", self.iteration_sizes),
            )
            if any(not isinstance(v, NoneAttr) for _, v in rest):
                printer.print_string(", ")
            _print_struct(printer, rest, {"iteration_sizes": _dynamic_list_text})

    def verify(self) -> None:
        """IREE's verifier: the operand's entry exists, every entry composes, and
        the iteration sizes match the operand's map's dimensions."""
        if self.op_type.data not in ENCODING_OP_TYPES:
            raise VerifyException(f"unknown op_type {self.op_type.data}")
        dims: int | None | bool = None
        if isinstance(self.user_indexing_maps, ArrayAttr):
            index = self.operand_index.value.data
            if index >= len(self.user_indexing_maps.data):
                raise VerifyException("`operandIndex` exceeds the size of `user_indexing_maps`")
            for i, entry in enumerate(self.user_indexing_maps.data):
                composed = _composed_dims(entry)
                if composed is False:
                    raise VerifyException(f"found a non-composable attribute in `user_indexing_maps` at index: {i}")
                if i == index:
                    dims = composed
        if isinstance(self.iteration_sizes, ArrayAttr):
            if dims is None:
                raise VerifyException(
                    "found `iteration_sizes` without any corresponding `user_indexing_maps`"
                )
            if len(self.iteration_sizes.data) != dims:
                raise VerifyException(
                    f"found an encoding with {len(self.iteration_sizes.data)} iteration sizes, "
                    f"but expected {dims} based on the user indexing maps"
                )


@irdl_attr_definition
class IdentityEncodingAttr(SerializableEncoding, ParametrizedAttribute):
    """`#iree_encoding.identity`: laid out exactly as without an encoding."""

    name = "iree_encoding.identity"

    def is_identity_layout(self) -> bool:
        return True


@irdl_attr_definition
class PackedStorageAttr(SerializableEncoding, ParametrizedAttribute):
    """`#iree_encoding.packed_storage`: sub-byte elements packed back to back (a
    layout of its own, not the identity)."""

    name = "iree_encoding.packed_storage"

    def is_identity_layout(self) -> bool:
        return False


@irdl_attr_definition
class IdentityResolverAttr(ParametrizedAttribute):
    """`#iree_encoding.identity_resolver`: resolves every encoding to none."""

    name = "iree_encoding.identity_resolver"


@irdl_attr_definition
class UnsupportedResolverAttr(ParametrizedAttribute):
    """`#iree_encoding.unsupported_resolver`: resolves no encoding."""

    name = "iree_encoding.unsupported_resolver"


def _parse_seed(parser: AttrParser) -> IntAttr:
    at = parser.pos
    seed = parser.parse_integer()
    if not -(1 << 31) <= seed < 1 << 31:
        parser.raise_error("seed does not fit in int32_t", at, parser.pos)
    return IntAttr(seed)


@irdl_attr_definition
class SpecializationResolverAttr(ParametrizedAttribute):
    """`#iree_encoding.specialization_resolver<seed>`: resolves to
    `#iree_encoding.specialized<seed>` (IREE's testing resolver)."""

    name = "iree_encoding.specialization_resolver"

    seed: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr]:
        with parser.in_angle_brackets():
            return (_parse_seed(parser),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.seed.data}>")


@irdl_attr_definition
class SpecializedEncodingAttr(SerializableEncoding, ParametrizedAttribute):
    """`#iree_encoding.specialized<seed(, type)?>`: a serialized testing layout;
    seeds tell layouts apart (none is the identity)."""

    name = "iree_encoding.specialized"

    seed: IntAttr
    type: Attribute

    def is_identity_layout(self) -> bool:
        return False

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[IntAttr, Attribute]:
        with parser.in_angle_brackets():
            seed = _parse_seed(parser)
            type = parser.parse_type() if parser.parse_optional_punctuation(",") is not None else NoneAttr()
        return (seed, type)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.seed.data}")
        if not isinstance(self.type, NoneAttr):
            printer.print_string(", ")
            printer.print_attribute(self.type)
        printer.print_string(">")


# IREE's OpAsmDialectInterface aliases these four as `#encoding` (not padding,
# identity, packed_storage, specialized or the resolvers).
for _attr in (EncodingAttr, UnknownEncodingAttr, LayoutAttr):
    _attr.asm_alias = "encoding"  # type: ignore[attr-defined]

IreeEncoding = Dialect(
    "iree_encoding",
    [],
    [
        TestingEncodingAttr,
        EncodingAttr,
        PaddingAttr,
        UnknownEncodingAttr,
        LayoutAttr,
        IdentityEncodingAttr,
        PackedStorageAttr,
        IdentityResolverAttr,
        UnsupportedResolverAttr,
        SpecializationResolverAttr,
        SpecializedEncodingAttr,
    ],
)
