"""Symbol references between functions, and what their callees use of context memory."""

from __future__ import annotations

from memplan.analysis.calls import CallGraph, shared_context_memory
from memplan.context import make_context
from memplan.interfaces import HOST_SCRATCH, POOL
from memplan.tools.source import parse_module

MODULE = """
func.func private @outside(!hip.context)
func.func @leaf(%ctx: !hip.context) {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %s = hip.get_host_scratch(%ctx, %c96) : memref<?xi8>
  %v = memref.view %s[%c0][] : memref<?xi8> to memref<2xi64>
  %w = memref.reinterpret_cast %v to offset: [2], sizes: [4], strides: [1] : memref<2xi64> to memref<4xi64, strided<[1], offset: 2>>
  "test.use"(%w) : (memref<4xi64, strided<[1], offset: 2>>) -> ()
  return
}
func.func @middle(%ctx: !hip.context) {
  func.call @leaf(%ctx) : (!hip.context) -> ()
  return
}
func.func @top(%ctx: !hip.context) {
  func.call @middle(%ctx) : (!hip.context) -> ()
  return
}
func.func @stranger(%ctx: !hip.context) {
  func.call @outside(%ctx) : (!hip.context) -> ()
  return
}
"""


def _functions():
    module = parse_module(make_context(allow_unregistered=True), MODULE, "t.mlir")
    return CallGraph(module), {op.sym_name.data: op for op in module.ops}


def test_callees_are_transitive_and_callers_are_found():
    graph, f = _functions()
    assert graph.callees(f["top"]) == [f["middle"], f["leaf"]]
    assert graph.caller(f["leaf"]).name == "func.call"
    assert graph.caller(f["top"]) is None


def test_reserved_bytes_follow_view_chains_in_callees():
    graph, f = _functions()
    # The reinterpret_cast of the view reaches elements 2..5: bytes 16..48.
    assert graph.reserved(f["top"], (HOST_SCRATCH, None)) == (48, 96)
    assert graph.reserved(f["leaf"], (HOST_SCRATCH, None)) == (0, 0)


def test_why_functions_stay_out_of_context_memory():
    graph, f = _functions()
    assert "referenced by 'func.call'" in shared_context_memory(graph, f["leaf"])
    assert "hands the runtime context" in shared_context_memory(graph, f["stranger"])
    assert shared_context_memory(graph, f["top"]) is None
    assert shared_context_memory(graph, f["top"], HOST_SCRATCH) is not None
    assert shared_context_memory(graph, f["top"], POOL) is None


def _fan_out(n: int) -> str:
    callees = "\n".join(f"func.func @c{i}(%ctx: !hip.context) {{\n  return\n}}" for i in range(n))
    calls = "\n".join(f"  func.call @c{i}(%ctx) : (!hip.context) -> ()" for i in range(n))
    return f"{callees}\nfunc.func @top(%ctx: !hip.context) {{\n{calls}\n  return\n}}\n"


def _symbol_scans(monkeypatch, build, n: int) -> int:
    """How many times `build(module)` scans a symbol table's ops for a module whose
    @top calls `n` functions: xDSL's lookup scans once per call, the index once."""
    import memplan.symbols
    from xdsl.traits import SymbolTable

    module = parse_module(make_context(allow_unregistered=True), _fan_out(n), "t.mlir")
    scans = [0]
    lookup, index = SymbolTable.lookup_symbol, memplan.symbols.symbol_index

    def counted_lookup(op, name):
        scans[0] += 1
        return lookup(op, name)

    def counted_index(table):
        scans[0] += 1
        return index(table)

    monkeypatch.setattr(SymbolTable, "lookup_symbol", staticmethod(counted_lookup))
    monkeypatch.setattr(memplan.symbols, "symbol_index", counted_index)
    build(module)
    monkeypatch.undo()
    return scans[0]


def test_symbols_are_looked_up_from_one_index(monkeypatch):
    from memplan.checker import check_module

    for build in (CallGraph, check_module):
        assert _symbol_scans(monkeypatch, build, 3) == _symbol_scans(monkeypatch, build, 40) == 1
    graph, f = _functions()
    assert graph.callees(f["top"]) == [f["middle"], f["leaf"]]


def test_context_memory_queries_do_not_walk_the_callees(monkeypatch):
    from xdsl.ir import Operation

    graph, f = _functions()
    walks = []
    walk = Operation.walk
    monkeypatch.setattr(Operation, "walk", lambda op, *a, **k: walks.append(op) or walk(op, *a, **k))
    assert graph.reserved(f["top"], (HOST_SCRATCH, None)) == (48, 96)
    assert "takes 'hip.get_host_scratch'" in shared_context_memory(graph, f["top"], HOST_SCRATCH)
    assert walks == []


def test_a_context_is_what_its_type_declares():
    """The call graph asks a type whether it is a runtime context: a type of another
    dialect that declares `RuntimeContext` is one, a plain value is not."""
    from xdsl.ir import Dialect, ParametrizedAttribute, TypeAttribute
    from xdsl.irdl import irdl_attr_definition

    from memplan.interfaces import RuntimeContext

    @irdl_attr_definition
    class Handle(ParametrizedAttribute, TypeAttribute, RuntimeContext):
        name = "probe.handle"

    ctx = make_context(allow_unregistered=True)
    ctx.load_dialect(Dialect("probe", [], [Handle]))
    text = """
    func.func private @outside(T)
    func.func @stranger(%h: T) {
      func.call @outside(%h) : (T) -> ()
      return
    }"""
    for handle, hands_off in (("!probe.handle", True), ("i64", False)):
        module = parse_module(ctx, text.replace("T", handle), "t.mlir")
        stranger = module.body.block.last_op
        why = shared_context_memory(CallGraph(module), stranger)
        assert (why is not None and "hands the runtime context" in why) == hands_off
