"""Canonicalization patterns of IREE's `stream` ops (`PATTERNS`, by op name).

The ops declare them (`memplan.dialects.iree.util.STREAM_PATTERNS`), so every driver
that asks an op for its patterns gets these. As IREE 3.13 (`StreamOpFolders.cpp`),
with one rewrite left out on purpose:

- `stream.async.transfer` of a transfer: when the result lands where, and as what,
  the first transfer's source was (same type, the outer target affinity is the inner
  source affinity), it is that source; otherwise the two hops become one transfer
  from the first source to the last target.
- A transfer within one device (equal source and target affinities, no staging
  side: what IREE turns into `stream.async.clone`) reaches what IREE reaches through
  the clone, directly: of a value an op prefers to make again (`CloneToConsumers`:
  a splat, an empty tensor, an alloca, a clone) it is that op again, in the transfer's
  lifetime; of a fresh value (its producer only allocates it, and reads) that
  nothing else uses, to the same type, it is the value (the copy is unobservable).
- `stream.async.clone` of a value an op prefers to make again is that op again.
- `stream.tensor.encode` between equal encodings, or between identity layouts (no
  encoding, or a serialized one that stores the tensor as is), of the same resource
  type is its source.
- `stream.resource.size` of a resource whose size is known -- stated by the op that
  defines it, or by an earlier user in the same block that takes it with a size
  that is already defined -- is that size.

Left out: IREE later rewrites a transfer between equal affinities into
`stream.async.clone`. A clone is not Pure (it reads and allocates), so CSE can no
longer merge two such copies; that rewrite is why IREE's own cleanup pipeline stopped
deduplicating the seed's encoded weights (DESIGN.md section 3).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from xdsl.dialects import arith, complex
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator, MemoryEffectKind

from memplan.analysis.data_layout import stream_element_bytes
from memplan.analysis.dominance import DominatorTree
from memplan.dialects.iree import stream, stream_cmd
from memplan.dialects.iree.encoding import is_identity_tensor_encoding
from memplan.interfaces import class_has_trait, get_interface, memory_effects
from memplan.passes.patterns.common import available_at

__all__ = ["PATTERNS", "known_size"]


class FoldTransferOfTransfer(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncTransferOp, rewriter: PatternRewriter, /):
        inner = op.source.owner
        if not isinstance(inner, stream.AsyncTransferOp):
            return
        if (
            inner.source.type == op.result.type
            and inner.source_affinity == op.target_affinity
        ):
            rewriter.replace(op, [], [inner.source])
            return
        rewriter.replace(op, stream.AsyncTransferOp(
            inner.source,
            inner.source_size,
            op.result.type,
            op.result_size,
            source_affinity=inner.source_affinity,
            target_affinity=op.target_affinity,
            execution_affinity=op.execution_affinity,
        ))


def _same_device_copy(op: stream.AsyncTransferOp) -> bool:
    """The transfer copies within one device: equal source and target affinities
    (both may be absent), executed there, and no staging side. IREE 3.13 rewrites
    exactly these into `stream.async.clone` (memplan keeps them: a transfer is Pure
    and CSE merges two of them)."""
    if op.source_affinity != op.target_affinity:
        return False
    if op.execution_affinity is not None and op.execution_affinity != op.target_affinity:
        return False
    staging = stream.Lifetime.STAGING
    return op.source.type.lifetime is not staging and op.result.type.lifetime is not staging


def _remade(producer: Operation, result_type: Attribute) -> Operation:
    """`producer` again, with the same operands, producing `result_type`."""
    return type(producer).create(
        operands=list(producer.operands),
        result_types=[result_type],
        properties=dict(producer.properties),
        attributes=dict(producer.attributes),
    )


def _remade_producer(source: SSAValue) -> Operation | None:
    """The op that makes `source`, when making it again beats copying it (it has the
    `CloneToConsumers` trait and one result)."""
    producer = source.owner
    if (
        isinstance(producer, Operation)
        and len(producer.results) == 1
        and class_has_trait(producer, stream.CloneToConsumers, value_if_unregistered=False)
    ):
        return producer
    return None


class TransferRemakesCloneable(RewritePattern):
    """A same-device transfer of a splat (an empty tensor, an alloca, a clone) is
    the splat made again in the transfer's lifetime; the original dies with its
    last use. IREE gets there in two steps (transfer -> clone, clone of a splat ->
    splat)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncTransferOp, rewriter: PatternRewriter, /):
        if not _same_device_copy(op):
            return
        producer = _remade_producer(op.source)
        if producer is not None:
            rewriter.replace(op, _remade(producer, op.result.type))


