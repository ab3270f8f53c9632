"""CSE's dominance walk and effect reasoning, checked against an interpreter.

Random functions with several blocks, loops and unreachable blocks are built from a
few pure ops, loads, stores and observations; CSE must keep the observed values
(differential check under the same branch decisions), keep every use dominated by
its definition, and leave no pure op dominated by an equal one.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects import builtin
from xdsl.ir import Block, Operation, SSAValue

from memplan.analysis.dominance import DominatorTree
from memplan.analysis.equivalence import OpKey, op_name
from memplan.analysis.purity import ANY_BUFFER, EVERYTHING, EffectClass, classify, resource_of
from memplan.context import make_context
from memplan.interfaces import memory_effects
from memplan.passes.cse import cse
from memplan.tools.source import parse_module
from random_cfg import draw_block_exit, take_branch

CTX = make_context(allow_unregistered=True)


def parse(text: str) -> builtin.ModuleOp:
    module = parse_module(CTX, text, "test.mlir")
    module.verify()
    return module


def func_body(module: builtin.ModuleOp):
    func = next(op for op in module.body.block.ops if op.regions)
    return func.regions[0]


# Dominator tree ---------------------------------------------------------------------

DIAMOND_LOOP = """
func.func @f(%c: i1) {
  cf.br ^bb1
^bb1:
  cf.cond_br %c, ^bb2, ^bb3
^bb2:
  cf.br ^bb4
^bb3:
  cf.br ^bb4
^bb4:
  cf.cond_br %c, ^bb1, ^bb5
^bb5:
  return
^bb6:
  cf.br ^bb4
}
"""


def test_dominator_tree_of_a_loop_around_a_diamond():
    region = func_body(parse(DIAMOND_LOOP))
    b = list(region.blocks)
    tree = DominatorTree(region)
    assert [tree.idom[x] for x in b[:6]] == [None, b[0], b[1], b[1], b[1], b[4]]
    assert tree.unreachable == [b[6]]
    assert tree.dominates(b[1], b[5]) and tree.dominates(b[4], b[4])
    assert not tree.dominates(b[2], b[4]) and not tree.dominates(b[3], b[4])
    assert not tree.dominates(b[0], b[6]) and not tree.properly_dominates(b[1], b[1])


# Resources -------------------------------------------------------------------------

def test_effects_name_globals_fresh_buffers_or_wildcards():
    module = parse("""
util.global private mutable @g : i32
func.func @f(%arg: memref<4xf32>, %i: index, %v: f32) {
  %a = memref.alloc() : memref<4xf32>
  %view = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  memref.store %v, %view[%i] : memref<2xf32, strided<[1]>>
  memref.store %v, %arg[%i] : memref<4xf32>
  %l = util.global.load @g : i32
  "test.write"() : () -> ()
  return
}
""")
    ops = {op_name(op): op for op in module.walk()}
    (store_view,) = memory_effects([o for o in module.walk() if o.name == "memref.store"][0])
    (store_arg,) = memory_effects([o for o in module.walk() if o.name == "memref.store"][1])
    alloc = ops["memref.alloc"]
    assert resource_of(store_view) is alloc.results[0]
    assert resource_of(store_arg) is ANY_BUFFER
    load = ops["util.global.load"]
    (read,) = memory_effects(load)
    assert resource_of(read) == builtin.SymbolRefAttr("g")
    assert classify(load).kind is EffectClass.READ_ONLY
    assert classify(alloc).kind is EffectClass.ALLOCATES
    assert classify(ops["test.write"]).kind is EffectClass.UNKNOWN
    assert EVERYTHING is not ANY_BUFFER


def test_nonaddressable_resources_overlap_only_along_their_path():
    from memplan.interfaces import NonAddressableResource
    from memplan.passes.cse import _bumped_by, _checked_by

    counter = NonAddressableResource(("counter",))
    low, high = (NonAddressableResource(("counter", part)) for part in ("low", "high"))
    assert counter.overlaps(low) and low.overlaps(counter)
    assert not low.overlaps(high)
    # A write invalidates a read exactly when their resources overlap, and memory
    # (any buffer, unknown addressable memory) never meets them.
    for written in (counter, low, high, ANY_BUFFER):
        for read in (counter, low, high, EVERYTHING):
            meets = set(_bumped_by(written)) & set(_checked_by(read))
            if isinstance(written, NonAddressableResource) and isinstance(
                read, NonAddressableResource
            ):
                assert bool(meets) == written.overlaps(read), (written, read)
            elif written is ANY_BUFFER and read is EVERYTHING:
                assert meets
            else:
                assert not meets, (written, read)
    # Unknown effects may touch them too.
    assert set(_bumped_by(EVERYTHING)) & set(_checked_by(low))


def test_test_dialect_effects_name_their_resources():
    from memplan.dialects.mlir.mlir_test import TEST_NONADDRESSABLE

    ctx = make_context(allow_unregistered=True)
    module = parse_module(ctx, """
