"""Folders and canonicalizations of IREE's `util` value, buffer and string ops
(`PATTERNS`, by op name), declared on the ops (`memplan.dialects.iree.util_values`,
`memplan.dialects.iree.util_buffer`), as IREE 3.13's `UtilOpFolders.cpp`:

- `util.cast` of a cast back to the original type is that value; a cast of
  `util.null` is a null of the new type.
- `util.cmp.eq`/`cmp.ne` of one value, or of equal constants, is a constant.
- `util.range.min`/`max`: one operand is itself, constants fold, two operands
  become `arith.minui`/`maxui`, constants merge into one and duplicates go;
  `util.range.extents` folds its constant ranges, one or two ranges become
  arithmetic, duplicate ranges go.
- `util.align` of a value already aligned (a multiple of a constant alignment, an
  align to the same or a multiple alignment, sums and differences of aligned
  values, products with an aligned factor) is the value; constants fold.
- `util.sizeof` an integer or float is its rounded byte width.
- `util.switch` at a constant index is that case (or the default out of range);
  a switch whose cases all are the default is the default.
- `util.assume.int`: constant operands and unused results are dropped, rows of
  one repeated assumption become one, an assumption of a single value becomes
  that constant, a repeated operand is assumed once (its rows intersected);
  `(x / c) * c` of an assumed multiple of `c` is `x` (on `arith.muli`).
- `util.unfoldable_constant` is an `arith.constant` behind
  `util.optimization_barrier`.
- `util.buffer.subspan` of the whole buffer is the buffer; a subspan of a subspan
  is one subspan of the first source, and an op reading or writing a range of a
  subspan accesses its source at the summed offset; a select of two equally long
  subspans of one buffer is one subspan (on `arith.select`). `util.buffer.size` is the size an op
  states for the buffer (its definer, or an earlier user in the block), or the
  storage size of a constant; of a select it is a select of the sizes.
  `util.buffer.storage` of a subspan is the storage of its source, offset.
- `util.string.format`: constant arguments become text of the template (all
  constant: a `util.buffer.constant` string), `{N}` placeholders become `{}`, and
  `"{}"` of one buffer is the buffer, of one integer `util.string.itoa`; itoa of a
  constant is a string constant, and it looks through `arith.extui`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import ConstantLike

from memplan.analysis.data_layout import stream_element_bytes
from memplan.dialects.iree import util, util_buffer as ub, util_values as uv
from memplan.util_interfaces import Subranges
from memplan.interfaces import get_interface
from memplan.passes.patterns.common import replace_uses
from memplan.passes.patterns.memref import constant_index
from memplan.passes.patterns.stream import known_size

__all__ = ["PATTERNS"]


def _constant(rewriter: PatternRewriter, at: Operation, value: int, type: Attribute) -> SSAValue:
    op = arith.ConstantOp(IntegerAttr(value, type, truncate_bits=True))
    rewriter.insert(op, InsertPoint.before(at))
    return op.result


def _replace_with_constant(
    rewriter: PatternRewriter, op: Operation, value: int, type: Attribute
) -> None:
    rewriter.replace(op, arith.ConstantOp(IntegerAttr(value, type, truncate_bits=True)))


def _constant_attr(value: SSAValue) -> Attribute | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner.has_trait(ConstantLike, value_if_unregistered=False):
        return owner.properties.get("value") or owner.attributes.get("value")
    return None


def _signed(value: int, type: Attribute) -> int:
    """`value` read as a signed integer of `type` (index is 64 bits)."""
    width = type.width.data if isinstance(type, IntegerType) else 64
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _signed_constant(value: SSAValue) -> int | None:
    c = constant_index(value)
    return None if c is None else _signed(c, value.type)


# --------------------------------------------------------------------------------
# Casts and comparisons
# --------------------------------------------------------------------------------


class FoldCast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.CastOp, rewriter: PatternRewriter, /):
        source = op.operand.owner
        if isinstance(source, uv.CastOp) and source.operand.type == op.result.type:
            rewriter.replace(op, [], [source.operand])
        elif isinstance(source, uv.NullOp):
            rewriter.replace(op, uv.NullOp(op.result.type))


class FoldCompare(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.CmpEQOp | uv.CmpNEOp, rewriter: PatternRewriter, /):
        same = op.lhs is op.rhs
        if not same:
            lhs, rhs = _constant_attr(op.lhs), _constant_attr(op.rhs)
            same = lhs is not None and lhs == rhs
        if same:
            _replace_with_constant(
                rewriter, op, int(isinstance(op, uv.CmpEQOp)), IntegerType(1)
            )


# --------------------------------------------------------------------------------
# Ranges and alignment
# --------------------------------------------------------------------------------


_RANGE_OPS: dict[type[Operation], tuple[Callable[[int, int], int], type[Operation]]] = {
    uv.RangeMinOp: (min, arith.MinUIOp),
    uv.RangeMaxOp: (max, arith.MaxUIOp),
}


class FoldUniformRange(RewritePattern):
    """min/max: one operand is itself; all constant fold (signed, as IREE)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.RangeMinOp | uv.RangeMaxOp, rewriter: PatternRewriter, /):
        pick, _ = _RANGE_OPS[type(op)]
        values = list(op.operands_)
        if len(values) == 1:
            rewriter.replace(op, [], values)
            return
        constants = [_signed_constant(v) for v in values]
        if all(c is not None for c in constants):
            result = constants[0]
            for c in constants[1:]:
                result = pick(result, c)  # type: ignore[arg-type]
            _replace_with_constant(rewriter, op, result, op.result.type)  # type: ignore[arg-type]


