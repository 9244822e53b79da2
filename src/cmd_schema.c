/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmd_schema.c -- `bitsift schema FILE...`: compile each schema and print
 * every packet type's layout with its minimum and maximum size in bits;
 * a bad schema gives the compiler's "bitsift: file:line:column: message"
 * and exit 2. "-" reads the schema from standard input.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_schema(struct cli *c)
{
    int status = EXIT_VALID;
    for (size_t i = 0; i < c->input_count; i++) {
        bitsift_schema *s = cli_load_schema(c->inputs[i]);
        if (!s) {
            status = EXIT_TROUBLE;
            continue;
        }
        if (!bitsift_schema_print(s, stdout))
            status = EXIT_TROUBLE;
        bitsift_schema_free(s);
    }
    return status;
}
