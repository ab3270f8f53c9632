"""IREE's `util` dialect: globals, initializers, functions, calls (IREE 3.13 syntax).

What the cleanup passes rely on:

- `util.global` is a symbol in the module's symbol table (`SymbolTable.lookup_symbol`
  finds it); `util.global.load` READs the global it names (an `EffectInstance` whose
  value is the global's `SymbolRefAttr`) unless it is `immutable`, and
  `util.global.store` WRITEs it, so CSE merges two loads of a global only when no
  store to it, call or unknown op lies between them.
- `util.initializer` and `util.func` are isolated from above, callable, and declare
  no memory effect: like IREE (and MLIR's `func.func`) they are never merged or
  erased by CSE/DCE. `util.call` has unknown effects. `util.return` is Pure.
- A load's result is named after its global, as IREE prints it: the symbol name
  sanitized like MLIR's printer does (`:` becomes `3A`), so
  `util.global.load @"a:b"` prints as `%a3Ab = ...`. `GlobalLoadOp.__init__` sets
  that name hint, so loads created by passes get it too; a name given in the source
  text is kept.

The size-aware syntax helpers shared with `stream` (`type{%size}` lists and tied
results `%arg0 as type`) live here, as they do in IREE's Util dialect.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    ShapedType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypedAttribute,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    operand_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    EffectInstance,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    NoMemoryEffect,
    OptionalSymbolOpInterface,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from memplan.analysis.data_layout import packed_storage_bytes
from memplan.dialects.iree.util_buffer import (
    BUFFER_ATTRIBUTES,
    BUFFER_OPS,
    BufferType,
    ListType,
    SizedStorageAttr,
)
from memplan.dialects.iree.util_values import (
    VALUE_ATTRIBUTES,
    VALUE_OPS,
    HoistableConversionOp,
    TypeOnlyAttr,
)
from memplan.util_interfaces import (
    GlobalAccessInterface,
    GlobalInterface,
    GlobalLoadInterface,
    GlobalStorageType,
    GlobalStoreInterface,
    InitializerInterface,
    UTIL_PATTERNS,
)
from memplan.printing import AsmResultNames, sanitize_ssa_name

__all__ = [
    "CallOp",
    "FuncOp",
    "GlobalLoadOp",
    "GlobalOp",
    "GlobalStoreOp",
    "InitializerOp",
    "InlineAlwaysAttr",
    "InlineNeverAttr",
    "ReturnOp",
    "Util",
    "global_load_name",
    "is_global_type_compatible",
    "lookup_global",
    "sanitize_ssa_name",
    "tied_operands_attr",
    "verify_tied_operands",
]

UNTIED = -1
"""The `tied_operands` entry of a result that is not tied to an operand."""


# --------------------------------------------------------------------------------
# Names, symbols, type compatibility
# --------------------------------------------------------------------------------


def global_load_name(global_name: str | StringAttr | SymbolRefAttr) -> str:
    """The name IREE gives the result of a load of `global_name`."""
    if isinstance(global_name, SymbolRefAttr):
        global_name = global_name.root_reference
    if isinstance(global_name, StringAttr):
        global_name = global_name.data
    return sanitize_ssa_name(global_name)


def _set_name_hint(value: SSAValue, name: str) -> None:
    """Give `value` the name hint `name` when xDSL accepts it as one."""
    if SSAValue.is_valid_name(name):
        value.name_hint = name


def lookup_global(op: Operation, name: SymbolRefAttr) -> GlobalOp | None:
    """The `util.global` `name` refers to from `op`, or None (not found, not a global,
    or `op` is not inside a symbol table yet)."""
    try:
        found = SymbolTable.lookup_symbol(op, name)
    except ValueError:
        return None
    return found if isinstance(found, GlobalOp) else None


def is_global_type_compatible(global_type: Attribute, value_type: Attribute) -> bool:
    """Whether a value of `value_type` may initialize, be stored to or be loaded from
    a global of `global_type`: the types are equal, or the global's type accepts the
    access (`GlobalStorageType`: a stream resource accessed as a tensor; IREE's
    `isAccessStorageCompatible`).
    """
    if global_type == value_type:
        return True
    return isinstance(global_type, GlobalStorageType) and global_type.accepts_access(value_type)


def _type_str(type: Attribute) -> str:
    return str(type)


def tied_operands_attr(ties: Sequence[int | None]) -> ArrayAttr[IntegerAttr]:
    """The `tied_operands` property for results tied to the given operand indices
    (None or -1: untied)."""
    return ArrayAttr(
        [IntegerAttr(UNTIED if t is None else t, IndexType()) for t in ties]
    )


def tied_indices(
    attr: ArrayAttr[IntegerAttr] | None, result_count: int
) -> tuple[int | None, ...]:
    """Per result, the index of the operand it is tied to (None when untied)."""
    if attr is None:
        return (None,) * result_count
    ties = tuple(
        None if a.value.data == UNTIED else a.value.data for a in attr.data
    )
    return ties + (None,) * (result_count - len(ties))


def verify_tied_operands(
    op: Operation,
    attr: ArrayAttr[IntegerAttr] | None,
    result_count: int,
    operand_count: int,
) -> None:
    """One `tied_operands` entry per result, each -1 or an operand index (IREE's
    `TiedOpInterface` verifier, with its messages)."""
    if attr is None:
        return
    if len(attr.data) != result_count:
        raise VerifyException("results/tied operand indices mismatch")
    for result, entry in enumerate(attr.data):
        index = entry.value.data
        if index != UNTIED and not 0 <= index < operand_count:
            raise VerifyException(
                f"result #{result} tied to invalid operand index {index}"
            )


# --------------------------------------------------------------------------------
# Size-aware and tied-result syntax (IREE's custom<SizeAwareType...> directives)
# --------------------------------------------------------------------------------


def parse_entry_points(parser: Parser) -> list[SymbolRefAttr]:
    """`@sym` or `{@a, @b}`: the entry points of flow's and stream's dispatches."""

    def symbol() -> SymbolRefAttr:
        pos = parser.pos
        attr = parser.parse_attribute()
        if not isinstance(attr, SymbolRefAttr):
            parser.raise_error("expected an entry point symbol", pos)
        return attr

    if parser.parse_optional_punctuation("{") is None:
        return [symbol()]
    entry_points = [symbol()]
    while parser.parse_optional_punctuation(",") is not None:
        entry_points.append(symbol())
    parser.parse_punctuation("}")
    return entry_points


def print_entry_points(printer: Printer, entry_points: Sequence[SymbolRefAttr]) -> None:
    """Inverse of `parse_entry_points`: one entry point bare, several in braces."""
    if len(entry_points) == 1:
        printer.print_attribute(entry_points[0])
        return
    printer.print_string("{")
    printer.print_list(entry_points, printer.print_attribute)
    printer.print_string("}")


def parse_workload(parser: Parser) -> list[SSAValue]:
    """`([%w, ...])?` after a dispatch's entry points: the workload, index values."""
    if parser.parse_optional_punctuation("[") is None:
        return []
    if parser.parse_optional_punctuation("]") is not None:
        return []
    index = IndexType()
    workload = parser.parse_comma_separated_list(
        parser.Delimiter.NONE,
        lambda: parser.resolve_operand(parser.parse_unresolved_operand(), index),
    )
    parser.parse_punctuation("]")
    return workload