class ExpandSimpleRange(RewritePattern):
    """min/max of two values is `arith.minui`/`maxui`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.RangeMinOp | uv.RangeMaxOp, rewriter: PatternRewriter, /):
        _, arith_op = _RANGE_OPS[type(op)]
        if len(op.operands_) == 2:
            rewriter.replace(op, arith_op(op.operands_[0], op.operands_[1]))


class SimplifyUniformRange(RewritePattern):
    """Constants merge into one (placed last) and duplicate values go."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.RangeMinOp | uv.RangeMaxOp, rewriter: PatternRewriter, /):
        pick, _ = _RANGE_OPS[type(op)]
        dynamic: dict[SSAValue, None] = {}
        merged: int | None = None
        for value in op.operands_:
            c = _signed_constant(value)
            if c is None:
                dynamic[value] = None
            else:
                merged = c if merged is None else pick(merged, c)
        if len(dynamic) + (merged is not None) == len(op.operands_):
            return
        values = list(dynamic)
        if merged is not None:
            values.append(_constant(rewriter, op, merged, op.result.type))
        rewriter.replace(op, type(op)(values, op.result.type))


def _range_end(rewriter: PatternRewriter, at: Operation, offset: SSAValue,
               length: SSAValue, one: SSAValue) -> SSAValue:
    add = arith.AddiOp(offset, length)
    sub = arith.SubiOp(add.result, one)
    rewriter.insert([add, sub], InsertPoint.before(at))
    return sub.result


class FoldConstantRanges(RewritePattern):
    """Constant ranges fold to one extent combined with the dynamic ones."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.RangeExtentsOp, rewriter: PatternRewriter, /):
        type = op.min.type
        offsets: list[SSAValue] = []
        lengths: list[SSAValue] = []
        low: int | None = None
        high: int | None = None
        for offset, length in zip(op.offsets, op.lengths):
            o, n = _signed_constant(offset), _signed_constant(length)
            if o is None or n is None:
                offsets.append(offset)
                lengths.append(length)
                continue
            low = o if low is None else min(low, o)
            high = o + n - 1 if high is None else max(high, o + n - 1)
        if low is None or high is None:
            return
        low_value = _constant(rewriter, op, low, type)
        high_value = _constant(rewriter, op, high - low + 1, type)
        if not offsets:
            rewriter.replace(op, [], [low_value, high_value])
            return
        rest = uv.RangeExtentsOp(offsets, lengths, type)
        new_min = arith.MinUIOp(rest.min, low_value)
        new_max = arith.MaxUIOp(rest.max, high_value)
        rewriter.replace(op, [rest, new_min, new_max], [new_min.result, new_max.result])


class ExpandSimpleRangeExtents(RewritePattern):
    """One range is [offset, offset + length - 1]; two become min/max."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.RangeExtentsOp, rewriter: PatternRewriter, /):
        count = len(op.offsets)
        if count not in (1, 2):
            return
        one = _constant(rewriter, op, 1, op.min.type)
        ends = [
            _range_end(rewriter, op, o, n, one) for o, n in zip(op.offsets, op.lengths)
        ]
        if count == 1:
            rewriter.replace(op, [], [op.offsets[0], ends[0]])
            return
        low = arith.MinUIOp(op.offsets[0], op.offsets[1])
        high = arith.MaxUIOp(ends[0], ends[1])
        rewriter.replace(op, [low, high], [low.result, high.result])