class ElideTransferOfFreshValue(RewritePattern):
    """A same-device transfer to the same type of a fresh value nobody else uses is
    that value: no one can see the original change or the copy differ (IREE's clone
    elision, without the clone)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncTransferOp, rewriter: PatternRewriter, /):
        if (
            _same_device_copy(op)
            and op.source.type == op.result.type
            and op.source.has_one_use()
            and _is_fresh_allocation(op.source)
        ):
            rewriter.replace(op, [], [op.source])


class FoldEncodeOfSameEncoding(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorEncodeOp, rewriter: PatternRewriter, /):
        if op.source.type != op.result.type:
            return
        if op.source_encoding == op.result_encoding or (
            is_identity_tensor_encoding(op.source_encoding)
            and is_identity_tensor_encoding(op.result_encoding)
        ):
            rewriter.replace(op, [], [op.source])


def known_size(resource: SSAValue, at: Operation) -> SSAValue | None:
    """A size value of `resource` usable at `at`: what its defining op says, or what
    an earlier size-aware user in the same block passes with it."""
    size = stream.find_size(resource)
    if size is not None:
        return size
    for use in resource.uses:
        user = use.operation
        # A resource has one size wherever it is used: any user in the block whose
        # size value is already defined at `at` tells it.
        if user is at or user.parent is not at.parent:
            continue
        model = get_interface(user, stream.SizeAware)
        if model is None:
            continue
        size = model.operand_size(user, use.index)
        if size is not None and available_at(size, at):
            return size
    return None


class FoldResourceSize(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourceSizeOp, rewriter: PatternRewriter, /):
        size = known_size(op.operand, op)
        if size is not None and size is not op.result:
            rewriter.replace(op, [], [size])


def _size_at(rewriter: PatternRewriter, resource: SSAValue, at: Operation,
             affinity) -> SSAValue:
    """A size of `resource` usable at `at`: a known one, else a new
    `stream.resource.size` before `at` (IREE's createOrFold of one)."""
    size = known_size(resource, at)
    if size is not None:
        return size
    query = stream.ResourceSizeOp(resource, affinity=affinity)
    rewriter.insert(query, InsertPoint.before(at))
    return query.result


class SelectResourceSize(RewritePattern):
    """The size of a selected resource is the same selection of the two sizes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourceSizeOp, rewriter: PatternRewriter, /):
        select = op.operand.owner
        if not isinstance(select, arith.SelectOp):
            return
        sizes = [_size_at(rewriter, v, op, op.affinity)
                 for v in (select.lhs, select.rhs)]
        rewriter.replace(op, arith.SelectOp(select.cond, *sizes))


class SinkSubviewAcrossSelect(RewritePattern):
    """A selection between two equally sized subviews of one resource is one
    subview at the selected offset (registered on `arith.select`, as IREE does
    through the subview's patterns)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /):
        if not isinstance(op.result.type, stream.ResourceType):
            return
        views = (op.lhs.owner, op.rhs.owner)
        if not all(isinstance(v, stream.ResourceSubviewOp) for v in views):
            return
        first, second = views
        assert isinstance(first, stream.ResourceSubviewOp)
        assert isinstance(second, stream.ResourceSubviewOp)
        if first.source is not second.source or not _same_value(first.result_size, second.result_size):
            return
        offset = arith.SelectOp(op.cond, first.source_offset, second.source_offset)
        rewriter.insert(offset, InsertPoint.before(op))
        rewriter.replace(op, stream.ResourceSubviewOp(
            first.source, first.source_size, offset.result, first.result_size
        ))


class StripResourceConversionCast(RewritePattern):
    """`unrealized_conversion_cast %r, %size : R, index to R` (left by conversions
    that carry a resource with its size) is `%r`, and its `stream.resource.size` is
    `%size` (a stream dialect pattern in IREE)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter, /
    ):
        if len(op.results) != 1 or len(op.operands) != 2:
            return
        result = op.results[0]
        resource, size = op.operands
        if not isinstance(result.type, stream.ResourceType) or (
            resource.type != result.type or not isinstance(size.type, IndexType)
        ):
            return
        for use in list(result.uses):
            if isinstance(use.operation, stream.ResourceSizeOp):
                _replace(rewriter, use.operation, [size])
        _replace(rewriter, op, [resource])



# --------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------


def _replace(rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]) -> None:
    rewriter.replace(op, [], list(values))


def _constant_int(value: SSAValue) -> int | None:
    """The integer a value is known to be (an `arith.constant` of an integer)."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _same_value(a: SSAValue, b: SSAValue) -> bool:
    """The two values are equal: the same SSA value or equal integer constants."""
    if a is b:
        return True
    ca, cb = _constant_int(a), _constant_int(b)
    return ca is not None and ca == cb


def _is_fresh_allocation(value: SSAValue) -> bool:
    """`value` is a result its defining op only allocates (a fresh, unaliased
    object nobody else can see), asked through the op's memory effects."""
    if not isinstance(value, OpResult):
        return False
    effects = memory_effects(value.op)
    if effects is None:
        return False
    return any(
        e.kind == MemoryEffectKind.ALLOC and e.value is value for e in effects
    ) and all(e.kind in (MemoryEffectKind.ALLOC, MemoryEffectKind.READ) for e in effects)


def _index_constant(rewriter: PatternRewriter, at: Operation, value: int) -> SSAValue:
    const = arith.ConstantOp(IntegerAttr(value, IndexType()))
    rewriter.insert(const, InsertPoint.before(at))
    return const.result


# --------------------------------------------------------------------------------
# Timepoints
# --------------------------------------------------------------------------------


class FoldExportOfImport(RewritePattern):
    """`export(import(%a, %b))` with the same types is `%a, %b`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TimepointExportOp, rewriter: PatternRewriter, /):
        source = op.await_timepoint.owner
        if not isinstance(source, stream.TimepointImportOp):
            return
        if tuple(source.operands_.types) != tuple(op.results_.types):
            return
        _replace(rewriter, op, source.operands_)


class PassThroughChainExternal(RewritePattern):
    """Chaining an imported fence into a fence created only for that is the
    imported fence itself."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.TimepointChainExternalOp, rewriter: PatternRewriter, /
    ):
        source = op.await_timepoint.owner
        if not isinstance(source, stream.TimepointImportOp):
            return
        if len(op.external_values) != 1 or len(source.operands_) != 1:
            return
        chained, imported = op.external_values[0], source.operands_[0]
        if chained.type != imported.type or not _is_fresh_allocation(chained):
            return
        rewriter.replace_uses_with_if(
            chained, imported, lambda use: use.operation is not op
        )
        rewriter.erase(op)


def _is_immediate(value: SSAValue) -> bool:
    return isinstance(value.owner, stream.TimepointImmediateOp)


class CanonicalizeJoin(RewritePattern):
    """A join of one timepoint is it; immediate and repeated operands are dropped;
    joins of joins are flattened; a join of nothing left is immediate."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TimepointJoinOp, rewriter: PatternRewriter, /):
        operands: list[SSAValue] = []
        for value in op.await_timepoints:
            inner = value.owner
            expanded = (
                list(inner.await_timepoints)
                if isinstance(inner, stream.TimepointJoinOp) and inner is not op
                else [value]
            )
            for v in expanded:
                if not _is_immediate(v) and v not in operands:
                    operands.append(v)
        if not operands:
            immediate = stream.TimepointImmediateOp()
            rewriter.replace(op, immediate)
            return
        if len(operands) == 1:
            _replace(rewriter, op, operands)
            return
        if operands != list(op.await_timepoints):
            rewriter.replace(op, stream.TimepointJoinOp(operands))


def _source_await(resource: SSAValue) -> stream.TimepointAwaitOp | None:
    owner = resource.owner
    if isinstance(owner, stream.TimepointAwaitOp) and owner.sync is None:
        return owner
    return None


def _immediately_resolved(resource: SSAValue) -> bool:
    """Produced by an op with no timeline of its own (IREE: alloc, import)."""
    return isinstance(resource.owner, stream.ResourceAllocOp | stream.TensorImportOp)


class FoldBarrier(RewritePattern):
    """A barrier on a resource that is ready at once has an immediate timepoint; on
    an awaited resource it is the awaited resource and timepoint."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.TimepointBarrierOp, rewriter: PatternRewriter, /
    ):
        awaited = _source_await(op.resource)
        if awaited is not None:
            index = awaited.results.index(op.resource)
            _replace(rewriter, op, [awaited.resource_operands[index],
                                    awaited.await_timepoint])
            return
        if _immediately_resolved(op.resource):
            immediate = stream.TimepointImmediateOp()
            rewriter.insert(immediate, InsertPoint.before(op))
            _replace(rewriter, op, [op.resource, immediate.result_timepoint])


