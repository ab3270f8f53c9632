"""LLVM `cl` rules of memplan-opt's command line, on the parser alone."""

import pytest

from memplan.diagnostics import UserError
from memplan.tools.command_line import CommandLine, Option

LINE = CommandLine(
    "tool",
    (
        Option("o", "required", "output", dest="output", default="-"),
        Option("split-input-file", "optional", "split", const="// -----"),
        Option("verify-each", "flag", "verify", default=True),
        Option("mode", "required", "mode", choices=("a", "b"), default="a"),
        Option("print-after", "list", "dumps"),
    ),
    is_pass={"cse", "canonicalize"}.__contains__,
    pass_names=lambda: ("cse", "canonicalize"),
)


def test_one_or_two_dashes_and_any_order():
    one = LINE.parse(["-split-input-file", "in.mlir", "-cse"])
    two = LINE.parse(["--cse", "in.mlir", "--split-input-file"])
    for parsed in (one, two):
        assert parsed.positional == ["in.mlir"]
        assert parsed.split_input_file == "// -----"
        assert parsed.pass_flags == [("cse", None)]


def test_optional_values_only_after_equals():
    parsed = LINE.parse(["--split-input-file", "in.mlir"])
    assert parsed.positional == ["in.mlir"] and parsed.split_input_file == "// -----"
    assert LINE.parse(["--split-input-file=//==", "x"]).split_input_file == "//=="


def test_required_values_after_equals_or_as_next_argument():
    assert LINE.parse(["-o", "out.mlir"]).output == "out.mlir"
    assert LINE.parse(["-o=out.mlir"]).output == "out.mlir"
    with pytest.raises(UserError, match="requires a value"):
        LINE.parse(["-o"])
    with pytest.raises(UserError, match="takes one of a, b"):
        LINE.parse(["--mode=c"])


def test_flags_take_true_or_false():
    assert LINE.parse(["--verify-each=false"]).verify_each is False
    assert LINE.parse(["--verify-each=1"]).verify_each is True
    with pytest.raises(UserError, match="takes no value or true/false"):
        LINE.parse(["--verify-each=maybe"])


def test_lists_dash_and_double_dash():
    parsed = LINE.parse(["--print-after=cse", "-", "--print-after", "canonicalize", "--", "-odd"])
    assert parsed.print_after == ["cse", "canonicalize"]
    assert parsed.positional == ["-", "-odd"]


def test_pass_flags_keep_their_options_and_order():
    parsed = LINE.parse(["--canonicalize=max-iterations=2 top-down", "-cse"])
    assert parsed.pass_flags == [("canonicalize", "max-iterations=2 top-down"), ("cse", None)]


def test_unknown_options_suggest_the_closest_spelling():
    with pytest.raises(UserError, match="did you mean '--canonicalize'"):
        LINE.parse(["--canonicalise"])
    with pytest.raises(UserError, match="did you mean '--split-input-file'"):
        LINE.parse(["-split-inputfile"])
    with pytest.raises(UserError) as no_hint:
        LINE.parse(["--zzzzzz"])
    assert "did you mean" not in str(no_hint.value)
