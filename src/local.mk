# src/local.mk -- the bitsift command. capture.c is the only file that
# includes <pcap.h>.
noinst_HEADERS += src/capture.h src/decap.h src/input.h src/out.h
