// RUN: memplan-opt %s --split-input-file --canonicalize | FileCheck %s

// hal.fence.await of no fence is an OK status (IREE's ElideEmptyFenceAwait).

// CHECK-LABEL: @await_no_fence
util.func public @await_no_fence(%timeout: i32) -> i32 {
  // CHECK-NOT: hal.fence.await
  // CHECK: %[[OK:.+]] = arith.constant 0 : i32
  // CHECK-NEXT: util.return %[[OK]]
  %status = hal.fence.await until([]) timeout_millis(%timeout) flags("None") : i32
  util.return %status : i32
}

// -----

// A fence named twice is awaited once; distinct fences all stay, in order
// (IREE's DeduplicateFenceAwaitFences).

// CHECK-LABEL: @await_duplicate_fences
util.func public @await_duplicate_fences(%a: !hal.fence, %b: !hal.fence, %timeout: i32) -> (i32, i32) {
  // CHECK: hal.fence.await until([%arg0, %arg1]) timeout_millis(%arg2) flags("None") : i32
  // CHECK-NEXT: hal.fence.await until([%arg1, %arg0]) timeout_millis(%arg2) flags("None") : i32
  %0 = hal.fence.await until([%a, %b, %a, %b]) timeout_millis(%timeout) flags("None") : i32
  %1 = hal.fence.await until([%b, %a]) timeout_millis(%timeout) flags("None") : i32
  util.return %0, %1 : i32, i32
}
