"""MLIR's `--verify-diagnostics`: match `expected-*` comments against what was emitted.

Syntax, as in MLIR: `// expected-error {{text}}` on the line of the fault,
`@+N`/`@-N` for a line N below/above the comment, `@above`/`@below` for the
neighbouring line; `expected-warning`, `expected-remark`, `expected-note` likewise.
A diagnostic matches when severity and line agree and the expected text is a
substring of its message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memplan.diagnostics import Diagnostic, Location

_EXPECTED = re.compile(
    r"expected-(?P<severity>error|warning|remark|note)"
    r"\s*(?:@(?P<offset>[+-]\d+|above|below))?"
    r"\s*(?:\s(?P<count>\d+))?\s*\{\{(?P<text>.*?)\}\}"
)


@dataclass
class Expectation:
    severity: str
    text: str
    location: Location
    """Where the diagnostic is expected."""
    comment: Location
    """Where the `expected-*` comment is, to report it when nothing matched."""
    remaining: int = 1


def collect_expectations(text: str, file: str) -> list[Expectation]:
    found: list[Expectation] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if "expected-" not in line:
            continue
        for match in _EXPECTED.finditer(line):
            offset = match.group("offset")
            target = number
            if offset == "above":
                target = number - 1
            elif offset == "below":
                target = number + 1
            elif offset is not None:
                target = number + int(offset)
            column = match.start() + 1
            count = int(match.group("count") or 1)
            found.append(
                Expectation(
                    match.group("severity"),
                    match.group("text"),
                    Location(file, target, column),
                    Location(file, number, column),
                    count,
                )
            )
    return found


def check(
    expected: list[Expectation], emitted: list[Diagnostic], *, only_expected: bool = False
) -> list[Diagnostic]:
    """The errors to report: emitted diagnostics nobody expected, and expectations
    that nothing produced. With `only_expected` (MLIR's
    `--verify-diagnostics=only-expected`) unexpected diagnostics are ignored."""
    problems: list[Diagnostic] = []
    for diagnostic in emitted:
        match = next(
            (
                e
                for e in expected
                if e.remaining > 0
                and e.severity == diagnostic.severity
                and diagnostic.location is not None
                and e.location.line == diagnostic.location.line
                and e.text in diagnostic.message
            ),
            None,
        )
        if match is None and not only_expected:
            problems.append(
                Diagnostic(
                    "error",
                    f"unexpected {diagnostic.severity}: {diagnostic.message}",
                    diagnostic.location,
                )
            )
        elif match is not None:
            match.remaining -= 1
    for e in expected:
        if e.remaining > 0:
            problems.append(
                Diagnostic(
                    "error",
                    f'expected {e.severity} "{e.text}" was not produced',
                    e.comment,
                )
            )
    return problems