class DeduplicateRangeExtents(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.RangeExtentsOp, rewriter: PatternRewriter, /):
        ranges = dict.fromkeys(zip(op.offsets, op.lengths))
        if len(ranges) == len(op.offsets):
            return
        rewriter.replace(op, uv.RangeExtentsOp(
            [o for o, _ in ranges], [n for _, n in ranges], op.min.type
        ))


def is_aligned_to(value: SSAValue, alignment: SSAValue) -> bool:
    """Whether `value` is provably a multiple of `alignment` (IREE's
    `isAlignedTo`: constants, align ops, sums, differences and products)."""
    static_alignment = constant_index(alignment)
    static_value = constant_index(value)
    if static_value is not None and static_alignment:
        if static_value % static_alignment == 0:
            return True
    owner = value.owner
    if isinstance(owner, uv.AlignOp):
        if owner.alignment is alignment:
            return True
        source_alignment = constant_index(owner.alignment)
        if static_alignment and source_alignment is not None:
            if source_alignment >= static_alignment and math.gcd(
                source_alignment, static_alignment
            ) == static_alignment:
                return True
        return is_aligned_to(owner.value, alignment)
    if isinstance(owner, arith.AddiOp | arith.SubiOp):
        return is_aligned_to(owner.lhs, alignment) and is_aligned_to(owner.rhs, alignment)
    if isinstance(owner, arith.MuliOp):
        return is_aligned_to(owner.lhs, alignment) or is_aligned_to(owner.rhs, alignment)
    return False


class FoldAlign(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.AlignOp, rewriter: PatternRewriter, /):
        if is_aligned_to(op.value, op.alignment):
            rewriter.replace(op, [], [op.value])
            return
        value, alignment = constant_index(op.value), constant_index(op.alignment)
        if value is not None and alignment:
            aligned = (value + alignment - 1) // alignment * alignment
            _replace_with_constant(rewriter, op, aligned, op.result.type)


class FoldSizeOf(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.SizeOfOp, rewriter: PatternRewriter, /):
        if isinstance(op.sized_type, IntegerType | AnyFloat):
            size = stream_element_bytes(op.sized_type)
            if size is not None:
                _replace_with_constant(rewriter, op, size, IndexType())


# --------------------------------------------------------------------------------
# Switch, assumptions, hints
# --------------------------------------------------------------------------------


class FoldSwitch(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.SwitchOp, rewriter: PatternRewriter, /):
        index = _signed_constant(op.index)
        if index is not None:
            values = list(op.values)
            chosen = values[index] if 0 <= index < len(values) else op.default_value
            rewriter.replace(op, [], [chosen])
        elif all(v is op.default_value for v in op.values):
            rewriter.replace(op, [], [op.default_value])


def _fixed_value(row: Sequence[uv.IntAssumptionAttr]) -> int | None:
    if len(row) != 1:
        return None
    low, high = row[0].value("umin"), row[0].value("umax")
    return low if low is not None and low == high else None


