"""`memplan.op_assembly`: which classes may be assembled field by field, and that
an assembled op is the one xDSL's `create` makes (its field-by-field comparison for
the memory passes' ops is in tests/unit/passes/test_common.py, for the parser's in
tests/unit/parsing/test_parsing_speedups.py)."""

from __future__ import annotations

from xdsl.dialects import arith, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, i32
from xdsl.ir import Operation

from memplan.op_assembly import assemble, assembles_as_created, constructs_plainly


class _Counting(test.TestOp):
    """A class whose `__post_init__` does more than fill defaults."""

    built = 0

    def __post_init__(self) -> None:
        super().__post_init__()
        _Counting.built += 1


class _OwnCreate(test.TestOp):
    @classmethod
    def create(cls, **kwargs) -> Operation:  # type: ignore[override]
        return super().create(**kwargs)


def test_only_plain_classes_are_assembled():
    assert assembles_as_created(arith.ConstantOp)
    assert not constructs_plainly(_Counting)
    assert not assembles_as_created(_Counting)
    assert constructs_plainly(_OwnCreate) and not assembles_as_created(_OwnCreate)


def test_assembled_op_links_uses_as_create_does():
    value = arith.ConstantOp(IntegerAttr(3, IndexType())).result
    made = test.TestOp.create(operands=[value, value], result_types=[i32, i32])
    assembled = assemble(test.TestOp, [value, value], [i32, i32], {}, {})
    assert [(u.operation, u.index) for u in value.uses] == [
        (assembled, 1), (assembled, 0), (made, 1), (made, 0)
    ]
    assert list(vars(assembled)) == list(vars(made))
    assert [(r.type, r.index, r.op is assembled) for r in assembled.results] == [
        (i32, 0, True), (i32, 1, True)
    ]
    assert str(assembled) == str(made)