def print_workload(printer: Printer, workload: Sequence[SSAValue]) -> None:
    """Inverse of `parse_workload`: nothing for an empty workload."""
    if workload:
        printer.print_string("[")
        printer.print_list(workload, printer.print_operand)
        printer.print_string("]")


def parse_sized_type(
    parser: Parser,
) -> tuple[Attribute, UnresolvedOperand | None]:
    """`type` or `type{%size}`."""
    type = parser.parse_type()
    size = None
    if parser.parse_optional_punctuation("{") is not None:
        size = parser.parse_unresolved_operand()
        parser.parse_punctuation("}")
    return type, size


def print_sized_type(
    printer: Printer, type: Attribute, size: SSAValue | None
) -> None:
    """`type` or `type{%size}`."""
    printer.print_attribute(type)
    if size is not None:
        printer.print_string("{")
        printer.print_operand(size)
        printer.print_string("}")


@dataclass
class ParsedResult:
    """One entry of a result list that may tie results to operands:
    `type`, `type{%size}`, `%operand`, `%operand{%size}` or
    `%operand as type{%size}` (the type of a tied result defaults to the operand's).
    """

    type: Attribute | None
    tied_to: UnresolvedOperand | None
    size: UnresolvedOperand | None = None
    attrs: DictionaryAttr | None = None


def _parse_result_entry(
    parser: Parser, *, sized: bool, with_attrs: bool
) -> ParsedResult:
    tied = parser.parse_optional_unresolved_operand()
    type: Attribute | None = None
    size = None
    if tied is None:
        type = parser.parse_type()
    elif parser.parse_optional_keyword("as") is not None:
        type = parser.parse_type()
    if sized and parser.parse_optional_punctuation("{") is not None:
        size = parser.parse_unresolved_operand()
        parser.parse_punctuation("}")
    attrs = None
    if with_attrs:
        attr_dict = parser.parse_optional_attr_dict()
        attrs = DictionaryAttr(attr_dict) if attr_dict else None
    return ParsedResult(type, tied, size, attrs)


_T = TypeVar("_T")


def parse_results(parser: Parser, entry: Callable[[bool], _T]) -> list[_T]:
    """The results after `->`: `()`, one entry, or a parenthesized list (how IREE
    writes every result list); `entry(parenthesized)` reads one."""
    if parser.parse_optional_punctuation("(") is None:
        return [entry(False)]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    entries = [entry(True)]
    while parser.parse_optional_punctuation(",") is not None:
        entries.append(entry(True))
    parser.parse_punctuation(")")
    return entries


def parse_result_list(
    parser: Parser, *, sized: bool, with_attrs: bool = False
) -> list[ParsedResult]:
    """The results after `->`, each `type`, `%tied (as type)?`, sized when asked;
    attribute dictionaries only inside parentheses."""
    return parse_results(
        parser,
        lambda parens: _parse_result_entry(
            parser, sized=sized, with_attrs=with_attrs and parens
        ),
    )


def print_result_list(
    printer: Printer,
    types: Sequence[Attribute],
    sizes: Sequence[SSAValue | None],
    tied_to: Sequence[SSAValue | tuple[str, Attribute] | None],
    *,
    attrs: Sequence[DictionaryAttr] | None = None,
    empty_parens: bool = True,
) -> None:
    """Inverse of `parse_result_list`: a single untied result without attributes
    prints bare; zero results print `()` when `empty_parens`. A tie is the operand
    value, or (name, type) for a declaration's argument that has no value."""
    has_attrs = attrs is not None and any(a.data for a in attrs)
    parens = len(types) != 1 or has_attrs

    def entry(i: int) -> None:
        tied = tied_to[i]
        if tied is not None:
            if isinstance(tied, SSAValue):
                printer.print_operand(tied)
                tied_type = tied.type
            else:
                printer.print_string(f"%{tied[0]}")
                tied_type = tied[1]
            if tied_type != types[i]:
                printer.print_string(" as ")
                printer.print_attribute(types[i])
        else:
            printer.print_attribute(types[i])
        if sizes[i] is not None:
            printer.print_string("{")
            printer.print_operand(sizes[i])  # type: ignore[arg-type]
            printer.print_string("}")
        if attrs is not None and attrs[i].data:
            printer.print_string(" ")
            printer.print_attr_dict(attrs[i].data)

    if not types:
        if empty_parens:
            printer.print_string("()")
        return
    if parens:
        printer.print_string("(")
    printer.print_list(range(len(types)), entry)
    if parens:
        printer.print_string(")")


