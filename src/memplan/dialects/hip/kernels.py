"""hip-ep's kernel ops (destination-passing style), as one table-driven family.

Every kernel of ROCm hip-ep's `HipOps.td` that derives from its DPS base is a row of
`KERNELS`: the operands in the order hip-ep declares them, which of them are
optional or variadic, which sit in `ins(..)`, which behind their own keyword
(`zero_points(..)`, `cval(..)`) and which in `outs(..)`, the inherent attributes
with their types and defaults, and whether tensor-mode results are written
`-> T` (hip-ep's hand-written parsers) or `: T` (its declarative formats).
`kernel_op(spec)` makes the op class; parser, printer, verifier and traits are
shared by all of them (`KernelOp`).

    hip.matmul(%ctx) ins(%a, %b : memref<..>, memref<..>) outs(%c : memref<..>)
    %r = hip.silu(%ctx) ins(%x : tensor<..>) outs(%y : tensor<..>) -> tensor<..>
    %r = hip.sigmoid(%ctx) ins(%x : tensor<..>) outs(%y : tensor<..>) : tensor<..>

Memory behaviour, declared on the family: a kernel is enqueued on `%ctx`'s in-order
stream (`StreamExecution(0)`), reads its memref inputs and writes its memref
outputs. Tensor operands are values, not memory: a kernel in tensor mode has no
memory effects, and the memory passes see nothing to plan.

The verifier checks a row's attributes first, as ODS's generated verifier does
(required ones present, each of its declared kind, in ODS's words), then hip-ep's
DPS rule for every row (all operands tensors or all memrefs; one tensor result per
destination in tensor mode, none in memref mode), then a row's own `check` where
hip-ep's HipDialect.cpp has a verifier (matmul's shapes, layer_norm's output count,
transpose's `perm`, gqa's quantization and paired operands).

memplan's own `memplan.launch @name(..)` (`memplan_dialect.py`), for kernels no
table lists, shares `KernelOp`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import MemoryEffectKind
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.constraints import AttrConstraint, EqAttrConstraint, VerificationContext
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Span

from memplan.dialects.hip.base import (
    ContextType,
    op_prefix,
    print_attr_dict,
    verify_context,
)
from memplan.interfaces import (
    OperandEffects,
    SignaturePrinter,
    SignatureVerifier,
    StreamExecution,
    buffer_operands_named,
    is_buffer,
)
from memplan.parsing import TypeCachingParser

__all__ = [
    "KERNELS",
    "KERNEL_OPS",
    "KernelOp",
    "KernelSpec",
    "kernel_op",
    "parse_typed_operands",
    "print_typed_operands",
    "verify_data_operands",
    "verify_destination_style",
    "verify_dps_modes",
]


# ------------------------------------------------------------------ the table


@dataclass(frozen=True)
class Operand:
    """One data operand: its name, `"one"`, `"optional"` or `"variadic"`, and the
    clause it is written in (`"ins"`, `"outs"`, or the keyword of its own group)."""

    name: str
    arity: str
    clause: str


@dataclass(frozen=True)
class AttrSpec:
    """An inherent attribute: its name, type constraint, and default (None: the
    attribute is required; `UnitAttr` ones are optional flags)."""

    name: str
    kind: str
    default: Attribute | None

    @property
    def required(self) -> bool:
        return self.default is None and self.kind != "unit"

    def verify(self, op: Operation) -> None:
        """ODS's generated check, in its words: a required attribute is present, and
        a present one has the declared kind."""
        value = op.properties.get(self.name)
        if value is None:
            if self.required:
                raise VerifyException(f"{op_prefix(op)} requires attribute '{self.name}'")
            return
        constraint, description = _ATTR_KINDS[self.kind]
        try:
            constraint.verify(value, VerificationContext())
        except VerifyException:
            raise VerifyException(
                f"{op_prefix(op)} attribute '{self.name}' failed to satisfy constraint: "
                f"{description}"
            ) from None


_ATTR_KINDS: dict[str, tuple[AttrConstraint, str]] = {
    "i64": (IntegerAttr.constr(type=EqAttrConstraint(i64)), "64-bit signless integer attribute"),
    "i32": (IntegerAttr.constr(type=EqAttrConstraint(i32)), "32-bit signless integer attribute"),
    "f32": (FloatAttr.constr(type=base(Float32Type)), "32-bit float attribute"),
    "f64": (FloatAttr.constr(type=base(Float64Type)), "64-bit float attribute"),
    "str": (base(StringAttr), "string attribute"),
    "bool": (IntegerAttr.constr(type=EqAttrConstraint(i1)), "bool attribute"),
    "i64s": (ArrayAttr.constr(IntegerAttr.constr(type=EqAttrConstraint(i64))),
             "64-bit integer array attribute"),
    "unit": (base(UnitAttr), "unit attribute"),
}
"""Each kind's constraint and the description ODS gives it (MLIR's verifier says
"attribute 'to' failed to satisfy constraint: 64-bit signless integer attribute")."""


def _default(kind: str, text: str) -> Attribute:
    if kind == "i64":
        return IntegerAttr(int(text), 64)
    if kind == "f32":
        return FloatAttr(float(text), f32)
    if kind == "f64":
        return FloatAttr(float(text), f64)
    if kind == "str":
        return StringAttr(text)
    if kind == "bool":
        return BoolAttr(text == "true", i1)
    raise ValueError(f"no default for {kind} attributes")


@dataclass(frozen=True)
class KernelSpec:
    """One row of the kernel table (see the module docstring)."""

    name: str
    operands: tuple[Operand, ...]
    attrs: tuple[AttrSpec, ...] = ()
    ctx: str = "ctx"
    arrow: bool = False
    """Tensor-mode results after `->` (hip-ep's custom parsers), else after `:`."""
    head: str | None = None
    """An i32 attribute written `name(N)` between `(%ctx)` and `ins`."""
    check: Callable[[KernelOp], None] | None = None
    """A rule of this kernel's own, after the family's (hip-ep's per-op verifier)."""

    @property
    def class_name(self) -> str:
        return "".join(p.capitalize() for p in re.split(r"[._]", self.name)) + "Op"

    def clause(self, clause: str) -> tuple[Operand, ...]:
        return tuple(o for o in self.operands if o.clause == clause)

    @cached_property
    def keywords(self) -> tuple[str, ...]:
        """(kept: each kernel's memory effects ask for it)"""
        return tuple(o.clause for o in self.operands if o.clause not in ("ins", "outs"))

    @cached_property
    def single_operands(self) -> int:
        """How many data operands are exactly one value (asked per kernel sliced)."""
        return sum(1 for o in self.operands if o.arity == "one")

    def with_defaults(self, properties: Mapping[str, Attribute]) -> dict[str, Attribute]:
        merged = _defaults(self) | dict(properties)
        segments = merged.pop("operandSegmentSizes", None)
        ordered = dict(sorted(merged.items()))
        if segments is not None:
            ordered["operandSegmentSizes"] = segments
        return ordered

    @property
    def defaults(self) -> dict[str, Attribute]:
        return {a.name: a.default for a in self.attrs if a.default is not None}


def _operands(text: str, clause: str) -> list[Operand]:
    out = []
    for word in text.split():
        arity = {"?": "optional", "*": "variadic"}.get(word[-1], "one")
        out.append(Operand(word.rstrip("?*"), arity, clause))
    return out


def _k(name: str, ins: str, outs: str = "output", attrs: str = "", *, kw: str = "",
       ctx: str = "ctx", arrow: bool = False, head: str | None = None,
       check: Callable[[KernelOp], None] | None = None) -> KernelSpec:
    """A table row in short form: `ins`/`outs` are operand names (`x?` optional,
    `x*` variadic); `kw` the keyword groups (`cval=constant_value` when the keyword
    is not the operand's name), each one optional operand; `attrs` entries
    `name:kind` (required) or `name:kind=default`."""
    operands = _operands(ins, "ins")
    for word in kw.split():
        keyword, _, operand = word.partition("=")
        operands.append(Operand(operand or keyword, "optional", keyword))
    operands += _operands(outs, "outs")
    specs = []
    for word in attrs.split():
        decl, has_default, default = word.partition("=")
        attr, _, kind = decl.partition(":")
        value = _default(kind, default) if has_default else None
        specs.append(AttrSpec(attr, kind, value))
    return KernelSpec(name, tuple(operands), tuple(specs), ctx, arrow, head, check)


def _dims(shape: Sequence[int]) -> str:
    return "[" + ", ".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape) + "]"


