"""The interpreter's memory, ops and schedules."""

from __future__ import annotations

import struct

import numpy as np

from memplan.interpreter import Schedule, default_schedules, run_function

PENDING_READ = """
func.func @f(%ctx: !hip.context, %x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %y = memref.alloc() : memref<4xf32>
  hip.neg(%ctx) ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  %v = memref.load %y[%c0] : memref<4xf32>
  return %v : f32
}
"""


def test_late_schedule_leaves_kernels_queued_until_needed(parse):
    module = parse(PENDING_READ)
    late = run_function(module, "f", Schedule("late"))
    early = run_function(module, "f", Schedule("early"))
    # The host load races with the queued kernel: late sees the fresh zeros,
    # early the kernel's result.
    assert late.results == (0.0,)
    assert early.results[0] != 0.0
    assert late.kernels == early.kernels == 1


def test_synchronize_drains_the_queue(parse):
    module = parse(PENDING_READ.replace(
        "  %v = memref.load", "  memplan.synchronize(%ctx)\n  %v = memref.load"))
    outcomes = {run_function(module, "f", s).results for s in default_schedules(6)}
    assert len(outcomes) == 1
    (value,) = outcomes.pop()
    x = run_function(module, "f").arguments[0]
    assert value == -struct.unpack("<f", x[:4])[0]


def test_random_schedules_differ_on_a_racy_program(parse):
    module = parse(PENDING_READ)
    seen = {run_function(module, "f", Schedule("random", seed)).results for seed in range(16)}
    assert len(seen) == 2


def test_views_into_one_pool_alias(parse):
    module = parse("""
    func.func @f(%v: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %pool = memref.alloc() : memref<64xi8>
      %a = memref.view %pool[%c0][] : memref<64xi8> to memref<4xf32>
      %b = memref.view %pool[%c4][] : memref<64xi8> to memref<2xf32>
      memref.store %v, %b[%c0] : memref<2xf32>
      %r = memref.load %a[%c1] : memref<4xf32>
      return %r : f32
    }""")
    outcome = run_function(module, "f", seed=3)
    assert outcome.error is None
    rng = np.random.default_rng(3)
    expected = float(np.float32(rng.uniform(-2, 2)))
    assert outcome.results == (expected,)


def test_reinterpret_cast_subview_and_reshape_address_the_same_bytes(parse):
    module = parse("""
    func.func @f(%x: memref<2x4xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %row = memref.subview %x[1, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: 4>>
      %flat = memref.collapse_shape %x [[0, 1]] : memref<2x4xf32> into memref<8xf32>
      %r = memref.reinterpret_cast %x to offset: [2], sizes: [3], strides: [2] : memref<2x4xf32> to memref<3xf32, strided<[2], offset: 2>>
      %a = memref.load %row[%c1] : memref<4xf32, strided<[1], offset: 4>>
      %b = memref.load %flat[%c5] : memref<8xf32>
      %c = memref.load %r[%c1] : memref<3xf32, strided<[2], offset: 2>>
      %s = arith.subf %a, %b : f32
      %t = arith.subf %c, %a : f32
      %u = arith.addf %s, %t : f32
      return %u : f32
    }""")
    outcome = run_function(module, "f")
    # row[1] and flat[5] are x[1][1]; r[1] is element 4 = x[1][0].
    x = np.frombuffer(outcome.arguments[0], dtype=np.float32)
    assert outcome.results == (float(np.float32(x[4] - x[5])),)


def test_loops_branches_and_calls(parse):
    module = parse("""
    func.func private @twice(%v: index) -> index {
      %r = arith.addi %v, %v : index
      return %r : index
    }
    func.func @f(%n: index, %flag: i1) -> index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %acc = memref.alloc() : memref<1xindex>
      memref.store %c0, %acc[%c0] : memref<1xindex>
      scf.for %i = %c0 to %n step %c1 {
        %old = memref.load %acc[%c0] : memref<1xindex>
        %new = arith.addi %old, %i : index
        memref.store %new, %acc[%c0] : memref<1xindex>
      }
      %sum = memref.load %acc[%c0] : memref<1xindex>
      %r = scf.if %flag -> (index) {
        %d = func.call @twice(%sum) : (index) -> index
        scf.yield %d : index
      } else {
        scf.yield %sum : index
      }
      return %r : index
    }""")
    outcome = run_function(module, "f", dynamic_size=5)
    flag = int(np.random.default_rng(0).integers(0, 2))
    assert outcome.results == ((20 if flag else 10),)


def test_out_of_bounds_is_an_outcome_not_a_crash(parse):
    module = parse("""
    func.func @f(%v: f32) {
      %c4 = arith.constant 4 : index
      %a = memref.alloc() : memref<4xf32>
      memref.store %v, %a[%c4] : memref<4xf32>
      return
    }""")
    assert run_function(module, "f").error is not None


def test_dynamic_sizes_and_runtime_allocations(parse):
    module = parse("""
    func.func @f(%ctx: !hip.context, %n: index) -> memref<?xf32> {
      %bytes = arith.constant 256 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = arith.constant 2.5 : f32
      %pool = hip.get_pool(%ctx, %bytes) : memref<?xi8>
      %a = memref.view %pool[%c0][%n] : memref<?xi8> to memref<?xf32>
      %b = hip.alloc(%ctx, %n) : memref<?xf32>
      scf.for %i = %c0 to %n step %c1 {
        memref.store %v, %a[%i] : memref<?xf32>
      }
      hip.exp(%ctx) ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
      return %b : memref<?xf32>
    }""")
    outcome = run_function(module, "f", dynamic_size=3)
    got = np.frombuffer(outcome.results[0], dtype=np.float32)
    assert got.shape == (3,)
    np.testing.assert_allclose(got, np.exp(np.float32(2.5)), rtol=1e-6)


def test_unsigned_arith_that_planners_emit(parse):
    module = parse("""
    func.func @f(%n: index) -> (index, index, index, index) {
      %c256 = arith.constant 256 : index
      %c1000 = arith.constant 1000 : index
      %up = arith.ceildivui %c1000, %c256 : index
      %down = arith.divui %c1000, %c256 : index
      %rem = arith.remui %c1000, %c256 : index
      %big = arith.maxui %n, %c256 : index
      return %up, %down, %rem, %big : index, index, index, index
    }""")
    assert run_function(module, "f", dynamic_size=7).results == (4, 3, 232, 256)
