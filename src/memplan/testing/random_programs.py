"""Random race-free programs for fuzzing the memory passes.

A program is one `func.func @main` of kernels, host loads and stores, views,
`scf.for`/`scf.if`, read-backs, dynamic sizes and returns. The generator keeps
it race-free and deterministic under DESIGN.md section 2, so any difference a plan
makes is the plan's fault:

- a buffer is read (by a kernel or the host) only after it was entirely written
  (by a kernel's `outs` or a host `memref.copy`);
- a host store waits for device work that reads or writes its buffer, and a host
  load for device work that writes it: the generator inserts a wait where needed
  (and at the end of a loop body whose host accesses could meet the previous
  iteration's kernels): hip-ep's `hip.readback_scalar` of an input, whose value
  flows into later stores like a load's;
- values the host loads flow into stores, so a clobbered load changes the outputs.

Every op it writes is hip-ep's or MLIR's, so hip-ep's `hip-mlir-opt` reads every
program (`deferred=False` leaves out the one unregistered region op, which it reads
only with `--allow-unregistered-dialect`); tests/peer/hip_ep_accepts.py checks it.

Choices come from a `Choices` object: `random.Random`-driven for the benchmark, or
hypothesis-driven (`HypothesisChoices`) so that failures shrink.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

__all__ = ["Choices", "HypothesisChoices", "Program", "RandomChoices", "generate"]

T = TypeVar("T")

_ELEMENTS = ("f32", "f32", "f32", "f32", "f16", "f16", "i32", "i32", "i64", "i64",
             "i24", "i33", "index")
"""Element types of buffers: odd integer widths (`i24` takes 4 bytes, `i33` 8: the
data layout's alloc size, not ceil(bits / 8)) and `index` among them."""
_HOST_FED = ("i64", "i64", "i64", "i64", "i32", "i32", "f32", "f32", "i24", "i33", "i17",
             "index")
"""Element types of host-fed buffers (the integer ones go to host scratch); mostly
one type, so that two of them often could share a slot."""
_HOST_FED_SIZES = (1, 1, 2, 2, 4, 4, 9, 15, 32, 32)
"""Element counts of host-fed buffers: 9 and 15 x i33 pass 64 bytes only when sized
right."""
_SIZES = (1, 2, 4, 8, 16, 32, 70)
"""Static element counts; 70 x i24 (280 bytes, 210 at ceil(bits / 8)) crosses the
pool's 256-byte alignment only when sized right."""
_UNARY = ("exp", "neg", "abs", "silu", "sign", "miopen.softmax", "tanh", "sigmoid")
_INTEGER_UNARY = ("abs", "neg", "sign")
_BINARY = ("add", "sub", "mul", "max")
_ONNX_TYPES = {"f32": 1, "f16": 10, "i32": 6, "i64": 7, "i17": 6, "i24": 6, "i33": 7, "index": 7}
"""`hip.cast`'s `to` for each element type: the ONNX data type of its storage (i24
takes 4 bytes, i33 and index 8)."""
_STATEMENTS = (
    (6, "alloc"), (8, "host_init"), (29, "kernel"), (12, "host_load"), (12, "host_store"),
    (5, "host_copy"), (7, "view"), (4, "sync"), (6, "loop"), (5, "branch"),
    (2, "while_loop"), (1, "deferred"), (3, "call"),
)
"""Statement kinds and their weights out of 100."""
_DYNAMIC = 4
"""The value of the `%n` index argument in interpreted runs."""


class Choices(Protocol):
    def integer(self, low: int, high: int) -> int: ...

    def choice(self, items: Sequence[T]) -> T: ...

    def chance(self, percent: int) -> bool: ...


class RandomChoices:
    """Choices from a seeded `random.Random`."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def chance(self, percent: int) -> bool:
        return self.rng.randrange(100) < percent


class HypothesisChoices:
    """Choices drawn from hypothesis's `data` (so failing programs shrink)."""

    def __init__(self, data: Any):
        from hypothesis import strategies as st

        self.data = data
        self.st = st

    def integer(self, low: int, high: int) -> int:
        return self.data.draw(self.st.integers(low, high))

    def choice(self, items: Sequence[T]) -> T:
        return items[self.integer(0, len(items) - 1)]

    def chance(self, percent: int) -> bool:
        return self.integer(0, 99) < percent


@dataclass(eq=False)
class _Buffer:
    name: str
    element: str
    size: int | None
    """Elements of a 1-D buffer; None when dynamic (`%n` at run time)."""
    root: _Buffer | None = None
    view_type: str | None = None
    """The type of a view, when this is a view of `root`."""
    covers_root: bool = True
    rank2: bool = False

    @property
    def type(self) -> str:
        if self.view_type is not None:
            return self.view_type
        return f"memref<{'?' if self.size is None else self.size}x{self.element}>"

    @property
    def base(self) -> _Buffer:
        return self.root or self


@dataclass
class _State:
    initialized: set[int] = field(default_factory=set)
    device_reads: set[int] = field(default_factory=set)
    device_writes: set[int] = field(default_factory=set)

    def copy(self) -> _State:
        return _State(set(self.initialized), set(self.device_reads), set(self.device_writes))


@dataclass(frozen=True)
class Program:
    text: str
    buffers: int
    """Allocations in the program."""
    interpretable: bool = True
    """False when it holds an op the interpreter cannot run (a region op that does
    not declare that it runs inline): then only the plan checker judges it."""


class _Generator:
    def __init__(self, choices: Choices, max_ops: int, deferred: bool = True):
        self.c = choices
        self.max_ops = max_ops
        self.allow_deferred = deferred
        self.lines: list[str] = []
        self.counter = 0
        self.allocations = 0
        self.constants: dict[tuple[int, str], str] = {}
        self.state = _State()
        self.scopes: list[list[_Buffer]] = [[]]
        self.indent = 1
        self.host_accessed: set[int] = set()
        self.values: list[tuple[str, str]] = []  # (ssa name, element type) loaded values
        self.helpers: list[str] = []
        """Functions `@main` calls, each taking host scratch's candidates of its own."""
        self.interpretable = True
        self.deferred_depth = 0

    # ---------------------------------------------------------------- helpers

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("  " * self.indent + line)

    def index(self, value: int) -> str:
        key = (value, "index")
        if key not in self.constants:
            name = f"%c{value}"
            self.constants[key] = name
            self.preamble.append(f"  {name} = arith.constant {value} : index")
        return self.constants[key]

    def buffers(self) -> list[_Buffer]:
        return [b for scope in self.scopes for b in scope]

    def readable(self) -> list[_Buffer]:
        return [b for b in self.buffers() if id(b.base) in self.state.initialized]

    def sync(self, keep: bool = True) -> None:
        """hip-ep's wait: a read-back of the first input (always written in full;
        read after the wait, so never a race), its value kept for stores unless
        `keep` is False (a region's last op, whose values do not leave it)."""
        first = self.scopes[0][0]
        name = self.fresh("rb")
        self.emit(f"{name} = hip.readback_scalar(%ctx, {first.name} : {first.type}) -> {first.element}")
        if keep:
            self.values.append((name, first.element))
        self.state.device_reads.clear()
        self.state.device_writes.clear()

    def host_access(self, buffer: _Buffer, write: bool) -> None:
        key = id(buffer.base)
        pending = self.state.device_writes | (self.state.device_reads if write else set())
        if key in pending:
            self.sync()
        self.host_accessed.add(key)

    def elements(self, buffer: _Buffer) -> int:
        size = buffer.size if buffer.size is not None else _DYNAMIC
        return max(size, 1)

    # -------------------------------------------------------------- ops

    def alloc(self) -> _Buffer:
        element = self.c.choice(_ELEMENTS)
        dynamic = self.c.chance(20)
        size = None if dynamic else self.c.choice(_SIZES)
        buffer = _Buffer(self.fresh("buf"), element, size)
        self.allocations += 1
        sizes = "%n" if dynamic else ""
        self.emit(f"{buffer.name} = memref.alloc({sizes}) : {buffer.type}")
        self.scopes[-1].append(buffer)
        return buffer

    def view(self) -> None:
        candidates = [b for b in self.buffers() if b.root is None]
        if not candidates:
            return
        source = self.c.choice(candidates)
        name = self.fresh("view")
        t = source.type
        kind = self.c.integer(0, 2)
        if source.size is not None and source.size >= 2 and kind == 0:
            length = self.c.integer(1, source.size - 1)
            offset = self.c.integer(0, source.size - length)
            vt = f"memref<{length}x{source.element}, strided<[1], offset: {offset}>>"
            self.emit(f"{name} = memref.subview {source.name}[{offset}] [{length}] [1] : {t} to {vt}")
            view = _Buffer(name, source.element, length, source, vt, covers_root=False)
        elif source.size is not None and source.size % 2 == 0 and kind == 1:
            self._expanded(source, name)
            return
        else:
            vt = f"memref<?x{source.element}>"
            if source.size is None:
                return
            self.emit(f"{name} = memref.cast {source.name} : {t} to {vt}")
            view = _Buffer(name, source.element, source.size, source, vt)
        self.scopes[-1].append(view)

    def _same_kind(self, like: _Buffer, pool: list[_Buffer]) -> list[_Buffer]:
        return [b for b in pool if b.element == like.element and b.type == like.type]

    def kernel(self) -> None:
        readable = self.readable()
        kind = self.c.integer(0, 9)
        source = self.c.choice(readable)
        if kind == 0 or kind == 7:
            # A conversion into a buffer of any element type (also a fresh one).
            element = self.c.choice(
                _ELEMENTS if kind == 0 else [e for e in _ELEMENTS if e != source.element])
            out = self.output_for(source, element)
            self.emit(f"hip.cast(%ctx) ins({source.name} : {source.type}) outs({out.name} : {out.type}) "
                      f"{{to = {_ONNX_TYPES[element]} : i64}}")
        elif kind <= 4:
            op = self.c.choice(_UNARY if source.element.startswith("f") else _INTEGER_UNARY)
            out = self.output_for(source)
            self.emit(f"hip.{op}(%ctx) ins({source.name} : {source.type}) outs({out.name} : {out.type})")
        else:
            # Binary, the second operand of the same shape or (kinds 8, 9) any
            # one-element buffer of the element type, broadcast.
            others = self._same_kind(source, readable)
            if kind >= 8:
                others += [b for b in readable if b.element == source.element
                           and b.size == 1 and b.view_type is None]
            other = self.c.choice(others)
            op = self.c.choice(_BINARY)
            out = self.output_for(source)
            self.emit(
                f"hip.{op}(%ctx) ins({source.name}, {other.name} : {source.type}, {other.type}) "
                f"outs({out.name} : {out.type})")
            self.device_read(other)
        self.device_read(source)
        self.device_write(out)

    def output_for(self, like: _Buffer | None, element: str | None = None) -> _Buffer:
        """A buffer to write: a whole buffer of `like`'s shape, or a new one."""
        want_element = element or (like.element if like else None)
        want_size = like.size if like else None
        pool = [
            b for b in self.buffers()
            if (b.covers_root or id(b.base) in self.state.initialized)
            and (want_element is None or b.element == want_element)
            and (like is None or (b.size == want_size and b.view_type == like.view_type))
        ]
        if pool and self.c.chance(40):
            return self.c.choice(pool)
        buffer = _Buffer(self.fresh("buf"), want_element or self.c.choice(_ELEMENTS),
                         want_size if like is not None else self.c.choice(_SIZES))
        self.allocations += 1
        sizes = "%n" if buffer.size is None else ""
        self.emit(f"{buffer.name} = memref.alloc({sizes}) : {buffer.type}")
        self.scopes[-1].append(buffer)
        if like is not None and like.rank2 and buffer.size is not None:
            # An elementwise kernel's destination has its source's shape.
            return self._expanded(buffer, self.fresh("view"))
        return buffer

    def _expanded(self, source: _Buffer, name: str) -> _Buffer:
        """`name`, a 2 x N/2 view of a whole 1-D buffer of even size."""
        assert source.size is not None
        half = source.size // 2
        vt = f"memref<2x{half}x{source.element}>"
        self.emit(f"{name} = memref.expand_shape {source.name} [[0, 1]] output_shape [2, {half}] "
                  f": {source.type} into {vt}")
        view = _Buffer(name, source.element, source.size, source, vt, rank2=True)
        self.scopes[-1].append(view)
        return view

    def device_read(self, buffer: _Buffer) -> None:
        self.state.device_reads.add(id(buffer.base))

    def device_write(self, buffer: _Buffer) -> None:
        self.state.device_writes.add(id(buffer.base))
        if buffer.covers_root:
            self.state.initialized.add(id(buffer.base))

    def host_load(self) -> None:
        readable = self.readable()
        if not readable:
            return
        source = self.c.choice(readable)
        self.host_access(source, write=False)
        idx = self.indices(source)
        name = self.fresh("v")
        self.emit(f"{name} = memref.load {source.name}[{idx}] : {source.type}")
        self.values.append((name, source.element))

    def indices(self, buffer: _Buffer) -> str:
        if buffer.rank2:
            half = max(self.elements(buffer) // 2, 1)
            return f"{self.index(self.c.integer(0, 1))}, {self.index(self.c.integer(0, half - 1))}"
        return self.index(self.c.integer(0, self.elements(buffer) - 1))

    def host_store(self) -> None:
        targets = self.readable()
        if not targets:
            return
        target = self.c.choice(targets)
        matching = [v for v, e in self.values if e == target.element]
        if matching:
            value = self.c.choice(matching)
        else:
            value = self.fresh("k")
            literal = f"{self.c.integer(-9, 9)}.25" if target.element.startswith("f") else str(self.c.integer(-9, 9))
            self.emit(f"{value} = arith.constant {literal} : {target.element}")
        self.host_access(target, write=True)
        self.emit(f"memref.store {value}, {target.name}[{self.indices(target)}] : {target.type}")

    def host_init(self) -> None:
        """A fresh buffer the host fills element by element (the seed's host-fed
        buffers), with values no other buffer holds."""
        element = self.c.choice(_HOST_FED)
        size = self.c.choice(_HOST_FED_SIZES)
        buffer = _Buffer(self.fresh("fed"), element, size)
        self.allocations += 1
        self.emit(f"{buffer.name} = memref.alloc() : {buffer.type}")
        self.scopes[-1].append(buffer)
        self.counter += 1
        literal = f"{self.counter}.5" if element.startswith("f") else str(self.counter)
        value = self.fresh("k")
        self.emit(f"{value} = arith.constant {literal} : {element}")
        if size <= 2:
            for i in range(size):
                self.emit(f"memref.store {value}, {buffer.name}[{self.index(i)}] : {buffer.type}")
        else:
            iv = self.fresh("i")
            self.emit(f"scf.for {iv} = {self.index(0)} to {self.index(size)} step {self.index(1)} {{")
            self.emit(f"  memref.store {value}, {buffer.name}[{iv}] : {buffer.type}")
            self.emit("}")
        self.host_accessed.add(id(buffer))
        self.state.initialized.add(id(buffer))

    def host_copy(self) -> None:
        readable = self.readable()
        if not readable:
            return
        source = self.c.choice(readable)
        targets = [b for b in self.buffers() if b.type == source.type and b.covers_root
                   and b.size == source.size and b.base is not source.base]
        if not targets:
            return
        target = self.c.choice(targets)
        self.host_access(source, write=False)
        self.host_access(target, write=True)
        self.emit(f"memref.copy {source.name}, {target.name} : {source.type} to {target.type}")
        self.state.initialized.add(id(target.base))

    def loop(self, depth: int) -> None:
        iv = self.fresh("i")
        self.emit(f"scf.for {iv} = {self.index(0)} to {self.index(self.c.integer(1, 3))} step {self.index(1)} {{")
        entry = self.state.copy()
        self.nested(depth, loop=True)
        self.emit("}")
        self._keep_pending(entry)

    def _keep_pending(self, entry: _State) -> None:
        """A synchronize inside a loop or branch body orders nothing outside it
        (DESIGN.md section 2: the body may not run), so work pending before the
        region stays pending after it."""
        live = {id(b.base) for b in self.buffers()}
        self.state.device_reads |= entry.device_reads & live
        self.state.device_writes |= entry.device_writes & live

    def branch(self, depth: int) -> None:
        self.emit("scf.if %flag {")
        entry = self.state.copy()
        self.nested(depth, loop=False)
        then_state = self.state
        self.state = entry.copy()
        self.emit("} else {")
        self.nested(depth, loop=False)
        self.emit("}")
        else_state = self.state
        self.state = _State(
            then_state.initialized & else_state.initialized,
            then_state.device_reads | else_state.device_reads,
            then_state.device_writes | else_state.device_writes,
        )
        self._keep_pending(entry)

    def while_loop(self, depth: int) -> None:
        """`scf.while`: a condition region and a body, both run once per iteration
        (the condition once more), each with statements of its own."""
        before, after, bound = self.fresh("i"), self.fresh("j"), self.c.integer(1, 3)
        more, result, step = self.fresh("more"), self.fresh("w"), self.fresh("next")
        self.emit(f"{result} = scf.while ({before} = {self.index(0)}) : (index) -> index {{")
        entry = self.state.copy()
        self.indent += 1
        self.emit(f"{more} = arith.cmpi slt, {before}, {self.index(bound)} : index")
        self.indent -= 1
        self.nested(depth, loop=True)
        # The checker does not count a synchronize of one region for another.
        self._keep_pending(entry)
        condition = self.state.copy()
        self.indent += 1
        self.emit(f"scf.condition({more}) {before} : index")
        self.indent -= 1
        self.emit("} do {")
        self.emit(f"^bb0({after}: index):")
        self.nested(depth, loop=True)
        self.indent += 1
        if self.state.device_reads or self.state.device_writes:
            # The condition of the next iteration meets this body's kernels.
            self.sync(keep=False)
        self.emit(f"{step} = arith.addi {after}, {self.index(1)} : index")
        self.emit(f"scf.yield {step} : index")
        self.indent -= 1
        self.emit("}")
        # The loop leaves after its condition region: what that left pending stays.
        self.state.initialized |= condition.initialized
        self.state.device_reads |= condition.device_reads
        self.state.device_writes |= condition.device_writes
        self._keep_pending(entry)

    def deferred(self, depth: int) -> None:
        """An op with a region that does not say it runs it inline on the host (it may
        run it later, elsewhere): the planners must keep what it uses to itself. The
        interpreter cannot run it, so such a program is judged by the checker alone."""
        if self.deferred_depth or not self.allow_deferred:
            return
        self.interpretable = False
        self.deferred_depth += 1
        entry = self.state.copy()
        self.emit('"fuzz.deferred"() ({')
        self.nested(depth, loop=True)
        self._keep_pending(entry)  # its synchronizes may run at any time
        self.indent += 1
        self.emit('"fuzz.end"() : () -> ()')
        self.indent -= 1
        self.emit("}) : () -> ()")
        # Not the last op of a block: a parser takes an unregistered last op for the
        # block's terminator.
        self.emit(f"{self.fresh('after')} = arith.constant 0 : index")
        self.deferred_depth -= 1

    def call(self) -> None:
        """A call of a helper that feeds scalars of its own to a kernel writing one
        of this function's buffers (a cast of the whole host-fed buffer): the
        helper's host-fed buffer and the caller's would share the context's one
        host scratch."""
        roots = [b for b in self.buffers() if b.root is None and not b.name.startswith("%in")
                 and b.size is not None and b.size <= 16]
        if not roots or self.deferred_depth:
            # (an unregistered op counts as a symbol table: the callee would not resolve)
            return
        out = self.c.choice(roots)
        name = f"@helper{len(self.helpers)}"
        element = self.c.choice(("i64", "i24", "i33", "index"))
        t = f"memref<{out.size}x{element}>"
        if out.size <= 2:
            constants = "\n".join(f"  %c{i} = arith.constant {i} : index" for i in range(out.size))
            stores = "\n".join(f"  memref.store %k, %h[%c{i}] : {t}" for i in range(out.size))
        else:
            constants = "\n".join(f"  %c{i} = arith.constant {i} : index" for i in (0, 1, out.size))
            stores = (f"  scf.for %i = %c0 to %c{out.size} step %c1 {{\n"
                      f"    memref.store %k, %h[%i] : {t}\n  }}")
        self.helpers.append(
            f"func.func {name}(%ctx: !hip.context, %out: {out.type}) {{\n"
            f"{constants}\n"
            f"  %h = memref.alloc() : {t}\n"
            f"  %k = arith.constant {self.c.integer(1, 99)} : {element}\n"
            f"{stores}\n"
            f"  hip.cast(%ctx) ins(%h : {t}) outs(%out : {out.type}) {{to = {_ONNX_TYPES[out.element]} : i64}}\n"
            f"  memref.dealloc %h : {t}\n"
            "  return\n}\n"
        )
        for _ in range(self.c.integer(1, 2)):
            self.emit(f"func.call {name}(%ctx, {out.name}) : (!hip.context, {out.type}) -> ()")
        self.device_write(out)

    def scratch_chain(self) -> None:
        """Host scratch the function already takes, used through a chain of views that
        reaches past its first view (a reinterpret_cast of a 1 x i64 view to 9 x i64,
        72 bytes): new host scalars must go after all of it."""
        scratch, first, chain = self.fresh("scratch"), self.fresh("sview"), self.fresh("schain")
        self.emit(f"{scratch} = hip.get_host_scratch(%ctx, {self.index(128)}) : memref<?xi8>")
        self.emit(f"{first} = memref.view {scratch}[{self.index(0)}][] : memref<?xi8> to memref<1xi64>")
        self.emit(f"{chain} = memref.reinterpret_cast {first} to offset: [0], sizes: [9], "
                  "strides: [1] : memref<1xi64> to memref<9xi64>")
        buffer = _Buffer(chain, "i64", 9)
        self.scopes[-1].append(buffer)
        value = self.fresh("k")
        self.emit(f"{value} = arith.constant {self.c.integer(1, 99)} : i64")
        iv = self.fresh("i")
        self.emit(f"scf.for {iv} = {self.index(0)} to {self.index(9)} step {self.index(1)} {{")
        self.emit(f"  memref.store {value}, {chain}[{iv}] : memref<9xi64>")
        self.emit("}")
        self.host_accessed.add(id(buffer))
        self.state.initialized.add(id(buffer))

    def nested(self, depth: int, loop: bool) -> None:
        self.indent += 1
        self.scopes.append([])
        outer_values = len(self.values)
        accessed_before = set(self.host_accessed)
        self.host_accessed = set()
        for _ in range(self.c.integer(1, 4)):
            self.statement(depth + 1)
        if loop:
            # The next iteration's host accesses meet this iteration's kernels.
            pending = self.state.device_writes | self.state.device_reads
            if self.host_accessed & pending:
                self.sync()
        self.host_accessed |= accessed_before
        del self.values[outer_values:]
        self.scopes.pop()
        # Buffers of the inner scope are gone; forget their state.
        live = {id(b.base) for b in self.buffers()}
        for s in (self.state.initialized, self.state.device_reads, self.state.device_writes):
            s.intersection_update(live)
        self.indent -= 1

    def statement(self, depth: int) -> None:
        roll = self.c.integer(0, 99)
        for weight, name in _STATEMENTS:
            if roll < weight:
                break
            roll -= weight
        if name in ("loop", "branch", "while_loop", "deferred"):
            if depth < 2:
                getattr(self, name)(depth)
            return
        getattr(self, name)()

    def run(self) -> Program:
        self.preamble: list[str] = []
        inputs = [_Buffer(f"%in{i}", e, s) for i, (e, s) in enumerate(
            [(self.c.choice(_ELEMENTS), self.c.choice(_SIZES)) for _ in range(self.c.integer(1, 2))])]
        for buffer in inputs:
            self.scopes[0].append(buffer)
            self.state.initialized.add(id(buffer))
        if self.c.chance(25):
            self.scratch_chain()
        for _ in range(self.c.integer(3, self.max_ops)):
            self.statement(0)
        roots = [b for b in self.scopes[0] if b.root is None and b not in inputs
                 and id(b) in self.state.initialized]
        returned = [b for b in roots if self.c.chance(50)][:3]
        if not returned and roots:
            returned = [roots[-1]]
        args = ", ".join(["%ctx: !hip.context", *(f"{b.name}: {b.type}" for b in inputs),
                          "%n: index", "%flag: i1"])
        results = ", ".join(b.type for b in returned)
        header = f"func.func @main({args}) -> ({results}) {{"
        body = self.preamble + self.lines
        ret = ("  return " + ", ".join(b.name for b in returned) + " : " + results) if returned else "  return"
        main = "\n".join([header, *body, ret, "}"]) + "\n"
        return Program("".join(self.helpers) + main, self.allocations, self.interpretable)


def generate(choices: Choices, max_ops: int = 14, *, deferred: bool = True) -> Program:
    """One random race-free program (`@main`); `deferred=False`: without the
    unregistered region op (`"fuzz.deferred"`)."""
    return _Generator(choices, max_ops, deferred).run()
