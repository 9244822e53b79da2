/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_access.c -- the public read-only accessors of a compiled schema
 * (bitsift_schema_*): names, framing, packet types, sizes, fields and
 * the kind of their values, enum names and where fields are written.
 */
#include <string.h>

#include "schema_internal.h"

/* ---- introspection ------------------------------------------------------ */

const char *bitsift_schema_name(const bitsift_schema *s)
{
    return s->name;
}

uint32_t bitsift_schema_protocol_id(const bitsift_schema *s)
{
    return s->framing.protocol_id;
}

bool bitsift_schema_version(const bitsift_schema *s, uint32_t *version)
{
    if (s->has_version && version)
        *version = s->version;
    return s->has_version;
}

const bitsift_framing *bitsift_schema_framing(const bitsift_schema *s)
{
    return &s->framing;
}

unsigned bitsift_schema_packet_count(const bitsift_schema *s)
{
    return s->packet_count;
}

const char *bitsift_schema_packet_name(const bitsift_schema *s, unsigned type)
{
    return type < s->packet_count ? s->packets[type].name : NULL;
}

int bitsift_schema_packet_index(const bitsift_schema *s, const char *name)
{
    for (uint32_t i = 0; name && i < s->packet_count; i++)
        if (strcmp(s->packets[i].name, name) == 0)
            return (int)i;
    return -1;
}

uint64_t bitsift_schema_packet_min_bits(const bitsift_schema *s, unsigned type)
{
    return type < s->packet_count ? s->packets[type].min_bits : 0;
}

uint64_t bitsift_schema_packet_max_bits(const bitsift_schema *s, unsigned type)
{
    return type < s->packet_count ? s->packets[type].max_bits : 0;
}

unsigned bitsift_schema_field_count(const bitsift_schema *s)
{
    return s->field_count;
}

bool bitsift_schema_field_info(const bitsift_schema *s, unsigned id, bitsift_field_info *info)
{
    if (id >= s->field_count || !info)
        return false;
    *info = s->fields[id].info;
    return true;
}

bitsift_value_kind bitsift_schema_field_value_kind(const bitsift_schema *s, unsigned id)
{
    if (id >= s->field_count)
        return BITSIFT_VALUE_NONE;
    const struct schema_op *op = &s->ops[s->fields[id].op];
    if (op->field == (int32_t)id)
        return schema_value_kind(op);
    /* Smallest three's five parts share its op (compile_finish): the
     * `largest` index that follows the quaternion, then four components. */
    return id == (unsigned)op->field + 1 ? BITSIFT_VALUE_UINT : BITSIFT_VALUE_FLOAT;
}

const char *bitsift_schema_enum_name(const bitsift_schema *s, unsigned id, int64_t value)
{
    if (id >= s->field_count)
        return NULL;
    const struct schema_op *op = &s->ops[s->fields[id].op];
    if (op->code != OP_ENUM || s->fields[id].info.type != BITSIFT_FIELD_ENUM)
        return NULL;
    return schema_enum_lookup(s, op->enum_id, value);
}

bool bitsift_schema_field_source(const bitsift_schema *s, unsigned id, bitsift_field_source *src)
{
    if (id >= s->field_count || !src)
        return false;
    *src = s->fields[id].src;
    return true;
}
