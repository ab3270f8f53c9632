"""Verifying a module as `mlir-opt` does: op by op, plus the dominance xDSL skips.

One function, `verify_module`, used by memplan-opt (after parsing, after the
pipeline, and after each pass under `--verify-each`), by `memplan.parse`/
`memplan.verify`, and by the fuzzer.

A decoder has tens of thousands of ops but a few hundred distinct signatures (op
class, operand and result types, properties, attributes), so what depends on the
signature alone is checked once per signature and verification:

- an op's IRDL definition (`OpDef.verify`), for every op without regions or
  successors (:func:`memoized_definition_checks`);
- the whole of `Operation.verify` of an op whose class declares
  `SignatureVerifier`; a later op of the same signature runs only what depends on
  its place: its traits' verifiers, the terminator rule, the check for erased
  operands.

Only what passed is skipped, and only where it would see an equal input; when a
check of the place fails, the op's full verification runs and reports the error,
so every error is found and worded as by the full verification of every op.

Dominance is checked in the same walk: each block whose order matters (one block
in its region, not a graph region) keeps the ops walked so far, and an operand
defined in such a block must be among those of one of the blocks the walk is in.
So is xDSL's `IsolatedFromAbove` check of each isolated op (the module, its
functions), which walked the op's body once more: an operand must be defined in a
block entered since the innermost isolated op around its use was (else its
blocks are climbed). The walk starts at a module, isolated from above: a value
from outside it fails that check before its dominance is looked at, and when
anything in an isolated op fails, xDSL's check of the op runs first, so its
error, as when the op was checked before its body, is the one reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region
from xdsl.irdl import IRDLOperation, OpDef
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator, OpTrait

from memplan.diagnostics import Diagnostic, Location, UserError, location_of
from memplan.interfaces import GraphRegions, SignatureVerifier, get_interface
from memplan.parsing import indexed_symbol_lookups
from memplan.printing import print_mlir
from memplan.signatures import Signatures

__all__ = ["memoized_definition_checks", "verify_module"]


def verify_module(module: ModuleOp, signatures: Signatures | None = None) -> None:
    """Verify `module` op by op, so a failure names the op that failed with its
    location, and check that every value is defined before its uses in a block;
    raise `UserError` (with MLIR's `see current operation` note) at the first op
    at fault. `signatures` may come from an earlier verification (of the module
    before a pass): what passed depends on the signature alone."""
    signatures = signatures or Signatures()
    walk = _Walk(signatures)
    with indexed_symbol_lookups(), memoized_definition_checks(signatures), _isolation_checked_once(walk):
        walk.visit(module)


@contextmanager
def _replaced(owner: type, name: str, replacement: Callable[..., None]) -> Iterator[None]:
    """`owner.name` is `replacement` for the duration."""
    original = vars(owner)[name]
    setattr(owner, name, replacement)
    try:
        yield
    finally:
        setattr(owner, name, original)


def memoized_definition_checks(signatures: Signatures | None = None) -> AbstractContextManager[None]:
    """xDSL's `OpDef.verify` (an op against its IRDL definition) checks, for the
    duration, each combination of definition, operand and result types, properties
    and attributes (equal values) once, with, for ops with regions or successors,
    what it reads of them (`Signatures.shape`); a later op of the same combination
    runs only its traits' verifiers."""
    original = OpDef.verify
    known = signatures or Signatures()

    def verify(op_def: OpDef, op: Operation) -> None:
        head: object = id(op_def)
        if op.regions or op._successors:  # pyright: ignore[reportPrivateUsage]
            shape = known.shape(op)
            if shape is None:
                return original(op_def, op)
            head = (head, shape)
        unknown = known.unknown(head, op)
        if unknown is None:
            for trait in op_def.traits:
                trait.verify(op)
            return
        original(op_def, op)
        known.passed(unknown)

    return _replaced(OpDef, "verify", verify)


def _isolation_checked_once(walk: _Walk) -> AbstractContextManager[None]:
    """xDSL's `IsolatedFromAbove.verify` walks the op's whole body (a function's:
    most of a module), climbing from every operand to the op, and a subclass of a
    decorated op (memplan's `func.func`) runs it once per definition. For the
    duration each op passes it once, with each operand's block looked up in a table
    of the blocks seen, or, for the op `walk` is verifying, as the walk reaches its
    operands (`_Walk.visit`); a failure runs xDSL's check, which raises its
    error."""
    original = IsolatedFromAbove.verify
    passed: set[Operation] = set()

    def verify(trait: IsolatedFromAbove, op: Operation) -> None:
        if op is walk.deferred or op in passed:
            return
        if not _isolated(op):
            original(trait, op)
        passed.add(op)

    return _replaced(IsolatedFromAbove, "verify", verify)


def _isolated(op: Operation) -> bool:
    """Whether xDSL's `IsolatedFromAbove` check of `op` passes: every operand of
    every op in its regions, except inside nested isolated ops, is defined in them."""
    # By id (xDSL hashes IR objects by id in Python, a call per lookup).
    inside: dict[int, bool] = {id(None): False}

    def within(block: Block | None) -> bool:
        found = inside.get(id(block))
        if found is None:
            region = block.parent  # type: ignore[union-attr]
            owner = None if region is None else region.parent
            found = owner is op or (owner is not None and within(owner.parent))
            inside[id(block)] = found
        return found

    isolated: dict[type[Operation], bool] = {}
    regions = list(op.regions)
    while regions:
        for block in regions.pop().blocks:
            for child in block.ops:
                for operand in child._operands:  # pyright: ignore[reportPrivateUsage]
                    kind = type(operand)
                    if kind is OpResult:
                        if not within(operand.op.parent):
                            return False
                    elif kind is not BlockArgument or not within(operand.block):
                        return False
                cls = type(child)
                nested = isolated.get(cls)
                if nested is None:
                    nested = isolated[cls] = child.has_trait(IsolatedFromAbove)
                if not nested:
                    regions += child.regions
    return True


class _ClassFacts:
    """What the walk asks of an op class, found once per verification."""

    __slots__ = ("cls", "hides", "isolated", "memoized", "plain", "terminator", "traits")

    def __init__(self, op: Operation) -> None:
        self.cls = type(op)
        self.memoized = get_interface(op, SignatureVerifier) is not None
        self.terminator = op.has_trait(IsTerminator)
        # Whether its verification checks that nothing in it uses a value from
        # outside; whether an enclosing op's check leaves its body out (xDSL's
        # check takes unregistered ops for isolated ones).
        self.isolated = op.has_trait(IsolatedFromAbove, value_if_unregistered=False)
        self.hides = op.has_trait(IsolatedFromAbove)
        # The traits whose verifiers `Operation.verify` runs (every IRDL class
        # in the MRO: a subclass may call its base's generated `verify_`) and
        # that have a verifier at all.
        traits: dict[int, OpTrait] = {}
        for cls in type(op).__mro__:
            if "get_irdl_definition" in vars(cls) and cls is not IRDLOperation:
                for trait in cls.get_irdl_definition().traits:
                    if type(trait).verify is not OpTrait.verify:
                        traits.setdefault(id(trait), trait)
        self.traits = tuple(traits.values())
        # Verified by signature, nothing deferred to its body: `_Walk` checks an
        # op of it without regions or successors inline.
        self.plain = self.memoized and not self.isolated


def _inside(block: Block | None, op: Operation) -> bool:
    """Whether `block` is in one of `op`'s regions, at any depth."""
    while block is not None:
        region = block.parent
        owner = None if region is None else region.parent
        if owner is op:
            return True
        block = None if owner is None else owner.parent
    return False


def _order_matters(region: Region | None) -> bool:
    """Whether a use must follow its definition in the blocks of `region`: not when
    it has several blocks (the CFG decides), nor in a graph region."""
    if region is None or len(region.blocks) != 1:
        return False
    parent = region.parent
    return not isinstance(parent, ModuleOp) and (
        parent is None or get_interface(parent, GraphRegions) is None
    )


class _Walk:
    """One pre-order walk verifying each op, then the dominance of its operands."""

    def __init__(self, signatures: Signatures) -> None:
        self._signatures = signatures
        self._facts: dict[type[Operation], _ClassFacts] = {}
        # The blocks the walk is in whose order matters -> their ops walked so far
        # (dictionaries: a third smaller than sets), with their numbers in
        # `_entered`. Blocks and ops by id, which stay theirs while the walk
        # lasts (xDSL's `__hash__` is a Python call).
        self._earlier: dict[int, tuple[int, dict[int, None]]] = {}
        self._orderless: set[int] = set()
        # Each block entered so far -> its number in the order entered; the
        # isolated ops the walk is in, each with the number of the first block
        # entered in it: a block numbered from there on is inside it.
        self._entered: dict[int, int] = {}
        self._isolating: list[tuple[Operation, int | None]] = []
        self.deferred: Operation | None = None
        """The isolated op being verified, whose `IsolatedFromAbove` check is
        the walk's, as it reaches each operand in the op's body."""

    def visit(self, op: Operation) -> None:
        facts = self._facts_of(op)
        if not facts.isolated:
            self._verify(op, facts)
            self._check_dominance(op)
            if not op.regions:
                return
            if not facts.hides:
                self._visit_regions(op)
                return
            self._isolating.append((op, None))  # nothing checks what is inside
            try:
                self._visit_regions(op)
            finally:
                self._isolating.pop()
            return
        # As xDSL, an isolated op's check covers the operands of the ops in it:
        # checked as the walk reaches them. A failure, of this check or of
        # anything in the op or inside it, first runs xDSL's check of the op,
        # whose error (the op walked first) is then the one reported.
        try:
            self.deferred = op
            try:
                self._verify(op, facts)
            finally:
                self.deferred = None
            self._check_dominance(op)  # (its own operands: the enclosing op's check)
            self._isolating.append((op, len(self._entered)))
            try:
                self._visit_regions(op)
            finally:
                self._isolating.pop()
        except UserError:
            if not _isolated(op):
                _verify_in_full(op)
            raise

    def _visit_regions(self, op: Operation) -> None:
        facts_of = self._facts.get
        # `Signatures.unknown`, written out.
        number_of, passed = self._signatures.number, self._signatures.passed_keys
        memo = self._signatures.memo
        earlier_of = self._earlier.get
        entered_of = self._entered.get
        for region in op.regions:
            ordered = _order_matters(region)
            for block in region.blocks:
                number = self._entered[id(block)] = len(self._entered)
                earlier: dict[int, None] = {}
                if ordered:
                    self._earlier[id(block)] = (number, earlier)
                else:
                    self._orderless.add(id(block))
                # Operands from blocks entered before this number are checked
                # by the innermost isolated op's rule (-1: none is).
                first = self._isolating[-1][1] if self._isolating else None
                first = -1 if first is None else first
                child = block._first_op  # pyright: ignore[reportPrivateUsage]
                while child is not None:
                    facts = facts_of(type(child)) or self._facts_of(child)
                    if not facts.plain or child.regions or child._successors:  # pyright: ignore[reportPrivateUsage]
                        self.visit(child)
                    else:
                        # `visit` of an op without regions or successors whose
                        # class verifies by signature, the common case, inline.
                        signature = memo.get(id(child)) if memo is not None else None
                        if signature is None:
                            signature = number_of(child)
                        key = (facts.cls, signature)
                        if signature < 0 or key not in passed:
                            _verify_in_full(child)
                            self._signatures.passed(key if signature >= 0 else ())
                        elif (
                            facts.traits or (not facts.terminator and child._next_op is None)  # pyright: ignore[reportPrivateUsage]
                        ) and not self._place_verifies(child, facts):
                            _verify_in_full(child)
                        for operand in child._operands:  # pyright: ignore[reportPrivateUsage]
                            kind = type(operand)
                            if kind is OpResult:
                                definer = operand.op
                                seen = earlier_of(id(definer.parent))
                                if seen is not None and seen[0] >= first and id(definer) in seen[1]:
                                    continue
                            elif kind is BlockArgument:
                                entered = entered_of(id(operand.block))
                                if entered is not None and entered >= first:
                                    continue
                            self._check_dominance(child)  # says what is wrong, if anything
                            break
                    if ordered:
                        earlier[id(child)] = None
                    child = child._next_op  # pyright: ignore[reportPrivateUsage]
                if ordered:
                    del self._earlier[id(block)]

    def _facts_of(self, op: Operation) -> _ClassFacts:
        facts = self._facts.get(type(op))
        if facts is None:
            facts = self._facts[type(op)] = _ClassFacts(op)
        return facts

    def _verify(self, op: Operation, facts: _ClassFacts) -> None:
        cls = type(op)
        if not facts.memoized or op.regions or op._successors:  # pyright: ignore[reportPrivateUsage]
            return _verify_in_full(op)
        unknown = self._signatures.unknown(cls, op)
        if unknown is None:
            if not self._place_verifies(op, facts):
                _verify_in_full(op)
            return
        _verify_in_full(op)
        self._signatures.passed(unknown)

    @staticmethod
    def _place_verifies(op: Operation, facts: _ClassFacts) -> bool:
        """What `Operation.verify` checks of an op without regions or successors
        beyond its signature passes: the terminator rule and its traits' verifiers
        (erased operands: in the dominance check)."""
        block = op.parent
        if (
            not facts.terminator
            and op._next_op is None  # pyright: ignore[reportPrivateUsage]
            and block is not None
            and (region := block.parent) is not None
        ):
            count = len(region.blocks)
            if count > 1 or (
                count == 1 and region.parent is not None
                and not region.parent.has_trait(NoTerminator)
            ):
                return False
        try:
            for trait in facts.traits:
                trait.verify(op)
        except Exception:
            return False
        return True

    def _check_dominance(self, op: Operation) -> None:
        """xDSL does not check that a value is defined before its use in a block
        (MLIR does); without this a use before the definition parses and runs on
        garbage."""
        earlier = self._earlier
        isolating = self._isolating[-1] if self._isolating else None
        first = None if isolating is None else isolating[1]  # its first block's number
        for number, operand in enumerate(op._operands):  # pyright: ignore[reportPrivateUsage]
            kind = type(operand)
            if kind is OpResult:
                definer = operand.op
                block = definer.parent
                seen = earlier.get(id(block))
                if seen is not None:  # a block the walk is in, whose order matters
                    if first is not None and seen[0] < first:
                        self._not_isolated(block, isolating)  # type: ignore[arg-type]
                    if id(definer) not in seen[1]:
                        self._dominance_error(op, number, definer)
                    continue
            elif kind is BlockArgument:
                block = operand.block
            else:
                _verify_in_full(op)  # an erased value: the op's verification says so
                continue
            if first is not None:
                entered = self._entered.get(id(block))
                if entered is None or entered < first:
                    self._not_isolated(block, isolating)  # type: ignore[arg-type]
            if kind is BlockArgument or id(block) in self._orderless:
                continue
            if block is None or not _order_matters(block.parent):
                self._orderless.add(id(block))
                continue
            self._dominance_error(op, number, definer)

    @staticmethod
    def _not_isolated(block: Block | None, isolating: tuple[Operation, int]) -> None:
        """The innermost isolated op around a use (`IsolatedFromAbove`): unless the
        used value's block is in it, xDSL's check of the op fails, with its error."""
        if not _inside(block, isolating[0]):
            _verify_in_full(isolating[0])
            raise AssertionError(f"'{isolating[0].name}' passed xDSL's check")

    @staticmethod
    def _dominance_error(op: Operation, number: int, definer: Operation) -> None:
        if any(type(v) not in (OpResult, BlockArgument) for v in op._operands):  # pyright: ignore[reportPrivateUsage]
            _verify_in_full(op)  # an erased operand: reported before dominance
        raise UserError(
            f"'{op.name}' op operand #{number} does not dominate this use "
            f"(it is defined at {location_of(definer)})",
            op=op,
        )


def _verify_in_full(op: Operation) -> None:
    try:
        op.verify(verify_nested_ops=False)
    except Exception as error:  # xDSL verifiers raise more than VerifyException
        message = str(error).strip() or type(error).__name__
        # Dialects often prefix the op already ("'hip.add' op ..."; xDSL "op ...").
        message = message.removeprefix(f"'{op.name}' op ").removeprefix("op ")
        failure = UserError(f"'{op.name}' op {message}", op=op)
        failure.notes = (_current_operation_note(op, failure.location),)
        raise failure from None


def _current_operation_note(op: Operation, location: Location | None) -> Diagnostic:
    """MLIR's `see current operation: ...`: the op as it is now, in generic form
    (it may differ from the source after passes)."""
    try:
        root = op
        while (parent := root.parent_op()) is not None:
            root = parent
        text = print_mlir(op, generic=True, names_from=root)
    except Exception:  # an op too broken to print still gets its error
        text = f'"{op.name}"(...)'
    return Diagnostic("note", f"see current operation: {text}", location)