func.func @f() {
  %0 = "test.side_effect_op"() {effects = [{effect = "read", test_nonaddressable_resource_a}]} : () -> i32
  %1 = "test.side_effect_op"() {effects = [{effect = "write", test_resource}]} : () -> i32
  %2 = "test.side_effect_op"() {effects = [{effect = "allocate", on_result}]} : () -> memref<4xf32>
  return
}
""", "test.mlir")
    read, write, alloc = (o for o in module.walk() if o.name == "test.side_effect_op")
    (effect,) = memory_effects(read)
    assert resource_of(effect).path == (*TEST_NONADDRESSABLE.path, "a")
    assert classify(read).kind is EffectClass.READ_ONLY
    (effect,) = memory_effects(write)
    assert resource_of(effect) is EVERYTHING
    assert classify(alloc).kind is EffectClass.ALLOCATES


# Random programs ---------------------------------------------------------------------

ARGS = ("%a", "%b", "%c")


@st.composite
def programs(draw) -> str:
    """A function over args %a %b %c (index) and two fresh one-cell buffers %m, %n:
    random blocks of pure ops, loads, stores, observations (stores to a third
    buffer, %obs) and two-iteration loops, random branches."""
    n_blocks = draw(st.integers(1, 4))
    lines = [
        "func.func @f(%a: index, %b: index, %c: index, %cond: i1) {",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %c2 = arith.constant 2 : index",
        "  %m = memref.alloc() : memref<1xindex>",
        "  %n = memref.alloc() : memref<1xindex>",
        "  %obs = memref.alloc() : memref<1xindex>",
        "  memref.store %a, %m[%c0] : memref<1xindex>",
        "  memref.store %b, %n[%c0] : memref<1xindex>",
    ]
    counter = 0

    def observe(value: str) -> str:
        # A store to a buffer of its own: it records the value without blocking
        # the merging of reads of %m and %n (an unknown op would block them all).
        return f"  memref.store {value}, %obs[%c0] : memref<1xindex>"

    for block in range(n_blocks):
        if block:
            lines.append(f"^bb{block}:")
        values = list(ARGS)
        for _ in range(draw(st.integers(0, 6))):
            kind = draw(
                st.sampled_from(["add", "load", "load", "store", "store", "use", "loop"])
            )
            buffer = draw(st.sampled_from(["%m", "%m", "%n"]))
            if kind == "loop":
                # Two iterations of a nested region that reads and writes.
                lines.append(f"  scf.for %i{counter} = %c0 to %c2 step %c1 {{")
                counter += 1
                inner = list(values)
                for _ in range(draw(st.integers(1, 3))):
                    buffer = draw(st.sampled_from(["%m", "%m", "%n"]))
                    if draw(st.booleans()):
                        lines.append(
                            f"  %v{counter} = memref.load {buffer}[%c0] : memref<1xindex>"
                        )
                        lines.append(observe(f"%v{counter}"))
                        inner.append(f"%v{counter}")
                        counter += 1
                    else:
                        value = draw(st.sampled_from(inner))
                        lines.append(f"  memref.store {value}, {buffer}[%c0] : memref<1xindex>")
                lines.append("  }")
            elif kind == "add":
                lhs, rhs = draw(st.sampled_from(ARGS)), draw(st.sampled_from(ARGS))
                lines.append(f"  %v{counter} = arith.addi {lhs}, {rhs} : index")
                values.append(f"%v{counter}")
                counter += 1
            elif kind == "load":
                lines.append(f"  %v{counter} = memref.load {buffer}[%c0] : memref<1xindex>")
                values.append(f"%v{counter}")
                counter += 1
            elif kind == "store":
                value = draw(st.sampled_from(values))
                lines.append(f"  memref.store {value}, {buffer}[%c0] : memref<1xindex>")
            else:
                lines.append(observe(draw(st.sampled_from(values))))
        # Observe every value defined here so nothing is dead.
        lines.extend(observe(value) for value in values[len(ARGS):])
        lines.append(draw_block_exit(draw, block, n_blocks, "return"))
    lines.append("}")
    return "\n".join(lines)


def interpret(module: builtin.ModuleOp, steps: int = 60) -> list[int]:
    """Run @f with %a=3 %b=5 %c=7; branch decisions depend only on the branch's seed
    and how often it was taken, so CSE (which keeps the CFG) cannot change them."""
    region = func_body(module)
    entry = region.blocks.first
    assert entry is not None
    env: dict[SSAValue, object] = dict(zip(entry.args, (3, 5, 7, True)))
    memory: dict[int, int] = {}
    trace: list[int] = []
    observed = 2  # the cell of %obs, the third allocation
    visits: dict[Operation, int] = {}

    def run(block: Block) -> Block | None:
        """Execute `block`'s ops; the block to continue with (None: stop)."""
        for op in block.ops:
            name = op_name(op)
            if name == "arith.constant":
                env[op.results[0]] = op.properties["value"].value.data
            elif name == "memref.alloc":
                env[op.results[0]] = len(memory)
                memory[len(memory)] = 0
            elif name == "memref.store":
                memory[env[op.operands[1]]] = env[op.operands[0]]
                if env[op.operands[1]] == observed:
                    trace.append(env[op.operands[0]])
            elif name == "memref.load":
                env[op.results[0]] = memory[env[op.operands[0]]]
            elif name == "arith.addi":
                env[op.results[0]] = env[op.operands[0]] + env[op.operands[1]]
            elif name == "scf.for":
                body = op.regions[0].blocks.first
                assert body is not None
                for index in range(env[op.operands[0]], env[op.operands[1]], env[op.operands[2]]):
                    env[body.args[0]] = index
                    run(body)
            elif name == "cf.br":
                return op.successors[0]
            elif name == "cf.cond_br":
                return take_branch(op, visits)
        return None

    block: Block | None = entry
    for _ in range(steps):
        if block is None:
            break
        block = run(block)
    return trace


