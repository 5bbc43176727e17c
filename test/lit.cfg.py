# -*- Python -*-
# The dsaplan lit suite: FileCheck tests of dsa-opt and dsa-solve, and the
# GoogleTest units (through Unit/lit.cfg.py).

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "DSAPLAN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "solver-consumer", "mlir-consumer"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dsaplan_obj_root, "test")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

config.substitutions.append(("%corpus", config.dsaplan_corpus_dir))
config.substitutions.append(("%examples",
                             os.path.join(config.dsaplan_src_root, "examples")))
# One interpreter for every script: the one the Python module is built for
# (Debian's /usr/bin/python3 with scripts/setup.sh; it has jsonschema, which
# the report checks validate with). %pydsaplan also finds the module.
config.substitutions.append(("%pydsaplan", "env PYTHONPATH=%s %s" % (
    config.dsaplan_python_module_dir, config.dsaplan_python)))
config.substitutions.append(("%python", config.dsaplan_python))
if config.dsaplan_python_module_dir:
    config.available_features.add("python-module")
else:
    lit_config.warning("the dsaplan Python module is not built (no Python "
                       "headers or pybind11): its tests will not run")
config.substitutions.append(("%dsaplan_obj_root", config.dsaplan_obj_root))
config.substitutions.append(("%dsaplan_src_root", config.dsaplan_src_root))
config.substitutions.append(("%dsaplan_tools_dir", config.dsaplan_tools_dir))
# The package tests build consumer projects with the compiler launcher this
# build uses (ccache, as scripts/setup.sh configures it): a consumer whose
# sources and installed headers did not change is not compiled again.
config.substitutions.append((
    "%cxx_launcher",
    "-DCMAKE_CXX_COMPILER_LAUNCHER=" + config.cxx_compiler_launcher
    if config.cxx_compiler_launcher else ""))

tool_dirs = [config.dsaplan_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["dsa-opt-test", "dsa-opt", "dsa-solve"],
                                   tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Tests that read the shared corpus say so with `REQUIRES: corpus`; when the
# corpus is missing they are reported UNSUPPORTED by name, never passed.
if os.path.isdir(config.dsaplan_corpus_dir):
    config.available_features.add("corpus")
else:
    lit_config.warning("shared corpus not found at %s: corpus tests will not run"
                       % config.dsaplan_corpus_dir)

# The differential-execution tests run kernels on the CPU with stock mlir-opt,
# mlir-runner and the runner utility libraries of the LLVM this build uses.
# They say `REQUIRES: mlir-runner`; when a piece is missing they are reported
# UNSUPPORTED, with the missing piece named here, never passed.
_runner_pieces = [os.path.join(config.llvm_tools_dir, "mlir-opt"),
                  os.path.join(config.llvm_tools_dir, "mlir-runner"),
                  os.path.join(config.llvm_library_dir, "libmlir_runner_utils.so"),
                  os.path.join(config.llvm_library_dir, "libmlir_c_runner_utils.so")]
_runner_missing = [p for p in _runner_pieces if not os.path.exists(p)]
if _runner_missing:
    lit_config.warning("differential-execution tests will not run, missing: %s"
                       % ", ".join(_runner_missing))
else:
    config.available_features.add("mlir-runner")
config.substitutions.append(("%dsa-diff", " ".join([
    "python3", os.path.join(config.dsaplan_tools_dir, "dsa-diff"),
    "--dsa-opt", os.path.join(config.dsaplan_tools_dir, "dsa-opt"),
    "--mlir-opt", _runner_pieces[0], "--mlir-runner", _runner_pieces[1],
    "--runner-lib-dir", config.llvm_library_dir])))

# The SVG pictures are rendered by librsvg in one test (`REQUIRES:
# rsvg-convert`); without it that test is reported UNSUPPORTED, named here.
if shutil.which("rsvg-convert"):
    config.available_features.add("rsvg-convert")
else:
    lit_config.warning("rsvg-convert (Debian: librsvg2-bin) not found: the "
                       "test that renders the SVG reports will not run")
