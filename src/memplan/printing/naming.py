"""MLIR's SSA value names and dictionary order, for memplan's printer.

xDSL's `Printer` numbers values in print order and suffixes clashing names per
name (`%x`, `%x_1`); MLIR's `AsmPrinter` (and so `iree-opt`, whose dumps memplan
promises to print back unchanged) does otherwise:

- a region's values are numbered after all values of the enclosing region, and
  sibling regions restart from the same counters;
- entry-block arguments without a name are `%argN`;
- a multi-result op without names prints `%N:k` and its results `%N#i`;
- a name already used in scope gets `_K`, with one conflict counter per region
  (`%x`, `%x_0`, `%y_1`): the seed IR's `%..__size_0` and `%..qs_1`;
- attribute and property dictionaries are sorted by name;
- the generic form uses no result names (only `%argN` and numbers), numbered
  uniquely across regions, last region first.

Name hints kept from the source text or set by ops win over numbers; an op with
the `AsmResultNames` trait (or an external model of it) names results that have no
hint (`%cst`, a global load's `%<global>`, `arith.constant`'s `%c4`), as MLIR's
`getAsmResultNames` does.

`MlirNamingMixin` adds this to a `Printer`; `memplan.printing.MlirPrinter`
combines it with the other printing conventions.
"""

from __future__ import annotations

import re
from functools import lru_cache
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.printer import Printer
from xdsl.traits import OpTrait

from memplan.interfaces import attach_trait, attach_trait_when_imported, get_interface
from memplan.signatures import Signatures

__all__ = [
    "AsmResultNames",
    "FixedResultNames",
    "MlirNamingMixin",
    "sanitize_ssa_name",
]


class AsmResultNames(OpTrait, ABC):
    """Default names for an op's results (MLIR's `getAsmResultNames`): used by
    `MlirPrinter` for results that carry no name hint."""

    by_signature: ClassVar[bool] = False
    """The names depend on nothing but the op's signature (`memplan.signatures`):
    found once per signature."""

    @abstractmethod
    def result_names(self, op: Operation) -> Sequence[str | None]: ...


@dataclass(frozen=True)
class FixedResultNames(AsmResultNames):
    """Names given once per op class, such as `cst` for constants."""

    names: tuple[str | None, ...] = ()

    def result_names(self, op: Operation) -> Sequence[str | None]:
        return self.names


@lru_cache(maxsize=4096)
def sanitize_ssa_name(name: str) -> str:
    """The SSA name MLIR's printer makes of `name` (its `sanitizeIdentifier`).

    Characters other than letters, digits and `$._-` become their hex code (upper
    case, no leading zero: `:` is `3A`), spaces become `_`, and a leading digit or
    invalid character gets a `_` prefix.
    """
    if not name:
        return name

    def valid(ch: str) -> bool:
        return (ch.isascii() and ch.isalnum()) or ch in "$._-"

    def copy() -> str:
        out: list[str] = []
        for ch in name:
            if valid(ch):
                out.append(ch)
            elif ch == " ":
                out.append("_")
            else:
                out.extend(f"{byte:X}" for byte in ch.encode())
        return "".join(out)

    if name[0].isdigit() or (not valid(name[0]) and name[0] != " "):
        return "_" + copy()
    if all(valid(ch) for ch in name):
        return name
    return copy()


class _ArithConstantNames(AsmResultNames):
    """MLIR's names for `arith.constant`: `%c4`, `%c-1_i32`, `%true`, `%cst`."""

    by_signature = True  # its value and type

    def result_names(self, op: Operation) -> Sequence[str | None]:
        value = op.properties.get("value")
        type = op.results[0]._type  # pyright: ignore[reportPrivateUsage]
        if isinstance(value, IntegerAttr):
            if isinstance(type, IntegerType) and type.width.data == 1:
                return ("true" if value.value.data else "false",)
            if isinstance(type, IntegerType):
                return (f"c{value.value.data}_{type}",)
            return (f"c{value.value.data}",)
        return ("cst",)



def _upstream_names() -> dict[type[Operation], tuple[str | None, ...]]:
    """The names upstream MLIR's `getAsmResultNames` gives xDSL's memref ops
    (checked by hand against mlir-opt-22); attached to xDSL's classes, so memplan's
    subclasses with MLIR's custom syntax inherit them."""
    from xdsl.dialects import memref

    return {
        memref.AllocOp: ("alloc",),
        memref.AllocaOp: ("alloca",),
        memref.SubviewOp: ("subview",),
        memref.CastOp: ("cast",),
        memref.DimOp: ("dim",),
        memref.ReinterpretCastOp: ("reinterpret_cast",),
        memref.ExpandShapeOp: ("expand_shape",),
        memref.CollapseShapeOp: ("collapse_shape",),
        memref.ViewOp: ("view",),
        memref.MemorySpaceCastOp: ("memspacecast",),
        memref.ExtractAlignedPointerAsIndexOp: ("intptr",),
    }