class CanonicalizeAwait(RewritePattern):
    """Awaiting an immediate timepoint is a no-op; repeated resources are awaited
    once; awaits of one timepoint in one block are grouped at the latest one when
    no operand is defined between them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TimepointAwaitOp, rewriter: PatternRewriter, /):
        if _is_immediate(op.await_timepoint):
            _replace(rewriter, op, op.resource_operands)
            return
        operands = list(op.resource_operands)
        unique: list[SSAValue] = []
        for value in operands:
            if value not in unique:
                unique.append(value)
        if len(unique) != len(operands):
            sizes = [op.operand_size_of(operands.index(v)) for v in unique]
            new = stream.TimepointAwaitOp(
                op.await_timepoint, unique, [s for s in sizes if s is not None],
                sync=op.sync is not None,
            )
            rewriter.insert(new, InsertPoint.before(op))
            _replace(rewriter, op, [new.results[unique.index(v)] for v in operands])
            return
        self._group(op, rewriter)

    @staticmethod
    def _group(op: stream.TimepointAwaitOp, rewriter: PatternRewriter) -> None:
        block = op.parent
        if block is None or op.sync is not None:
            return
        # Earlier awaits of the same timepoint in this block whose operands are all
        # defined before the first of them: merge them into this one.
        earlier = [
            use.operation for use in op.await_timepoint.uses
            if isinstance(use.operation, stream.TimepointAwaitOp)
            and use.operation is not op and use.operation.parent is block
            and use.operation.sync is None
            and use.operation.is_before_in_block(op)
        ]
        if not earlier:
            return
        group = sorted([*earlier, op], key=lambda o: block.get_operation_index(o))
        first = group[0]
        for member in group:
            for value in (*member.resource_operands, *member.resource_operand_sizes):
                owner = value.owner
                if isinstance(owner, Operation) and owner.parent is block and (
                    not owner.is_before_in_block(first)
                ):
                    return
        operands: list[SSAValue] = []
        sizes: list[SSAValue] = []
        for member in group:
            operands.extend(member.resource_operands)
            sizes.extend(member.resource_operand_sizes)
        new = stream.TimepointAwaitOp(op.await_timepoint, operands, sizes)
        rewriter.insert(new, InsertPoint.before(first))
        offset = 0
        for member in group:
            count = len(member.results)
            results = new.results[offset:offset + count]
            offset += count
            _replace(rewriter, member, results)


# --------------------------------------------------------------------------------
# Sinking to consumers
# --------------------------------------------------------------------------------


def _sink_candidate(op: Operation) -> bool:
    return isinstance(op, stream.AsyncSplatOp | stream.AsyncAllocaOp | stream.TimepointAwaitOp)


def _nearest_common_dominator(tree: DominatorTree, a: Block, b: Block) -> Block | None:
    while a is not None and not tree.dominates(a, b):
        a = tree.idom.get(a)  # type: ignore[assignment]
    return a


def _sink_target(op: Operation) -> Operation | None:
    """Where IREE sinks `op`: before its first user (or the user's ancestor) in the
    nearest block that dominates all of them, or that block's terminator."""
    region = op.parent_region()
    if region is None:
        return None
    # An insertion-ordered dict: a membership test per use on a list was quadratic.
    users: dict[Operation, None] = {}
    for result in op.results:
        for use in result.uses:
            owner: Operation | None = use.operation
            while owner is not None and owner.parent_region() is not region:
                owner = owner.parent_op()
            if owner is not None:
                users[owner] = None
    if not users:
        return None
    first, *others = users
    common: Block | None = first.parent
    # A single user, or users all in the entry block (reachable, so it dominates
    # itself), need no dominator tree: the common block is theirs. Only users across
    # blocks, or in a block that may be unreachable, build one.
    if others and (
        common is not region.blocks.first or any(u.parent is not common for u in others)
    ):
        tree = DominatorTree(region)
        for user in others:
            assert common is not None and user.parent is not None
            common = _nearest_common_dominator(tree, common, user.parent)
    if common is None or common.last_op is None:
        return None
    target = common.last_op
    for user in users:
        if user.parent is common and user.is_before_in_block(target):
            target = user
    return target


def _can_stably_sink(op: Operation, target: Operation) -> bool:
    """Whether moving `op` before `target` makes progress without two sinkable ops
    swapping forever (IREE's `canStablySinkTo`)."""
    if target is op.next_op:
        return False
    if target.parent is not op.parent:
        return True
    prune = not target.has_trait(IsTerminator) and not target.regions
    producers = {v.owner for v in target.operands}
    current: Operation | None = op
    while current is not None and current is not target:
        if not _sink_candidate(current) or (prune and current not in producers):
            return True
        current = current.next_op
    return False


class SinkToConsumers(RewritePattern):
    """Splats, allocas and awaits move down to just before their first consumer
    in the block dominating all consumers: resources then live no longer than
    needed, and a wait happens only where its result is used."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not _sink_candidate(op):
            return
        if isinstance(op, stream.TimepointAwaitOp) and op.sync is not None:
            return
        target = _sink_target(op)
        if target is None or not _can_stably_sink(op, target):
            return
        op.detach()
        rewriter.insert(op, InsertPoint.before(target))


class SinkSubviewAcrossAwait(RewritePattern):
    """`await(subview(%r))` is `subview(await(%r))`: the await covers the whole
    resource, the view is taken of the ready one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TimepointAwaitOp, rewriter: PatternRewriter, /):
        for i, value in enumerate(op.resource_operands):
            view = value.owner
            if not isinstance(view, stream.ResourceSubviewOp):
                continue
            operands = list(op.resource_operands)
            operands[i] = view.source
            sizes = list(op.resource_operand_sizes)
            position = stream.resource_positions(op.resource_operands)[i]
            sizes[position] = view.source_size
            new = stream.TimepointAwaitOp(
                op.await_timepoint, operands, sizes, sync=op.sync is not None
            )
            rewriter.insert(new, InsertPoint.before(op))
            subview = stream.ResourceSubviewOp(
                new.results[i], view.source_size, view.source_offset, view.result_size
            )
            rewriter.insert(subview, InsertPoint.before(op))
            results = list(new.results)
            results[i] = subview.result
            _replace(rewriter, op, results)
            return



# --------------------------------------------------------------------------------
# Splats and constants
# --------------------------------------------------------------------------------


def _constant_attr(value: SSAValue):
    owner = value.owner
    return owner.value if isinstance(owner, arith.ConstantOp) else None


def _pattern_bits(value: SSAValue) -> tuple[int, int] | None:
    """The bits and bit width of a constant integer or float, or None."""
    attr = _constant_attr(value)
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType):
        width = attr.type.width.data
        return attr.value.data & ((1 << width) - 1), width
    if isinstance(attr, FloatAttr):
        width = attr.type.bitwidth
        fmt = {16: "<e", 32: "<f", 64: "<d"}.get(width)
        if isinstance(attr.type, BFloat16Type):
            bits = struct.unpack("<I", struct.pack("<f", attr.value.data))[0] >> 16
            return bits, 16
        if fmt is None:
            return None
        raw = struct.pack(fmt, attr.value.data)
        return int.from_bytes(raw, "little"), width
    return None


def _narrowest_pattern(value: SSAValue) -> tuple[int, int] | None:
    """The narrowest (value, width) of 8, 16 or 32 bits whose repetition is the
    constant's bit pattern, when narrower than the constant itself (i1 never)."""
    found = _pattern_bits(value)
    if found is None:
        return None
    bits, width = found
    if width < 8 or width % 8:
        return None
    for narrow in (8, 16, 32):
        if narrow >= width:
            return None
        piece = bits & ((1 << narrow) - 1)
        repeated = 0
        for shift in range(0, width, narrow):
            repeated |= piece << shift
        if repeated == bits:
            signed = piece - (1 << narrow) if piece >> (narrow - 1) else piece
            return signed, narrow
    return None


def _narrow_constant(rewriter: PatternRewriter, op: Operation, value: SSAValue) -> SSAValue | None:
    narrowed = _narrowest_pattern(value)
    if narrowed is None:
        return None
    bits, width = narrowed
    const = arith.ConstantOp(IntegerAttr(bits, IntegerType(width)))
    rewriter.insert(const, InsertPoint.before(op))
    return const.result


