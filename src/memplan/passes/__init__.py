"""memplan's passes, one module per pass; `registry` lists them all.

Every registered pass class is importable from here by its class name
(`from memplan.passes import PoolAllocs, OptimizeMemrefs`), imported on first use
so that `import memplan.passes` stays cheap. They are xDSL `ModulePass`es: run them
in any `xdsl.passes.PassPipeline`.
"""

from __future__ import annotations

from memplan.passes.registry import PASSES, PassInfo


def _classes() -> dict[str, PassInfo]:
    """Class name -> registry entry of every registered pass."""
    return {info.target.split(":")[1]: info for info in PASSES}


__all__ = sorted({*_classes(), "MemplanPass"})


def __getattr__(name: str) -> type:
    if name == "MemplanPass":
        from memplan.passes.base import MemplanPass

        return MemplanPass
    info = _classes().get(name)
    if info is None:
        raise AttributeError(f"module 'memplan.passes' has no attribute '{name}'")
    return info.load()


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