def _broadcast(a: Sequence[int], b: Sequence[int]) -> list[int] | None:
    """NumPy broadcasting of two shapes as MLIR's `getBroadcastedShape` does it (a
    `?` next to a size above 1 takes that size, next to 1 stays `?`); None if two
    static sizes clash."""
    out: list[int] = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if DYNAMIC_INDEX in (x, y):
            big = [d for d in (x, y) if d > 1]
            out.append(big[0] if big else DYNAMIC_INDEX)
        elif x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return None
    return out[::-1]


def _check_matmul(op: KernelOp) -> None:
    """hip-ep's static shape rule for `hip.matmul`: ONNX MatMul's contraction and
    batch broadcast, and the destination's shape where both sides are static."""
    a, b, out = (v.type.get_shape() for v in (op.A, op.B, op.output))  # type: ignore[attr-defined]
    for label, shape in (("A", a), ("B", b)):
        if len(shape) < 2:
            raise VerifyException(
                f"{op_prefix(op)} matmul {label} must have rank >= 2, got rank {len(shape)}"
            )
    ka, kb = a[-1], b[-2]
    if DYNAMIC_INDEX not in (ka, kb) and ka != kb:
        raise VerifyException(
            f"{op_prefix(op)} matmul contraction dim mismatch: A.shape[-1]={ka} vs B.shape[-2]={kb}"
        )
    batch = _broadcast(a[:-2], b[:-2])
    if batch is None:
        raise VerifyException(
            f"{op_prefix(op)} matmul batch broadcast failure: A.batch={_dims(a[:-2])} "
            f"B.batch={_dims(b[:-2])}"
        )
    want = [*batch, a[-2], b[-1]]
    if len(out) != len(want):
        raise VerifyException(
            f"{op_prefix(op)} rank mismatch on result #0: expected rank {len(want)} "
            f"{_dims(want)} but outs has rank {len(out)} {_dims(out)}"
        )
    for d, (got, expected) in enumerate(zip(out, want)):
        if DYNAMIC_INDEX not in (got, expected) and got != expected:
            raise VerifyException(
                f"{op_prefix(op)} dim {d} of result #0 mismatch: expected {expected} "
                f"{_dims(want)} but outs has {got} {_dims(out)}"
            )


