"""IR memplan reads and prints back without modelling it: kept as its source text.

Stream-phase dumps carry two kinds of foreign IR that memplan's passes never look
into but must print back exactly:

- Attributes and types of dialects memplan does not model, mostly inside
  configuration dictionaries (`#iree_cpu.cpu_encoding_resolver<>` in an
  executable target, `!iree_tensor_ext.dispatch.tensor<...>` in a dispatch
  function's signature). :class:`OpaqueAttributeContext` reads any attribute or
  type of a dialect `iree-opt` knows (:data:`FOREIGN_DIALECTS`) that memplan does
  not register, or registers only in part (:data:`PARTIAL_DIALECTS`), and with
  `--allow-unregistered-dialect` of any dialect, as an :class:`OpaqueAttr` /
  :class:`OpaqueType` of that name: its `<...>` body is kept as text and printed verbatim (xDSL's
  `UnregisteredAttr` would print `#d.x<>` as `#d.x`, which IREE rejects). Names of a fully modelled dialect (`#stream.timepiont`)
  are still errors.
- Executable bodies: the `builtin.module` inside `stream.executable` holds
  linalg, tensor, iree_tensor_ext, ... in custom syntax. An op that declares
  :class:`OpaqueBodies` gets those children read by :class:`OpaqueBodyParser` as
  :class:`OpaqueOp`: the op's exact source text (from its name to its end, in
  either form), re-indented to its nesting depth and with attribute aliases
  (`#map`) replaced by what they stand for, since memplan does not print the
  source's alias table. The printer writes that text in place, in both custom
  and generic output; MLIR reads a custom-form op inside a generic region, so
  generic output stays valid. The container's other ops (`stream.executable.
  export`, whose symbols dispatches reference) are parsed as usual; a kept op
  that defines a symbol (`hal.executable.export public @run`) is an
  :class:`OpaqueSymbolOp`, so references to it still resolve.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import cache

from xdsl.context import Context
from xdsl.dialects.builtin import NoneAttr, StringAttr, UnregisteredAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition, irdl_op_definition, prop_def, traits_def
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, OpTrait, SymbolOpInterface
from xdsl.utils.mlir_lexer import MLIRTokenKind

from memplan.printing.structure import PrintsVerbatim

__all__ = [
    "FOREIGN_DIALECTS",
    "PARTIAL_DIALECTS",
    "OpaqueAttr",
    "OpaqueType",
    "opaque_attribute_class",
    "OpaqueAttributeContext",
    "OpaqueBodies",
    "OpaqueBodyParser",
    "OpaqueOp",
    "OpaqueSymbolOp",
    "resolve_aliases",
]

PARTIAL_DIALECTS = frozenset(
    {"iree_tensor_ext", "hal"}
    | {"tosa", "gpu", "llvm", "vector", "linalg", "amdgpu", "nvvm", "rocdl", "spirv", "transform"}
)
"""Dialects memplan (the first two) or xDSL (the others) models only in part;
their other attributes and types (`#hal.pipeline.layout<...>` on a HAL
executable's exports, the `#tosa.target_env<...>` a TOSA input's module keeps,
`#gpu.address_space<workgroup>` in a memref type) are opaque."""


FOREIGN_DIALECTS = frozenset(
    "affine amdgpu arith arm_neon arm_sme arm_sve bufferization builtin cf check chlo "
    "complex emitc flow func gpu hal hal_inline hal_loader io_parameters iree_codegen "
    "iree_cpu iree_encoding iree_gpu iree_linalg_ext iree_map iree_tensor_ext "
    "iree_vector_ext linalg llvm math memref ml_program nvgpu nvvm pcf pdl pdl_interp "
    "quant rocdl rocm scf shape smt spirv stablehlo stream tensor tm_tensor torch "
    "torch_c tosa transform ub util vector vhlo vm vmvx".split()
)
"""The dialects `iree-opt` 3.13 registers (`iree-opt --show-dialects`): their
attributes are read opaquely when memplan does not register the dialect, as
`iree-opt` reads them; other dialects' only with `--allow-unregistered-dialect`
(as MLIR)."""


EXACT_DIALECTS = frozenset({"hip", "memplan"})
"""Dialects whose every attribute and type memplan defines (hip-ep's `hip`, memplan's
own): a name they do not define is an error even with `--allow-unregistered-dialect`,
as in hip-mlir-opt ("unknown type `stream` in dialect `hip`")."""


@dataclass
class OpaqueAttributeContext(Context):
    """A context that reads attributes and types of unmodelled dialects as text."""

    def clone(self) -> OpaqueAttributeContext:
        return OpaqueAttributeContext(
            self.allow_unregistered,
            self._loaded_dialects.copy(),
            self._loaded_ops.copy(),
            self._loaded_attrs.copy(),
            self._loaded_types.copy(),
            self._registered_dialects.copy(),
        )

    def _opaque(self, name: str) -> bool:
        dialect, dot, _ = name.partition(".")
        if not dot:
            return False
        if dialect in PARTIAL_DIALECTS:
            return True
        if dialect in self._registered_dialects or dialect in self._loaded_dialects:
            return False
        return dialect in FOREIGN_DIALECTS or self.allow_unregistered

    def _undefined(self, name: str, found: type[Attribute] | None) -> bool:
        """An unregistered stand-in for a name an exact dialect does not define."""
        return (found is not None and issubclass(found, UnregisteredAttr)
                and name.partition(".")[0] in EXACT_DIALECTS)

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        found = super().get_optional_attr(name)
        if self._undefined(name, found):
            del self._loaded_attrs[name]
            return None
        if (found is None or issubclass(found, UnregisteredAttr)) and self._opaque(name):
            found = self._loaded_attrs[name] = opaque_attribute_class(name, False)
        return found

    def get_optional_type(self, name: str) -> type[TypeAttribute] | None:
        found = super().get_optional_type(name)
        if self._undefined(name, found):
            del self._loaded_types[name]
            return None
        if (found is None or issubclass(found, UnregisteredAttr)) and self._opaque(name):
            found = opaque_attribute_class(name, True)
            assert issubclass(found, TypeAttribute)
            self._loaded_types[name] = found
        return found


class OpaqueAttr(ParametrizedAttribute):
    """An attribute (or, with :class:`OpaqueType`, a type) of a dialect memplan
    does not model: its `<...>` body as written (empty when there is none, so
    `#d.x<>` and `#d.x` stay apart) and the type MLIR reads after a dialect
    attribute (`: type`), if any. One subclass per name (`opaque_attribute_class`)."""

    name = "memplan.opaque_attr"

    body: StringAttr
    type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, ...]:
        body = ""
        if parser._current_token.kind == MLIRTokenKind.LESS:
            body = "<" + parser._parse_dialect_symbol_body() + ">"
            body = resolve_aliases(body, parser.attribute_aliases)
        type: Attribute = NoneAttr()
        if not issubclass(cls, TypeAttribute) and parser.parse_optional_punctuation(":") is not None:
            type = parser.parse_type()
        return StringAttr(body), type

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(self.body.data)
        if not isinstance(self.type, NoneAttr):
            printer.print_string(" : ")
            printer.print_attribute(self.type)


class OpaqueType(OpaqueAttr, TypeAttribute):
    """An opaque type (`!iree_tensor_ext.dispatch.tensor<readonly:tensor<f32>>`)."""

    name = "memplan.opaque_type"


@cache
def opaque_attribute_class(name: str, is_type: bool) -> type[OpaqueAttr]:
    """The opaque attribute (or type) class of one `dialect.name`."""
    base = OpaqueType if is_type else OpaqueAttr
    # The parameters are redeclared on each class: IRDL builds equality and hashing
    # from the class's own declarations, and without them every `#d.x<..>` would
    # equal every other (CSE would merge sizes of different encodings).
    namespace = {
        "name": name,
        "__module__": __name__,
        "__annotations__": dict(OpaqueAttr.__annotations__),
    }
    return irdl_attr_definition(type(base.__name__, (base,), namespace))


@dataclass(frozen=True)
class OpaqueBodies(OpTrait):
    """The op's direct children named in `ops` are kept as source text."""

    ops: tuple[str, ...] = ("builtin.module",)


