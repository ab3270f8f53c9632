"""simplify-global-accesses keeps what a program observes and the globals it leaves.

Random functions and initializers load and store three globals across blocks and
calls (a call changes the globals behind the pass's back); an interpreter runs each
before and after the pass under the same branch decisions and compares what the
program observed (stores to a buffer, which are no barrier) and the final globals.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects import builtin
from xdsl.ir import Block, Operation, SSAValue

from memplan.analysis.equivalence import op_name
from memplan.context import make_context
from memplan.passes.simplify_global_accesses import simplify_global_accesses
from memplan.tools.source import parse_module
from random_cfg import draw_block_exit, take_branch

CTX = make_context()

HEADER = """
util.global private mutable @g0 = 0 : i32
util.global private mutable @g1 = 1 : i32
util.global private @k = 9 : i32
util.func private @opaque()
"""


@st.composite
def programs(draw) -> tuple[str, bool]:
    in_initializer = draw(st.booleans())
    n_blocks = draw(st.integers(1, 4))
    lines = [HEADER]
    if in_initializer:
        lines += [
            "util.initializer {",
            "  %a = arith.constant 3 : i32",
            "  %b = arith.constant 5 : i32",
            "  %obs = memref.alloc() : memref<1xi32>",
            "  %cond = arith.constant true",
        ]
    else:
        lines.append(
            "util.func public @f(%a: i32, %b: i32, %cond: i1, %obs: memref<1xi32>) {"
        )
    lines.append("  %c0 = arith.constant 0 : index")
    globals_ = ["@g0", "@g0", "@g1", "@k"]
    counter = 0
    for block in range(n_blocks):
        if block:
            lines.append(f"^bb{block}:")
        values = ["%a", "%b"]
        for _ in range(draw(st.integers(0, 8))):
            kind = draw(st.sampled_from(["load", "load", "store", "store", "call", "use"]))
            name = draw(st.sampled_from(globals_))
            if kind == "load":
                lines.append(f"  %v{counter} = util.global.load {name} : i32")
                values.append(f"%v{counter}")
                counter += 1
            elif kind == "store" and (name != "@k" or in_initializer):
                value = draw(st.sampled_from(values))
                lines.append(f"  util.global.store {value}, {name} : i32")
            elif kind == "call":
                lines.append("  util.call @opaque() : () -> ()")
            elif kind == "use":
                value = draw(st.sampled_from(values))
                lines.append(f"  memref.store {value}, %obs[%c0] : memref<1xi32>")
        for value in values[2:]:
            lines.append(f"  memref.store {value}, %obs[%c0] : memref<1xi32>")
        lines.append(draw_block_exit(draw, block, n_blocks, "util.return"))
    lines.append("}")
    return "\n".join(lines), in_initializer


def interpret(module: builtin.ModuleOp, steps: int = 40) -> tuple[list[int], dict[str, int]]:
    """Observed values and final globals; `util.call @opaque` adds 100 to @g0 and
    1000 to @g1 (what a pass cannot see)."""
    globals_ = {"g0": 0, "g1": 1, "k": 9}
    body = next(
        op for op in module.body.block.ops if op.regions and op.regions[0].blocks
    )
    entry = body.regions[0].blocks.first
    assert entry is not None
    env: dict[SSAValue, object] = dict(zip(entry.args, (3, 5, True, "obs")))
    trace: list[int] = []
    visits: dict[Operation, int] = {}
    block: Block | None = entry
    for _ in range(steps):
        if block is None:
            break
        next_block = None
        for op in block.ops:
            name = op_name(op)
            if name == "arith.constant":
                value = op.properties["value"]
                env[op.results[0]] = getattr(value, "value", value).data
            elif name == "memref.alloc":
                env[op.results[0]] = "obs"
            elif name == "util.global.load":
                env[op.results[0]] = globals_[op.properties["global"].root_reference.data]
            elif name == "util.global.store":
                globals_[op.properties["global"].root_reference.data] = env[op.operands[0]]
            elif name == "util.call":
                globals_["g0"] += 100
                globals_["g1"] += 1000
            elif name == "memref.store":
                trace.append(env[op.operands[0]])
            elif name == "cf.br":
                next_block = op.successors[0]
            elif name == "cf.cond_br":
                next_block = take_branch(op, visits)
        block = next_block
    return trace, globals_


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_observations_and_final_globals_are_kept(program: tuple[str, bool]):
    text, _ = program
    module = parse_module(CTX, text, "test.mlir")
    module.verify()
    expected = interpret(module)
    changed = simplify_global_accesses(module)
    module.verify()
    assert interpret(module) == expected, (text, str(module))
    assert simplify_global_accesses(module) is False or changed


def test_initializer_orders_loads_of_immutable_globals_with_stores():
    """In an initializer the immutable @k is being initialized: its load after the
    store must see the stored value, not be hoisted above it."""
    text = HEADER + """
