"""The design docs stay true to the registry: every pass has a page and a row, and
its page names every option."""

import dataclasses
import re
from pathlib import Path

from memplan.passes.registry import PASSES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "design"


def passes_table() -> str:
    rows = ["| pass | peer aliases | what it does |", "|---|---|---|"]
    for info in sorted(PASSES, key=lambda p: p.name):
        aliases = ", ".join(f"`{a}`" for a in info.aliases)
        rows.append(f"| [`{info.name}`]({info.name}.md) | {aliases} | {info.summary} |")
    return "\n".join(rows) + "\n"


def test_every_pass_has_a_design_page():
    missing = [info.name for info in PASSES if not (DOCS / f"{info.name}.md").exists()]
    assert missing == []


def test_pass_table_matches_the_registry():
    text = (DOCS / "README.md").read_text()
    marker = "<!-- passes-table"
    assert marker in text
    table = text[text.index(marker) :].split("\n", 1)[1]
    assert table == passes_table(), (
        "docs/design/README.md's pass table is stale; regenerate it with\n"
        "python -c 'import tests.unit.test_docs as t; print(t.passes_table())'"
    )


def test_every_option_is_named_on_its_pass_page():
    """Each init field of the pass class (bar `name`), in kebab-case, appears on the
    pass's page in backticks (`max-iterations`, `max-iterations=3`)."""
    missing: dict[str, list[str]] = {}
    for info in PASSES:
        cls = info.load()
        assert dataclasses.is_dataclass(cls), info.name
        options = [
            f.name.replace("_", "-")
            for f in dataclasses.fields(cls)
            if f.init and f.name != "name" and not f.name.startswith("_")
        ]
        page = (DOCS / f"{info.name}.md").read_text()
        absent = [o for o in options if not re.search(rf"`{re.escape(o)}(?![\w-])", page)]
        if absent:
            missing[info.name] = absent
    assert missing == {}, f"options not named on their pass's page in docs/design/: {missing}"
