"""The one list of memplan's passes.

`memplan-opt --help`, its `--NAME` flags, the xDSL universe entry and the pass list
in the docs are all derived from `PASSES`, as IREE's tools derive theirs from
`Passes.td`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property

from xdsl.passes import ModulePass


@dataclass(frozen=True)
class PassInfo:
    name: str
    """The name in memplan-opt (`--NAME`, `-p NAME`)."""
    target: str
    """`module:ClassName` of the pass class, imported on first use."""
    summary: str
    """One line for `--help` and the docs."""
    aliases: tuple[str, ...] = ()
    """Peer names (hip-ep, IREE) accepted in memplan-opt so their RUN lines work."""
    universe_name: str | None = None
    """The name in the xDSL universe when `name` would clash with one of xDSL's."""
    is_pipeline: bool = field(default=False)
    """A named pipeline of other passes rather than a transformation of its own."""

    def load(self) -> type[ModulePass]:
        module_name, class_name = self.target.split(":")
        return getattr(importlib.import_module(module_name), class_name)

    @property
    def loader(self) -> Callable[[], type[ModulePass]]:
        return self.load


PASSES: tuple[PassInfo, ...] = (
    PassInfo(
        "optimize-memrefs",
        "memplan.passes.optimize_memrefs:OptimizeMemrefs",
        "reuse dead buffers' slots, only where host/device ordering makes it safe",
        aliases=("hip-optimize-memrefs",),
    ),
    PassInfo(
        "materialize-host-scalars",
        "memplan.passes.materialize_host_scalars:MaterializeHostScalars",
        "move small host-fed integer buffers into one host-mapped scratch buffer",
        aliases=("hip-materialize-host-scalars",),
    ),
    PassInfo(
        "pool-allocs",
        "memplan.passes.pool_allocs:PoolAllocs",
        "place buffers at planned offsets in one pool per domain; host-fed buffers "
        "never overlap pending device work; returned buffers stay out",
    ),
    PassInfo(
        "hip-pool-allocs",
        "memplan.passes.pool_allocs:HipPoolAllocs",
        "pool-allocs with hip-ep's contract: returned buffers pooled, hip-ep's "
        "lifetimes and best fit on top of the ordering rules",
    ),
    PassInfo(
        "cse",
        "memplan.passes.cse:CSE",
        "merge equal ops by dominance when purity and memory effects allow; drop dead ops",
        universe_name="memplan-cse",
    ),
    PassInfo(
        "simplify-global-accesses",
        "memplan.passes.simplify_global_accesses:SimplifyGlobalAccesses",
        "forward, reuse and drop global loads/stores within blocks; hoist immutable loads",
        aliases=("iree-util-simplify-global-accesses",),
    ),
    PassInfo(
        "canonicalize",
        "memplan.passes.canonicalize:Canonicalize",
        "folders and canonicalization patterns, dead code, constants, block arguments",
        universe_name="memplan-canonicalize",
    ),
    PassInfo(
        "apply-patterns",
        "memplan.passes.apply_patterns:ApplyPatterns",
        "canonicalize plus IREE's util patterns (duplicate block arguments merged)",
        aliases=("iree-util-apply-patterns",),
    ),
    PassInfo(
        "fixed-point-iterator",
        "memplan.passes.fixed_point_iterator:FixedPointIterator",
        "rerun a nested pipeline until an iteration changes nothing (by fingerprint)",
        aliases=("iree-util-fixed-point-iterator",),
    ),
    PassInfo(
        "fold-globals",
        "memplan.passes.fold_globals:FoldGlobals",
        "fold constant stores, chained and immutable globals; erase unused and "
        "duplicate constant globals",
        aliases=("iree-util-fold-globals",),
    ),
    PassInfo(
        "fuse-globals",
        "memplan.passes.fuse_globals:FuseGlobals",
        "fuse private globals always stored the same value into one",
        aliases=("iree-util-fuse-globals",),
    ),
    PassInfo(
        "stream-cleanup",
        "memplan.passes.pipelines:StreamCleanup",
        "canonicalize, cse, simplify-global-accesses, apply-patterns, fold-globals, "
        "fuse-globals under the fixed-point iterator",
        is_pipeline=True,
    ),
    PassInfo(
        "hip-memory-plan",
        "memplan.passes.pipelines:HipMemoryPlan",
        "materialize-host-scalars, then pool-allocs (slot reuse left out: it costs "
        "pool bytes)",
        is_pipeline=True,
    ),
    PassInfo(
        "layout-slices",
        "memplan.passes.layout_slices:LayoutSlices",
        "lower stream.resource.pack into offsets and a total: static packs at most "
        "IREE's greedy (at the lower bound where a strategy gets there), dynamic "
        "packs by a layout valid for every value of the sizes",
        aliases=("iree-stream-layout-slices",),
    ),
    PassInfo(
        "verify-memory-plan",
        "memplan.passes.verify_memory_plan:VerifyMemoryPlan",
        "fail when two accesses to shared bytes of different buffers may race "
        "(an independent check of a memory plan)",
    ),
)


