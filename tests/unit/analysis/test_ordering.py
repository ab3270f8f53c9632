"""The host/device ordering analysis (DESIGN.md section 2).

Most programs use test-local ops that only declare memplan's interfaces, with plain
`i32` values as streams: the analysis must follow from the interfaces alone. A few
use the hip dialect to check the seed's race as written in hip-ep's IR.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import MemoryWriteEffect, NoMemoryEffect

from memplan.analysis.ordering import (
    NEVER,
    AccessKind,
    BlockOrdering,
    Timing,
    plannable_roots,
)
from memplan.context import make_context
from memplan.interfaces import (
    NoAddressCapture,
    OperandEffects,
    StreamExecution,
    StreamSynchronization,
    ViewLike,
    operands_named,
)
from memplan.tools.source import parse_module


def _op(name: str, operands: tuple[str, ...], traits: tuple, result: bool = False):
    body = {"name": f"otest.{name}", "traits": traits_def(*traits)}
    for operand in operands:
        body[operand] = operand_def()
    if result:
        body["result"] = result_def()
    return irdl_op_definition(type(name.title().replace("_", "") + "Op", (IRDLOperation,), body))


TEST_OPS = [
    _op("device_read", ("stream", "buf"),
        (StreamExecution(0), OperandEffects(reads=operands_named("buf")))),
    _op("device_write", ("stream", "buf"),
        (StreamExecution(0), OperandEffects(writes=operands_named("buf")))),
    _op("host_write", ("buf",), (OperandEffects(writes=operands_named("buf")),)),
    _op("wait", ("stream",), (StreamSynchronization(0), OperandEffects())),
    _op("wait_all", (), (StreamSynchronization(None), OperandEffects())),
    # waits for the stream, then reads the buffer on the host
    _op("readback", ("stream", "buf"),
        (StreamSynchronization(0), OperandEffects(reads=operands_named("buf")))),
    _op("alias", ("buf",), (ViewLike(0), NoMemoryEffect()), result=True),
    _op("opaque", ("buf",), ()),
    _op("untied", ("buf",), (MemoryWriteEffect(),)),
    _op("leak", ("buf",), (NoMemoryEffect(),), result=True),
    # reads the shape only, and says so
    _op("shape_of", ("buf",), (NoAddressCapture(), NoMemoryEffect()), result=True),
    # the same op without the declaration: it may keep the address
    _op("address_of", ("buf",), (NoMemoryEffect(),), result=True),
    # writes `box` (tied), and takes `buf` as a value (no effect tied to it)
    _op("stash", ("buf", "box"), (OperandEffects(writes=operands_named("box")),)),
]


def analyse(text: str, function: int = 0):
    ctx = make_context(allow_unregistered=True)
    ctx.load_dialect(Dialect("otest", TEST_OPS))
    module = parse_module(ctx, text, "test.mlir")
    func = list(module.ops)[function]
    block = func.body.blocks[0]
    ordering = BlockOrdering(block)
    roots = {r.name_hint: r for r in plannable_roots(block)}
    return ordering, roots


def timing(ordering, roots, name) -> Timing:
    return ordering.info(roots[name]).timing


def two_buffers(body: str) -> str:
    return f"""
