"""The `hip` dialect: GPU-runtime ops with ROCm hip-ep's surface syntax.

memplan reads and writes hip-ep's textual IR so that its dumps can be fed to the
memory passes unchanged. The ops matter to those passes for *when* and *what* they
touch, not for what they compute, so each op declares memplan's interfaces
(`memplan.interfaces`) instead of being special-cased by name:

- kernel ops (`hip.matmul(%ctx) ins(..) outs(..)`, ~90 of them from one table, plus
  `hip.launch @name(..)` for any other kernel) are enqueued on the context's in-order
  stream (`StreamExecution(0)`), read their `ins` and write their `outs`;
- `hip.synchronize(%ctx)` makes the host wait for that stream
  (`StreamSynchronization(0)`);
- `hip.get_pool`, `hip.get_host_scratch`, `hip.alloc` allocate their result and
  `hip.free` frees its buffer, each effect tied to its value so that CSE never merges
  two allocations and DCE may drop an unused one.

See docs/design/dialect-hip.md for the syntax and the execution model behind it.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloatConstr,
    ArrayAttr,
    DYNAMIC_INDEX,
    I64,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i8,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import MemoryWriteEffect
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from memplan.interfaces import (
    ContextMemory,
    OperandEffects,
    StreamExecution,
    StreamSynchronization,
    all_results,
    buffer_operands_named,
    operands_named,
)

__all__ = [
    "KERNELS",
    "KERNEL_OPS",
    "AllocOp",
    "AllocOutputOp",
    "ContextType",
    "ElementRule",
    "FreeOp",
    "GetHostScratchOp",
    "GetPoolOp",
    "Hip",
    "KernelOp",
    "KernelSpec",
    "LaunchOp",
    "ReadbackDimOp",
    "ReadbackScalarOp",
    "SynchronizeOp",
    "kernel_op",
]


# --------------------------------------------------------------------------- types


@irdl_attr_definition
class ContextType(ParametrizedAttribute, TypeAttribute):
    """`!hip.context`: the runtime handle; it names the device stream that kernel ops
    are enqueued on and that `hip.synchronize` waits for."""

    name = "hip.context"


# ------------------------------------------------------------------ shared helpers


def _op_prefix(op: Operation) -> str:
    """MLIR's diagnostic prefix, so messages read like `mlir-opt`'s."""
    return f"'{op.name}' op"


def _verify_context(op: Operation, value: SSAValue) -> None:
    if not isinstance(value.type, ContextType):
        raise VerifyException(
            f"{_op_prefix(op)} operand #0 must be !hip.context, but got {value.type}"
        )


def _verify_index(op: Operation, value: SSAValue, what: str) -> None:
    if not isinstance(value.type, IndexType):
        raise VerifyException(f"{_op_prefix(op)} {what} must be index, but got {value.type}")


def _parse_context_call(parser: Parser, count: int | None) -> list[UnresolvedOperand]:
    """Parse `(%ctx, %a, ...)`; `count` operands in total, or at least one if None."""
    pos = parser.pos
    operands = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )
    if count is not None and len(operands) != count:
        parser.raise_error(f"expected {count} operands, got {len(operands)}", pos, parser.pos)
    if not operands:
        parser.raise_error("expected the !hip.context operand", pos, parser.pos)
    return operands


def _split_props(
    attrs: dict[str, Attribute], names: Sequence[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Move inherent attributes written in the attr-dict into properties."""
    props = {name: attrs.pop(name) for name in names if name in attrs}
    return props, attrs


# ---------------------------------------------------------------- kernel family


class ElementRule(enum.Enum):
    """Which operands of a kernel must share an element type (hip-ep follows ONNX's
    type constraints; only those that hold for every kernel of a kind are checked)."""

    NONE = "none"
    ALL = "all"  # every in and out: elementwise arithmetic, transpose, concat
    INS = "ins"  # the inputs only: comparisons, whose output is boolean
    FIRST = "first"  # ins[0] and outs[0]: data operand vs result (gather, pad, topk)