class CanonicalizeAssumeInt(RewritePattern):
    """Constant operands, unused results and single-valued assumptions go; a row
    of one repeated assumption becomes that one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.AssumeIntOp, rewriter: PatternRewriter, /):
        rows = [op.rows(i) for i in range(len(op.operands_))]
        needed = any(
            _constant_attr(v) is not None
            or (len(r) > 1 and len(set(r)) == 1)
            or (len(r) == 1 and _fixed_value(r) is not None)
            for v, r in zip(op.operands_, rows)
        )
        if not needed:
            return
        kept_values: list[SSAValue] = []
        kept_rows: list[Sequence[uv.IntAssumptionAttr]] = []
        kept_results: list[SSAValue] = []
        for value, row, result in zip(op.operands_, rows, op.results_):
            if _constant_attr(value) is not None:
                replace_uses(result, value)
                continue
            if not result.uses:
                continue
            if len(row) > 1 and len(set(row)) == 1:
                row = row[:1]
            fixed = _fixed_value(row)
            if fixed is not None:
                replace_uses(result, _constant(rewriter, op, fixed, result.type))
                continue
            kept_values.append(value)
            kept_rows.append(row)
            kept_results.append(result)
        if kept_values:
            new = uv.AssumeIntOp(kept_values, kept_rows)
            rewriter.insert(new, InsertPoint.before(op))
            for old, result in zip(kept_results, new.results_):
                replace_uses(old, result)
        rewriter.erase(op, safe_erase=False)


def _intersect(a: uv.IntAssumptionAttr, b: uv.IntAssumptionAttr) -> uv.IntAssumptionAttr:
    def pick(key: str, combine: Callable[[int, int], int]) -> int | None:
        x, y = a.value(key), b.value(key)
        if x is None:
            return y
        return x if y is None else combine(x, y)

    return uv.IntAssumptionAttr.get(pick("umin", max), pick("umax", min), pick("udiv", math.lcm))


def _zip_rows(
    first: Sequence[uv.IntAssumptionAttr], second: Sequence[uv.IntAssumptionAttr]
) -> tuple[uv.IntAssumptionAttr, ...]:
    """Two rows of assumptions about one value, intersected position by position
    (a single assumption broadcasts)."""
    if tuple(first) == tuple(second):
        return tuple(first)
    size = max(len(first), len(second))
    return tuple(
        _intersect(first[i if len(first) > 1 else 0], second[i if len(second) > 1 else 0])
        for i in range(size)
    )


class DeduplicateAssumeOperands(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.AssumeIntOp, rewriter: PatternRewriter, /):
        merged: dict[SSAValue, tuple[uv.IntAssumptionAttr, ...]] = {}
        for index, value in enumerate(op.operands_):
            row = op.rows(index)
            merged[value] = _zip_rows(row, merged[value]) if value in merged else row
        if len(merged) == len(op.operands_):
            return
        new = uv.AssumeIntOp(list(merged), list(merged.values()))
        rewriter.insert(new, InsertPoint.before(op))
        position = {value: i for i, value in enumerate(merged)}
        for value, result in zip(op.operands_, op.results_):
            replace_uses(result, new.results_[position[value]])
        rewriter.erase(op, safe_erase=False)


def _unioned_divisor(op: uv.AssumeIntOp, index: int) -> int | None:
    """The divisor every row assumes of operand `index` (their gcd), or None when
    a row assumes none."""
    divisors = [row.value("udiv") for row in op.rows(index)]
    if not divisors or any(d is None for d in divisors):
        return None
    return math.gcd(*divisors)  # type: ignore[arg-type]


class FoldDivMulOfAssume(RewritePattern):
    """`(x / c) * c` is `x` when an assumption says `x` is a multiple of `c`
    (registered on `arith.muli`, as IREE registers it with `util.assume.int`); `c`
    is read unsigned, as `divui` reads it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.MuliOp, rewriter: PatternRewriter, /):
        factor = constant_index(op.rhs)
        division = op.lhs.owner
        if factor is None or not isinstance(division, arith.DivUIOp):
            return
        # The division is unsigned: a negative constant is a huge unsigned divisor
        # that no assumed multiple is known to divide.
        if constant_index(division.rhs) != factor or factor <= 0:
            return
        assume = division.lhs.owner
        if not isinstance(assume, uv.AssumeIntOp):
            return
        divisor = _unioned_divisor(assume, list(assume.results_).index(division.lhs))
        if divisor is not None and divisor % factor == 0:
            rewriter.replace(op, [], [division.lhs])


class ExpandUnfoldableConstant(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: uv.UnfoldableConstantOp, rewriter: PatternRewriter, /):
        if not isinstance(
            op.value, IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr | DenseResourceAttr
        ):
            return
        constant = arith.ConstantOp(op.value, op.result.type)  # type: ignore[arg-type]
        rewriter.insert(constant, InsertPoint.before(op))
        rewriter.replace(op, util.OptimizationBarrierOp(constant.result))


# --------------------------------------------------------------------------------
# Buffers
# --------------------------------------------------------------------------------


class FoldWholeSubspan(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.BufferSubspanOp, rewriter: PatternRewriter, /):
        if op.source_size is op.result_size:
            rewriter.replace(op, [], [op.source])


def _add(rewriter: PatternRewriter, at: InsertPoint, a: SSAValue, b: SSAValue) -> SSAValue:
    """`a + b`, folded when both are constants (IREE's createOrFold)."""
    ca, cb = constant_index(a), constant_index(b)
    if ca is not None and cb is not None:
        op: Operation = arith.ConstantOp(IntegerAttr(ca + cb, a.type))
    else:
        op = arith.AddiOp(a, b)
    rewriter.insert(op, at)
    return op.results[0]


