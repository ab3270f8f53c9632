"""The reference interpreter: xDSL's interpreter with a device queue.

Host ops run at once, in program order (xDSL's `arith`, `scf` and `func`
implementations, and memplan's byte-addressed `memref`). A hip kernel is put on its
context's in-order queue and runs later: at a `memplan.synchronize` (or any op that
declares `StreamSynchronization`), at the end of the run, or whenever the schedule
says so — as late as legal (`late`), at once (`early`), or, before every host op,
some queued kernels chosen with a seeded coin (`random`). Queued kernels always run
in their queue's order, so every schedule is one the execution model allows, and a
race in a plan shows as outputs that differ between schedules.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp, SymbolRefAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    OpImplResult,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.builtin import scalar_attr
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.ir import Operation
from xdsl.utils.exceptions import InterpretationError

from memplan.dialects import hip
from memplan.dialects.memplan_dialect import SynchronizeOp
from memplan.interfaces import ALL_STREAMS, context_memory, synchronized_stream
from memplan.interpreter.kernels import check_kernels, run_kernel
from memplan.interpreter.memory import Allocation, MemRefValue, contiguous_strides, dtype_of

__all__ = ["DeviceStream", "MemplanInterpreter", "Schedule"]


@dataclass(frozen=True)
class Schedule:
    """When queued kernels run: `late` (only when the host must wait), `early` (as
    soon as they are enqueued), `random` (a seeded choice before every host op)."""

    policy: Literal["late", "early", "random"] = "late"
    seed: int = 0

    def __str__(self) -> str:
        return self.policy if self.policy != "random" else f"random(seed={self.seed})"


@dataclass(eq=False)
class DeviceStream:
    """The runtime value of a `!hip.context`: its in-order queue of kernels."""

    name: str
    queue: deque[tuple[Operation, list[MemRefValue], list[MemRefValue]]] = field(
        default_factory=deque
    )
    memory: dict[tuple[object, ...], Allocation] = field(default_factory=dict)
    """The context's memory (`ContextMemory`): host scratch, a pool per domain."""


def _mixed(static: tuple[int, ...], dynamic: list[Any]) -> list[int]:
    values = iter(dynamic)
    return [next(values).value.data if s == DYNAMIC_INDEX else s for s in static]


def _shape(t: MemRefType, dynamic: PythonValues) -> tuple[int, ...]:
    values = iter(dynamic)
    return tuple(next(values).value.data if d == DYNAMIC_INDEX else d for d in t.get_shape())


def _to_storage(value: Any, dtype: np.dtype) -> Any:
    if dtype.kind in "iu":
        bits = dtype.itemsize * 8
        v = int(value) & ((1 << bits) - 1)
        return v - (1 << bits) if v >= 1 << (bits - 1) else v
    if dtype == np.bool_:
        return bool(int(value) & 1)
    return value


