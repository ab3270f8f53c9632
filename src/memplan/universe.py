"""memplan's entry in the `xdsl.universe`: stock `xdsl-opt` reads memplan's dialects
and runs its passes once memplan is installed.

Names xDSL already uses are never registered again (a clash breaks every xDSL tool in
the environment); passes whose memplan name clashes use their `universe_name`.
"""

from __future__ import annotations

from xdsl.universe import Universe

# Declares memplan's memref canonicalization patterns on xDSL's memref ops, so that
# xDSL's own `canonicalize` applies them too.
import memplan.dialects.memref  # noqa: F401
from memplan.dialects import MEMPLAN_DIALECTS
from memplan.passes.registry import PASSES


def _universe_passes() -> dict:
    def load_with_models(info):
        def load():
            import memplan.dialects.upstream_models  # noqa: F401

            return info.load()

        return load

    return {
        info.universe_name or info.name: load_with_models(info) for info in PASSES
    }


MEMPLAN_UNIVERSE = Universe(
    all_dialects=dict(MEMPLAN_DIALECTS),
    all_passes=_universe_passes(),
)