@dataclass
class ShapedSignature:
    """What `parse_shaped_signature` read: named arguments (none in a declaration
    written with bare types), argument and result types, ties, attribute dicts."""

    arguments: list[Parser.Argument]
    inputs: list[Attribute]
    outputs: list[Attribute]
    ties: list[int | None]
    arg_attrs: list[DictionaryAttr]
    res_attrs: list[DictionaryAttr]


def parse_shaped_signature(parser: Parser) -> ShapedSignature:
    """`(%arg0: type {attrs}, ...) (-> results)?`, IREE's
    `custom<ShapedFunctionSignature>` (util.func, stream.async.func): a result may
    be tied to an argument by name (`-> (%arg0, index)`)."""
    arguments: list[Parser.Argument] = []
    input_types: list[Attribute] = []
    arg_dicts: list[DictionaryAttr] = []

    def parse_arg() -> None:
        # Named (`%arg0: index`), or a bare type in a declaration.
        arg = parser.parse_optional_argument(expect_type=True)
        if arg is None:
            input_types.append(parser.parse_type())
        else:
            arguments.append(arg)
            input_types.append(arg.type)
        attrs = parser.parse_optional_attr_dict()
        arg_dicts.append(DictionaryAttr(attrs))
        # `loc(...)` last, as MLIR prints an argument with --mlir-print-debuginfo.
        location = parser.parse_optional_location()
        if location is not None and arg is not None:
            arguments[-1] = Parser.Argument(arg.name, arg.type, location)

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_arg)
    if arguments and len(arguments) != len(input_types):
        parser.raise_error("either all arguments are named or none is")

    entries: list[ParsedResult] = []
    if parser.parse_optional_punctuation("->") is not None:
        entries = parse_result_list(parser, sized=False, with_attrs=True)
        # IREE also reads results without parentheses: `-> index, i64 {`.
        while parser.parse_optional_punctuation(",") is not None:
            entries.append(_parse_result_entry(parser, sized=False, with_attrs=False))
    ties: list[int | None] = []
    output_types: list[Attribute] = []
    for entry in entries:
        tie: int | None = None
        type = entry.type
        if entry.tied_to is not None:
            name = entry.tied_to.span.text
            matches = [
                i for i, a in enumerate(arguments) if a.name.text == name
            ]
            if not matches:
                parser.raise_error(
                    f"tied result {name} does not name an argument",
                    entry.tied_to.span.start,
                    entry.tied_to.span.end,
                )
            tie = matches[0]
            if type is None:
                type = input_types[tie]
        assert type is not None
        ties.append(tie)
        output_types.append(type)
    res_dicts = [e.attrs or DictionaryAttr({}) for e in entries]
    return ShapedSignature(
        arguments, input_types, output_types, ties, arg_dicts, res_dicts
    )


def print_shaped_signature(
    printer: Printer,
    function_type: FunctionType,
    ties: Sequence[int | None],
    arg_attrs: ArrayAttr[DictionaryAttr] | None,
    res_attrs: ArrayAttr[DictionaryAttr] | None,
    block: Block | None,
) -> None:
    """Inverse of `parse_shaped_signature`: the entry block's arguments when there
    is a body, `%argN: type` otherwise (IREE names a declaration's arguments too)."""
    inputs = function_type.inputs.data
    arg_dicts = arg_attrs.data if arg_attrs else None

    def print_arg(i: int) -> None:
        if block is not None:
            printer.print_block_argument(block.args[i])
        else:
            printer.print_string(f"%arg{i}: ")
            printer.print_attribute(inputs[i])
        if arg_dicts is not None and arg_dicts[i].data:
            printer.print_string(" ")
            printer.print_attr_dict(arg_dicts[i].data)

    printer.print_string("(")
    printer.print_list(range(len(inputs)), print_arg)
    printer.print_string(")")
    outputs = function_type.outputs.data
    if not outputs:
        return
    printer.print_string(" -> ")
    tied_values: list[SSAValue | tuple[str, Attribute] | None] = []
    for tie in ties:
        if tie is None:
            tied_values.append(None)
        elif block is not None:
            tied_values.append(block.args[tie])
        else:
            tied_values.append((f"arg{tie}", inputs[tie]))
    print_result_list(
        printer,
        outputs,
        [None] * len(outputs),
        tied_values,
        attrs=res_attrs.data if res_attrs else None,
    )


def _same_operand(a: UnresolvedOperand, b: UnresolvedOperand) -> bool:
    return a.span.text == b.span.text and a.index == b.index


def resolve_tied(
    parser: Parser,
    entry: ParsedResult,
    candidates: Sequence[UnresolvedOperand],
    candidate_types: Sequence[Attribute],
) -> tuple[int | None, Attribute]:
    """The operand index a parsed result is tied to, and the result's type."""
    if entry.tied_to is None:
        assert entry.type is not None
        return None, entry.type
    for index, candidate in enumerate(candidates):
        if _same_operand(candidate, entry.tied_to):
            return index, entry.type if entry.type is not None else candidate_types[index]
    parser.raise_error(
        f"tied result {entry.tied_to.span.text} does not name an operand",
        entry.tied_to.span.start,
        entry.tied_to.span.end,
    )


# --------------------------------------------------------------------------------
# Inlining policies
# --------------------------------------------------------------------------------


