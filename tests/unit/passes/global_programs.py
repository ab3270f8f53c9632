"""Random straight-line programs over globals, and an interpreter for them.

The globals passes are checked against what the program computes: run the
initializers, then a sequence of calls, and compare every value the functions
return. A value read from a global that was never given one is undefined, and any
value refines it.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue

UNDEF = object()


@dataclass(frozen=True)
class GlobalDecl:
    name: str
    private: bool
    mutable: bool
    initial: int | None


Statement = tuple
"""("load", g) or ("store", source, g); the source is ("arg",), ("const", c),
("val", k) (the k-th load's result) or ("same", i) (the value statement i stored)."""


@dataclass(frozen=True)
class Program:
    globals: tuple[GlobalDecl, ...]
    initializers: tuple[tuple[Statement, ...], ...]
    functions: tuple[tuple[Statement, ...], ...]
    calls: tuple[tuple[int, int], ...]
    """(function index, argument) in call order."""

    def text(self) -> str:
        lines: list[str] = []
        for g in self.globals:
            vis = "private" if g.private else "public"
            mut = " mutable" if g.mutable else ""
            init = f" = {g.initial} : index" if g.initial is not None else " : index"
            lines.append(f"util.global {vis}{mut} @{g.name}{init}")
        for body in self.initializers:
            lines.append("util.initializer {")
            lines += _body(body, self.globals, has_arg=False)
            lines.append("  util.return")
            lines.append("}")
        for i, body in enumerate(self.functions):
            loads = sum(1 for s in body if s[0] == "load")
            results = ", ".join(["index"] * loads)
            lines.append(f"util.func public @f{i}(%arg0: index) -> ({results}) {{")
            lines += _body(body, self.globals, has_arg=True)
            values = ", ".join(f"%v{k}" for k in range(loads))
            lines.append(f"  util.return {values} : {results}" if loads else "  util.return")
            lines.append("}")
        return "\n".join(lines) + "\n"


def _body(body, globals_, *, has_arg: bool) -> list[str]:
    lines: list[str] = []
    loads = 0
    constants = 0
    stored: dict[int, str] = {}
    for index, statement in enumerate(body):
        if statement[0] == "load":
            lines.append(f"  %v{loads} = util.global.load @{globals_[statement[1]].name} : index")
            loads += 1
            continue
        _, source, g = statement
        if source[0] == "arg":
            value = "%arg0"
        elif source[0] == "const":
            value = f"%c{constants}"
            lines.append(f"  {value} = arith.constant {source[1]} : index")
            constants += 1
        elif source[0] == "same":
            value = stored[source[1]]
        else:
            value = f"%v{source[1]}"
        lines.append(f"  util.global.store {value}, @{globals_[g].name} : index")
        stored[index] = value
    return lines


@st.composite
def programs(
    draw, max_globals: int = 4, max_functions: int = 3, pair_odds: int = 3
) -> Program:
    """Programs whose stores are followed, one time in `pair_odds`, by a store of
    the same value to the stored global's twin (what fuse-globals looks for)."""
    n_globals = draw(st.integers(1, max_globals))
    n_functions = draw(st.integers(1, max_functions))
    n_initializers = draw(st.integers(0, 2))
    order = draw(st.permutations(range(n_globals)))
    twin = list(range(n_globals))  # paired up: the twin of a twin is the global
    for a, b in zip(order[::2], order[1::2]):
        twin[a], twin[b] = b, a

    def bodies(count: int, has_arg: bool):
        result = []
        for _ in range(count):
            body: list[Statement] = []
            loads = 0
            for _ in range(draw(st.integers(0, 6))):
                if draw(st.booleans()):
                    body.append(("load", draw(st.integers(0, n_globals - 1))))
                    loads += 1
                    continue
                kinds = ["const"] + (["arg"] if has_arg else []) + (["val"] if loads else [])
                kind = draw(st.sampled_from(kinds))
                if kind == "const":
                    source: tuple = ("const", draw(st.integers(0, 2)))
                elif kind == "arg":
                    source = ("arg",)
                else:
                    source = ("val", draw(st.integers(0, loads - 1)))
                target = draw(st.integers(0, n_globals - 1))
                body.append(("store", source, target))
                if draw(st.integers(1, pair_odds)) == 1:
                    first = len(body) - 1
                    if draw(st.integers(0, 3)) == 0:  # a load that sees them differ
                        body.append(("load", draw(st.sampled_from([target, twin[target]]))))
                        loads += 1
                    body.append(("store", ("same", first), twin[target]))
            result.append(tuple(body))
        return tuple(result)

    initializers = bodies(n_initializers, False)
    functions = bodies(n_functions, True)
    stored_in_functions = {s[2] for body in functions for s in body if s[0] == "store"}
    decls = tuple(
        GlobalDecl(
            f"g{i}",
            private=draw(st.integers(0, 4)) > 0,
            mutable=i in stored_in_functions or draw(st.booleans()),
            initial=draw(st.none() | st.integers(0, 2)),
        )
        for i in range(n_globals)
    )
    calls = tuple(
        (draw(st.integers(0, n_functions - 1)), draw(st.integers(0, 2)))
        for _ in range(draw(st.integers(0, 5)))
    )
    return Program(decls, initializers, functions, calls)


# --------------------------------------------------------------------------------
# The interpreter
# --------------------------------------------------------------------------------


def _run_block(ops, env: dict[str, object], values: dict[SSAValue, object]) -> tuple:
    for op in ops:
        name = op.name
        if name == "arith.constant":
            attr = op.properties["value"]
            assert isinstance(attr, IntegerAttr)
            values[op.results[0]] = attr.value.data
        elif name == "util.global.load":
            values[op.results[0]] = env.get(op.properties["global"].root_reference.data, UNDEF)
        elif name == "util.global.store":
            env[op.properties["global"].root_reference.data] = values[op.operands[0]]
        elif name == "util.return":
            return tuple(values[v] for v in op.operands)
        else:
            raise AssertionError(f"the interpreter does not know {name}")
    return ()


def execute(module: ModuleOp, calls) -> list[tuple]:
    """Initial values and initializers in module order, then the calls; the values
    each call returns."""
    env: dict[str, object] = {}
    functions: dict[str, Operation] = {}
    for op in module.body.block.ops:
        if op.name == "util.global":
            value = op.properties.get("initial_value")
            if value is not None:
                assert isinstance(value, IntegerAttr)
                env[op.properties["sym_name"].data] = value.value.data
        elif op.name == "util.initializer":
            _run_block(op.regions[0].block.ops, env, {})
        elif op.name == "util.func":
            functions[op.properties["sym_name"].data] = op
    results = []
    for index, arg in calls:
        function = functions[f"f{index}"]
        block = function.regions[0].block
        results.append(_run_block(block.ops, env, {block.args[0]: arg}))
    return results


def refines(before: list[tuple], after: list[tuple]) -> bool:
    """Whether every value `after` returns is the one `before` returns, or `before`
    returned an undefined value there."""
    if len(before) != len(after):
        return False
    for old, new in zip(before, after):
        if len(old) != len(new):
            return False
        for a, b in zip(old, new):
            if a is not UNDEF and a != b:
                return False
    return True
