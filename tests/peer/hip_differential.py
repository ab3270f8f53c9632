#!/usr/bin/env python3
"""memplan's `hip` dialect against hip-ep's own `hip-mlir-opt`, op by op.

    python tests/peer/hip_differential.py --hip-mlir-opt PATH [--only OP] [--show N]

Instances of every hip op are generated from memplan's own op definitions (the
kernel table `hip_kernels.KERNELS` and the other ops of `Hip`): memref and tensor
form, every count of written operands in each clause (the optional ones as hip-ep's
formats take them, and a generic form with each optional operand alone), each
attribute present, absent, at its default and off it, and near misses (an operand
too few or too many, an empty list, a missing or mistyped attribute, results that
do not match the destinations, tensor/memref mixes). Each instance is one function
in one module; `Instance.expect` is what hip-ep's definitions say of it (`accept`
or `reject`), which the offline unit test holds memplan to
(tests/unit/peer/test_hip_differential.py).

With a tool, each instance goes to both: memplan in-process (parse, verify, print
as memplan-opt prints), hip-mlir-opt in batches (`--split-input-file`; a batch
that crashes is rerun one instance at a time). It reports verdict agreement, the
disagreements by op and cause, print identity where both accept (custom and
generic form), each tool's print re-read by the other, and the cases where memplan
is deliberately stricter (`STRICTER`, documented in docs/design/dialect-hip.md).
Exit status 1 on an undocumented disagreement or a print either tool cannot
re-read. Without a tool (no `--hip-mlir-opt`, no `HIP_MLIR_OPT`, or the path is
absent) it says why and exits 0 (skipped).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from memplan.dialects.hip.kernels import KERNELS, UNIFORM_MODE, KernelSpec  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hip_ep_accepts import find_tool  # noqa: E402  (one rule for where hip-mlir-opt is)

STRICTER: tuple[tuple[str, str], ...] = (
    (r"'hip\.get_(pool|host_scratch)' op result must be a 1-D memref of i8",
     "pool and host scratch are bytes the passes view buffers into"),
    (r"'hip\.get_pool' op domain_id must be non-negative",
     "a domain indexes the runtime's table of pools"),
    (r"'hip\.alloc' op ", "a plan needs a ranked buffer and every dynamic size"),
)
"""memplan's rejections of IR hip-ep accepts, each with its reason (a regex on
memplan's message): docs/design/dialect-hip.md, "Where memplan is stricter"."""


@dataclass(frozen=True)
class Instance:
    op: str
    name: str
    body: str
    """The op's line(s) inside the function."""
    args: tuple[tuple[str, str], ...]
    expect: str
    """`accept` or `reject`: what hip-ep's definitions say."""

    @property
    def text(self) -> str:
        params = ", ".join(f"{n}: {t}" for n, t in self.args)
        return f"func.func @f({params}) {{\n{self.body}\n  return\n}}\n"


# ------------------------------------------------------------- the kernels

SAMPLE = {
    "i64": "1 : i64", "i32": "1 : i32", "f32": "5.000000e-01 : f32", "f64": "5.000000e-01 : f64",
    "str": '"s"', "bool": "true", "i64s": "[1, 0]", "unit": "",
}
"""A value of each attribute kind (an `i64s` of [1, 0]: transpose's perm of a 2-D
input)."""
WRONG_KIND = {
    "i64": "1 : i32", "i32": "1 : i64", "f32": "5.000000e-01 : f64", "f64": "5.000000e-01 : f32",
    "str": "1 : i64", "bool": "1 : i64", "i64s": "1 : i64",
}


def _off_default(kind: str, default: str) -> str:
    """A value of `kind` other than the default (printed as MLIR prints it)."""
    if kind == "i64":
        return "2 : i64" if default != "2 : i64" else "3 : i64"
    if kind == "f32":
        return "2.500000e-01 : f32"
    if kind == "str":
        return '"s"'
    if kind == "bool":
        return "false" if default == "true" else "true"
    return SAMPLE[kind]


def _attr_text(attr) -> str:
    """The default of `attr` as MLIR prints it."""
    import io

    from memplan.printing import MlirPrinter

    if attr.default is None:
        return ""
    if attr.kind == "bool":
        return "true" if attr.default.value.data else "false"
    stream = io.StringIO()
    MlirPrinter(stream=stream).print_attribute(attr.default)
    return stream.getvalue()