def _top_level(op: Operation, region) -> Operation:
    while op.parent_block() is not None and op.parent_block().parent is not region:
        op = op.parent_block().parent_op()
    return op


def _dominates(tree: DominatorTree, region, definer: Operation, user: Operation) -> bool:
    """Whether `definer`'s results are visible at `user` (unreachable users count as
    fine: dominance does not constrain them)."""
    def_block = definer.parent_block()
    assert def_block is not None
    ancestor = def_block.find_ancestor_op_in_block(user)
    user_block = _top_level(user, region).parent_block()
    if not tree.is_reachable(user_block):
        return True
    if ancestor is not None:
        return ancestor is not definer and definer.is_before_in_block(ancestor)
    if _top_level(definer, region) is not definer:
        return False  # defined in a nested region the user is not inside
    return tree.dominates(def_block, user_block)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_cse_keeps_observations_and_dominance(text: str):
    module = parse(text)
    expected = interpret(module)
    cse(module)
    module.verify()
    assert interpret(module) == expected, text
    region = func_body(module)
    tree = DominatorTree(region)
    ops = [op for op in module.walk() if region.is_ancestor(op)]
    for op in ops:
        for operand in op.operands:
            if isinstance(operand.owner, Operation):
                assert _dominates(tree, region, operand.owner, op), (text, str(module))
    # Completeness for pure ops: none is dominated by an equal one.
    reachable_pure = [
        op for op in ops
        if classify(op).kind is EffectClass.PURE and op.results
        and tree.is_reachable(_top_level(op, region).parent_block())
    ]
    seen: dict[OpKey, list[Operation]] = {}
    for op in reachable_pure:
        for other in seen.get(OpKey(op), []):
            assert not _dominates(tree, region, other, op), (text, str(module))
            assert not _dominates(tree, region, op, other), (text, str(module))
        seen.setdefault(OpKey(op), []).append(op)


