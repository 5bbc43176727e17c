//===- Bindings.h - The parts of the _dsaplan extension ---------*- C++ -*-===//
//
// Part of dsaplan. Internal to python/.
//
//===----------------------------------------------------------------------===//
//
// `_dsaplan` is the C++ half of the `dsaplan` Python package: each function
// returns plain data (dicts, lists, strings) and never raises for a refused
// input; dsaplan/__init__.py shapes the results and raises the package's
// exceptions, so that their classes live in one place.
//
//===----------------------------------------------------------------------===//

#ifndef DSAPLAN_PYTHON_BINDINGS_H
#define DSAPLAN_PYTHON_BINDINGS_H

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace dsaplan::python {

/// `solve` and `driver_option_names`: the solver library.
void defineSolve(pybind11::module_ &module);

/// `plan` and `plan_option_names`: the --dsa-plan pipeline.
void definePlan(pybind11::module_ &module);

} // namespace dsaplan::python

#endif // DSAPLAN_PYTHON_BINDINGS_H