def _bounds(spec: KernelSpec, clause: str) -> tuple[int, int | None]:
    """How many values hip-ep's format reads in `clause`: (least, most or None)."""
    defs = spec.clause(clause)
    if any(d.arity == "variadic" for d in defs):
        return sum(1 for d in defs if d.arity == "one"), None
    low = max((i + 1 for i, d in enumerate(defs) if d.arity == "one"), default=0)
    return low, len(defs)


@dataclass
class _Form:
    counts: dict[str, int]
    tensor_ins: bool = False
    tensor_outs: bool = False
    results: str = "match"
    """`match` (one per tensor destination), `none`, `wrong-type`, `extra`."""
    attrs: dict[str, str | None] = field(default_factory=dict)
    """Overrides of the required-attribute sample: name -> text (None: absent)."""


class _KernelWriter:
    def __init__(self, spec: KernelSpec):
        self.spec = spec
        self.clauses = ["ins", *spec.keywords, "outs"]

    def minimum(self) -> dict[str, int]:
        return {c: (_bounds(self.spec, c)[0] if c in ("ins", "outs") else 0) for c in self.clauses}

    def maximum(self) -> dict[str, int]:
        out = {}
        for c in self.clauses:
            low, high = _bounds(self.spec, c)
            out[c] = high if high is not None else low + 2
        return out

    def valid_count(self, clause: str, n: int) -> bool:
        low, high = _bounds(self.spec, clause)
        if n == 0 and clause not in ("ins", "outs"):
            return True  # a keyword group left out
        if n == 0:
            return False  # `ins()`: hip-ep's `$x : type($x)` reads at least one
        return low <= n and (high is None or n <= high)

    def required_attrs(self) -> dict[str, str]:
        return {a.name: SAMPLE[a.kind] for a in self.spec.attrs
                if a.required and a.name != self.spec.head}

    def render(self, form: _Form) -> tuple[str, tuple[tuple[str, str], ...]]:
        spec = self.spec
        args: list[tuple[str, str]] = [("%ctx", "!hip.context")]
        data = "tensor<4x4xf32>", "memref<4x4xf32>"
        parts = [f"hip.{spec.name}(%ctx)"]
        if spec.head:
            parts.append(f" {spec.head}(3)")
        tensors: list[str] = []
        for clause in self.clauses:
            n = form.counts[clause]
            if clause not in ("ins", "outs") and n == 0:
                continue
            tensor = form.tensor_outs if clause == "outs" else form.tensor_ins
            t = data[0] if tensor else data[1]
            names = [f"%v{len(args) + i}" for i in range(n)]
            args += [(v, t) for v in names]
            if clause == "outs" and tensor:
                tensors = [t] * n
            parts.append(f" {clause}({', '.join(names)} : {', '.join([t] * n)})" if n
                         else f" {clause}()")
        attrs = self.required_attrs()
        for name, value in form.attrs.items():
            if value is None:
                attrs.pop(name, None)
            else:
                attrs[name] = value
        if attrs:
            parts.append(" {" + ", ".join(
                name if value == "" else f"{name} = {value}" for name, value in sorted(attrs.items())
            ) + "}")
        results = list(tensors)
        if form.results == "none":
            results = []
        elif form.results == "wrong-type" and results:
            results[0] = "tensor<8x8xf32>"
        elif form.results == "extra":
            results.append("tensor<4x4xf32>")
        line = "".join(parts)
        if results:
            line += (" -> " if spec.arrow else " : ") + ", ".join(results)
            lhs = "%r" if len(results) == 1 else f"%r:{len(results)}"
            line = f"{lhs} = {line}"
        return "  " + line, tuple(args)

    def generic(self, present: Sequence[str], tensor: bool) -> tuple[str, tuple[tuple[str, str], ...]]:
        """The generic form with the required operands and those in `present`."""
        spec = self.spec
        t = "tensor<4x4xf32>" if tensor else "memref<4x4xf32>"
        args: list[tuple[str, str]] = [("%ctx", "!hip.context")]
        sizes = [1]
        for operand in spec.operands:
            n = 1 if operand.arity != "optional" or operand.name in present else 0
            sizes.append(n)
            args += [(f"%v{len(args)}", t) for _ in range(n)]
        props = {a.name: SAMPLE[a.kind] for a in spec.attrs if a.required}
        if spec.head:
            props[spec.head] = "3 : i32"
        if sum(1 for o in spec.operands if o.arity != "one") > 1:
            props["operandSegmentSizes"] = "array<i32: " + ", ".join(map(str, sizes)) + ">"
        outs = sum(s for o, s in zip(spec.operands, sizes[1:]) if o.clause == "outs")
        results = [t] * outs if tensor else []
        text = ", ".join(n if v == "" else f"{n} = {v}" for n, v in props.items())
        operands = ", ".join(n for n, _ in args)
        types = ", ".join(t for _, t in args)
        lhs = "" if not results else ("%r = " if len(results) == 1 else f"%r:{len(results)} = ")
        props_text = f" <{{{text}}}>" if text else ""
        line = (f'  {lhs}"hip.{spec.name}"({operands}){props_text} : ({types}) -> '
                f'({", ".join(results)})')
        return line, tuple(args)


