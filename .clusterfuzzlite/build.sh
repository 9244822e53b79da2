#!/bin/bash -eu
# SPDX-License-Identifier: BSD-3-Clause
# .clusterfuzzlite/build.sh -- what ClusterFuzzLite runs in the build image:
# the project's own OSS-Fuzz build script, which honours CC, CFLAGS,
# LIB_FUZZING_ENGINE and OUT and writes every shipped harness of
# fuzz/targets.list with its seed corpus zip, options and dictionary.
"$SRC/bitsift/fuzz/scripts/oss-fuzz-build.sh"
