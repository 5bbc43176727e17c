// RUN: dsa-opt %s -split-input-file -dsaplan-strip-for-cpu -verify-diagnostics

// A dsaplan attribute the pass does not know how to drop (here an argument
// attribute) is an error on the op that holds it, not a module stock
// mlir-opt cannot read.

// expected-error @below {{'func.func' op cannot be made runnable on the CPU: it still uses the dsaplan dialect after dsaplan-strip-for-cpu}}
func.func @argument_attribute(%gm: memref<64xf32> {dsaplan.pipe = #dsaplan.pipe<mte2>}) {
  return
}
