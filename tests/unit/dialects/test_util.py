"""The util dialect: IREE 3.13 text round trips, symbols, effects, names, verifiers."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i32,
)
from xdsl.ir import Block, Region
from xdsl.traits import (
    CallableOpInterface,
    IsolatedFromAbove,
    IsTerminator,
    SymbolOpInterface,
    SymbolTable,
    is_side_effect_free,
)
from xdsl.utils.exceptions import VerifyException

from memplan.dialects.iree import stream, util
from memplan.interfaces import EffectInstance, MemoryEffectKind, memory_effects
from memplan.printing import sanitize_ssa_name

from iree_cases import UTIL_CASES, parse, show


def find(module: ModuleOp, cls):
    return [op for op in module.walk() if isinstance(op, cls)]


# --------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(UTIL_CASES))
def test_custom_round_trip_is_iree_text(name: str):
    text = UTIL_CASES[name]
    assert show(parse(text)) == text


@pytest.mark.parametrize("name", sorted(UTIL_CASES))
def test_generic_round_trip(name: str):
    text = UTIL_CASES[name]
    generic = show(parse(text), generic=True)
    assert '"util.' in generic
    assert show(parse(generic), generic=True) == generic
    assert show(parse(generic)) == text


def test_public_is_the_default_visibility():
    """No `sym_visibility` prints `public`; parsing `public` records it, as IREE."""
    generic = (
        '"builtin.module"() ({\n'
        '  "util.global"() <{sym_name = "g", type = index}> : () -> ()\n'
        '  "util.func"() <{function_type = () -> (), sym_name = "f"}> ({\n'
        '    "util.return"() : () -> ()\n'
        "  }) : () -> ()\n"
        "}) : () -> ()"
    )
    module = parse(generic)
    (glob,) = find(module, util.GlobalOp)
    (fn,) = find(module, util.FuncOp)
    assert glob.sym_visibility is None and glob.visibility == "public"
    custom = show(module)
    assert "util.global public @g : index" in custom
    assert "util.func public @f() {" in custom
    reparsed = parse(custom)
    assert find(reparsed, util.GlobalOp)[0].sym_visibility == StringAttr("public")


def test_custom_func_and_call_record_untied_results():
    module = parse(UTIL_CASES["funcs"])
    by_name = {op.sym_name.data: op for op in find(module, util.FuncOp)}
    assert by_name["g"].tied_result_operands() == (None, 1)
    assert by_name["h"].tied_result_operands() == (0,)
    assert by_name["f"].tied_result_operands() == (None, None)
    assert by_name["f"].tied_operands is not None  # [-1, -1], as IREE records it
    assert by_name["pub"].tied_operands is None  # no results, nothing recorded
    calls = find(module, util.CallOp)
    assert [c.tied_result_operands() for c in calls] == [(None, 1), (0,), (None, None)]
    assert calls[0].res[1].type == stream.ResourceType("transient")
    assert calls[1].res[0].type == stream.ResourceType()


def test_declaration_and_attributes():
    module = parse(UTIL_CASES["funcs"])
    by_name = {op.sym_name.data: op for op in find(module, util.FuncOp)}
    n = by_name["n"]
    assert n.is_declaration
    assert isinstance(n.inlining_policy, util.InlineNeverAttr)
    assert "inlining_policy" not in n.attributes
    assert n.arg_attrs is not None and "test.foo" in n.arg_attrs.data[0].data
    assert by_name["k"].res_attrs is not None
    assert "foo" in by_name["f"].attributes


def test_declaration_with_bare_types_prints_named_arguments():
    text = "module {\n  util.func private @d(index, i32) -> index\n}"
    printed = show(parse(text))
    assert printed == (
        "module {\n  util.func private @d(%arg0: index, %arg1: i32) -> index\n}"
    )


# --------------------------------------------------------------------------------
# Symbols and traits
# --------------------------------------------------------------------------------


def test_symbol_table_finds_quoted_globals():
    module = parse(UTIL_CASES["loads_stores_call"])
    found = SymbolTable.lookup_symbol(module, "a:b")
    assert isinstance(found, util.GlobalOp)
    assert found.sym_name.data == "a:b"
    load = next(op for op in find(module, util.GlobalLoadOp) if op.global_ == found.symbol_ref)
    assert util.lookup_global(load, load.global_) is found
    assert util.lookup_global(load, SymbolRefAttr("f")) is None  # a function
    assert util.lookup_global(load, SymbolRefAttr("missing")) is None


def test_traits():
    module = parse(UTIL_CASES["initializer"])
    init = find(module, util.InitializerOp)[0]
    assert init.has_trait(IsolatedFromAbove)
    callable_ = init.get_trait(CallableOpInterface)
    assert callable_ is not None and callable_.get_callable_region(init) is init.body
    fn = find(parse(UTIL_CASES["funcs"]), util.FuncOp)[-1]
    assert fn.has_trait(IsolatedFromAbove) and fn.has_trait(SymbolOpInterface)
    assert fn.get_trait(CallableOpInterface).get_argument_types(fn) == ()
    ret = find(module, util.ReturnOp)[0]
    assert ret.has_trait(IsTerminator)


# --------------------------------------------------------------------------------
# Effects
# --------------------------------------------------------------------------------


def test_load_and_store_effects_name_the_global():
    module = parse(UTIL_CASES["loads_stores_call"])
    loads = find(module, util.GlobalLoadOp)
    mutable, immutable, quoted = loads
    assert memory_effects(mutable) == {
        EffectInstance(MemoryEffectKind.READ, SymbolRefAttr("g1"))
    }
    assert memory_effects(quoted) == {
        EffectInstance(MemoryEffectKind.READ, SymbolRefAttr("a:b"))
    }
    assert memory_effects(immutable) == set()
    assert is_side_effect_free(immutable) and not is_side_effect_free(mutable)
    (store,) = find(module, util.GlobalStoreOp)
    assert memory_effects(store) == {
        EffectInstance(MemoryEffectKind.WRITE, SymbolRefAttr("g1"))
    }


def test_calls_functions_and_initializers_have_unknown_effects():
    module = parse(UTIL_CASES["funcs"])
    for op in find(module, util.CallOp):
        assert memory_effects(op) is None
    for op in [*find(module, util.FuncOp), *find(parse(UTIL_CASES["initializer"]), util.InitializerOp)]:
        assert memory_effects(op) is None
        assert not is_side_effect_free(op)
    for op in find(module, util.ReturnOp):
        assert memory_effects(op) == set()
    for op in find(parse(UTIL_CASES["globals"]), util.GlobalOp):
        # Unknown, so DCE never drops a global as an unused "pure" op.
        assert memory_effects(op) is None


# --------------------------------------------------------------------------------
# Result names
# --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("plain", "plain"),
        ("a:b", "a3Ab"),
        ("__auto.blk.0.attn_q.weight:qs__size", "__auto.blk.0.attn_q.weight3Aqs__size"),
        ("1st global", "_1st_global"),
        ("weird-name.$x", "weird-name.$x"),
        (":x", "_3Ax"),
        ("é", "_C3A9"),
    ],
)
def test_sanitize_ssa_name_like_mlir(name: str, expected: str):
    assert sanitize_ssa_name(name) == expected


def test_load_builder_names_its_result_after_the_global():
    load = util.GlobalLoadOp("__auto.blk.0.attn_q.weight:qs", IndexType())
    assert load.result.name_hint == "__auto.blk.0.attn_q.weight3Aqs"
    glob = util.GlobalOp("g", IndexType(), mutable=True)
    from_global = util.GlobalLoadOp.of(glob)
    assert from_global.result.name_hint == "g"
    assert not from_global.immutable
    assert util.GlobalLoadOp.of(util.GlobalOp("c", IndexType())).immutable


def test_source_names_win_over_default_names():
    text = (
        "module {\n"
        "  util.global private @g : index\n"
        "  util.initializer {\n"
        "    %mine = util.global.load @g : index\n"
        "    %g = util.global.load @g : index\n"
        "    %0 = util.global.load @g : index\n"
        "    util.return\n"
        "  }\n"
        "}"
    )
    from memplan.printing import print_mlir

    # Source names are kept only on request (xdsl-opt's keep-names, memplan-opt's
    # --keep-names); mlir-opt drops them.
    printed = print_mlir(parse(text), keep_names=True)
    assert "%mine = util.global.load @g" in printed
    # Two more loads of @g: MLIR's conflict counter gives the second `_0`.
    assert "%g = util.global.load @g" in printed
    assert "%g_0 = util.global.load @g" in printed
    default = show(parse(text))
    assert "%mine" not in default
    assert [line.split(" =")[0].strip() for line in default.splitlines() if "load" in line] == [
        "%g", "%g_0", "%g_1"
    ]


def test_generic_loads_get_default_names_in_custom_form():
    generic = (
        '"builtin.module"() ({\n'
        '  "util.global"() <{sym_name = "a:b", sym_visibility = "private", type = index}> : () -> ()\n'
        '  "util.initializer"() <{function_type = () -> ()}> ({\n'
        '    %0 = "util.global.load"() <{global = @"a:b"}> : () -> index\n'
        '    "util.global.store"(%0) <{global = @"a:b"}> : (index) -> ()\n'
        '    "util.return"() : () -> ()\n'
        "  }) : () -> ()\n"
        "}) : () -> ()"
    )
    printed = show(parse(generic))
    assert '%a3Ab = util.global.load @"a:b" : index' in printed
    assert 'util.global.store %a3Ab, @"a:b" : index' in printed


# --------------------------------------------------------------------------------
# Verifiers
# --------------------------------------------------------------------------------

_GLOBALS = (
    "  util.global private @x : !stream.resource<constant>\n"
    "  util.global private mutable @m : index\n"
    "  util.global private @c : index\n"
)


def _module(body: str, globals_: str = _GLOBALS, results: str = "") -> str:
    return (
        "module {\n" + globals_
        + f"  util.func public @f(%arg0: index) {results} {{\n    {body}\n  }}\n"
        + "}"
    )


@pytest.mark.parametrize(
    "text, message",
    [
        (
            _module("util.global.store %arg0, @x : index\n    util.return"),
            "global type mismatch; global \"x\" is '!stream.resource<constant>' but store is 'index'",
        ),
        (
            _module("%0 = util.global.load @x : index\n    util.return"),
            "global type mismatch; global \"x\" is '!stream.resource<constant>' but load is 'index'",
        ),
        (
            _module("%0 = util.global.load @nope : index\n    util.return"),
            "undefined global: @nope",
        ),
        (
            _module("%0 = util.global.load @f : index\n    util.return"),
            "undefined global: @f",
        ),
        (
            _module("util.global.store %arg0, @nope : index\n    util.return"),
            "undefined global: @nope",
        ),
        (
            _module("%0 = util.global.load immutable @m : index\n    util.return"),
            "is marked as immutable but the global is mutable",
        ),
        (
            "module {\n  util.global private @w : index = 4 : i32\n}",
            "initial value type mismatch; global \"w\" is 'index' but initial value provided is 'i32'",
        ),
        (
            _module("util.return", results="-> index"),
            "has 0 operands, but enclosing function-like op returns 1",
        ),
        (
            _module("util.return %arg0 : index", results="-> i32"),
            r"type of return operand 0 \('index'\) doesn't match function result type \('i32'\)",
        ),
        (
            _module("%0 = util.call @nope(%arg0) : (index) -> index\n    util.return"),
            "undefined/incompatible callee: nope",
        ),
        (
            _module("%0 = util.call @f(%arg0, %arg0) : (index, index) -> index\n    util.return"),
            r"function type mismatch; expected '\(index, index\) -> index' but callee is '\(index\) -> \(\)'",
        ),
        (
            "module {\n  util.global private @x : index\n  util.global private @x : i32\n}",
            'Redefinition of symbol "x"',
        ),
    ],
)
def test_verifier_rejects(text: str, message: str):
    module = parse(text, verify=False)
    with pytest.raises(VerifyException, match=message):
        module.verify()


def test_compatible_resource_initial_value_is_accepted():
    # A resource global may hold a tensor-typed parameter (IREE accepts it) ...
    parse(UTIL_CASES["globals"]).verify()
    # ... but not a scalar.
    bad = "module {\n  util.global private @y : !stream.resource<constant> = 4 : i32\n}"
    with pytest.raises(VerifyException, match="initial value type mismatch"):
        parse(bad, verify=False).verify()


def test_tied_operand_out_of_range():
    fn = util.FuncOp("f", ([IndexType()], [IndexType()]), Region(), tied_operands=[3])
    with pytest.raises(VerifyException, match="result #0 tied to invalid operand index 3"):
        fn.verify()


def test_initializer_must_take_nothing():
    init = util.InitializerOp([util.ReturnOp()])
    init.properties["function_type"] = FunctionType.from_lists([IndexType()], [])
    with pytest.raises(VerifyException, match="initializers take and return nothing"):
        init.verify()


# --------------------------------------------------------------------------------
# Builders
# --------------------------------------------------------------------------------


def test_builders_print_as_iree():
    glob = util.GlobalOp("g", IndexType(), mutable=True, initial_value=IntegerAttr(4, IndexType()))
    const = util.GlobalOp("k", i32, visibility=None)
    fn = util.FuncOp("f", ([IndexType()], [IndexType()]), visibility="private")
    block = fn.body.block
    load = util.GlobalLoadOp.of(glob)
    store = util.GlobalStoreOp(load, glob.symbol_ref)
    call = util.CallOp("f", [block.args[0]], [IndexType()])
    block.add_ops([load, store, call, util.ReturnOp(call)])
    init = util.InitializerOp([util.ReturnOp()])
    module = ModuleOp([glob, const, fn, init])
    module.verify()
    assert show(module) == (
        "module {\n"
        "  util.global private mutable @g = 4 : index\n"
        "  util.global public @k : i32\n"
        "  util.func private @f(%arg0: index) -> index {\n"
        "    %g = util.global.load @g : index\n"
        "    util.global.store %g, @g : index\n"
        "    %0 = util.call @f(%arg0) : (index) -> index\n"
        "    util.return %0 : index\n"
        "  }\n"
        "  util.initializer {\n"
        "    util.return\n"
        "  }\n"
        "}"
    )


def test_external_function_builder():
    fn = util.FuncOp("ext", ([IndexType()], [IndexType()]), Region(), visibility="private")
    assert fn.is_declaration
    assert show(ModuleOp([fn])) == (
        "module {\n  util.func private @ext(%arg0: index) -> index\n}"
    )


def test_region_block_arguments_follow_signature():
    block = Block(arg_types=[i32])
    fn = util.FuncOp("f", ([IndexType()], []), Region(block))
    block.add_op(util.ReturnOp())
    with pytest.raises(VerifyException, match="entry block arguments"):
        fn.verify()


def test_func_argument_locations_are_read():
    # memplan-opt prints them with --mlir-print-debuginfo; it must read them back.
    from xdsl.dialects.builtin import FileLineColLoc

    module = parse(
        'util.func public @f(%arg0: index {util.x} loc("a.mlir":3:7), %arg1: index) -> index {\n'
        "  util.return %arg0 : index\n"
        "}\n")
    (func,) = find(module, util.FuncOp)
    first, second = func.body.block.args
    assert isinstance(first.location, FileLineColLoc)
    assert (first.location.filename.data, first.location.line.data) == ("a.mlir", 3)
    assert not isinstance(second.location, FileLineColLoc)
