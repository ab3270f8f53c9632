"""Synthetic `stream.resource.pack` ops for tests and benchmarks of `layout-slices`.

memplan's own models of what IREE packs for a transformer: one slice per
intermediate tensor of an execution region, alive from the op that makes it to its
last use (op index order, inclusive). Sizes are f32 bytes; a dynamic sequence length
``s`` makes them polynomials (``4*hidden*s``, ``4*heads*s*s``, ...), computed in the
IR by `arith.muli` from a function argument as IREE's lowered `stream.tensor.sizeof`
does. Nothing here comes from a published pack.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

__all__ = ["PackSpec", "decoder_pack", "encoder_pack", "pack_ir", "random_pack"]


@dataclass(frozen=True)
class PackSpec:
    """Slices as (start, end, size); a size is an int (bytes) or a tuple
    ``(c1, c2)`` meaning ``c1*s + c2*s*s`` bytes for the unknown ``s``."""

    name: str
    slices: tuple[tuple[int, int, int | tuple[int, int]], ...]

    @property
    def dynamic(self) -> bool:
        return any(isinstance(size, tuple) for _, _, size in self.slices)

    def sizes_at(self, s: int) -> list[int]:
        return [size if isinstance(size, int) else size[0] * s + size[1] * s * s for _, _, size in self.slices]


class _Trace:
    """Records values by op index and their last uses."""

    def __init__(self) -> None:
        self.time = 0
        self.values: list[list] = []  # [start, end, size]

    def op(self, size, *inputs: int) -> int:
        self.time += 1
        for value in inputs:
            self.values[value][1] = self.time
        self.values.append([self.time, self.time, size])
        return len(self.values) - 1

    def use(self, *inputs: int) -> None:
        self.time += 1
        for value in inputs:
            self.values[value][1] = self.time


def _transformer(name, layers, hidden, heads, kv_heads, inter, tokens, scores, *, gated: bool) -> PackSpec:
    """One execution region of a transformer stack; ``tokens(k)`` gives the size of
    a ``k``-wide activation, ``scores(h)`` that of ``h`` heads' score matrices."""
    head_dim = hidden // heads
    trace = _Trace()
    x = trace.op(tokens(hidden))
    rope = (trace.op(tokens(head_dim)), trace.op(tokens(head_dim))) if gated else None
    for _ in range(layers):
        norm = trace.op(tokens(hidden), x)
        q = trace.op(tokens(hidden), norm)
        k = trace.op(tokens(kv_heads * head_dim), norm)
        v = trace.op(tokens(kv_heads * head_dim), norm)
        if rope is not None:
            q = trace.op(tokens(hidden), q, *rope)
            k = trace.op(tokens(kv_heads * head_dim), k, *rope)
        s = trace.op(scores(heads), q, k)
        s = trace.op(scores(heads), s)  # mask / scale
        p = trace.op(scores(heads), s)  # softmax
        a = trace.op(tokens(hidden), p, v)
        o = trace.op(tokens(hidden), a)
        x = trace.op(tokens(hidden), o, x)
        norm = trace.op(tokens(hidden), x)
        if gated:
            g = trace.op(tokens(inter), norm)
            u = trace.op(tokens(inter), norm)
            h = trace.op(tokens(inter), g, u)
        else:
            h = trace.op(tokens(inter), norm)
            h = trace.op(tokens(inter), h)  # gelu
        d = trace.op(tokens(hidden), h)
        x = trace.op(tokens(hidden), d, x)
    trace.use(x, *(rope or ()))
    return PackSpec(name, tuple((a, b, size) for a, b, size in trace.values))


def encoder_pack(layers: int = 12, seq: int = 128, hidden: int = 768, heads: int = 12, inter: int = 3072) -> PackSpec:
    """A BERT-style encoder at a fixed sequence length: static sizes."""
    return _transformer(
        f"encoder-{layers}x{hidden}-seq{seq}", layers, hidden, heads, heads, inter,
        lambda k: 4 * seq * k, lambda h: 4 * h * seq * seq, gated=False,
    )