_UNLOADED_DIALECT_NAMES = (
    ("xdsl.dialects.tensor", "DimOp", ("dim",)),
    ("xdsl.dialects.complex", "ConstantOp", ("cst",)),
)
"""`_upstream_names` of dialects most inputs never load: (module, class, names)."""


class _StridedMetadataNames(AsmResultNames):
    """`%base_buffer, %offset, %sizes:N, %strides:N` (N the rank), as MLIR."""

    def result_names(self, op: Operation) -> Sequence[str | None]:
        rank = (len(op.results) - 2) // 2
        return ("base_buffer", "offset", *["sizes"] * rank, *["strides"] * rank)


def attach_upstream_result_names() -> None:
    """Give xDSL's ops MLIR's result names. Called by
    `memplan.dialects.upstream_models`, which the first interface query loads: the
    dialects (0.1-0.2 s of imports) load only when something is printed or asked."""
    from xdsl.dialects import arith, memref

    # xDSL's arith.constant names nothing; MLIR-based peers name every constant.
    attach_trait(arith.ConstantOp, _ArithConstantNames())
    for op_type, names in _upstream_names().items():
        attach_trait(op_type, FixedResultNames(names))
    for module, class_name, names in _UNLOADED_DIALECT_NAMES:
        attach_trait_when_imported(module, class_name, FixedResultNames(names))
    attach_trait(memref.ExtractStridedMetaDataOp, _StridedMetadataNames())


_PER_OP = "\x00"
"""`_SsaNames._fixed_hints` of a class whose ops' names are asked op by op."""

_ARG_NAME = re.compile(r"arg[0-9]+")


