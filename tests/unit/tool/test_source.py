"""Line bookkeeping and input splitting of memplan-opt."""

from memplan.tools.expected_diagnostics import check, collect_expectations
from memplan.diagnostics import Diagnostic, Location
from memplan.tools.pipeline import parse_options, parse_pass_pipeline, pass_spec_from_flag
from memplan.tools.source import LineIndex, split_input


def test_line_index_maps_offsets_to_one_based_line_and_column():
    text = "ab\ncde\n\nf"
    index = LineIndex(text)
    assert index.line_col(0) == (1, 1)
    assert index.line_col(1) == (1, 2)
    assert index.line_col(3) == (2, 1)
    assert index.line_col(5) == (2, 3)
    assert index.line_col(7) == (3, 1)
    assert index.line_col(8) == (4, 1)


def test_split_keeps_file_line_numbers():
    text = "a\nb\n// -----\nc\n  // -----  \nd\n"
    chunks = split_input(text, split=True)
    assert [c.first_line for c in chunks] == [1, 4, 6]
    # The blank lines in front make line N of a chunk line N of the file.
    assert chunks[1].text.splitlines()[3] == "c"
    assert chunks[2].text.splitlines()[5] == "d"


def test_no_split_gives_the_whole_text():
    assert [c.text for c in split_input("x\n// -----\ny", split=False)] == [
        "x\n// -----\ny"
    ]


def test_expectations_resolve_relative_lines():
    text = "\n".join(
        [
            "// expected-error @+1 {{bad thing}}",
            "op1",
            "op2 // expected-warning {{careful}}",
            "// expected-remark @above {{noted}}",
            "// expected-note @-4 {{far}}",
        ]
    )
    found = collect_expectations(text, "f.mlir")
    assert [(e.severity, e.location.line, e.text) for e in found] == [
        ("error", 2, "bad thing"),
        ("warning", 3, "careful"),
        ("remark", 3, "noted"),
        ("note", 1, "far"),
    ]


def test_check_reports_unexpected_and_missing_diagnostics():
    expected = collect_expectations("// expected-error @+1 {{boom}}\nx\n", "f")
    assert check(expected, [Diagnostic("error", "it went boom", Location("f", 2, 1))]) == []
    expected = collect_expectations("// expected-error @+1 {{boom}}\nx\n", "f")
    problems = check(expected, [Diagnostic("error", "other", Location("f", 2, 1))])
    messages = sorted(p.message for p in problems)
    assert messages == ['expected error "boom" was not produced', "unexpected error: other"]


def test_pipeline_anchors_are_kept_per_pass():
    cse, canon = parse_pass_pipeline("builtin.module(util.initializer(cse),util.func(canonicalize))")
    assert (cse.anchors, canon.anchors) == (("util.initializer",), ("util.func",))
    assert cse.instance.anchor == "util.initializer"
    (plain,) = parse_pass_pipeline("builtin.module(cse)")
    assert plain.anchors == () and plain.instance is plain.pass_instance


def test_options_split_on_spaces_outside_quotes_and_braces():
    assert parse_options('a=1 b="x y" c  d={p q} e=/tmp/r.html f=\'s\' g="q\\"h"') == [
        ("a", "1"), ("b", "x y"), ("c", None), ("d", "p q"), ("e", "/tmp/r.html"),
        ("f", "s"), ("g", 'q"h'),
    ]


def test_pass_flag_options_become_pipeline_options():
    assert pass_spec_from_flag("optimize-memrefs", None) == "optimize-memrefs"
    assert (
        pass_spec_from_flag("optimize-memrefs", "host-ordering=false")
        == "optimize-memrefs{host-ordering=false}"
    )


def test_bare_boolean_option_means_true():
    from memplan.tools.pipeline import parse_pass_pipeline

    (scheduled,) = parse_pass_pipeline("optimize-memrefs{debug host-ordering=false}")
    assert scheduled.instance.debug is True
    assert scheduled.instance.host_ordering is False


def test_explicit_unknown_location_stays_unknown(tmp_path):
    # IREE prints ops it made without a source place as `loc(unknown)`; taking
    # this file's line instead would print another location back, and a vmfb
    # built from the output would differ from IREE's own.
    from memplan.tools.memplan_opt import main

    source = tmp_path / "in.mlir"
    source.write_text(
        "func.func @f() {\n"
        "  %c = arith.constant 1 : index loc(unknown)\n"
        "  %d = arith.constant 2 : index\n"
        "  return loc(unknown)  \n"
        "}\n")
    out = tmp_path / "out.mlir"
    assert main(["--mlir-print-debuginfo", str(source), "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[2].endswith("arith.constant 1 : index loc(unknown)")
    assert lines[3].endswith(f'loc("{source}":3:3)')
    assert lines[4].strip() == "return loc(unknown)"
