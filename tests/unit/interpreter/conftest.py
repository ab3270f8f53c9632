"""Parsing helpers for the interpreter tests."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp

from memplan.context import make_context
from memplan.tools.source import parse_module


@pytest.fixture
def parse():
    ctx = make_context()

    def parse_text(text: str) -> ModuleOp:
        return parse_module(ctx, text, "test.mlir")

    return parse_text