@irdl_op_definition
class OpaqueOp(IRDLOperation):
    """An op kept as its source text (see the module docstring). It has no
    operands, results or regions, declares no effects (so no pass removes or
    merges it) and prints `text` where it stands."""

    name = "memplan.opaque"

    text = prop_def(StringAttr)

    traits = traits_def(IsolatedFromAbove(), PrintsVerbatim())

    def __init__(self, text: str):
        super().__init__(properties={"text": StringAttr(text)})

    @staticmethod
    def of(text: str) -> OpaqueOp:
        """An `OpaqueSymbolOp` when the text defines a symbol, else an `OpaqueOp`."""
        name = _defined_symbol(text)
        return OpaqueOp(text) if name is None else OpaqueSymbolOp(text, name)

    @property
    def op_name(self) -> str:
        """The kept op's name (`builtin.module`)."""
        match = re.match(r'"?([\w.$-]+)', self.text.data)
        return match.group(1) if match else ""

    def print_verbatim(self, printer: Printer) -> None:
        printer.print_string(self.text.data)


@irdl_op_definition
class OpaqueSymbolOp(IRDLOperation):
    """A kept op that defines a symbol (`hal.executable.export public @entry ...`):
    as `OpaqueOp`, plus its `sym_name`, so references to it resolve."""

    name = "memplan.opaque_symbol"

    text = prop_def(StringAttr)
    sym_name = prop_def(StringAttr)

    traits = traits_def(IsolatedFromAbove(), PrintsVerbatim(), SymbolOpInterface())

    def __init__(self, text: str, sym_name: str):
        super().__init__(properties={"text": StringAttr(text), "sym_name": StringAttr(sym_name)})

    print_verbatim = OpaqueOp.print_verbatim