@irdl_attr_definition
class InlineNeverAttr(ParametrizedAttribute):
    """`#util.inline.never`: the `inlining_policy` that keeps a function or global
    from being inlined."""

    name = "util.inline.never"


@irdl_attr_definition
class InlineAlwaysAttr(ParametrizedAttribute):
    """`#util.inline.always`: the `inlining_policy` that asks for inlining."""

    name = "util.inline.always"


# --------------------------------------------------------------------------------
# The globals interfaces, as util's ops implement them
# --------------------------------------------------------------------------------


class _GlobalModel(GlobalInterface):
    """`util.global` as a global (IREE's `GlobalOpInterface`)."""

    def symbol(self, op: Operation) -> str:
        return op.sym_name.data  # type: ignore[attr-defined]

    def type(self, op: Operation) -> Attribute:
        return op.type  # type: ignore[attr-defined]

    def initial_value(self, op: Operation) -> Attribute | None:
        return op.initial_value  # type: ignore[attr-defined]

    def set_initial_value(self, op: Operation, value: Attribute) -> None:
        op.properties["initial_value"] = value

    def is_mutable(self, op: Operation) -> bool:
        return op.mutable  # type: ignore[attr-defined]

    def set_mutable(self, op: Operation, mutable: bool) -> None:
        if mutable:
            op.properties["is_mutable"] = UnitAttr()
        else:
            op.properties.pop("is_mutable", None)

    def is_private(self, op: Operation) -> bool:
        return op.visibility == "private"  # type: ignore[attr-defined]

    def may_inline(self, op: Operation) -> bool:
        # Another dialect's attributes may mean something to it that the constant
        # would lose (IREE keeps such globals too); util's own do not.
        policy = op.inlining_policy  # type: ignore[attr-defined]
        return (policy is None or isinstance(policy, InlineAlwaysAttr)) and all(
            name.startswith("util.") for name, _ in self.dialect_attributes(op)
        )


class _AccessModel(GlobalAccessInterface):
    def symbol(self, op: Operation) -> str:
        return op.global_.root_reference.data  # type: ignore[attr-defined]

    def reference(self, op: Operation) -> Attribute:
        return op.global_  # type: ignore[attr-defined]

    def set_symbol(self, op: Operation, name: str) -> None:
        op.properties["global"] = SymbolRefAttr(StringAttr(name))


class _LoadModel(_AccessModel, GlobalLoadInterface):
    """`util.global.load` (IREE's `GlobalLoadOpInterface`); renaming the global
    renames a result still called after it."""

    def set_symbol(self, op: Operation, name: str) -> None:
        result = op.results[0]
        if result.name_hint == global_load_name(op.global_):  # type: ignore[attr-defined]
            result.name_hint = global_load_name(name)
        super().set_symbol(op, name)

    def is_immutable(self, op: Operation) -> bool:
        return op.immutable  # type: ignore[attr-defined]

    def set_immutable(self, op: Operation, immutable: bool) -> None:
        if immutable:
            op.properties["is_immutable"] = UnitAttr()
        else:
            op.properties.pop("is_immutable", None)


class _StoreModel(_AccessModel, GlobalStoreInterface):
    """`util.global.store` (IREE's `GlobalStoreOpInterface`)."""

    def value(self, op: Operation) -> SSAValue:
        return op.value  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------
# util.global
# --------------------------------------------------------------------------------


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """`util.global (public|private|nested)? (mutable)? @name attr-dict
    (: type)? (= initial_value)?` -- a module-level variable.

    Without `sym_visibility` it is public and prints `public`, as IREE does. It
    declares no memory effect of its own (unknown), so DCE never erases it.
    """

    name = "util.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(TypeAttribute)
    is_mutable = opt_prop_def(UnitAttr)
    initial_value = opt_prop_def(Attribute)
    inlining_policy = opt_prop_def(Attribute)

    traits = traits_def(SymbolOpInterface(), _GlobalModel())

    def __init__(
        self,
        sym_name: str | StringAttr,
        type: Attribute,
        *,
        visibility: str | StringAttr | None = "private",
        mutable: bool = False,
        initial_value: Attribute | None = None,
        inlining_policy: Attribute | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(sym_name, str):
            sym_name = StringAttr(sym_name)
        if isinstance(visibility, str):
            visibility = StringAttr(visibility)
        super().__init__(
            properties={
                "sym_name": sym_name,
                "sym_visibility": visibility,
                "type": type,
                "is_mutable": UnitAttr() if mutable else None,
                "initial_value": initial_value,
                "inlining_policy": inlining_policy,
            },
            attributes=attributes,
        )

    @property
    def global_type(self) -> Attribute:
        return self.type

    @property
    def visibility(self) -> str:
        """`public`, `private` or `nested` (absent means public)."""
        return self.sym_visibility.data if self.sym_visibility else "public"

    @property
    def mutable(self) -> bool:
        return self.is_mutable is not None

    @property
    def symbol_ref(self) -> SymbolRefAttr:
        return SymbolRefAttr(self.sym_name)

    def verify_(self) -> None:
        if self.sym_visibility is not None and self.sym_visibility.data not in (
            "public",
            "private",
            "nested",
        ):
            raise VerifyException(
                f"invalid symbol visibility '{self.sym_visibility.data}'"
            )
        value = self.initial_value
        if value is not None and isinstance(value, TypedAttribute):
            value_type = value.get_type()
            if not is_global_type_compatible(self.type, value_type):
                raise VerifyException(
                    f'initial value type mismatch; global "{self.sym_name.data}" is '
                    f"'{_type_str(self.type)}' but initial value provided is "
                    f"'{_type_str(value_type)}'"
                )

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        visibility = parser.parse_optional_visibility_keyword()
        mutable = parser.parse_optional_keyword("mutable") is not None
        sym_name = parser.parse_symbol_name()
        inlining_policy = None
        if parser.parse_optional_punctuation("<") is not None:
            parser.parse_keyword("inlining_policy")
            parser.parse_punctuation("=")
            inlining_policy = parser.parse_attribute()
            parser.parse_punctuation(">")
        attributes = parser.parse_optional_attr_dict()
        if inlining_policy is None:
            # IREE before strict properties (its own lit files) kept the policy
            # in the attribute dictionary; 3.13 reads and prints only `<...>`.
            inlining_policy = attributes.pop("inlining_policy", None)
        type: Attribute | None = None
        initial_value: Attribute | None = None
        if parser.parse_optional_punctuation("=") is not None:
            pos = parser.pos
            initial_value = parser.parse_attribute()
            if not isinstance(initial_value, TypedAttribute):
                parser.raise_error(
                    "expected a typed initial value (or `: type` before `=`)", pos
                )
            type = initial_value.get_type()
        else:
            parser.parse_punctuation(":")
            type = parser.parse_type()
            if parser.parse_optional_punctuation("=") is not None:
                initial_value = parser.parse_attribute()
        op = cls(
            sym_name,
            type,
            visibility=visibility,
            mutable=mutable,
            initial_value=initial_value,
            inlining_policy=inlining_policy,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.visibility}")
        if self.mutable:
            printer.print_string(" mutable")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name)
        if self.inlining_policy is not None:
            printer.print_string(" <inlining_policy = ")
            printer.print_attribute(self.inlining_policy)
            printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        value = self.initial_value
        if not (isinstance(value, TypedAttribute) and value.get_type() == self.type):
            printer.print_string(" : ")
            printer.print_attribute(self.type)
        if value is not None:
            printer.print_string(" = ")
            printer.print_attribute(value)