class NarrowSplatPattern(RewritePattern):
    """A splat or fill of a constant whose bytes repeat a narrower pattern uses
    that pattern (fills of i8 are the cheapest and compare equal)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: stream.TensorSplatOp | stream.AsyncSplatOp | stream.TensorFillOp
        | stream.AsyncFillOp,
        rewriter: PatternRewriter, /
    ):
        narrowed = _narrow_constant(rewriter, op, op.value)
        if narrowed is not None:
            rewriter.replace_uses_with_if(op.value, narrowed, lambda use: use.operation is op)


def _splat_of(value: SSAValue) -> stream.AsyncSplatOp | None:
    owner = value.owner
    return owner if isinstance(owner, stream.AsyncSplatOp) else None


def _new_splat(
    splat: stream.AsyncSplatOp, value: SSAValue, type, size: SSAValue
) -> stream.AsyncSplatOp:
    return stream.AsyncSplatOp(
        value, type, size, await_timepoint=splat.await_timepoint, affinity=splat.affinity
    )


class PropagateCloneableOps(RewritePattern):
    """A clone of a splat (an empty tensor, an alloca, a clone: `CloneToConsumers`)
    is that op again, of the clone's type: cheaper than a copy, and the original
    may die."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncCloneOp, rewriter: PatternRewriter, /):
        producer = _remade_producer(op.source)
        if producer is not None:
            rewriter.replace(op, _remade(producer, op.result.type))


def _splat_element(value: DenseIntOrFPElementsAttr) -> Operation:
    """A constant op of the element a splat attribute repeats: `complex.constant`
    of a complex element's two parts, `arith.constant` otherwise."""
    element_type = value.get_element_type()
    if isinstance(element_type, ComplexType):
        part = element_type.element_type
        make = IntegerAttr if isinstance(part, IntegerType) else FloatAttr
        real, imaginary = value.get_values()[0]
        return complex.ConstantOp(
            ArrayAttr([make(real, part), make(imaginary, part)]), element_type
        )
    return arith.ConstantOp(value.get_attrs()[0], element_type)


class ConvertSplatConstantsIntoSplats(RewritePattern):
    """`stream.async.constant` of a dense splat is a splat of that element, when the
    element is a pattern `stream.async.splat` takes (an 8/16/32/64-bit integer:
    IREE's pattern builds an invalid splat of others, and iree-opt then crashes)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncConstantOp, rewriter: PatternRewriter, /):
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr) or not value.is_splat():
            return
        if not stream.FILL_PATTERN.verifies(value.get_element_type()):
            return
        const = _splat_element(value)
        rewriter.insert(const, InsertPoint.before(op))
        rewriter.replace(op, stream.AsyncSplatOp(
            const.results[0], op.result.type, op.result_size,
            await_timepoint=op.await_timepoint, affinity=op.affinity,
        ))


class CanonicalizeSlice(RewritePattern):
    """A slice of the whole resource is the resource; a slice of a splat is a
    smaller splat."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncSliceOp, rewriter: PatternRewriter, /):
        if _constant_int(op.source_offset) == 0 and _same_value(op.source_end, op.source_size) \
                and _same_value(op.result_size, op.source_size):
            _replace(rewriter, op, [op.source])
            return
        splat = _splat_of(op.source)
        if splat is not None:
            rewriter.replace(op, _new_splat(splat, splat.value, op.result.type, op.result_size))


def _covers_target(offset: SSAValue, length: SSAValue, size: SSAValue) -> bool:
    return _constant_int(offset) == 0 and _same_value(length, size)


class CanonicalizeFill(RewritePattern):
    """A fill of a splat with the splat's value is the splat; a fill of all of a
    splat used only here is a splat of the fill value."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncFillOp, rewriter: PatternRewriter, /):
        splat = _splat_of(op.target)
        if splat is None:
            return
        if _same_pattern(splat.value, op.value):
            _replace(rewriter, op, [op.target])
            return
        if _covers_target(op.target_offset, op.target_length, op.target_size) and (
            len(list(op.target.uses)) == 1
        ):
            rewriter.replace(op, _new_splat(splat, op.value, op.result.type, op.target_size))


class CoalesceAdjacentFills(RewritePattern):
    """A fill of the byte pattern the fill before it (its target, used only here)
    wrote, of the range right after or right before that one, widens the earlier
    fill instead (IREE's `CoalesceAdjacentFills`). IREE offsets a range grown
    toward the front at the sum of both offsets; memplan at the front fill's."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncFillOp, rewriter: PatternRewriter, /):
        source = op.target.owner
        if not isinstance(source, stream.AsyncFillOp) or not source.result.has_one_use():
            return
        if not _same_pattern(source.value, op.value):
            return
        appends = _same_value(source.target_end, op.target_offset)
        if not appends and not _same_value(source.target_offset, op.target_end):
            return
        if not (available_at(op.target_offset, source)
                and available_at(op.target_length, source)):
            return
        if appends:
            offset = source.target_offset
            end = _add(rewriter, source, source.target_end, op.target_length)
        else:
            offset = op.target_offset
            end = source.target_end
        length = _add(rewriter, source, source.target_length, op.target_length)
        fused = stream.AsyncFillOp(
            source.value, source.target, source.target_size, offset, end, length,
            affinity=source.affinity,
        )
        rewriter.replace(source, fused)
        _replace(rewriter, op, [fused.result])


def _same_pattern(a: SSAValue, b: SSAValue) -> bool:
    if a is b:
        return True
    pa, pb = _narrowest_pattern(a) or _pattern_bits(a), _narrowest_pattern(b) or _pattern_bits(b)
    return pa is not None and pa == pb


def _is_local_value(value: SSAValue) -> bool:
    """Produced by an op that makes a fresh resource with value semantics (a splat
    or constant), so nothing outside sees an in-place update of it."""
    return isinstance(value.owner, stream.AsyncSplatOp | stream.AsyncConstantOp)


class CanonicalizeUpdate(RewritePattern):
    """Updates as IREE folds them: of a value into itself; of all of a local
    value; of a value already updated in place into the same target; a splat update
    is a fill, a slice update is a copy."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncUpdateOp, rewriter: PatternRewriter, /):
        if op.update is op.target:
            _replace(rewriter, op, [op.target])
            return
        full = _constant_int(op.target_offset) == 0 and _same_value(
            op.target_end, op.target_size
        ) and _same_value(op.update_size, op.target_size)
        if full and _is_local_value(op.target) and op.update.type == op.result.type:
            _replace(rewriter, op, [op.update])
            return
        producer = op.update.owner
        tie = getattr(producer, "tied_result_operands", None)
        if (
            _constant_int(op.target_offset) == 0
            and isinstance(producer, Operation)
            and tie is not None
            and _same_value(op.target_end, op.update_size)
        ):
            index = op.update.index  # type: ignore[attr-defined]
            ties = tie()
            if index < len(ties) and ties[index] is not None:
                tied_operand = _tied_operand(producer, ties[index])
                if tied_operand is op.target and all(
                    use.operation is op or not _writes(use.operation, op.update)
                    for use in op.update.uses
                ):
                    _replace(rewriter, op, [op.update])
                    return
        splat = _splat_of(op.update)
        if splat is not None:
            end = op.target_end
            rewriter.replace(op, stream.AsyncFillOp(
                splat.value, op.target, op.target_size, op.target_offset, end,
                op.update_size, affinity=op.affinity,
            ))
            return
        sliced = op.update.owner
        if isinstance(sliced, stream.AsyncSliceOp):
            rewriter.replace(op, stream.AsyncCopyOp(
                sliced.source, sliced.source_size, sliced.source_offset, sliced.source_end,
                op.target, op.target_size, op.target_offset, op.target_end,
                op.update_size, affinity=op.affinity,
            ))


_tied_operand = stream.tied_operand


def _writes(op: Operation, value: SSAValue) -> bool:
    effects = memory_effects(op)
    if effects is None:
        return True
    return any(e.kind == MemoryEffectKind.WRITE and (e.value is value or e.value is None)
               for e in effects)


class AsyncCopyFullSourceToUpdate(RewritePattern):
    """A copy of the whole source is an update."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncCopyOp, rewriter: PatternRewriter, /):
        if _constant_int(op.source_offset) == 0 and _same_value(op.source_end, op.source_size) \
                and _same_value(op.length, op.source_size):
            rewriter.replace(op, stream.AsyncUpdateOp(
                op.source, op.source_size, op.target, op.target_size, op.target_offset,
                op.target_end, affinity=op.affinity,
            ))


class CanonicalizeCast(RewritePattern):
    """A cast to its own type is its source; a cast of a cast casts the first
    source (or is it, when the types come back)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncCastOp, rewriter: PatternRewriter, /):
        if op.source.type == op.result.type:
            _replace(rewriter, op, [op.source])
            return
        inner = op.source.owner
        if isinstance(inner, stream.AsyncCastOp):
            if inner.source.type == op.result.type:
                _replace(rewriter, op, [inner.source])
            else:
                rewriter.replace(op, stream.AsyncCastOp(
                    inner.source, inner.source_size, op.result.type, op.result_size,
                    affinity=op.affinity,
                ))


class FoldLoadBitcast(RewritePattern):
    """A load used only by a bitcast loads the bitcast's type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.AsyncLoadOp | stream.ResourceLoadOp, rewriter: PatternRewriter, /
    ):
        users = list(op.result.uses)
        if len(users) != 1 or not isinstance(users[0].operation, arith.BitcastOp):
            return
        cast = users[0].operation
        new = type(op).build(
            operands=list(op.operands), result_types=[cast.result.type],
            properties=dict(op.properties), attributes=dict(op.attributes),
        )
        rewriter.insert(new, InsertPoint.before(op))
        _replace(rewriter, cast, [new.results[0]])
        rewriter.erase(op)