@dataclass(frozen=True)
class KernelSpec:
    """One row of the kernel table: the op name after `hip.` and its operand counts
    (`None` as a maximum means unbounded)."""

    name: str
    ins: tuple[int, int | None]
    outs: tuple[int, int | None] = (1, 1)
    elements: ElementRule = ElementRule.NONE

    @property
    def class_name(self) -> str:
        return "".join(p.capitalize() for p in re.split(r"[._]", self.name)) + "Op"


def _k(name: str, ins: int | tuple[int, int | None], outs: int | tuple[int, int | None] = 1,
       elements: ElementRule = ElementRule.NONE) -> KernelSpec:
    return KernelSpec(
        name,
        ins if isinstance(ins, tuple) else (ins, ins),
        outs if isinstance(outs, tuple) else (outs, outs),
        elements,
    )


_ALL, _INS, _FIRST = ElementRule.ALL, ElementRule.INS, ElementRule.FIRST
_ANY = (0, None)
_SOME = (1, None)

_UNARY_SAME = (
    "abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "sin", "cos", "floor",
    "ceil", "round", "sign", "erf", "relu", "leaky_relu", "elu", "gelu", "fast_gelu",
    "quick_gelu", "silu", "sigmoid", "hard_sigmoid", "softplus", "tanh", "not",
    "softmax", "log_softmax", "miopen.softmax", "transpose", "identity", "copy",
)
_BINARY_SAME = (
    "add", "sub", "mul", "div", "mod", "and", "or", "xor", "miopen.add",
    "bias_gelu", "bias_add",
)
_COMPARE = ("equal", "less", "less_equal", "greater", "greater_equal")

KERNELS: tuple[KernelSpec, ...] = (
    *(_k(n, 1, 1, _ALL) for n in _UNARY_SAME),
    *(_k(n, 2, 1, _ALL) for n in _BINARY_SAME),
    *(_k(n, 2, 1, _INS) for n in _COMPARE),
    _k("max", _SOME, 1, _ALL),  # ONNX Max/Min are variadic
    _k("min", _SOME, 1, _ALL),
    _k("pow", 2),
    _k("cast", 1),
    _k("is_nan", 1),
    _k("clip", (1, 3), 1, _ALL),
    _k("where", 3),
    # linear algebra and convolution: a bias input is optional
    _k("matmul", (2, 3)),
    _k("batch_matmul", (2, 3)),
    _k("gemm", (2, 3)),
    _k("matmul_nbits", (3, 5)),
    _k("matmul_integer", (2, 4)),
    _k("conv", (2, 3)),
    _k("conv_transpose", (2, 3)),
    _k("miopen.conv", (2, 3)),
    _k("einsum", _SOME),
    # normalization, attention, positional encoding
    _k("rms_norm", (1, 2), (1, 2), _FIRST),
    _k("skip_rms_norm", (2, 4), (1, 4), _FIRST),
    _k("layer_norm", (1, 3), (1, 3), _FIRST),
    _k("skip_layer_norm", (2, 5), (1, 4), _FIRST),
    _k("group_norm", (1, 3), 1, _FIRST),
    _k("instance_norm", 3, 1, _FIRST),
    _k("batch_norm", 5, (1, 3), _FIRST),
    _k("rope", (2, 4), 1, _FIRST),
    _k("attention", _SOME, (1, 3)),
    _k("multi_head_attention", _SOME, (1, 3)),
    _k("group_query_attention", _SOME, (1, 3)),
    # reductions and index-producing ops
    *(_k(n, (1, 2), 1, _FIRST) for n in (
        "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
        "reduce_l2", "reduce_sum_square", "cumsum",
    )),
    _k("argmax", 1),
    _k("argmin", 1),
    _k("topk", (1, 2), 2, _FIRST),
    # data movement and shape manipulation
    _k("gather", 2, 1, _FIRST),
    _k("gather_elements", 2, 1, _FIRST),
    _k("gather_nd", 2, 1, _FIRST),
    _k("scatter_nd", 3, 1, _FIRST),
    _k("scatter_elements", 3, 1, _FIRST),
    _k("pad", (1, 4), 1, _FIRST),
    _k("tile", (1, 2), 1, _FIRST),
    _k("expand", (1, 2), 1, _FIRST),
    _k("slice", (1, 5), 1, _FIRST),
    _k("concat", _SOME, 1, _ALL),
    _k("split", (1, 2), _SOME, _FIRST),
    _k("trilu", (1, 2), 1, _FIRST),
    _k("resize", (1, 4), 1, _FIRST),
    _k("depth_to_space", 1, 1, _ALL),
    _k("space_to_depth", 1, 1, _ALL),
    _k("one_hot", 3),
    _k("range", 3, 1, _ALL),
    _k("fill", (0, 1)),
    _k("embedding", 2),
    # pooling
    _k("max_pool", 1, (1, 2), _FIRST),
    _k("average_pool", 1, 1, _ALL),
    _k("global_average_pool", 1, 1, _ALL),
    _k("global_max_pool", 1, 1, _ALL),
    # quantization
    _k("quantize_linear", (2, 3)),
    _k("dequantize_linear", (2, 3)),
)
"""hip-ep's kernels memplan knows by name. Any other kernel is `hip.launch @name`."""


