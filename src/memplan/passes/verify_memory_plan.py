"""`verify-memory-plan`: fail when a memory plan lets two accesses to shared bytes race.

The checker is `memplan.checker` (its own package, sharing no code with the
planners it checks); this pass reports its violations, an error at one access and a
note at the other, then fails at the first violation's function. See
docs/design/verify-memory-plan.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.traits import CallableOpInterface

from memplan.checker import Violation, check_module
from memplan.diagnostics import UserError, emit
from memplan.interfaces import get_interface
from memplan.passes.base import MemplanPass

__all__ = ["VerifyMemoryPlan", "Violation", "check_module"]


@dataclass(frozen=True)
class VerifyMemoryPlan(MemplanPass):
    """Fail when two accesses to the same bytes of different buffers may race."""

    name = "verify-memory-plan"

    packs: bool = False
    """Also lay out every `stream.resource.pack` as `layout-slices` would, on a copy
    (the IR is unchanged), and check each layout with the pack checker
    (`memplan.checker.packs`); fail at the first wrong one."""

    pack_assignments: int = 200
    """Random assignments of the unknowns the pack checker tries per dynamic pack
    (besides 0, 1 and uniform small and large values)."""

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        if self.packs:
            self._check_packs(module)
        violations = check_module(module)
        for violation in violations:
            for diagnostic in violation.diagnostics():
                emit(diagnostic)
        if violations:
            first = violations[0].later
            while first.parent_op() is not None and get_interface(
                first, CallableOpInterface
            ) is None:
                first = first.parent_op()
            raise UserError(
                f"verify-memory-plan: {len(violations)} unordered pair(s) of accesses "
                "to shared bytes (see the errors above)",
                op=first,
            )
        return False

    def _check_packs(self, module: ModuleOp) -> None:
        from memplan.dialects.iree.stream import ResourcePackOp
        from memplan.passes.layout_slices import LayoutSlices

        originals = [op for op in module.walk() if isinstance(op, ResourcePackOp)]
        copy = module.clone()
        for original, lowered in zip(originals, LayoutSlices(verify=False).lower_all(copy)):
            if lowered.dynamic and not lowered.prove():
                continue  # proven for every value of the unknowns
            problems = lowered.check(self.pack_assignments)
            if problems:
                raise UserError(f"verify-memory-plan: layout-slices lays this pack out wrong: {problems[0]}", op=original)
