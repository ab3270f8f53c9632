"""IREE's `stream` executables: the device code stream dispatches name.

`stream.executable @ex { stream.executable.export @entry workgroups(...) ... ;
builtin.module { func.func @entry(%b: !stream.binding) ... } }`. The export ops are
parsed, so `@ex::@entry` references resolve through symbol tables; the
`builtin.module` is kept as its source text (`memplan.opaque`): it holds linalg,
tensor and iree_tensor_ext code memplan does not model and never changes. Ops
that only appear inside such a module (`stream.binding.subspan`,
`stream.dispatch.workgroup.*`) are modelled too, for executables written without
foreign ops.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    ShapedType,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, Region, TypeAttribute
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
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    ReturnLike,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    SymbolTable,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.iree.hal import end_op, parse_visibility, print_body, print_visibility
from memplan.opaque import OpaqueBodies
from memplan.printing.naming import AsmResultNames

__all__ = [
    "EXECUTABLE_OPS",
    "EXECUTABLE_TYPES",
    "BindingSubspanOp",
    "BindingType",
    "DispatchWorkgroupCountOp",
    "DispatchWorkgroupIDOp",
    "DispatchWorkgroupSizeOp",
    "ExecutableEndOp",
    "ExecutableExportOp",
    "ExecutableOp",
    "ReturnOp",
]


@irdl_attr_definition
class BindingType(ParametrizedAttribute, TypeAttribute):
    """`!stream.binding`: a dispatch function's view of one resource argument."""

    name = "stream.binding"


ExecutableEndOp = end_op(
    "stream.executable.end",
    lambda: ExecutableOp,
    "`stream.executable.end` -- the executable body's implicit terminator.",
)


@irdl_op_definition
class ExecutableOp(IRDLOperation):
    """`stream.executable (private)? @name attr-dict-with-keyword { exports;
    builtin.module {...} }` -- a symbol table of entry points. Its module is kept
    as text. Declares no effects (IREE)."""

    name = "stream.executable"

    sym_name = prop_def(StringAttr)
    sym_visibility = opt_prop_def(StringAttr)
    body = region_def("single_block")

    traits = traits_def(
        IsolatedFromAbove(),
        SymbolOpInterface(),
        SymbolTable(),
        SingleBlockImplicitTerminator(ExecutableEndOp),
        OpaqueBodies(("builtin.module",)),
    )

    def __init__(self, name: str, body: Region, visibility: str | None = None):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": None if visibility is None else StringAttr(visibility),
            },
            regions=[body],
        )
        ensure_terminator(self, SingleBlockImplicitTerminator(ExecutableEndOp))

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableOp:
        visibility = parse_visibility(parser)
        name = parser.parse_symbol_name().data
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, parser.parse_region(), None if visibility is None else visibility.data)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        print_body(printer, self.body)