_CUSTOM_SYMBOL = re.compile(r'[\w.$-]+\s+(?:(?:public|private|nested)\s+)?@(?:"((?:[^"\\]|\\.)*)"|([\w$.-]+))')
_GENERIC_SYMBOL = re.compile(r'sym_name = "((?:[^"\\]|\\.)*)"')


def _defined_symbol(text: str) -> str | None:
    """The symbol a kept op's text defines: `@name` after its name (and
    visibility) in the custom form; its own `sym_name` property in the generic
    form (searched before its regions)."""
    if text.startswith('"'):
        head = text.split("({", 1)[0]
        match = _GENERIC_SYMBOL.search(head)
        return match.group(1) if match else None
    match = _CUSTOM_SYMBOL.match(text)
    if match is None:
        return None
    return match.group(1) if match.group(1) is not None else match.group(2)


def _dedent(text: str, column: int) -> str:
    """Lines after the first lose the op's start column of leading spaces, so the
    printer can indent them to wherever the op is printed."""
    lines = text.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        strip = min(column, len(line) - len(line.lstrip(" ")))
        out.append(line[strip:])
    return "\n".join(out)


def _attribute_text(attribute: Attribute) -> str:
    from memplan.printing import MlirPrinter

    stream = io.StringIO()
    printer = MlirPrinter(stream=stream)
    printer.local_scope = True
    printer.print_attribute(attribute)
    return stream.getvalue()


