/*
 * cmd_schema.c -- `bitsift schema FILE...`: compile each schema and print
 * every packet type's layout with its minimum and maximum size in bits;
 * a bad schema gives the compiler's "file:line:column: message" and exit 2.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_schema(struct cli *c)
{
    int status = EXIT_VALID;
    for (size_t i = 0; i < c->input_count; i++) {
        bitsift_schema_error err;
        memset(&err, 0, sizeof err);
        bitsift_schema *s = bitsift_schema_load_file(c->inputs[i], &err);
        if (!s) {
            fflush(stdout);
            if (err.message[0])
                fprintf(stderr, "%s\n", err.message);
            else
                cli_error("%s: cannot load schema", c->inputs[i]);
            status = EXIT_TROUBLE;
            continue;
        }
        if (!bitsift_schema_print(s, stdout))
            status = EXIT_TROUBLE;
        bitsift_schema_free(s);
    }
    return status;
}
