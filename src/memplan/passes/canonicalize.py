"""`canonicalize`: folders, canonicalization patterns, dead code, constants, blocks.

One greedy driver, as MLIR's canonicalizer, applies to every op until nothing
changes:

- erase the op when it is unused and erasing it is unobservable (it only reads or
  allocates its own results; `memplan.analysis.purity`);
- fold it with its `HasFolder` trait (xDSL's ops; constants are materialized by the
  op's dialect);
- apply its canonicalization patterns, found through the
  `HasCanonicalizationPatternsTrait` interface: the op's own trait (xDSL's ops, and
  memplan's stream and util ops, which declare theirs) and any model attached to it.

Between sweeps, region-level cleanups run (`memplan.passes.patterns.common`): blocks no
path reaches are erased, block arguments that are unused or receive one value from
every predecessor are dropped, equal constants are merged and hoisted to the entry
block of their isolated region. The driver repeats sweep and cleanups up to
`max-iterations` times (10, MLIR's default); a pattern set that never settles stops
there, as MLIR's does, with the IR valid.

`run` reports change exactly: it compares fingerprints of the module before and
after, because third-party patterns may report rewrites that restore the same IR.
`apply` (what memplan-opt and the fixed-point iterator call; nobody reads a report
there) takes no fingerprints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.folder import Folder
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait, HasFolder

from memplan.analysis.fingerprint import fingerprint
from memplan.analysis.purity import is_trivially_dead, memoized_effects
from memplan.interfaces import class_has_trait, get_interface
from memplan.diagnostics import UserError
from memplan.passes.base import MemplanPass, record_statistic
from memplan.passes.patterns.common import (
    erase_unreachable_blocks,
    fold_block_arguments,
    unique_constants,
)

__all__ = ["Canonicalize", "GreedyDriver", "canonicalization_patterns"]

_PATTERN_CACHE: dict[type[Operation], tuple[RewritePattern, ...]] = {}


def canonicalization_patterns(op: Operation) -> tuple[RewritePattern, ...]:
    """The op's canonicalization patterns: its attached model's and its own."""
    cached = _PATTERN_CACHE.get(type(op))
    if cached is not None:
        return cached
    traits: list[HasCanonicalizationPatternsTrait] = []
    external = get_interface(op, HasCanonicalizationPatternsTrait)
    if external is not None:
        traits.append(external)
    traits.extend(t for t in op.get_traits_of_type(HasCanonicalizationPatternsTrait)
                  if t is not external)
    patterns = tuple(p for t in traits for p in t.get_patterns(type(op)))
    _PATTERN_CACHE[type(op)] = patterns
    return patterns


@dataclass(eq=False)
class _OpRewriter(RewritePattern):
    """Dead-op erasure, folding and the op's patterns, in that order, within a
    budget of rewrites (so a cycle of patterns ends the sweep instead of the run)."""

    ctx: Context
    extra: Sequence[RewritePattern]
    budget: int
    rewrites: int = 0
    enabled: frozenset[str] = frozenset()
    """Pattern class names to use alone (MLIR's `enable-patterns`); empty: all."""
    disabled: frozenset[str] = frozenset()
    """Pattern class names never to use (MLIR's `disable-patterns`)."""

    def _wanted(self, pattern: RewritePattern) -> bool:
        name = type(pattern).__name__
        return name not in self.disabled and (not self.enabled or name in self.enabled)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if self.rewrites >= self.budget or op.parent is None:
            return
        if is_trivially_dead(op):
            rewriter.erase(op)
            self.rewrites += 1
            return
        if self._fold(op, rewriter):
            self.rewrites += 1
            return
        for pattern in (*canonicalization_patterns(op), *self.extra):
            if (self.enabled or self.disabled) and not self._wanted(pattern):
                continue
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                self.rewrites += 1
                return

    def _fold(self, op: Operation, rewriter: PatternRewriter) -> bool:
        if not class_has_trait(op, HasFolder, value_if_unregistered=False) or class_has_trait(
            op, ConstantLike, value_if_unregistered=True
        ):
            return False
        folded = Folder(self.ctx).try_fold(op)
        if folded is None:
            return False
        values, new_ops = folded
        if any(v in op.results for v in values):
            return False
        rewriter.replace(op, new_ops, values)
        return True


RegionCleanup = Callable[[Operation], bool]


@dataclass
class GreedyDriver:
    """Sweeps of op rewrites alternating with region-level cleanups."""

    ctx: Context
    extra_patterns: Sequence[RewritePattern] = ()
    cleanups: Sequence[RegionCleanup] = field(default_factory=lambda: (
        erase_unreachable_blocks,
        fold_block_arguments,
        unique_constants,
    ))
    max_iterations: int = 10
    max_rewrites: int = -1
    """Rewrites allowed in the whole run (MLIR's `max-num-rewrites`); -1: no limit."""
    enabled_patterns: frozenset[str] = frozenset()
    disabled_patterns: frozenset[str] = frozenset()
    converged: bool = False
    """Whether the last `run` ended because a sweep changed nothing."""
    rewrites: int = 0
    """Op rewrites (erasures, folds, patterns) the last `run` applied."""

    def run(self, module: ModuleOp) -> bool:
        """Simplify `module`; return exactly whether it changed (two fingerprints)."""
        before = fingerprint(module)
        self.simplify(module)
        return fingerprint(module) != before

    @memoized_effects()
    def simplify(self, module: ModuleOp) -> bool:
        """Simplify `module`; return whether any rewrite or cleanup was applied (one
        may have restored the IR it found: `run` tells exactly)."""
        self.converged = False
        applied = False
        done = 0
        iterations = max(self.max_iterations, 1)
        for iteration in range(1, iterations + 1):
            budget = 10 * sum(1 for _ in module.walk()) + 100
            if self.max_rewrites >= 0:
                budget = min(budget, self.max_rewrites - done)
            rewriter = _OpRewriter(
                self.ctx, self.extra_patterns, budget,
                enabled=self.enabled_patterns, disabled=self.disabled_patterns,
            )
            # Bottom-up, as MLIR's driver: users are simplified before what they use
            # is folded away (a size query still sees the op that states the size).
            walker = PatternRewriteWalker(rewriter, walk_reverse=True)
            changed = walker.rewrite_module(module)
            done += rewriter.rewrites
            self.rewrites = done
            cleaned = False
            for cleanup in self.cleanups:
                cleaned |= cleanup(module)
            applied |= changed or cleaned
            if not (changed or cleaned):
                self.converged = True
                break
            if not cleaned and rewriter.rewrites < budget:
                # The walker's last sweep applied nothing within its budget and the
                # cleanups left that IR as it was: the next iteration would sweep
                # the same IR and change nothing, so it is not run.
                self.converged = iteration < iterations
                break
        return applied


@dataclass(frozen=True)
class Canonicalize(MemplanPass):
    """Apply folders and canonicalization patterns of every op, remove dead code,
    merge constants and simplify block arguments, until nothing changes."""

    # memplan-opt calls it `canonicalize`; the class carries its xDSL-universe name.
    name = "memplan-canonicalize"

    top_down: bool = field(default=True, metadata={"help": (
        "accepted as MLIR's; memplan's driver always sweeps bottom-up, which reaches "
        "the same fixed point")})
    region_simplify: Literal["disabled", "normal", "aggressive"] = field(
        default="normal", metadata={"help": (
            "block-level cleanups (unreachable blocks, block arguments): "
            "disabled turns them off")})
    max_iterations: int = field(default=10, metadata={"help": (
        "sweeps of the patterns at most")})
    max_num_rewrites: int = field(default=-1, metadata={"help": (
        "rewrites at most in the whole run (-1: no limit)")})
    test_convergence: bool = field(default=False, metadata={"help": (
        "fail when the patterns have not converged within max-iterations")})
    enable_patterns: tuple[str, ...] = field(default=(), metadata={"help": (
        "use only the patterns of these class names")})
    disable_patterns: tuple[str, ...] = field(default=(), metadata={"help": (
        "never use the patterns of these class names")})

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        return self._canonicalize(ctx, module, exact=True)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Nobody reads the report: no fingerprints.
        self._canonicalize(ctx, op, exact=False)

    def _canonicalize(self, ctx: Context, module: ModuleOp, *, exact: bool) -> bool:
        driver = GreedyDriver(
            ctx,
            max_iterations=self.max_iterations,
            max_rewrites=self.max_num_rewrites,
            enabled_patterns=frozenset(self.enable_patterns),
            disabled_patterns=frozenset(self.disable_patterns),
        )
        if self.region_simplify == "disabled":
            driver.cleanups = (unique_constants,)
        changed = driver.run(module) if exact else driver.simplify(module)
        record_statistic("num-rewrites", driver.rewrites, "Number of rewrites applied")
        if self.test_convergence and not driver.converged:
            raise UserError(
                f"canonicalize: the patterns did not converge within "
                f"max-iterations={self.max_iterations} (test-convergence)",
                op=module,
            )
        return changed