def _check_layer_norm(op: KernelOp) -> None:
    if not 1 <= len(op.outs) <= 3:
        raise VerifyException(
            f"{op_prefix(op)} expected 1 to 3 output buffers (output, [mean, [inv_std]]), "
            f"got {len(op.outs)}"
        )


def _check_transpose(op: KernelOp) -> None:
    """hip-ep's rule: `perm` is a permutation of the input's dimensions."""
    perm = [a.value.data for a in op.perm.data]  # type: ignore[attr-defined]
    rank = len(op.input.type.get_shape())  # type: ignore[attr-defined]
    if len(perm) != rank:
        raise VerifyException(
            f"{op_prefix(op)} perm length ({len(perm)}) must match input rank ({rank})"
        )
    seen: set[int] = set()
    for v in perm:
        if not 0 <= v < len(perm):
            raise VerifyException(f"{op_prefix(op)} perm value {v} is out of range")
        if v in seen:
            raise VerifyException(f"{op_prefix(op)} perm must be a permutation (duplicate value {v})")
        seen.add(v)


_QUANT_TYPES = ("NONE", "PER_TENSOR", "PER_CHANNEL")


def _check_gqa(op: KernelOp) -> None:
    """hip-ep's `GqaOp::verify`: quantization, KV bit width and `qk_output` agree
    with the operands given; `cos_cache`/`sin_cache` and `key`/`value` come in pairs."""
    prefix = op_prefix(op)
    quant = {"k": op.k_quant_type.data, "v": op.v_quant_type.data}  # type: ignore[attr-defined]
    for side, kind in quant.items():
        if kind != "NONE" and getattr(op, f"{side}_scale") is None:
            raise VerifyException(
                f"{prefix} {side}_quant_type is '{kind}' but {side}_scale is not provided"
            )
    for side, kind in quant.items():
        if kind not in _QUANT_TYPES:
            raise VerifyException(
                f"{prefix} {side}_quant_type must be 'NONE', 'PER_TENSOR', or 'PER_CHANNEL', "
                f"got '{kind}'"
            )
    width = op.kv_cache_bit_width.value.data  # type: ignore[attr-defined]
    if width not in (4, 8):
        raise VerifyException(f"{prefix} kv_cache_bit_width must be 4 or 8, got {width}")
    qk = op.qk_output.value.data  # type: ignore[attr-defined]
    if not 0 <= qk <= 2:
        raise VerifyException(f"{prefix} qk_output must be 0, 1, or 2, got {qk}")
    if qk != 0 and op.output_qk is None:  # type: ignore[attr-defined]
        raise VerifyException(f"{prefix} qk_output is {qk} but output_qk buffer is not provided")
    for first, second in (("cos_cache", "sin_cache"), ("key", "value")):
        present = [getattr(op, n) is not None for n in (first, second)]
        if present[0] != present[1]:
            state = ["present" if p else "absent" for p in present]
            raise VerifyException(
                f"{prefix} {first} and {second} must both be provided or both be omitted "
                f"(found {first}={state[0]}, {second}={state[1]})"
            )


_REDUCE = "keepdims:i64=1 noop_with_empty_axes:i64=0"
_CONV = "kernel_shape:i64s strides:i64s pads:i64s dilations:i64s"

