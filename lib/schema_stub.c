/*
 * schema_stub.c -- TEMPORARY placeholders for the schema API so that
 * code written against lib/bitsift.h links while the real compiler,
 * decoder and encoder land (each call fails with BITSIFT_E_SCHEMA).
 * This file disappears as the real implementation files replace it.
 */
#include <stdio.h>
#include <string.h>

#include "bitsift.h"

static void not_ready(bitsift_schema_error *err)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->kind = BITSIFT_E_SCHEMA;
    snprintf(err->message, sizeof err->message, "schema compiler not implemented yet");
}

bitsift_schema *bitsift_schema_compile(const char *text, size_t size, const char *filename,
                                       bitsift_schema_error *err)
{
    (void)text, (void)size, (void)filename;
    not_ready(err);
    return NULL;
}
bitsift_schema *bitsift_schema_load_file(const char *path, bitsift_schema_error *err)
{
    (void)path;
    not_ready(err);
    return NULL;
}
void bitsift_schema_free(bitsift_schema *s) { (void)s; }
const char *bitsift_schema_name(const bitsift_schema *s) { (void)s; return ""; }
uint32_t bitsift_schema_protocol_id(const bitsift_schema *s) { (void)s; return 0; }
const bitsift_framing *bitsift_schema_framing(const bitsift_schema *s) { (void)s; return NULL; }
unsigned bitsift_schema_packet_count(const bitsift_schema *s) { (void)s; return 0; }
const char *bitsift_schema_packet_name(const bitsift_schema *s, unsigned type) { (void)s, (void)type; return NULL; }
int bitsift_schema_packet_index(const bitsift_schema *s, const char *name) { (void)s, (void)name; return -1; }
uint64_t bitsift_schema_packet_min_bits(const bitsift_schema *s, unsigned type) { (void)s, (void)type; return 0; }
uint64_t bitsift_schema_packet_max_bits(const bitsift_schema *s, unsigned type) { (void)s, (void)type; return 0; }
const char *bitsift_field_type_name(bitsift_field_type t) { (void)t; return "unknown"; }
unsigned bitsift_schema_field_count(const bitsift_schema *s) { (void)s; return 0; }
bool bitsift_schema_field_info(const bitsift_schema *s, unsigned id, bitsift_field_info *info) { (void)s, (void)id, (void)info; return false; }
const char *bitsift_schema_enum_name(const bitsift_schema *s, unsigned id, int64_t value) { (void)s, (void)id, (void)value; return NULL; }
bool bitsift_schema_print(const bitsift_schema *s, FILE *out) { (void)s, (void)out; return false; }
static bitsift_error fail_result(bitsift_result *res)
{
    if (res) {
        memset(res, 0, sizeof *res);
        res->status = res->failure.kind = BITSIFT_E_SCHEMA;
        res->packet_type = -1;
    }
    return BITSIFT_E_SCHEMA;
}
bitsift_error bitsift_decode(const bitsift_schema *s, const void *packet, size_t size, unsigned flags, const bitsift_visitor *v, bitsift_result *res) { (void)s, (void)packet, (void)size, (void)flags, (void)v; return fail_result(res); }
int bitsift_detect(const bitsift_schema *const *schemas, size_t count, const void *packet, size_t size) { (void)schemas, (void)count, (void)packet, (void)size; return -1; }
bitsift_tree *bitsift_tree_create(const bitsift_schema *s) { (void)s; return NULL; }
void bitsift_tree_free(bitsift_tree *t) { (void)t; }
bool bitsift_tree_reset(bitsift_tree *t, unsigned packet_type) { (void)t, (void)packet_type; return false; }
int bitsift_tree_packet_type(const bitsift_tree *t) { (void)t; return -1; }
bitsift_node *bitsift_tree_root(const bitsift_tree *t) { (void)t; return NULL; }
size_t bitsift_tree_node_count(const bitsift_tree *t) { (void)t; return 0; }
bitsift_node *bitsift_tree_node(const bitsift_tree *t, size_t i) { (void)t, (void)i; return NULL; }
bitsift_node *bitsift_tree_find(const bitsift_tree *t, const char *path) { (void)t, (void)path; return NULL; }
size_t bitsift_node_path(const bitsift_node *n, char *buf, size_t size) { (void)n; if (size) buf[0] = 0; return 0; }
bitsift_error bitsift_decode_tree(const bitsift_schema *s, const void *packet, size_t size, unsigned flags, bitsift_tree *t, bitsift_result *res) { (void)s, (void)packet, (void)size, (void)flags, (void)t; return fail_result(res); }
bitsift_node_kind bitsift_node_kind_of(const bitsift_node *n) { (void)n; return BITSIFT_NODE_VALUE; }
const char *bitsift_node_name(const bitsift_node *n) { (void)n; return NULL; }
bitsift_node *bitsift_node_parent(const bitsift_node *n) { (void)n; return NULL; }
size_t bitsift_node_child_count(const bitsift_node *n) { (void)n; return 0; }
bitsift_node *bitsift_node_child_at(const bitsift_node *n, size_t i) { (void)n, (void)i; return NULL; }
bitsift_node *bitsift_node_child(const bitsift_node *n, const char *name) { (void)n, (void)name; return NULL; }
int64_t bitsift_node_index(const bitsift_node *n) { (void)n; return -1; }
const bitsift_value *bitsift_node_value(const bitsift_node *n) { (void)n; return NULL; }
int bitsift_node_field_id(const bitsift_node *n) { (void)n; return -1; }
uint64_t bitsift_node_bit(const bitsift_node *n) { (void)n; return 0; }
uint64_t bitsift_node_bits(const bitsift_node *n) { (void)n; return 0; }
bitsift_node *bitsift_node_add_struct(bitsift_tree *t, bitsift_node *parent, const char *name) { (void)t, (void)parent, (void)name; return NULL; }
bitsift_node *bitsift_node_add_array(bitsift_tree *t, bitsift_node *parent, const char *name) { (void)t, (void)parent, (void)name; return NULL; }
bitsift_node *bitsift_node_add_value(bitsift_tree *t, bitsift_node *parent, const char *name, const bitsift_value *v) { (void)t, (void)parent, (void)name, (void)v; return NULL; }
bool bitsift_node_set_value(bitsift_tree *t, bitsift_node *n, const bitsift_value *v) { (void)t, (void)n, (void)v; return false; }
void bitsift_node_set_index(bitsift_node *n, int64_t index) { (void)n, (void)index; }
bitsift_error bitsift_encode(const bitsift_schema *s, const bitsift_tree *t, void *out, size_t capacity, size_t *size, bitsift_result *res) { (void)s, (void)t, (void)out, (void)capacity, (void)size; if (size) *size = 0; return fail_result(res); }
