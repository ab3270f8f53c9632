"""`func.func` declarations as MLIR prints them.

xDSL prints a body-less `func.func` by its function type, `@g() -> ()`, and drops
its argument attributes; MLIR (`function_interface_impl::printFunctionOp`) prints
`@g()`, `@h(i32 {a = 1 : i32}) -> i32` — what iree-opt and mlir-opt users diff
against. xDSL's parser also drops a declaration's argument attributes
(`@h(i32 {test.a})`); this class keeps them. `FuncMlirSyntax` is xDSL's func
dialect with this class in place of xDSL's; definitions print as xDSL prints
them (they already match MLIR).
"""

from __future__ import annotations

from xdsl.dialects import func as xfunc
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    StringAttr,
    SymbolNameConstraint,
)
from xdsl.dialects.func import FuncOpCallableInterface
from xdsl.dialects.utils import print_func_output
from xdsl.dialects.utils.format import _parse_func_outputs as parse_func_outputs
from xdsl.ir import Attribute, Dialect, Region
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, SymbolOpInterface

__all__ = ["FuncMlirSyntax", "FuncOp"]

_RESERVED = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


@irdl_op_definition
class FuncOp(xfunc.FuncOp):
    """`func.func`, printing declarations as MLIR does."""

    name = "func.func"

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), FuncOpCallableInterface())

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name = parser.parse_symbol_name().data
        entry: list[Parser.Argument] = []
        inputs: list[Attribute] = []
        attrs: list[DictionaryAttr] = []

        def parse_input() -> None:
            start = parser.pos
            argument = parser.parse_optional_argument()
            if inputs and (argument is None) != (not entry):
                parser.raise_error(
                    "expected all arguments to be named or all to be unnamed", start, parser.pos
                )
            if argument is not None:
                entry.append(argument)
                inputs.append(argument.type)
            else:
                inputs.append(parser.parse_type())
            attrs.append(DictionaryAttr(parser.parse_optional_dictionary_attr_dict()))
            location = parser.parse_optional_location()
            if argument is not None:
                argument.location = location

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_input)
        outputs, res_attrs = parse_func_outputs(parser)
        extra = parser.parse_optional_attr_dict_with_keyword(_RESERVED[:3])
        region = parser.parse_optional_region(entry if entry else None) or Region()
        written = dict(extra.data) if extra is not None else {}
        # MLIR reads inherent attributes written in the dictionary as properties.
        arg_attrs = ArrayAttr(attrs) if any(a.data for a in attrs) else written.get("arg_attrs")
        res_attrs = res_attrs or written.get("res_attrs")
        op = cls(
            name, (inputs, outputs), region, visibility,
            arg_attrs=arg_attrs,  # type: ignore[arg-type]
            res_attrs=res_attrs,  # type: ignore[arg-type]
        )
        op.attributes |= {k: v for k, v in written.items() if k not in _RESERVED}
        return op

    def print(self, printer: Printer) -> None:
        if self.body.blocks:
            super().print(printer)
            return
        if self.sym_visibility:
            printer.print_string(f" {self.sym_visibility.data}")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        function_type = self.function_type
        arg_attrs = self.arg_attrs.data if self.arg_attrs else [None] * len(function_type.inputs)
        printer.print_string("(")
        printer.print_list(
            zip(function_type.inputs, arg_attrs), lambda t: print_func_output(printer, *t)
        )
        printer.print_string(")")
        outputs = function_type.outputs.data
        if outputs:
            res_attrs = self.res_attrs.data if self.res_attrs else None
            printer.print_string(" -> ")
            parenthesized = (
                len(outputs) > 1
                or isinstance(outputs[0], FunctionType)
                or (res_attrs is not None and bool(res_attrs[0].data))
            )
            if parenthesized:
                printer.print_string("(")
            printer.print_list(
                zip(outputs, res_attrs or [None] * len(outputs)),
                lambda t: print_func_output(printer, *t),
            )
            if parenthesized:
                printer.print_string(")")
        printer.print_op_attributes(self.attributes, reserved_attr_names=_RESERVED, print_keyword=True)


FuncMlirSyntax = Dialect(
    "func",
    [FuncOp if op is xfunc.FuncOp else op for op in xfunc.Func.operations],
    list(xfunc.Func.attributes),
)
"""xDSL's func dialect with MLIR's printing of declarations."""