KERNELS: tuple[KernelSpec, ...] = (
    # elementwise, one input (hip-ep names their operands x/y or input/output)
    *(_k(n, "x", "y") for n in (
        "sigmoid", "tanh", "softplus", "reciprocal", "sqrt", "not", "cos", "sin",
        "ceil", "exp", "log", "abs", "neg", "sign", "size",
    )),
    _k("silu", "input", arrow=True),
    _k("miopen.softmax", "input", arrow=True),
    _k("gelu", "input", attrs="approximate:str=none"),
    _k("leaky_relu", "input", attrs="alpha:f64=0.01"),
    _k("fast_gelu", "input", kw="bias"),
    _k("cast", "input", attrs="to:i64"),
    _k("transpose", "input", attrs="perm:i64s", check=_check_transpose),
    _k("global_pool", "input", attrs="mode:i64 p:i64=2"),
    _k("resize", "input", attrs="mode:i64 coord_transform:i64 nearest_mode:i64"),
    # elementwise, broadcasting binary
    _k("add", "lhs rhs", arrow=True),
    _k("mul", "lhs rhs", arrow=True),
    _k("miopen.add", "A B", "C", arrow=True),
    *(_k(n, "lhs rhs") for n in ("sub", "div", "min", "max", "equal", "less", "and", "or")),
    _k("mod", "lhs rhs", attrs="fmod:i64=0"),
    _k("where", "condition x y"),
    _k("bias_gelu", "data bias"),
    # linear algebra, convolution
    _k("matmul", "A B", check=_check_matmul),
    _k("gemm", "input_a input_b input_c?",
       attrs="alpha:f32=1.0 beta:f32=1.0 transA:i64=0 transB:i64=0"),
    _k("matmul_nbits", "A B scales", kw="zero_points g_idx bias", ctx="handle",
       attrs="K:i64 N:i64 bits:i64 block_size:i64 accuracy_level:i64 zp_elem_size:i64"),
    _k("conv", "input weights bias?", attrs=f"{_CONV} group:i64"),
    _k("conv_transpose", "input weights bias?",
       attrs=f"{_CONV} output_padding:i64s group:i64"),
    _k("causal_conv_with_state", "input weight bias? past_state?", "output present_state",
       attrs="activation:str=none ndim:i64=1 channels_last:bool=false"),
    _k("qmoe", "input router_probs fc1_experts_weights fc1_scales fc2_experts_weights "
       "fc2_scales", ctx="handle",
       kw="fc1_bias=fc1_experts_bias fc2_bias=fc2_experts_bias "
       "fc3_weights=fc3_experts_weights fc3_scales fc3_bias=fc3_experts_bias "
       "fc1_zero_points fc2_zero_points fc3_zero_points router_weights",
       attrs="expert_weight_bits:i64 k:i64 block_size:i64 normalize_routing_weights:i64 "
       "swiglu_fusion:i64 use_sparse_mixer:i64 activation_alpha:f32 activation_beta:f32 "
       "swiglu_limit:f32 activation_type:str"),
    # normalization, positional encoding, attention
    _k("rms_norm", "input scale", attrs="axis:i64 epsilon:f32 stash_type:i64"),
    _k("layer_norm", "input scale bias?", "outputs*",
       attrs="axis:i64=-1 epsilon:f32=9.99999974E-6 stash_type:i64=1", check=_check_layer_norm),
    _k("skip_rms_norm", "input skip gamma bias?", "outputs*", attrs="epsilon:f32"),
    _k("rope", "input position_ids? cos_cache sin_cache",
       attrs="interleaved:i64 num_heads:i64 rotary_embedding_dim:i64"),
    _k("gqa", "query key? value? past_key? past_value? seqlens_k total_seq_len cos_cache? "
       "sin_cache? position_ids? attention_bias? head_sink? k_scale? v_scale?",
       "output present_key present_value output_qk?",
       attrs="num_heads:i64 kv_num_heads:i64 scale:f32=0.0 do_rotary:i64=0 "
       "rotary_interleaved:i64=0 softcap:f32=0.0 local_window_size:i64=-1 "
       "smooth_softmax:i64=0 qk_output:i64=0 k_quant_type:str=NONE v_quant_type:str=NONE "
       "kv_cache_bit_width:i64=8 no_causal:bool=false", check=_check_gqa),
    _k("multi_head_attention", "query key? value? bias? key_padding_mask? attention_bias? "
       "past_key? past_value? past_sequence_length? cache_indirection?",
       "output present_key? present_value? qk?",
       attrs="num_heads:i64 mask_filter_value:f32=-1.000000e+04 scale:f32=0.0 "
       "unidirectional:i64=0"),
    _k("linear_attention", "query key value", "output present_state",
       kw="past_state decay beta",
       attrs="q_num_heads:i64 kv_num_heads:i64 scale:f32=0.0 chunk_size:i64=0 "
       "update_rule:str=gated_delta"),
    # reductions, scans, index-producing
    *(_k(n, "data axes", attrs=_REDUCE) for n in (
        "reduce_sum", "reduce_mean", "reduce_l2", "reduce_max", "reduce_min", "reduce_prod",
    )),
    _k("cumsum", "x axis", "y", attrs="exclusive:i64=0 reverse:i64=0"),
    _k("top_k", "x k", "values indices", attrs="axis:i64=-1 largest:bool=true sorted:bool=true"),
    _k("nonzero", "x", "y count", attrs="input_data_type:i64"),
    _k("range", "start limit delta"),
    # data movement, shape
    _k("gather", "data indices", attrs="axis:i64=0"),
    _k("gather_elements", "data indices", attrs="axis:i64=0"),
    _k("gather_nd", "data indices", attrs="batch_dims:i64=0"),
    _k("gather_block_quantized", "data indices scales", kw="zero_points",
       attrs="bits:i64 block_size:i64 gather_axis:i64 quantize_axis:i64 "
       "unsigned_quant_storage:unit"),
    _k("scatter_elements", "data indices updates", attrs="axis:i64=0 reduction:str=none"),
    _k("scatter_nd", "data indices updates", attrs="reduction:str=none"),
    _k("one_hot", "indices depth values", attrs="axis:i64=-1"),
    _k("compress", "input condition", attrs="axis:i64=0 flatten:bool=false"),
    _k("pad", "data pads", kw="cval=constant_value axes", attrs="mode:str=constant"),
    _k("slice", "data starts ends", kw="axes steps"),
    _k("tile", "input repeats"),
    _k("expand", "input shape"),
    _k("pool", "input", "outputs*",
       attrs=f"pool_mode:i64 {_CONV} ceil_mode:i64 storage_order:i64 "
       "count_include_pad:i64=0 p:i64=2"),
    # a fused hipDNN graph, called by id
    _k("hipdnn_graph", "inputs*", "outputs*", head="graph_id",
       attrs="graph_id:i32 input_uids:i64s output_uids:i64s"),
)
"""hip-ep's DPS kernels, one row each; `KernelOp` is their shared definition."""