@irdl_op_definition
class ExecutableExportOp(IRDLOperation):
    """`stream.executable.export (public)? @function (as("name"))? (workgroups(%w:
    index, ...) -> (index, index, index) { ... })? attr-dict-with-keyword` -- an
    entry point dispatches reference as `@executable::@name`; the optional region
    computes the workgroup count from the dispatch's workload."""

    name = "stream.executable.export"

    sym_name = prop_def(StringAttr)
    sym_visibility = opt_prop_def(StringAttr)
    function_ref = prop_def(SymbolRefAttr)
    workgroup_count = region_def()

    traits = traits_def(HasParent(ExecutableOp), SymbolOpInterface(), IsolatedFromAbove())

    def __init__(
        self,
        name: str,
        function_ref: str | None = None,
        workgroup_count: Region | None = None,
        visibility: str | None = None,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": None if visibility is None else StringAttr(visibility),
                "function_ref": SymbolRefAttr(function_ref or name),
            },
            regions=[workgroup_count or Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableExportOp:
        visibility = parse_visibility(parser)
        function_ref = parser.parse_symbol_name().data
        name = function_ref
        if parser.parse_optional_keyword("as") is not None:
            parser.parse_punctuation("(")
            name = parser.parse_str_literal()
            parser.parse_punctuation(")")
        region = Region()
        if parser.parse_optional_keyword("workgroups") is not None:
            arguments = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parser.parse_argument()
            )
            parser.parse_punctuation("->")
            pos = parser.pos
            results = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            if len(results) != 3 or any(not isinstance(t, IndexType) for t in results):
                parser.raise_error(
                    "workgroup count region must return the XYZ dimension counts", pos
                )
            region = parser.parse_region(arguments)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, function_ref, region, None if visibility is None else visibility.data)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.function_ref.root_reference.data)
        if self.sym_name.data != self.function_ref.root_reference.data:
            printer.print_string(" as(")
            printer.print_string_literal(self.sym_name.data)
            printer.print_string(")")
        if self.workgroup_count.blocks:
            printer.print_string(" workgroups(")
            printer.print_list(self.workgroup_count.block.args, printer.print_block_argument)
            printer.print_string(") -> (index, index, index) ")
            printer.print_region(self.workgroup_count, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if self.function_ref.nested_references.data:
            raise VerifyException("function_ref must be a flat symbol reference")


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`stream.return %x, %y, %z : index, index, index` -- ends an export's
    workgroup count region. Pure."""

    name = "stream.return"

    operands_ = var_operand_def()

    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(ExecutableExportOp))

    assembly_format = "attr-dict $operands_ `:` type($operands_)"

    def verify_(self) -> None:
        # IREE's export verifier, reported at the return as IREE reports it.
        if len(self.operands) != 3 or any(not isinstance(v.type, IndexType) for v in self.operands):
            raise VerifyException("workgroup count region must return the XYZ dimension counts")


@irdl_op_definition
class BindingSubspanOp(IRDLOperation):
    """`stream.binding.subspan %b[%offset] : !stream.binding -> type({%dims})?` --
    a typed view of a binding at a byte offset. Pure."""

    name = "stream.binding.subspan"

    binding = operand_def(BindingType)
    byte_offset = operand_def(IndexType)
    dynamic_dims = var_operand_def(IndexType)
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = (
        "$binding `` `[` $byte_offset `]` attr-dict `:` type($binding) `->` "
        "type($result) (`{` $dynamic_dims^ `}`)?"
    )

    def verify_(self) -> None:
        if not isinstance(self.result.type, ShapedType):
            return
        dynamic = sum(1 for d in self.result.type.get_shape() if d == DYNAMIC_INDEX)
        if dynamic != len(self.dynamic_dims):
            raise VerifyException(
                f"type set has {dynamic} dynamic dimensions but only "
                f"{len(self.dynamic_dims)} dimension values are attached"
            )


class _WorkgroupInfoName(AsmResultNames):
    """`%workgroup_id_0`: the prefix and the dimension, as IREE names them."""

    def __init__(self, prefix: str):
        object.__setattr__(self, "prefix", prefix)

    def result_names(self, op: Operation) -> Sequence[str | None]:
        return [f"{self.prefix}{op.dimension.value.data}"]  # type: ignore[attr-defined]


def _workgroup_info(op_name: str, prefix: str, doc: str) -> type[IRDLOperation]:
    def verify_(self: IRDLOperation) -> None:
        dimension = self.dimension.value.data  # type: ignore[attr-defined]
        if not 0 <= dimension < 3:
            raise VerifyException(
                f"dimension {dimension} out of bounds of dispatch dimensions; expected [0, 3)"
            )

    cls = type(
        "DispatchWorkgroup" + op_name.title() + "Op",
        (IRDLOperation,),
        {
            "name": f"stream.dispatch.workgroup.{op_name}",
            "__doc__": doc,
            "__module__": __name__,
            "dimension": prop_def(IntegerAttr[IndexType]),
            "result": result_def(IndexType),
            "traits": traits_def(Pure(), _WorkgroupInfoName(prefix)),
            "assembly_format": "`[` $dimension `]` attr-dict `:` type($result)",
            "verify_": verify_,
        },
    )
    return irdl_op_definition(cls)


DispatchWorkgroupIDOp = _workgroup_info(
    "id", "workgroup_id_", "`stream.dispatch.workgroup.id[N] : index` -- this workgroup's index. Pure."
)
DispatchWorkgroupCountOp = _workgroup_info(
    "count", "workgroup_count_", "`stream.dispatch.workgroup.count[N] : index` -- the grid size. Pure."
)
DispatchWorkgroupSizeOp = _workgroup_info(
    "size", "workgroup_size_", "`stream.dispatch.workgroup.size[N] : index` -- invocations per workgroup. Pure."
)

EXECUTABLE_OPS: tuple[type[Operation], ...] = (
    ExecutableOp,
    ExecutableEndOp,
    ExecutableExportOp,
    ReturnOp,
    BindingSubspanOp,
    DispatchWorkgroupIDOp,
    DispatchWorkgroupCountOp,
    DispatchWorkgroupSizeOp,
)
EXECUTABLE_TYPES: tuple[type[Attribute], ...] = (BindingType,)