class FoldSubspanOfSubspan(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.BufferSubspanOp, rewriter: PatternRewriter, /):
        parent = op.source.owner
        if not isinstance(parent, ub.BufferSubspanOp):
            return
        offset = _add(rewriter, InsertPoint.before(op), parent.source_offset, op.source_offset)
        rewriter.replace(op, ub.BufferSubspanOp(
            parent.source, parent.source_size, offset, op.result_size
        ))


class FoldSubspanIntoConsumers(RewritePattern):
    """An op that accesses a range of a subspan accesses the source instead, at
    the subspan's offset plus its own (IREE's FoldBufferSubspanOpsIntoConsumers)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.BufferSubspanOp, rewriter: PatternRewriter, /):
        for use in list(op.result.uses):
            user = use.operation
            trait = get_interface(user, Subranges)
            fields = None if trait is None else trait.range_of(user, op.result)
            if fields is None:
                continue
            buffer, size, offset, _ = fields
            names = [name for name, _ in user.get_irdl_definition().operands]
            new_offset = _add(
                rewriter, InsertPoint.before(user), op.source_offset, getattr(user, offset)
            )
            for field, value in ((buffer, op.source), (size, op.source_size), (offset, new_offset)):
                user.operands[names.index(field)] = value
            rewriter.notify_op_modified(user)


class SinkSubspanAcrossSelect(RewritePattern):
    """A select of two equally long subspans of one buffer is one subspan at the
    selected offset (IREE's SinkSubspanAcrossSelectOps, on `arith.select`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /):
        first, second = op.lhs.owner, op.rhs.owner
        if not (
            isinstance(op.result.type, ub.BufferType)
            and isinstance(first, ub.BufferSubspanOp)
            and isinstance(second, ub.BufferSubspanOp)
            and first.source is second.source
            and first.result_size is second.result_size
        ):
            return
        offset = arith.SelectOp(op.cond, first.source_offset, second.source_offset)
        rewriter.insert(offset, InsertPoint.before(op))
        rewriter.replace(op, ub.BufferSubspanOp(
            first.source, first.source_size, offset.result, first.result_size
        ))


class FoldBufferSize(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.BufferSizeOp, rewriter: PatternRewriter, /):
        size = known_size(op.operand, op)
        if size is not None and size is not op.result:
            rewriter.replace(op, [], [size])
            return
        source = op.operand.owner
        if isinstance(source, ub.BufferConstantOp):
            bytes_ = ub.storage_size(source.value)
            if bytes_ is not None:
                _replace_with_constant(rewriter, op, bytes_, IndexType())


class SelectBufferSize(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.BufferSizeOp, rewriter: PatternRewriter, /):
        select = op.operand.owner
        if not isinstance(select, arith.SelectOp):
            return
        sizes = []
        for value in (select.lhs, select.rhs):
            size = known_size(value, op)
            if size is None:
                query = ub.BufferSizeOp(value)
                rewriter.insert(query, InsertPoint.before(op))
                size = query.result
            sizes.append(size)
        rewriter.replace(op, arith.SelectOp(select.cond, sizes[0], sizes[1]))


class FoldSubspanIntoStorage(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.BufferStorageOp, rewriter: PatternRewriter, /):
        subspan = op.operand.owner
        if not isinstance(subspan, ub.BufferSubspanOp):
            return
        new = ub.BufferStorageOp.create(
            operands=[subspan.source, subspan.source_size],
            result_types=[op.result.type, op.offset.type],
            attributes=dict(op.attributes),
        )
        rewriter.insert(new, InsertPoint.before(op))
        offset = _add(rewriter, InsertPoint.after(new), subspan.source_offset, new.offset)
        rewriter.replace(op, [], [new.result, offset])


# --------------------------------------------------------------------------------
# Strings
# --------------------------------------------------------------------------------


def _string_of(value: SSAValue) -> str | None:
    """The text a string argument is known to be: a constant integer in unsigned
    decimal, or a buffer constant holding a string."""
    owner = value.owner
    if isinstance(value.type, ub.BufferType):
        if isinstance(owner, ub.BufferConstantOp) and isinstance(owner.value, StringAttr):
            return owner.value.data
        return None
    c = constant_index(value)
    if c is None:
        return None
    width = value.type.width.data if isinstance(value.type, IntegerType) else 64
    return str(c & ((1 << width) - 1))


def _string_constant(text: str) -> ub.BufferConstantOp:
    return ub.BufferConstantOp(StringAttr(text))


def _template(segments: Sequence[str | int]) -> str:
    """A format template of segments, braces escaped, placeholders sequential."""
    return "".join(
        "{}" if isinstance(seg, int) else seg.replace("{", "{{").replace("}", "}}")
        for seg in segments
    )


def _merged(segments: Sequence[str | int]) -> list[str | int]:
    out: list[str | int] = []
    for seg in segments:
        if isinstance(seg, str) and out and isinstance(out[-1], str):
            out[-1] += seg
        else:
            out.append(seg)
    return out


class FoldConstantFormatArguments(RewritePattern):
    """Constant arguments become text of the template (all constant: a string
    constant), and explicit `{N}` placeholders become sequential `{}` with the
    arguments in use order (IREE's PartialFoldStringFormat and
    NormalizeFormatOrdinals)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.StringFormatOp, rewriter: PatternRewriter, /):
        args = list(op.args)
        segments = ub.parse_format_string(op.format.data, len(args))
        if isinstance(segments, str):
            return
        texts = [_string_of(v) for v in args]
        folded = _merged(
            texts[seg] if isinstance(seg, int) and texts[seg] is not None else seg  # type: ignore[misc]
            for seg in segments
        )
        if all(isinstance(seg, str) for seg in folded):
            rewriter.replace(op, _string_constant("".join(folded)))  # type: ignore[arg-type]
            return
        template = _template(folded)
        used = [args[seg] for seg in folded if isinstance(seg, int)]
        if template == op.format.data and used == args:
            return
        rewriter.replace(op, ub.StringFormatOp.create(
            operands=used,
            result_types=[op.result.type],
            properties={"format": StringAttr(template)},
            attributes=dict(op.attributes),
        ))


class SimplifyIdentityFormat(RewritePattern):
    """`"{}"` of one buffer is that buffer; of one integer, `util.string.itoa`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.StringFormatOp, rewriter: PatternRewriter, /):
        if len(op.args) != 1:
            return
        segments = ub.parse_format_string(op.format.data, 1)
        if isinstance(segments, str) or any(isinstance(seg, str) and seg for seg in segments):
            return
        (arg,) = op.args
        if isinstance(arg.type, ub.BufferType):
            rewriter.replace(op, [], [arg])
        else:
            rewriter.replace(op, ub.StringItoaOp(arg))


