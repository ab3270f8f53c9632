"""Memref layouts: affine maps of any form, their MLIR text, and their strides.

xDSL 0.75 builds affine expressions through operators that refuse semi-affine
forms: `d1 * s0` raises `NotImplementedError` while the text is parsed, so a
layout that `mlir-opt` prints (`affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>`, the
canonical form of `strided<[1, ?]>`) crashes the parser. Importing this module
makes xDSL's affine parser keep such an operation as a plain binary node instead;
nothing evaluates it, so a layout memplan cannot evaluate stays opaque.

xDSL prints affine expressions fully parenthesized (`((d0 * 4) + d1)`); MLIR prints
them with precedence and as subtractions (`d0 * 4 + d1 - 3`). `affine_map_text`
writes MLIR's form; `memplan.printing.builtin_syntax` uses it.

`strides_and_offset` reads the strides of a layout in the three forms MLIR's
`getStridesAndOffset` accepts: no layout (row-major), `strided<...>`, and an affine
map whose single result is a sum of dimensions times a constant or a symbol plus a
constant or a symbol offset. Anything else is not strided (None).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.parser.affine_parser import AffineParser

__all__ = [
    "affine_expr_text",
    "affine_map_text",
    "is_identity_layout",
    "strides_and_offset",
]

_KINDS = {
    "*": AffineBinaryOpKind.Mul,
    "floordiv": AffineBinaryOpKind.FloorDiv,
    "ceildiv": AffineBinaryOpKind.CeilDiv,
    "mod": AffineBinaryOpKind.Mod,
}

_xdsl_create_binop_expr = AffineParser._create_binop_expr  # pyright: ignore[reportPrivateUsage]


def _create_binop_expr(self: AffineParser, lhs: AffineExpr, rhs: AffineExpr, binop):
    """xDSL's construction, or an unsimplified node where xDSL refuses the form."""
    try:
        return _xdsl_create_binop_expr(self, lhs, rhs, binop)
    except NotImplementedError:
        kind = _KINDS.get(binop.text)
        if kind is None:
            raise
        return AffineBinaryOpExpr(kind, lhs, rhs)


AffineParser._create_binop_expr = _create_binop_expr  # pyright: ignore[reportPrivateUsage]


# ---------------------------------------------------------------------------------
# MLIR's text
# ---------------------------------------------------------------------------------

_SPELLING = {
    AffineBinaryOpKind.Add: " + ",
    AffineBinaryOpKind.Mul: " * ",
    AffineBinaryOpKind.FloorDiv: " floordiv ",
    AffineBinaryOpKind.CeilDiv: " ceildiv ",
    AffineBinaryOpKind.Mod: " mod ",
}


def _constant(expr: AffineExpr) -> int | None:
    return expr.value if isinstance(expr, AffineConstantExpr) else None


def affine_expr_text(expr: AffineExpr, strong: bool = False) -> str:
    """`expr` as MLIR's printer writes it; `strong` when the enclosing operator binds
    tighter than `+` (the expression is then parenthesized unless atomic)."""
    if isinstance(expr, AffineDimExpr):
        return f"d{expr.position}"
    if isinstance(expr, AffineSymExpr):
        return f"s{expr.position}"
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = expr.lhs, expr.rhs
    if expr.kind is not AffineBinaryOpKind.Add:
        if expr.kind is AffineBinaryOpKind.Mul and _constant(rhs) == -1:
            text = "-" + affine_expr_text(lhs, True)
        else:
            text = (affine_expr_text(lhs, True) + _SPELLING[expr.kind]
                    + affine_expr_text(rhs, True))
        return f"({text})" if strong else text
    text = _sum_text(lhs, rhs)
    return f"({text})" if strong else text


def _sum_text(lhs: AffineExpr, rhs: AffineExpr) -> str:
    """`lhs + rhs`, written as a subtraction when `rhs` is negative."""
    left = affine_expr_text(lhs)
    if isinstance(rhs, AffineBinaryOpExpr) and rhs.kind is AffineBinaryOpKind.Mul:
        factor = _constant(rhs.rhs)
        if factor == -1:
            nested = isinstance(rhs.lhs, AffineBinaryOpExpr) and (
                rhs.lhs.kind is AffineBinaryOpKind.Add
            )
            return f"{left} - {affine_expr_text(rhs.lhs, nested)}"
        if factor is not None and factor < -1:
            return f"{left} - {affine_expr_text(rhs.lhs, True)} * {-factor}"
    value = _constant(rhs)
    if value is not None and value < 0:
        return f"{left} - {-value}"
    return f"{left} + {affine_expr_text(rhs)}"