def _staged_transfer(load_source: SSAValue) -> stream.AsyncTransferOp | None:
    """The transfer `load_source` is, when a load is its only user (so slicing
    before it leaves nothing else needing the whole copy)."""
    transfer = load_source.owner
    if isinstance(transfer, stream.AsyncTransferOp) and transfer.result.has_one_use():
        return transfer
    return None


def _restage(
    rewriter: PatternRewriter, at: Operation, transfer: stream.AsyncTransferOp,
    sliced: SSAValue, size: SSAValue,
) -> stream.AsyncTransferOp:
    """`transfer` again, of the slice `sliced` of `size` bytes."""
    staged = stream.AsyncTransferOp(
        sliced, size, transfer.result.type, size,
        source_affinity=transfer.source_affinity,
        target_affinity=transfer.target_affinity,
        execution_affinity=transfer.execution_affinity,
    )
    rewriter.insert(staged, InsertPoint.before(at))
    return staged


class FoldAsyncCloneIntoLoad(RewritePattern):
    """A load of a clone staged by a transfer loads a transfer of just the loaded
    bytes, sliced from the clone's source: the whole copy goes away."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncLoadOp, rewriter: PatternRewriter, /):
        transfer = _staged_transfer(op.source)
        if transfer is None:
            return
        clone = transfer.source.owner
        if not isinstance(clone, stream.AsyncCloneOp):
            return
        width = stream_element_bytes(op.result.type)
        if width is None:
            return
        size = _index_constant(rewriter, op, width)
        zero = _index_constant(rewriter, op, 0)
        end = _add(rewriter, op, op.source_offset, size)
        sliced = stream.AsyncSliceOp(
            clone.source, clone.source_size, op.source_offset, end, size,
            affinity=clone.affinity,
        )
        rewriter.insert(sliced, InsertPoint.before(op))
        staged = _restage(rewriter, op, transfer, sliced.result, size)
        rewriter.replace(op, stream.AsyncLoadOp(staged.result, size, zero, op.result.type))


class FoldTensorCloneIntoLoad(RewritePattern):
    """A load of a tensor clone (same encoding, the load's) staged by a transfer
    loads a transfer of a one-element slice of the clone's source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorLoadOp, rewriter: PatternRewriter, /):
        transfer = _staged_transfer(op.source)
        if transfer is None:
            return
        clone = transfer.source.owner
        # A needless clone goes away by itself, and the whole load stays (as in
        # IREE, whose driver elides the clone first).
        if not isinstance(clone, stream.TensorCloneOp) or _needless_tensor_clone(clone):
            return
        encoding = op.source_encoding
        if not (clone.source_encoding == clone.result_encoding == encoding) or (
            not isinstance(encoding, TensorType)
        ):
            return
        rank = encoding.get_num_dims()
        unit = TensorType(encoding.element_type, [1] * rank, encoding.encoding)
        one = _index_constant(rewriter, op, 1)
        zero = _index_constant(rewriter, op, 0)
        size_op = stream.TensorSizeOfOp(unit, affinity=clone.affinity)
        rewriter.insert(size_op, InsertPoint.before(op))
        size = size_op.storage_size
        sliced = stream.TensorSliceOp.build(
            operands=[clone.source, list(clone.source_encoding_dims), clone.source_size,
                      list(op.indices), [one] * rank, [], size],
            properties={"source_encoding": clone.source_encoding, "result_encoding": unit,
                        "affinity": clone.affinity},
            result_types=[clone.source.type],
        )
        rewriter.insert(sliced, InsertPoint.before(op))
        staged = _restage(rewriter, op, transfer, sliced.result, size)
        rewriter.replace(op, stream.TensorLoadOp.build(
            operands=[staged.result, [], size, [zero] * rank],
            properties={"source_encoding": unit},
            result_types=[op.result.type],
        ))


class FoldStoreBitcast(RewritePattern):
    """Storing a bitcast value stores the value before the bitcast."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.AsyncStoreOp | stream.ResourceStoreOp, rewriter: PatternRewriter, /
    ):
        cast = op.value.owner
        if isinstance(cast, arith.BitcastOp):
            rewriter.replace_uses_with_if(op.value, cast.input, lambda use: use.operation is op)


# --------------------------------------------------------------------------------
# Tensor ops
# --------------------------------------------------------------------------------


class FoldImportOfExport(RewritePattern):
    """Importing a buffer just exported from a resource of the same type is it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorImportOp, rewriter: PatternRewriter, /):
        export = op.source.owner
        if isinstance(export, stream.TensorExportOp) and export.source.type == op.result.type:
            _replace(rewriter, op, [export.source])


