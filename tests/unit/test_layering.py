"""memplan's imports run one way (docs/design/README.md draws the layers).

The import graph is read from the source with `ast`: every `import` and `from ...
import` of a memplan module, at module level, inside functions and under
`TYPE_CHECKING` alike (a lazy import hides a cycle from Python, not from this
test), relative or absolute, `from package import module` as an import of that
module. The graph has no cycle, and each module imports only its own layer and the
layers `LAYERS` lets it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

import memplan
from memplan.dialects import MOVED

SRC = Path(memplan.__file__).parent.parent

LAYERS: dict[str, tuple[str, ...]] = {
    # layer: the modules and packages in it (the longest match places a module)
    "base": (
        "memplan.diagnostics", "memplan.symbols", "memplan.files", "memplan.lazy_numpy", "memplan.providers",
        "memplan.signatures", "memplan.op_assembly", "memplan.walk",
    ),
    "planning": ("memplan.planning", "memplan.progress"),
    "interfaces": (
        "memplan.interfaces", "memplan.util_interfaces", "memplan.analysis.data_layout",
        "memplan.analysis.memref_layout",
    ),
    "syntax": ("memplan.printing", "memplan.parsing", "memplan.opaque", "memplan.verification"),
    "dialects": ("memplan.dialects",),
    "analysis": ("memplan.analysis",),
    "checker": ("memplan.checker",),
    "passes": ("memplan.passes", "memplan.report", "memplan.tools.pipeline"),
    "front": (
        "memplan", "memplan.context", "memplan.universe", "memplan.tools", "memplan.interpreter",
        "memplan.testing",
    ),
}
"""Where each module of the package stands, bottom to top."""

MAY_IMPORT: dict[str, set[str]] = {
    "base": set(),
    "planning": {"base"},
    "interfaces": {"base"},
    "syntax": {"base", "interfaces"},
    "dialects": {"base", "interfaces", "syntax"},
    "analysis": {"base", "planning", "interfaces", "syntax"},
    "checker": {"base", "interfaces"},
    "passes": {"base", "planning", "interfaces", "syntax", "dialects", "analysis", "checker"},
    "front": set(LAYERS),
}
"""The layers each layer may import besides its own. Nothing below `dialects`
imports a dialect: what a lower layer asks of ops is an interface (`interfaces`),
and what it needs at run time from above comes through `memplan.providers`."""

FORBIDDEN: dict[str, tuple[str, ...]] = {
    # importer prefix: imported prefixes it may not use although its layer may
    "memplan.passes": ("memplan.dialects.hip", "memplan.dialects.memplan_dialect"),
}
"""Passes learn what hip's ops and types are, and build and find context memory,
through `memplan.interfaces` alone."""

EXCEPTIONS: set[tuple[str, str]] = {
    # The byte-range models of xDSL's memref views compute with the analysis's
    # linear forms (`Linear`, `memref_footprint`); analysis imports no dialect.
    ("memplan.dialects.mlir.upstream_models", "memplan.analysis.byte_ranges"),
}
"""Edges allowed against the layers, each with its reason."""


def _module_names(root: Path, package: str) -> dict[str, Path]:
    """Dotted name -> file of every module of `package` under `root`."""
    names = {}
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def import_graph(root: Path, package: str, aliases: Mapping[str, str] = {}) -> dict[str, set[str]]:
    """Each module of `package` (found under `root`) -> the modules of the package
    it imports anywhere in its source. `aliases` maps old module paths to new ones."""
    modules = _module_names(root, package)

    def resolve(name: str) -> str | None:
        name = aliases.get(name, name)
        while name and name not in modules:  # `from a.b import C`: the module a.b
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        imported: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                imported |= {resolve(alias.name) for alias in node.names if alias.name.split(".")[0] == package}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module if is_package else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    source = f"{base}.{node.module}" if node.module else base
                else:
                    source = node.module or ""
                if source.split(".")[0] != package:
                    continue
                for alias in node.names:
                    submodule = aliases.get(f"{source}.{alias.name}", f"{source}.{alias.name}")
                    imported.add(submodule if submodule in modules else resolve(source))
        graph[module] = {name for name in imported if name is not None and name != module}
    return graph


def find_cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each
    sorted: every module of one imports, through the others, itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(root: str) -> None:
        # iterative depth-first search: (node, its remaining successors)
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(module: str) -> str | None:
    """The layer of the longest entry of `LAYERS` that is `module` or a package
    holding it; the root `memplan` places only itself."""
    best: tuple[int, str] | None = None
    for layer, entries in LAYERS.items():
        for entry in entries:
            matches = module == entry if entry == "memplan" else _within(module, entry)
            if matches and (best is None or len(entry) > best[0]):
                best = (len(entry), layer)
    return best[1] if best else None


def layer_violations(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Each import that `LAYERS`, `MAY_IMPORT` and `FORBIDDEN` do not allow (less
    `EXCEPTIONS`), and each module no layer places."""
    found = []
    for module in sorted(graph):
        layer = layer_of(module)
        if layer is None:
            found.append(f"{module}: in no layer (place it in LAYERS)")
            continue
        for target in sorted(graph[module]):
            if (module, target) in EXCEPTIONS:
                continue
            target_layer = layer_of(target)
            if target_layer is None:
                continue  # reported as a module of its own
            if target_layer != layer and target_layer not in MAY_IMPORT[layer]:
                found.append(f"{module} ({layer}) imports {target} ({target_layer})")
            for importer, banned in FORBIDDEN.items():
                if _within(module, importer) and any(_within(target, b) for b in banned):
                    found.append(f"{module} imports {target} (forbidden to {importer})")
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(SRC, "memplan", MOVED)