def _kernel_expect(spec: KernelSpec, writer: _KernelWriter, form: _Form) -> str:
    """hip-ep's verdict by its definitions (HipOps.td, HipDialect.cpp)."""
    for clause, n in form.counts.items():
        if not writer.valid_count(clause, n):
            return "reject"
    for name, value in form.attrs.items():
        attr = next(a for a in spec.attrs if a.name == name)
        if value is None and attr.required:
            return "reject"
        if value is not None and value == WRONG_KIND.get(attr.kind):
            return "reject"
    mixed = form.tensor_ins != form.tensor_outs
    if mixed and spec.name in UNIFORM_MODE:
        return "reject"
    want = form.counts["outs"] if form.tensor_outs else 0
    got = {"match": want, "none": 0, "wrong-type": want, "extra": want + 1}[form.results]
    if got != want or (form.results == "wrong-type" and want):
        return "reject"
    if spec.name == "gqa":
        # GqaOp::verify on the written operands: key/value, cos/sin pairs, quantization.
        ins = form.counts["ins"]
        names = [o.name for o in spec.clause("ins")][:ins]
        if ("cos_cache" in names) != ("sin_cache" in names):
            return "reject"
        values = {**{a.name: _attr_text(a) for a in spec.attrs if a.default is not None},
                  **{k: v for k, v in form.attrs.items() if v is not None}}
        for side in "kv":
            quant = values[f"{side}_quant_type"]
            if quant != '"NONE"' and f"{side}_scale" not in names:
                return "reject"
            if quant not in ('"NONE"', '"PER_TENSOR"', '"PER_CHANNEL"'):
                return "reject"
        if values["kv_cache_bit_width"] not in ("4 : i64", "8 : i64"):
            return "reject"
        qk = values["qk_output"]
        if qk not in ("0 : i64", "1 : i64", "2 : i64"):
            return "reject"
        if qk != "0 : i64" and form.counts["outs"] < 4:
            return "reject"
    if spec.name == "layer_norm" and not 1 <= form.counts["outs"] <= 3:
        return "reject"
    return "accept"


