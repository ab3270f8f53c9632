"""Building pass pipelines from mlir-opt's textual pipelines.

Grammar, as MLIR's `parsePassPipeline` reads it:

    pipeline := element (`,` element)*
    element  := NAME (`{` options `}`)?      a pass with its options
              | ANCHOR `(` pipeline `)`      a nested pipeline on ANCHOR ops
    options  := (KEY (`=` VALUE)?)*          separated by spaces

A VALUE runs to the next space outside quotes, braces and parentheses, so
`report=/tmp/plan.html`, `pipeline=cse,canonicalize` and `pipeline="cse,
canonicalize"` all work; a bare KEY of a boolean option means true. xDSL's `a,b`
form is the same text without anchors.

Anchors narrow a pass to the ops it names, as MLIR's pass manager does:
`builtin.module(func.func(cse))` runs `cse` on each `func.func` directly in the
module and on nothing else; `util.initializer(...)` and `util.func(...)` likewise;
`builtin.module(...)` nested once more runs on nested modules. memplan's passes are
module passes, so an anchored pass runs on the module with every other top-level
op that has regions set aside (see `Anchored`).
"""

from __future__ import annotations

import dataclasses
import difflib
import types
import typing
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.passes import ModulePass

from memplan.analysis.fingerprint import fingerprint
from memplan.diagnostics import UserError
from memplan.passes.base import MemplanPass
from memplan.passes.registry import PassInfo, pass_options, passes_by_name

MODULE = "builtin.module"


@irdl_op_definition
class _SetAside(IRDLOperation):
    """Holds the place of a top-level op an anchored pass must not see. No traits:
    passes treat it as an op of unknown effects and leave it alone."""

    name = "memplan.set_aside"


@dataclass(frozen=True)
class Anchored(MemplanPass):
    """Run `inner` only on the top-level ops named `anchor` (of a module reached
    through `path`, a chain of nested `builtin.module` anchors)."""

    name = "memplan-anchored"

    anchor: str = ""
    path: tuple[str, ...] = ()
    inner: ModulePass | None = None

    def run(self, ctx: Context, module: ModuleOp) -> bool:
        if self.path:
            changed = False
            for op in list(module.body.block.ops):
                if isinstance(op, ModuleOp):
                    nested = dataclasses.replace(self, path=self.path[1:])
                    changed |= nested.run(ctx, op)
            return changed
        assert self.inner is not None
        if self.anchor == MODULE:
            return _run(self.inner, ctx, module)
        block = module.body.block
        set_aside: list[tuple[Operation, Operation]] = []
        for op in list(block.ops):
            if op.name != self.anchor and op.regions:
                holder = _SetAside.create()
                block.insert_op_before(holder, op)
                op.detach()
                set_aside.append((holder, op))
        try:
            return _run(self.inner, ctx, module)
        finally:
            for holder, op in set_aside:
                if holder.parent is not None:
                    holder.parent.insert_op_before(op, holder)
                    holder.detach()
                holder.erase()


def _run(instance: ModulePass, ctx: Context, module: ModuleOp) -> bool:
    if isinstance(instance, MemplanPass):
        return instance.run(ctx, module)
    before = fingerprint(module)
    instance.apply(ctx, module)
    return fingerprint(module) != before


@dataclass(frozen=True)
class ScheduledPass:
    info: PassInfo
    instance: ModulePass
    """The pass to apply: the pass itself, or it wrapped in `Anchored`."""
    spelled: str
    """The name the user wrote (a peer alias, perhaps), for timing and dumps."""
    anchors: tuple[str, ...] = ()
    """The anchors around the pass below `builtin.module` (`func.func`)."""

    @property
    def pass_instance(self) -> ModulePass:
        """The pass itself, without its anchor."""
        instance = self.instance
        while isinstance(instance, Anchored) and instance.inner is not None:
            instance = instance.inner
        return instance

    @property
    def title(self) -> str:
        """MLIR's `CSE (cse)`: the pass's class name and the name it was given."""
        return f"{type(self.pass_instance).__name__} ({self.spelled})"

    def run(self, ctx: Context, module: ModuleOp) -> None:
        self.instance.apply(ctx, module)


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(_option_text(v) for v in value)
    if isinstance(value, str) and (not value or any(c in value for c in ' ,{}()"')):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def describe_pass(scheduled: ScheduledPass) -> str:
    """`name{opt=value ...}` with every option, as `--dump-pass-pipeline` shows it."""
    instance = scheduled.pass_instance
    options = [
        f"{o.spelled}={_option_text(getattr(instance, o.field_name))}"
        for o in sorted(pass_options(type(instance)), key=lambda o: o.spelled)
        if getattr(instance, o.field_name) not in (None, ())
    ]
    text = scheduled.info.name + ("{" + " ".join(options) + "}" if options else "")
    for anchor in reversed(scheduled.anchors):
        text = f"{anchor}({text})"
    return text