def _memref_operands(op: KernelOp, group: str, values: Sequence[SSAValue]) -> None:
    for i, value in enumerate(values):
        if not isinstance(value.type, MemRefType):
            raise VerifyException(
                f"{_op_prefix(op)} {group} operand #{i} must be a ranked memref, "
                f"but got {value.type}"
            )


def _count(op: KernelOp, group: str, got: int, bounds: tuple[int, int | None]) -> None:
    low, high = bounds
    if low <= got and (high is None or got <= high):
        return
    if high is None:
        want, last = f"at least {low}", low
    elif low == high:
        want, last = f"{low}", low
    else:
        want, last = f"{low} to {high}", high
    noun = "operand" if last == 1 else "operands"
    raise VerifyException(f"{_op_prefix(op)} expects {want} {group} {noun}, but got {got}")


def _same_elements(op: KernelOp, what: str, values: Sequence[SSAValue]) -> None:
    types = [v.type.element_type for v in values if isinstance(v.type, MemRefType)]
    for t in types[1:]:
        if t != types[0]:
            raise VerifyException(
                f"{_op_prefix(op)} expects {what} to have the same element type, "
                f"but got {types[0]} and {t}"
            )


class KernelOp(IRDLOperation):
    """The shared definition of every hip kernel op (destination-passing style).

    `hip.<kernel>(%ctx) ins(%a, ... : T, ...) outs(%c, ... : T, ...) {attrs}`

    The op is enqueued on `%ctx`'s in-order stream and returns at once: it reads
    `ins` and writes `outs` later, after the device work enqueued before it. Every
    kernel op class is made from one `KernelSpec` row by `kernel_op`, and shares the
    parser, printer and verifier below; `SPEC` is None for `hip.launch`.
    """

    SPEC: ClassVar[KernelSpec | None] = None

    ctx = operand_def()
    ins = var_operand_def()
    outs = var_operand_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(
        StreamExecution(0),
        OperandEffects(reads=operands_named("ins"), writes=operands_named("outs")),
    )

    def __init__(
        self,
        ctx: SSAValue | Operation,
        ins: Sequence[SSAValue | Operation] = (),
        outs: Sequence[SSAValue | Operation] = (),
        attributes: Mapping[str, Attribute] | None = None,
        properties: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=(ctx, ins, outs),
            attributes=dict(attributes or {}),
            properties=dict(properties or {}),
        )

    # The part between the op name and `(%ctx)`; `hip.launch` puts `@kernel` there.
    def _print_head(self, printer: Printer) -> None:
        pass

    def print(self, printer: Printer) -> None:
        self._print_head(printer)
        printer.print_string("(")
        printer.print_operand(self.ctx)
        printer.print_string(")")
        if self.ins:
            self._print_group(printer, "ins", self.ins)
        self._print_group(printer, "outs", self.outs)
        printer.print_op_attributes(self.attributes)

    @staticmethod
    def _print_group(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
        printer.print_string(f" {keyword}(")
        if values:
            printer.print_list(values, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in values], printer.print_attribute)
        printer.print_string(")")

    @staticmethod
    def _parse_group(parser: Parser, keyword: str) -> list[SSAValue]:
        """`( (%v, ... : T, ...)? )` after `keyword`."""
        parser.parse_punctuation("(", f" after '{keyword}'")
        if parser.parse_optional_punctuation(")") is not None:
            return []
        pos = parser.pos
        names = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":", f" before the types of '{keyword}'")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        end = parser.pos
        parser.parse_punctuation(")")
        if len(types) != len(names):
            parser.raise_error(
                f"'{keyword}' has {len(names)} operands but {len(types)} types", pos, end
            )
        return [parser.resolve_operand(n, t) for n, t in zip(names, types)]

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        ctx, ins, outs, attrs = cls._parse_body(parser)
        return cls(ctx, ins, outs, attributes=attrs)

    @classmethod
    def _parse_body(
        cls, parser: Parser
    ) -> tuple[SSAValue, list[SSAValue], list[SSAValue], dict[str, Attribute]]:
        """`(%ctx) (ins(..))? outs(..) attr-dict`."""
        (ctx_name,) = _parse_context_call(parser, 1)
        ctx = parser.resolve_operand(ctx_name, ContextType())
        ins: list[SSAValue] = []
        if parser.parse_optional_keyword("ins") is not None:
            ins = cls._parse_group(parser, "ins")
        parser.parse_keyword("outs")
        outs = cls._parse_group(parser, "outs")
        attrs = parser.parse_optional_attr_dict()
        return ctx, ins, outs, attrs

    def verify_(self) -> None:
        _verify_context(self, self.ctx)
        _memref_operands(self, "ins", self.ins)
        _memref_operands(self, "outs", self.outs)
        spec = self.SPEC
        if spec is None:
            _count(self, "outs", len(self.outs), _SOME)
            return
        _count(self, "ins", len(self.ins), spec.ins)
        _count(self, "outs", len(self.outs), spec.outs)
        if spec.elements is ElementRule.ALL:
            _same_elements(self, "all ins and outs", (*self.ins, *self.outs))
        elif spec.elements is ElementRule.INS:
            _same_elements(self, "all ins", self.ins)
        elif spec.elements is ElementRule.FIRST and self.ins:
            _same_elements(self, "ins #0 and outs #0", (self.ins[0], self.outs[0]))