func.func @f(%s: i32, %t: i32, %p: i1) {{
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<4xi32>
{body}
  return
}}"""


HW_A = '  "otest.host_write"(%a) : (memref<4xi32>) -> ()'
HW_B = '  "otest.host_write"(%b) : (memref<4xi32>) -> ()'
DR_A_S = '  "otest.device_read"(%s, %a) : (i32, memref<4xi32>) -> ()'
DW_B_S = '  "otest.device_write"(%s, %b) : (i32, memref<4xi32>) -> ()'
DW_B_T = '  "otest.device_write"(%t, %b) : (i32, memref<4xi32>) -> ()'
DR_B_S = '  "otest.device_read"(%s, %b) : (i32, memref<4xi32>) -> ()'
WAIT_S = '  "otest.wait"(%s) : (i32) -> ()'
WAIT_T = '  "otest.wait"(%t) : (i32) -> ()'
WAIT_ALL = '  "otest.wait_all"() : () -> ()'
READBACK_B_S = '  "otest.readback"(%s, %b) : (i32, memref<4xi32>) -> ()'
READBACK_B_T = '  "otest.readback"(%t, %b) : (i32, memref<4xi32>) -> ()'
NESTED_WAIT_S = """  scf.if %p {
    "otest.wait"(%s) : (i32) -> ()
  }"""


@pytest.mark.parametrize(
    "lines, a_before_b",
    [
        pytest.param([HW_A, HW_B], True, id="1-host-then-host"),
        pytest.param([HW_A, DR_B_S], True, id="2-host-then-device"),
        pytest.param([DR_A_S, DW_B_S], True, id="3-device-then-device-same-stream"),
        pytest.param([DR_A_S, HW_B], False, id="4-device-then-host"),
        pytest.param([DR_A_S, WAIT_S, HW_B], True, id="4-device-sync-host"),
        pytest.param([DR_A_S, WAIT_T, HW_B], False, id="4-sync-of-another-stream"),
        pytest.param([DR_A_S, WAIT_ALL, HW_B], True, id="4-sync-of-all-streams"),
        pytest.param([DR_A_S, NESTED_WAIT_S, HW_B], False, id="4-sync-in-a-branch"),
        pytest.param([DR_A_S, DW_B_T], False, id="device-then-other-stream"),
        pytest.param([DR_A_S, WAIT_S, DW_B_T], True, id="device-sync-other-stream"),
        pytest.param([DR_A_S, READBACK_B_S], True, id="readback-waits-before-reading"),
        pytest.param([DR_A_S, READBACK_B_T], False, id="readback-of-another-stream"),
    ],
)
def test_rules_of_section_2(lines, a_before_b):
    ordering, roots = analyse(two_buffers("\n".join(lines)))
    a, b = timing(ordering, roots, "a"), timing(ordering, roots, "b")
    assert ordering.precedes(a, b) is a_before_b
    assert (ordering.explain(a, b) is None) is a_before_b
    assert not ordering.precedes(b, a)
    assert ordering.may_share(roots["a"], roots["b"]) is a_before_b
    assert ordering.conflicts([roots["a"], roots["b"]]) == (set() if a_before_b else {(0, 1)})


def test_program_order_decides_which_may_come_first():
    ordering, roots = analyse(two_buffers("\n".join([HW_B, HW_A])))
    a, b = timing(ordering, roots, "a"), timing(ordering, roots, "b")
    assert not ordering.precedes(a, b) and ordering.precedes(b, a)
    assert "after this buffer's first access" in ordering.explain(a, b)
    assert ordering.may_share(roots["a"], roots["b"])


SEED = """
func.func @seed(%ctx: !hip.context, %x: i64, %y: i64) -> (memref<1xf32>, memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1xi64>
  memref.store %x, %a[%c0] : memref<1xi64>
  %ao = memref.alloc() : memref<1xf32>
  hip.cast(%ctx) ins(%a : memref<1xi64>) outs(%ao : memref<1xf32>) {to = 1 : i64}
SYNC
  %b = memref.alloc() : memref<1xi64>
  memref.store %y, %b[%c0] : memref<1xi64>
  %bo = memref.alloc() : memref<1xf32>
  hip.cast(%ctx) ins(%b : memref<1xi64>) outs(%bo : memref<1xf32>) {to = 1 : i64}
  return %ao, %bo : memref<1xf32>, memref<1xf32>
}
"""


def test_seed_race_host_store_after_enqueued_read():
    ordering, roots = analyse(SEED.replace("SYNC", ""))
    info = ordering.info(roots["a"])
    assert [(a.kind, a.stream is None) for a in info.accesses] == [
        (AccessKind.WRITE, True),
        (AccessKind.READ, False),
    ]
    assert not ordering.may_share(roots["a"], roots["b"])
    why = ordering.explain(info.timing, timing(ordering, roots, "b"))
    assert "'hip.cast'" in why and "'memref.store'" in why


def test_seed_synchronize_makes_the_bytes_free():
    ordering, roots = analyse(SEED.replace("SYNC", "  memplan.synchronize(%ctx)"))
    assert ordering.may_share(roots["a"], roots["b"])
    assert [op.name for op in ordering.sync_points()] == ["memplan.synchronize"]
    # the outputs are returned: they never give their bytes away
    assert ordering.info(roots["ao"]).returned_by is not None
    assert not ordering.may_share(roots["ao"], roots["b"])


VIEWS = {
    "subview": "%v = memref.subview %a[0] [2] [1] : memref<4xi32> to memref<2xi32, strided<[1]>>",
    "cast": "%v = memref.cast %a : memref<4xi32> to memref<?xi32>",
    "reinterpret_cast": "%v = memref.reinterpret_cast %a to offset: [0], sizes: [2, 2], "
    "strides: [2, 1] : memref<4xi32> to memref<2x2xi32>",
    "view": "%by = memref.view %a8[%c0][] : memref<16xi8> to memref<4xi32>\n"
    "  %v = memref.cast %by : memref<4xi32> to memref<4xi32>",
    "expand_shape": "%v = memref.expand_shape %a [[0, 1]] output_shape [2, 2] "
    ": memref<4xi32> into memref<2x2xi32>",
    "collapse_shape": "%e = memref.expand_shape %a [[0, 1]] output_shape [2, 2] "
    ": memref<4xi32> into memref<2x2xi32>\n"
    "  %v = memref.collapse_shape %e [[0, 1]] : memref<2x2xi32> into memref<4xi32>",
    "memory_space_cast": "%v = memref.memory_space_cast %a : memref<4xi32> to memref<4xi32, 1>",
    "assume_alignment": "%v = memref.assume_alignment %a, 16 : memref<4xi32>",
    "test-local view": '%v = "otest.alias"(%a) : (memref<4xi32>) -> memref<4xi32>',
}


VIEW_TYPES = {
    "subview": "memref<2xi32, strided<[1]>>", "cast": "memref<?xi32>",
    "reinterpret_cast": "memref<2x2xi32>", "view": "memref<4xi32>",
    "expand_shape": "memref<2x2xi32>", "collapse_shape": "memref<4xi32>",
    "memory_space_cast": "memref<4xi32, 1>", "assume_alignment": "memref<4xi32>",
    "test-local view": "memref<4xi32>",
}


@pytest.mark.parametrize("kind", list(VIEWS))
def test_host_access_through_a_view_is_an_access_to_the_root(kind):
    text = f"""