def test_the_walk_reads_the_package(graph):
    # A walk that found nothing would pass every check below.
    assert len(graph) > 100
    assert "memplan.dialects.iree.stream" in graph["memplan.dialects.iree.stream_cmd"]
    # a function-level import: memplan.make_context imports memplan.context
    assert "memplan.context" in graph["memplan"]


def test_no_import_cycle(graph):
    assert find_cycles(graph) == []


def test_imports_follow_the_layers(graph):
    assert layer_violations(graph) == []


def test_the_exceptions_are_still_needed(graph):
    assert [edge for edge in EXCEPTIONS if edge[1] not in graph.get(edge[0], ())] == []


def test_memplan_imports_the_dialects_by_their_family_paths():
    """The flat paths of `MOVED` are for code outside memplan."""
    uses = []
    for module, path in _module_names(SRC, "memplan").items():
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            uses += [f"{module}: {name} (now {MOVED[name]})" for name in names if name in MOVED]
    assert uses == []


# -- the checks can fail --------------------------------------------------------------


def test_a_cycle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"f"}, "f": {"e"}, "g": set()}
    assert find_cycles(graph) == [["a", "b", "c"], ["e", "f"]]


def test_a_cycle_through_a_lazy_relative_import_is_found(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "x.py").write_text("def f():\n    from .. import y\n    return y\n")
    (package / "y.py").write_text("from pkg.sub import x\n")
    (package / "z.py").write_text("import pkg.y\nfrom pkg.y import name\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.sub.x"] == {"pkg.y"} and graph["pkg.z"] == {"pkg.y"}
    assert find_cycles(graph) == [["pkg.sub.x", "pkg.y"]]


def test_a_forbidden_import_is_reported():
    graph = {
        "memplan.analysis.globals": {"memplan.dialects.iree.util", "memplan.interfaces"},
        "memplan.printing.structure": {"memplan.dialects"},
        "memplan.passes.cse": {"memplan.dialects.hip.base", "memplan.dialects.iree.stream"},
        "memplan.dialects.iree.util": {"memplan.passes.cse"},
        "memplan.interfaces": set(),
        "memplan.newcomer": set(),
    }
    assert layer_violations(graph) == [
        "memplan.analysis.globals (analysis) imports memplan.dialects.iree.util (dialects)",
        "memplan.dialects.iree.util (dialects) imports memplan.passes.cse (passes)",
        "memplan.newcomer: in no layer (place it in LAYERS)",
        "memplan.passes.cse imports memplan.dialects.hip.base (forbidden to memplan.passes)",
        "memplan.printing.structure (syntax) imports memplan.dialects (dialects)",
    ]
