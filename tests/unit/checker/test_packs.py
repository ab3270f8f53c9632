"""The pack checker (`memplan.checker.packs`) catches broken layouts: a packer that
overlaps two slices, misaligns one, or is right only when the unknowns are equal;
and it shares no code with the packer."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

import memplan.passes.layout_slices as layout_slices_pass
import memplan.planning.dynamic_slices as dynamic_slices
from memplan.checker import packs
from memplan.checker.packs import check_numeric, check_pack
from memplan.context import make_context
from memplan.diagnostics import UserError
from memplan.passes.layout_slices import LayoutSlices
from memplan.planning.polynomials import MaxPoly, Poly
from memplan.testing.packs import decoder_pack, encoder_pack, pack_ir, random_pack
from memplan.tools.source import parse_module


def _parse(text: str):
    return parse_module(make_context(), text, "pack.mlir")


def _returned(module):
    fn = next(op for op in module.walk() if op.name == "util.func")
    return list(fn.body.blocks[0].ops)[-1].operands


def test_imports_nothing_from_the_packer():
    tree = ast.parse(Path(packs.__file__).read_text())
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert modules, "the parse found no imports"
    assert not [m for m in modules if m and m.startswith(("memplan.analysis", "memplan.planning", "memplan.passes"))]


def test_numeric_rules():
    # Two slices live at time 1 (inclusive ends), 64 bytes each.
    assert check_numeric([0, 1], [1, 2], [64, 64], [0, 64], 128, 0, 64) == []
    assert "share bytes" in check_numeric([0, 1], [1, 2], [64, 64], [0, 32], 128, 0, 32)[0]
    assert "not a multiple" in check_numeric([0, 1], [1, 2], [64, 64], [0, 72], 136, 0, 64)[0]
    assert "past the total" in check_numeric([0, 1], [1, 2], [64, 64], [0, 64], 100, 0, 64)[0]
    # Lifetimes that only touch at an end still meet; disjoint ones may share.
    assert check_numeric([0, 2], [1, 3], [64, 64], [0, 0], 64, 0, 64) == []
    assert check_numeric([0, 1], [1, 3], [64, 64], [0, 0], 64, 0, 64) != []
    # Range alignment: a 40-byte slice reserves 64.
    assert check_numeric([0, 0], [0, 0], [40, 40], [0, 48], 112, 0, 16, 64) != []


def test_right_only_for_equal_unknowns_is_caught():
    # %b sits at 64*%t above %a (64*%s bytes): right only when %s <= %t.
    module = _parse("""
