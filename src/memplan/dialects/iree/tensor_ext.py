"""The part of IREE's `iree_tensor_ext` dialect host-side stream IR holds: the
workgroup count placeholders in `stream.executable.export`'s `workgroups` region.

The rest of the dialect (`!iree_tensor_ext.dispatch.tensor`, its load/store ops)
lives in executable bodies, which memplan keeps as text; the dialect is listed in
`memplan.opaque.PARTIAL_DIALECTS`, so its other attributes and types read opaquely.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure

from memplan.printing.naming import FixedResultNames

__all__ = ["DispatchWorkgroupCountFromSliceOp", "IreeTensorExt"]

_XYZ = FixedResultNames(("x", "y", "z"))


@irdl_op_definition
class DispatchWorkgroupCountFromSliceOp(IRDLOperation):
    """`iree_tensor_ext.dispatch.workgroup_count_from_slice(%workload...)` -- the
    default workgroup count, resolved by codegen from the dispatch's slice. Pure."""

    name = "iree_tensor_ext.dispatch.workgroup_count_from_slice"

    operands_ = var_operand_def(IndexType)
    x = result_def(IndexType)
    y = result_def(IndexType)
    z = result_def(IndexType)

    traits = traits_def(Pure(), _XYZ)

    assembly_format = "attr-dict `(` $operands_ `)`"


@irdl_op_definition
class DispatchWorkgroupCountSplitReductionModifierOp(IRDLOperation):
    """`iree_tensor_ext.dispatch.workgroup_count_split_reduction_modifier
    workgroups(%x, %y, %z) workload(%w...)` -- a count scaled for split
    reductions. Pure."""

    name = "iree_tensor_ext.dispatch.workgroup_count_split_reduction_modifier"

    workgroup_x = operand_def(IndexType)
    workgroup_y = operand_def(IndexType)
    workgroup_z = operand_def(IndexType)
    workload = var_operand_def(IndexType)
    result_x = result_def(IndexType)
    result_y = result_def(IndexType)
    result_z = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = (
        "attr-dict `workgroups` `(` $workgroup_x `,` $workgroup_y `,` $workgroup_z `)` "
        "`workload` `(` $workload `)`"
    )


IreeTensorExt = Dialect(
    "iree_tensor_ext",
    [DispatchWorkgroupCountFromSliceOp, DispatchWorkgroupCountSplitReductionModifierOp],
    [],
)