# --------------------------------------------------------------------------------
# util.global.load / util.global.store
# --------------------------------------------------------------------------------


class _GlobalLoadEffect(MemoryEffect):
    """READ of the loaded global, or nothing when the load is `immutable`."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        assert isinstance(op, GlobalLoadOp)
        if op.is_immutable is not None:
            return set()
        return {EffectInstance(MemoryEffectKind.READ, op.global_)}


class _GlobalStoreEffect(MemoryEffect):
    """WRITE of the stored-to global."""

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance]:
        assert isinstance(op, GlobalStoreOp)
        return {EffectInstance(MemoryEffectKind.WRITE, op.global_)}


class _GlobalLoadNames(AsmResultNames):
    """The result is named after the global (IREE's `getAsmResultNames`)."""

    def result_names(self, op: Operation) -> Sequence[str | None]:
        assert isinstance(op, GlobalLoadOp)
        return (global_load_name(op.global_),)


def _verify_global_access(
    op: Operation, global_ref: SymbolRefAttr, type: Attribute, what: str
) -> GlobalOp | None:
    """Checks shared by loads and stores; returns the global, or None when the op is
    not (yet) inside a symbol table."""
    try:
        found = SymbolTable.lookup_symbol(op, global_ref)
    except ValueError:
        return None
    if not isinstance(found, GlobalOp):
        raise VerifyException(f"undefined global: {global_ref}")
    if not is_global_type_compatible(found.type, type):
        raise VerifyException(
            f'global type mismatch; global "{found.sym_name.data}" is '
            f"'{_type_str(found.type)}' but {what} is '{_type_str(type)}'"
        )
    return found


@irdl_op_definition
class GlobalLoadOp(IRDLOperation):
    """`util.global.load (immutable)? @global attr-dict : type`.

    READs the global (an effect on its `SymbolRefAttr`); an `immutable` load has no
    effect, so it may be hoisted and merged freely.
    """

    name = "util.global.load"

    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")
    is_immutable = opt_prop_def(UnitAttr)
    result = result_def()

    traits = traits_def(_GlobalLoadEffect(), _GlobalLoadNames(), _LoadModel())

    def __init__(
        self,
        global_: str | StringAttr | SymbolRefAttr,
        result_type: Attribute,
        *,
        immutable: bool = False,
        name_hint: str | None = None,
    ):
        if not isinstance(global_, SymbolRefAttr):
            global_ = SymbolRefAttr(global_)
        super().__init__(
            properties={
                "global": global_,
                "is_immutable": UnitAttr() if immutable else None,
            },
            result_types=[result_type],
        )
        _set_name_hint(self.result, name_hint or global_load_name(global_))

    @staticmethod
    def of(global_op: GlobalOp, *, immutable: bool | None = None) -> GlobalLoadOp:
        """A load of `global_op` with its type; `immutable` defaults to whether the
        global is immutable."""
        if immutable is None:
            immutable = not global_op.mutable
        return GlobalLoadOp(global_op.symbol_ref, global_op.type, immutable=immutable)

    @classmethod
    def parse(cls, parser: Parser) -> GlobalLoadOp:
        # The result gets the global's name here (in `__init__`); a name written in
        # the source (`%x = ...`) is set by the caller afterwards and wins.
        immutable = parser.parse_optional_keyword("immutable") is not None
        pos = parser.pos
        global_ = parser.parse_attribute()
        if not isinstance(global_, SymbolRefAttr):
            parser.raise_error("expected a global symbol reference", pos)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(global_, parser.parse_type(), immutable=immutable)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        if self.immutable:
            printer.print_string(" immutable")
        printer.print_string(" ")
        printer.print_attribute(self.global_)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @property
    def immutable(self) -> bool:
        return self.is_immutable is not None

    def verify_(self) -> None:
        found = _verify_global_access(self, self.global_, self.result.type, "load")
        if found is not None and self.immutable and found.mutable:
            raise VerifyException("is marked as immutable but the global is mutable")


@irdl_op_definition
class GlobalStoreOp(IRDLOperation):
    """`util.global.store %value, @global attr-dict : type` -- WRITEs the global."""

    name = "util.global.store"

    value = operand_def()
    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")

    traits = traits_def(_GlobalStoreEffect(), UTIL_PATTERNS, _StoreModel())

    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    def __init__(
        self, value: SSAValue | Operation, global_: str | StringAttr | SymbolRefAttr
    ):
        if not isinstance(global_, SymbolRefAttr):
            global_ = SymbolRefAttr(global_)
        super().__init__(operands=[value], properties={"global": global_})

    def verify_(self) -> None:
        _verify_global_access(self, self.global_, self.value.type, "store")


# --------------------------------------------------------------------------------
# util.initializer / util.func / util.call / util.return
# --------------------------------------------------------------------------------


class _FunctionLikeCallable(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, InitializerOp | FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, InitializerOp | FuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, InitializerOp | FuncOp)
        return op.function_type.outputs.data


def _verify_entry_block(op: InitializerOp | FuncOp) -> None:
    if not op.body.blocks:
        return
    entry = op.body.blocks.first
    assert entry is not None
    if tuple(entry.arg_types) != op.function_type.inputs.data:
        raise VerifyException(
            "entry block arguments do not match the function signature "
            f"{op.function_type}"
        )


@irdl_op_definition
class InitializerOp(IRDLOperation):
    """`util.initializer (attributes {..})? { ... }` -- runs once at module load,
    in program order with the module's other initializers and global initial values.

    Isolated from above, callable, with an optional symbol name; no memory effects
    are declared (IREE declares none), so CSE and DCE leave it alone.
    """

    name = "util.initializer"

    function_type = prop_def(FunctionType)
    sym_name = opt_prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = region_def()

    traits = traits_def(
        UTIL_PATTERNS,
        InitializerInterface(),
        IsolatedFromAbove(), OptionalSymbolOpInterface(), _FunctionLikeCallable()
    )

    def __init__(
        self,
        body: Region | Sequence[Operation] | None = None,
        *,
        attributes: dict[str, Attribute] | None = None,
    ):
        if body is None:
            body = Region(Block())
        elif not isinstance(body, Region):
            body = Region(Block(body))
        super().__init__(
            properties={"function_type": FunctionType.from_lists([], [])},
            regions=[body],
            attributes=attributes,
        )

    def verify_(self) -> None:
        if self.function_type.inputs.data or self.function_type.outputs.data:
            raise VerifyException(
                f"initializers take and return nothing, got {self.function_type}"
            )
        _verify_entry_block(self)

    @classmethod
    def parse(cls, parser: Parser) -> InitializerOp:
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        op = cls(body)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`util.func (visibility)? @name(%arg: type {attrs}, ...) (-> results)?
    (attributes {..})? ({ body })?` -- a function whose results may be tied to
    arguments (`-> %arg0` or `-> %arg0 as type`).

    As in IREE, parsing the custom form always records `tied_operands` (all -1 when
    nothing is tied) once the function has results.
    """

    name = "util.func"

    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    inlining_policy = opt_prop_def(Attribute)
    body = region_def()

    traits = traits_def(
        IsolatedFromAbove(), SymbolOpInterface(), _FunctionLikeCallable()
    )

    def __init__(
        self,
        sym_name: str | StringAttr,
        function_type: FunctionType | tuple[Sequence[Attribute], Sequence[Attribute]],
        body: Region | None = None,
        *,
        visibility: str | StringAttr | None = None,
        tied_operands: Sequence[int | None] | None = None,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
        inlining_policy: Attribute | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        """`body=None` builds a definition with an empty entry block taking the
        arguments; pass `Region()` for an external declaration."""
        if isinstance(function_type, tuple):
            function_type = FunctionType.from_lists(*function_type)
        if isinstance(sym_name, str):
            sym_name = StringAttr(sym_name)
        if isinstance(visibility, str):
            visibility = StringAttr(visibility)
        if body is None:
            body = Region(Block(arg_types=function_type.inputs.data))
        if tied_operands is None and function_type.outputs.data:
            tied_operands = [None] * len(function_type.outputs.data)
        super().__init__(
            properties={
                "sym_name": sym_name,
                "function_type": function_type,
                "sym_visibility": visibility,
                "arg_attrs": arg_attrs,
                "res_attrs": res_attrs,
                "tied_operands": (
                    None if tied_operands is None else tied_operands_attr(tied_operands)
                ),
                "inlining_policy": inlining_policy,
            },
            regions=[body],
            attributes=attributes,
        )

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks

    @property
    def args(self) -> tuple[SSAValue, ...]:
        block = self.body.blocks.first
        assert block is not None, "a declaration has no arguments"
        return block.args

    @property
    def visibility(self) -> str:
        return self.sym_visibility.data if self.sym_visibility else "public"

    def tied_result_operands(self) -> tuple[int | None, ...]:
        """Per result, the argument index it is tied to (None when untied)."""
        return tied_indices(self.tied_operands, len(self.function_type.outputs.data))

    def verify_(self) -> None:
        _verify_entry_block(self)
        verify_tied_operands(
            self,
            self.tied_operands,
            len(self.function_type.outputs.data),
            len(self.function_type.inputs.data),
        )
        for attrs, count, what in (
            (self.arg_attrs, len(self.function_type.inputs.data), "arg_attrs"),
            (self.res_attrs, len(self.function_type.outputs.data), "res_attrs"),
        ):
            if attrs is not None and len(attrs.data) != count:
                raise VerifyException(
                    f"{what} has {len(attrs.data)} entries for {count} values"
                )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        sym_name = parser.parse_symbol_name()

        signature = parse_shaped_signature(parser)
        arguments, input_types = signature.arguments, signature.inputs
        output_types, ties = signature.outputs, signature.ties
        arg_dicts, res_dicts = signature.arg_attrs, signature.res_attrs

        extra = parser.parse_optional_attr_dict_with_keyword()
        extra_attrs = dict(extra.data) if extra is not None else {}
        inlining_policy = extra_attrs.pop("inlining_policy", None)

        region = parser.parse_optional_region(arguments if arguments else None)
        if region is not None and input_types and not arguments:
            parser.raise_error("a function with a body names its arguments")
        op = cls(
            sym_name,
            (input_types, output_types),
            region if region is not None else Region(),
            visibility=visibility,
            tied_operands=ties if output_types else None,
            arg_attrs=ArrayAttr(arg_dicts) if any(d.data for d in arg_dicts) else None,
            res_attrs=ArrayAttr(res_dicts) if any(d.data for d in res_dicts) else None,
            inlining_policy=inlining_policy,
            attributes=extra_attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.visibility} ")
        printer.print_symbol_name(self.sym_name)
        block = self.body.blocks.first
        print_shaped_signature(
            printer, self.function_type, self.tied_result_operands(),
            self.arg_attrs, self.res_attrs, block,
        )
        extra = dict(self.attributes)
        if self.inlining_policy is not None:
            extra["inlining_policy"] = self.inlining_policy
        printer.print_op_attributes(extra, print_keyword=True)
        if block is not None:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)


@irdl_op_definition
class CallOp(IRDLOperation):
    """`util.call @callee(%args) attr-dict : (types) -> results` -- results may be
    tied to call operands (`-> %arg` / `-> %arg as type`).

    Declares no memory effect: unknown, so no pass moves, merges or erases it.
    """

    name = "util.call"

    callee = prop_def(FlatSymbolRefAttrConstr)
    arguments = var_operand_def()
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res = var_result_def()

    def __init__(
        self,
        callee: str | StringAttr | SymbolRefAttr,
        arguments: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        *,
        tied_operands: Sequence[int | None] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if not isinstance(callee, SymbolRefAttr):
            callee = SymbolRefAttr(callee)
        if tied_operands is None and result_types:
            tied_operands = [None] * len(result_types)
        super().__init__(
            operands=[arguments],
            result_types=[result_types],
            properties={
                "callee": callee,
                "tied_operands": (
                    None if tied_operands is None else tied_operands_attr(tied_operands)
                ),
            },
            attributes=attributes,
        )

    def tied_result_operands(self) -> tuple[int | None, ...]:
        return tied_indices(self.tied_operands, len(self.res))

    def verify_(self) -> None:
        verify_tied_operands(
            self, self.tied_operands, len(self.res), len(self.arguments)
        )
        try:
            found = SymbolTable.lookup_symbol(self, self.callee)
        except ValueError:
            return
        if not isinstance(found, FuncOp):
            raise VerifyException(
                f"undefined/incompatible callee: {self.callee.root_reference.data}"
            )
        expected = FunctionType.from_lists(self.arguments.types, self.res.types)
        if found.function_type != expected:
            raise VerifyException(
                f"function type mismatch; expected '{expected}' but callee is "
                f"'{found.function_type}'"
            )

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        callee = parser.parse_attribute()
        if not isinstance(callee, SymbolRefAttr):
            parser.raise_error("expected a callee symbol")
        pos = parser.pos
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        input_types = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        parser.parse_punctuation("->")
        entries = parse_result_list(parser, sized=False)
        if len(input_types) != len(operands):
            parser.raise_error(
                f"{len(operands)} operands but {len(input_types)} operand types", pos
            )
        args = parser.resolve_operands(operands, input_types, pos)
        ties: list[int | None] = []
        result_types: list[Attribute] = []
        for entry in entries:
            tie, type = resolve_tied(parser, entry, operands, input_types)
            ties.append(tie)
            result_types.append(type)
        return cls(
            callee,
            args,
            result_types,
            tied_operands=ties if result_types else None,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_list(self.arguments.types, printer.print_attribute)
        printer.print_string(") -> ")
        ties = self.tied_result_operands()
        print_result_list(
            printer,
            self.res.types,
            [None] * len(self.res),
            [None if t is None else self.arguments[t] for t in ties],
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`util.return ($operands : types)?` -- Pure terminator of initializers and
    functions."""

    name = "util.return"

    operands_ = var_operand_def()

    traits = traits_def(
        Pure(),
        IsTerminator(),
        ReturnLike(),
        HasParent(InitializerOp, FuncOp, HoistableConversionOp),
    )

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        parent = self.parent_op()
        if not isinstance(parent, InitializerOp | FuncOp):
            return
        expected = parent.function_type.outputs.data
        if len(self.operands_) != len(expected):
            raise VerifyException(
                f"has {len(self.operands_)} operands, but enclosing function-like op "
                f"returns {len(expected)}"
            )
        for i, (value, type) in enumerate(zip(self.operands_, expected)):
            if value.type != type:
                raise VerifyException(
                    f"type of return operand {i} ('{value.type}') doesn't match "
                    f"function result type ('{type}')"
                )


# --------------------------------------------------------------------------------
# Types, attributes and small ops the stream-phase IR holds
# --------------------------------------------------------------------------------


@irdl_attr_definition
class UnusedType(ParametrizedAttribute, TypeAttribute):
    """`!util.unused`: the placeholder IREE stores in an encoding list for an
    operand or result that has no encoding (a primitive dispatch operand)."""

    name = "util.unused"


@irdl_attr_definition
class PtrType(ParametrizedAttribute, TypeAttribute):
    """`!util.ptr<T>`: the address of a global of type T."""

    name = "util.ptr"

    target_type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute]:
        with parser.in_angle_brackets():
            return (parser.parse_type(),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.target_type)