func.func @f(%s: i32, %x: i32) {{
  %c0 = arith.constant 0 : index
  %a8 = memref.alloc() : memref<16xi8>
  %a = memref.alloc() : memref<4xi32>
  {VIEWS[kind]}
  "otest.host_write"(%v) : ({VIEW_TYPES[kind]}) -> ()
  "otest.device_read"(%s, %a8) : (i32, memref<16xi8>) -> ()
  "otest.device_read"(%s, %a) : (i32, memref<4xi32>) -> ()
  return
}}"""
    ordering, roots = analyse(text)
    info = ordering.info(roots["a8" if kind == "view" else "a"])
    hosts = [a for a in info.accesses if a.stream is None]
    assert [(a.op.name, a.kind) for a in hosts] == [("otest.host_write", AccessKind.WRITE)]
    assert info.host_accessed and info.escape is None
    other = ordering.info(roots["a" if kind == "view" else "a8"])
    assert not other.host_accessed


LOOP = """
func.func @f(%s: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<4xi32>
  "otest.host_write"(%a) : (memref<4xi32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    "otest.device_read"(%s, %a) : (i32, memref<4xi32>) -> ()
    INNER
  }
  OUTER
  return
}"""


def test_device_work_in_a_loop_keeps_the_buffer_busy_after_it():
    ordering, roots = analyse(
        LOOP.replace("INNER", "").replace(
            "OUTER", '"otest.host_write"(%b) : (memref<4xi32>) -> ()'
        )
    )
    info = ordering.info(roots["a"])
    device = [a for a in info.accesses if a.stream is not None]
    assert [a.anchor.name for a in device] == ["scf.for"]
    assert not ordering.may_share(roots["a"], roots["b"])


def test_two_buffers_used_in_one_loop_never_share():
    ordering, roots = analyse(
        LOOP.replace("INNER", '"otest.device_write"(%s, %b) : (i32, memref<4xi32>) -> ()')
        .replace("OUTER", "")
    )
    a, b = timing(ordering, roots, "a"), timing(ordering, roots, "b")
    assert not ordering.precedes(a, b) and not ordering.precedes(b, a)


ESCAPES = {
    "call": ("func.call @g(%a) : (memref<4xi32>) -> ()", "'func.call'"),
    "unknown effects": ('"otest.opaque"(%a) : (memref<4xi32>) -> ()', "unknown"),
    "untied effect": ('"otest.untied"(%a) : (memref<4xi32>) -> ()', "not tied"),
    "may return an alias": (
        '%l = "otest.leak"(%a) : (memref<4xi32>) -> memref<4xi32>', "alias"),
    "select": ("%l = arith.select %p, %a, %a : memref<4xi32>", "alias"),
    "yielded": (
        "%r = scf.if %p -> (memref<4xi32>) {\n    scf.yield %a : memref<4xi32>\n"
        "  } else {\n    scf.yield %a : memref<4xi32>\n  }", "yielded"),
    "pointer taken": (
        "%q = memref.extract_aligned_pointer_as_index %a : memref<4xi32> -> index",
        "address is taken by 'memref.extract_aligned_pointer_as_index'"),
    "cast to an integer": (
        "%q = builtin.unrealized_conversion_cast %a : memref<4xi32> to i64",
        "address is taken by 'builtin.unrealized_conversion_cast'"),
    "no declaration that only metadata is read": (
        '%q = "otest.address_of"(%a) : (memref<4xi32>) -> index', "address is taken"),
    "stored as a value": (
        "%box = memref.alloca() : memref<1xmemref<4xi32>>\n"
        "  memref.store %a, %box[%c0] : memref<1xmemref<4xi32>>",
        "'memref.store', whose memory effects are on other values"),
    "effect on another operand only": (
        "%box = memref.alloca() : memref<4xi32>\n"
        '  "otest.stash"(%a, %box) : (memref<4xi32>, memref<4xi32>) -> ()',
        "'otest.stash', whose memory effects are on other values"),
    "unregistered op": ('"test.fill"(%a) : (memref<4xi32>) -> ()', "'test.fill'"),
    "region operand": (
        "%r = scf.for %i = %c0 to %c0 step %c0 iter_args(%x = %a) -> (memref<4xi32>) {\n"
        "    scf.yield %x : memref<4xi32>\n  }", "regions"),
}


@pytest.mark.parametrize("kind", list(ESCAPES))
def test_uses_it_cannot_follow_make_the_buffer_escape(kind):
    use, reason = ESCAPES[kind]
    text = f"""
