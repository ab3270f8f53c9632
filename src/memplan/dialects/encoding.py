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
from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, NoneAttr, TensorType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

__all__ = [
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
    """`#iree_encoding.testing<>` or `#iree_encoding.testing<layouts = [...]>`."""

    name = "iree_encoding.testing"

    layouts: ArrayAttr | NoneAttr

    def __init__(self, layouts: Sequence[Attribute] | None = None):
        super().__init__(NoneAttr() if layouts is None else ArrayAttr(layouts))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[ArrayAttr | NoneAttr]:
        with parser.in_angle_brackets():
            if parser.parse_optional_keyword("layouts") is None:
                return (NoneAttr(),)
            parser.parse_punctuation("=")
            layouts = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_attribute
            )
        return (ArrayAttr(layouts),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            if isinstance(self.layouts, ArrayAttr):
                printer.print_string("layouts = [")
                printer.print_list(self.layouts.data, printer.print_attribute)
                printer.print_string("]")


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


for _attr in (PaddingAttr, UnknownEncodingAttr, LayoutAttr):
    _attr.asm_alias = "encoding"  # type: ignore[attr-defined]

IreeEncoding = Dialect(
    "iree_encoding",
    [],
    [TestingEncodingAttr, PaddingAttr, UnknownEncodingAttr, LayoutAttr],
)
