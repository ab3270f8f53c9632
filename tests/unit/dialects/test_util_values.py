"""util's value, buffer, list and string ops: printing is a fixed point, composites
keep IREE's layout at any depth, effects and sizes are declared on the ops."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import IntegerType, VectorType

from memplan.analysis.data_layout import packed_storage_bytes
from memplan.dialects.iree import util_buffer as ub
from memplan.interfaces import MemoryEffectKind, memory_effects

from iree_cases import parse, show

_LIT = Path(__file__).parents[2] / "lit" / "dialects" / "util-value-ops.mlir"


def _lit_cases() -> dict[str, str]:
    """The cases of the util ops' lit file, by the symbol each defines first."""
    cases: dict[str, str] = {}
    for chunk in _LIT.read_text().split("// -----"):
        body = "\n".join(
            line for line in chunk.splitlines()
            if not line.lstrip().startswith("//")
        ).strip()
        name = body.split("@", 1)[1].split("(", 1)[0].split(" ", 1)[0]
        cases[name] = body
    return cases


CASES = _lit_cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_print_is_a_fixed_point(name: str):
    once = show(parse(CASES[name]))
    assert show(parse(once)) == once


@pytest.mark.parametrize("name", sorted(CASES))
def test_generic_print_is_a_fixed_point_and_reads_back(name: str):
    custom = show(parse(CASES[name]))
    generic = show(parse(custom), generic=True)
    assert show(parse(generic), generic=True) == generic
    assert show(parse(generic)) == custom


_VALUES = st.one_of(
    st.lists(st.integers(0, 255), min_size=1, max_size=4).map(
        lambda v: (f"dense<{v}> : vector<{len(v)}xi8>", len(v))
    ),
    st.text("abcxyz", min_size=1, max_size=5).map(lambda s: (f'"{s}"', len(s))),
    st.integers(1, 8).map(lambda n: (f"#util.byte_pattern<3> : tensor<{n}xi16>", 2 * n)),
)


@settings(max_examples=40, deadline=None)
@given(values=st.lists(_VALUES, min_size=0, max_size=4), depth=st.integers(0, 3))
def test_composites_print_as_iree_at_any_depth(values, depth):
    """However deep the op holding it, a composite prints its values one a line,
    four spaces in, and printing it again changes nothing (IREE's printer cannot
    know the indent, so neither may memplan's)."""
    total = sum(size for _, size in values)
    composite = f"#util.composite<{total}xi8, [{', '.join(text for text, _ in values)}]>"
    body = f'%0 = util.buffer.constant : !util.buffer = {composite}\n'
    for _ in range(depth):
        body = f'util.hoistable_conversion "a" inverts("b") () : () -> () {{\n{body}util.return\n}}\n'
    text = f"util.func public @f() {{\n{body}util.return\n}}"
    once = show(parse(text))
    assert show(parse(once)) == once
    lines = once.splitlines()
    value_lines = [line for line in lines if line.endswith(",") and "composite" not in line]
    assert len(value_lines) == (len(values) if total else 0)
    assert all(line.startswith("    ") and line[4] != " " for line in value_lines)


def test_composite_of_sums_storage_sizes():
    """Dense elements packed at their width, strings without terminator, byte
    patterns by their type; a value that does not serialize gives no composite."""
    module = parse(
        'module attributes {util.v = [dense<1> : tensor<3xi16>, "abcd", '
        "#util.byte_pattern<1> : tensor<5xi8>, 7 : i32]} {}"
    )
    values = module.attributes["util.v"].data
    composite = ub.CompositeAttr.of(values[:3])
    assert composite is not None and composite.total_length.data == 6 + 4 + 5
    assert ub.CompositeAttr.of(values) is None


def test_packed_storage_sizes_follow_iree():
    """IREE's documented examples of its rounded physical storage size."""
    assert packed_storage_bytes(1, IntegerType(2)) == 1
    assert packed_storage_bytes(3, IntegerType(3)) == 2
    assert packed_storage_bytes(4, IntegerType(32)) == 16
    assert packed_storage_bytes(4, IntegerType(33)) == 32
    assert packed_storage_bytes(5, IntegerType(1)) == 5
    assert packed_storage_bytes(2, VectorType(IntegerType(8), [3])) is not None


def _effects(op) -> dict[MemoryEffectKind, set]:
    found: dict[MemoryEffectKind, set] = {}
    effects = memory_effects(op)
    assert effects is not None
    for effect in effects:
        found.setdefault(effect.kind, set()).add(effect.value)
    return found


def test_buffer_effects_name_the_buffers():
    module = parse(CASES["buffers"])
    ops = {op.name: op for op in module.walk()}
    copy = ops["util.buffer.copy"]
    assert _effects(copy) == {
        MemoryEffectKind.READ: {copy.source},
        MemoryEffectKind.WRITE: {copy.target},
    }
    alloc = ops["util.buffer.alloc"]
    assert _effects(alloc) == {MemoryEffectKind.ALLOC: {alloc.result}}
    slice_ = ops["util.buffer.slice"]
    assert _effects(slice_) == {
        MemoryEffectKind.READ: {slice_.source},
        MemoryEffectKind.ALLOC: {slice_.result},
    }
    dealloc = ops["util.buffer.dealloc"]
    assert _effects(dealloc) == {MemoryEffectKind.FREE: {dealloc.operand}}
    for name in ("util.buffer.subspan", "util.buffer.size", "util.buffer.constant"):
        assert memory_effects(ops[name]) == set()


def test_list_effects_name_the_list():
    module = parse(CASES["lists"])
    ops = {op.name: op for op in module.walk()}
    assert _effects(ops["util.list.get"]) == {MemoryEffectKind.READ: {ops["util.list.get"].list}}
    assert _effects(ops["util.list.set"]) == {MemoryEffectKind.WRITE: {ops["util.list.set"].list}}


def test_buffer_ops_state_their_sizes():
    from memplan.util_interfaces import SizeAware

    module = parse(CASES["buffers"])
    ops = {op.name: op for op in module.walk()}
    subspan = ops["util.buffer.subspan"]
    trait = subspan.get_trait(SizeAware)
    assert trait is not None
    assert trait.result_size(subspan, 0) is subspan.result_size
    assert trait.operand_size(subspan, 0) is subspan.source_size


@pytest.mark.parametrize(
    ("template", "count", "message"),
    [
        ("a{", 0, "unclosed '{' in format string"),
        ("a}", 0, "unmatched '}' in format string"),
        ("{x}", 1, "invalid placeholder '{x}' in format string; expected '{}' or '{N}'"),
        ("{}{0}", 2, "cannot mix sequential '{}' and explicit '{N}' placeholders"),
        ("{}", 2, "format string placeholder count does not match the 2 provided argument(s)"),
    ],
)
def test_format_string_errors_are_irees(template: str, count: int, message: str):
    assert ub.parse_format_string(template, count) == message


def test_format_string_segments():
    assert ub.parse_format_string("a{{{1}}}.{0}", 2) == ["a{", 1, "}.", 0]
