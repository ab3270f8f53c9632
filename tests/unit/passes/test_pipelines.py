"""Named pipelines: quoting of nested pipelines, options passed through, reports."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.utils.arg_spec import parse_pipeline

import memplan
from memplan.analysis.fingerprint import fingerprint
from memplan.diagnostics import UserError
from memplan.passes.fixed_point_iterator import FixedPointIterator
from memplan.passes.pipelines import StreamCleanup, fixed_point
from memplan.tools.pipeline import parse_pass_pipeline

SEED = (Path(__file__).resolve().parents[3] / "tests" / "lit" / "passes"
        / "stream-cleanup.mlir")


def _seed_with_function():
    text = SEED.read_text().split("// -----")[0]
    ctx = memplan.make_context()
    return ctx, memplan.parse(ctx, text)


def test_fixed_point_quotes_nested_pipelines_so_they_parse_back():
    inner = 'canonicalize,fixed-point-iterator{pipeline="cse" max-iterations=3}'
    text = fixed_point(fixed_point(inner), max_iterations=4, debug=True)
    (outer,) = parse_pipeline(text)
    assert outer.parameters["max-iterations"] == (4,)
    assert "debug" in outer.parameters
    (middle,) = parse_pipeline(outer.parameters["pipeline"][0])
    assert middle.parameters["pipeline"] == (inner,)


def test_stream_cleanup_is_the_iterator_over_the_cleanup_passes():
    (scheduled,) = parse_pass_pipeline("stream-cleanup{max-iterations=7}")
    assert scheduled.info.is_pipeline
    (nested,) = scheduled.instance._passes
    assert isinstance(nested.instance, FixedPointIterator)
    assert nested.instance.max_iterations == 7
    assert [p.name for p in nested.instance._passes] == [
        "canonicalize", "cse", "simplify-global-accesses", "apply-patterns",
        "fold-globals", "fuse-globals",
    ]


def test_stream_cleanup_reports_exactly_and_reaches_a_fixed_point():
    ctx, module = _seed_with_function()
    assert StreamCleanup().run(ctx, module) is True
    text = str(module)
    assert text.count("stream.tensor.encode") == 1
    assert "__auto" not in text and "_encoded_0" not in text
    before = fingerprint(module)
    assert StreamCleanup().run(ctx, module) is False
    assert fingerprint(module) == before


def test_stream_cleanup_fails_past_its_limit():
    ctx, module = _seed_with_function()
    with pytest.raises(UserError, match="did not converge within 2 iterations"):
        StreamCleanup(max_iterations=2).run(ctx, module)


@pytest.mark.parametrize("text, seconds", [("2", 2.0), ("0.25", 0.25), ("7", 7.0)])
def test_float_options_take_integers(text, seconds):
    (scheduled,) = parse_pass_pipeline(f"pool-allocs{{strategy=best time-limit={text}}}")
    assert scheduled.instance.time_limit == seconds
    assert isinstance(scheduled.instance.time_limit, float)
    (alias,) = parse_pass_pipeline(f"builtin.module(hip-pool-allocs{{time-limit={text}}})")
    assert alias.instance.time_limit == seconds


@pytest.mark.parametrize("text", ["0", "-1", "-0.5", "0.0"])
def test_time_limit_must_be_positive(text):
    with pytest.raises(UserError, match="time-limit must be a positive number of seconds"):
        parse_pass_pipeline(f"pool-allocs{{time-limit={text}}}")


def test_a_boolean_is_no_float():
    with pytest.raises(UserError, match="option 'time-limit' expects float"):
        parse_pass_pipeline("pool-allocs{time-limit=true}")


def test_int_options_still_refuse_floats():
    with pytest.raises(UserError, match="option 'alignment' expects int"):
        parse_pass_pipeline("pool-allocs{alignment=2.0}")
