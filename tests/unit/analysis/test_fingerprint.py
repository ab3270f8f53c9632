"""The fingerprint sees every change of meaning and nothing else."""

from xdsl.dialects.builtin import ModuleOp

from memplan.analysis.fingerprint import fingerprint
from memplan.context import make_context
from memplan.tools.source import parse_module

CTX = make_context(allow_unregistered=True)


def parse(text: str) -> ModuleOp:
    return parse_module(CTX, text, "test.mlir")


BASE = """
func.func @f(%a: index, %b: index) -> index {
  %0 = arith.addi %a, %b : index
  %1 = arith.muli %0, %a {tag = 1 : i64} : index
  return %1 : index
}
"""


def test_reparsing_and_printing_give_the_same_fingerprint():
    module = parse(BASE)
    assert fingerprint(module) == fingerprint(parse(str(module)))
    assert fingerprint(module) == fingerprint(module.clone())


def test_names_and_locations_do_not_count():
    renamed = BASE.replace("%a", "%x").replace("%0", "%sum")
    spaced = "\n\n" + BASE.replace("  %0", "      %0")
    assert fingerprint(parse(BASE)) == fingerprint(parse(renamed))
    assert fingerprint(parse(BASE)) == fingerprint(parse(spaced))


def test_attribute_order_does_not_count():
    one = parse('"test.op"() {a = 1 : i64, b = 2 : i64} : () -> ()')
    two = parse('"test.op"() {b = 2 : i64, a = 1 : i64} : () -> ()')
    assert fingerprint(one) == fingerprint(two)


def test_every_change_of_meaning_is_seen():
    base = fingerprint(parse(BASE))
    variants = [
        BASE.replace("arith.addi %a, %b", "arith.addi %b, %a"),  # operand order
        BASE.replace("arith.addi", "arith.subi"),  # op name
        BASE.replace("tag = 1", "tag = 2"),  # attribute value
        BASE.replace(" {tag = 1 : i64}", ""),  # attribute removed
        BASE.replace("return %1", "return %0"),  # a use rewired
    ]
    for text in variants:
        assert fingerprint(parse(text)) != base, text


def test_result_types_count():
    one = parse('%0 = "test.op"() : () -> i32')
    two = parse('%0 = "test.op"() : () -> i64')
    assert fingerprint(one) != fingerprint(two)


def test_forward_uses_are_tied_to_their_definitions():
    """^bb1 is listed first but reached from ^bb2, which defines what it uses;
    swapping which of the two values each use names must be seen."""
    template = """
func.func @f(%a: index) -> (index, index) {
  cf.br ^bb2
^bb1:
  return {USES} : index, index
^bb2:
  %x = arith.addi %a, %a : index
  %y = arith.muli %a, %a : index
  cf.br ^bb1
}
"""
    one = parse(template.replace("{USES}", "%x, %y"))
    two = parse(template.replace("{USES}", "%y, %x"))
    assert fingerprint(one) != fingerprint(two)
    assert fingerprint(one) == fingerprint(parse(str(one)))