def kernel_instances(spec: KernelSpec) -> Iterator[Instance]:
    writer = _KernelWriter(spec)
    op = f"hip.{spec.name}"

    def make(label: str, form: _Form) -> Instance:
        body, args = writer.render(form)
        return Instance(op, f"{op}/{label}", body, args, _kernel_expect(spec, writer, form))

    low, high = writer.minimum(), writer.maximum()
    for tensor in (False, True):
        mode = "tensor" if tensor else "memref"
        yield make(f"{mode}/least", _Form(dict(low), tensor, tensor))
        yield make(f"{mode}/most", _Form(dict(high), tensor, tensor))
        for clause in writer.clauses:
            first, last = _bounds(spec, clause)
            last = last if last is not None else first + 2
            for n in range(max(0, first - 1), last + 2):
                if n in (low[clause],):
                    continue
                counts = dict(low)
                counts[clause] = n
                yield make(f"{mode}/{clause}={n}", _Form(counts, tensor, tensor))
    # tensor results that do not match, and the mixes hip-ep accepts in most kernels
    yield make("tensor/no-results", _Form(dict(low), True, True, results="none"))
    yield make("tensor/result-type", _Form(dict(low), True, True, results="wrong-type"))
    yield make("tensor/extra-result", _Form(dict(low), True, True, results="extra"))
    yield make("memref/a-result", _Form(dict(low), False, False, results="extra"))
    yield make("mixed/tensor-ins", _Form(dict(low), True, False))
    yield make("mixed/tensor-outs", _Form(dict(low), False, True))
    for attr in spec.attrs:
        if attr.name == spec.head:
            continue
        if attr.required:
            yield make(f"attr/{attr.name}=absent", _Form(dict(low), attrs={attr.name: None}))
        elif attr.default is not None:
            yield make(f"attr/{attr.name}=default",
                       _Form(dict(low), attrs={attr.name: _attr_text(attr)}))
            yield make(f"attr/{attr.name}=other",
                       _Form(dict(low), attrs={attr.name: _off_default(attr.kind, _attr_text(attr))}))
        else:  # a unit flag
            yield make(f"attr/{attr.name}=set", _Form(dict(low), attrs={attr.name: ""}))
        if attr.kind in WRONG_KIND:
            yield make(f"attr/{attr.name}=wrong-kind",
                       _Form(dict(low), attrs={attr.name: WRONG_KIND[attr.kind]}))
    # the generic form: each optional operand alone (text cannot always say so)
    for operand in spec.operands:
        if operand.arity == "optional":
            for tensor in (False, True):
                body, args = writer.generic([operand.name], tensor)
                expect = "accept"
                if spec.name == "gqa" and operand.name in ("key", "value", "cos_cache", "sin_cache",
                                                           "output_qk"):
                    expect = "accept" if operand.name == "output_qk" else "reject"
                yield Instance(op, f"{op}/generic/{'tensor' if tensor else 'memref'}/{operand.name}",
                               body, args, expect)


# ------------------------------------------------------------- the other ops

_CTX = ("%ctx", "!hip.context")


def _i(op: str, label: str, body: str, args: Sequence[tuple[str, str]], expect: str = "accept") -> Instance:
    return Instance(op, f"{op}/{label}", "  " + body.replace("\n", "\n  "), (_CTX, *args), expect)