def kernel_op(spec: KernelSpec) -> type[KernelOp]:
    """Make the op class `hip.<spec.name>` from a kernel table row."""
    cls = type(
        spec.class_name,
        (KernelOp,),
        {
            "__module__": __name__,
            "__qualname__": spec.class_name,
            "__doc__": f"`hip.{spec.name}`: a kernel op; see `KernelOp`.",
            "__annotations__": {"SPEC": "ClassVar[KernelSpec]"},
            "name": f"hip.{spec.name}",
            "SPEC": spec,
        },
    )
    return irdl_op_definition(cls)


KERNEL_OPS: dict[str, type[KernelOp]] = {
    f"hip.{spec.name}": kernel_op(spec) for spec in KERNELS
}
globals().update({cls.__name__: cls for cls in KERNEL_OPS.values()})


@irdl_op_definition
class LaunchOp(KernelOp):
    """`hip.launch @kernel(%ctx) ins(..) outs(..) {attrs}`: a kernel memplan does not
    list, with the same execution model and effects as the listed ones."""

    name = "hip.launch"

    kernel = prop_def(SymbolRefAttr)

    def __init__(
        self,
        kernel: str | SymbolRefAttr,
        ctx: SSAValue | Operation,
        ins: Sequence[SSAValue | Operation] = (),
        outs: Sequence[SSAValue | Operation] = (),
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if isinstance(kernel, str):
            kernel = SymbolRefAttr(kernel)
        super().__init__(ctx, ins, outs, attributes, {"kernel": kernel})

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        root = parser.parse_optional_symbol_name()
        if root is None:
            parser.raise_error("expected a kernel symbol such as @name")
        nested: list[StringAttr] = []
        while parser.parse_optional_punctuation(":") is not None:
            parser.parse_punctuation(":", " in a nested symbol reference")
            nested.append(parser.parse_symbol_name())
        kernel = SymbolRefAttr(root, ArrayAttr(nested))
        ctx, ins, outs, attrs = cls._parse_body(parser)
        return cls(kernel, ctx, ins, outs, attrs)

    def _print_head(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.kernel)


# ------------------------------------------------------------------- allocation


def _verify_byte_buffer(op: Operation, t: Attribute) -> None:
    if (
        not isinstance(t, MemRefType)
        or t.get_num_dims() != 1
        or t.element_type != i8
        or not isinstance(t.layout, NoneAttr)
    ):
        raise VerifyException(
            f"{_op_prefix(op)} result must be a 1-D memref of i8 with the identity "
            f"layout (memref<?xi8>), but got {t}"
        )


class _SizedBufferOp(IRDLOperation):
    """`hip.<op>(%ctx, %size) attr-dict : memref<?xi8>`: runtime memory of `%size`
    bytes, allocated by this op (so never merged with another one by CSE)."""

    ctx = operand_def()
    size = operand_def()
    result = result_def()

    traits = traits_def(OperandEffects(allocates=all_results))

    INHERENT: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        ctx: SSAValue | Operation,
        size: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
        properties: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=(ctx, size),
            result_types=(result_type or MemRefType(i8, [DYNAMIC_INDEX]),),
            attributes=dict(attributes or {}),
            properties=dict(properties or {}),
        )

    @classmethod
    def parse(cls, parser: Parser) -> _SizedBufferOp:
        ctx_name, size_name = _parse_context_call(parser, 2)
        props, attrs = _split_props(parser.parse_optional_attr_dict(), cls.INHERENT)
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        ctx = parser.resolve_operand(ctx_name, ContextType())
        size = parser.resolve_operand(size_name, IndexType())
        return cls(ctx, size, result_type, attrs, props)

    def _printed_properties(self) -> dict[str, Attribute]:
        return dict(self.properties)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list((self.ctx, self.size), printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self._printed_properties() | dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _verify_context(self, self.ctx)
        _verify_index(self, self.size, "size operand")
        _verify_byte_buffer(self, self.result.type)


@irdl_op_definition
class GetPoolOp(_SizedBufferOp):
    """`%pool = hip.get_pool(%ctx, %size) {domain_id = N : i64} : memref<?xi8>`.

    The device memory pool of one planning domain (`pool-allocs` views every planned
    buffer into it). `domain_id` defaults to 0 and is then not printed.
    """

    name = "hip.get_pool"

    domain_id = opt_prop_def(IntegerAttr[I64])

    traits = traits_def(
        OperandEffects(allocates=all_results), ContextMemory(0, lambda op: op.domain)
    )

    irdl_options = (ParsePropInAttrDict(),)

    INHERENT: ClassVar[tuple[str, ...]] = ("domain_id",)

    def __init__(
        self,
        ctx: SSAValue | Operation,
        size: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
        properties: Mapping[str, Attribute] | None = None,
        *,
        domain: int | None = None,
    ):
        properties = dict(properties or {})
        if domain is not None:
            properties["domain_id"] = IntegerAttr(domain, 64)
        super().__init__(ctx, size, result_type, attributes, properties)

    @property
    def domain(self) -> int:
        """The pool domain; 0 when `domain_id` is absent."""
        return 0 if self.domain_id is None else self.domain_id.value.data

    def _printed_properties(self) -> dict[str, Attribute]:
        props = dict(self.properties)
        if self.domain == 0:
            props.pop("domain_id", None)
        return props

    def verify_(self) -> None:
        super().verify_()
        if self.domain < 0:
            raise VerifyException(
                f"{_op_prefix(self)} domain_id must be non-negative, but got {self.domain}"
            )


@irdl_op_definition
class GetHostScratchOp(_SizedBufferOp):
    """`%s = hip.get_host_scratch(%ctx, %size) : memref<?xi8>`.

    Runtime-owned host-mapped memory: the host writes it with plain stores and the
    device reads it directly (`materialize-host-scalars` moves host-fed scalars
    here).
    """

    name = "hip.get_host_scratch"

    traits = traits_def(OperandEffects(allocates=all_results), ContextMemory(0))


@irdl_op_definition
class AllocOp(IRDLOperation):
    """`%x = hip.alloc(%ctx, %d0, ...) attr-dict : memref<?x128xf32>`.

    A device buffer from the runtime, one index operand per dynamic dimension.
    """

    name = "hip.alloc"

    ctx = operand_def()
    dynamic_sizes = var_operand_def()
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(OperandEffects(allocates=all_results))

    def __init__(
        self,
        ctx: SSAValue | Operation,
        result_type: Attribute,
        dynamic_sizes: Sequence[SSAValue | Operation] = (),
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=(ctx, dynamic_sizes),
            result_types=(result_type,),
            attributes=dict(attributes or {}),
        )

    @classmethod
    def parse(cls, parser: Parser) -> AllocOp:
        ctx_name, *size_names = _parse_context_call(parser, None)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        ctx = parser.resolve_operand(ctx_name, ContextType())
        sizes = [parser.resolve_operand(n, IndexType()) for n in size_names]
        return cls(ctx, result_type, sizes, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list((self.ctx, *self.dynamic_sizes), printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _verify_context(self, self.ctx)
        t = self.result.type
        if not isinstance(t, MemRefType):
            raise VerifyException(f"{_op_prefix(self)} result must be a ranked memref, but got {t}")
        if not isinstance(t.layout, NoneAttr | StridedLayoutAttr):
            raise VerifyException(
                f"{_op_prefix(self)} result must have the identity or a strided layout, "
                f"but got {t}"
            )
        dynamic = sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX)
        if dynamic != len(self.dynamic_sizes):
            raise VerifyException(
                f"{_op_prefix(self)} has {len(self.dynamic_sizes)} dynamic size operands "
                f"but its result type {t} has {dynamic} dynamic dimensions"
            )
        for i, size in enumerate(self.dynamic_sizes):
            _verify_index(self, size, f"dynamic size operand #{i}")


@irdl_op_definition
class FreeOp(IRDLOperation):
    """`hip.free(%ctx, %x) attr-dict : memref<..>`: returns a `hip.alloc` buffer to the
    runtime. A host op: it waits for nothing, so it implies no device ordering."""

    name = "hip.free"

    ctx = operand_def()
    memref = operand_def()

    traits = traits_def(OperandEffects(frees=operands_named("memref")))

    def __init__(
        self,
        ctx: SSAValue | Operation,
        memref: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(operands=(ctx, memref), attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> FreeOp:
        ctx_name, buffer_name = _parse_context_call(parser, 2)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        buffer_type = parser.parse_type()
        ctx = parser.resolve_operand(ctx_name, ContextType())
        buffer = parser.resolve_operand(buffer_name, buffer_type)
        return cls(ctx, buffer, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list((self.ctx, self.memref), printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)

    def verify_(self) -> None:
        _verify_context(self, self.ctx)
        if not isinstance(self.memref.type, MemRefType):
            raise VerifyException(
                f"{_op_prefix(self)} operand #1 must be a ranked memref, "
                f"but got {self.memref.type}"
            )


# -------------------------------------------------------------- synchronization


@irdl_op_definition
class SynchronizeOp(IRDLOperation):
    """`hip.synchronize(%ctx) attr-dict`: the host waits until `%ctx`'s stream is empty.

    After it, every device access enqueued before it has completed, so later host
    accesses are ordered after them (DESIGN.md section 2, rule 4). It declares a write
    to the context so that no cleanup pass deletes, merges or moves it.
    """

    name = "hip.synchronize"

    ctx = operand_def()

    traits = traits_def(
        StreamSynchronization(0),
        OperandEffects(writes=operands_named("ctx")),
    )

    def __init__(self, ctx: SSAValue | Operation, attributes: Mapping[str, Attribute] | None = None):
        super().__init__(operands=(ctx,), attributes=dict(attributes or {}))

    @classmethod
    def parse(cls, parser: Parser) -> SynchronizeOp:
        (ctx_name,) = _parse_context_call(parser, 1)
        attrs = parser.parse_optional_attr_dict()
        return cls(parser.resolve_operand(ctx_name, ContextType()), attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.ctx)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _verify_context(self, self.ctx)


# ------------------------------------------------- graph outputs and read-backs


_TENSOR_OR_MEMREF = base(TensorType) | base(MemRefType)


def _verify_dynamic_sizes(op: Operation, t: MemRefType, sizes: Sequence[SSAValue]) -> None:
    """hip-ep's rule for `hip.alloc_output`: one size operand per `?` of the result."""
    dynamic = sum(1 for d in t.get_shape() if d == DYNAMIC_INDEX)
    if dynamic != len(sizes):
        raise VerifyException(
            f"{_op_prefix(op)} expected {dynamic} dynamic size operand(s), got {len(sizes)}"
        )


@irdl_op_definition
class AllocOutputOp(IRDLOperation):
    """`%out = hip.alloc_output(%ctx, %d0, ...) {out_idx = N : i64} : memref<..>`.

    The buffer of graph output `out_idx`, from the runtime's output allocator. It is
    deliberately NOT an allocation: the runtime owns it (it leaves the graph), so no
    planner may pool it, give its bytes away or free it, and it has no
    `PlannableAllocation` model. Like hip-ep, it declares a WRITE not tied to a
    value (it changes the allocator's state): no cleanup pass deletes or merges it.
    """

    name = "hip.alloc_output"

    ctx = operand_def(ContextType)
    dynamic_sizes = var_operand_def(IndexType)
    out_idx = prop_def(IntegerAttr[I64])
    memref = result_def(MemRefType)

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "`(` $ctx (`,` $dynamic_sizes^)? `)` attr-dict `:` type($memref)"

    def __init__(
        self,
        ctx: SSAValue | Operation,
        result_type: MemRefType,
        out_idx: int,
        dynamic_sizes: Sequence[SSAValue | Operation] = (),
    ):
        super().__init__(
            operands=(ctx, dynamic_sizes),
            result_types=(result_type,),
            properties={"out_idx": IntegerAttr(out_idx, 64)},
        )

    def verify_(self) -> None:
        assert isinstance(self.memref.type, MemRefType)
        _verify_dynamic_sizes(self, self.memref.type, self.dynamic_sizes)


class _ReadbackOp(IRDLOperation):
    """`%v = hip.<readback>(%ctx, %scalar : memref<..>) attr-dict -> T`.

    The host first waits for `%ctx`'s stream (`StreamSynchronization(0)`), so the
    kernel that wrote `%scalar` has completed, then copies the value back. These are
    hip-ep's synchronizing points: after one, every device access enqueued before it
    has completed, exactly as after memplan's `hip.synchronize`. The read is a host
    access, tied to `%scalar` in memref form; in tensor form (before bufferization)
    no memory is touched yet.
    """

    ctx = operand_def(ContextType)
    scalar = operand_def(_TENSOR_OR_MEMREF)

    traits = traits_def(
        StreamSynchronization(0), OperandEffects(reads=buffer_operands_named("scalar"))
    )
    assembly_format = (
        "`(` $ctx `,` $scalar `:` type($scalar) `)` attr-dict `->` type($result)"
    )

    def __init__(self, ctx: SSAValue | Operation, scalar: SSAValue | Operation,
                 result_type: Attribute):
        super().__init__(operands=(ctx, scalar), result_types=(result_type,))


@irdl_op_definition
class ReadbackScalarOp(_ReadbackOp):
    """`%v = hip.readback_scalar(%ctx, %buf : memref<i64>) -> i64`: a device scalar
    of any integer, float or index type back to the host, same type; see
    `_ReadbackOp`."""

    name = "hip.readback_scalar"

    result = result_def(base(IntegerType) | base(IndexType) | AnyFloatConstr)


@irdl_op_definition
class ReadbackDimOp(_ReadbackOp):
    """`%n = hip.readback_dim(%ctx, %count : memref<i32>) -> index`: a device extent
    back to the host as an index; see `_ReadbackOp`."""

    name = "hip.readback_dim"

    result = result_def(IndexType)


Hip = Dialect(
    "hip",
    [
        *KERNEL_OPS.values(),
        LaunchOp,
        GetPoolOp,
        GetHostScratchOp,
        AllocOp,
        FreeOp,
        SynchronizeOp,
        AllocOutputOp,
        ReadbackScalarOp,
        ReadbackDimOp,
    ],
    [ContextType],
)
