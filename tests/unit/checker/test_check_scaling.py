"""The checker on a pool whose slots are reused in turn: the pairs it looks at grow
with the buffers, not with their square, and races are still found, each pair."""

from __future__ import annotations

import pytest

from memplan.checker import check, check_module
from memplan.context import make_context
from memplan.tools.source import parse_module


def _layers(n: int, sync_every: int | None) -> str:
    """`n` buffers in one 64-byte slot of a pool, each host-stored then read by a
    cast; a read-back after every `sync_every` buffers (None: never)."""
    lines = [
        "func.func @f(%ctx: !hip.context, %x: i64, %o: memref<1xf32>, %s: memref<i64>) {",
        "  %c0 = arith.constant 0 : index",
        "  %size = arith.constant 64 : index",
        "  %pool = hip.get_pool(%ctx, %size) : memref<?xi8>",
    ]
    for i in range(n):
        lines += [
            f"  %b{i} = memref.view %pool[%c0][] : memref<?xi8> to memref<1xi64>",
            f"  memref.store %x, %b{i}[%c0] : memref<1xi64>",
            f"  hip.cast(%ctx) ins(%b{i} : memref<1xi64>) outs(%o : memref<1xf32>) {{to = 1 : i64}}",
        ]
        if sync_every and i % sync_every == sync_every - 1:
            lines.append(f"  %v{i} = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64")
    lines += ["  return", "}"]
    return "\n".join(lines)


def _run(text: str, monkeypatch) -> tuple[int, int]:
    """Violations and the number of buffer pairs the checker compared."""
    calls = 0
    original = check._Checker._check_two

    def counting(self, a, b):
        nonlocal calls
        calls += 1
        return original(self, a, b)

    monkeypatch.setattr(check._Checker, "_check_two", counting)
    module = parse_module(make_context(), text, "t.mlir")
    return len(check_module(module)), calls


def test_slots_reused_in_turn_cost_a_pair_per_buffer(monkeypatch):
    violations, pairs = _run(_layers(200, sync_every=1), monkeypatch)
    assert violations == 0
    assert pairs <= 2 * 200  # all pairs would be 19,900


@pytest.mark.parametrize("n", [3, 12])
def test_every_racing_pair_is_reported(n, monkeypatch):
    # No read-back: each host store may land before any earlier queued cast.
    violations, _ = _run(_layers(n, sync_every=None), monkeypatch)
    assert violations == n * (n - 1) // 2


def test_a_race_between_read_backs_is_found(monkeypatch):
    # Read-backs after every second buffer: the pair between them races, the pairs
    # across a read-back do not.
    violations, _ = _run(_layers(6, sync_every=2), monkeypatch)
    assert violations == 3


COND = """
func.func @f(%ctx: !hip.context, %p: i1, %x: i64, %o: memref<1xi64>, %s: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pool = hip.get_pool(%ctx, %c64) : memref<?xi8>
  %a = memref.view %pool[%c0][] : memref<?xi8> to memref<1xi64>
  hip.abs(%ctx) ins(%o : memref<1xi64>) outs(%a : memref<1xi64>)
  scf.if %p {
    %v = hip.readback_scalar(%ctx, %s : memref<i64>) -> i64
    %b = memref.view %pool[%c0][] : memref<?xi8> to memref<1xi64>
    memref.store %x, %b[%c0] : memref<1xi64>
  }
  %c = memref.view %pool[%c0][] : memref<?xi8> to memref<1xi64>
  memref.store %x, %c[%c0] : memref<1xi64>
  return
}
"""


def test_a_wait_in_a_branch_orders_nothing_after_it(monkeypatch):
    # %a -> %b is ordered by the read-back in the branch, %b -> %c on the host;
    # %a -> %c is not when the branch is not taken: the chain must not imply it.
    violations, _ = _run(COND, monkeypatch)
    assert violations == 1