# ----------------------------------------------------------------- the family


@dataclass(frozen=True)
class _KernelEffects(OperandEffects):
    """Reads of the memref operands of `ins` and the keyword groups, writes of those
    of `outs`: the accessors' effects, from one slicing of the operand list (the
    memory analyses ask every kernel, and each accessor slices it again)."""

    def pairs(self, op: Operation) -> list[tuple[MemoryEffectKind, SSAValue]]:
        # (a kernel's own model: `op` is a KernelOp, whose isinstance is an ABC's)
        pairs: list[tuple[MemoryEffectKind, SSAValue]] = []
        for clause, group in op._operand_groups():  # type: ignore[attr-defined]
            kind = MemoryEffectKind.WRITE if clause == "outs" else MemoryEffectKind.READ
            pairs += [(kind, v) for v in group if is_buffer(v)]
        return pairs


class KernelOp(IRDLOperation):
    """The shared definition of every hip kernel op (destination-passing style).

    `hip.<kernel>(%ctx) ins(..) <keyword groups> outs(..) {attrs} (-> | :) results`

    In memref mode (after bufferization) the op has no results: it is enqueued on
    `%ctx`'s in-order stream and returns at once, reading its inputs and writing
    its `outs` later, after the device work enqueued before it. In tensor mode it
    returns one tensor per `outs` operand and touches no memory.
    """

    SPEC: ClassVar[KernelSpec]

    traits = traits_def(
        StreamExecution(0),
        _KernelEffects(reads=buffer_operands_named("ins"), writes=buffer_operands_named("outs")),
        # The family's checks and every row's `check` read types, group sizes
        # and attributes only.
        SignatureVerifier(),
        # `print` reads the row, the group sizes, types, properties and
        # attributes, and prints each operand once.
        SignaturePrinter(),
    )

    def __init__(
        self,
        ctx: SSAValue | Operation,
        *operands: SSAValue | Operation | Sequence[SSAValue | Operation] | None,
        result_types: Sequence[Attribute] = (),
        properties: Mapping[str, Attribute] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        """One argument per operand of the row, in hip-ep's order: a value, None or a
        value for an optional one, a sequence for a variadic one."""
        groups = [[] if o is None else o for o in operands]
        super().__init__(
            operands=(ctx, *groups),
            result_types=(tuple(result_types),),
            properties=self.SPEC.with_defaults(properties or {}),
            attributes=dict(attributes or {}),
        )

    @classmethod
    def create(  # type: ignore[override]
        cls,
        *,
        properties: Mapping[str, Attribute] = {},
        attributes: Mapping[str, Attribute] = {},
        **kwargs,
    ):
        """Every op starts with its default-valued attributes set, sorted by name (as
        MLIR populates default properties), so text that leaves a default out and
        text that writes it denote the same IR. An inherent attribute written in the
        generic form's attr-dict is a property, as in MLIR."""
        names = _attribute_names(cls.SPEC)
        inherent = {k: v for k, v in attributes.items() if k in names}
        return super().create(
            properties=cls.SPEC.with_defaults(inherent | dict(properties)),
            attributes={k: v for k, v in attributes.items() if k not in names},
            **kwargs,
        )

    @property
    def ctx(self) -> SSAValue:
        return self.operands[0]

    def _operand_groups(self) -> list[tuple[str, Sequence[SSAValue]]]:
        """Each of the row's operands with its clause and values, sliced from the
        operand list by the group sizes (the field accessors rebuild every group
        per call, and effects ask for `ins`/`outs` of every kernel). Sliced as a
        plain tuple: xDSL's operand sequence rebuilds its own type per slice."""
        operands = tuple(self._operands)  # pyright: ignore[reportPrivateUsage]
        segments = self.properties.get("operandSegmentSizes")
        if segments is not None and isinstance(segments, DenseArrayBase):
            sizes = segments.get_values()[1:]
        else:  # at most one group is optional or variadic: it takes the rest
            rest = len(operands) - 1 - self.SPEC.single_operands
            sizes = [1 if o.arity == "one" else rest for o in self.SPEC.operands]
        groups: list[tuple[str, Sequence[SSAValue]]] = []
        start = 1
        for operand, size in zip(self.SPEC.operands, sizes):
            groups.append((operand.clause, operands[start:start + size]))
            start += size
        return groups

    def _clause_values(self, clauses: Sequence[str]) -> tuple[SSAValue, ...]:
        """The operands of the row's operands in `clauses`."""
        values: list[SSAValue] = []
        for clause, group in self._operand_groups():
            if clause in clauses:
                values += group
        return tuple(values)

    @property
    def ins(self) -> tuple[SSAValue, ...]:
        """Every input: the `ins(..)` operands and those of the keyword groups."""
        return self._clause_values(("ins", *self.SPEC.keywords))

    @property
    def outs(self) -> tuple[SSAValue, ...]:
        """The destinations (hip-ep's DPS inits)."""
        return self._clause_values(("outs",))

    def numbered_outs(self) -> list[tuple[int, SSAValue]]:
        """The destinations with their operand numbers."""
        found: list[tuple[int, SSAValue]] = []
        start = 1
        for clause, group in self._operand_groups():
            if clause == "outs":
                found += [(start + k, v) for k, v in enumerate(group)]
            start += len(group)
        return found

    @property
    def tensor_mode(self) -> bool:
        return not any(is_buffer(v) for v in (*self.ins, *self.outs))

    # ------------------------------------------------------------- syntax

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        spec = cls.SPEC
        parser.parse_punctuation("(")
        ctx = parser.resolve_operand(parser.parse_unresolved_operand(), ContextType())
        parser.parse_punctuation(")")
        head: dict[str, Attribute] = {}
        if spec.head is not None:
            parser.parse_keyword(spec.head)
            parser.parse_punctuation("(")
            head[spec.head] = IntegerAttr(parser.parse_integer(), 32)
            parser.parse_punctuation(")")
        groups: dict[str, list[SSAValue]] = {"ins": []}
        where: dict[str, int] = {}
        where["ins"] = parser.pos
        parser.parse_keyword("ins")
        groups["ins"] = parse_typed_operands(parser, "ins")
        for keyword in spec.keywords:
            where[keyword] = parser.pos
            if parser.parse_optional_keyword(keyword) is not None:
                groups[keyword] = parse_typed_operands(parser, keyword)
        where["outs"] = parser.pos
        parser.parse_keyword("outs")
        groups["outs"] = parse_typed_operands(parser, "outs")
        attrs = parser.parse_optional_attr_dict()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->" if spec.arrow else ":") is not None:
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        operands: list[SSAValue] = [ctx]
        sizes = [1]
        for clause in ("ins", *spec.keywords, "outs"):
            for group in _distribute(parser, spec, clause, groups.get(clause, []), where[clause]):
                if isinstance(group, SSAValue):
                    operands.append(group)
                    sizes.append(1)
                else:
                    operands += group
                    sizes.append(len(group))
        names = {a.name for a in spec.attrs}
        props = head | {k: v for k, v in attrs.items() if k in names}
        if _segmented(cls):
            props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)
        # The groups are known here: `create` takes them flat, without IRDL's
        # rebuilding of each group from the definition (`build`).
        return cls.create(
            operands=operands,
            result_types=result_types,
            properties=props,
            attributes={k: v for k, v in attrs.items() if k not in names},
        )

    def print(self, printer: Printer) -> None:
        spec = self.SPEC
        printer.print_string("(")
        printer.print_operand(self.ctx)
        printer.print_string(")")
        if spec.head is not None:
            value = self.properties.get(spec.head)
            printer.print_string(f" {spec.head}(")
            printer.print_string(str(value.value.data) if isinstance(value, IntegerAttr) else "")
            printer.print_string(")")
        by_clause: dict[str, list[SSAValue]] = {}
        for clause, group in self._operand_groups():
            by_clause.setdefault(clause, []).extend(group)
        print_typed_operands(printer, "ins", by_clause.get("ins", ()))
        for keyword in spec.keywords:
            values = by_clause.get(keyword)
            if values:
                print_typed_operands(printer, keyword, values)
        print_typed_operands(printer, "outs", by_clause.get("outs", ()))
        print_attr_dict(printer, self, _defaults(spec), () if spec.head is None else (spec.head,))
        if self.results:
            printer.print_string(" -> " if spec.arrow else " : ")
            printer.print_list([r.type for r in self.results], printer.print_attribute)

    # ------------------------------------------------------------- verifier

    def verify_(self) -> None:
        for attr in self.SPEC.attrs:
            attr.verify(self)
        verify_data_operands(self)
        # hip-ep's own verifier, then MLIR's destination-style rule (an interface
        # verifier that runs with the regions', after the op's).
        if self.SPEC.name in UNIFORM_MODE:
            verify_dps_modes(self, (*self.ins, *self.outs), len(self.outs))
        if self.SPEC.check is not None:
            self.SPEC.check(self)
        verify_destination_style(self, self.numbered_outs())