def _value_storage_size(type: Attribute) -> int | None:
    """The bytes a value of `type` (a shaped type's elements, or one scalar)
    serializes to."""
    if isinstance(type, ShapedType):
        return packed_storage_bytes(type.element_count(), type.get_element_type())
    return packed_storage_bytes(1, type)


@irdl_attr_definition
class UninitializedAttr(TypeOnlyAttr, SizedStorageAttr):
    """`#util.uninitialized : type`: an initial value with undefined contents."""

    name = "util.uninitialized"

    def storage_size(self) -> int | None:
        return _value_storage_size(self.type)


@irdl_attr_definition
class BytePatternAttr(TypedAttribute, SizedStorageAttr):
    """`#util.byte_pattern<N> : type`: contents made of the repeated byte N."""

    name = "util.byte_pattern"

    pattern: IntAttr
    type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, Attribute]:
        with parser.in_angle_brackets():
            pattern = IntAttr(parser.parse_integer())
        parser.parse_punctuation(":")
        return (pattern, parser.parse_type())

    @staticmethod
    def parse_with_type(parser: AttrParser, type: Attribute) -> TypedAttribute:
        with parser.in_angle_brackets():
            pattern = IntAttr(parser.parse_integer())
        return BytePatternAttr.new((pattern, type))

    def print_without_type(self, printer: Printer) -> None:
        printer.print_string(f"<{self.pattern.data}>")

    def storage_size(self) -> int | None:
        return _value_storage_size(self.type)

    def print_parameters(self, printer: Printer) -> None:
        self.print_without_type(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.type)


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """`util.optimization_barrier %a, ... : types` -- its results are its operands,
    hidden from every optimization (unknown effects: never moved, merged or
    erased)."""

    name = "util.optimization_barrier"

    operands_ = var_operand_def()
    results_ = var_result_def()

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(
            operands=[values], result_types=[[SSAValue.get(v).type for v in values]]
        )

    def verify_(self) -> None:
        if tuple(self.operands_.types) != tuple(self.results_.types):
            raise VerifyException(
                "failed to verify that all of {operands, results} have same type"
            )

    @classmethod
    def parse(cls, parser: Parser) -> OptimizationBarrierOp:
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        operands = []
        first = parser.parse_optional_unresolved_operand()
        types: list[Attribute] = []
        if first is not None:
            operands.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        op = cls(*parser.resolve_operands(operands, types, pos))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.operands_:
            printer.print_string(" ")
            printer.print_list(self.operands_, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list(self.operands_.types, printer.print_attribute)


@irdl_op_definition
class GlobalAddressOp(IRDLOperation):
    """`util.global.address (immutable)? @g : !util.ptr<T>` -- the address of a
    global (lets indirect loads/stores reach it). Pure."""

    name = "util.global.address"

    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")
    is_immutable = opt_prop_def(UnitAttr)
    result = result_def(PtrType)

    traits = traits_def(Pure())

    assembly_format = (
        "(`immutable` $is_immutable^)? $global attr-dict `:` type($result)"
    )


@irdl_op_definition
class GlobalLoadIndirectOp(IRDLOperation):
    """`util.global.load.indirect (immutable)? %ptr : !util.ptr<T> -> T` -- reads
    the global a pointer names (any global: unknown effects)."""

    name = "util.global.load.indirect"

    global_ = operand_def(PtrType)
    is_immutable = opt_prop_def(UnitAttr)
    result = result_def()

    traits = traits_def(UTIL_PATTERNS)

    assembly_format = (
        "(`immutable` $is_immutable^)? $global_ attr-dict `:` "
        "type($global_) `->` type($result)"
    )


@irdl_op_definition
class GlobalStoreIndirectOp(IRDLOperation):
    """`util.global.store.indirect %v, %ptr : T -> !util.ptr<T>` -- writes the
    global a pointer names (any global: unknown effects)."""

    name = "util.global.store.indirect"

    value = operand_def()
    global_ = operand_def(PtrType)

    traits = traits_def(UTIL_PATTERNS)

    assembly_format = (
        "$value `,` $global_ attr-dict `:` type($value) `->` type($global_)"
    )


@irdl_op_definition
class SCFUnreachableOp(IRDLOperation):
    """`util.scf.unreachable ("message")?` -- control never reaches here (inside
    structured control flow, where a terminator cannot be used)."""

    name = "util.scf.unreachable"

    message = opt_prop_def(StringAttr)

    traits = traits_def(UTIL_PATTERNS)

    assembly_format = "($message^)? attr-dict"


@irdl_op_definition
class UnreachableOp(IRDLOperation):
    """`util.unreachable ("message")?` -- a terminator: control never reaches the
    end of this block. No memory effect."""

    name = "util.unreachable"

    message = opt_prop_def(StringAttr)

    traits = traits_def(NoMemoryEffect(), IsTerminator(), ReturnLike())

    assembly_format = "($message^)? attr-dict"


Util = Dialect(
    "util",
    [
        GlobalOp,
        GlobalLoadOp,
        GlobalStoreOp,
        InitializerOp,
        FuncOp,
        CallOp,
        ReturnOp,
        OptimizationBarrierOp,
        GlobalAddressOp,
        GlobalLoadIndirectOp,
        GlobalStoreIndirectOp,
        SCFUnreachableOp,
        UnreachableOp,
        *VALUE_OPS,
        *BUFFER_OPS,
    ],
    [
        InlineNeverAttr,
        InlineAlwaysAttr,
        *VALUE_ATTRIBUTES,
        *BUFFER_ATTRIBUTES,
        UnusedType,
        PtrType,
        UninitializedAttr,
        BytePatternAttr,
    ],
)
