#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# make-sample.sh -- regenerate examples/sample.pcap, the capture that
# `bitsift decode examples/sample.pcap` shows with no options: a short
# session of the bundled shooter protocol (connect, inputs, snapshots,
# disconnect), written by `bitsift encode -w` from examples/sample.ndjson.
#
#   examples/make-sample.sh      (from the top of a built tree)
set -eu
cd "$(dirname "$0")/.."
BITSIFT_SCHEMA_DIR=examples ./src/bitsift encode -w examples/sample.pcap examples/sample.ndjson
BITSIFT_SCHEMA_DIR=examples ./src/bitsift validate examples/sample.pcap
