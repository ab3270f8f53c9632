"""`apply-patterns` (IREE's `iree-util-apply-patterns`).

IREE's pass applies every op's canonicalization patterns and folders plus the util
dialect's "common" patterns; here that is `canonicalize`'s driver
(`memplan.passes.canonicalize.GreedyDriver`) with IREE's common patterns
(`memplan.passes.patterns.util.APPLY_PATTERNS`: a one-case `scf.index_switch` is an
`scf.if`, adjacent switches on one value merge) and one cleanup more, IREE's
`FoldBlockArgumentsPattern`: two arguments of a block that receive equal values from
every predecessor become one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from memplan.passes.base import MemplanPass
from memplan.passes.canonicalize import GreedyDriver
from memplan.passes.patterns.common import (
    erase_unreachable_blocks,
    fold_block_arguments,
    unique_constants,
)
from memplan.passes.patterns.util import APPLY_PATTERNS

__all__ = ["ApplyPatterns"]


@dataclass(frozen=True)
class ApplyPatterns(MemplanPass):
    """Canonicalize, and also merge block arguments that always receive equal
    values (IREE's iree-util-apply-patterns)."""

    name = "apply-patterns"

    max_iterations: int = field(default=10, metadata={"help": (
        "sweeps of the patterns at most, as canonicalize's")})

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        return self._driver(ctx).run(module)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Nobody reads the report: no fingerprints.
        self._driver(ctx).simplify(op)

    def _driver(self, ctx: Context) -> GreedyDriver:
        return GreedyDriver(
            ctx,
            extra_patterns=APPLY_PATTERNS,
            cleanups=(
                erase_unreachable_blocks,
                partial(fold_block_arguments, duplicates=True),
                unique_constants,
            ),
            max_iterations=self.max_iterations,
        )