_SEGMENTED: dict[type[KernelOp], bool] = {}


def _segmented(cls: type[KernelOp]) -> bool:
    """Whether the op records its operand group sizes (`operandSegmentSizes`)."""
    found = _SEGMENTED.get(cls)
    if found is None:
        options = cls.get_irdl_definition().options
        found = _SEGMENTED[cls] = any(isinstance(o, AttrSizedOperandSegments) for o in options)
    return found


_NAMES = re.compile(r"\(\s*((?:%(?:\d+|[A-Za-z_$.-][\w$.-]*)(?:#\d+)?\s*,\s*)*"
                    r"%(?:\d+|[A-Za-z_$.-][\w$.-]*)(?:#\d+)?)\s*:\s*")
_NAME = re.compile(r"(%(?:\d+|[A-Za-z_$.-][\w$.-]*))(?:#(\d+))?")
_AFTER_TYPE = re.compile(r"\s*([,)])\s*")


def _typed_operands_from_text(parser: Parser) -> list[SSAValue] | None:
    """`(%v, ... : T, ...)` read straight from the text when every type in it has
    been parsed before (a decoder's kernels repeat a few dozen types); None, with
    nothing consumed, for anything else (comments, new types, errors), which the
    token-by-token parse then reads."""
    if not isinstance(parser, TypeCachingParser):
        return None
    start = parser.pos
    content = parser.lexer.input.content
    names = _NAMES.match(content, start)
    if names is None:
        return None
    types: list[Attribute] = []
    pos = names.end()
    while True:
        found = parser.cached_type_at(pos)
        if found is None:
            return None
        types.append(found[0])
        after = _AFTER_TYPE.match(content, found[1])
        if after is None:
            return None
        pos = after.end() if after.group(1) == "," else after.start(1) + 1
        if after.group(1) == ")":
            break
    operands = [
        (Span(*m.span(1), parser.lexer.input), int(m.group(2) or 0))
        for m in _NAME.finditer(content, names.start(1), names.end(1))
    ]
    if len(operands) != len(types):
        return None
    values = [parser.resolve_operand(UnresolvedOperand(span, index), t)
              for (span, index), t in zip(operands, types)]
    parser.skip_to(pos)
    return values


