"""fold-globals: its table of uses, its bounded rounds, and that what it does keeps
the values every function returns (checked by running random programs)."""

from __future__ import annotations

import pytest
from global_programs import Program, execute, programs, refines
from hypothesis import HealthCheck, given, settings

import memplan
from memplan.analysis.fingerprint import fingerprint
from memplan.analysis.globals import GlobalTable
from memplan.passes.fold_globals import FoldGlobals, fold_globals
from memplan.passes.fuse_globals import FuseGlobals

CTX = memplan.make_context()


def parse(text: str):
    module = memplan.parse(CTX, text)
    module.verify()
    return module


TABLE_INPUT = """
util.global private mutable @a : index
util.global private @b = 1 : index
util.global public @c : index
util.global private @d : index
util.global private @e : index
util.func @f(%arg0: index) -> index attributes {refs = {x = [@d]}} {
  util.global.store %arg0, @a : index
  %0 = util.global.load @a : index
  %1 = util.global.load @b : index
  util.return %0 : index
}
util.func @g() attributes {dev = #hal.device.affinity<@e>} {
  %0 = util.global.load @a : index
  util.return
}
"""


def test_the_table_finds_every_use_in_one_walk():
    table = GlobalTable(parse(TABLE_INPUT))
    assert list(table.globals) == ["a", "b", "c", "d", "e"]
    a, b, c, d, e = (table.get(n) for n in "abcde")
    assert (len(a.loads), len(a.stores), len(b.loads), len(b.stores)) == (2, 1, 1, 0)
    # A symbol in a nested dictionary or inside a dialect attribute is a use too.
    assert [g.name for g in table if g.indirect] == ["d", "e"]
    assert [g.name for g in table if g.candidate] == ["a", "b"]
    assert not c.candidate and c.private is False


def test_loads_in_a_nested_symbol_table_are_not_the_outer_globals():
    table = GlobalTable(parse("""
util.global private @x : index
builtin.module @inner {
  util.global private @x : index
  util.func @f() -> index {
    %0 = util.global.load @x : index
    util.return %0 : index
  }
}
"""))
    x = table.get("x")
    assert x.loads == {} and x.indirect


CASCADE = """
util.global private mutable @c : index
util.global private mutable @b : index
util.global private mutable @a : index
util.func @read() -> index {
  %0 = util.global.load @c : index
  util.return %0 : index
}
util.func @set() {
  %c7 = arith.constant 7 : index
  util.global.store %c7, @a : index
  %0 = util.global.load @a : index
  util.global.store %0, @b : index
  %1 = util.global.load @b : index
  util.global.store %1, @c : index
  util.return
}
"""


def test_rounds_are_bounded_and_one_run_reaches_the_fixed_point():
    bounded = parse(CASCADE)
    assert fold_globals(bounded, max_rounds=1) is True
    # @c copies @b, which copies @a: @c is seen before @b is replaced by @a.
    assert "util.global private mutable @c" in str(bounded)
    module = parse(CASCADE)
    assert FoldGlobals().run(CTX, module) is True
    assert "util.global" not in str(module)
    assert "arith.constant 7" in str(module)
    before = fingerprint(module)
    assert FoldGlobals().run(CTX, module) is False
    assert fingerprint(module) == before


def _check_program(program: Program, passes) -> None:
    module = parse(program.text())
    expected = execute(module, program.calls)
    for p in passes:
        p.run(CTX, module)
    module.verify()
    got = execute(module, program.calls)
    assert refines(expected, got), (program.text(), str(module), expected, got)
    # A second run of the same passes finds nothing left to do.
    before = fingerprint(module)
    assert not any(p.run(CTX, module) for p in passes)
    assert fingerprint(module) == before


SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(programs())
def test_fold_globals_keeps_what_programs_compute(program):
    _check_program(program, [FoldGlobals()])


@SETTINGS
@given(programs())
def test_fold_then_fuse_keeps_what_programs_compute(program):
    module = parse(program.text())
    expected = execute(module, program.calls)
    for _ in range(10):
        changed = FoldGlobals().run(CTX, module)
        changed |= FuseGlobals().run(CTX, module)
        if not changed:
            break
    module.verify()
    assert refines(expected, execute(module, program.calls)), (program.text(), str(module))


@pytest.mark.parametrize("source, expected", [
    # A uniform constant store to a global loaded before it: still folded, since
    # the global was undefined before the store.
    ("util.global private mutable @g : index\n"
     "util.func @f0(%arg0: index) -> (index) {\n"
     "  %v0 = util.global.load @g : index\n"
     "  %c0 = arith.constant 2 : index\n"
     "  util.global.store %c0, @g : index\n"
     "  util.return %v0 : index\n}\n", [(2,)]),
])
def test_known_programs(source, expected):
    module = parse(source)
    FoldGlobals().run(CTX, module)
    assert execute(module, [(0, 0)]) == expected