class FoldItoa(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ub.StringItoaOp, rewriter: PatternRewriter, /):
        text = _string_of(op.value)
        if text is not None:
            rewriter.replace(op, _string_constant(text))
            return
        source = op.value.owner
        if isinstance(source, arith.ExtUIOp):
            text = _string_of(source.input)
            rewriter.replace(
                op,
                _string_constant(text) if text is not None else ub.StringItoaOp(source.input),
            )
        elif isinstance(source, arith.IndexCastOp):
            text = _string_of(source.input)
            if text is not None:
                rewriter.replace(op, _string_constant(text))


_RANGE_PATTERNS = (FoldUniformRange(), ExpandSimpleRange(), SimplifyUniformRange())

PATTERNS: dict[str, tuple[RewritePattern, ...]] = {
    "util.cast": (FoldCast(),),
    "util.cmp.eq": (FoldCompare(),),
    "util.cmp.ne": (FoldCompare(),),
    "util.range.min": _RANGE_PATTERNS,
    "util.range.max": _RANGE_PATTERNS,
    "util.range.extents": (
        FoldConstantRanges(),
        ExpandSimpleRangeExtents(),
        DeduplicateRangeExtents(),
    ),
    "util.align": (FoldAlign(),),
    "util.sizeof": (FoldSizeOf(),),
    "util.switch": (FoldSwitch(),),
    "util.assume.int": (DeduplicateAssumeOperands(), CanonicalizeAssumeInt()),
    "arith.muli": (FoldDivMulOfAssume(),),
    "arith.select": (SinkSubspanAcrossSelect(),),
    "util.unfoldable_constant": (ExpandUnfoldableConstant(),),
    "util.buffer.subspan": (
        FoldWholeSubspan(),
        FoldSubspanOfSubspan(),
        FoldSubspanIntoConsumers(),
    ),
    "util.buffer.size": (FoldBufferSize(), SelectBufferSize()),
    "util.buffer.storage": (FoldSubspanIntoStorage(),),
    "util.string.format": (FoldConstantFormatArguments(), SimplifyIdentityFormat()),
    "util.string.itoa": (FoldItoa(),),
}
