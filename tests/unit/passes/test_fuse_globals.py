"""fuse-globals: which globals fuse, and that fusing keeps what programs compute."""

from __future__ import annotations

from global_programs import execute, programs, refines
from hypothesis import HealthCheck, given, settings

import memplan
from memplan.analysis.fingerprint import fingerprint
from memplan.passes.fuse_globals import FuseGlobals

CTX = memplan.make_context()


def fused(text: str) -> tuple[list[str], str]:
    """The globals left after fuse-globals, and the module's text."""
    module = memplan.parse(CTX, text)
    FuseGlobals().run(CTX, module)
    module.verify()
    names = [op.properties["sym_name"].data for op in module.body.block.ops
             if op.name == "util.global"]
    return names, str(module)


def test_one_sided_correlation_does_not_fuse():
    # Every store to @a, @c and @d is paired with @b, but @b is also stored alone:
    # it holds another value after @g. @a, @c and @d are paired both ways.
    names, _ = fused("""
util.global private mutable @a : index
util.global private mutable @b : index
util.global private mutable @c : index
util.global private mutable @d : index
util.func @f(%arg0: index) {
  util.global.store %arg0, @a : index
  util.global.store %arg0, @b : index
  util.global.store %arg0, @c : index
  util.global.store %arg0, @d : index
  util.return
}
util.func @g(%arg0: index) {
  util.global.store %arg0, @b : index
  util.return
}
util.func @h() -> (index, index, index, index) {
  %0 = util.global.load @a : index
  %1 = util.global.load @b : index
  %2 = util.global.load @c : index
  %3 = util.global.load @d : index
  util.return %0, %1, %2, %3 : index, index, index, index
}
""")
    assert names == ["a", "b"]


def test_three_globals_fuse_into_the_first_in_module_order():
    names, text = fused("""
util.global private mutable @z : index
util.global private mutable @y : index
util.global private mutable @x : index
util.func @f(%arg0: index) -> (index, index, index) {
  util.global.store %arg0, @x : index
  util.global.store %arg0, @y : index
  util.global.store %arg0, @z : index
  %0 = util.global.load @x : index
  %1 = util.global.load @y : index
  %2 = util.global.load @z : index
  util.return %0, %1, %2 : index, index, index
}
""")
    assert names == ["z"]
    assert text.count("util.global.store") == 1
    assert text.count("util.global.load @z") == 3


def test_stores_in_different_blocks_do_not_fuse():
    names, _ = fused("""
util.global private mutable @a : index
util.global private mutable @b : index
util.func @f(%arg0: index) {
  util.global.store %arg0, @a : index
  util.return
}
util.func @g(%arg0: index) {
  util.global.store %arg0, @b : index
  util.return
}
util.func @h() -> (index, index) {
  %0 = util.global.load @a : index
  %1 = util.global.load @b : index
  util.return %0, %1 : index, index
}
""")
    assert names == ["a", "b"]


SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(programs(max_globals=3, pair_odds=1))
def test_fusing_keeps_what_programs_compute(program):
    module = memplan.parse(CTX, program.text())
    module.verify()
    expected = execute(module, program.calls)
    FuseGlobals().run(CTX, module)
    module.verify()
    assert refines(expected, execute(module, program.calls)), (program.text(), str(module))
    before = fingerprint(module)
    assert FuseGlobals().run(CTX, module) is False
    assert fingerprint(module) == before