def parse_typed_operands(parser: Parser, keyword: str) -> list[SSAValue]:
    """`( %v, ... : T, ... )` after `keyword`: at least one operand, as hip-ep's
    formats (`$x : type($x)`) read it ("expected ':'" for `()`, "expected
    non-function type" for `( : )`)."""
    fast = _typed_operands_from_text(parser)
    if fast is not None:
        return fast
    parser.parse_punctuation("(", f" after '{keyword}'")
    if parser._current_token.text == ")":
        parser.raise_error("expected ':'")
    if parser.parse_optional_punctuation(":") is not None:
        parser.raise_error("expected non-function type")
    pos = parser.pos
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":", f" before the types of '{keyword}'")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    end = parser.pos
    parser.parse_punctuation(")")
    if len(types) != len(names):
        parser.raise_error(f"'{keyword}' has {len(names)} operands but {len(types)} types", pos, end)
    return [parser.resolve_operand(n, t) for n, t in zip(names, types)]


_DEFAULTS: dict[int, dict[str, Attribute]] = {}


def _defaults(spec: KernelSpec) -> dict[str, Attribute]:
    """`spec.defaults`, built once per row (the rows live as long as the module;
    it was built per printed op)."""
    known = _DEFAULTS.get(id(spec))
    if known is None:
        known = _DEFAULTS[id(spec)] = spec.defaults
    return known


_ATTRIBUTE_NAMES: dict[int, frozenset[str]] = {}


def _attribute_names(spec: KernelSpec) -> frozenset[str]:
    """The names of `spec`'s attributes, built once per row (every op built asks)."""
    known = _ATTRIBUTE_NAMES.get(id(spec))
    if known is None:
        known = _ATTRIBUTE_NAMES[id(spec)] = frozenset(a.name for a in spec.attrs)
    return known


