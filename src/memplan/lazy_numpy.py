"""numpy, imported the first time one of its names is used.

`import numpy` costs about 0.1 s and 12-16 MiB of resident memory, a quarter of
memplan-opt's start; most runs never plan offsets (cleanup pipelines, modules
without buffers), and the ones that do need numpy only once they plan. The modules
of the planning path therefore write ``from memplan.lazy_numpy import np`` instead
of ``import numpy as np``: each name is looked up in numpy once and then kept here,
so later uses cost what an attribute of numpy itself costs. Annotations naming
``np.ndarray`` stay unevaluated (``from __future__ import annotations``), and
module-level constants must not touch numpy.
"""

from __future__ import annotations

import importlib
import types


class _OnDemand(types.ModuleType):
    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):  # probes (copy, inspect, doctest) import nothing
            raise AttributeError(name)
        value = getattr(importlib.import_module("numpy"), name)
        setattr(self, name, value)
        return value


np = _OnDemand("numpy", "numpy, imported on first use (see memplan.lazy_numpy)")


def load_numpy() -> None:
    """Import numpy now: where a caller knows it will plan, the moment can matter to
    the peak (the caller says why)."""
    importlib.import_module("numpy")