class FoldTensorExportOfImport(RewritePattern):
    """Exporting a resource just imported, as the same tensor, is the buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorExportOp, rewriter: PatternRewriter, /):
        imported = op.source.owner
        if (
            isinstance(imported, stream.TensorImportOp)
            and imported.source.type == op.result.type
            and imported.result_encoding == op.source_encoding
            and list(imported.result_encoding_dims) == list(op.source_encoding_dims)
        ):
            _replace(rewriter, op, [imported.source])


_has_tied_uses = stream.has_tied_uses


def _needless_tensor_clone(op: stream.TensorCloneOp) -> bool:
    """A clone to the same resource type (whatever the tensor encodings: a clone
    that only reshapes copies nothing) used once, or by no op tying a result to
    it: the source itself will do (IREE's fold and ElideUnneededTensorClones)."""
    return op.source.type == op.result.type and (
        op.result.has_one_use() or not _has_tied_uses(op.result)
    )


class FoldTensorClone(RewritePattern):
    """A needless clone (`_needless_tensor_clone`) is its source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorCloneOp, rewriter: PatternRewriter, /):
        if _needless_tensor_clone(op):
            _replace(rewriter, op, [op.source])


class TensorConstantToEmptyOrSplat(RewritePattern):
    """A constant with no elements is `stream.tensor.empty`; a splat constant is a
    `stream.tensor.splat` of its element, sized by `stream.tensor.sizeof`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorConstantOp, rewriter: PatternRewriter, /):
        value = op.value
        shape = getattr(getattr(value, "type", None), "get_shape", lambda: None)()
        if shape is not None and 0 in shape:
            size = stream.TensorSizeOfOp(
                op.result_encoding, encoding_dims=op.result_encoding_dims,
                affinity=op.affinity,
            )
            rewriter.insert(size, InsertPoint.before(op))
            rewriter.replace(op, stream.TensorEmptyOp.build(
                operands=[list(op.result_encoding_dims), size.storage_size],
                properties={"result_encoding": op.result_encoding,
                            "affinity": op.affinity},
                result_types=[op.result.type],
            ))
            return
        if not isinstance(value, DenseIntOrFPElementsAttr) or not value.is_splat():
            return
        const = _splat_element(value)
        size = stream.TensorSizeOfOp(
            op.result_encoding, encoding_dims=op.result_encoding_dims, affinity=op.affinity
        )
        rewriter.insert([const, size], InsertPoint.before(op))
        rewriter.replace(op, stream.TensorSplatOp.build(
            operands=[const.results[0], list(op.result_encoding_dims), size.storage_size],
            properties={"result_encoding": op.result_encoding, "affinity": op.affinity},
            result_types=[op.result.type],
        ))


# --------------------------------------------------------------------------------
# Resource ops
# --------------------------------------------------------------------------------


class FoldSubview(RewritePattern):
    """A subview of the whole resource is it; a subview of a subview is one
    subview at the summed offset."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourceSubviewOp, rewriter: PatternRewriter, /):
        if _constant_int(op.source_offset) == 0 and _same_value(op.result_size, op.source_size):
            _replace(rewriter, op, [op.source])
            return
        inner = op.source.owner
        if isinstance(inner, stream.ResourceSubviewOp):
            offset = _add(rewriter, execution_scope(op), inner.source_offset, op.source_offset)
            rewriter.replace(op, stream.ResourceSubviewOp(
                inner.source, inner.source_size, offset, op.result_size
            ))


def execution_scope(op: Operation) -> Operation:
    """Where offsets computed for `op` go: before the enclosing `stream.cmd.execute`,
    whose body holds only commands (IREE computes them there too), else before `op`."""
    scope = op
    while not isinstance(scope, stream_cmd.CmdExecuteOp) and scope.parent_op() is not None:
        scope = scope.parent_op()  # type: ignore[assignment]
    return scope if isinstance(scope, stream_cmd.CmdExecuteOp) else op


def _add(rewriter: PatternRewriter, at: Operation, a: SSAValue, b: SSAValue) -> SSAValue:
    ca, cb = _constant_int(a), _constant_int(b)
    if ca is not None and cb is not None:
        return _index_constant(rewriter, at, ca + cb)
    add = arith.AddiOp(a, b)
    rewriter.insert(add, InsertPoint.before(at))
    return add.result


class FoldSubviewIntoAccess(RewritePattern):
    """A load or store through a subview accesses the viewed resource at the
    summed offset."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.ResourceLoadOp | stream.ResourceStoreOp, rewriter: PatternRewriter, /
    ):
        if isinstance(op, stream.ResourceLoadOp):
            resource, size, offset = op.source, op.source_size, op.source_offset
        else:
            resource, size, offset = op.target, op.target_size, op.target_offset
        view = resource.owner
        if not isinstance(view, stream.ResourceSubviewOp):
            return
        total = _add(rewriter, op, view.source_offset, offset)
        index = {id(v): i for i, v in enumerate(op.operands)}
        operands = list(op.operands)
        operands[index[id(resource)]] = view.source
        operands[index[id(size)]] = view.source_size
        operands[index[id(offset)]] = total
        new = type(op).build(
            operands=operands, result_types=[r.type for r in op.results],
            properties=dict(op.properties), attributes=dict(op.attributes),
        )
        rewriter.replace(op, new)


class FoldPack(RewritePattern):
    """A pack of no slices has length 0; of one slice, its size at offset 0 (plus
    the base offset)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourcePackOp, rewriter: PatternRewriter, /):
        count = len(op.dynamic_slice_sizes)
        if count > 1:
            return
        zero = _index_constant(rewriter, op, 0)
        if count == 0:
            _replace(rewriter, op, [zero])
            return
        offset = op.offset if op.offset is not None else zero
        _replace(rewriter, op, [op.dynamic_slice_sizes[0], offset])


def _new_pack(
    op: stream.ResourcePackOp,
    offset: SSAValue | None,
    intervals: Sequence[int],
    sizes: Sequence[SSAValue],
) -> stream.ResourcePackOp:
    return stream.ResourcePackOp.build(
        operands=[[] if offset is None else [offset], list(sizes)],
        properties={
            "lifetime_intervals": ArrayAttr([IntegerAttr(v, IndexType()) for v in intervals]),
            "affinity": op.affinity,
        },
        attributes=dict(op.attributes),
        result_types=[IndexType(), [IndexType()] * len(sizes)],
    )


class PropagatePackOffset(RewritePattern):
    """A pack's base offset moves out: a zero offset is dropped, another one is
    added to each packed offset after an unbased pack (so equal packs at
    different bases share one)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourcePackOp, rewriter: PatternRewriter, /):
        if op.offset is None or not op.dynamic_slice_sizes:
            return
        intervals = [a.value.data for a in op.lifetime_intervals.data]
        new = _new_pack(op, None, intervals, list(op.dynamic_slice_sizes))
        rewriter.insert(new, InsertPoint.before(op))
        offsets = list(new.packed_offsets)
        if _constant_int(op.offset) != 0:
            adds = [arith.AddiOp(op.offset, v) for v in new.packed_offsets]
            rewriter.insert(adds, InsertPoint.before(op))
            offsets = [a.result for a in adds]
        _replace(rewriter, op, [new.total_length, *offsets])


class SortPackIntervals(RewritePattern):
    """A pack's slices in order of their lifetime intervals (IREE's canonical
    form: equal packs then look equal)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourcePackOp, rewriter: PatternRewriter, /):
        intervals = [a.value.data for a in op.lifetime_intervals.data]
        count = len(op.dynamic_slice_sizes)
        order = sorted(range(count), key=lambda i: (intervals[2 * i], intervals[2 * i + 1]))
        if order == list(range(count)):
            return
        new = _new_pack(
            op, op.offset,
            [v for i in order for v in (intervals[2 * i], intervals[2 * i + 1])],
            [op.dynamic_slice_sizes[i] for i in order],
        )
        rewriter.insert(new, InsertPoint.before(op))
        offsets: list[SSAValue] = [new.total_length] * count
        for position, i in enumerate(order):
            offsets[i] = new.packed_offsets[position]
        _replace(rewriter, op, [new.total_length, *offsets])


class ElideUnusedAlloca(RewritePattern):
    """An alloca whose resource nobody uses is its await timepoint (or an
    immediate one)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourceAllocaOp, rewriter: PatternRewriter, /):
        if op.result.uses:
            return
        if op.await_timepoint is not None:
            _replace(rewriter, op, [op.result, op.await_timepoint])
            return
        immediate = stream.TimepointImmediateOp()
        rewriter.insert(immediate, InsertPoint.before(op))
        _replace(rewriter, op, [op.result, immediate.result_timepoint])



