"""`layout-slices` (IREE's `iree-stream-layout-slices`): lower every
`stream.resource.pack` into its slices' offsets and the total.

Alignment comes from the `#stream.resource_config` IREE would find for the op (the
`stream.resources` attribute of the op or its nearest ancestor, else IREE's default
of `min-offset-alignment` for both offsets and ranges). Slices reserve their size
rounded up to the range alignment and start at multiples of the offset alignment
relative to the `offset(%base)` operand (0 without one); the total is the base plus
the highest end, rounded up to the range alignment.

- Static packs (every size a constant): the smallest of IREE's greedy and memplan's
  planners (`memplan.planning.slices.pack_static`); offsets and total are constants.
- Packs with dynamic sizes: sizes read as polynomials over the function's values
  (`memplan.analysis.index_polynomials`), laid out by
  `memplan.planning.dynamic_slices.pack_symbolic` (valid for every value of the
  unknowns; the program picks the smallest of a few layouts at run time), emitted as
  `arith`/`util` ops.

See docs/design/layout-slices.md for the design and its proof.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from memplan.analysis.index_polynomials import AlignedAtom, IndexPolynomials
from memplan.diagnostics import UserError, remark
from memplan.dialects.iree.stream import ResourcePackOp
from memplan.dialects.iree.stream_runtime import ResourceConfigAttr
from memplan.dialects.iree.util_values import AlignOp
from memplan.passes.base import MemplanPass, record_statistic
from memplan.planning.dynamic_slices import iree_dynamic_layout, pack_symbolic
from memplan.planning.polynomials import MaxPoly, Poly
from memplan.planning.problem import PlanInputError
from memplan.planning.slices import DEFAULT_EFFORT, pack_static

__all__ = ["LayoutSlices", "LoweredPack", "resource_alignments"]

#: Index of min_buffer_offset_alignment / min_buffer_range_alignment in the
#: attribute's limits (see `memplan.dialects.iree.stream_runtime._RESOURCE_LIMITS`).
_OFFSET_ALIGNMENT, _RANGE_ALIGNMENT = 1, 3


def resource_alignments(op: Operation, default: int) -> tuple[int, int]:
    """(offset alignment, range alignment) from the `stream.resources` config IREE's
    `ResourceConfigAttr::lookup` finds for `op`: its own, else its nearest ancestor's,
    else IREE's default host config (``default`` for both). HAL affinities carry no
    config in IREE, so affinities are not consulted. 0 (a key left out) means 1."""
    current: Operation | None = op
    while current is not None:
        attr = current.attributes.get("stream.resources")
        if isinstance(attr, ResourceConfigAttr):
            limits = attr.limits.data
            return max(limits[_OFFSET_ALIGNMENT].data, 1), max(limits[_RANGE_ALIGNMENT].data, 1)
        current = current.parent_op()
    return default, default


def _check_alignment(value: int, what: str, op: Operation) -> None:
    if value & (value - 1):
        raise UserError(f"layout-slices: {what} {value} is not a power of two", op=op)


class _Emitter:
    """Builds index arithmetic before one op, reusing what it already built."""

    def __init__(self, before: Operation, reader: IndexPolynomials, known: dict[Poly, SSAValue]):
        self.before = before
        self.reader = reader
        self.polys: dict[Poly, SSAValue] = dict(known)
        self.monomials: dict[tuple[int, ...], SSAValue] = {}
        self.constants: dict[int, SSAValue] = {}
        self.maxima: dict[MaxPoly, SSAValue] = {}
        self.count = 0

    def _insert(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.before))
        self.count += 1
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        found = self.constants.get(value)
        if found is None:
            found = self.constants[value] = self._insert(arith.ConstantOp.from_int_and_width(value, IndexType()))
        return found

    def _atom(self, atom: int) -> SSAValue:
        key = self.reader.atoms[atom]
        if isinstance(key, AlignedAtom):
            found = self.polys.get(Poly.atom(atom))
            if found is None:
                found = self._insert(AlignOp(key.value, self.constant(key.alignment)))
                self.polys[Poly.atom(atom)] = found
            return found
        return key

    def monomial(self, monomial: tuple[int, ...]) -> SSAValue:
        found = self.monomials.get(monomial)
        if found is None:
            if len(monomial) == 1:
                found = self._atom(monomial[0])
            else:
                found = self._insert(arith.MuliOp(self.monomial(monomial[:-1]), self._atom(monomial[-1])))
            self.monomials[monomial] = found
        return found

    def poly(self, poly: Poly) -> SSAValue:
        found = self.polys.get(poly)
        if found is not None:
            return found
        constant = poly.constant()
        if constant is not None:
            return self.constant(constant)
        value: SSAValue | None = None
        for monomial, k in poly.terms:
            if monomial == ():
                term = self.constant(k)
            else:
                term = self.monomial(monomial)
                if k != 1:
                    term = self._insert(arith.MuliOp(term, self.constant(k)))
            value = term if value is None else self._insert(arith.AddiOp(value, term))
        assert value is not None
        self.polys[poly] = value
        return value

    def maximum(self, value: MaxPoly) -> SSAValue:
        found = self.maxima.get(value)
        if found is None:
            found = None
            for member in value.members:
                term = self.poly(member)
                found = term if found is None else self._insert(arith.MaxUIOp(found, term))
            assert found is not None
            self.maxima[value] = found
        return found

    def max_of(self, values: list[SSAValue]) -> SSAValue:
        """The unsigned maximum of ``values`` (0 for none)."""
        result: SSAValue | None = None
        for value in values:
            result = value if result is None else self._insert(arith.MaxUIOp(result, value))
        return self.constant(0) if result is None else result

    def add(self, lhs: SSAValue | None, rhs: SSAValue) -> SSAValue:
        if lhs is None:
            return rhs
        if arith_constant(rhs) == 0:
            return lhs
        return self._insert(arith.AddiOp(lhs, rhs))

    def select(self, condition: SSAValue, then: SSAValue, otherwise: SSAValue) -> SSAValue:
        if then is otherwise:
            return then
        return self._insert(arith.SelectOp(condition, then, otherwise))

    def less(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._insert(arith.CmpiOp(lhs, rhs, "ult"))


def arith_constant(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


@dataclass(frozen=True)
class LoweredPack:
    """A pack and the values built for its results, with what checking them needs."""

    pack: ResourcePackOp
    starts: list[int]
    ends: list[int]
    sizes: list[SSAValue]
    offsets: list[SSAValue]
    total: SSAValue
    base: SSAValue | None
    offset_alignment: int
    range_alignment: int

    def check(self, random_assignments: int = 24) -> list[str]:
        """The pack checker's problems with this layout (empty when valid),
        evaluated at many values of the unknowns."""
        from memplan.checker.packs import check_pack

        return check_pack(
            self.starts, self.ends, self.sizes, self.offsets, self.total, self.base,
            self.offset_alignment, self.range_alignment, random_assignments=random_assignments,
        )

    def prove(self) -> list[str]:
        """What the pack checker could not prove for every value of the unknowns
        (empty: proven)."""
        from memplan.checker.packs import prove_pack

        return prove_pack(self.starts, self.ends, self.sizes, self.offsets, self.total, self.base, self.range_alignment)

    @property
    def dynamic(self) -> bool:
        return not all(isinstance(size.owner, arith.ConstantOp) for size in self.sizes)


@dataclass(frozen=True)
class LayoutSlices(MemplanPass):
    """Lower `stream.resource.pack` ops into offsets and totals."""

    name = "layout-slices"

    min_offset_alignment: int = 64
    """Offset and range alignment when no `#stream.resource_config` applies (IREE's
    `--iree-stream-resource-min-offset-alignment`)."""

    effort: int = DEFAULT_EFFORT
    """Work budget (search nodes, deterministic) of the exact search per static plan
    that misses the lower bound; 0 keeps the greedy plans."""

    tuning_values: tuple[int, ...] = (64, 512, 4096)
    """Values every unknown takes at the tuning points of dynamic packs (one layout
    is built per point; the program picks the smallest at run time)."""

    verify: bool = True
    """Check every layout with `memplan.checker.packs` (independent of the packer)
    and fail at the pack if it is wrong."""

    debug: bool = False
    """Remark at each pack what was planned, and which sizes were read only as
    unknowns (and why), which limits what the layout can prove about them."""

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        packs = self.lower_all(module)
        for lowered in packs:
            if self.verify:
                problems = lowered.check()
                if problems:
                    raise UserError(
                        f"layout-slices: internal error, the layout is wrong: {problems[0]}", op=lowered.pack
                    )
            _replace_results(lowered.pack, [lowered.total, *lowered.offsets])
            Rewriter.erase_op(lowered.pack)
        return bool(packs)

    def lower_all(self, module: ModuleOp) -> list[LoweredPack]:
        """Every pack of `module` laid out: the offset and total values are built
        before each pack, which stays in place with its uses (`run` replaces them)."""
        _check_alignment(self.min_offset_alignment, "min-offset-alignment", module)
        packs = [op for op in module.walk() if isinstance(op, ResourcePackOp)]
        readers: dict[Operation | None, IndexPolynomials] = {}
        lowered = []
        for pack in packs:
            function = _callable_of(pack)
            reader = readers.get(function)
            if reader is None:
                reader = readers[function] = IndexPolynomials()
            lowered.append(self._lower(pack, reader))
        return lowered

    def _lower(self, pack: ResourcePackOp, reader: IndexPolynomials) -> LoweredPack:
        offset_alignment, range_alignment = resource_alignments(pack, self.min_offset_alignment)
        _check_alignment(offset_alignment, "min_buffer_offset_alignment", pack)
        _check_alignment(range_alignment, "min_buffer_range_alignment", pack)
        bounds = [attr.value.data for attr in pack.lifetime_intervals.data]
        starts, ends = bounds[0::2], bounds[1::2]
        for index, (start, end) in enumerate(zip(starts, ends)):
            if end < start:
                raise UserError(
                    f"layout-slices: slice {index} has lifetime [{start}, {end}], which ends before it starts",
                    op=pack,
                )
        sizes = list(pack.dynamic_slice_sizes)
        polys = [reader.read(size) for size in sizes]
        known = {poly: size for poly, size in zip(polys, sizes)}
        emitter = _Emitter(pack, reader, known)
        base = pack.offset
        constants = [p.constant() for p in polys]
        try:
            if all(c is not None for c in constants):
                layout = pack_static(starts, ends, constants, offset_alignment, range_alignment, effort=self.effort)
                relative = [emitter.constant(int(o)) for o in layout.offsets.tolist()]
                total = emitter.constant(layout.total)
                record_statistic("num-static-packs", 1, "Packs with constant sizes only")
                record_statistic("num-bytes-saved", layout.iree_total - layout.total, "Bytes below IREE's greedy")
                if self.debug:
                    remark(
                        pack,
                        f"static pack of {len(starts)} slices: {layout.total} bytes ({layout.strategy}); "
                        f"lower bound {layout.lower_bound}, IREE's greedy {layout.iree_total}",
                    )
            else:
                relative, total = self._lower_dynamic(pack, reader, emitter, starts, ends, sizes, offset_alignment, range_alignment)
                record_statistic("num-dynamic-packs", 1, "Packs with dynamic sizes")
        except PlanInputError as error:
            raise UserError(f"layout-slices: {error}", op=pack) from None
        offsets = [emitter.add(base, value) for value in relative]
        total = emitter.add(base, total)
        return LoweredPack(pack, starts, ends, sizes, offsets, total, base, offset_alignment, range_alignment)

    def _explain(self, pack, reader, reserved, layouts: int, with_iree: bool) -> None:
        leaves = sum(1 for key in reader.atoms if _why_unknown(key) is None)
        text = (
            f"dynamic pack of {len(reserved)} slices: {layouts} layout(s) chosen at run time"
            + (" (one is IREE's: no layout is proven no larger)" if with_iree else "")
            + f"; sizes are polynomials over {leaves} unknown value(s)"
        )
        notes = _explain_unknowns(reader, reserved)
        if notes:
            text += "; read only as unknowns: " + "; ".join(notes[:4]) + ("; ..." if len(notes) > 4 else "")
        remark(pack, text)

    def _lower_dynamic(self, pack, reader, emitter, starts, ends, sizes, offset_alignment, range_alignment):
        unit = math.lcm(offset_alignment, range_alignment)
        reserved = [reader.aligned(size, unit) for size in sizes]
        points = [reader.values_at(value) for value in self.tuning_values]
        judge = [reader.values_at(value) for value in _JUDGE_VALUES]
        baseline = iree_dynamic_layout(starts, ends, reserved, sizes, offset_alignment, range_alignment)
        packing = pack_symbolic(
            starts, ends, reserved, points, offset_alignment, baseline=baseline, effort=self.effort, judge=judge
        )
        layouts = packing.layouts
        record_statistic("num-layouts", len(layouts), "Layouts chosen among at run time")
        if self.debug:
            self._explain(pack, reader, reserved, len(layouts), baseline in layouts)
        offsets, total = _emit_layout(emitter, layouts[0], reserved)
        for layout in layouts[1:]:
            candidate_offsets, candidate = _emit_layout(emitter, layout, reserved)
            smaller = emitter.less(candidate, total)
            offsets = [emitter.select(smaller, new, current) for new, current in zip(candidate_offsets, offsets)]
            total = emitter.select(smaller, candidate, total)
        return offsets, total


def _why_unknown(key) -> str | None:
    """Why an atom is an unknown: None for a leaf (an argument or a value of an op
    that is not index arithmetic, which nothing could read further)."""
    if isinstance(key, AlignedAtom):
        return "its size rounded up to the alignment is not a polynomial (not a multiple for every value)"
    op = key.owner if isinstance(key, SSAValue) else None
    if isinstance(op, arith.SubiOp):
        return "'arith.subi' may be negative as a polynomial"
    if isinstance(op, AlignOp | arith.CeilDivUIOp | arith.DivUIOp):
        return f"'{op.name}' does not divide its operand exactly"
    if isinstance(op, Operation) and op.name.startswith(("arith.", "util.align", "affine.")):
        return f"'{op.name}' is not read as a polynomial"
    return None


#: Leaf values at which the layouts of dynamic packs are judged (besides the tuning
#: points): four per octave from 1 to 65536. A point with no layout within 1% of
#: the lower bound gets a layout tuned there (up to 6); a layout best at none of
#: them is not emitted.
_JUDGE_VALUES = tuple(sorted({round(2 ** (k / 4)) for k in range(65)}))


def _explain_unknowns(reader: IndexPolynomials, reserved: list[Poly]) -> list[str]:
    notes = []
    for i, poly in enumerate(reserved):
        for atom in sorted(poly.atoms()):
            key = reader.atoms[atom]
            why = _why_unknown(key)
            if isinstance(key, AlignedAtom):
                inner = [_why_unknown(reader.atoms[a]) for a in sorted(reader.read(key.value).atoms())]
                why = next((reason for reason in inner if reason is not None), why)
            if why is not None:
                notes.append(f"slice {i}: {why}")
    return notes


def _emit_layout(emitter: _Emitter, layout, reserved: list[Poly]) -> tuple[list[SSAValue], SSAValue]:
    """The offsets and total of one layout: a polynomial where the layout knows the
    value as one, else the maximum of the ends of the slices below."""
    n = len(reserved)
    offsets: list[SSAValue | None] = [None] * n
    ends: dict[int, SSAValue] = {}

    def end(j: int) -> SSAValue:
        if j not in ends:
            exact = layout.exact(j)
            if exact is not None:
                ends[j] = emitter.poly(exact + reserved[j])
            else:
                ends[j] = emitter.add(offsets[j], emitter.poly(reserved[j]))
        return ends[j]

    for i in layout._order():
        exact = layout.exact(i)
        if exact is not None:
            offsets[i] = emitter.poly(exact)
        else:
            offsets[i] = emitter.max_of([end(j) for j in layout.below[i]])
    exact_total = layout.exact_total
    total = emitter.poly(exact_total) if exact_total is not None else emitter.max_of([end(j) for j in layout.top])
    return offsets, total  # type: ignore[return-value]


def _replace_results(op: Operation, values: list[SSAValue]) -> None:
    """Every use of ``op``'s results replaced by ``values``, each user rewritten
    once (a return of 10,000 offsets would cost O(n^2) one use at a time)."""
    mapping = dict(zip(op.results, values))
    users = {use.operation for result in op.results for use in result.uses}
    for user in users:
        user.operands = [mapping.get(operand, operand) for operand in user.operands]


def _callable_of(op: Operation) -> Operation | None:
    """The op directly below the module that holds `op` (atoms are per function)."""
    current = op
    while current.parent_op() is not None and not isinstance(current.parent_op(), ModuleOp):
        current = current.parent_op()
    return current
