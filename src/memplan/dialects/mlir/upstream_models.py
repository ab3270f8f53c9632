"""External models that give xDSL's upstream ops memplan's interfaces.

xDSL's memref ops declare memory effects tied to no value and have no view-like
interface. MLIR ties each effect to the buffer it touches and marks views as
`ViewLikeOpInterface`; these models restore that information so the analyses can
follow buffers without knowing op names. Importing this module attaches them.
"""

from __future__ import annotations

from xdsl.dialects import arith, builtin, func, memref, scf
from xdsl.traits import NoMemoryEffect, OpTrait
from xdsl.ir import Operation

from memplan.analysis.byte_ranges import PLACING_VIEWS, VIEW_MODELS
from memplan.printing.naming import attach_upstream_result_names
from memplan.printing.structure import DefaultDialect
from memplan.util_interfaces import STREAM_PATTERNS, CanonicalizedBy
from memplan.interfaces import (
    AutomaticAllocation,
    AutomaticAllocationScope,
    CountedLoop,
    ElementAccess,
    HostInlineRegions,
    NoAddressCapture,
    OperandEffects,
    SuccessorOperands,
    PlannableAllocation,
    SignatureVerifier,
    ViewLike,
    all_results,
    attach_trait,
    attach_trait_when_imported,
    operands_named,
)

_VIEW_SOURCES: dict[type, str] = {
    memref.SubviewOp: "source",
    memref.CastOp: "source",
    memref.ReinterpretCastOp: "source",
    memref.ExpandShapeOp: "src",
    memref.CollapseShapeOp: "src",
    memref.ViewOp: "source",
    memref.MemorySpaceCastOp: "source",
    memref.AssumeAlignmentOp: "memref",
}

_EFFECTS: dict[type, OperandEffects] = {
    memref.LoadOp: OperandEffects(reads=operands_named("memref")),
    memref.StoreOp: OperandEffects(writes=operands_named("memref")),
    memref.CopyOp: OperandEffects(
        reads=operands_named("source"), writes=operands_named("destination")
    ),
    memref.AtomicRMWOp: OperandEffects(
        reads=operands_named("memref"), writes=operands_named("memref")
    ),
    memref.AllocOp: OperandEffects(allocates=all_results),
    memref.AllocaOp: OperandEffects(allocates=all_results),
    memref.DeallocOp: OperandEffects(frees=operands_named("memref")),
}


# Ops that read a buffer's shape only: a use by them is neither an access nor an
# escape. `extract_aligned_pointer_as_index` and `extract_strided_metadata` are not
# among them: the first hands out the address, the second returns the base buffer.
_METADATA_ONLY: tuple[type, ...] = (memref.DimOp, memref.RankOp)


# The structured control flow that runs its regions on the host, inline. `scf.parallel`
# and `scf.forall` are not among them: their iterations may run at the same time.
_INLINE_REGIONS: dict[type, HostInlineRegions] = {
    scf.ForOp: HostInlineRegions(repeats=True),
    scf.WhileOp: HostInlineRegions(repeats=True),
    scf.IfOp: HostInlineRegions(exclusive=True),
    scf.IndexSwitchOp: HostInlineRegions(exclusive=True),
    scf.ExecuteRegionOp: HostInlineRegions(),
    memref.AllocaScopeOp: HostInlineRegions(),
}

# Models of ops of dialects a run imports only when its input (or a pass) uses them
# (xDSL's affine and cf: 0.03-0.1 s), attached once they are imported: (module,
# class, trait).
_WHEN_IMPORTED: tuple[tuple[str, str, OpTrait], ...] = (
    ("xdsl.dialects.affine", "ForOp", HostInlineRegions(repeats=True)),
    ("xdsl.dialects.affine", "IfOp", HostInlineRegions(exclusive=True)),
    ("xdsl.dialects.affine", "ParallelOp", AutomaticAllocationScope()),
    ("xdsl.dialects.cf", "BranchOp", SuccessorOperands(("arguments",))),
    ("xdsl.dialects.cf", "ConditionalBranchOp", SuccessorOperands(("then_arguments", "else_arguments"))),
    # MLIR's branches are Pure; xDSL's declare no effects, which would make every
    # branch look like it writes unknown memory.
    ("xdsl.dialects.cf", "BranchOp", NoMemoryEffect()),
    ("xdsl.dialects.cf", "ConditionalBranchOp", NoMemoryEffect()),
)