func.func private @g(memref<4xi32>)
func.func @f(%s: i32, %p: i1) {{
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<4xi32>
  "otest.host_write"(%a) : (memref<4xi32>) -> ()
  {use}
  "otest.host_write"(%b) : (memref<4xi32>) -> ()
  return
}}"""
    ordering, roots = analyse(text, function=1)
    info = ordering.info(roots["a"])
    assert info.escape is not None and reason in info.escape.reason
    assert ordering.info(roots["b"]).escape is None
    assert not ordering.may_share(roots["a"], roots["b"])
    assert ordering.conflicts([roots["a"], roots["b"]]) == {(0, 1)}


def test_unregistered_op_is_no_return():
    """xDSL answers `has_trait(IsTerminator)` with True for an unregistered op."""
    text = """
func.func @f(%s: i32) {
  %a = memref.alloc() : memref<4xi32>
  "otest.device_write"(%s, %a) : (i32, memref<4xi32>) -> ()
  "test.fill"(%a) : (memref<4xi32>) -> ()
  "otest.device_read"(%s, %a) : (i32, memref<4xi32>) -> ()
  return
}"""
    ordering, roots = analyse(text)
    info = ordering.info(roots["a"])
    assert info.returned_by is None
    assert info.escape is not None and "'test.fill'" in info.escape.reason
    assert "unknown" in info.escape.reason


def test_metadata_only_users_are_neither_accesses_nor_escapes():
    text = """