util.func public @f(%s: index, %t: index) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = arith.muli %s, %c64 : index
  %b = arith.muli %t, %c64 : index
  %total = arith.addi %a, %b : index
  util.return %a, %b, %total : index, index, index
}
""")
    a, b, total = _returned(module)
    zero = list(module.walk())[3].results[0]
    ok = check_pack([0, 0], [1, 1], [a, b], [zero, a], total, None, 64)
    assert ok == []
    wrong = check_pack([0, 0], [1, 1], [a, b], [zero, b], total, None, 64)
    assert wrong and "share bytes" in wrong[0]


def _broken_static(change):
    original = layout_slices_pass.pack_static

    def broken(*args, **kwargs):
        layout = original(*args, **kwargs)
        offsets = layout.offsets.copy()
        change(offsets)
        return type(layout)(offsets, layout.total, layout.strategy, layout.lower_bound, layout.iree_total)

    return broken


def _first_conflict(spec) -> tuple[int, int]:
    for i, (a, b, size) in enumerate(spec.slices):
        for j in range(i):
            c, d, other = spec.slices[j]
            if b >= c and d >= a and size and other:
                return j, i
    raise AssertionError("no conflicting slices")


def test_static_pass_is_verified():
    module = _parse(pack_ir(encoder_pack(layers=2)))
    LayoutSlices().apply(Context(), module)  # the real packer passes


def test_overlapping_static_packer_fails(monkeypatch):
    spec = encoder_pack(layers=2)
    j, i = _first_conflict(spec)

    def overlap(offsets):
        offsets[i] = offsets[j]

    monkeypatch.setattr(layout_slices_pass, "pack_static", _broken_static(overlap))
    with pytest.raises(UserError, match="share bytes"):
        LayoutSlices().apply(Context(), _parse(pack_ir(spec)))


def test_misaligning_static_packer_fails(monkeypatch):
    def misalign(offsets):
        offsets[0] += 8

    monkeypatch.setattr(layout_slices_pass, "pack_static", _broken_static(misalign))
    with pytest.raises(UserError, match="not a multiple of 64"):
        LayoutSlices().apply(Context(), _parse(pack_ir(encoder_pack(layers=2))))


def test_dynamic_pass_is_verified():
    LayoutSlices().apply(Context(), _parse(pack_ir(decoder_pack(layers=2))))
    LayoutSlices().apply(Context(), _parse(pack_ir(random_pack(80, 3, max_life=8, dynamic=0.5))))


def test_dynamic_packer_that_forgets_a_slice_below_fails(monkeypatch):
    original = dynamic_slices._layout_from_order

    def forgetful(order, neighbours, reserved, points, origin):
        layout = original(order, neighbours, reserved, points, origin)
        victim = next(i for i, below in enumerate(layout.below) if below)
        below = list(layout.below)
        below[victim] = ()
        zero = MaxPoly.of(Poly())
        upper, lower = list(layout.upper), list(layout.lower)
        upper[victim] = lower[victim] = zero
        return dynamic_slices.SymbolicLayout(
            tuple(below), layout.top, tuple(upper), tuple(lower), layout.total_upper, layout.total_lower, origin
        )

    monkeypatch.setattr(dynamic_slices, "_layout_from_order", forgetful)
    with pytest.raises(UserError, match="share bytes"):
        LayoutSlices().apply(Context(), _parse(pack_ir(decoder_pack(layers=2))))


def test_unverified_broken_layout_passes_silently(monkeypatch):
    """The failure above comes from the checker: with verify=false the same broken
    packer goes through."""
    def overlap(offsets):
        offsets[1] = offsets[0]

    monkeypatch.setattr(layout_slices_pass, "pack_static", _broken_static(overlap))
    LayoutSlices(verify=False).apply(Context(), _parse(pack_ir(encoder_pack(layers=2))))


def test_verify_memory_plan_checks_packs_without_changing_ir(monkeypatch):
    from memplan.passes.verify_memory_plan import VerifyMemoryPlan

    text = pack_ir(decoder_pack(layers=2))
    module = _parse(text)
    assert not VerifyMemoryPlan(packs=True, pack_assignments=20).run(Context(), module)
    assert any(op.name == "stream.resource.pack" for op in module.walk())

    def overlap(offsets):
        offsets[1] = offsets[0]

    spec = encoder_pack(layers=2)
    monkeypatch.setattr(layout_slices_pass, "pack_static", _broken_static(overlap))
    with pytest.raises(UserError, match="lays this pack out wrong.*share bytes"):
        VerifyMemoryPlan(packs=True).run(Context(), _parse(pack_ir(spec)))


def test_proof_separates_right_from_right_only_for_equal_unknowns():
    from memplan.checker.packs import prove_pack

    module = _parse("""
util.func public @f(%s: index, %t: index) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = arith.muli %s, %c64 : index
  %b = arith.muli %t, %c64 : index
  %total = arith.addi %a, %b : index
  util.return %a, %b, %total : index, index, index
}
""")
    a, b, total = _returned(module)
    zero = list(module.walk())[3].results[0]
    assert prove_pack([0, 0], [1, 1], [a, b], [zero, a], total, None, 64) == []
    assert prove_pack([0, 0], [1, 1], [a, b], [zero, b], total, None, 64) != []


@pytest.mark.parametrize("spec", [decoder_pack(), random_pack(80, 1, max_life=8, dynamic=0.6)], ids=["decoder", "random"])
def test_dynamic_layouts_are_proven(spec):
    module = _parse(pack_ir(spec))
    (lowered,) = LayoutSlices().lower_all(module)
    assert lowered.dynamic
    assert lowered.prove() == []
    # A layout with one slice moved onto another is not.
    j, i = _first_conflict(spec)
    offsets = list(lowered.offsets)
    offsets[i] = offsets[j]
    from memplan.checker.packs import prove_pack

    assert prove_pack(lowered.starts, lowered.ends, lowered.sizes, offsets, lowered.total, None, 64) != []