@register_impls
class MemrefFunctions(InterpreterFunctions):
    """memref ops on byte-addressed memory (xDSL's own memref interpreter keeps one
    array per buffer, so views could not alias)."""

    @impl(memref.AllocOp)
    def run_alloc(self, interp: Interpreter, op: memref.AllocOp, args: PythonValues):
        return (MemRefValue.fresh(op.memref.type, _shape(op.memref.type, args), op.name),)

    @impl(memref.AllocaOp)
    def run_alloca(self, interp: Interpreter, op: memref.AllocaOp, args: PythonValues):
        return (MemRefValue.fresh(op.memref.type, _shape(op.memref.type, args), op.name),)

    @impl(memref.DeallocOp)
    def run_dealloc(self, interp: Interpreter, op: Operation, args: PythonValues):
        return ()

    @impl(memref.LoadOp)
    def run_load(self, interp: Interpreter, op: memref.LoadOp, args: PythonValues):
        buffer, *indices = args
        value = buffer.array()[tuple(i.value.data for i in indices)]
        item = value.item()
        if isinstance(item, bool):
            item = int(item)
        return (scalar_attr(item, op.res.type, interp.index_bitwidth),)

    @impl(memref.StoreOp)
    def run_store(self, interp: Interpreter, op: memref.StoreOp, args: PythonValues):
        value, buffer, *indices = args
        array = buffer.array()
        array[tuple(i.value.data for i in indices)] = _to_storage(value.value.data, array.dtype)
        return ()

    @impl(memref.CopyOp)
    def run_copy(self, interp: Interpreter, op: memref.CopyOp, args: PythonValues):
        source, destination = args
        destination.array()[...] = source.array()
        return ()

    @impl(memref.DimOp)
    def run_dim(self, interp: Interpreter, op: memref.DimOp, args: PythonValues):
        buffer, index = args
        return (scalar_attr(buffer.shape[index.value.data], op.result.type, interp.index_bitwidth),)

    @impl(memref.ViewOp)
    def run_view(self, interp: Interpreter, op: memref.ViewOp, args: PythonValues):
        source, shift, *sizes = args
        t = op.result.type
        shape = _shape(t, sizes)
        base = source.base + source.offset * source.dtype.itemsize + shift.value.data
        return (MemRefValue(source.alloc, base, 0, shape, contiguous_strides(shape),
                            dtype_of(t.element_type)),)

    @impl(memref.ReinterpretCastOp)
    def run_reinterpret_cast(self, interp: Interpreter, op: memref.ReinterpretCastOp,
                             args: PythonValues):
        source = args[0]
        offsets = _mixed(op.static_offsets.get_values(), list(interp.get_values(op.offsets)))
        sizes = _mixed(op.static_sizes.get_values(), list(interp.get_values(op.sizes)))
        strides = _mixed(op.static_strides.get_values(), list(interp.get_values(op.strides)))
        return (source.with_layout(offsets[0], tuple(sizes), tuple(strides),
                                   dtype_of(op.result.type.element_type)),)

    @impl(memref.SubviewOp)
    def run_subview(self, interp: Interpreter, op: memref.SubviewOp, args: PythonValues):
        source = args[0]
        offsets = _mixed(op.static_offsets.get_values(), list(interp.get_values(op.offsets)))
        sizes = _mixed(op.static_sizes.get_values(), list(interp.get_values(op.sizes)))
        steps = _mixed(op.static_strides.get_values(), list(interp.get_values(op.strides)))
        offset = source.offset + sum(o * s for o, s in zip(offsets, source.strides))
        strides = [s * st for s, st in zip(source.strides, steps)]
        rank = op.result.type.get_num_dims()
        dims = list(range(len(sizes)))
        while len(dims) > rank:  # a rank-reducing subview drops unit dimensions
            unit = next((d for d in dims if sizes[d] == 1), None)
            if unit is None:
                raise InterpretationError("rank-reducing subview without unit dimension")
            dims.remove(unit)
        return (source.with_layout(offset, tuple(sizes[d] for d in dims),
                                   tuple(strides[d] for d in dims)),)

    def _same(self, interp: Interpreter, op: Operation, args: PythonValues):
        return (args[0],)

    @impl(memref.CastOp)
    def run_cast(self, interp, op, args):
        return self._same(interp, op, args)

    @impl(memref.MemorySpaceCastOp)
    def run_memory_space_cast(self, interp, op, args):
        return self._same(interp, op, args)

    @impl(memref.AssumeAlignmentOp)
    def run_assume_alignment(self, interp, op, args):
        return self._same(interp, op, args)

    def _reshape(self, source: MemRefValue, t: MemRefType, groups: list[list[int]],
                 expand: bool) -> tuple[MemRefValue]:
        if not source.is_contiguous():
            raise InterpretationError("reshape of a non-contiguous memref is not supported")
        if expand:
            shape = list(t.get_shape())
            for group, size in zip(groups, source.shape):
                dynamic = [d for d in group if shape[d] == DYNAMIC_INDEX]
                known = int(np.prod([shape[d] for d in group if shape[d] != DYNAMIC_INDEX]))
                for d in dynamic:
                    shape[d] = size // max(known, 1)
        else:
            shape = [int(np.prod([source.shape[d] for d in group])) for group in groups]
        new_shape = tuple(shape)
        return (source.with_layout(source.offset, new_shape, contiguous_strides(new_shape)),)

    @staticmethod
    def _groups(op: Operation) -> list[list[int]]:
        return [[a.value.data for a in group.data] for group in op.reassociation.data]

    @impl(memref.ExpandShapeOp)
    def run_expand_shape(self, interp, op, args):
        return self._reshape(args[0], op.result.type, self._groups(op), expand=True)

    @impl(memref.CollapseShapeOp)
    def run_collapse_shape(self, interp, op, args):
        return self._reshape(args[0], op.result.type, self._groups(op), expand=False)