def describe_pipeline(passes: list[ScheduledPass]) -> str:
    """The pipeline as `--dump-pass-pipeline` prints it: `builtin.module(...)`."""
    return f"{MODULE}(" + ",".join(describe_pass(p) for p in passes) + ")"


def _check_balanced(text: str) -> None:
    depth = {"(": 0, "{": 0}
    in_quote = False
    index = 0
    while index < len(text):
        ch = text[index]
        if in_quote:
            if ch == "\\":
                index += 1
            elif ch == '"':
                in_quote = False
        elif ch == '"':
            in_quote = True
        elif ch in "({":
            depth[ch] += 1
        elif ch in ")}":
            opener = "(" if ch == ")" else "{"
            depth[opener] -= 1
            if depth[opener] < 0:
                raise UserError(f"unbalanced '{ch}' in pass pipeline '{text}'")
        index += 1
    if in_quote or any(depth.values()):
        raise UserError(
            f"unbalanced quotes, braces or parentheses in pass pipeline '{text}'"
        )


class _Reader:
    """A cursor over pipeline text (balance already checked)."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def skip_spaces(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_spaces()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self) -> str:
        self.skip_spaces()
        start = self.pos
        while self.pos < len(self.text) and (
            self.text[self.pos].isalnum() or self.text[self.pos] in "._-"
        ):
            self.pos += 1
        return self.text[start : self.pos]

    def enclosed(self, close: str) -> str:
        """The text up to the `close` that matches the opener just consumed."""
        start = self.pos
        depth = 1
        in_quote = False
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            self.pos += 1
            if in_quote:
                if ch == "\\":
                    self.pos += 1
                elif ch == '"':
                    in_quote = False
            elif ch == '"':
                in_quote = True
            elif ch in "{(":
                depth += 1
            elif ch in "})":
                depth -= 1
                if depth == 0:
                    return self.text[start : self.pos - 1]
        raise UserError(f"unbalanced quotes, braces or parentheses in pass pipeline '{self.text}'")


def _split_top_level(text: str, separators: str) -> list[str]:
    """Pieces of `text` between `separators` outside quotes, braces and parentheses."""
    pieces: list[str] = []
    current: list[str] = []
    depth = 0
    in_quote = ""
    index = 0
    while index < len(text):
        ch = text[index]
        if in_quote:
            current.append(ch)
            if ch == "\\" and index + 1 < len(text):
                current.append(text[index + 1])
                index += 1
            elif ch == in_quote:
                in_quote = ""
        elif ch in "\"'":
            in_quote = ch
            current.append(ch)
        elif ch in "{([":
            depth += 1
            current.append(ch)
        elif ch in "})]":
            depth -= 1
            current.append(ch)
        elif ch in separators and depth == 0:
            pieces.append("".join(current))
            current = []
        else:
            current.append(ch)
        index += 1
    pieces.append("".join(current))
    return pieces


def _unquote(value: str) -> str:
    """MLIR's option values: `"..."` and `'...'` lose their quotes (`\\"` is a quote),
    and `{...}` its braces (MLIR's way of passing text with spaces)."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        body = value[1:-1]
        out: list[str] = []
        index = 0
        while index < len(body):
            if body[index] == "\\" and index + 1 < len(body):
                index += 1
            out.append(body[index])
            index += 1
        return "".join(out)
    if len(value) >= 2 and value[0] == "{" and value[-1] == "}":
        return value[1:-1]
    return value


def parse_options(text: str) -> list[tuple[str, str | None]]:
    """`a=1 b="x y" c` as `[("a", "1"), ("b", "x y"), ("c", None)]`."""
    options: list[tuple[str, str | None]] = []
    for piece in _split_top_level(text.strip(), " \t\n"):
        if not piece:
            continue
        key, has_value, value = piece.partition("=")
        options.append((key, _unquote(value) if has_value else None))
    return options


def _parse_elements(
    reader: _Reader, text: str, anchors: tuple[str, ...]
) -> list[ScheduledPass]:
    passes: list[ScheduledPass] = []
    if not reader.peek() or reader.peek() == ")":
        return passes
    while True:
        name = reader.name()
        if not name:
            raise UserError(f"invalid pass pipeline '{text}': Expected pass name here")
        if reader.peek() == "(":
            reader.pos += 1
            inner = _Reader(reader.enclosed(")"))
            passes.extend(_parse_elements(inner, text, (*anchors, name)))
        else:
            options = ""
            if reader.peek() == "{":
                reader.pos += 1
                options = reader.enclosed("}")
            passes.append(instantiate(name, parse_options(options), anchors))
        following = reader.peek()
        if not following:
            return passes
        if following != ",":
            raise UserError(
                f"invalid pass pipeline '{text}': expected ',' after '{name}', "
                f"got '{following}'"
            )
        reader.pos += 1


def parse_pass_pipeline(text: str) -> list[ScheduledPass]:
    """Turn pipeline text into pass instances, with one clear error for any fault."""
    text = text.strip()
    _check_balanced(text)
    if not text.strip(" ,"):
        return []
    return _parse_elements(_Reader(text), text, ())


def _anchored(instance: ModulePass, anchors: tuple[str, ...]) -> ModulePass:
    """`instance` wrapped so it runs on `anchors`' ops only; a leading
    `builtin.module` is the module the tool runs on."""
    rest = anchors[1:] if anchors and anchors[0] == MODULE else anchors
    if not rest:
        return instance
    *modules, last = rest
    if any(a != MODULE for a in modules):
        raise UserError(
            f"pass anchors nest only below '{MODULE}': "
            f"'{'('.join(anchors)}(' cannot be scheduled"
        )
    return Anchored(anchor=last, path=tuple(modules), inner=instance)


def _suggest(name: str, known: typing.Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def instantiate(
    name: str, options: list[tuple[str, str | None]], anchors: tuple[str, ...] = ()
) -> ScheduledPass:
    table = passes_by_name()
    info = table.get(name)
    if info is None:
        hint = _suggest(name, table) or " (memplan-opt --help lists them)"
        raise UserError(f"'{name}' does not refer to a registered pass{hint}")
    cls = info.load()
    try:
        instance = cls(**_option_values(name, cls, options))
    except UserError:
        raise
    except (ValueError, TypeError) as error:
        raise UserError(f"invalid options for pass '{name}': {error}") from None
    shown = anchors[1:] if anchors[:1] == (MODULE,) else anchors
    return ScheduledPass(info, _anchored(instance, anchors), name, shown)


_TRUE = {"true", "1", "on", "yes"}
_FALSE = {"false", "0", "off", "no"}
_TYPE_WORDS = {bool: "bool", int: "int", float: "float", str: "str"}


def _option_values(
    pass_name: str, cls: type[ModulePass], options: list[tuple[str, str | None]]
) -> dict[str, object]:
    """Each `key=value` converted to its dataclass field's type, named in MLIR's
    spelling (`host-ordering`) when wrong."""
    known = {o.spelled: o for o in pass_options(cls)}
    hints = typing.get_type_hints(cls)
    values: dict[str, object] = {}
    for key, text in options:
        option = known.get(key) or known.get(key.replace("_", "-"))
        if option is None:
            listed = ", ".join(sorted(known)) if known else "none"
            raise UserError(
                f"invalid options for pass '{pass_name}': no option '{key}' "
                f"(its options: {listed}){_suggest(key, known)}"
            )
        try:
            values[option.field_name] = _convert(hints.get(option.field_name, str), text)
        except ValueError as error:
            raise UserError(
                f"invalid options for pass '{pass_name}': option '{key}' {error}"
            ) from None
    return values


def _convert(hint: object, text: str | None) -> object:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        if len(real) == 1:
            return _convert(real[0], text)
    if origin is typing.Literal:
        if text in args:
            return text
        raise ValueError(
            f"expects one of {', '.join(map(str, args))}, got '{text}'"
            f"{_suggest(text or '', map(str, args))}"
        )
    if origin is tuple:
        element = args[0] if args else str
        if not text:
            return ()
        return tuple(_convert(element, piece.strip()) for piece in _split_top_level(text, ","))
    if hint is bool:
        if text is None or text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(f"expects bool, got '{text}'")
    if text is None:
        raise ValueError(f"expects {_TYPE_WORDS.get(hint, 'a value')}, got no value")  # type: ignore[arg-type]
    if hint is int:
        try:
            return int(text, 0) if text.lower().startswith(("0x", "-0x")) else int(text)
        except ValueError:
            raise ValueError(f"expects int, got '{text}'") from None
    if hint is float:
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"expects float, got '{text}'") from None
    return text


def pass_spec_from_flag(name: str, options: str | None) -> str:
    """`--NAME=opts` on the command line, as pipeline text `NAME{opts}`."""
    if options is None or options == "":
        return name
    options = options.strip()
    if options.startswith("{") and options.endswith("}"):
        return name + options
    return name + "{" + options + "}"


__all__ = [
    "Anchored",
    "ScheduledPass",
    "describe_pipeline",
    "instantiate",
    "parse_options",
    "parse_pass_pipeline",
    "pass_spec_from_flag",
]
