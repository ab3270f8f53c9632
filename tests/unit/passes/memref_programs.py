"""Random small host programs of memref, arith and scf ops, for differential tests
of the cleanup passes.

One `func.func @main(%a: memref<8xi32>, %b: memref<8xi32>, %n: index)` returning
some i32 values. Every access is in bounds (indices are constants in [0, 8), or
sums reduced modulo 8) and every buffer is written before it is read, so the
program is defined and its outputs (results, and the bytes of `%a` and `%b`
afterwards) are what a correct rewrite must keep. Ops are often repeated with the
same operands, and constants often spelled twice, so that CSE and the folders
find work; views (casts, subviews, reshape round trips, dynamic sizes that are
constants) give the memref patterns theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["ProgramBuilder", "generate"]

Draw = Callable[[int, int], int]
"""`draw(low, high)`: an integer in [low, high]; hypothesis or `random` behind it."""


@dataclass
class _Buffer:
    name: str
    type: str
    size: int  # elements, 1-D
    offset: int = 0  # of this view into its root, for in-bounds subviews


@dataclass
class ProgramBuilder:
    draw: Draw
    lines: list[str] = field(default_factory=list)
    ints: list[str] = field(default_factory=list)
    indices: list[str] = field(default_factory=list)
    buffers: list[_Buffer] = field(default_factory=list)
    exprs: list[str] = field(default_factory=list)
    """Right-hand sides emitted so far, to repeat (CSE's work)."""
    counter: int = 0
    depth: int = 0

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def pick(self, items: list):
        return items[self.draw(0, len(items) - 1)]

    def emit(self, line: str) -> None:
        self.lines.append("  " * (self.depth + 1) + line)

    def define(self, stem: str, rhs: str, pool: list[str] | None) -> str:
        name = self.fresh(stem)
        self.emit(f"{name} = {rhs}")
        if pool is not None:
            pool.append(name)
        return name

    # Values -----------------------------------------------------------------------

    def index(self) -> str:
        """An index in [0, 8)."""
        if self.indices and self.draw(0, 2):
            return self.pick(self.indices)
        return self.define("c", f"arith.constant {self.draw(0, 7)} : index", self.indices)

    def int_value(self) -> str:
        if self.ints and self.draw(0, 3):
            return self.pick(self.ints)
        return self.define("k", f"arith.constant {self.draw(-3, 9)} : i32", self.ints)

    def buffer(self) -> _Buffer:
        return self.pick(self.buffers)

    # Statements -------------------------------------------------------------------

    def statement(self) -> None:
        kind = self.draw(0, 13)
        if kind <= 2:
            self.load()
        elif kind <= 4:
            self.store()
        elif kind == 5:
            self.binary()
        elif kind == 6:
            self.repeat()
        elif kind == 7:
            self.alloc()
        elif kind == 8:
            self.view()
        elif kind == 9:
            self.copy()
        elif kind == 10:
            self.derived_index()
        elif kind == 11 and self.depth < 2:
            self.branch()
        elif kind == 12 and self.depth < 2:
            self.loop()
        else:
            self.reshape_round_trip()

    def load_rhs(self, buf: _Buffer, index: str) -> str:
        return f"memref.load {buf.name}[{index}] : {buf.type}"

    def load(self) -> None:
        buf = self.buffer()
        index = self.clamped_index(buf)
        rhs = self.load_rhs(buf, index)
        self.exprs.append(rhs)
        self.define("v", rhs, self.ints)

    def clamped_index(self, buf: _Buffer) -> str:
        """An index in [0, buf.size)."""
        if buf.size == 8:
            return self.index()
        return self.define("c", f"arith.constant {self.draw(0, buf.size - 1)} : index",
                           None)

    def store(self) -> None:
        buf = self.buffer()
        self.emit(f"memref.store {self.int_value()}, {buf.name}[{self.clamped_index(buf)}]"
                  f" : {buf.type}")

    def binary(self) -> None:
        op = self.pick(["addi", "muli", "subi", "maxsi", "andi"])
        rhs = f"arith.{op} {self.int_value()}, {self.int_value()} : i32"
        self.exprs.append(rhs)
        self.define("v", rhs, self.ints)

    def repeat(self) -> None:
        """An earlier right-hand side again (its operands still dominate here only
        if it was emitted at this depth or outside; nested ones are dropped when
        their region closes)."""
        if not self.exprs:
            self.binary()
            return
        self.define("v", self.pick(self.exprs), self.ints)

    def alloc(self) -> None:
        choice = self.draw(0, 2)
        if choice == 0:
            name = self.define("m", "memref.alloc() : memref<8xi32>", None)
            buf = _Buffer(name, "memref<8xi32>", 8)
        elif choice == 1:
            size = self.define("c", "arith.constant 8 : index", None)
            name = self.define("m", f"memref.alloc({size}) : memref<?xi32>", None)
            buf = _Buffer(name, "memref<?xi32>", 8)
        else:
            name = self.define("m", "memref.alloca() : memref<8xi32>", None)
            buf = _Buffer(name, "memref<8xi32>", 8)
        # Written entirely before any read: a copy from an argument.
        self.emit(f"memref.copy %a, {name} : memref<8xi32> to {buf.type}")
        self.buffers.append(buf)

    def view(self) -> None:
        root = self.pick([b for b in self.buffers if b.size == 8])
        if self.draw(0, 1):
            name = self.define("w", f"memref.cast {root.name} : {root.type} to memref<?xi32>",
                               None)
            self.buffers.append(_Buffer(name, "memref<?xi32>", 8))
            return
        offset = self.draw(0, 4)
        off = self.define("c", f"arith.constant {offset} : index", self.indices)
        t = "memref<4xi32, strided<[1], offset: ?>>"
        name = self.define(
            "w", f"memref.subview {root.name}[{off}] [4] [1] : {root.type} to {t}", None
        )
        self.buffers.append(_Buffer(name, t, 4))

    def reshape_round_trip(self) -> None:
        root = self.pick([b for b in self.buffers if b.type == "memref<8xi32>"])
        wide = self.define(
            "r", f"memref.expand_shape {root.name} [[0, 1]] output_shape [2, 4] : "
            "memref<8xi32> into memref<2x4xi32>", None)
        flat = self.define(
            "r", f"memref.collapse_shape {wide} [[0, 1]] : memref<2x4xi32> into "
            "memref<8xi32>", None)
        self.buffers.append(_Buffer(flat, "memref<8xi32>", 8))

    def copy(self) -> None:
        full = [b for b in self.buffers if b.size == 8]
        src, dst = self.pick(full), self.pick(full)
        self.emit(f"memref.copy {src.name}, {dst.name} : {src.type} to {dst.type}")

    def derived_index(self) -> None:
        c8 = self.define("c", "arith.constant 8 : index", None)
        if self.draw(0, 1):
            buf = self.pick([b for b in self.buffers if b.size == 8])
            c0 = self.define("c", "arith.constant 0 : index", None)
            base = self.define("d", f"memref.dim {buf.name}, {c0} : {buf.type}", None)
        else:
            base = "%n"
        total = self.define("s", f"arith.addi {base}, {self.index()} : index", None)
        self.define("i", f"arith.remui {total}, {c8} : index", self.indices)

    def _nested(self, body: Callable[[], None]) -> None:
        """Run `body` one level deeper; values it defines do not escape."""
        saved = (list(self.ints), list(self.indices), list(self.buffers), list(self.exprs))
        self.depth += 1
        body()
        self.depth -= 1
        self.ints, self.indices, self.buffers, self.exprs = saved

    def _block(self, count: int, result: bool) -> str | None:
        for _ in range(count):
            self.statement()
        return self.int_value() if result else None

    def branch(self) -> None:
        lhs, rhs = self.int_value(), self.int_value()
        cond = self.define("b", f"arith.cmpi slt, {lhs}, {rhs} : i32", None)
        name = self.fresh("y")
        self.emit(f"{name} = scf.if {cond} -> (i32) {{")
        self._nested(lambda: self.emit(f"scf.yield {self._block(self.draw(0, 3), True)} : i32"))
        self.emit("} else {")
        self._nested(lambda: self.emit(f"scf.yield {self._block(self.draw(0, 3), True)} : i32"))
        self.emit("}")
        self.ints.append(name)

    def loop(self) -> None:
        lo = self.define("c", "arith.constant 0 : index", None)
        hi = self.define("c", f"arith.constant {self.draw(1, 3)} : index", None)
        step = self.define("c", "arith.constant 1 : index", None)
        init = self.int_value()
        name, iv, acc = self.fresh("f"), self.fresh("iv"), self.fresh("acc")
        self.emit(f"{name} = scf.for {iv} = {lo} to {hi} step {step} "
                  f"iter_args({acc} = {init}) -> (i32) {{")

        def body() -> None:
            self.ints.append(acc)
            value = self._block(self.draw(1, 3), True)
            self.emit(f"scf.yield {value} : i32")

        self._nested(body)
        self.emit("}")
        self.ints.append(name)

    # The function ------------------------------------------------------------------

    def function(self, statements: int) -> str:
        self.buffers = [_Buffer("%a", "memref<8xi32>", 8), _Buffer("%b", "memref<8xi32>", 8)]
        for _ in range(statements):
            self.statement()
        results = [self.int_value() for _ in range(self.draw(1, 3))]
        types = ", ".join("i32" for _ in results)
        body = "\n".join(self.lines)
        return (
            "func.func @main(%a: memref<8xi32>, %b: memref<8xi32>, %n: index) -> "
            f"({types}) {{\n{body}\n  return {', '.join(results)} : {types}\n}}\n"
        )


def generate(draw: Draw, statements: int = 12) -> str:
    """The text of one random program."""
    return ProgramBuilder(draw).function(statements)
