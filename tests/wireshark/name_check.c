/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * name_check.c -- which names bitsift_gen_wireshark takes as a dissector's
 * name, thousands in one process (tests/wireshark/names.sh): for each line
 * of standard input, the generator runs over a one-packet schema with the
 * line as options.name, and prints
 *
 *   taken NAME
 *   refused NAME: WHY
 *
 * The output of a taken name goes to /dev/null.
 */
#include <stdio.h>
#include <string.h>

#include "bitsift.h"

int main(void)
{
    static const char text[] = "protocol names { id 1; }\npacket p { bool b; }\n";
    bitsift_schema_error err;
    bitsift_schema *s = bitsift_schema_compile(text, sizeof text - 1, NULL, &err);
    FILE *sink = fopen("/dev/null", "w");
    if (!s || !sink) {
        fprintf(stderr, "name_check: %s\n", s ? "cannot open /dev/null" : err.message);
        return 2;
    }
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        char why[256] = "";
        bitsift_gen_options o = {line, NULL, 0, 0, why, sizeof why, NULL, NULL, 0};
        bitsift_error e = bitsift_gen_wireshark(s, &o, sink);
        if (e == BITSIFT_OK)
            printf("taken %s\n", line);
        else
            printf("refused %s: %s\n", line, why[0] ? why : bitsift_error_string(e));
    }
    fclose(sink);
    bitsift_schema_free(s);
    return 0;
}
