"""The interfaces the globals passes ask ops through (IREE's `UtilInterfaces.td`:
`GlobalOpInterface`, `GlobalLoadOpInterface`, `GlobalStoreOpInterface`,
`InitializerOpInterface`).

IREE's `util` ops declare them in their traits (`memplan.dialects.util`); an op of
another dialect takes part in `fold-globals`, `fuse-globals` and
`simplify-global-accesses` once it declares them too (or gets them as a model with
`memplan.interfaces.attach_trait`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import OpTrait

__all__ = [
    "GlobalAccessInterface",
    "GlobalInterface",
    "GlobalLoadInterface",
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


class InitializerInterface(OpTrait):
    """The op's region runs once when the module is loaded, before any function."""