def other_instances() -> Iterator[Instance]:
    n = ("%n", "index")
    for op in ("get_pool", "get_host_scratch"):
        name = f"hip.{op}"
        yield _i(name, "bytes", f"%p = {name}(%ctx, %n) : memref<?xi8>", [n])
        yield _i(name, "static-bytes", f"%p = {name}(%ctx, %n) : memref<64xi8>", [n])
        yield _i(name, "f32", f"%p = {name}(%ctx, %n) : memref<?xf32>", [n])
        yield _i(name, "rank-2", f"%p = {name}(%ctx, %n) : memref<2x?xi8>", [n])
        yield _i(name, "size-i64", f'%p = "{name}"(%ctx, %s) : (!hip.context, i64) -> memref<?xi8>',
                 [("%s", "i64")], "reject")
        yield _i(name, "tensor", f"%p = {name}(%ctx, %n) : tensor<?xi8>", [n], "reject")
        yield _i(name, "one-operand", f"%p = {name}(%ctx) : memref<?xi8>", [n], "reject")
    for domain in ("0", "1", "-1"):
        yield _i("hip.get_pool", f"domain={domain}",
                 f"%p = hip.get_pool(%ctx, %n) {{domain_id = {domain} : i64}} : memref<?xi8>", [n])
    yield _i("hip.get_pool", "domain-i32",
             "%p = hip.get_pool(%ctx, %n) {domain_id = 1 : i32} : memref<?xi8>", [n], "reject")
    alloc = "hip.alloc"
    yield _i(alloc, "static", "%x = hip.alloc(%ctx) : memref<4xf32>", [])
    yield _i(alloc, "dynamic", "%x = hip.alloc(%ctx, %n) : memref<?x4xf32>", [n])
    yield _i(alloc, "missing-size", "%x = hip.alloc(%ctx) : memref<?x4xf32>", [])
    yield _i(alloc, "extra-size", "%x = hip.alloc(%ctx, %n) : memref<4xf32>", [n])
    # `type($memref)` of an AnyMemRef reads a ranked memref only
    yield _i(alloc, "unranked", "%x = hip.alloc(%ctx) : memref<*xf32>", [], "reject")
    yield _i(alloc, "strided", "%x = hip.alloc(%ctx) : memref<4xf32, strided<[2]>>", [])
    yield _i(alloc, "tensor", "%x = hip.alloc(%ctx) : tensor<4xf32>", [], "reject")
    yield _i(alloc, "size-i32", '%x = "hip.alloc"(%ctx, %s) : (!hip.context, i32) -> memref<?xf32>',
             [("%s", "i32")], "reject")
    free = "hip.free"
    yield _i(free, "ranked", "hip.free(%ctx, %x) : memref<4xf32>", [("%x", "memref<4xf32>")])
    yield _i(free, "unranked", "hip.free(%ctx, %x) : memref<*xf32>", [("%x", "memref<*xf32>")],
             "reject")
    yield _i(free, "tensor", "hip.free(%ctx, %x) : tensor<4xf32>", [("%x", "tensor<4xf32>")], "reject")
    out = "hip.alloc_output"
    yield _i(out, "static", "%o = hip.alloc_output(%ctx) {out_idx = 0 : i64} : memref<4xf16>", [])
    yield _i(out, "dynamic", "%o = hip.alloc_output(%ctx, %n) {out_idx = 1 : i64} : memref<?x4xf16>", [n])
    yield _i(out, "missing-size", "%o = hip.alloc_output(%ctx) {out_idx = 0 : i64} : memref<?xf16>", [],
             "reject")
    yield _i(out, "no-index", "%o = hip.alloc_output(%ctx) : memref<4xf16>", [], "reject")
    yield _i(out, "index-i32", "%o = hip.alloc_output(%ctx) {out_idx = 0 : i32} : memref<4xf16>", [],
             "reject")
    yield _i(out, "tensor", "%o = hip.alloc_output(%ctx) {out_idx = 0 : i64} : tensor<4xf16>", [], "reject")
    for op, result, ok in (("readback_scalar", "i64", True), ("readback_scalar", "f16", True),
                           ("readback_scalar", "index", True), ("readback_scalar", "i1", True),
                           ("readback_scalar", "memref<i64>", False),
                           ("readback_dim", "index", True), ("readback_dim", "i32", False)):
        for buffer in ("memref<i64>", "tensor<i64>", "memref<1xi32, 1>"):
            yield _i(f"hip.{op}", f"{buffer}->{result}",
                     f"%v = hip.{op}(%ctx, %b : {buffer}) -> {result}", [("%b", buffer)],
                     "accept" if ok else "reject")
    yield _i("hip.readback_scalar", "index-operand",
             '%v = "hip.readback_scalar"(%ctx, %b) : (!hip.context, index) -> i64', [("%b", "index")],
             "reject")
    yield from _control_instances()
    yield from _graph_instances()


_DECLS = ("func.func private @body(!hip.context)\n"
          "func.func private @then(!hip.context)\nfunc.func private @else(!hip.context)")


@dataclass(frozen=True)
class _WithDecls(Instance):
    @property
    def text(self) -> str:
        return super().text + _DECLS + "\n"


def _c(op: str, label: str, body: str, args, expect: str = "accept") -> Instance:
    base = _i(op, label, body, args, expect)
    return _WithDecls(base.op, base.name, base.body, base.args, base.expect)