util.initializer {
  %c0 = arith.constant 0 : index
  %obs = memref.alloc() : memref<1xi32>
  %v = arith.constant 42 : i32
  util.global.store %v, @k : i32
  %l = util.global.load @k : i32
  memref.store %l, %obs[%c0] : memref<1xi32>
  util.return
}
"""
    module = parse_module(CTX, text, "test.mlir")
    assert simplify_global_accesses(module) is True
    assert interpret(module) == ([42], {"g0": 0, "g1": 1, "k": 42})
    assert not any(op_name(op) == "util.global.load" for op in module.walk())


class _CountingList(list):
    """A segment that counts the linear searches made on it."""

    searches = 0

    def index(self, *args):
        _CountingList.searches += 1
        return super().index(*args)

    def __contains__(self, item):
        _CountingList.searches += 1
        return super().__contains__(item)


def test_large_segment_is_ordered_without_searching_it(monkeypatch):
    """One segment of 3000 loads and stores: the moves keep program order among
    loads and among stores, and no access is looked up by a search of the segment
    (a search per access made the pass quadratic in the segment's accesses)."""
    from memplan.passes import simplify_global_accesses as module_under_test

    n = 3000
    lines = [f"util.global private mutable @g{i} = {i} : i32" for i in range(n)]
    lines += ["util.func private @use(i32)", "util.func public @f() {"]
    for i in range(n):
        lines.append(f"  %c{i} = arith.constant {i} : i32")
        lines.append(f"  %v{i} = util.global.load @g{(i * 7) % n} : i32")
    for i in range(n):
        lines.append(f"  util.global.store %c{i}, @g{(i * 11) % n} : i32")
        lines.append(f"  %d{i} = arith.constant {i} : i32")
    lines += ["  util.return", "}"]
    module = parse_module(CTX, "\n".join(lines), "test.mlir")

    original = module_under_test._Callable._segments

    def counting_segments(self, block):
        return [(b, _CountingList(s), a) for b, s, a in original(self, block)]

    monkeypatch.setattr(module_under_test._Callable, "_segments", counting_segments)
    _CountingList.searches = 0
    assert simplify_global_accesses(module) is True
    assert _CountingList.searches == 0
    module.verify()

    func = next(op for op in module.walk() if op_name(op) == "util.func" and op.regions
                and op.regions[0].blocks)
    body = list(func.regions[0].block.ops)
    names = [op_name(op) for op in body]
    assert names[:n] == ["util.global.load"] * n
    assert names[-n - 1:-1] == ["util.global.store"] * n
    loads = [op.attributes.get("global") or op.properties.get("global") for op in body[:n]]
    stores = [op.attributes.get("global") or op.properties.get("global")
              for op in body[-n - 1:-1]]
    assert [str(s) for s in loads] == [f"@g{(i * 7) % n}" for i in range(n)]
    assert [str(s) for s in stores] == [f"@g{(i * 11) % n}" for i in range(n)]
