// dsa-opt lets the printer take the output as verified only when the pass
// manager verified after each pass (--verify-each, the default): the
// printer's own run would repeat the pass manager's last one. With
// --verify-each=false the printer still verifies, and prints an invalid
// result in generic form rather than in the custom form it cannot trust.
// -test-dsaplan-invalid-flag-ids (test/lib/Tools) makes the result invalid:
// every flag's event id becomes 1000.
//
// RUN: not dsa-opt-test %s -test-dsaplan-invalid-flag-ids 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EACH
// RUN: dsa-opt-test %s -test-dsaplan-invalid-flag-ids --verify-each=false \
// RUN:   | FileCheck %s --check-prefix=PRINTER
// RUN: dsa-opt-test %s --verify-each=false | FileCheck %s --check-prefix=VALID

// EACH:  error: 'dsaplan.set_flag' op event id 1000 is outside 0-7

// PRINTER:      "dsaplan.set_flag"() <{dst = #dsaplan.pipe<v>, event = 1000 : i64, src = #dsaplan.pipe<mte2>}>
// PRINTER-NEXT: "dsaplan.wait_flag"() <{dst = #dsaplan.pipe<v>, event = 1000 : i64, src = #dsaplan.pipe<mte2>}>

// The valid input prints in custom form either way.
// VALID:      dsaplan.set_flag <mte2 -> v>, 0
// VALID-NEXT: dsaplan.wait_flag <mte2 -> v>, 0

module attributes {dsaplan.target = #dsaplan.target<"ascend910b">} {
  func.func @flags() {
    dsaplan.set_flag <mte2 -> v>, 0
    dsaplan.wait_flag <mte2 -> v>, 0
    return
  }
}