def _control_instances() -> Iterator[Instance]:
    m = "memref<16xf32>"
    t = "tensor<16xf32>"
    common = [("%n", "index"), ("%c", "i1"), ("%v", m), ("%w", m), ("%t", t)]
    loop = "hip.loop"
    yield _c(loop, "counted", "hip.loop(%ctx, %n) body @body {num_loop_carried = 0 : i32}", common)
    yield _c(loop, "cond", "hip.loop(%ctx, %n, %c) body @body {num_loop_carried = 0 : i32}", common)
    yield _c(loop, "iter-args", "hip.loop(%ctx, %n, %c) iter_args(%v : memref<16xf32>) captures(%w : "
             "memref<16xf32>) body @body {cond_is_passthrough, num_loop_carried = 1 : i32}", common)
    yield _c(loop, "tensor", "%r = hip.loop(%ctx, %n) iter_args(%t : tensor<16xf32>) -> "
             "(tensor<16xf32>) body @body {num_loop_carried = 1 : i32}", common)
    yield _c(loop, "carried-mismatch", "hip.loop(%ctx, %n) iter_args(%v : memref<16xf32>) body @body "
             "{num_loop_carried = 0 : i32}", common, "reject")
    yield _c(loop, "no-body-func", "hip.loop(%ctx, %n) body @missing {num_loop_carried = 0 : i32}",
             common, "reject")
    yield _c(loop, "no-carried-attr", "hip.loop(%ctx, %n) body @body", common, "reject")
    yield _c(loop, "tensor-wrong-result", "%r = hip.loop(%ctx, %n) iter_args(%t : tensor<16xf32>) -> "
             "(tensor<8xf32>) body @body {num_loop_carried = 1 : i32}", common, "reject")
    iff = "hip.if"
    yield _c(iff, "memref", "hip.if(%ctx, %c) outs(%v : memref<16xf32>) captures(%w, %n : "
             "memref<16xf32>, index) then @then else @else {num_outputs = 1 : i32}", common)
    yield _c(iff, "no-outs", "hip.if(%ctx, %c) then @then else @else {num_outputs = 0 : i32}", common)
    yield _c(iff, "tensor", "%s = hip.if(%ctx, %c) outs(%t : tensor<16xf32>) -> (tensor<16xf32>) "
             "then @then else @else {num_outputs = 1 : i32}", common)
    yield _c(iff, "outputs-mismatch", "hip.if(%ctx, %c) outs(%v : memref<16xf32>) then @then else "
             "@else {num_outputs = 2 : i32}", common, "reject")
    yield _c(iff, "no-else", "hip.if(%ctx, %c) then @then else @missing {num_outputs = 0 : i32}",
             common, "reject")


def _graph_instances() -> Iterator[Instance]:
    a = [("%a", "memref<4x4xf32>")]
    add = ("hip.miopen.add(%ctx) ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%a : "
           "memref<4x4xf32>)")
    for op in ("hip.miopen.graph", "hip.hipblaslt.graph"):
        yield _i(op, "kernel", f"{op} {{\n  {add}\n}}", a)
        yield _i(op, "attrs", f"{op} {{\n  {add}\n}} {{fused = true}}", a)
        yield _i(op, "empty", f"{op} {{\n}}", a)
        yield _i(op, "two-blocks", f"{op} {{\n  {add}\n^bb1:\n  {add}\n}}", a, "reject")
    t = [("%t", "tensor<4xf32>")]
    outline = "hip.hipdnn_graph_outline"
    yield _i(outline, "yield", f"%r = {outline} ins(%t : tensor<4xf32>) -> tensor<4xf32> {{\n"
             "^bb0(%x: tensor<4xf32>):\n  hip.yield %x : tensor<4xf32>\n}", t)
    # no verifier compares the yield with the results (hip-ep's neither)
    yield _i(outline, "result-less-yield", f"%r = {outline} ins(%t : tensor<4xf32>) -> tensor<4xf32> {{\n"
             "^bb0(%x: tensor<4xf32>):\n  \"hip.yield\"() : () -> ()\n}", t)
    yield _i(outline, "memref-input", f"%r = {outline} ins(%m : memref<4xf32>) -> tensor<4xf32> {{\n"
             "^bb0(%x: memref<4xf32>):\n}", [*t, ("%m", "memref<4xf32>")],
             "reject")
    yield _i("hip.yield", "outside", 'hip.yield %t : tensor<4xf32>', t, "reject")
    const = "hip.constant"
    yield _i(const, "value", "%c = hip.constant {value = dense<1.000000e+00> : tensor<4xf32>} : "
             "tensor<4xf32>", [])
    yield _i(const, "location", '%c = hip.constant {location = "w.bin", offset = 0 : i64, size = 16 : '
             'i64} : tensor<4xf32>', [])
    yield _i(const, "address", "%c = hip.constant {memory_address = 4096 : i64, size = 16 : i64} : "
             "tensor<4xf32>", [])
    yield _i(const, "null-address", "%c = hip.constant {memory_address = 0 : i64, size = 16 : i64} : "
             "tensor<4xf32>", [], "reject")
    yield _i(const, "no-source", "%c = hip.constant : tensor<4xf32>", [], "reject")
    yield _i(const, "two-sources", '%c = hip.constant {location = "w.bin", offset = 0 : i64, size = '
             '16 : i64, value = dense<1.000000e+00> : tensor<4xf32>} : tensor<4xf32>', [], "reject")
    yield _i(const, "size-mismatch", '%c = hip.constant {location = "w.bin", offset = 0 : i64, size = '
             '8 : i64} : tensor<4xf32>', [], "reject")
    get = "hip.get_constant"
    yield _i(get, "memref", "%g = hip.get_constant(%ctx, %i) : memref<4xf32>", [("%i", "i64")])
    yield _i(get, "index-operand", '%g = "hip.get_constant"(%ctx, %i) : (!hip.context, index) -> '
             "memref<4xf32>", [("%i", "index")], "reject")