_OPEN = {MLIRTokenKind.L_BRACE, MLIRTokenKind.L_PAREN, MLIRTokenKind.L_SQUARE}
_CLOSE = {MLIRTokenKind.R_BRACE, MLIRTokenKind.R_PAREN, MLIRTokenKind.R_SQUARE}
_ALIAS_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|[#!][A-Za-z_][\w$.-]*')


def resolve_aliases(text: str, aliases: dict[str, Attribute]) -> str:
    """`text` with each alias reference (`#map`, `!t`) outside string literals
    replaced by the attribute it names: kept text must not depend on the source's
    alias table, which memplan does not print."""
    if not aliases:
        return text

    def replace(match: re.Match[str]) -> str:
        found = aliases.get(match.group())
        return match.group() if found is None else _attribute_text(found)

    return _ALIAS_OR_STRING.sub(replace, text)
_RESULTS_THEN_NAME = re.compile(r'(?:%[\w$.-]+(?::\d+)?\s*,\s*)*%[\w$.-]+(?::\d+)?\s*=\s*"?([\w.$-]+)')


class OpaqueBodyParser(Parser):
    """A parser mixin (before :class:`xdsl.parser.Parser`): inside an op that
    declares :class:`OpaqueBodies`, its named children become :class:`OpaqueOp`."""

    _opaque_stack: list[tuple[str, ...]]

    def parse_operation(self) -> Operation:
        stack = self.__dict__.setdefault("_opaque_stack", [])
        name = self._peek_op_name()
        if stack and name in stack[-1] and self._current_token.kind != MLIRTokenKind.PERCENT_IDENT:
            return self._parse_opaque_op(generic=self._current_token.kind == MLIRTokenKind.STRING_LIT)
        children = self.__dict__.setdefault("_opaque_children", {}).get(name)
        if children is None:
            # Only a known op: asking with unregistered ops allowed would cache an
            # unregistered `return` and hide the default dialect's `func.return`.
            op_type = self.ctx._get_known_op(name) if name else None
            trait = op_type.get_trait(OpaqueBodies) if op_type is not None and hasattr(op_type, "get_trait") else None
            children = self._opaque_children[name] = trait.ops if trait is not None else ()
        stack.append(children)
        try:
            return super().parse_operation()
        finally:
            stack.pop()

    def in_opaque_body(self) -> bool:
        """Whether the block being read is one whose named children are kept."""
        stack = self.__dict__.get("_opaque_stack")
        return bool(stack and stack[-1])

    def _peek_op_name(self) -> str:
        token = self._current_token
        if token.kind == MLIRTokenKind.PERCENT_IDENT:
            # Results first: `%a, %b:2 = name`.
            match = _RESULTS_THEN_NAME.match(token.span.input.content, token.span.start)
            return match.group(1) if match else ""
        if token.kind == MLIRTokenKind.STRING_LIT:
            return token.span.text[1:-1]
        if token.kind == MLIRTokenKind.BARE_IDENT:
            return token.span.text
        return ""

    def _parse_opaque_op(self, generic: bool) -> OpaqueOp | OpaqueSymbolOp:
        """From the op's name to its end. A generic op ends with the results of its
        function type (`: () -> ()`) and an optional `loc(...)`; a custom op, whose
        syntax is unknown here, ends where a line ends outside any bracket (MLIR's
        printer puts every op on a line of its own, and opens a region at the end
        of its line: `... {`, `} <workgroup_size = [..]>`)."""
        content = self._current_token.span.input.content
        start = self._current_token.span.start
        column = start - (content.rfind("\n", 0, start) + 1)
        end = start
        depth = 0
        previous: MLIRTokenKind | None = None
        seen_colon = False
        results_depth: int | None = None
        while True:
            token = self._current_token
            kind = token.kind
            if kind == MLIRTokenKind.EOF:
                self.raise_error("unterminated op kept as text", at_position=start)
            end = token.span.end
            self._consume_token()
            if kind in _OPEN:
                if generic and depth == 0 and seen_colon and previous == MLIRTokenKind.ARROW:
                    results_depth = depth
                depth += 1
            elif kind in _CLOSE:
                depth -= 1
                if depth < 0:
                    self.raise_error("unbalanced bracket in op kept as text", at_position=token.span.start)
            elif kind == MLIRTokenKind.COLON and depth == 0:
                seen_colon = True
            previous = kind
            if depth != 0:
                continue
            if generic:
                if results_depth is not None:
                    break
            elif "\n" in content[end : self._current_token.span.start]:
                break
        token = self._current_token
        if generic and token.kind == MLIRTokenKind.BARE_IDENT and token.span.text == "loc":
            while True:
                kind = self._current_token.kind
                end = self._current_token.span.end
                self._consume_token()
                depth += (kind in _OPEN) - (kind in _CLOSE)
                if kind in _CLOSE and depth == 0:
                    break
        text = resolve_aliases(content[start:end], self.attribute_aliases)
        return OpaqueOp.of(_dedent(text, column))

