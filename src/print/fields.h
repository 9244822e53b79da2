/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fields.h -- print the fields of a packet as the decoder visits them:
 * an indented tree for people, or the "fields" JSON object of an NDJSON
 * record. Nothing is allocated per packet beyond the output buffer.
 */
#ifndef BITSIFT_FIELDS_H
#define BITSIFT_FIELDS_H

#include "bitsift.h"
#include "print/out.h"

#define FIELDS_MAX_DEPTH 256

/*
 * The text a field's name prints as, made once per schema field id rather
 * than once per event: the JSON key with its quotes, escapes and colon,
 * and the name's length for text output. Built on first use. An enum
 * field also keeps the JSON strings of the names of its values 0..15.
 */
#define FIELDS_KEY_COPY   32 /* keys up to this long are copied in one move */
#define FIELDS_ENUM_CACHE 16 /* enum values 0..15 keep their JSON names */

struct fields_text {
    const char *from; /* the name it was made from */
    size_t from_len;
    char *json; /* followed by FIELDS_KEY_COPY bytes of padding */
    size_t len;
};

struct fields_key {
    const char *name; /* the name the texts were made from (NULL: not yet) */
    size_t name_len;
    char *json; /* "name": (padded like fields_text) */
    size_t json_len;
    struct fields_text *enum_names; /* FIELDS_ENUM_CACHE, by value, allocated on first use */
};

struct fields_keys {
    unsigned count; /* the schema's field count */
    struct fields_key *keys;
};

/* Keys for the fields of `schema`; NULL when out of memory (the printer
 * then works without). */
struct fields_keys *fields_keys_create(const bitsift_schema *schema);
void fields_keys_free(struct fields_keys *k);

struct fields_printer {
    struct out *o;
    const bitsift_schema *schema;
    struct fields_keys *keys; /* may be NULL */
    unsigned key_count;       /* keys->count, 0 without keys */
    int json;
    unsigned indent; /* text: spaces before depth 1 */
    unsigned depth;  /* open containers */
    unsigned char is_array[FIELDS_MAX_DEPTH];
    unsigned char wrapped[FIELDS_MAX_DEPTH]; /* {"@index":N,"@value":[ ... ]} */
    uint64_t position[FIELDS_MAX_DEPTH];     /* elements written so far in each */
    int in_array;                            /* the innermost open container is an array */
    int need_comma;
};

/* Start a packet. JSON writes "{" (the fields object); text writes nothing.
 * keys (NULL or made by fields_keys_create for this schema) saves work. */
void fields_begin(struct fields_printer *p, struct out *o, const bitsift_schema *schema,
                  struct fields_keys *keys, int json, unsigned indent);
/* The visitor that prints into p. */
bitsift_visitor fields_visitor(struct fields_printer *p);
/* End the packet: JSON closes every container left open by a failure. */
void fields_end(struct fields_printer *p);

/* One value as text ("1.5", "true", "Red (2)", "\"name\"", "0x12345678"). */
void fields_write_text_value(struct out *o, const bitsift_event *ev);
/* One value as JSON (enum by name, bytes as a hex string, non-finite
 * floats as strings). */
void fields_write_json_value(struct out *o, const bitsift_value *v);

#endif /* BITSIFT_FIELDS_H */
