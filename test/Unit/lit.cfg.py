# -*- Python -*-
# Runs every GoogleTest binary under the build's unittests/ (one lit test per
# gtest case).

import lit.formats

config.name = "DSAPLAN-Unit"
config.suffixes = []
config.test_source_root = config.unit_test_dir
config.test_exec_root = config.unit_test_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