def _alloc_alignment(op: Operation) -> int | None:
    assert isinstance(op, memref.AllocOp)
    return None if op.alignment is None else op.alignment.value.data


# `memref.alloc` is the buffer the memory passes place; `alloca` lives on the stack
# frame of its scope and is left where it is.
_PLANNABLE: dict[type, PlannableAllocation] = {
    memref.AllocOp: PlannableAllocation(
        dynamic_sizes=operands_named("dynamic_sizes"), alignment=_alloc_alignment
    ),
}


# Ops whose verifiers (xDSL's, and those of memplan's subclasses, which inherit
# the model) check nothing but types, properties and attributes: every arith op,
# the memref ops below, the scf terminators (their parent is checked by a trait).
_SIGNATURE_VERIFIED: tuple[type[Operation], ...] = (
    *arith.Arith.operations,
    memref.AllocOp,
    memref.AllocaOp,
    memref.LoadOp,
    memref.StoreOp,
    memref.DeallocOp,
    memref.SubviewOp,
    memref.ViewOp,
    memref.ReinterpretCastOp,
    memref.CastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    scf.YieldOp,
    scf.ConditionOp,
)


def _attach() -> None:
    for op_type, field in _VIEW_SOURCES.items():
        index = [name for name, _ in op_type.get_irdl_definition().operands].index(field)
        attach_trait(op_type, ViewLike(index, VIEW_MODELS[op_type], op_type in PLACING_VIEWS))
    for op_type, effects in _EFFECTS.items():
        attach_trait(op_type, effects)
    for op_type, allocation in _PLANNABLE.items():
        attach_trait(op_type, allocation)
    for op_type, inline in _INLINE_REGIONS.items():
        attach_trait(op_type, inline)
    for op_type in _METADATA_ONLY:
        attach_trait(op_type, NoAddressCapture())
    attach_trait(func.FuncOp, DefaultDialect("func"))
    for scope in (func.FuncOp, memref.AllocaScopeOp):
        attach_trait(scope, AutomaticAllocationScope())
    attach_trait(memref.AllocaOp, AutomaticAllocation())
    for element_op in (memref.LoadOp, memref.StoreOp):
        attach_trait(element_op, ElementAccess("memref", "indices"))
    attach_trait(scf.ForOp, CountedLoop("lb", "ub", "step"))
    # MLIR's alloca_scope terminator is Pure; xDSL's declares no effects.
    attach_trait(memref.AllocaScopeReturnOp, NoMemoryEffect())
    for module, class_name, trait in _WHEN_IMPORTED:
        attach_trait_when_imported(module, class_name, trait)
    for op_type in _SIGNATURE_VERIFIED:
        attach_trait(op_type, SignatureVerifier())
    attach_upstream_result_names()


def declare_canonicalization_patterns() -> None:
    """Give upstream ops the patterns memplan keeps for them, as traits of xDSL's
    classes (so stock `xdsl-opt -p canonicalize` applies them too): IREE's stream
    dialect canonicalizes `arith.select` and `builtin.unrealized_conversion_cast`
    when they carry resources, MLIR's `scf.while` patterns (xDSL's op declares
    none) and its `scf.for` iteration-argument folder (xDSL lacks it). Called with
    the memref ones (`make_context()`, the universe entry), not on import.
    Idempotent."""
    declared = (
        (arith.SelectOp, STREAM_PATTERNS),
        (builtin.UnrealizedConversionCastOp, STREAM_PATTERNS),
        (scf.WhileOp, CanonicalizedBy("memplan.passes.patterns.scf")),
        (scf.ForOp, CanonicalizedBy("memplan.passes.patterns.scf")),
        # IREE's util.assume.int registers a pattern on arith.muli, and
        # util.buffer.subspan one on arith.select.
        (arith.MuliOp, CanonicalizedBy("memplan.passes.patterns.util_values")),
        (arith.SelectOp, CanonicalizedBy("memplan.passes.patterns.util_values")),
    )
    for op_type, patterns in declared:
        if patterns not in op_type.traits.traits:
            op_type.traits.add_trait(patterns)


_attach()
