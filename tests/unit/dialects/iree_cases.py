"""IR texts exactly as `iree-opt` 3.13 prints them, shared by the IREE dialect tests.

Each was produced by running `iree-opt` (IREE 3.13.0) on the text and checked to
come back unchanged; memplan must print them back character for character.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from memplan.context import make_context
from memplan.printing import print_mlir


def parse(text: str, *, verify: bool = True) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    if verify:
        module.verify()
    return module


def show(op, *, generic: bool = False) -> str:
    return print_mlir(op, generic=generic)


def func(body: str, args: str = "%arg0: index, %arg1: !stream.resource<*>") -> str:
    """A module with one public util.func holding `body` (lines, 4-space indent)."""
    lines = "".join(f"    {line}\n" for line in body.strip().splitlines())
    return (
        "module {\n"
        f"  util.func public @f({args}) {{\n{lines}    util.return\n  }}\n"
        "}"
    )


_ARGS = (
    "%arg0: index, %arg1: !stream.resource<*>, %arg2: !stream.timepoint, "
    "%arg3: !stream.resource<transient>"
)

STREAM_CASES: dict[str, str] = {
    "tensor_constant_dense": func(
        "%cst = stream.tensor.constant : tensor<4xf32> in !stream.resource<constant> = dense<1.000000e+00> : tensor<4xf32>"
    ),
    "tensor_constant_param_dims_queues": func(
        "%cst = stream.tensor.constant on(#hal.device.affinity<@dev, [0, 1]>) : tensor<?x4xf32>{%arg0} in !stream.resource<constant> = #stream.parameter.named<\"key\"> : tensor<8x4xf32>"
    ),
    "tensor_constant_scope_config_attrs": "#encoding = #iree_encoding.testing<>\n"
    + func(
        "%cst = stream.tensor.constant on(#hal.device.affinity<@dev>) : tensor<4xf32, #encoding> in !stream.resource<constant> = #stream.parameter.named<\"s\"::\"key\", {a = 1 : i64}> : tensor<4xf32> attributes {foo}"
    ),
    "resource_size": func("%0 = stream.resource.size %arg1 : !stream.resource<*>"),
    "resource_size_affinity": func(
        "%0 = stream.resource.size %arg1 <affinity = #hal.device.affinity<@dev>> {foo} : !stream.resource<*>"
    ),
    "transfer_plain": func(
        "%0 = stream.async.transfer %arg1 : !stream.resource<*>{%arg0} -> !stream.resource<staging>{%arg0} attributes {foo}"
    ),
    "transfer_from": func(
        "%0 = stream.async.transfer %arg1 : !stream.resource<*>{%arg0} from(#hal.device.affinity<@dev>) -> !stream.resource<external>{%arg0}"
    ),
    "transfer_to": func(
        "%0 = stream.async.transfer %arg1 : !stream.resource<*>{%arg0} -> to(#hal.device.affinity<@dev>) !stream.resource<external>{%arg0}"
    ),
    "transfer_on_from_to": func(
        "%0 = stream.async.transfer on(#hal.device.affinity<@dev2>) %arg1 : !stream.resource<*>{%arg0} from(#hal.device.affinity<@dev>) -> to(#hal.device.affinity<@dev>) !stream.resource<external>{%arg0}"
    ),
    "sizeof": func("%0 = stream.tensor.sizeof tensor<4xf32> : index"),
    "sizeof_dims": "#encoding = #iree_encoding.testing<>\n"
    + func(
        "%0 = stream.tensor.sizeof on(#hal.device.affinity<@dev>) tensor<?x?xf32, #encoding>{%arg0, %arg0} {foo} : index"
    ),
    "encode": "#encoding = #iree_encoding.testing<>\n"
    + func(
        "%0 = stream.tensor.encode %arg1 : tensor<?xf32>{%arg0} in !stream.resource<*>{%arg0} -> tensor<?xf32, #encoding>{%arg0} in !stream.resource<*>{%arg0} attributes {foo}"
    ),
    "encode_on": "#encoding = #iree_encoding.testing<>\n"
    + func(
        "%0 = stream.tensor.encode on(#hal.device.affinity<@dev>) %arg1 : tensor<4xf32> in !stream.resource<*>{%arg0} -> tensor<4xf32, #encoding> in !stream.resource<*>{%arg0}"
    ),
    "async_alloca": func(
        "%0 = stream.async.alloca {foo} : !stream.resource<transient>{%arg0}\n"
        "%1 = stream.async.alloca on(#hal.device.affinity<@dev>) : !stream.resource<*>{%arg0}"
    ),
    "async_clone": func(
        "%0 = stream.async.clone %arg1 : !stream.resource<*>{%arg0} -> !stream.resource<*>{%arg0} attributes {foo}\n"
        "%1 = stream.async.clone on(#hal.device.affinity<@dev>) %arg1 : !stream.resource<*>{%arg0} -> !stream.resource<*>{%arg0}"
    ),
    "dispatch_single": func(
        "%0 = stream.async.dispatch @ex::@entry[%arg0](%arg1[%arg0 to %arg0 for %arg0]) {foo} : (!stream.resource<*>{%arg0}) -> !stream.resource<*>{%arg0}"
    ),
    "dispatch_multi_entry_two_results": func(
        "%0:2 = stream.async.dispatch on(#hal.device.affinity<@dev>) {@ex::@entry, @ex2::@entry2}[%arg0, %arg0](%arg1[%arg0 to %arg0 for %arg0], %arg1[%arg0 to %arg0 for %arg0]) : (!stream.resource<*>{%arg0}, !stream.resource<*>{%arg0}) -> (!stream.resource<*>{%arg0}, !stream.resource<*>{%arg0})"
    ),
    "dispatch_tied_as": func(
        "%0 = stream.async.dispatch @ex::@entry[%arg0](%arg1[%arg0 to %arg0 for %arg0]) : (!stream.resource<*>{%arg0}) -> %arg1 as !stream.resource<transient>{%arg0}"
    ),
    "dispatch_tied_and_fresh": func(
        "%0:2 = stream.async.dispatch @ex::@entry(%arg1[%arg0 to %arg0 for %arg0], %arg0) : (!stream.resource<*>{%arg0}, index) -> (%arg1{%arg0}, !stream.resource<*>{%arg0})"
    ),
    "dispatch_no_results": func(
        "stream.async.dispatch @ex::@entry(%arg0, %arg1[%arg0 to %arg0 for %arg0]) : (index, !stream.resource<*>{%arg0}) -> ()"
    ),
    "dispatch_no_operands": func(
        "%0 = stream.async.dispatch @ex::@entry() : () -> !stream.resource<*>{%arg0}"
    ),
    "resource_alloc": func(
        "%0 = stream.resource.alloc {foo} : !stream.resource<external>{%arg0}\n"
        "%1 = stream.resource.alloc uninitialized on(#hal.device.affinity<@dev>) : !stream.resource<external>{%arg0}"
    ),
    "resource_alloca": func(
        "%result, %result_timepoint = stream.resource.alloca uninitialized : {foo} !stream.resource<transient>{%arg0} => !stream.timepoint\n"
        "%result_0, %result_timepoint_1 = stream.resource.alloca uninitialized indeterminate on(#hal.device.affinity<@dev>) await(%arg2) => !stream.resource<transient>{%arg0} => !stream.timepoint",
        _ARGS,
    ),
    "resource_dealloca": func(
        "%0 = stream.resource.dealloca %arg3 : !stream.resource<transient>{%arg0} => !stream.timepoint {foo}\n"
        "%1 = stream.resource.dealloca origin on(#hal.device.affinity<@dev>) await(%arg2) => %arg3 : !stream.resource<transient>{%arg0} => !stream.timepoint",
        _ARGS,
    ),
    "timepoints": func(
        "%0 = stream.timepoint.immediate {foo} => !stream.timepoint\n"
        "%1 = stream.timepoint.join max(%arg2, %0) => !stream.timepoint attributes {foo}\n"
        "%2:2 = stream.timepoint.await %arg2 => %arg1, %arg3 : !stream.resource<*>{%arg0}, !stream.resource<transient>{%arg0} attributes {foo}\n"
        "%3 = stream.timepoint.await sync %1 => %arg1 : !stream.resource<*>{%arg0}",
        _ARGS,
    ),
}

UTIL_CASES: dict[str, str] = {
    "globals": (
        "module {\n"
        "  util.global public @g0 : index\n"
        "  util.global private mutable @g1 = 4 : index\n"
        '  util.global nested @"a:b" : !stream.resource<variable>\n'
        "  util.global private @g3 <inlining_policy = #util.inline.never> : !stream.resource<constant>\n"
        "  util.global private @g4 = #stream.timepoint<immediate> : !stream.timepoint\n"
        "  util.global public @g5 {foo = 1 : i32} : index\n"
        '  util.global private @p1 : !stream.resource<constant> = #stream.parameter.named<"s"::"k"> : tensor<4xf32>\n'
        '  util.global private @p2 = #stream.parameter.named<"s"::"k", {x = "y"}> : !stream.resource<constant>\n'
        "}"
    ),
    "loads_stores_call": (
        "module {\n"
        "  util.global private mutable @g1 = 4 : index\n"
        "  util.global public @g0 : index\n"
        '  util.global nested @"a:b" : !stream.resource<variable>\n'
        "  util.func private @f(%arg0: index, %arg1: !stream.resource<*>) -> index {\n"
        "    %g1 = util.global.load @g1 : index\n"
        "    %g0 = util.global.load immutable @g0 {foo} : index\n"
        '    %a3Ab = util.global.load @"a:b" : !stream.resource<variable>\n'
        "    util.global.store %g1, @g1 {foo} : index\n"
        "    %0 = util.call @f(%arg0, %arg1) : (index, !stream.resource<*>) -> index\n"
        "    util.return %0 : index\n"
        "  }\n"
        "}"
    ),
    "funcs": (
        "module {\n"
        "  util.func private @g(%arg0: index, %arg1: !stream.resource<*>) -> (index, %arg1 as !stream.resource<transient>)\n"
        "  util.func private @h(%arg0: !stream.resource<*>) -> %arg0\n"
        "  util.func private @k(%arg0: !stream.resource<*>) -> (!stream.resource<*> {test.x})\n"
        "  util.func private @n(%arg0: index {test.foo}) -> index attributes {inlining_policy = #util.inline.never}\n"
        "  util.func public @f(%arg0: index, %arg1: !stream.resource<*>) -> (index, index) attributes {foo} {\n"
        "    %0:2 = util.call @g(%arg0, %arg1) : (index, !stream.resource<*>) -> (index, %arg1 as !stream.resource<transient>)\n"
        "    %1 = util.call @h(%arg1) {bar} : (!stream.resource<*>) -> %arg1\n"
        "    %2:2 = util.call @f(%arg0, %arg1) : (index, !stream.resource<*>) -> (index, index)\n"
        "    util.return %arg0, %arg0 : index, index\n"
        "  }\n"
        "  util.func public @pub() {\n"
        "    util.return {foo}\n"
        "  }\n"
        "}"
    ),
    "initializer": (
        "module {\n"
        "  util.global private @y : index\n"
        "  util.initializer attributes {a = 1 : i64} {\n"
        "    %y = util.global.load @y : index\n"
        "    util.global.store %y, @y : index\n"
        "    util.return\n"
        "  }\n"
        "  util.initializer {\n"
        "    util.return\n"
        "  }\n"
        "}"
    ),
}


def read_example(name: str) -> str:
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[3]
    return (root / "examples" / name).read_text()


__all__ = ["STREAM_CASES", "UTIL_CASES", "func", "parse", "read_example", "show"]
