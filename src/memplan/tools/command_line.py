"""A command line parsed as LLVM's `cl` parses mlir-opt's, so peers' RUN lines work.

The rules, as in `llvm/Support/CommandLine`:
- every long option is spelled with one dash or two (`-split-input-file`,
  `--split-input-file`);
- a flag takes no value, or `=true`/`=false` (`--verify-each=false`);
- an option with an optional value takes it only after `=`, so
  `--split-input-file %s` keeps `%s` as the input file (MLIR's
  `--split-input-file=MARKER`);
- an option with a required value takes it after `=` or as the next argument
  (`-o out.mlir`, `-o=out.mlir`);
- options and the positional input file come in any order; `-` is stdin and `--`
  ends the options;
- an unknown option is an error that suggests the closest known spelling.

The tool's passes are options too (`--canonicalize='max-iterations=3'`); a
`PassFlag` hook turns them into pipeline text, in command-line order.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from memplan.diagnostics import UserError

Kind = Literal["flag", "optional", "required", "list"]


@dataclass(frozen=True)
class Option:
    name: str
    """The spelling without dashes (`split-input-file`, `o`)."""
    kind: Kind
    help: str
    dest: str = ""
    """The attribute of the parsed namespace; `name` with `_` by default."""
    default: Any = None
    const: Any = None
    """The value of an `optional` option given without `=`."""
    value_name: str = "value"
    choices: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    hidden: bool = False

    @property
    def attribute(self) -> str:
        return self.dest or self.name.replace("-", "_")


@dataclass
class Namespace:
    """The parsed options as attributes, plus the positional arguments."""

    values: dict[str, Any] = field(default_factory=dict)
    positional: list[str] = field(default_factory=list)
    pass_flags: list[tuple[str, str | None]] = field(default_factory=list)
    """`(name, options or None)` of every pass flag, in command-line order."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None


_TRUE = {"true", "1", "on", "yes", ""}
_FALSE = {"false", "0", "off", "no"}


def _as_bool(option: Option, value: str) -> bool:
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise UserError(
        f"option '--{option.name}' takes no value or true/false, got '{value}'"
    )


@dataclass
class CommandLine:
    """The options of one tool, and `parse` that applies LLVM's rules to argv."""

    tool: str
    options: Sequence[Option]
    is_pass: Callable[[str], bool] = lambda _name: False
    pass_names: Callable[[], Iterable[str]] = lambda: ()

    def __post_init__(self) -> None:
        self._table: dict[str, Option] = {}
        for option in self.options:
            for name in (option.name, *option.aliases):
                self._table[name] = option

    def parse(self, argv: Sequence[str]) -> Namespace:
        result = Namespace()
        for option in self.options:
            default = option.default
            result.values[option.attribute] = (
                list(default or ()) if option.kind == "list" else default
            )
        arguments = list(argv)
        index = 0
        while index < len(arguments):
            arg = arguments[index]
            index += 1
            if arg == "--":
                result.positional.extend(arguments[index:])
                break
            if arg == "-" or not arg.startswith("-"):
                result.positional.append(arg)
                continue
            body = arg[2:] if arg.startswith("--") else arg[1:]
            name, has_value, value = body.partition("=")
            option = self._table.get(name)
            if option is None:
                if self.is_pass(name):
                    result.pass_flags.append((name, value if has_value else None))
                    continue
                raise UserError(self._unknown(arg, name))
            if option.kind == "flag":
                result.values[option.attribute] = _as_bool(option, value) if has_value else True
                continue
            if option.kind == "optional":
                parsed: Any = value if has_value else option.const
            else:
                if not has_value:
                    if index >= len(arguments):
                        raise UserError(f"option '{arg}' requires a value")
                    value = arguments[index]
                    index += 1
                parsed = value
            if option.choices and parsed not in option.choices:
                raise UserError(
                    f"option '--{option.name}' takes one of "
                    f"{', '.join(option.choices)}; got '{parsed}'"
                )
            if option.kind == "list":
                result.values[option.attribute].append(parsed)
            else:
                result.values[option.attribute] = parsed
        return result

    def _unknown(self, spelled: str, name: str) -> str:
        known = [*self._table, *self.pass_names()]
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        message = f"unknown command line argument '{spelled}' (try '{self.tool} --help')"
        if close:
            message += f"; did you mean '--{close[0]}'?"
        return message

    def help(self) -> str:
        """The options, one per line with their help, as `--help` lists them."""
        lines = [f"USAGE: {self.tool} [options] <input file>", "", "OPTIONS:"]
        for option in self.options:
            if option.hidden:
                continue
            dashes = "-" if len(option.name) == 1 else "--"
            spelled = f"{dashes}{option.name}"
            if option.kind == "optional":
                spelled += f"[={option.value_name}]"
            elif option.kind in ("required", "list"):
                spelled += f"={option.value_name}"
            text = option.help
            if option.choices:
                text += f" (one of: {', '.join(option.choices)})"
            lines.append(f"  {spelled:<38} {text}")
        return "\n".join(lines)
