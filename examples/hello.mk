# SPDX-License-Identifier: BSD-3-Clause
# examples/hello.mk -- the quick-start demo program.
noinst_PROGRAMS += examples/hello-packet
examples_hello_packet_SOURCES = examples/hello_packet.c
examples_hello_packet_LDADD = lib/libbitsift.la
