# fuzz/targets.sh -- sourced by afl.sh, coverage.sh and oss-fuzz-build.sh:
# the source files of each harness besides libbitsift (keep in step with
# the _SOURCES of fuzz/local.mk), relative to the source tree.
harness_sources() {
    case $1 in
    fuzz_capture) echo "fuzz/$1.c fuzz/packet_schemas.c fuzz/bundled_schemas.c src/capture.c src/classic_pcap.c src/decap.c" ;;
    fuzz_encode) echo "fuzz/$1.c fuzz/packet_schemas.c fuzz/bundled_schemas.c src/cmd_encode.c src/cli.c src/capture.c src/classic_pcap.c src/file_window.c src/decap.c src/encap.c src/out.c src/float_format.c src/output_file.c src/filter.c src/frame_select.c" ;;
    fuzz_packet) echo "fuzz/$1.c fuzz/packet_schemas.c fuzz/bundled_schemas.c" ;;
    fuzz_roundtrip) echo "fuzz/$1.c fuzz/schema_mutate.c fuzz/packet_schemas.c fuzz/bundled_schemas.c" ;;
    *) echo "fuzz/$1.c" ;;
    esac
}
