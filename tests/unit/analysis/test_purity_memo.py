"""`memoized_effects`: inside it, `effects_of` answers what it answers outside,
whatever a pass did to the ops in between (operands rewired, properties and
attributes set or dropped)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr, UnitAttr

from memplan.analysis import purity
from memplan.analysis.purity import effects_of, memoized_effects
from memplan.context import make_context
from memplan.tools.source import parse_module

CTX = make_context(allow_unregistered=True)

SOURCE = """
util.global private mutable @a : index
util.global private mutable @b : index
func.func @f(%m: memref<4xf32>, %n: memref<4xf32>, %x: f32, %i: index) {
  %l = util.global.load @a : index
  util.global.store %i, @b : index
  memref.store %x, %m[%i] : memref<4xf32>
  memref.dealloc %n : memref<4xf32>
  %t = "test.side_effect_op"() {effects = [{effect = "read", test_resource}]} : () -> i32
  %c = arith.constant 0 : index
  return
}
"""

_EFFECT_LISTS = [
    ArrayAttr([DictionaryAttr({"effect": StringAttr(kind), "test_resource": UnitAttr()})])
    for kind in ("read", "write", "allocate", "free")
]


def _mutate(module, choice: int, pick: int) -> None:
    """One in-place change a pass could make, chosen by `choice`."""
    func = next(op for op in module.walk() if op.name == "func.func")
    ops = list(func.body.block.ops)
    m, n = func.body.block.args[0], func.body.block.args[1]
    by_name = {op.name: op for op in ops}
    kind = choice % 5
    if kind == 0:  # the store writes another buffer
        store = by_name["memref.store"]
        store.operands[1] = n if store.operands[1] is m else m
    elif kind == 1:  # the dealloc frees another buffer
        dealloc = by_name["memref.dealloc"]
        dealloc.operands[0] = m if dealloc.operands[0] is n else n
    elif kind == 2:  # the load reads another global
        load = by_name["util.global.load"]
        load.properties["global"] = SymbolRefAttr("a" if pick % 2 else "b")
    elif kind == 3:  # the load becomes immutable, or not
        load = by_name["util.global.load"]
        if "is_immutable" in load.properties:
            del load.properties["is_immutable"]
        else:
            load.properties["is_immutable"] = UnitAttr()
    else:  # the test op lists other effects
        by_name["test.side_effect_op"].attributes["effects"] = _EFFECT_LISTS[pick % 4]


def _fresh(op):
    """The effects computed with no memo at all."""
    saved = purity._memo
    purity._memo = None
    try:
        got = effects_of(op)
    finally:
        purity._memo = saved
    return None if got is None else set(got)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), max_size=12))
def test_memoized_effects_follow_every_change(changes):
    module = parse_module(CTX, SOURCE, "test.mlir")
    with memoized_effects():
        for step in [None, *changes]:
            if step is not None:
                _mutate(module, *step)
            for op in module.walk():
                got = effects_of(op)
                assert (None if got is None else set(got)) == _fresh(op), op.name
    assert purity._memo is None


def test_the_memo_lives_only_within_the_outermost_scope():
    module = parse_module(CTX, SOURCE, "test.mlir")
    store = next(op for op in module.walk() if op.name == "memref.store")
    with memoized_effects():
        with memoized_effects():
            effects_of(store)
        assert store in purity._memo
    assert purity._memo is None
