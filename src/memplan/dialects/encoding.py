"""The part of IREE's `iree_encoding` dialect that the seed IR uses.

`#iree_encoding.testing<>` is IREE's opaque test encoding: a tensor type carrying it
(`tensor<4096x4096xf8E4M3FNUZ, #iree_encoding.testing<>>`) is laid out differently
from the plain tensor, so `stream.tensor.encode` between the two is a real copy and
two encodes of the same source are a common subexpression. IREE prints every
`iree_encoding` attribute through an alias (`#encoding`, `#encoding1`, ...), which
memplan's printer reproduces from the attribute's `asm_alias`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, NoneAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

__all__ = ["IreeEncoding", "TestingEncodingAttr"]


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

IreeEncoding = Dialect("iree_encoding", [], [TestingEncodingAttr])
