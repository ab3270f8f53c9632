"""Building pass pipelines from mlir-opt style text.

Accepts xDSL's `a,b{opt=1}` form and MLIR's `builtin.module(a,b{opt=1})`. MLIR's
op-anchored nesting (`func.func(cse)`, `util.initializer(...)`) is accepted and
flattened: every memplan pass is a module pass that visits each function and
initializer itself, so an anchor narrows nothing.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError

from memplan.diagnostics import UserError
from memplan.passes.registry import PassInfo, passes_by_name


@dataclass(frozen=True)
class ScheduledPass:
    info: PassInfo
    instance: ModulePass
    spelled: str
    """The name the user wrote (a peer alias, perhaps), for timing and dumps."""


def _strip_anchors(text: str) -> str:
    """Remove `anchor(` ... `)` wrappers outside option braces and quotes."""
    out: list[str] = []
    depth_braces = 0
    in_quote = False
    i = 0
    opened_anchor: list[bool] = []
    while i < len(text):
        ch = text[i]
        if in_quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif ch == '"':
                in_quote = False
        elif ch == '"':
            in_quote = True
            out.append(ch)
        elif ch == "{":
            depth_braces += 1
            out.append(ch)
        elif ch == "}":
            depth_braces -= 1
            out.append(ch)
        elif ch == "(" and depth_braces == 0:
            # Drop the anchor name written just before the parenthesis.
            j = len(out)
            while j > 0 and (out[j - 1].isalnum() or out[j - 1] in "._-"):
                j -= 1
            del out[j:]
            opened_anchor.append(True)
        elif ch == ")" and depth_braces == 0:
            if not opened_anchor:
                raise UserError(f"unbalanced ')' in pass pipeline '{text}'")
            opened_anchor.pop()
        else:
            out.append(ch)
        i += 1
    if in_quote or depth_braces or opened_anchor:
        raise UserError(f"unbalanced quotes, braces or parentheses in pass pipeline '{text}'")
    return "".join(out)


def parse_pass_pipeline(text: str) -> list[ScheduledPass]:
    """Turn pipeline text into pass instances, with one clear error for any fault."""
    flat = _strip_anchors(text.strip())
    try:
        specs = [s for s in parse_pipeline(flat)] if flat.strip(" ,") else []
    except ArgSpecParseError as error:
        detail = str(error).splitlines()[-1].strip() if str(error) else ""
        raise UserError(f"invalid pass pipeline '{text}': {detail}") from None
    except ValueError as error:
        raise UserError(f"invalid pass pipeline '{text}': {error}") from None
    return [instantiate(spec) for spec in specs]


def instantiate(spec: ArgSpec) -> ScheduledPass:
    table = passes_by_name()
    info = table.get(spec.name)
    if info is None:
        raise UserError(
            f"'{spec.name}' does not refer to a registered pass "
            f"(memplan-opt --help lists them)"
        )
    cls = info.load()
    _check_options(spec, cls)
    parameters = _ints_as_floats(cls, _bare_flags_as_true(cls, spec.parameters))
    canonical = ArgSpec(cls.name, parameters)
    try:
        instance = cls.from_pass_spec(canonical)
    except (ValueError, TypeError) as error:
        raise UserError(f"invalid options for pass '{spec.name}': {error}") from None
    return ScheduledPass(info, instance, spec.name)


_SCALARS = {"bool": bool, "int": int, "str": str, "float": (int, float)}


def _check_options(spec: ArgSpec, cls: type[ModulePass]) -> None:
    """Name the option and the value at fault in MLIR's spelling (`host-ordering`),
    rather than xDSL's message about Python fields and types."""
    fields = {f.name: f for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else {}
    spelled = sorted(name.replace("_", "-") for name in fields if name != "name")
    for key, values in spec.parameters.items():
        field = fields.get(key.replace("-", "_"))
        if field is None:
            known = ", ".join(spelled) if spelled else "none"
            raise UserError(
                f"invalid options for pass '{spec.name}': no option '{key}' "
                f"(its options: {known})"
            )
        expected = _SCALARS.get(str(field.type).removesuffix(" | None"))
        if expected is None or len(values) != 1:
            continue
        # `true` is an int to Python, but no number of seconds.
        if isinstance(values[0], expected) and not (
            _is_float_field(field) and isinstance(values[0], bool)
        ):
            continue
        raise UserError(
            f"invalid options for pass '{spec.name}': option '{key}' expects "
            f"{field.type!s}, got '{values[0]}'"
        )


def _is_float_field(field: dataclasses.Field) -> bool:
    return str(field.type).removesuffix(" | None") == "float"


def _ints_as_floats(cls: type[ModulePass], parameters: dict) -> dict:
    """MLIR reads `time-limit=2` for a float option as 2.0; xDSL's parser gives an
    int, which `from_pass_spec` rejects for a float field."""
    if not dataclasses.is_dataclass(cls):
        return parameters
    fields = {f.name: f for f in dataclasses.fields(cls)}
    fixed = dict(parameters)
    for name, values in parameters.items():
        field = fields.get(name.replace("-", "_"))
        if field is not None and _is_float_field(field):
            fixed[name] = tuple(
                float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                for v in values
            )
    return fixed


def _bare_flags_as_true(cls: type[ModulePass], parameters: dict) -> dict:
    """MLIR reads a bare `{debug}` as `debug=true`; xDSL as no value at all."""
    hints = typing.get_type_hints(cls)
    fixed = dict(parameters)
    for name, values in parameters.items():
        hint = hints.get(name.replace("-", "_"))
        if values == () and hint is not None and bool in (hint, *typing.get_args(hint)):
            fixed[name] = (True,)
    return fixed


def pass_spec_from_flag(name: str, options: str | None) -> str:
    """`--NAME=opts` on the command line, as pipeline text `NAME{opts}`."""
    if options is None or options == "":
        return name
    options = options.strip()
    if options.startswith("{") and options.endswith("}"):
        return name + options
    return name + "{" + options + "}"
