"""The base of memplan's passes: an xDSL module pass that says whether it changed IR."""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class MemplanPass(ModulePass):
    """A module pass whose `run` returns exactly whether it changed the IR.

    Pipelines and tests read the report; the fixed-point iterator does not trust it
    and compares fingerprints instead, but a unit test holds every pass to it.
    """

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.run(ctx, op)

    @abstractmethod
    def run(self, ctx: Context, module: ModuleOp) -> bool:
        """Rewrite `module`; return True iff the IR changed."""
