"""memplan's entry in the `xdsl.universe`: stock `xdsl-opt` reads memplan's dialects
and runs its passes once memplan is installed.

Names xDSL already uses are never registered again (a clash breaks every xDSL tool in
the environment); passes whose memplan name clashes use their `universe_name`.
"""

from __future__ import annotations

from xdsl.universe import Universe

from memplan.dialects import MEMPLAN_DIALECTS
from memplan.dialects.mlir import upstream_models
from memplan.dialects.mlir.memref import declare_canonicalization_patterns
from memplan.passes.registry import PASSES


def _universe_passes() -> dict:
    def load_with_models(info):
        def load():
            import memplan.dialects.mlir.upstream_models  # noqa: F401

            return info.load()

        return load

    return {
        info.universe_name or info.name: load_with_models(info) for info in PASSES
    }


def _memplan_universe() -> Universe:
    # Stock xdsl-opt parses memref with xDSL's own dialect and canonicalizes with
    # xDSL's own pass; loading this entry is the one moment memplan runs there, so
    # the memref ops get memplan's canonicalization patterns now.
    declare_canonicalization_patterns()
    upstream_models.declare_canonicalization_patterns()
    return Universe(
        all_dialects=dict(MEMPLAN_DIALECTS),
        all_passes=_universe_passes(),
    )


MEMPLAN_UNIVERSE = _memplan_universe()
