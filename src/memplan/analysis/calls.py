"""Which functions of a module run inside another's invocation: calls and outlined
bodies, found through symbol references, and the context memory they use.

The runtime keeps host scratch once per context and a pool once per context and
domain (`memplan.interfaces.ContextMemory`), so a callee's
`hip.get_host_scratch(%ctx, ..)` is its caller's bytes (docs/design/
execution-model.md). A plan made for one function is sound only if no function it
calls touches those bytes while its own buffers there are live, and a function
that is called may run twice within one invocation of its caller without the
runtime synchronizing in between. `CallGraph` answers the memory passes'
questions about that, from symbol references alone (any op that names a function:
`func.call`, an outlined loop body), never from op names:

- `caller(fn)`: an op that references `fn`, if any (then `fn` may run inside
  another function's invocation, perhaps several times);
- `callees(fn)`: the functions `fn` reaches through references, transitively;
- `unknown_context_call(fn)`: an op in `fn` or a callee that hands a runtime
  context to a symbol whose body is not in the module (it may use any of the
  context's memory);
- `reserved(fn, identity)`: the bytes of one kind of context memory that `fn`'s
  callees already use and ask for.

Building it walks the module once; the queries are linear in the functions and
references they reach. The passes of a pipeline share one graph
(`memplan.analysis.cache`); a pass that adds ops the graph records reports them
(`added`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.traits import CallableOpInterface

from memplan.analysis.byte_ranges import Linear, constant_reach
from memplan.interfaces import (
    context_memory,
    get_interface,
    is_runtime_context,
    memory_effects,
    outlined_bodies,
)
from memplan.symbols import SymbolIndex, SymbolRefScanner
from memplan.walk import walk_preorder

__all__ = ["CallGraph", "shared_context_memory"]


def _has_body(op: Operation) -> bool:
    callable_ = get_interface(op, CallableOpInterface)
    return callable_ is not None and bool(callable_.get_callable_region(op).blocks)


def _enclosing_function(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and get_interface(parent, CallableOpInterface) is None:
        parent = parent.parent_op()
    return parent


def _passes_context(op: Operation) -> bool:
    return any(is_runtime_context(v) for v in op.operands)


def _may_run_code_with_context(op: Operation) -> bool:
    """The op hands its context to code behind a symbol that may touch any of the
    context's memory: it runs outlined bodies, or its effects are unknown. An op
    whose effects are declared (a kernel launch naming its device kernel) touches
    only the values they name."""
    return _passes_context(op) and (bool(outlined_bodies(op)) or memory_effects(op) is None)


class CallGraph:
    """The symbol references between the functions of one module."""

    def __init__(self, module: ModuleOp):
        self._callers: dict[Operation, Operation] = {}
        self._callees: dict[Operation | None, list[Operation]] = {}
        self._unknown: dict[Operation | None, Operation] = {}
        # Each function's context-memory ops, by their model's identity, recorded
        # in this one walk so that queries never walk a callee again.
        self._memory: dict[Operation | None, dict[tuple[object, ...], list[Operation]]] = {}
        self._symbols = SymbolIndex(module)
        self._scanner = SymbolRefScanner()
        for op in walk_preorder(module):
            self._record(op)

    def _record(self, op: Operation) -> None:
        if (model := context_memory(op)) is not None:
            self._memory.setdefault(_enclosing_function(op), {}).setdefault(
                model.identity(op), []).append(op)
        refs = self._scanner.op_refs(op)
        if not refs:
            return
        owner = _enclosing_function(op)
        for ref in refs:
            target = self._symbols.lookup(ref)
            if target is not None and _has_body(target):
                self._callers.setdefault(target, op)
                self._callees.setdefault(owner, []).append(target)
            elif _may_run_code_with_context(op) and (
                target is None or get_interface(target, CallableOpInterface) is not None
            ):
                self._unknown.setdefault(owner, op)

    def added(self, op: Operation) -> None:
        """Take in `op`, just put into the module by a pass that keeps this graph
        true (`MemplanPass.preserved_analyses`) instead of rebuilding it: an op
        that defines no symbol and, among the ops of its function taking the same
        context memory, comes last in program order (or is the only one)."""
        self._record(op)

    def caller(self, function: Operation) -> Operation | None:
        """An op that references `function` (a call, an outlined body's loop)."""
        return self._callers.get(function)

    def callees(self, function: Operation) -> list[Operation]:
        """The functions with bodies that `function` references, transitively (itself
        only when it is recursive), each once, nearest first."""
        found: list[Operation] = []
        seen: set[Operation] = set()
        pending = [function]
        while pending:
            for callee in self._callees.get(pending.pop(), ()):
                if callee not in seen:
                    seen.add(callee)
                    found.append(callee)
                    pending.append(callee)
        return found

    def unknown_context_call(self, function: Operation) -> Operation | None:
        """An op in `function` or a callee that passes a runtime context to a symbol
        whose body memplan cannot see."""
        for f in (function, *self.callees(function)):
            if (op := self._unknown.get(f)) is not None:
                return op
        return None

    def context_memory_in(self, function: Operation, kind: str) -> Operation | None:
        """An op of `function` itself taking context memory of `kind`
        (`ContextMemory.kind`, the first element of its identity: the same memory
        whatever its key)."""
        for identity, ops in self._memory.get(function, {}).items():
            if identity[0] == kind:
                return ops[0]
        return None

    def reserved(self, function: Operation, identity: tuple[object, ...]) -> tuple[int, int] | str:
        """`(reach, size)` of the context memory of `identity` that `function`'s
        callees use: the end of the bytes their uses reach and the largest size they
        ask for (0, 0 when none does); or why it is not known."""
        reach = size = 0
        for callee in self.callees(function):
            for op in self._memory.get(callee, {}).get(identity, ()):
                model = context_memory(op)
                if model is None or not op.results:
                    continue
                asked = None if model.size_index is None else Linear.of(
                    op.operands[model.size_index]).constant()
                end, unknown = constant_reach(op.results[0], asked)
                if unknown is not None or asked is None:
                    return (f"'{op.name}' in a function it calls uses bytes that are not "
                            "constant")
                reach, size = max(reach, end), max(size, asked)
        return reach, size


def shared_context_memory(
    calls: CallGraph, function: Operation, kept_apart: str | None = None
) -> str | None:
    """Why `function` may not place buffers in context memory (host scratch, a
    pool): it is called from elsewhere (its bytes would be its caller's, and two
    calls in one invocation are not synchronized), it hands its context to a
    function memplan cannot see, or (for a `kept_apart` kind of context memory,
    `ContextMemory.kind`, whose memory is not planned across calls) a function it calls takes that memory too. None when it may."""
    if kept_apart is not None:
        for callee in calls.callees(function):
            taken = calls.context_memory_in(callee, kept_apart)
            if taken is not None:
                return (
                    f"a function it calls takes '{taken.name}' on the same runtime context, "
                    "whose bytes its own plan would overlap"
                )
    caller = calls.caller(function)
    if caller is not None:
        return (
            f"it is referenced by '{caller.name}', so it may run inside another "
            "function's invocation: the runtime keeps this memory once per context, "
            "and a second call's host accesses could meet the first call's queued kernels"
        )
    unknown = calls.unknown_context_call(function)
    if unknown is not None:
        return (
            f"'{unknown.name}' hands the runtime context to a function whose body is not "
            "in the module, which may use the same memory"
        )
    return None
