// RUN: memplan-opt %s --split-input-file -p apply-patterns --allow-unregistered-dialect | FileCheck %s
// RUN: memplan-opt %s --split-input-file --iree-util-apply-patterns --allow-unregistered-dialect | FileCheck %s

// Two block arguments that receive equal values from every predecessor become one
// (IREE's FoldBlockArgumentsPattern; canonicalize keeps both).

util.func private @side(i32)

// CHECK-LABEL: @duplicate_block_arguments
// CHECK-SAME: (%[[C:.+]]: i1, %[[A:.+]]: i32, %[[B:.+]]: i32)
util.func public @duplicate_block_arguments(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // CHECK: util.call @side(%[[A]])
  // CHECK-NEXT: cf.br ^bb3(%[[A]] : i32)
  util.call @side(%a) : (i32) -> ()
  cf.br ^bb3(%a, %a : i32, i32)
^bb2:
  // CHECK: util.call @side(%[[B]])
  // CHECK-NEXT: cf.br ^bb3(%[[B]] : i32)
  util.call @side(%b) : (i32) -> ()
  cf.br ^bb3(%b, %b : i32, i32)
// CHECK: ^bb3(%[[X:.+]]: i32):
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[X]], %[[X]]
^bb3(%x: i32, %y: i32):
  %0 = arith.addi %x, %y : i32
  util.return %0 : i32
}

// -----

// Arguments that differ on one path stay apart.

util.func private @side(i32)

// CHECK-LABEL: @different_block_arguments
util.func public @different_block_arguments(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  util.call @side(%a) : (i32) -> ()
  cf.br ^bb3(%a, %b : i32, i32)
^bb2:
  util.call @side(%b) : (i32) -> ()
  cf.br ^bb3(%b, %a : i32, i32)
// CHECK: ^bb3(%[[X:.+]]: i32, %[[Y:.+]]: i32):
// CHECK-NEXT: arith.addi %[[X]], %[[Y]]
^bb3(%x: i32, %y: i32):
  %0 = arith.addi %x, %y : i32
  util.return %0 : i32
}

// -----

// The canonicalization patterns of the stream and util ops apply here too.

// CHECK-LABEL: @stream_patterns
// CHECK-SAME: (%[[SRC:.+]]: !stream.resource<constant>, %[[SIZE:.+]]: index)
util.func public @stream_patterns(%src: !stream.resource<constant>, %size: index) -> (!stream.resource<constant>, index) {
  // CHECK-NEXT: util.return %[[SRC]], %[[SIZE]]
  %0 = stream.async.transfer %src : !stream.resource<constant>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %1 = stream.tensor.encode on(#hal.device.affinity<@dev_b>) %0 : tensor<8xf32> in !stream.resource<*>{%size} -> tensor<8xf32> in !stream.resource<*>{%size}
  %2 = stream.async.transfer %1 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<constant>{%size}
  %3 = stream.resource.size %2 : !stream.resource<constant>
  util.return %2, %3 : !stream.resource<constant>, index
}

// -----

// Equal constants merge; dead code goes.

// CHECK-LABEL: @constants_and_dead_code
util.func public @constants_and_dead_code(%a: index) -> (index, index) {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 4 : index
  // CHECK-NEXT: %[[X:.+]] = arith.muli %{{.+}}, %[[C]]
  // CHECK-NEXT: %[[Y:.+]] = arith.addi %{{.+}}, %[[C]]
  // CHECK-NEXT: util.return %[[X]], %[[Y]]
  %c4 = arith.constant 4 : index
  %x = arith.muli %a, %c4 : index
  %c4_0 = arith.constant 4 : index
  %y = arith.addi %a, %c4_0 : index
  %dead = arith.subi %x, %y : index
  util.return %x, %y : index, index
}

// -----

// A one-case scf.index_switch is an scf.if on the case value (an empty default
// `{}`, valid with scf's implicit yield, is no else branch); two adjacent
// switches on one value with the same cases merge into one.

// CHECK-LABEL: @index_switch_to_if
// CHECK-SAME: (%[[I:.+]]: index)
util.func public @index_switch_to_if(%i: index) {
  // CHECK: %[[C2:.+]] = arith.constant 2 : index
  // CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[I]], %[[C2]] : index
  // CHECK: scf.if %[[EQ]] {
  // CHECK-NEXT: "test.case"() : () -> ()
  // CHECK-NEXT: }
  // CHECK-NEXT: util.return
  scf.index_switch %i
  case 2 {
    "test.case"() : () -> ()
    scf.yield
  }
  default {
  }
  util.return
}

// CHECK-LABEL: @merge_index_switches
// CHECK-SAME: (%[[I:.+]]: index)
util.func public @merge_index_switches(%i: index) -> (i32, i32) {
  // CHECK: %[[M:.+]]:2 = scf.index_switch %[[I]] -> i32, i32
  // CHECK-NEXT: case 0 {
  // CHECK-NEXT: %[[A:.+]] = "test.a"() : () -> i32
  // CHECK-NEXT: %[[B:.+]] = "test.b"(%[[A]]) : (i32) -> i32
  // CHECK-NEXT: scf.yield %[[A]], %[[B]] : i32, i32
  // CHECK: case 1 {
  // CHECK: default {
  // CHECK-NOT: scf.index_switch
  %0 = scf.index_switch %i -> i32
  case 0 {
    %a = "test.a"() : () -> i32
    scf.yield %a : i32
  }
  case 1 {
    %a1 = "test.a1"() : () -> i32
    scf.yield %a1 : i32
  }
  default {
    %d = "test.d"() : () -> i32
    scf.yield %d : i32
  }
  %1 = scf.index_switch %i -> i32
  case 0 {
    %b = "test.b"(%0) : (i32) -> i32
    scf.yield %b : i32
  }
  case 1 {
    %b1 = "test.b1"(%0) : (i32) -> i32
    scf.yield %b1 : i32
  }
  default {
    %e = "test.e"(%0) : (i32) -> i32
    scf.yield %e : i32
  }
  // CHECK: util.return %[[M]]#0, %[[M]]#1
  util.return %0, %1 : i32, i32
}