func.func @f(%s: i32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<4xi32>
  "otest.device_write"(%s, %a) : (i32, memref<4xi32>) -> ()
  %d = memref.dim %a, %c0 : memref<4xi32>
  %r = memref.rank %a : memref<4xi32>
  %v = memref.subview %a[0] [2] [1] : memref<4xi32> to memref<2xi32, strided<[1]>>
  %q = "otest.shape_of"(%v) : (memref<2xi32, strided<[1]>>) -> index
  "otest.device_write"(%s, %b) : (i32, memref<4xi32>) -> ()
  return
}"""
    ordering, roots = analyse(text)
    info = ordering.info(roots["a"])
    assert info.escape is None
    assert [x.op.name for x in info.accesses] == ["otest.device_write"]
    # the metadata reads after the last access still end its interval
    shape_of = next(op for op in ordering.ops if op.name == "otest.shape_of")
    assert info.last_use == ordering.index(shape_of)
    assert ordering.may_share(roots["a"], roots["b"])


def test_use_in_another_block_escapes():
    text = """
func.func @f(%s: i32) {
  %a = memref.alloc() : memref<4xi32>
  cf.br ^bb1
^bb1:
  "otest.host_write"(%a) : (memref<4xi32>) -> ()
  return
}"""
    ordering, roots = analyse(text)
    assert "outside its block" in ordering.info(roots["a"]).escape.reason


def test_dim_dealloc_and_return_are_not_accesses():
    text = """
func.func @f(%s: i32) -> memref<4xi32> {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xi32>
  %r = memref.alloc() : memref<4xi32>
  "otest.device_write"(%s, %a) : (i32, memref<4xi32>) -> ()
  %d = memref.dim %a, %c0 : memref<4xi32>
  memref.dealloc %a : memref<4xi32>
  "otest.device_read"(%s, %a) : (i32, memref<4xi32>) -> ()
  "otest.device_write"(%s, %r) : (i32, memref<4xi32>) -> ()
  return %r : memref<4xi32>
}"""
    ordering, roots = analyse(text)
    a, r = ordering.info(roots["a"]), ordering.info(roots["r"])
    assert [x.op.name for x in a.accesses] == ["otest.device_write", "otest.device_read"]
    assert [op.name for op, _ in a.frees] == ["memref.dealloc"]
    assert a.escape is None and a.returned_by is None
    assert r.returned_by is not None and r.escape is None
    # frees do not extend the interval; the read after it does
    assert a.last_use == ordering.index(a.accesses[-1].op)
    # a may give its bytes to the returned r, never the reverse
    assert ordering.may_share(roots["a"], roots["r"])
    assert ordering.precedes(a.timing, r.timing)


def test_returned_buffer_never_donates():
    text = """