@register_impls
class ArithExtras(InterpreterFunctions):
    """arith ops xDSL's interpreter lacks that random programs use."""

    @impl(arith.DivfOp)
    def run_divf(self, interp, op, args):
        lhs, rhs = args[0].value.data, args[1].value.data
        result = lhs / rhs if rhs != 0 else (np.inf if lhs > 0 else -np.inf if lhs < 0 else np.nan)
        return (scalar_attr(float(result), op.result.type, interp.index_bitwidth),)

    @impl(arith.SIToFPOp)
    def run_sitofp(self, interp, op, args):
        return (scalar_attr(float(args[0].value.data), op.result.type, interp.index_bitwidth),)

    @impl(arith.ExtSIOp)
    def run_extsi(self, interp, op, args):
        return (scalar_attr(args[0].value.data, op.result.type, interp.index_bitwidth),)

    def _unsigned(self, interp, op, args, fn):
        width = 64 if not hasattr(op.result.type, "width") else op.result.type.width.data
        mask = (1 << width) - 1
        lhs, rhs = args[0].value.data & mask, args[1].value.data & mask
        return (scalar_attr(fn(lhs, rhs), op.result.type, interp.index_bitwidth),)

    @impl(arith.CeilDivUIOp)
    def run_ceildivui(self, interp, op, args):
        return self._unsigned(interp, op, args, lambda a, b: -(-a // b))

    @impl(arith.DivUIOp)
    def run_divui(self, interp, op, args):
        return self._unsigned(interp, op, args, lambda a, b: a // b)

    @impl(arith.RemUIOp)
    def run_remui(self, interp, op, args):
        return self._unsigned(interp, op, args, lambda a, b: a % b)

    @impl(arith.MaxUIOp)
    def run_maxui(self, interp, op, args):
        return self._unsigned(interp, op, args, max)

    @impl(arith.MinUIOp)
    def run_minui(self, interp, op, args):
        return self._unsigned(interp, op, args, min)

    @impl(arith.MaxSIOp)
    def run_maxsi(self, interp, op, args):
        return (scalar_attr(max(args[0].value.data, args[1].value.data), op.result.type,
                            interp.index_bitwidth),)

    @impl(arith.MinSIOp)
    def run_minsi(self, interp, op, args):
        return (scalar_attr(min(args[0].value.data, args[1].value.data), op.result.type,
                            interp.index_bitwidth),)

    @impl(arith.TruncIOp)
    def run_trunci(self, interp, op, args):
        width = op.result.type.width.data
        v = args[0].value.data & ((1 << width) - 1)
        if v >= 1 << (width - 1):
            v -= 1 << width
        return (scalar_attr(v, op.result.type, interp.index_bitwidth),)


@register_impls
class HipFunctions(InterpreterFunctions):
    """hip ops: runtime memory, and kernels put on their context's queue."""

    def _context_memory(self, interp: MemplanInterpreter, op: Operation, args: PythonValues):
        """The context's one buffer of this kind (`ContextMemory`), in every function
        that asks for it; as hip-ep's runtime does, a larger size waits for the
        stream and replaces it, and the old bytes are gone."""
        model = context_memory(op)
        assert model is not None and model.size_index is not None
        stream = args[model.context_index]
        nbytes = args[model.size_index].value.data
        key = model.identity(op)
        current = stream.memory.get(key)
        if current is None or current.data.size < nbytes:
            if current is not None:
                interp.drain(stream)
                current.released = f"a larger '{op.name}' replaced it"
            current = stream.memory[key] = Allocation.zeros(nbytes, f"{op.name} of {stream.name}")
        return (MemRefValue(current, 0, 0, (nbytes,), (1,), np.dtype(np.uint8)),)

    @impl(hip.GetPoolOp)
    def run_get_pool(self, interp, op, args):
        return self._context_memory(interp, op, args)

    @impl(hip.GetHostScratchOp)
    def run_get_host_scratch(self, interp, op, args):
        return self._context_memory(interp, op, args)

    @impl(hip.AllocOp)
    def run_alloc(self, interp, op, args):
        t = op.result.type
        return (MemRefValue.fresh(t, _shape(t, args[1:]), op.name),)

    @impl(hip.FreeOp)
    def run_free(self, interp, op, args):
        return ()

    @impl(SynchronizeOp)
    def run_synchronize(self, interp, op, args):
        return ()  # the queue was drained before the op ran (StreamSynchronization)

    @impl(hip.ReadbackScalarOp)
    def run_readback_scalar(self, interp, op, args):
        return self._read_back(interp, op, args)

    @impl(hip.ReadbackDimOp)
    def run_readback_dim(self, interp, op, args):
        return self._read_back(interp, op, args)

    def _read_back(self, interp: MemplanInterpreter, op: Operation, args: PythonValues):
        """The buffer's first element (the queue was drained before the op ran,
        `StreamSynchronization`), as the result's type."""
        array = args[1].array()
        item = array[(0,) * array.ndim].item()
        if isinstance(item, bool):
            item = int(item)
        return (scalar_attr(item, op.results[0].type, interp.index_bitwidth),)

    @impl(hip.KernelOp)
    def run_kernel_op(self, interp: MemplanInterpreter, op: hip.KernelOp, args: PythonValues):
        stream = args[0]
        ins = list(args[1:1 + len(op.ins)])
        outs = list(args[1 + len(op.ins):])
        stream.queue.append((op, ins, outs))
        interp.enqueued += 1
        if interp.schedule.policy == "early":
            interp.drain(stream)
        return ()


class MemplanInterpreter(Interpreter):
    """xDSL's interpreter with memplan's memory, hip ops and a device schedule."""

    def __init__(self, module: ModuleOp, schedule: Schedule | None = None):
        check_kernels(module)
        super().__init__(module, index_bitwidth=64)
        for functions in (ArithFunctions(), ScfFunctions(), FuncFunctions(),
                          MemrefFunctions(), ArithExtras(), HipFunctions()):
            self.register_implementations(functions)
        self.schedule = schedule = schedule or Schedule()
        self.random = random.Random(schedule.seed)
        self.streams: list[DeviceStream] = []
        self.enqueued = 0

    def _impl_for(self, op: Operation) -> None:
        """Ops of subclasses (memplan's MLIR-syntax memref and func ops, every hip
        kernel) use the implementation, and the callable implementation, of their
        nearest registered base class."""
        impls = self._impls
        for table in (impls._impl_dict, impls._callable_impl_dict):  # pyright: ignore[reportPrivateUsage]
            if type(op) in table:
                continue
            for cls in type(op).__mro__[1:]:
                if cls in table:
                    table[type(op)] = table[cls]
                    break

    def call_op(
        self, op: Operation | str | SymbolRefAttr, inputs: PythonValues = ()
    ) -> PythonValues:
        if not isinstance(op, Operation):
            op = self.get_op_for_symbol(op)
        self._impl_for(op)
        return super().call_op(op, inputs)

    def _run_op(self, op: Operation, inputs: PythonValues) -> OpImplResult:
        self._impl_for(op)
        # The op waits when and where it declares it (before or after its own
        # accesses, maybe only under a condition), as the ordering analysis reads it.
        before = synchronized_stream(op)
        after = synchronized_stream(op, after_accesses=True)
        if before is not None:
            self._wait_for(op, inputs, before)
        elif self.schedule.policy == "random":
            self._maybe_run()
        results = super()._run_op(op, inputs)
        if after is not None:
            self._wait_for(op, inputs, after)
        return results

    def _wait_for(self, op: Operation, inputs: PythonValues, stream: object) -> None:
        if stream is ALL_STREAMS:
            self.drain_all()
        else:
            self.drain(inputs[list(op.operands).index(stream)])

    def new_stream(self, name: str) -> DeviceStream:
        stream = DeviceStream(name)
        self.streams.append(stream)
        return stream

    def _maybe_run(self) -> None:
        for stream in self.streams:
            while stream.queue and self.random.random() < 0.5:
                self._run_one(stream)

    def _run_one(self, stream: DeviceStream) -> None:
        op, ins, outs = stream.queue.popleft()
        run_kernel(op, [a.array() for a in ins], [a.array() for a in outs])

    def drain(self, stream: Any) -> None:
        if stream is ALL_STREAMS or not isinstance(stream, DeviceStream):
            self.drain_all()
            return
        while stream.queue:
            self._run_one(stream)

    def drain_all(self) -> None:
        for stream in self.streams:
            self.drain(stream)
