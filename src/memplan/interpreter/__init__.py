"""A reference interpreter for memplan's IR (hip, memref, arith, scf, func) with the
device work on a queue that a schedule drains, and a differential check of plans.

See docs/design/interpreter.md.
"""

from memplan.interpreter.differential import (
    DifferentialReport,
    Mismatch,
    Outcome,
    default_schedules,
    differential_check,
    run_function,
)
from memplan.interpreter.kernels import UnmodelledKernel
from memplan.interpreter.machine import DeviceStream, MemplanInterpreter, Schedule
from memplan.interpreter.memory import Allocation, MemRefValue

__all__ = [
    "Allocation",
    "DeviceStream",
    "DifferentialReport",
    "MemRefValue",
    "MemplanInterpreter",
    "Mismatch",
    "Outcome",
    "Schedule",
    "UnmodelledKernel",
    "default_schedules",
    "differential_check",
    "run_function",
]