def passes_by_name() -> dict[str, PassInfo]:
    """Every name memplan-opt accepts (names and aliases) to its pass."""
    table: dict[str, PassInfo] = {}
    for info in PASSES:
        for name in (info.name, *info.aliases):
            table[name] = info
    return table


@dataclass(frozen=True)
class PassOption:
    """One option of a pass, as `--help`, `--list-passes` and the docs show it."""

    spelled: str
    """MLIR's spelling (`max-iterations`)."""
    field_name: str
    type_text: str
    """The value MLIR's help names: `<int>`, `<true|false>`, `<string>`, the enum
    values `<normal|disabled>`; never a Python type name."""
    default: object
    owner: type = field(repr=False, compare=False)
    """The pass class, whose source `description` reads."""
    help: str = ""
    """The field's `metadata={"help": ...}`, when it has one."""

    @cached_property
    def description(self) -> str:
        """The help text; from the field's docstring unless `help` gives it. Read
        only by help and docs: a run needs names and types, and finding a docstring
        parses the class's source (0.1-0.2 s per pipeline)."""
        return self.help or _attribute_docstrings(self.owner).get(self.field_name, "")

    def describe(self) -> str:
        text = f"{self.type_text}"
        if self.description:
            text += f" {self.description}"
        if self.default not in (None, "", ()):
            default = self.default
            if isinstance(default, bool):
                default = "true" if default else "false"
            elif isinstance(default, tuple):
                default = ",".join(str(d) for d in default)
            text += f" (default: {default})"
        return text


def _type_text(hint: object) -> str:
    import types
    import typing

    args = [a for a in typing.get_args(hint) if a is not type(None)]
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType) and len(args) == 1:
        return _type_text(args[0])
    if origin is typing.Literal:
        return "<" + "|".join(str(a) for a in typing.get_args(hint)) + ">"
    if origin is tuple:
        return _type_text(args[0] if args else str).replace(">", ",...>")
    return {bool: "<true|false>", int: "<int>", float: "<number>", str: "<string>"}.get(
        hint, "<value>"  # type: ignore[arg-type]
    )


@cache
def _attribute_docstrings(cls: type) -> dict[str, str]:
    """`field: T = x` followed by a string literal, in `cls` and its bases (the
    nearest class wins): the description a field's docstring gives. Once per class:
    each of its options asks."""
    import ast
    import inspect
    import textwrap

    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__ in ("builtins",) or klass.__module__.startswith("xdsl."):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, following in zip(body, body[1:]):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                found[node.target.id] = " ".join(following.value.value.split())
    return found


def pass_options(cls: type[ModulePass]) -> list[PassOption]:
    """The options of pass class `cls`, from its dataclass fields. A field's
    description is `metadata={"help": ...}` on the field or the docstring written
    under it (read when asked), so the class is the one source of what an option
    means."""
    import dataclasses
    import typing

    if not dataclasses.is_dataclass(cls):
        return []
    hints = typing.get_type_hints(cls)
    options: list[PassOption] = []
    for f in dataclasses.fields(cls):
        if f.name.startswith("_") or f.name == "name" or not f.init:
            continue
        default: object = f.default
        if default is dataclasses.MISSING and f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        if default is dataclasses.MISSING:
            default = None
        options.append(
            PassOption(
                f.name.replace("_", "-"),
                f.name,
                _type_text(hints.get(f.name, str)),
                default,
                cls,
                str(f.metadata.get("help", "") or ""),
            )
        )
    return options