class BatchTimelineAllocations(RewritePattern):
    """An alloca (dealloca) that waits only for another one's timepoint waits for
    what that one waits for; its timepoint becomes the join of both, so the
    allocations can run together and everything after still waits for both."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.ResourceAllocaOp | stream.ResourceDeallocaOp,
        rewriter: PatternRewriter, /
    ):
        if op.await_timepoint is None:
            return
        prev = op.await_timepoint.owner
        if type(prev) is not type(op) or op.await_timepoint is not prev.result_timepoint:
            return
        # Both ops define the optional await last, after single operands.
        groups: list[list[SSAValue]] = [[v] for v in op.operands[:-1]]
        groups.append([] if prev.await_timepoint is None else [prev.await_timepoint])
        new = type(op).build(
            operands=groups,
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            result_types=[r.type for r in op.results],
        )
        join = stream.TimepointJoinOp([prev.result_timepoint, new.result_timepoint])
        rewriter.insert([new, join], InsertPoint.before(op))
        _replace(rewriter, op, [*new.results[:-1], join.result_timepoint])


class ElideAllocaDealloca(RewritePattern):
    """A transient allocation used only by its deallocation is neither: the
    dealloca's timepoint is what it waited for."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourceDeallocaOp, rewriter: PatternRewriter, /):
        alloca = op.operand.owner
        if not isinstance(alloca, stream.ResourceAllocaOp):
            return
        if len(list(alloca.result.uses)) != 1:
            return
        timepoint = op.await_timepoint
        if timepoint is None:
            immediate = stream.TimepointImmediateOp()
            rewriter.insert(immediate, InsertPoint.before(op))
            timepoint = immediate.result_timepoint
        _replace(rewriter, op, [timepoint])


class FoldConsecutiveTransients(RewritePattern):
    """Transients of transients place the resource's transients in the last
    storage only: the first placement is overridden."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.ResourceTransientsOp, rewriter: PatternRewriter, /
    ):
        inner = op.resource.owner
        if not isinstance(inner, stream.ResourceTransientsOp):
            return
        new = stream.ResourceTransientsOp.build(
            operands=[inner.resource, inner.resource_size, op.storage, op.storage_size,
                      [] if op.await_timepoint is None else [op.await_timepoint]],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            result_types=[r.type for r in op.results],
        )
        rewriter.replace(op, new)


class DeduplicateSameOperand(RewritePattern):
    """An import or export equal to an earlier one in the same block (same
    operands, properties, attributes and types) is that one: both name the same
    external memory. (MLIR's canonicalizer does not run CSE; IREE folds these.)"""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, stream.TensorImportOp | stream.TensorExportOp):
            return
        for use in op.operands[0].uses:
            other = use.operation
            if (
                other is not op
                and type(other) is type(op)
                and other.parent is op.parent
                and other.is_before_in_block(op)
                and list(other.operands) == list(op.operands)
                and other.properties == op.properties
                and other.attributes == op.attributes
                and other.result_types == op.result_types
            ):
                _replace(rewriter, op, other.results)
                return


# --------------------------------------------------------------------------------
# Execution regions
# --------------------------------------------------------------------------------


def _rebuild_region_op(
    rewriter: PatternRewriter,
    op: stream.AsyncExecuteOp | stream.AsyncConcurrentOp,
    *,
    operands: Sequence[SSAValue] | None = None,
    operand_sizes: Sequence[SSAValue] | None = None,
    keep_results: Sequence[int] | None = None,
    ties: Sequence[int | None] | None = None,
    await_timepoint: SSAValue | None | bool = True,
) -> Operation:
    """The same region op with some of its parts replaced (the body moves over);
    results not kept must be unused or replaced by the caller. `await_timepoint`
    True keeps the op's own."""
    results = list(op.resource_results)
    kept = list(range(len(results))) if keep_results is None else list(keep_results)
    old_ties = op.tied_result_operands()
    new_ties = [old_ties[i] for i in kept] if ties is None else list(ties)
    sizes = [op.result_size_of(i) for i in kept]
    kwargs: dict[str, object] = {"tied_operands": new_ties, "affinity": op.affinity}
    if isinstance(op, stream.AsyncExecuteOp):
        kwargs["await_timepoint"] = (
            op.await_timepoint if await_timepoint is True else await_timepoint
        )
    new = type(op)(
        list(op.resource_operands) if operands is None else list(operands),
        list(op.resource_operand_sizes) if operand_sizes is None else list(operand_sizes),
        [results[i].type for i in kept],
        [size for size in sizes if size is not None],
        op.detach_region(op.body),
        **kwargs,  # type: ignore[arg-type]
    )
    new.attributes.update(op.attributes)
    rewriter.insert(new, InsertPoint.before(op))
    return new


def _region_yield(op: Operation) -> Operation | None:
    block = op.regions[0].blocks.first
    return None if block is None else block.last_op


class ElideImmediateAwait(RewritePattern):
    """Waiting on an immediate timepoint is waiting on nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncExecuteOp, rewriter: PatternRewriter, /):
        if op.await_timepoint is None or not _is_immediate(op.await_timepoint):
            return
        new = _rebuild_region_op(rewriter, op, await_timepoint=None)
        _replace(rewriter, op, new.results)


def awaited_captures(
    op: Operation, rewriter: PatternRewriter
) -> tuple[list[SSAValue], SSAValue] | None:
    """The captures of an execute region op (async or cmd) with each
    `stream.timepoint.await` result replaced by the awaited resource, and the one
    timepoint the op must then wait on (its own joined with the awaits', the join
    inserted before `op`); None when no capture is an await's result."""
    operands = list(op.resource_operands)
    timepoints: list[SSAValue] = []
    for i, value in enumerate(operands):
        awaited = _source_await(value)
        if awaited is None:
            continue
        operands[i] = awaited.resource_operands[awaited.results.index(value)]
        if awaited.await_timepoint not in timepoints:
            timepoints.append(awaited.await_timepoint)
    if not timepoints:
        return None
    if op.await_timepoint is not None and op.await_timepoint not in timepoints:
        timepoints.insert(0, op.await_timepoint)
    if len(timepoints) == 1:
        return operands, timepoints[0]
    join = stream.TimepointJoinOp(timepoints)
    rewriter.insert(join, InsertPoint.before(op))
    return operands, join.result_timepoint


class ChainDependentAwaits(RewritePattern):
    """A captured resource that is a `stream.timepoint.await` result is captured
    as the awaited resource, and the region waits on that timepoint instead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncExecuteOp, rewriter: PatternRewriter, /):
        chained = awaited_captures(op, rewriter)
        if chained is None:
            return
        operands, timepoint = chained
        new = _rebuild_region_op(rewriter, op, operands=operands, await_timepoint=timepoint)
        _replace(rewriter, op, new.results)


class CloneCapturedSubviews(RewritePattern):
    """A captured subview is captured as the whole resource and the subview is
    taken inside the region (the region then sees the real allocation)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncExecuteOp, rewriter: PatternRewriter, /):
        operands = list(op.resource_operands)
        sizes = list(op.resource_operand_sizes)
        positions = stream.resource_positions(op.resource_operands)
        block = op.body.block
        views: list[tuple[int, stream.ResourceSubviewOp]] = []
        for i, value in enumerate(operands):
            view = value.owner
            if isinstance(view, stream.ResourceSubviewOp) and i in positions:
                views.append((i, view))
        if not views:
            return
        for i, view in views:
            operands[i] = view.source
            sizes[positions[i]] = view.source_size
            argument = block.args[i]
            subview = stream.ResourceSubviewOp(
                argument, view.source_size, view.source_offset, view.result_size
            )
            rewriter.insert(subview, InsertPoint.at_start(block))
            rewriter.replace_uses_with_if(
                argument, subview.result, lambda use: use.operation is not subview
            )
        new = _rebuild_region_op(rewriter, op, operands=operands, operand_sizes=sizes)
        _replace(rewriter, op, new.results)