def affine_map_text(amap: AffineMap) -> str:
    """`(d0, d1)[s0] -> (d0 + d1 * s0)`: the map as MLIR prints it (without the
    `affine_map<...>` around it)."""
    dims = ", ".join(f"d{i}" for i in range(amap.num_dims))
    symbols = ", ".join(f"s{i}" for i in range(amap.num_symbols))
    results = ", ".join(affine_expr_text(e) for e in amap.results)
    head = f"({dims})" + (f"[{symbols}]" if amap.num_symbols else "")
    return f"{head} -> ({results})"


# ---------------------------------------------------------------------------------
# Strides
# ---------------------------------------------------------------------------------


def _terms(expr: AffineExpr) -> list[AffineExpr] | None:
    if isinstance(expr, AffineBinaryOpExpr):
        if expr.kind is AffineBinaryOpKind.Add:
            left, right = _terms(expr.lhs), _terms(expr.rhs)
            return None if left is None or right is None else left + right
        if expr.kind is not AffineBinaryOpKind.Mul:
            return None
    return [expr]


def _map_strides(amap: AffineMap, rank: int) -> tuple[list[int], int] | None:
    """Strides and offset of a strided affine layout (DYNAMIC_INDEX for a symbol)."""
    if amap.num_dims != rank or len(amap.results) != 1:
        return None
    terms = _terms(amap.results[0])
    if terms is None:
        return None
    strides: list[int | None] = [None] * rank
    offset: int | None = None
    for term in terms:
        factor: AffineExpr = AffineConstantExpr(1)
        if isinstance(term, AffineBinaryOpExpr):
            base, factor = term.lhs, term.rhs
            if isinstance(base, AffineConstantExpr | AffineSymExpr):
                base, factor = factor, base
        else:
            base = term
        if isinstance(base, AffineDimExpr):
            if strides[base.position] is not None:
                return None
            if isinstance(factor, AffineConstantExpr):
                strides[base.position] = factor.value
            elif isinstance(factor, AffineSymExpr):
                strides[base.position] = DYNAMIC_INDEX
            else:
                return None
        elif isinstance(base, AffineConstantExpr | AffineSymExpr) and isinstance(
            factor, AffineConstantExpr
        ) and factor.value == 1:
            if offset is not None:
                return None
            offset = base.value if isinstance(base, AffineConstantExpr) else DYNAMIC_INDEX
        else:
            return None
    return [0 if s is None else s for s in strides], 0 if offset is None else offset


def _row_major(shape: tuple[int, ...]) -> list[int]:
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        if running != DYNAMIC_INDEX:
            running = DYNAMIC_INDEX if size == DYNAMIC_INDEX else running * size
    return strides[::-1]


def strides_and_offset(t: Attribute) -> tuple[list[int], int] | None:
    """Strides and offset of a memref type (DYNAMIC_INDEX where dynamic), or None
    when its layout is not strided (or the type is not a ranked memref)."""
    if not isinstance(t, MemRefType):
        return None
    layout = t.layout
    if isinstance(layout, NoneAttr):
        return _row_major(t.get_shape()), 0
    if isinstance(layout, StridedLayoutAttr):
        offset = layout.get_offset()
        return (
            [DYNAMIC_INDEX if s is None else s for s in layout.get_strides()],
            DYNAMIC_INDEX if offset is None else offset,
        )
    if isinstance(layout, AffineMapAttr):
        amap = layout.data
        if _is_identity(amap, t.get_num_dims()):
            return _row_major(t.get_shape()), 0
        return _map_strides(amap, t.get_num_dims())
    return None


def _is_identity(amap: AffineMap, rank: int) -> bool:
    return (
        amap.num_dims == rank
        and amap.num_symbols == 0
        and list(amap.results) == [AffineDimExpr(i) for i in range(rank)]
    )


def is_identity_layout(layout: Attribute, rank: int) -> bool:
    """Whether `layout` is the identity (no layout, or the identity affine map,
    which MLIR drops from the type)."""
    if isinstance(layout, NoneAttr):
        return True
    return isinstance(layout, AffineMapAttr) and _is_identity(layout.data, rank)
