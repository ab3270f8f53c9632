"""Analyses shared by the passes of a pipeline: kept while true, rebuilt after a
change a pass does not keep them through."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import memplan.analysis.calls as calls
from memplan.analysis.cache import AnalysisCache, module_analysis, shared_analyses
from memplan.analysis.calls import CallGraph
from memplan.context import make_context
from memplan.interfaces import HOST_SCRATCH, POOL
from memplan.passes.materialize_host_scalars import MaterializeHostScalars
from memplan.passes.pipelines import HipMemoryPlan, NamedPipeline
from memplan.tools.source import parse_module

MODULE = """
func.func @host_fed(%ctx: !hip.context, %x: i64, %o: memref<1xf32>) {
  %a = memref.alloc() : memref<1xi64>
  %c0 = arith.constant 0 : index
  memref.store %x, %a[%c0] : memref<1xi64>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%o : memref<1xf32>) {to = 1 : i64}
  %t = memref.alloc() : memref<64xf32>
  hip.cast(%ctx) ins(%o : memref<1xf32>) outs(%t : memref<64xf32>) {to = 1 : i64}
  memref.dealloc %a : memref<1xi64>
  return
}
func.func @caller(%ctx: !hip.context) {
  %c64 = arith.constant 64 : index
  %s = hip.get_host_scratch(%ctx, %c64) : memref<?xi8>
  func.call @callee(%ctx) : (!hip.context) -> ()
  return
}
func.func @callee(%ctx: !hip.context) {
  return
}
"""


def _module():
    return parse_module(make_context(), MODULE, "t.mlir")


def _answers(graph: CallGraph, module) -> list[object]:
    """What the memory passes ask the graph, for every function."""
    found = []
    for f in module.ops:
        found += [
            graph.caller(f), graph.callees(f), graph.unknown_context_call(f),
            graph.context_memory_in(f, HOST_SCRATCH), graph.context_memory_in(f, POOL),
            graph.reserved(f, (HOST_SCRATCH, None)),
        ]
    return found


def test_materialize_host_scalars_keeps_the_shared_call_graph_true():
    module = _module()
    with shared_analyses(module) as cache:
        graph = module_analysis(module, CallGraph)
        assert MaterializeHostScalars().run(make_context(), module)
        cache.changed(MaterializeHostScalars.preserved_analyses)
        assert module_analysis(module, CallGraph) is graph
    host_fed = next(iter(module.ops))
    # The scratch op the pass added is recorded, as a fresh graph records it.
    assert graph.context_memory_in(host_fed, HOST_SCRATCH) is not None
    assert _answers(graph, module) == _answers(CallGraph(module), module)


def test_a_change_drops_the_analyses_the_pass_does_not_preserve():
    cache = AnalysisCache(_module())
    graph = cache.get(CallGraph)
    assert cache.get(CallGraph) is graph
    cache.changed((CallGraph,))
    assert cache.get(CallGraph) is graph
    cache.changed(())
    assert cache.get(CallGraph) is not graph


def test_outside_a_run_on_the_module_each_request_builds_anew():
    module, other = _module(), _module()
    assert module_analysis(module, CallGraph) is not module_analysis(module, CallGraph)
    with shared_analyses(other):
        assert module_analysis(module, CallGraph) is not module_analysis(module, CallGraph)
        assert module_analysis(other, CallGraph) is module_analysis(other, CallGraph)


@dataclass(frozen=True)
class _WithCleanup(NamedPipeline):
    """The memory passes around a pass that takes no shared analyses."""

    name = "test-memory-with-cleanup"

    def expand(self) -> str:
        return "materialize-host-scalars,canonicalize,pool-allocs"


@pytest.mark.parametrize("pipeline, builds", [(HipMemoryPlan(), 1), (_WithCleanup(), 2)])
def test_pipelines_share_the_graph_only_among_passes_that_take_it(monkeypatch, pipeline, builds):
    built = []
    original = calls.CallGraph.__init__

    def counting(self, module):
        built.append(module)
        original(self, module)

    monkeypatch.setattr(calls.CallGraph, "__init__", counting)
    module = _module()
    assert pipeline.run(make_context(), module)
    assert len(built) == builds