class ElideNoOpExecute(RewritePattern):
    """A region that only yields what it captured is those captures, ready when
    the region would have started (its await, or now). IREE makes the timepoint
    immediate even with an await, dropping that wait; memplan keeps it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncExecuteOp, rewriter: PatternRewriter, /):
        block = op.body.block
        yielded = block.first_op
        if yielded is None or yielded is not block.last_op:
            return
        values = []
        for value in yielded.operands[: len(op.resource_results)]:
            if not isinstance(value, BlockArgument) or value.block is not block:
                return
            values.append(op.resource_operands[value.index])
        if any(v.type != r.type for v, r in zip(values, op.resource_results)):
            return
        timepoint = op.await_timepoint
        if timepoint is None:
            immediate = stream.TimepointImmediateOp()
            rewriter.insert(immediate, InsertPoint.before(op))
            timepoint = immediate.result_timepoint
        _replace(rewriter, op, [*values, timepoint])


def _tied_capture(value: SSAValue, block: Block) -> int | None:
    """The region argument `value` is, through results tied to operands."""
    while isinstance(value, OpResult):
        ties = getattr(value.op, "tied_result_operands", None)
        if ties is None:
            return None
        found = ties()
        tie = found[value.index] if value.index < len(found) else None
        if tie is None:
            return None
        value = _tied_operand(value.op, tie)
    if isinstance(value, BlockArgument) and value.block is block:
        return value.index
    return None


class TieRegionResults(RewritePattern):
    """A result whose yielded value is a captured resource updated in place is tied
    to that capture."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.AsyncExecuteOp | stream.AsyncConcurrentOp,
        rewriter: PatternRewriter, /
    ):
        yielded = _region_yield(op)
        if yielded is None:
            return
        ties = list(op.tied_result_operands())
        changed = False
        block = op.body.block
        for i, value in enumerate(yielded.operands[: len(ties)]):
            if ties[i] is not None:
                continue
            capture = _tied_capture(value, block)
            if capture is not None and op.resource_operands[capture].type == (
                op.resource_results[i].type
            ):
                ties[i] = capture
                changed = True
        if changed:
            new = _rebuild_region_op(rewriter, op, ties=ties)
            _replace(rewriter, op, new.results)


class FoldDuplicateRegionResults(RewritePattern):
    """Results that yield the same value with the same tie are one result."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.AsyncExecuteOp | stream.AsyncConcurrentOp,
        rewriter: PatternRewriter, /
    ):
        yielded = _region_yield(op)
        if not isinstance(yielded, stream.YieldOp):
            return
        count = len(op.resource_results)
        ties = op.tied_result_operands()
        first: dict[tuple[int, int | None], int] = {}
        kept: list[int] = []
        mapping: list[int] = []
        for i, value in enumerate(yielded.resource_operands[:count]):
            key = (id(value), ties[i])
            if key in first:
                mapping.append(first[key])
                continue
            first[key] = len(kept)
            mapping.append(len(kept))
            kept.append(i)
        if len(kept) == count:
            return
        values = [yielded.resource_operands[i] for i in kept]
        sizes = [yielded.resource_operand_sizes[stream.resource_positions(op.resource_results)[i]]
                 for i in kept if i in stream.resource_positions(op.resource_results)]
        rewriter.replace(yielded, stream.YieldOp(values, sizes))
        new = _rebuild_region_op(rewriter, op, keep_results=kept)
        results = [new.results[mapping[i]] for i in range(count)]
        _replace(rewriter, op, [*results, *new.results[len(kept):]])


PATTERNS = {
    "stream.async.transfer": (
        FoldTransferOfTransfer(), TransferRemakesCloneable(), ElideTransferOfFreshValue()
    ),
    "stream.tensor.encode": (FoldEncodeOfSameEncoding(),),
    "stream.resource.size": (FoldResourceSize(), SelectResourceSize()),
    "arith.select": (SinkSubviewAcrossSelect(),),
    "builtin.unrealized_conversion_cast": (StripResourceConversionCast(),),
    "stream.timepoint.export": (FoldExportOfImport(),),
    "stream.timepoint.chain_external": (PassThroughChainExternal(),),
    "stream.timepoint.join": (CanonicalizeJoin(),),
    "stream.timepoint.barrier": (FoldBarrier(),),
    "stream.timepoint.await": (
        CanonicalizeAwait(), SinkSubviewAcrossAwait(), SinkToConsumers()
    ),
    "stream.async.alloca": (SinkToConsumers(),),
    "stream.tensor.splat": (NarrowSplatPattern(),),
    "stream.async.splat": (NarrowSplatPattern(), SinkToConsumers()),
    "stream.async.clone": (PropagateCloneableOps(),),
    "stream.async.constant": (ConvertSplatConstantsIntoSplats(),),
    "stream.async.slice": (CanonicalizeSlice(),),
    "stream.async.fill": (NarrowSplatPattern(), CanonicalizeFill(), CoalesceAdjacentFills()),
    "stream.tensor.fill": (NarrowSplatPattern(),),
    "stream.async.update": (CanonicalizeUpdate(),),
    "stream.async.copy": (AsyncCopyFullSourceToUpdate(),),
    "stream.async.cast": (CanonicalizeCast(),),
    "stream.async.load": (FoldLoadBitcast(), FoldAsyncCloneIntoLoad()),
    "stream.tensor.load": (FoldTensorCloneIntoLoad(),),
    "stream.resource.load": (FoldLoadBitcast(), FoldSubviewIntoAccess()),
    "stream.async.store": (FoldStoreBitcast(),),
    "stream.resource.store": (FoldStoreBitcast(), FoldSubviewIntoAccess()),
    "stream.tensor.import": (FoldImportOfExport(), DeduplicateSameOperand()),
    "stream.tensor.export": (FoldTensorExportOfImport(), DeduplicateSameOperand()),
    "stream.tensor.clone": (FoldTensorClone(),),
    "stream.tensor.constant": (TensorConstantToEmptyOrSplat(),),
    "stream.resource.subview": (FoldSubview(),),
    "stream.resource.pack": (FoldPack(), PropagatePackOffset(), SortPackIntervals()),
    "stream.resource.transients": (FoldConsecutiveTransients(),),
    "stream.resource.alloca": (ElideUnusedAlloca(), BatchTimelineAllocations()),
    "stream.resource.dealloca": (ElideAllocaDealloca(), BatchTimelineAllocations()),
    "stream.async.execute": (
        ElideImmediateAwait(),
        ChainDependentAwaits(),
        CloneCapturedSubviews(),
        ElideNoOpExecute(),
        FoldDuplicateRegionResults(),
        TieRegionResults(),
    ),
    "stream.async.concurrent": (FoldDuplicateRegionResults(), TieRegionResults()),
}
