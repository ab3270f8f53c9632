// RUN: memplan-opt %s --split-input-file --verify-diagnostics

// scf that mlir-opt rejects, with its messages: results without an else region,
// regions yielding other types or counts than the results, an index_switch default
// left without the yield its results need, a case region without its yield (only
// the default takes an implicit one).

func.func @results_without_else(%c: i1, %a: i32) -> i32 {
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %0 = scf.if %c -> i32 {
    scf.yield %a : i32
  }
  return %0 : i32
}

// -----

func.func @yield_type(%c: i1, %a: i32) -> index {
  // expected-error @+1 {{successor operand type #0 'i32' should match successor input type #0 'index'}}
  %0 = scf.if %c -> index {
    scf.yield %a : i32
  } else {
    scf.yield %a : i32
  }
  return %0 : index
}

// -----

func.func @yield_count(%c: i1, %a: i32) -> i32 {
  // expected-error @+1 {{region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield
  }
  return %0 : i32
}

// -----

func.func @empty_default_with_results(%i: index, %a: i32) -> i32 {
  // expected-error @+1 {{'scf.index_switch' op}}
  %0 = scf.index_switch %i -> i32
  case 1 {
    scf.yield %a : i32
  }
  default {}
  return %0 : i32
}

// -----

func.func @case_without_yield(%i: index) {
  // expected-error @+1 {{'scf.index_switch' op}}
  scf.index_switch %i
  case 3 {
    func.call @case_without_yield(%i) : (index) -> ()
  }
  default {}
  return
}