def test_reports_no_change_when_run_again():
    module = parse(DIAMOND_LOOP.replace("^bb5:\n  return", "^bb5:\n  %x = arith.addi %c, %c : i1\n  %y = arith.addi %c, %c : i1\n  \"test.use\"(%x, %y) : (i1, i1) -> ()\n  return"))
    assert cse(module) is True
    assert cse(module) is False


# Copies of a value ------------------------------------------------------------------

COPIES = """
util.global private @g : !stream.resource<constant>
util.global private @h : !stream.resource<*>
util.func private @callee(!stream.resource<*>) -> ()
util.func public @f(%src: !stream.resource<*>, %s: index, %p: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %read = stream.async.clone %src : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %d = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%read[%c0 to %s for %s]) : (!stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %tied = stream.async.clone %src : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %t = stream.async.dispatch @ex::@entry[%c1, %c1, %c1](%tied[%c0 to %s for %s]) : (!stream.resource<*>{%s}) -> %tied{%s}
  %const = stream.async.clone %src : !stream.resource<*>{%s} -> !stream.resource<constant>{%s}
  util.global.store %const, @g : !stream.resource<constant>
  %stored = stream.async.clone %src : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  util.global.store %stored, @h : !stream.resource<*>
  %called = stream.async.clone %src : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  util.call @callee(%called) : (!stream.resource<*>) -> ()
  %selected = stream.async.clone %src : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %sel = arith.select %p, %selected, %src : !stream.resource<*>
  %encoded = stream.async.clone %src : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %e = stream.tensor.encode %encoded : tensor<4xf32> in !stream.resource<*>{%s} -> tensor<4xf32> in !stream.resource<*>{%s}
  %returned = stream.async.clone %src : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  util.return %returned : !stream.resource<*>
}
"""


def test_fresh_values_shareable_only_when_no_use_may_update_or_hide_it():
    from memplan.interfaces import fresh_values

    body = func_body_named(parse(COPIES), "f")
    verdicts = {}
    for op in body.block.ops:
        copy = fresh_values(op)
        if copy is not None and op.name == "stream.async.clone":
            verdicts[op.results[0].name_hint] = copy.shareable(op)
    assert verdicts == {
        "read": True,        # read by an untied dispatch operand
        "tied": False,       # a dispatch result tied to it: updated in place
        "const": True,       # a constant stored in a global: never updated in place
        "stored": False,     # a `*` resource stored: its loads may be tied
        "called": False,     # a callee memplan does not see
        "selected": False,   # select may hand its buffer on under another name
        "encoded": True,     # a Stream op: its result is a new value
        "returned": False,   # the caller may update it in place
    }
    assert all(fresh_values(op) is None for op in body.block.ops if not op.name.startswith("stream."))


def func_body_named(module: builtin.ModuleOp, name: str):
    return next(
        op for op in module.body.block.ops
        if op.regions and getattr(op, "sym_name", None) is not None and op.sym_name.data == name
    ).regions[0]