func.func @f(%s: i32) -> memref<4xi32> {
  %r = memref.alloc() : memref<4xi32>
  %a = memref.alloc() : memref<4xi32>
  "otest.device_write"(%s, %r) : (i32, memref<4xi32>) -> ()
  "otest.device_write"(%s, %a) : (i32, memref<4xi32>) -> ()
  return %r : memref<4xi32>
}"""
    ordering, roots = analyse(text)
    assert ordering.precedes(timing(ordering, roots, "r"), timing(ordering, roots, "a"))
    assert not ordering.may_share(roots["r"], roots["a"])
    assert ordering.conflicts([roots["r"], roots["a"]]) == {(0, 1)}


def test_timing_union_and_never():
    empty = Timing()
    assert empty.first == NEVER and empty.last == -1
    ordering, roots = analyse(two_buffers("\n".join([HW_A, DR_A_S, WAIT_S, HW_B])))
    a, b = timing(ordering, roots, "a"), timing(ordering, roots, "b")
    both = a.union(b)
    assert both.first == a.first and both.last == b.last
    assert ordering.precedes(empty, a) and ordering.precedes(a, empty)


# ---------------------------------------------------------------- random programs
#
# An oracle that applies the four rules to every pair of accesses directly, checked
# against the per-buffer summaries (`precedes`), the slot summaries (`union`) and the
# sweep (`conflicts`).

STREAMS = ("%s0", "%s1")

op_strategy = st.one_of(
    st.tuples(st.just("host"), st.integers(0, 5), st.booleans()),
    st.tuples(st.just("device"), st.integers(0, 5), st.booleans(), st.integers(0, 1)),
    st.tuples(st.just("wait"), st.integers(0, 2)),
    st.tuples(st.just("readback"), st.integers(0, 5), st.integers(0, 1)),
)


def render(n: int, ops, returned: set[int]) -> str:
    lines = ["func.func @f(%s0: i32, %s1: i32, %v: i32) {",
             "  %c0 = arith.constant 0 : index"]
    lines += [f"  %b{i} = memref.alloc() : memref<4xi32>" for i in range(n)]
    for k, op in enumerate(ops):
        if op[0] == "host":
            _, i, write = op
            lines.append(f"  memref.store %v, %b{i}[%c0] : memref<4xi32>" if write
                         else f"  %l{k} = memref.load %b{i}[%c0] : memref<4xi32>")
        elif op[0] == "device":
            _, i, write, s = op
            kind = "device_write" if write else "device_read"
            lines.append(f'  "otest.{kind}"({STREAMS[s]}, %b{i}) : (i32, memref<4xi32>) -> ()')
        elif op[0] == "wait":
            lines.append('  "otest.wait_all"() : () -> ()' if op[1] == 2
                         else f'  "otest.wait"({STREAMS[op[1]]}) : (i32) -> ()')
        else:
            _, i, s = op
            lines.append(f'  "otest.readback"({STREAMS[s]}, %b{i}) : (i32, memref<4xi32>) -> ()')
    rets = sorted(returned)
    if rets:
        types = ", ".join("memref<4xi32>" for _ in rets)
        lines.append(f"  return {', '.join(f'%b{i}' for i in rets)} : {types}")
        lines[0] = lines[0].replace(") {", f") -> ({types}) {{")
    else:
        lines.append("  return")
    lines.append("}")
    return "\n".join(lines)


def oracle(n: int, ops):
    """Per buffer, its accesses as (op number, stream or None); the syncs as
    (op number, stream or 'all')."""
    accesses = {i: [] for i in range(n)}
    syncs = []
    for k, op in enumerate(ops):
        if op[0] == "host":
            accesses[op[1]].append((k, None))
        elif op[0] == "device":
            accesses[op[1]].append((k, op[3]))
        elif op[0] == "wait":
            syncs.append((k, "all" if op[1] == 2 else op[1]))
        else:
            syncs.append((k, op[2]))
            accesses[op[1]].append((k, None))

    def ordered(x, y):
        (kx, sx), (ky, sy) = x, y
        if kx >= ky:
            return False
        if sx is None or sx == sy:
            return True
        return any(kx < j <= ky and s in (sx, "all") for j, s in syncs)

    def before(group_a, group_b):
        return all(ordered(x, y) for i in group_a for x in accesses[i]
                   for j in group_b for y in accesses[j])

    return before


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 5),
    ops=st.lists(op_strategy, max_size=14),
    returned=st.sets(st.integers(0, 4), max_size=2),
)
def test_summaries_and_sweep_agree_with_the_rules_pair_by_pair(n, ops, returned):
    ops = [op[:1] + (op[1] % n,) + op[2:] if op[0] != "wait" else op for op in ops]
    returned = {i for i in returned if i < n}
    ordering, roots = analyse(render(n, ops, returned))
    before = oracle(n, ops)
    names = [roots[f"b{i}"] for i in range(n)]
    t = [ordering.info(r).timing for r in names]
    expected_conflicts = set()
    for i in range(n):
        for j in range(n):
            if i != j:
                assert ordering.precedes(t[i], t[j]) == before([i], [j]), (i, j)
                k = next(x for x in range(n) if x not in (i, j)) if n > 2 else None
                if k is not None:
                    assert ordering.precedes(t[i].union(t[k]), t[j]) == before([i, k], [j])
            if i < j:
                share = (i not in returned and before([i], [j])) or (
                    j not in returned and before([j], [i]))
                assert ordering.may_share(names[i], names[j]) == share
                if not share:
                    expected_conflicts.add((i, j))
    assert ordering.conflicts(names) == expected_conflicts
    graph = ordering.conflict_graph(names)
    assert len(graph) == n
    for i, row in enumerate(graph):
        assert row.tolist() == sorted(set(row.tolist())) and i not in row.tolist()
        assert set(row.tolist()) == {j for j in range(n) if (min(i, j), max(i, j)) in expected_conflicts}


def test_escaping_and_returned_buffers_in_the_graph():
    """An escaping root conflicts with every other, returned roots with each other;
    the graph is symmetric and names no root twice."""
    text = """
