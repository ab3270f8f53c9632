"""What a lower layer needs from `memplan.dialects` at run time, without importing it.

`memplan.interfaces` answers for xDSL's own ops with the models that
`memplan.dialects.mlir.upstream_models` attaches, and the printer prints an op a
pass built from xDSL's class with memplan's subclass that speaks MLIR's syntax; both
are defined in `memplan.dialects`, which imports the layers below it. The package
root (`memplan/__init__.py`, which Python runs before any module of the package)
fills these slots, so imports still run one way (docs/design/README.md) and no answer
depends on which module was imported first.
"""

from __future__ import annotations

from collections.abc import Callable


def _not_provided(*_: object) -> dict[str, type]:
    raise RuntimeError("memplan/__init__.py provides this before any module runs")


attach_upstream_models: Callable[[], object] = _not_provided
"""Import `memplan.dialects.mlir.upstream_models`, which attaches memplan's
interfaces to xDSL's ops; `memplan.interfaces` calls it before its first answer."""

mlir_syntax_classes: Callable[[str], dict[str, type]] = _not_provided
"""memplan's op classes of a dialect that print MLIR's custom syntax where xDSL's
print the generic form, by op name (`memplan.dialects.mlir_syntax_classes`)."""
