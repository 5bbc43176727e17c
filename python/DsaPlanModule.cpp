//===- DsaPlanModule.cpp - The _dsaplan extension module ------------------===//
//
// Part of dsaplan.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#ifndef DSAPLAN_VERSION
#define DSAPLAN_VERSION "unknown"
#endif

PYBIND11_MODULE(_dsaplan, module) {
  module.doc() = "The C++ half of the dsaplan package (import dsaplan).";
  module.attr("__version__") = DSAPLAN_VERSION;
  dsaplan::python::defineSolve(module);
  dsaplan::python::definePlan(module);
}
