"""What the tool tests share."""

from __future__ import annotations

import os
import subprocess

import pytest


@pytest.fixture
def run_with_closed_stdout():
    """Run a command whose stdout is a pipe nobody reads any more (a `| head` that
    has exited); returns the finished process, stderr captured as text."""

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            return subprocess.run(argv, stdout=write_end, stderr=subprocess.PIPE, text=True,
                                  timeout=120)
        finally:
            os.close(write_end)

    return run