def instances() -> list[Instance]:
    found = [i for spec in KERNELS for i in kernel_instances(spec)]
    found += list(other_instances())
    return found


# ------------------------------------------------------------- running both

_SEPARATOR = re.compile(r"^// -----$", re.M)


@dataclass
class Verdict:
    ok: bool
    printed: str = ""
    generic: str = ""
    error: str = ""


def memplan_verdict(text: str) -> Verdict:
    import io

    from memplan.context import make_context
    from memplan.printing import print_module
    from memplan.tools.source import parse_module
    from memplan.verification import verify_module

    try:
        module = parse_module(make_context(), text, "instance.mlir")
        verify_module(module)
    except Exception as error:  # noqa: BLE001  (any rejection is a verdict)
        return Verdict(False, error=str(error).strip().splitlines()[-1] if str(error).strip() else repr(error))
    custom, generic = io.StringIO(), io.StringIO()
    print_module(module, custom)
    print_module(module, generic, generic=True)
    return Verdict(True, custom.getvalue(), generic.getvalue())


def _tool_batch(tool: str, texts: Sequence[str], generic: bool) -> list[Verdict]:
    source = "\n// -----\n".join(texts)
    command = [tool, "--split-input-file", "-"]
    if generic:
        command.append("--mlir-print-op-generic")
    done = subprocess.run(command, input=source, capture_output=True, text=True, timeout=600)
    if done.returncode < 0:
        raise RuntimeError(f"hip-mlir-opt died (signal {-done.returncode})")
    parts = _SEPARATOR.split(done.stdout)
    if len(parts) != len(texts):
        raise RuntimeError(f"{len(parts)} outputs for {len(texts)} inputs")
    errors: dict[int, str] = {}
    starts = []
    line = 1
    for text in texts:
        starts.append(line)
        line += text.count("\n") + 2  # the separator line and its newline
    for m in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", done.stderr, re.M):
        at = int(m.group(1))
        index = max(i for i, s in enumerate(starts) if s <= at)
        errors.setdefault(index, m.group(2))
    return [Verdict(bool(p.strip()), p.strip() + "\n" if p.strip() else "", "", errors.get(i, ""))
            for i, p in enumerate(parts)]


def tool_verdicts(tool: str, texts: Sequence[str], generic: bool = False, batch: int = 150) -> list[Verdict]:
    out: list[Verdict] = []
    for start in range(0, len(texts), batch):
        chunk = texts[start:start + batch]
        try:
            out += _tool_batch(tool, chunk, generic)
        except (RuntimeError, subprocess.TimeoutExpired):
            for text in chunk:  # one at a time: a crash is that instance's verdict
                try:
                    out += _tool_batch(tool, [text], generic)
                except (RuntimeError, subprocess.TimeoutExpired) as error:
                    out.append(Verdict(False, error=f"crash: {error}"))
    return out


def stricter_reason(error: str) -> str | None:
    for pattern, reason in STRICTER:
        if re.search(pattern, error):
            return reason
    return None


