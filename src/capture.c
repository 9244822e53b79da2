/*
 * capture.c -- pcap / pcapng input through libpcap (the only file that
 * includes <pcap.h>).
 *
 * libpcap recognises the format from the magic number, reads one record at
 * a time into a buffer it bounds by the link type's maximum snap length
 * (and rejects records claiming more), and compiles BPF filters; we add the
 * mapping to our link types and messages that say what went wrong.
 * Timestamps are asked for in nanoseconds; libpcap scales microsecond
 * captures up.
 */
#define _GNU_SOURCE /* fmemopen on older C libraries */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

struct capture {
    pcap_t *pcap;
    int link;    /* LINKTYPE_ value */
    int has_filter;
    struct bpf_program filter;
};

static void set_error(char error[CAPTURE_ERROR_SIZE], const char *message)
{
    snprintf(error, CAPTURE_ERROR_SIZE, "%s", message);
}

/* DLT_ values that differ from the LINKTYPE_ value stored in files. */
static int link_type_of(int dlt)
{
    switch (dlt) {
#ifdef DLT_RAW
    case DLT_RAW:
        return DECAP_LINK_RAW;
#endif
#ifdef DLT_LOOP
    case DLT_LOOP:
        return DECAP_LINK_LOOP;
#endif
    default:
        return dlt;
    }
}

enum capture_open_result capture_open_stream(FILE *fp, capture **out,
                                             char error[CAPTURE_ERROR_SIZE])
{
    char pcap_error[PCAP_ERRBUF_SIZE] = "";
    *out = NULL;
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO,
                                                         pcap_error);
    if (!p) {
        /* libpcap's words for "no reader knows this magic number". */
        if (strstr(pcap_error, "unknown file format")) {
            set_error(error, "not a pcap or pcapng capture");
            return CAPTURE_NOT_A_CAPTURE;
        }
        snprintf(error, CAPTURE_ERROR_SIZE, "bad capture file: %s", pcap_error);
        return CAPTURE_FAILED;
    }
    capture *c = calloc(1, sizeof *c);
    if (!c) {
        pcap_close(p);
        set_error(error, "out of memory");
        return CAPTURE_FAILED;
    }
    c->pcap = p;
    c->link = link_type_of(pcap_datalink(p));
    *out = c;
    return CAPTURE_OPENED;
}

enum capture_open_result capture_open_memory(const void *data, size_t size, capture **out,
                                             char error[CAPTURE_ERROR_SIZE])
{
    *out = NULL;
    if (size == 0) {
        set_error(error, "empty file");
        return CAPTURE_FAILED;
    }
    /* fmemopen does not write through a read-only mode: the cast is safe. */
    FILE *fp = fmemopen((void *)data, size, "rb");
    if (!fp) {
        snprintf(error, CAPTURE_ERROR_SIZE, "cannot open memory stream: %s", strerror(errno));
        return CAPTURE_FAILED;
    }
    enum capture_open_result r = capture_open_stream(fp, out, error);
    if (r != CAPTURE_OPENED)
        fclose(fp);
    return r;
}

int capture_set_filter(capture *c, const char *expression, char error[CAPTURE_ERROR_SIZE])
{
    if (c->has_filter) {
        pcap_freecode(&c->filter);
        c->has_filter = 0;
    }
    if (pcap_compile(c->pcap, &c->filter, expression, 1, PCAP_NETMASK_UNKNOWN) != 0) {
        snprintf(error, CAPTURE_ERROR_SIZE, "bad filter \"%s\": %s", expression,
                 pcap_geterr(c->pcap));
        return -1;
    }
    c->has_filter = 1;
    if (pcap_setfilter(c->pcap, &c->filter) != 0) {
        snprintf(error, CAPTURE_ERROR_SIZE, "cannot apply filter \"%s\": %s", expression,
                 pcap_geterr(c->pcap));
        return -1;
    }
    return 0;
}

int capture_next(capture *c, struct capture_frame *frame, char error[CAPTURE_ERROR_SIZE])
{
    struct pcap_pkthdr *header;
    const u_char *data;
    int r = pcap_next_ex(c->pcap, &header, &data);
    if (r == 1) {
        frame->data = data;
        frame->caplen = header->caplen;
        frame->wirelen = header->len;
        frame->sec = (int64_t)header->ts.tv_sec;
        /* tv_usec holds nanoseconds with PCAP_TSTAMP_PRECISION_NANO. */
        frame->nsec = (uint32_t)header->ts.tv_usec;
        return 1;
    }
    if (r == PCAP_ERROR_BREAK) /* end of the file */
        return 0;
    snprintf(error, CAPTURE_ERROR_SIZE, "damaged capture: %s", pcap_geterr(c->pcap));
    return -1;
}

int capture_link_type(const capture *c)
{
    return c->link;
}

const char *capture_link_name(const capture *c)
{
    const char *name = pcap_datalink_val_to_name(pcap_datalink(c->pcap));
    return name ? name : "unknown";
}

void capture_close(capture *c)
{
    if (!c)
        return;
    if (c->has_filter)
        pcap_freecode(&c->filter);
    pcap_close(c->pcap); /* closes the stream too */
    free(c);
}

long capture_for_each_udp(const void *data, size_t size, capture_udp_fn udp, void *ctx)
{
    char error[CAPTURE_ERROR_SIZE];
    capture *c;
    if (capture_open_memory(data, size, &c, error) != CAPTURE_OPENED)
        return -1;
    struct capture_frame frame;
    long frames = 0;
    while (capture_next(c, &frame, error) == 1) {
        frames++;
        struct decap_result r;
        if (decap_frame(c->link, frame.data, frame.caplen, frame.wirelen, &r) == DECAP_UDP)
            udp(ctx, (uint64_t)frames, &r);
    }
    capture_close(c);
    return frames;
}