@dataclass
class _Scope:
    """A region's set of used names, seeing its parents' (MLIR's ScopedHashTable)."""

    parent: _Scope | None
    names: set[str] = field(default_factory=set[str])

    def __contains__(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


@dataclass
class _Counters:
    value: int = 0
    argument: int = 0
    conflict: int = 0

    def copy(self) -> _Counters:
        return _Counters(self.value, self.argument, self.conflict)


class _SsaNames:
    """MLIR's SSANameState for one top-level op."""

    def __init__(
        self,
        top: Operation,
        *,
        generic: bool = False,
        keep_names: bool = False,
        signatures: Signatures | None = None,
    ):
        """In the generic form MLIR ignores result names and never restores the
        counters of a parent region (its "unique SSA IDs" mode). Source names
        (`name_hint`) are used only with `keep_names`, as mlir-opt drops them."""
        self.names: dict[SSAValue, str] = {}
        self.groups: dict[Operation, tuple[str, int]] = {}
        self.named_groups: dict[Operation, list[tuple[str, int]]] = {}
        self.use_names = not generic
        self.keep_names = keep_names and not generic
        # The sanitized name (None: a number) of the one result of each op of a
        # class whose names do not depend on the op (without source names).
        self._fixed_hints: dict[type[Operation], str | None] = {}
        # The same for a class whose names depend on the signature alone, by
        # signature number (with a table that keeps each op's).
        self._signatures = signatures if signatures is not None and signatures.memoizing else None
        self._signature_hints: dict[tuple[type[Operation], int], str | None] = {}
        root = _Scope(None)
        counters = _Counters()
        pending: list[tuple[Region, _Counters, _Scope]] = [
            (region, counters.copy(), root) for region in top.regions
        ]
        self._number_op(top, counters, root)
        shared = counters
        while pending:
            region, counters, parent = pending.pop()
            if generic:
                counters = shared
            scope = _Scope(parent)
            holders: list[Operation] = []  # its ops with regions
            for block in region.blocks:
                self._number_block(block, counters, scope, holders)
            for op in holders:
                for nested in op.regions:
                    pending.append((nested, counters.copy(), scope))
            shared = counters

    def _unique(self, name: str, counters: _Counters, scope: _Scope) -> str:
        outer: _Scope | None = scope
        while outer is not None and name not in outer.names:  # (`name in scope`)
            outer = outer.parent
        if outer is not None:
            base = name
            while True:
                name = f"{base}_{counters.conflict}"
                counters.conflict += 1
                if name not in scope:
                    break
        scope.names.add(name)
        return name

    def _number_block(self, block: Block, counters: _Counters, scope: _Scope, holders: list[Operation]) -> None:
        """Name `block`'s arguments and its ops' results; add its ops with regions
        to `holders`."""
        is_entry = block.parent is not None and block.parent.blocks.first is block
        for arg in block.args:
            # MLIR renames entry-block arguments `%argN` whatever the source said;
            # keep other names (`%x`) as xDSL does.
            hint = arg.name_hint if self.keep_names else None
            if is_entry and hint is not None and _ARG_NAME.fullmatch(hint):
                hint = None
            if hint and self.use_names:
                self.names[arg] = self._unique(hint, counters, scope)
            elif is_entry:
                self.names[arg] = self._unique(f"arg{counters.argument}", counters, scope)
                counters.argument += 1
            else:
                self.names[arg] = str(counters.value)
                counters.value += 1
        names, hints = self.names, self._fixed_hints
        by_class = self.use_names and not self.keep_names
        by_signature = self._signature_hints if by_class and self._signatures is not None else None
        number_of = None if self._signatures is None else self._signatures.number
        op = block._first_op  # pyright: ignore[reportPrivateUsage]
        while op is not None:
            results = op.results
            if len(results) == 1:
                (result,) = results
                hint = hints.get(type(op), _PER_OP) if by_class else _PER_OP
                if hint is _PER_OP and by_signature is not None:
                    hint = by_signature.get((type(op), number_of(op)), _PER_OP)
                if hint is _PER_OP:
                    self._number_result(op, result, counters, scope)
                elif hint:
                    names[result] = self._unique(hint, counters, scope)
                else:
                    names[result] = str(counters.value)
                    counters.value += 1
            elif results:
                self._number_op(op, counters, scope)
            if op.regions:
                holders.append(op)
            op = op._next_op  # pyright: ignore[reportPrivateUsage]

    def _number_op(self, op: Operation, counters: _Counters, scope: _Scope) -> None:
        results = op.results
        if not results:
            return
        if len(results) == 1:
            self._number_result(op, results[0], counters, scope)
            return
        hints: list[str | None] = [None] * len(results)
        if self.keep_names:
            hints = [r.name_hint for r in results]
        if self.use_names and not any(hints):
            trait = get_interface(op, AsmResultNames)
            if trait is not None:
                defaults = list(trait.result_names(op))
                hints = [
                    defaults[i] if i < len(defaults) else None
                    for i in range(len(results))
                ]
                if self._number_named_groups(op, hints, counters, scope):
                    return
        if not any(hints):
            number = str(counters.value)
            counters.value += 1
            if len(results) == 1:
                self.names[results[0]] = number
            else:
                self.groups[op] = (number, len(results))
                for i, result in enumerate(results):
                    self.names[result] = f"{number}#{i}"
            return
        for result, hint in zip(results, hints):
            if hint:
                self.names[result] = self._unique(
                    sanitize_ssa_name(hint), counters, scope
                )
            else:
                self.names[result] = str(counters.value)
                counters.value += 1


    def _number_result(self, op: Operation, result: SSAValue, counters: _Counters, scope: _Scope) -> None:
        """`_number_op` for the one result of most ops (no groups to form)."""
        hint = result.name_hint if self.keep_names else None
        if self.use_names and not hint:
            trait = get_interface(op, AsmResultNames)
            if type(trait) is FixedResultNames or trait is None:
                # The same for every op of the class.
                fixed = trait.names[0] if trait is not None and trait.names else None
                self._fixed_hints[type(op)] = sanitize_ssa_name(fixed) if fixed else None
            if trait is not None:
                defaults = trait.result_names(op)
                hint = defaults[0] if defaults else None
                if trait.by_signature and self._signatures is not None and not self.keep_names:
                    number = self._signatures.number(op)
                    if number >= 0:
                        self._signature_hints[type(op), number] = sanitize_ssa_name(hint) if hint else None
        if hint:
            self.names[result] = self._unique(sanitize_ssa_name(hint), counters, scope)
        else:
            self.names[result] = str(counters.value)
            counters.value += 1

    def _number_named_groups(
        self, op: Operation, hints: list[str | None], counters: _Counters, scope: _Scope
    ) -> bool:
        """Consecutive results an op's names give the same name form one group, as
        MLIR's `setNameFn` on a result range: `%sizes:2`, used as `%sizes#1`."""
        if all(a != b or a is None for a, b in zip(hints, hints[1:])):
            return False
        runs: list[tuple[str, int]] = []
        index = 0
        while index < len(hints):
            hint = hints[index]
            end = index + 1
            while hint is not None and end < len(hints) and hints[end] == hint:
                end += 1
            if hint is None:
                name = str(counters.value)
                counters.value += 1
            else:
                name = self._unique(sanitize_ssa_name(hint), counters, scope)
            count = end - index
            for i, result in enumerate(op.results[index:end]):
                self.names[result] = f"{name}#{i}" if count > 1 else name
            runs.append((name, count))
            index = end
        self.named_groups[op] = runs
        return True


def _predecessor_comment(printer: Printer, block: Block) -> str:
    predecessors: list[Block] = []
    for predecessor in block.predecessors():
        if predecessor not in predecessors:
            predecessors.append(predecessor)
    if not predecessors:
        return "  // no predecessors"
    region = block.parent
    order = {b: i for i, b in enumerate(region.blocks)} if region is not None else {}
    predecessors.sort(key=lambda b: order.get(b, len(order)))
    names = []
    for predecessor in predecessors:
        if predecessor not in printer._blocks:  # pyright: ignore[reportPrivateUsage]
            printer._populate_block_name(predecessor)  # pyright: ignore[reportPrivateUsage]
        names.append("^" + printer._blocks[predecessor])  # pyright: ignore[reportPrivateUsage]
    if len(names) == 1:
        return f"  // pred: {names[0]}"
    return f"  // {len(names)} preds: {', '.join(names)}"


class MlirNamingMixin(Printer):
    """Printer mixin: MLIR's SSA names and sorted dictionaries (see module doc).

    Names are assigned for the whole op tree when the outermost `print_op` starts,
    and forgotten when it returns.
    """

    _ssa: _SsaNames | None = None
    _depth: int = 0
    keep_names: bool = False
    """Print the source's value names (`name_hint`) where they exist."""
    names_from: Operation | None = None
    """Number values as in this enclosing op, so one op printed alone uses the
    names it has in the whole (MLIR's `see current operation: %0 = ...(%arg0)`)."""

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_ssa_value(self, value: SSAValue) -> str:
        if self._ssa is not None and (name := self._ssa.names.get(value)) is not None:
            self.print_string(f"%{name}")
            return name
        return super().print_ssa_value(value)

    def _value_names(self) -> dict[SSAValue, str] | None:
        return None if self._ssa is None else self._ssa.names

    def value_text(self, value: SSAValue) -> str:
        if self._ssa is not None and (name := self._ssa.names.get(value)) is not None:
            return f"%{name}"
        return super().value_text(value)

    def results_text(self, op: Operation) -> str:
        results = op.results
        if len(results) == 1 and self._ssa is not None:
            name = self._ssa.names.get(results[0])
            if name is not None:
                return f"%{name} = "
        return "" if not results else super().results_text(op)

    def _print_results(self, op: Operation) -> None:
        results = op.results
        if not results:
            return
        ssa = self._ssa
        if ssa is not None:
            if len(results) == 1 and (name := ssa.names.get(results[0])) is not None:
                self.print_string(f"%{name} = ")
                return
            if (group := ssa.groups.get(op)) is not None:
                self.print_string(f"%{group[0]}:{group[1]} = ")
                return
            if (runs := ssa.named_groups.get(op)) is not None:
                spelled = (f"%{name}:{count}" if count > 1 else f"%{name}" for name, count in runs)
                self.print_string(", ".join(spelled) + " = ")
                return
        super()._print_results(op)

    def _populate_block_name(self, block: Block, block_index: int | None = None) -> None:
        """MLIR labels blocks `^bbN` by position; source labels only with
        `keep_names`."""
        if self.keep_names or block.name_hint is None:
            super()._populate_block_name(block, block_index)
            return
        hint = block.name_hint
        block.name_hint = None
        try:
            super()._populate_block_name(block, block_index)
        finally:
            block.name_hint = hint

    def print_block(
        self,
        block: Block,
        print_block_args: bool = True,
        print_block_terminator: bool = True,
    ) -> None:
        """xDSL's block printing plus MLIR's predecessor comment on the label of
        a block other than the entry (`^bb1:  // pred: ^bb0`, `// 2 preds: ...`,
        `// no predecessors`)."""
        if not print_block_args:
            super().print_block(block, print_block_args, print_block_terminator)
            return
        self._print_new_line()
        if block not in self._blocks:
            self._populate_block_name(block)
        self.print_block_name(block)
        if block.args:
            with self.in_parens():
                self.print_list(block.args, self.print_block_argument)
        self.print_string(":")
        region = block.parent
        if region is not None and region.blocks.first is not block:
            self.print_string(_predecessor_comment(self, block))
        super().print_block(block, False, print_block_terminator)

    def print_op(self, op: Operation) -> None:
        if self._depth == 0:
            self._ssa = _SsaNames(
                self.names_from or op,
                generic=self.print_generic_format,
                keep_names=self.keep_names,
                signatures=getattr(self, "signatures", None),
            )
        self._depth += 1
        try:
            super().print_op(op)
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._ssa = None
