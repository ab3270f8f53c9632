"""stream.cmd ops, executables and `memplan.opaque`: what passes ask of them
(symbols, effects) and the text kept for what memplan does not model."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.traits import MemoryEffectKind, SymbolTable
from xdsl.utils.exceptions import ParseError

import memplan
from memplan.dialects.iree.stream_cmd import CmdDispatchOp, CmdFillOp
from memplan.dialects.iree.stream_executable import ExecutableExportOp
from memplan.interfaces import memory_effects
from memplan.opaque import OpaqueAttr, OpaqueOp

_EXECUTABLE = """\
#m = affine_map<(d0) -> (d0)>
stream.executable private @ex {
  stream.executable.export public @entry
  builtin.module {
    func.func @entry() {
      "acme.k"() {s = "} { ) ]", map = #m} : () -> ()
      return
    }
  } loc("here")
}
util.func public @f(%r: !stream.resource<transient>, %n: index, %v: i32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%r as %a: !stream.resource<transient>{%n}) {
    stream.cmd.fill %v, %a[%c0 for %n] : i32 -> !stream.resource<transient>{%n}
    stream.cmd.dispatch @ex::@entry {
      ro %a[%c0 for %n] : !stream.resource<transient>{%n}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}
"""


def _module(text: str = _EXECUTABLE):
    return memplan.parse(memplan.make_context(), text)


def test_export_is_a_symbol_dispatches_resolve():
    module = _module()
    dispatch = next(op for op in module.walk() if isinstance(op, CmdDispatchOp))
    found = SymbolTable.lookup_symbol(module, dispatch.entry_points.data[0])
    assert isinstance(found, ExecutableExportOp)
    assert found.sym_name.data == "entry"
    assert SymbolTable.lookup_symbol(module, SymbolRefAttr("ex", ["missing"])) is None


def test_module_kept_as_text_with_aliases_resolved():
    module = _module()
    kept = [op for op in module.walk() if isinstance(op, OpaqueOp)]
    assert len(kept) == 1
    text = kept[0].text.data
    # Braces in strings do not end the op; the location belongs to it; the alias
    # is replaced by the map it names; lines are relative to the op's column.
    assert text.startswith("builtin.module {\n  func.func @entry()")
    assert text.endswith('} loc("here")')
    assert "affine_map<(d0) -> (d0)>" in text and "#m" not in text
    printed = memplan.print_ir(module)
    assert printed == memplan.print_ir(_module(printed))


def test_command_effects_name_the_captured_resource():
    module = _module()
    fill = next(op for op in module.walk() if isinstance(op, CmdFillOp))
    dispatch = next(op for op in module.walk() if isinstance(op, CmdDispatchOp))
    (write,) = memory_effects(fill)
    assert write.kind == MemoryEffectKind.WRITE and write.value is fill.target
    # A dispatch that writes nothing may still do something: unknown.
    assert memory_effects(dispatch) is None


def test_unmodelled_attribute_keeps_its_brackets():
    text = 'util.global private @g {a = #iree_gpu.x<>, b = #iree_gpu.y, c = #iree_gpu.z<1, "<">} : i32\n'
    module = _module(text)
    attrs = next(iter(module.ops)).attributes
    assert all(isinstance(attrs[k], OpaqueAttr) for k in "abc")
    assert '{a = #iree_gpu.x<>, b = #iree_gpu.y, c = #iree_gpu.z<1, "<">}' in memplan.print_ir(module)


def test_dialects_iree_opt_does_not_know_need_allow_unregistered():
    text = "util.global private @g {a = #acme.x<1>} : i32\n"
    with pytest.raises(ParseError, match="'acme.x' is not registered"):
        _module(text)
    module = memplan.parse(memplan.make_context(allow_unregistered=True), text)
    assert isinstance(next(iter(module.ops)).attributes["a"], OpaqueAttr)


def test_unmodelled_attributes_compare_by_their_text():
    text = "util.global private @g {a = #iree_gpu.x<1>, b = #iree_gpu.x<2>, c = #iree_gpu.x<1>} : i32\n"
    attrs = next(iter(_module(text).ops)).attributes
    assert attrs["a"] != attrs["b"] and hash(attrs["a"]) != hash(attrs["b"])
    assert attrs["a"] == attrs["c"] and hash(attrs["a"]) == hash(attrs["c"])


def test_names_xdsl_lacks_in_a_dialect_it_models_in_part_are_opaque():
    text = "util.global private @g {a = #gpu.thread<x>} : i32\n"
    module = _module(text)
    assert isinstance(next(iter(module.ops)).attributes["a"], OpaqueAttr)
    assert "{a = #gpu.thread<x>}" in memplan.print_ir(module)