func.func private @g(memref<4xi32>)
func.func @f(%s: i32) -> (memref<4xi32>, memref<4xi32>) {
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<4xi32>
  %r1 = memref.alloc() : memref<4xi32>
  %r2 = memref.alloc() : memref<4xi32>
  "otest.host_write"(%a) : (memref<4xi32>) -> ()
  func.call @g(%a) : (memref<4xi32>) -> ()
  "otest.host_write"(%b) : (memref<4xi32>) -> ()
  "otest.device_write"(%s, %r1) : (i32, memref<4xi32>) -> ()
  "otest.device_write"(%s, %r2) : (i32, memref<4xi32>) -> ()
  return %r1, %r2 : memref<4xi32>, memref<4xi32>
}"""
    ordering, roots = analyse(text, function=1)
    names = [roots[x] for x in ("a", "b", "r1", "r2")]
    graph = ordering.conflict_graph(names)
    assert [row.tolist() for row in graph] == [[1, 2, 3], [0], [0, 3], [0, 2]]


def test_sweep_on_a_long_chain_of_device_temporaries():
    """Each kernel reads one temporary and writes the next: only neighbours conflict."""
    n = 400
    lines = ["func.func @f(%ctx: !hip.context) {"]
    lines += [f"  %b{i} = memref.alloc() : memref<4xf32>" for i in range(n)]
    for i in range(n - 1):
        lines.append(
            f"  hip.tanh(%ctx) ins(%b{i} : memref<4xf32>) outs(%b{i + 1} : memref<4xf32>)"
        )
    lines += ["  return", "}"]
    ordering, roots = analyse("\n".join(lines))
    names = [roots[f"b{i}"] for i in range(n)]
    assert ordering.conflicts(names) == {(i, i + 1) for i in range(n - 1)}
