/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * schema_tree.c -- value trees: an arena of nodes that a decode fills or
 * a caller builds by hand (the CLI from NDJSON, a fuzzer changing one
 * field), and that the encoder writes. One free releases everything; a
 * reset keeps the memory for the next packet.
 *
 * A struct holds one child per name, so adding a child looks for one of
 * that name to replace: a short scan for a few children, and past
 * NAME_INDEX_FROM of them a hash index of (struct, name) kept by the tree,
 * so that building a struct of n members costs O(n), not O(n^2) (an NDJSON
 * object with a million keys).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

struct arena_block {
    struct arena_block *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

struct bitsift_node {
    bitsift_node_kind kind;
    uint32_t indexed; /* a struct's children entered in the tree's name index */
    const char *name;
    bitsift_node *parent;
    bitsift_node **kids;
    uint32_t nkids, capkids;
    int64_t index;
    int field;
    uint64_t bit, bits;
    bitsift_value value;
};

struct bitsift_tree {
    const bitsift_schema *schema;
    struct arena_block *blocks; /* newest first; the oldest is kept on reset */
    bitsift_node **all;         /* every node, in creation order */
    size_t nall, capall;
    int packet_type;
    bitsift_node *root;
    /* Per schema field: how many children a decoded struct of that field
     * can have (its fields in the schema), so that a decode sizes its
     * child array once. NULL without memory: arrays then grow. */
    uint32_t *kid_cap;
    /* The name index: open addressing, a power of two of slots. */
    struct name_slot *names;
    size_t names_cap, names_used;
};

/* A child of a struct in the name index: parent->kids[kid]. */
struct name_slot {
    const bitsift_node *parent; /* NULL: an empty slot */
    uint32_t kid;
    uint32_t hash;
};

/* Structs with fewer children are scanned instead. */
#define NAME_INDEX_FROM 16
/* An index larger than this many slots is freed on reset, not cleared. */
#define NAME_INDEX_KEEP 4096

#define ARENA_BLOCK 65536

/* A new block for arena_alloc. */
static void *arena_alloc_block(bitsift_tree *t, size_t size)
{
    size_t want = size > ARENA_BLOCK ? size : ARENA_BLOCK;
    struct arena_block *b = malloc(sizeof *b + want);
    if (!b)
        return NULL;
    b->next = t->blocks;
    b->used = size;
    b->size = want;
    t->blocks = b;
    return b->data;
}

/* `size` bytes, 16-aligned, from the newest block (a decode asks for
 * one node at a time: kept in line). */
static inline void *arena_alloc(bitsift_tree *t, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    struct arena_block *b = t->blocks;
    if (BITSIFT_UNLIKELY(!b || b->used + size > b->size))
        return arena_alloc_block(t, size);
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

static const char *arena_strdup(bitsift_tree *t, const char *s, size_t n)
{
    char *p = arena_alloc(t, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

bitsift_tree *bitsift_tree_create(const bitsift_schema *s)
{
    if (!s)
        return NULL;
    bitsift_tree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->schema = s;
    t->packet_type = -1;
    t->kid_cap = calloc((size_t)s->field_count + 1, sizeof *t->kid_cap);
    for (uint32_t i = 0; t->kid_cap && i < s->field_count; i++) {
        int parent = s->fields[i].info.parent;
        if (parent >= 0 && (uint32_t)parent < s->field_count)
            t->kid_cap[parent]++;
    }
    return t;
}

void bitsift_tree_free(bitsift_tree *t)
{
    if (!t)
        return;
    for (struct arena_block *b = t->blocks, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(t->all);
    free(t->kid_cap);
    free(t->names);
    free(t);
}

/* Empty the tree, keeping one block of memory for the next packet. */
static void tree_clear(bitsift_tree *t)
{
    struct arena_block *b = t->blocks;
    while (b && b->next) {
        struct arena_block *n = b->next;
        free(b);
        b = n;
    }
    if (b)
        b->used = 0;
    t->blocks = b;
    t->nall = 0;
    t->root = NULL;
    t->packet_type = -1;
    if (t->names_cap > NAME_INDEX_KEEP) {
        free(t->names);
        t->names = NULL;
        t->names_cap = 0;
    } else if (t->names_used) {
        memset(t->names, 0, t->names_cap * sizeof *t->names);
    }
    t->names_used = 0;
}

/* Room for more nodes in t->all (twice as many); false without memory. */
static bool grow_all(bitsift_tree *t)
{
    size_t cap = t->capall ? t->capall * 2 : 256;
    bitsift_node **bigger = realloc(t->all, cap * sizeof *bigger);
    if (!bigger)
        return false;
    t->all = bigger;
    t->capall = cap;
    return true;
}

/* A new node's memory, listed in t->all, its members left for the caller
 * to set; NULL at the node limit or without memory. */
static inline bitsift_node *alloc_node(bitsift_tree *t)
{
    if (BITSIFT_UNLIKELY(t->nall >= BITSIFT_TREE_MAX_NODES))
        return NULL;
    if (BITSIFT_UNLIKELY(t->nall == t->capall) && !grow_all(t))
        return NULL;
    bitsift_node *n = arena_alloc(t, sizeof *n);
    if (n)
        t->all[t->nall++] = n;
    return n;
}

static bitsift_node *new_node(bitsift_tree *t, bitsift_node_kind kind)
{
    bitsift_node *n = alloc_node(t);
    if (!n)
        return NULL;
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->index = -1;
    n->field = -1;
    return n;
}

bool bitsift_tree_reset(bitsift_tree *t, unsigned packet_type)
{
    if (!t || packet_type >= t->schema->packet_count)
        return false;
    tree_clear(t);
    t->root = new_node(t, BITSIFT_NODE_STRUCT);
    if (!t->root)
        return false;
    t->root->name = t->schema->packets[packet_type].name;
    t->root->field = t->schema->packets[packet_type].field;
    t->packet_type = (int)packet_type;
    return true;
}

const bitsift_schema *schema_tree_schema(const bitsift_tree *t)
{
    return t->schema;
}

int bitsift_tree_packet_type(const bitsift_tree *t)
{
    return t ? t->packet_type : -1;
}

bitsift_node *bitsift_tree_root(const bitsift_tree *t)
{
    return t ? t->root : NULL;
}

size_t bitsift_tree_node_count(const bitsift_tree *t)
{
    return t ? t->nall : 0;
}

bitsift_node *bitsift_tree_node(const bitsift_tree *t, size_t i)
{
    return t && i < t->nall ? t->all[i] : NULL;
}

/* ---- reading nodes ---------------------------------------------------------- */

bitsift_node_kind bitsift_node_kind_of(const bitsift_node *n)
{
    return n->kind;
}

const char *bitsift_node_name(const bitsift_node *n)
{
    return n->name;
}

bitsift_node *bitsift_node_parent(const bitsift_node *n)
{
    return n->parent;
}

size_t bitsift_node_child_count(const bitsift_node *n)
{
    return n ? n->nkids : 0;
}

bitsift_node *bitsift_node_child_at(const bitsift_node *n, size_t i)
{
    return n && i < n->nkids ? n->kids[i] : NULL;
}

bitsift_node *bitsift_node_child(const bitsift_node *n, const char *name)
{
    if (!n || !name || n->kind != BITSIFT_NODE_STRUCT)
        return NULL;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->name && strcmp(n->kids[i]->name, name) == 0)
            return n->kids[i];
    return NULL;
}

int64_t bitsift_node_index(const bitsift_node *n)
{
    return n->index;
}

const bitsift_value *bitsift_node_value(const bitsift_node *n)
{
    return &n->value;
}

int bitsift_node_field_id(const bitsift_node *n)
{
    return n->field;
}

uint64_t bitsift_node_bit(const bitsift_node *n)
{
    return n->bit;
}

uint64_t bitsift_node_bits(const bitsift_node *n)
{
    return n->bits;
}

/* ---- paths -------------------------------------------------------------------- */

size_t bitsift_node_path(const bitsift_node *n, char *buf, size_t size)
{
    if (!n || !n->parent) {
        if (size)
            buf[0] = 0;
        return 0;
    }
    size_t len = bitsift_node_path(n->parent, buf, size);
    char part[BITSIFT_SCHEMA_MAX_NAME + 32];
    int k;
    if (n->parent->kind == BITSIFT_NODE_ARRAY)
        k = snprintf(part, sizeof part, "[%lld]", (long long)n->index);
    else
        k = snprintf(part, sizeof part, "%s%s", len ? "." : "", n->name ? n->name : "");
    if (k < 0)
        return len;
    if (len + (size_t)k + 1 <= size)
        memcpy(buf + len, part, (size_t)k + 1);
    else if (size)
        buf[len < size ? len : size - 1] = 0;
    return len + (size_t)k;
}

bitsift_node *bitsift_tree_find(const bitsift_tree *t, const char *path)
{
    if (!t || !t->root || !path)
        return NULL;
    bitsift_node *n = t->root;
    const char *p = path;
    while (*p) {
        if (*p == '.') {
            p++;
            continue;
        }
        if (*p == '[') {
            char *end;
            long long index = strtoll(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || n->kind != BITSIFT_NODE_ARRAY)
                return NULL;
            bitsift_node *found = NULL;
            for (uint32_t i = 0; i < n->nkids && !found; i++)
                if (n->kids[i]->index == index)
                    found = n->kids[i];
            if (!found)
                return NULL;
            n = found;
            p = end + 1;
            continue;
        }
        size_t len = strcspn(p, ".[");
        if (n->kind != BITSIFT_NODE_STRUCT)
            return NULL;
        bitsift_node *found = NULL;
        for (uint32_t i = 0; i < n->nkids && !found; i++)
            if (n->kids[i]->name && strlen(n->kids[i]->name) == len &&
                memcmp(n->kids[i]->name, p, len) == 0)
                found = n->kids[i];
        if (!found)
            return NULL;
        n = found;
        p += len;
    }
    return n;
}

/* ---- building ----------------------------------------------------------------- */

static bool add_kid(bitsift_tree *t, bitsift_node *parent, bitsift_node *kid)
{
    if (parent->nkids == parent->capkids) {
        uint32_t cap = parent->capkids ? parent->capkids * 2 : 4;
        bitsift_node **kids = arena_alloc(t, cap * sizeof *kids);
        if (!kids)
            return false;
        if (parent->nkids)
            memcpy(kids, parent->kids, parent->nkids * sizeof *kids);
        parent->kids = kids;
        parent->capkids = cap;
    }
    parent->kids[parent->nkids++] = kid;
    kid->parent = parent;
    return true;
}

/* FNV-1a over the name, mixed with the struct's address. */
static uint32_t name_hash(const bitsift_node *parent, const char *name)
{
    uint64_t h = 0xcbf29ce484222325u ^ ((uintptr_t)parent >> 4);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 0x100000001b3u;
    return (uint32_t)(h ^ h >> 32);
}

/* Double the index (or make its first slots); false without memory. */
static bool grow_names(bitsift_tree *t)
{
    size_t cap = t->names_cap ? t->names_cap * 2 : 256;
    struct name_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < t->names_cap; i++) {
        if (!t->names[i].parent)
            continue;
        size_t j = t->names[i].hash & (cap - 1);
        while (slots[j].parent)
            j = (j + 1) & (cap - 1);
        slots[j] = t->names[i];
    }
    free(t->names);
    t->names = slots;
    t->names_cap = cap;
    return true;
}

/* Enter parent->kids[kid] in the index; false without memory. */
static bool index_name(bitsift_tree *t, const bitsift_node *parent, uint32_t kid)
{
    if ((t->names_used + 1) * 2 > t->names_cap && !grow_names(t))
        return false;
    uint32_t hash = name_hash(parent, parent->kids[kid]->name);
    size_t j = hash & (t->names_cap - 1);
    while (t->names[j].parent)
        j = (j + 1) & (t->names_cap - 1);
    t->names[j] = (struct name_slot){parent, kid, hash};
    t->names_used++;
    return true;
}

/* The position in parent->kids of the child named `name`, or -1. */
static int64_t find_named_kid(bitsift_tree *t, bitsift_node *parent, const char *name)
{
    bool indexed = parent->nkids >= NAME_INDEX_FROM;
    while (indexed && parent->indexed < parent->nkids) {
        if (!parent->kids[parent->indexed]->name ||
            !index_name(t, parent, parent->indexed)) {
            indexed = false; /* a nameless child, or no memory: scan */
            break;
        }
        parent->indexed++;
    }
    if (!indexed) {
        for (uint32_t i = 0; i < parent->nkids; i++)
            if (parent->kids[i]->name && strcmp(parent->kids[i]->name, name) == 0)
                return i;
        return -1;
    }
    uint32_t hash = name_hash(parent, name);
    for (size_t j = hash & (t->names_cap - 1); t->names[j].parent; j = (j + 1) & (t->names_cap - 1)) {
        const struct name_slot *slot = &t->names[j];
        if (slot->parent == parent && slot->hash == hash &&
            strcmp(parent->kids[slot->kid]->name, name) == 0)
            return slot->kid;
    }
    return -1;
}

static bitsift_node *add(bitsift_tree *t, bitsift_node *parent, const char *name,
                         bitsift_node_kind kind)
{
    if (!t)
        return NULL;
    if (!parent)
        parent = t->root;
    if (!parent || parent->kind == BITSIFT_NODE_VALUE)
        return NULL;
    if (parent->kind == BITSIFT_NODE_STRUCT) {
        if (!name || !*name || strlen(name) > BITSIFT_SCHEMA_MAX_NAME)
            return NULL;
        /* A struct holds one child per name: replace an existing one. */
        int64_t i = find_named_kid(t, parent, name);
        if (i >= 0) {
            bitsift_node *n = new_node(t, kind);
            if (!n)
                return NULL;
            n->name = parent->kids[i]->name;
            n->parent = parent;
            parent->kids[i] = n;
            return n;
        }
    }
    bitsift_node *n = new_node(t, kind);
    if (!n)
        return NULL;
    if (parent->kind == BITSIFT_NODE_STRUCT) {
        n->name = arena_strdup(t, name, strlen(name));
        if (!n->name)
            return NULL;
    } else {
        n->index = parent->nkids;
    }
    return add_kid(t, parent, n) ? n : NULL;
}

bitsift_node *bitsift_node_add_struct(bitsift_tree *t, bitsift_node *parent, const char *name)
{
    return add(t, parent, name, BITSIFT_NODE_STRUCT);
}

bitsift_node *bitsift_node_add_array(bitsift_tree *t, bitsift_node *parent, const char *name)
{
    return add(t, parent, name, BITSIFT_NODE_ARRAY);
}

bool bitsift_node_set_value(bitsift_tree *t, bitsift_node *n, const bitsift_value *v)
{
    if (!t || !n || !v || n->kind != BITSIFT_NODE_VALUE)
        return false;
    bitsift_value copy = *v;
    if (v->kind == BITSIFT_VALUE_BYTES || v->kind == BITSIFT_VALUE_STRING) {
        if (v->size > BITSIFT_SCHEMA_MAX_BYTES || (!v->data && v->size))
            return false;
        const char *p = arena_strdup(t, v->data ? (const char *)v->data : "", v->size);
        if (!p)
            return false;
        copy.data = (const uint8_t *)p;
    }
    if (v->kind == BITSIFT_VALUE_ENUM && v->name) {
        size_t len = strlen(v->name);
        copy.name = len <= BITSIFT_SCHEMA_MAX_NAME ? arena_strdup(t, v->name, len) : NULL;
    }
    n->value = copy;
    return true;
}

bitsift_node *bitsift_node_add_value(bitsift_tree *t, bitsift_node *parent, const char *name,
                                     const bitsift_value *v)
{
    bitsift_node *n = add(t, parent, name, BITSIFT_NODE_VALUE);
    if (!n || (v && !bitsift_node_set_value(t, n, v)))
        return NULL;
    return n;
}

void bitsift_node_set_index(bitsift_node *n, int64_t index)
{
    if (n)
        n->index = index;
}

/* ---- decoding into a tree ------------------------------------------------------ */

struct builder {
    bitsift_tree *t;
    bitsift_node *current;
    bool failed; /* out of memory or over the node limit */
};

/* A child array sized up front holds at most this many: a hostile count
 * must not make a few bits of packet claim a large block. */
#define DECODED_KIDS_MAX 64

/*
 * add_decoded for a node made from an event, each member written once:
 * a STRUCT parent names it (names live in the schema, which outlives
 * the tree; an element has none), an ARRAY parent gives it its position
 * until the event's index replaces it. `kids` is how many children to
 * make room for now (0: the child array grows as they come).
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline bitsift_node *decoded_node(bitsift_tree *t, bitsift_node *parent,
                                         const bitsift_event *ev, bitsift_node_kind kind,
                                         uint64_t kids)
{
    bitsift_node *n = alloc_node(t);
    if (!n)
        return NULL;
    bool in_struct = parent->kind == BITSIFT_NODE_STRUCT;
    n->kind = kind;
    n->indexed = 0;
    n->name = in_struct && ev->index < 0 ? ev->name : NULL;
    n->index = ev->index >= 0 ? ev->index : in_struct ? -1 : (int64_t)parent->nkids;
    n->field = ev->id;
    n->bit = ev->bit;
    n->nkids = 0;
    n->capkids = 0;
    n->kids = NULL;
    if (kids) {
        uint32_t cap = kids < DECODED_KIDS_MAX ? (uint32_t)kids : DECODED_KIDS_MAX;
        n->kids = arena_alloc(t, cap * sizeof *n->kids);
        if (!n->kids)
            return NULL;
        n->capkids = cap;
    }
    if (BITSIFT_UNLIKELY(parent->nkids == parent->capkids)) {
        if (!add_kid(t, parent, n))
            return NULL;
    } else {
        parent->kids[parent->nkids++] = n;
        n->parent = parent;
    }
    return n;
}

/* Room for the children of a struct of field `id`. */
static uint32_t struct_kids(const bitsift_tree *t, int id)
{
    return t->kid_cap && id >= 0 && (uint32_t)id < t->schema->field_count ? t->kid_cap[id] : 0;
}

static bool build_enter(void *ctx, const bitsift_event *ev)
{
    struct builder *b = ctx;
    bitsift_tree *t = b->t;
    if (ev->depth == 0) {
        const bitsift_schema *s = t->schema;
        if (!bitsift_tree_reset(t, s->fields[ev->id].info.packet_type))
            return !(b->failed = true);
        b->current = t->root;
        t->root->bit = ev->bit;
        uint32_t cap = struct_kids(t, ev->id);
        if (cap) {
            cap = cap < DECODED_KIDS_MAX ? cap : DECODED_KIDS_MAX;
            t->root->kids = arena_alloc(t, cap * sizeof *t->root->kids);
            if (!t->root->kids)
                return !(b->failed = true);
            t->root->capkids = cap;
        }
        return true;
    }
    bool array = ev->type == BITSIFT_FIELD_ARRAY;
    bitsift_node *n =
        decoded_node(t, b->current, ev, array ? BITSIFT_NODE_ARRAY : BITSIFT_NODE_STRUCT,
                     array ? ev->count : struct_kids(t, ev->id));
    if (!n)
        return !(b->failed = true);
    n->bits = 0;
    memset(&n->value, 0, sizeof n->value);
    b->current = n;
    return true;
}

static bool build_field(void *ctx, const bitsift_event *ev)
{
    struct builder *b = ctx;
    if (ev->flags & (BITSIFT_EVENT_FRAMING | BITSIFT_EVENT_ARRAY_META | BITSIFT_EVENT_ABSENT))
        return true;
    if (ev->type == BITSIFT_FIELD_ALIGN || ev->type == BITSIFT_FIELD_CHECK)
        return true;
    bitsift_node *n = decoded_node(b->t, b->current, ev, BITSIFT_NODE_VALUE, 0);
    if (!n)
        return !(b->failed = true);
    n->bits = ev->bits;
    /* Bytes and strings point into the packet: copy them. Enum names
     * live in the schema: keep the pointer. */
    if (ev->value.kind == BITSIFT_VALUE_BYTES || ev->value.kind == BITSIFT_VALUE_STRING) {
        memset(&n->value, 0, sizeof n->value);
        if (!bitsift_node_set_value(b->t, n, &ev->value))
            return !(b->failed = true);
    } else {
        n->value = ev->value;
    }
    return true;
}

static bool build_leave(void *ctx, const bitsift_event *ev)
{
    struct builder *b = ctx;
    if (b->current) {
        b->current->bits = ev->bits;
        if (b->current->parent)
            b->current = b->current->parent;
    }
    return true;
}

bitsift_error bitsift_decode_tree(const bitsift_schema *s, const void *packet, size_t size,
                                  unsigned flags, bitsift_tree *t, bitsift_result *res)
{
    bitsift_result local;
    if (!res)
        res = &local;
    if (!s || !t || t->schema != s || (!packet && size)) {
        schema_result_init(res);
        res->status = res->failure.kind = BITSIFT_E_ARGUMENT;
        res->failure.why = "no schema, tree of another schema, or no packet";
        return res->status;
    }
    tree_clear(t);
    struct builder b = {.t = t};
    bitsift_visitor v = {build_field, build_enter, build_leave, &b};
    /* The builder reads no paths and makes no nodes for absent fields. */
    bitsift_error e = schema_decode(
        s, packet, size, flags | SCHEMA_DECODE_NO_PATHS | BITSIFT_DECODE_NO_ABSENT, &v, res);
    if (b.failed) {
        /* The tree could not hold the packet: a limit, not a bad packet. */
        res->status = res->failure.kind = BITSIFT_E_LIMIT;
        res->failure.why = "value tree node limit or out of memory";
        res->stopped = false;
        return res->status;
    }
    SCHEMA_PLANT(PLANT_TREE, res);
    return e;
}
