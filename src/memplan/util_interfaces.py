"""The interfaces the globals passes ask ops through (IREE's `UtilInterfaces.td`:
`GlobalOpInterface`, `GlobalLoadOpInterface`, `GlobalStoreOpInterface`,
`InitializerOpInterface`).

IREE's `util` ops declare them in their traits (`memplan.dialects.iree.util`); an op of
another dialect takes part in `fold-globals`, `fuse-globals` and
`simplify-global-accesses` once it declares them too (or gets them as a model with
`memplan.interfaces.attach_trait`).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, OpTrait

__all__ = [
    "AlignsUp",
    "CanonicalizedBy",
    "SizeAware",
    "Subranges",
    "GlobalAccessInterface",
    "GlobalInterface",
    "GlobalLoadInterface",
    "GlobalStorageType",
    "GlobalStoreInterface",
    "InitializerInterface",
]


class GlobalInterface(OpTrait, ABC):
    """The op declares a module-level variable."""

    @abstractmethod
    def symbol(self, op: Operation) -> str: ...

    @abstractmethod
    def type(self, op: Operation) -> Attribute: ...

    @abstractmethod
    def initial_value(self, op: Operation) -> Attribute | None: ...

    @abstractmethod
    def set_initial_value(self, op: Operation, value: Attribute) -> None: ...

    @abstractmethod
    def is_mutable(self, op: Operation) -> bool: ...

    @abstractmethod
    def set_mutable(self, op: Operation, mutable: bool) -> None: ...

    @abstractmethod
    def is_private(self, op: Operation) -> bool: ...

    def may_inline(self, op: Operation) -> bool:
        """Whether loads may be replaced by the initial value (an inlining policy
        may forbid it)."""
        return True

    def dialect_attributes(self, op: Operation) -> tuple[tuple[str, Attribute], ...]:
        """The discardable `dialect.name` attributes, sorted: part of what makes two
        constant globals the same (an affinity, for instance)."""
        return tuple(sorted((k, v) for k, v in op.attributes.items() if "." in k))


class GlobalAccessInterface(OpTrait, ABC):
    """The op names one global, which it loads or stores."""

    @abstractmethod
    def symbol(self, op: Operation) -> str: ...

    @abstractmethod
    def reference(self, op: Operation) -> Attribute:
        """The attribute naming the global (not a use by something else)."""

    @abstractmethod
    def set_symbol(self, op: Operation, name: str) -> None: ...


class GlobalLoadInterface(GlobalAccessInterface):
    """The op reads a global into its only result."""

    @abstractmethod
    def is_immutable(self, op: Operation) -> bool: ...

    @abstractmethod
    def set_immutable(self, op: Operation, immutable: bool) -> None: ...


class GlobalStoreInterface(GlobalAccessInterface):
    """The op writes a value to a global."""

    @abstractmethod
    def value(self, op: Operation) -> SSAValue: ...


class GlobalStorageType:
    """IREE's `GlobalTypeInterface::isAccessStorageCompatible`: a type a global
    holds while values of other types initialize, load and store it. Types declare
    it by subclassing (as `memplan.interfaces.RuntimeContext`), so `util` asks the
    type instead of importing the dialect that defines it (IREE's layering: util
    does not know stream)."""

    def accepts_access(self, value_type: Attribute) -> bool:
        """Whether a value of `value_type` may initialize, be stored to or be loaded
        from a global of this type (one of this type itself always may)."""
        return False


class AlignsUp(OpTrait):
    """IREE's `util.align` as index arithmetic reads it: the result is the `value`
    operand rounded up to a multiple of the `alignment` operand, a power of two.
    Analyses of index expressions (`memplan.analysis.index_polynomials`) ask this
    trait, not the op's class."""

    def value(self, op: Operation) -> SSAValue:
        return op.operands[0]

    def alignment(self, op: Operation) -> SSAValue:
        return op.operands[1]


class InitializerInterface(OpTrait):
    """The op's region runs once when the module is loaded, before any function."""


@dataclass(frozen=True)
class CanonicalizedBy(HasCanonicalizationPatternsTrait):
    """An op's canonicalization patterns (MLIR's `hasCanonicalizer`), declared on
    the op and defined in `module`'s `PATTERNS` table under the op's name. The
    module is imported on first use: dialects do not import passes, and every
    driver that asks the op (memplan's canonicalize, apply-patterns, xDSL's
    canonicalize) gets the same patterns."""

    module: str

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        table = importlib.import_module(self.module).PATTERNS
        return tuple(table.get(op.name, ()))

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()


STREAM_PATTERNS = CanonicalizedBy("memplan.passes.patterns.stream")
UTIL_PATTERNS = CanonicalizedBy("memplan.passes.patterns.util")


@dataclass(frozen=True)
class SizeAware(OpTrait):
    """IREE's `SizeAwareOpInterface`: the byte size of each resource operand and
    result, as an SSA index value (None for values that are not resources).

    Ops with resources at fixed positions declare, per position, the field that
    holds its size (`SizeAware.fields(operands={0: "source_size"})`); ops whose
    resources are variadic answer through `operand_size_of` / `result_size_of`."""

    operands: tuple[tuple[int, str], ...] = ()
    results: tuple[tuple[int, str], ...] = ()

    @staticmethod
    def fields(
        operands: Mapping[int, str] | None = None,
        results: Mapping[int, str] | None = None,
    ) -> SizeAware:
        return SizeAware(
            tuple(sorted((operands or {}).items())),
            tuple(sorted((results or {}).items())),
        )

    @staticmethod
    def _lookup(
        op: Operation, fields: tuple[tuple[int, str], ...], method: str, index: int
    ) -> SSAValue | None:
        for position, field in fields:
            if position == index:
                return getattr(op, field)
        answer: Callable[[int], SSAValue | None] | None = getattr(op, method, None)
        return answer(index) if answer is not None else None

    def result_size(self, op: Operation, index: int) -> SSAValue | None:
        return self._lookup(op, self.results, "result_size_of", index)

    def operand_size(self, op: Operation, index: int) -> SSAValue | None:
        return self._lookup(op, self.operands, "operand_size_of", index)


@dataclass(frozen=True)
class Subranges(OpTrait):
    """IREE's `SubrangeOperandOpInterface`: the byte ranges of buffers the op
    accesses, each as the fields (buffer, buffer size, offset, length), so a
    subspan feeding one can be folded into the range."""

    ranges: tuple[tuple[str, str, str, str], ...]

    def range_of(self, op: Operation, operand: SSAValue) -> tuple[str, str, str, str] | None:
        """The fields of the range whose buffer is `operand`, or None."""
        for fields in self.ranges:
            if getattr(op, fields[0]) is operand:
                return fields
        return None