def print_typed_operands(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
    """` keyword(%a, %b : A, B)`; an empty list (an op built or read in the generic
    form) as hip-ep prints it, ` keyword( : )`, which neither tool reads back."""
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def _distribute(
    parser: Parser, spec: KernelSpec, clause: str, values: list[SSAValue], pos: int
) -> list[SSAValue | Sequence[SSAValue]]:
    """The operand groups of one clause from the values written in it. With a
    variadic operand, the required ones first claim theirs and the variadic takes
    the rest. Otherwise as hip-ep's formats read the list (`$a (`,` $b^)? `,` $c`):
    each optional operand is taken whenever a value follows, so the values fill
    the operands in order, and every operand up to the last required one must be
    written (`rope`'s `position_ids`, `gqa`'s `key` to `past_value`)."""
    defs = spec.clause(clause)
    variadic = any(d.arity == "variadic" for d in defs)
    if variadic:
        required = sum(1 for d in defs if d.arity == "one")
        low, high = required, None
    else:
        low = max((i + 1 for i, d in enumerate(defs) if d.arity == "one"), default=0)
        high = len(defs)
    if len(values) < low or (high is not None and len(values) > high):
        want = f"at least {low}" if high is None else (
            f"{low}" if low == high else f"{low} to {high}")
        parser.raise_error(
            f"'hip.{spec.name}' expects {want} operand(s) in '{clause}', got {len(values)}",
            pos,
            pos + len(clause),
        )
    out: list[SSAValue | Sequence[SSAValue]] = []
    it = iter(values)
    if variadic:
        extra = len(values) - low
        for d in defs:
            out.append(next(it) if d.arity == "one" else [next(it) for _ in range(extra)])
        return out
    for i, d in enumerate(defs):
        if d.arity == "one":
            out.append(next(it))
        else:
            out.append([next(it)] if i < len(values) else [])
    return out


def verify_data_operands(op: Operation) -> None:
    """Operand #0 is the context, every other a ranked tensor or a memref (hip-ep's
    `Hip_TensorOrMemRef`)."""
    verify_context(op, op.operands[0])
    for i, value in enumerate(op.operands[1:], start=1):
        if not isinstance(value.type, TensorType | MemRefType):
            raise VerifyException(
                f"{op_prefix(op)} operand #{i} must be ranked tensor or memref, "
                f"but got '{value.type}'"
            )


UNIFORM_MODE = frozenset({
    "add", "mul", "miopen.add", "miopen.softmax", "silu", "matmul", "rms_norm",
    "layer_norm", "transpose",
})
"""The kernels whose own verifier in hip-ep (`verifyDpsComputeOp`) wants all data
operands tensors or all memrefs; the others may mix them (a tensor input, a memref
destination), as hip-ep accepts: tensor operands are values and touch no memory."""


def verify_destination_style(op: Operation, inits: Sequence[tuple[int, SSAValue]]) -> None:
    """MLIR's destination-style rule, which hip-ep's kernels get from
    `DestinationStyleOpInterface`: one result per tensor destination (`inits`: the
    destinations with their operand numbers), of its type."""
    tensors = [(i, v) for i, v in inits if isinstance(v.type, TensorType)]
    if len(op.results) != len(tensors):
        raise VerifyException(
            f"{op_prefix(op)} expected the number of tensor results ({len(op.results)}) to be "
            f"equal to the number of output tensors ({len(tensors)})"
        )
    for (index, value), result in zip(tensors, op.results):
        if result.type != value.type:
            raise VerifyException(
                f"{op_prefix(op)} expected type of operand #{index} ('{value.type}') to match "
                f"type of corresponding result ('{result.type}')"
            )


def verify_dps_modes(op: Operation, data: Sequence[SSAValue], inits: int) -> None:
    """hip-ep's rule for DPS ops: the data operands are all tensors or all memrefs;
    in tensor mode one ranked tensor result per init, in memref mode none."""
    if not data:
        return
    tensors = [isinstance(v.type, TensorType) for v in data]
    if any(t != tensors[0] for t in tensors):
        raise VerifyException(
            f"{op_prefix(op)} all data operands must be the same kind (all tensor or all memref)"
        )
    if tensors[0]:
        if len(op.results) != inits:
            raise VerifyException(
                f"{op_prefix(op)} tensor mode requires {inits} result(s), got {len(op.results)}"
            )
    elif op.results:
        raise VerifyException(
            f"{op_prefix(op)} memref mode must have zero results, got {len(op.results)}"
        )


def kernel_op(spec: KernelSpec) -> type[KernelOp]:
    """Make the op class `hip.<spec.name>` from a kernel table row."""
    fields: dict[str, object] = {"ctx_operand": operand_def()}
    for operand in spec.operands:
        maker = {"one": operand_def, "optional": opt_operand_def,
                 "variadic": var_operand_def}[operand.arity]
        fields[operand.name] = maker()  # checked in `verify_`, with MLIR's message
    for attr in spec.attrs:
        fields[attr.name] = opt_prop_def()  # checked in `verify_`, with ODS's message
    fields["result_tensors"] = var_result_def(TensorType)
    several = sum(1 for o in spec.operands if o.arity != "one") > 1
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
            **fields,
            **({"irdl_options": (AttrSizedOperandSegments(as_property=True),)} if several else {}),
        },
    )
    return irdl_op_definition(cls)


KERNEL_OPS: dict[str, type[KernelOp]] = {
    f"hip.{spec.name}": kernel_op(spec) for spec in KERNELS
}
globals().update({cls.__name__: cls for cls in KERNEL_OPS.values()})