def compare(tool: str, cases: Sequence[Instance], show: int) -> int:
    mine = [memplan_verdict(c.text) for c in cases]
    theirs = tool_verdicts(tool, [c.text for c in cases])
    agree = sum(m.ok == t.ok for m, t in zip(mine, theirs))
    both = [i for i, (m, t) in enumerate(zip(mine, theirs)) if m.ok and t.ok]
    theirs_generic = tool_verdicts(tool, [cases[i].text for i in both], generic=True)
    same_custom = sum(mine[i].printed.strip() == theirs[i].printed.strip() for i in both)
    same_generic = sum(mine[i].generic.strip() == g.printed.strip() for i, g in zip(both, theirs_generic))
    # each tool's print, re-read by the other
    read_mine = tool_verdicts(tool, [mine[i].printed for i in both])
    read_theirs = [memplan_verdict(theirs[i].printed) for i in both]
    stricter: Counter[str] = Counter()
    disagreements: dict[str, list[str]] = defaultdict(list)
    for c, m, t in zip(cases, mine, theirs):
        if m.ok == t.ok:
            continue
        reason = stricter_reason(m.error) if not m.ok else None
        if reason:
            stricter[reason] += 1
            continue
        who = "memplan accepts" if m.ok else "hip-ep accepts"
        disagreements[who].append(f"{c.name}: {(t.error if m.ok else m.error)[:160]}")
    expect_hits = sum((t.ok and c.expect == "accept") or (not t.ok and c.expect == "reject")
                      for c, t in zip(cases, theirs))
    ops = len({c.op for c in cases})
    print(f"{len(cases)} instances of {ops} hip ops; hip-ep's verdict as the generator expected: "
          f"{expect_hits}/{len(cases)}")
    print(f"verdicts agree: {agree}/{len(cases)} ({100 * agree / len(cases):.1f}%); "
          f"both accept {len(both)}, both reject {agree - len(both)}")
    print(f"documented stricter (memplan rejects, hip-ep accepts): {sum(stricter.values())}")
    for reason, n in stricter.most_common():
        print(f"  {n:>4}  {reason}")
    undocumented = sum(len(v) for v in disagreements.values())
    print(f"undocumented disagreements: {undocumented}")
    for who, items in disagreements.items():
        print(f"  {who}: {len(items)}")
        for item in items[:show]:
            print(f"    {item}")
    print(f"prints identical where both accept: custom {same_custom}/{len(both)}, "
          f"generic {same_generic}/{len(both)}")
    ok_mine = sum(v.ok for v in read_mine)
    ok_theirs = sum(v.ok for v in read_theirs)
    # A print that neither tool reads back, identical in both: hip-ep's custom form
    # cannot say which optional operands are present (gqa's past_key alone) or an
    # empty variadic list (`outs( : )`); memplan prints what hip-ep prints.
    inexpressible = {i for i, a, b in zip(both, read_mine, read_theirs)
                     if not a.ok and not b.ok and mine[i].printed.strip() == theirs[i].printed.strip()}
    ok_mine = sum(v.ok for v in read_mine)
    ok_theirs = sum(v.ok for v in read_theirs)
    print(f"re-read: hip-mlir-opt reads memplan's print {ok_mine}/{len(both)}; "
          f"memplan reads hip-mlir-opt's print {ok_theirs}/{len(both)}; "
          f"{len(inexpressible)} identical prints neither reads (hip-ep's custom form cannot say them)")
    for label, verdicts in (("hip-ep cannot read memplan's print", read_mine),
                            ("memplan cannot read hip-ep's print", read_theirs)):
        bad = [f"{cases[i].name}: {v.error.strip()[:160]}" for i, v in zip(both, verdicts)
               if not v.ok and i not in inexpressible]
        for item in bad[:show]:
            print(f"  {label}: {item}")
    if show:
        shown = 0
        for i in both:
            if mine[i].printed.strip() != theirs[i].printed.strip() and shown < show:
                shown += 1
                print(f"  print differs: {cases[i].name}\n    memplan: "
                      f"{_op_line(mine[i].printed)}\n    hip-ep:  {_op_line(theirs[i].printed)}")
    unread = len(both) - len(inexpressible)
    failed = undocumented or ok_mine < unread or ok_theirs < unread
    return 1 if failed else 0


def _op_line(printed: str) -> str:
    lines = [l.strip() for l in printed.splitlines() if "hip." in l]
    return lines[0] if lines else printed.strip()[:200]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hip-mlir-opt", metavar="PATH", help="hip-ep's hip-mlir-opt")
    parser.add_argument("--only", metavar="OP", help="instances of this op only (hip.gqa)")
    parser.add_argument("--show", type=int, default=5, metavar="N", help="examples per finding")
    args = parser.parse_args(argv)
    cases = [c for c in instances() if args.only in (None, c.op)]
    tool, why = find_tool(args.hip_mlir_opt)
    if tool is None:
        print(f"{len(cases)} instances generated; comparison skipped: {why}")
        return 0
    return compare(tool, cases, args.show)


if __name__ == "__main__":
    sys.exit(main())