def decoder_pack(layers: int = 8, hidden: int = 1024, heads: int = 16, kv_heads: int = 4, inter: int = 2816) -> PackSpec:
    """A Llama-style decoder (RMS norm, rotary tables, grouped-query attention, gated
    MLP) with a dynamic sequence length: sizes ``4*k*s`` and ``4*heads*s*s``."""
    return _transformer(
        f"decoder-{layers}x{hidden}-dynamic", layers, hidden, heads, kv_heads, inter,
        lambda k: (4 * k, 0), lambda h: (0, 4 * h), gated=True,
    )


def random_pack(
    count: int, seed: int = 0, *, max_life: int = 40, dynamic: float = 0.0, square: float = 0.0
) -> PackSpec:
    """``count`` slices with short lifetimes over a long program (a few long-lived
    ones), sizes from a few hundred bytes to megabytes; a ``dynamic`` share of them
    sized ``c*s``, of which a ``square`` share ``c*s*s`` instead."""
    rng = random.Random(seed)
    slices = []
    for i in range(count):
        start = i + rng.randrange(0, 4)
        life = rng.randrange(0, max_life) if rng.random() > 0.02 else rng.randrange(max_life, 20 * max_life)
        size = rng.choice((256, 1024, 4096)) * rng.randrange(1, 512)
        if rng.random() < dynamic:
            if rng.random() < square:
                slices.append((start, start + life, (0, rng.choice((4, 16, 64)))))
            else:
                slices.append((start, start + life, (size // 64, 0)))
        else:
            slices.append((start, start + life, size))
    return PackSpec(f"random-{count}-{seed}", tuple(slices))


def pack_ir(spec: PackSpec, *, alignment: int | None = None) -> str:
    """A `util.func` holding the pack, its sizes computed from `%s` when dynamic,
    returning the total and every offset. ``alignment`` sets both of the
    function's `stream.resources` alignments (IREE's default config otherwise)."""
    lines = []
    constants: dict[int, str] = {}
    sizes: dict[object, str] = {}

    def constant(value: int) -> str:
        if value not in constants:
            constants[value] = f"%c{value}"
            lines.append(f"  %c{value} = arith.constant {value} : index")
        return constants[value]

    def size_value(size) -> str:
        if isinstance(size, int):
            return constant(size)
        if size not in sizes:
            linear, square = size
            name = f"%sz{len(sizes)}"
            terms = []
            if linear:
                terms.append(f"{name}_lin")
                lines.append(f"  {name}_lin = arith.muli %s, {constant(linear)} : index")
            if square:
                if "%ss" not in sizes.values():
                    lines.append("  %ss = arith.muli %s, %s : index")
                    sizes["ss"] = "%ss"
                terms.append(f"{name}_sq")
                lines.append(f"  {name}_sq = arith.muli %ss, {constant(square)} : index")
            if len(terms) == 2:
                lines.append(f"  {name} = arith.addi {terms[0]}, {terms[1]} : index")
                sizes[size] = name
            else:
                sizes[size] = terms[0]
        return sizes[size]

    operands = [size_value(size) for _, _, size in spec.slices]
    count = len(spec.slices)
    entries = ",\n".join(f"    [{a}, {b}] = {v}" for (a, b, _), v in zip(spec.slices, operands))
    results = ", ".join(["index"] * (count + 1))
    returned = ", ".join(f"%t#{i}" for i in range(count + 1))
    attributes = ""
    if alignment is not None:
        attributes = (
            " attributes {stream.resources = #stream.resource_config<{"
            f"min_buffer_offset_alignment = {alignment}, min_buffer_range_alignment = {alignment}}}>}}"
        )
    name = re.sub(r"\W", "_", spec.name)
    body = "\n".join(lines)
    return (
        f"util.func public @{name}(%s: index) -> ({results}){attributes} {{\n{body}\n"
        f"  %t:{count + 1} = stream.resource.pack slices({{\n{entries}\n  }}) : index\n"
        f"  util.return {returned} : {results}\n}}\n"
    )
