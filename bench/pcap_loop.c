/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcap_loop.c -- the end-to-end baseline of `make bench`: the least any
 * capture reader built on libpcap must do, a bare pcap_next_ex loop over
 * every packet of every file given, touching each packet's length and
 * first byte. Prints the packet count.
 *
 *   pcap_loop FILE...
 */
#include <pcap.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    unsigned long long packets = 0, bytes = 0, first_bytes = 0;
    for (int i = 1; i < argc; i++) {
        char errbuf[PCAP_ERRBUF_SIZE];
        pcap_t *p = pcap_open_offline(argv[i], errbuf);
        if (!p) {
            fprintf(stderr, "pcap_loop: %s\n", errbuf);
            return 2;
        }
        struct pcap_pkthdr *header;
        const unsigned char *data;
        int rc;
        while ((rc = pcap_next_ex(p, &header, &data)) == 1) {
            packets++;
            bytes += header->caplen;
            if (header->caplen)
                first_bytes += data[0];
        }
        if (rc != PCAP_ERROR_BREAK) {
            fprintf(stderr, "pcap_loop: %s: %s\n", argv[i], pcap_geterr(p));
            pcap_close(p);
            return 2;
        }
        pcap_close(p);
    }
    printf("%llu packets, %llu bytes (%llu)\n", packets, bytes, first_bytes & 1);
    return 0;
}
