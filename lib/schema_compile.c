/*
 * schema_compile.c -- the compiler's back end and the schema object:
 * loading a file, storage of ops/fields/strings under the hard limits,
 * diagnostics, the bit cost of every field and packet, introspection,
 * and the small run-time helpers the decoder and encoder share (enum
 * names, conditions, value constraints, smallest-three quantization).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_compile.h"

bool compile_grow(void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *bigger = realloc(*array, n * size);
    if (!bigger)
        return false;
    *array = bigger;
    *cap = n;
    return true;
}

bool compile_error(struct compiler *c, const struct token *at, const char *fmt, ...)
{
    if (c->failed)
        return false; /* keep the first error */
    c->failed = true;
    if (!c->err)
        return false;
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    c->err->kind = BITSIFT_E_SCHEMA;
    c->err->line = at ? at->line : 0;
    c->err->column = at ? at->column : 0;
    if (at)
        snprintf(c->err->message, sizeof c->err->message, "%s:%u:%u: %s", c->filename, at->line,
                 at->column, text);
    else
        snprintf(c->err->message, sizeof c->err->message, "%s: %s", c->filename, text);
    return false;
}

const char *compile_strdup(struct compiler *c, const char *text, size_t len)
{
    bitsift_schema *s = c->s;
    if (c->string_bytes + len + 1 > SCHEMA_MAX_STRINGS) {
        compile_error(c, &c->toks[c->pos < c->ntoks ? c->pos : c->ntoks - 1],
                      "schema too large: names and paths exceed %u bytes", SCHEMA_MAX_STRINGS);
        return NULL;
    }
    struct string_block *b = s->blocks;
    if (!b || b->used + len + 1 > b->size) {
        size_t size = len + 1 > 65536 ? len + 1 : 65536;
        b = malloc(sizeof *b + size);
        if (!b) {
            compile_error(c, NULL, "out of memory");
            return NULL;
        }
        b->next = s->blocks;
        b->used = 0;
        b->size = size;
        s->blocks = b;
    }
    char *out = b->data + b->used;
    memcpy(out, text, len);
    out[len] = 0;
    b->used += len + 1;
    c->string_bytes += len + 1;
    return out;
}

int32_t compile_new_op(struct compiler *c, const struct token *at)
{
    bitsift_schema *s = c->s;
    if (c->failed)
        return -1;
    if (s->op_count >= BITSIFT_SCHEMA_MAX_OPS) {
        compile_error(c, at,
                      "schema too large: more than %d ops (struct types are copied where used)",
                      BITSIFT_SCHEMA_MAX_OPS);
        return -1;
    }
    if (!compile_grow((void **)&s->ops, &c->ops_cap, s->op_count + 1, sizeof *s->ops)) {
        compile_error(c, at, "out of memory");
        return -1;
    }
    struct schema_op *op = &s->ops[s->op_count];
    memset(op, 0, sizeof *op);
    op->field = -1;
    op->slot = -1;
    op->count_slot = -1;
    op->count_for = -1;
    op->count_cap = INT64_MAX;
    op->base_slot = -1;
    op->reset_head = -1;
    op->reset_next = -1;
    op->enum_id = -1;
    return (int32_t)s->op_count++;
}

int32_t compile_new_field(struct compiler *c, int32_t op, const char *name, size_t name_len,
                          bitsift_field_type type)
{
    bitsift_schema *s = c->s;
    if (c->failed)
        return -1;
    if (!compile_grow((void **)&s->fields, &c->fields_cap, s->field_count + 1,
                      sizeof *s->fields)) {
        compile_error(c, NULL, "out of memory");
        return -1;
    }
    /* The path: the enclosing container's path, then ".name". */
    char path[BITSIFT_PATH_MAX];
    size_t n = c->path_len;
    memcpy(path, c->path, n);
    if (name_len && n + name_len + 2 <= sizeof path) {
        if (n)
            path[n++] = '.';
        memcpy(path + n, name, name_len);
        n += name_len;
    }
    const char *spath = compile_strdup(c, path, n);
    const char *sname = compile_strdup(c, name, name_len);
    if (!spath || !sname)
        return -1;
    struct schema_field *f = &s->fields[s->field_count];
    memset(f, 0, sizeof *f);
    f->op = op;
    f->info.type = type;
    f->info.name = sname;
    f->info.path = spath;
    f->info.parent = c->parent_field;
    f->info.packet_type = s->packet_count ? 0 : 0;
    f->info.conditional = c->cond_depth > 0;
    if (s->ops[op].field < 0)
        s->ops[op].field = (int32_t)s->field_count;
    return (int32_t)s->field_count++;
}

bool compile_slot(struct compiler *c, int32_t op, const struct token *at)
{
    bitsift_schema *s = c->s;
    if (s->ops[op].slot >= 0)
        return true;
    if (s->slot_count >= SCHEMA_MAX_SLOTS)
        return compile_error(c, at, "more than %d fields are referred to by others",
                             SCHEMA_MAX_SLOTS);
    s->ops[op].slot = (int32_t)s->slot_count++;
    return true;
}

bool compile_add_allowed(struct compiler *c, int64_t v)
{
    bitsift_schema *s = c->s;
    if (!compile_grow((void **)&s->allowed, &c->allowed_cap, s->allowed_count + 1,
                      sizeof *s->allowed))
        return false;
    s->allowed[s->allowed_count++] = v;
    return true;
}

bool compile_add_expr(struct compiler *c, enum expr_code code, int64_t value)
{
    bitsift_schema *s = c->s;
    /* Each condition is built contiguously from expr_start: bound it, so
     * that its evaluation stack fits SCHEMA_MAX_EXPR. */
    if (s->expr_count - c->expr_start >= SCHEMA_MAX_EXPR)
        return false;
    if (!compile_grow((void **)&s->expr, &c->expr_cap, s->expr_count + 1, sizeof *s->expr))
        return false;
    s->expr[s->expr_count].code = code;
    s->expr[s->expr_count].value = value;
    s->expr_count++;
    return true;
}

/* Bits of the object_index ladder: 1 .. 12, or 6 + the last tier. */
static uint64_t object_index_max_bits(int64_t max_objects)
{
    if (max_objects + 1 < 126)
        return 12;
    return 6 + bitsift_bits_required(126, max_objects + 1);
}

void compile_bits(const bitsift_schema *s, uint32_t first, uint32_t end, uint64_t *min,
                  uint64_t *max)
{
    uint64_t lo = 0, hi = 0;
    for (uint32_t i = first; i < end;) {
        const struct schema_op *op = &s->ops[i];
        uint64_t a = 0, b = 0;
        switch ((enum op_code)op->code) {
        case OP_BITS:
        case OP_INT:
        case OP_ENUM:
        case OP_CFLOAT:
            a = b = op->code == OP_BITS || op->code == OP_CFLOAT
                        ? op->width
                        : bitsift_bits_required(op->min, op->max);
            break;
        case OP_BOOL:
            a = b = 1;
            break;
        case OP_FLOAT:
            a = b = 32;
            break;
        case OP_DOUBLE:
            a = b = 64;
            break;
        case OP_BYTES:
            a = 8ull * op->width, b = a + 7;
            break;
        case OP_STRING:
            a = bitsift_bits_required(0, (int64_t)op->width - 1);
            b = a + 7 + 8ull * (op->width - 1);
            break;
        case OP_ALIGN:
            a = 0, b = 7;
            break;
        case OP_CHECK:
            a = 32, b = 39;
            break;
        case OP_INT_REL:
        case OP_SEQ_REL:
            a = 1, b = 38;
            break;
        case OP_ACK_REL:
            a = 7, b = 17;
            break;
        case OP_OBJ_INDEX:
            a = 1, b = object_index_max_bits(op->max_objects);
            break;
        case OP_SMALLEST3:
            a = b = 2 + 3ull * op->width;
            break;
        case OP_STRUCT:
            compile_bits(s, i + 1, op->end, &a, &b);
            break;
        case OP_IF: {
            uint64_t ta, tb, ea, eb;
            compile_bits(s, i + 1, op->else_start, &ta, &tb);
            compile_bits(s, op->else_start, op->end, &ea, &eb);
            a = ta < ea ? ta : ea;
            b = tb > eb ? tb : eb;
            break;
        }
        case OP_ARRAY: {
            uint64_t ea, eb, n = (uint64_t)op->max;
            compile_bits(s, i + 1, op->end, &ea, &eb);
            uint64_t count = bitsift_bits_required(0, op->max);
            switch ((enum array_kind)op->array_kind) {
            case ARRAY_FIXED:
                a = sat_mul(n, ea), b = sat_mul(n, eb);
                break;
            case ARRAY_COUNTED:
                a = 0, b = sat_mul(n, eb);
                break;
            case ARRAY_INLINE:
                a = count, b = sat_add(count, sat_mul(n, eb));
                break;
            case ARRAY_FLAGS:
                a = n, b = sat_add(n, sat_mul(n, eb));
                break;
            case ARRAY_INDICES:
                a = count;
                b = sat_add(count, sat_mul(n, sat_add(eb, bitsift_bits_required(0, op->max - 1))));
                break;
            case ARRAY_SENTINEL:
                a = count;
                b = sat_add(count, sat_mul(n, sat_add(eb, count)));
                break;
            case ARRAY_RELATIVE:
                a = count;
                b = sat_add(count, sat_mul(n, sat_add(eb, object_index_max_bits(op->max))));
                break;
            }
            break;
        }
        }
        lo = sat_add(lo, a);
        hi = sat_add(hi, b);
        i = (op->code == OP_STRUCT || op->code == OP_ARRAY || op->code == OP_IF) ? op->end : i + 1;
    }
    *min = lo;
    *max = hi;
}

void compile_finish(struct compiler *c)
{
    bitsift_schema *s = c->s;
    /* Field ids grow in op order, parents first: one pass fills depth
     * and packet type. */
    for (uint32_t f = 0; f < s->field_count; f++) {
        struct schema_field *sf = &s->fields[f];
        const struct schema_op *op = &s->ops[sf->op];
        int32_t parent = sf->info.parent;
        if (parent >= 0) {
            sf->info.depth = s->fields[parent].info.depth + 1;
            sf->info.packet_type = s->fields[parent].info.packet_type;
        }
        if (op->code == OP_SMALLEST3 && op->field != (int32_t)f) {
            /* One of the five parts: largest is 2 bits, one component
             * is derived (0 bits), the others `width` bits. */
            bool largest = f == (uint32_t)op->field + 1;
            sf->info.min_bits = largest ? 2 : 0;
            sf->info.max_bits = largest ? 2 : op->width;
            sf->info.width = largest ? 2 : op->width;
            sf->info.max = largest ? 3 : 0;
            continue;
        }
        uint32_t end = op->code == OP_STRUCT || op->code == OP_ARRAY ? op->end : sf->op + 1u;
        compile_bits(s, (uint32_t)sf->op, end, &sf->info.min_bits, &sf->info.max_bits);
        if (sf->info.conditional)
            sf->info.min_bits = 0;
        sf->info.min = op->min;
        sf->info.max = op->max;
        sf->info.width = op->width;
        sf->info.fmin = op->fmin, sf->info.fmax = op->fmax, sf->info.resolution = op->res;
        if (op->code == OP_ARRAY || op->code == OP_BYTES || op->code == OP_STRING)
            sf->info.max_count = op->code == OP_ARRAY ? (uint32_t)op->max : op->width;
        if (op->code == OP_ARRAY)
            sf->info.min = 0;
        if (op->code == OP_OBJ_INDEX)
            sf->info.max = op->max_objects;
    }
    const bitsift_framing *fr = &s->framing;
    uint64_t framing = 8ull * fr->prefix_bytes + (fr->crc ? 32 : 0) +
                       bitsift_bits_required(0, (int64_t)fr->num_types - 1);
    for (uint32_t p = 0; p < s->packet_count; p++) {
        struct schema_packet *pk = &s->packets[p];
        compile_bits(s, pk->first_op, pk->end_op, &pk->min_bits, &pk->max_bits);
        pk->min_bits = sat_add(pk->min_bits, framing + (fr->end_check ? 32 : 0));
        pk->max_bits = sat_add(pk->max_bits, framing + (fr->end_check ? 39 : 7));
    }
}

/* ---- precomputed decoding aids ------------------------------------------- */

/* Whether skipping ops [first, end) must set slots to their defaults. */
static bool range_sets_slots(const bitsift_schema *s, uint32_t first, uint32_t end)
{
    for (uint32_t i = first; i < end && i < s->op_count; i++)
        if (s->ops[i].slot >= 0 && s->ops[i].base_kind != BASE_PREVIOUS)
            return true;
    return false;
}

void schema_prepare_ops(bitsift_schema *s)
{
    for (uint32_t i = 0; i < s->op_count; i++) {
        struct schema_op *op = &s->ops[i];
        op->absent = schema_default(op);
        op->absent_int = schema_value_int(&op->absent);
        op->name_len = op->name ? (uint32_t)strlen(op->name) : 0;
        op->cond_shape = COND_EXPR;
        if (op->code != OP_IF)
            continue;
        op->branch_slots = (uint8_t)((range_sets_slots(s, i + 1, op->else_start) ? 1 : 0) |
                                     (range_sets_slots(s, op->else_start, op->end) ? 2 : 0));
        const struct expr_item *x = &s->expr[op->expr_first];
        if (op->expr_count == 1 && x[0].code == EXPR_SLOT) {
            op->cond_shape = COND_NONZERO;
        } else if (op->expr_count == 2 && x[0].code == EXPR_SLOT && x[1].code == EXPR_NOT) {
            op->cond_shape = COND_ZERO;
        } else if (op->expr_count == 3 && x[0].code == EXPR_SLOT && x[1].code == EXPR_CONST &&
                   (x[2].code == EXPR_EQ || x[2].code == EXPR_NE)) {
            op->cond_shape = x[2].code == EXPR_EQ ? COND_EQ : COND_NE;
            op->cond_value = x[1].value;
        }
        if (op->cond_shape != COND_EXPR)
            op->cond_slot = (int32_t)x[0].value;
    }
}

/* ---- leaf runs ------------------------------------------------------------ */

/* One read of a leaf run: accepted raw values lo .. lo + span. */
static struct schema_leaf leaf_read(uint32_t width, uint64_t lo, uint64_t span, int64_t base,
                                    int32_t slot)
{
    struct schema_leaf l;
    l.mask = width ? ~0ull >> (64 - width) : 0;
    l.lo = lo;
    l.span = span;
    l.base = base;
    l.slot = slot >= 0 ? (uint32_t)slot : SCHEMA_MAX_SLOTS;
    l.width = width;
    return l;
}

/* The reads that check a leaf op exactly as the decoder's read_leaf_value
 * does, into out[0..3]; 0 when the op cannot join a run (containers,
 * aligned and relative fields, value lists, non-dense enums, widths above
 * the 57 bits one load gives, floats whose value a later field uses). */
static uint32_t leaf_reads(const bitsift_schema *s, const struct schema_op *op,
                           struct schema_leaf out[4])
{
    if (op->allowed_count)
        return 0;
    switch ((enum op_code)op->code) {
    case OP_BITS:
        if (op->width < 1 || op->width > 57)
            return 0;
        out[0] = leaf_read(op->width, 0, UINT64_MAX, 0, op->slot);
        return 1;
    case OP_BOOL:
        out[0] = leaf_read(1, 0, UINT64_MAX, 0, op->slot);
        return 1;
    case OP_INT:
    case OP_ENUM: {
        if (op->min > op->max)
            return 0;
        unsigned width = bitsift_bits_required(op->min, op->max);
        uint64_t lo = 0, span = (uint64_t)op->max - (uint64_t)op->min;
        if (width > 57)
            return 0;
        if (op->code == OP_ENUM) {
            /* A dense enum names first .. first + count - 1: the raw
             * values that have a name are a range inside [0, span]. */
            const struct schema_enum *e = &s->enums[op->enum_id];
            if (!e->dense || !e->count)
                return 0;
            int64_t first = s->enum_values[e->first].value;
            int64_t last = s->enum_values[e->first + e->count - 1].value;
            if (first < op->min || last > op->max)
                return 0;
            lo = (uint64_t)first - (uint64_t)op->min;
            span = (uint64_t)last - (uint64_t)first;
        }
        out[0] = leaf_read(width, lo, span, op->min, op->slot);
        return 1;
    }
    case OP_CFLOAT:
        if (op->slot >= 0 || op->width > 57)
            return 0;
        out[0] = leaf_read(op->width, 0, op->steps, 0, -1);
        return 1;
    case OP_FLOAT:
        if (op->slot >= 0)
            return 0;
        out[0] = leaf_read(32, 0, UINT64_MAX, 0, -1);
        return 1;
    case OP_SMALLEST3:
        if (op->slot >= 0 || op->width < 1 || op->width > 57)
            return 0;
        out[0] = leaf_read(2, 0, UINT64_MAX, 0, -1);
        for (int k = 1; k < 4; k++)
            out[k] = leaf_read(op->width, 0, UINT64_MAX, 0, -1);
        return 4;
    default:
        return 0;
    }
}

void schema_fuse_leaf_runs(bitsift_schema *s)
{
    uint32_t n = s->op_count;
    /* limit[i]: the end of the innermost packet, array or if branch
     * holding op i; reads[i]: op i's reads. Nested structs set no limit:
     * validation reads through them. */
    uint32_t *limit = malloc(((size_t)n + 1) * sizeof *limit);
    uint32_t *reads = malloc(((size_t)n + 1) * sizeof *reads);
    bool *nested = malloc(((size_t)n + 1) * sizeof *nested); /* a struct inside a packet */
    struct schema_leaf *leaves = malloc(((size_t)n * 4 + 1) * sizeof *leaves);
    uint32_t stack[2 * BITSIFT_SCHEMA_MAX_DEPTH + 8];
    unsigned sp = 0;
    bool ok = limit && reads && nested && leaves;
    uint32_t count = 0;
    for (uint32_t i = 0; ok && i < n; i++) {
        const struct schema_op *op = &s->ops[i];
        while (sp && i >= stack[sp - 1])
            sp--;
        limit[i] = sp ? stack[sp - 1] : n;
        reads[i] = leaf_reads(s, op, leaves + count);
        nested[i] = op->code == OP_STRUCT && sp > 0;
        count += reads[i];
        if (op->code == OP_STRUCT || op->code == OP_ARRAY || op->code == OP_IF) {
            if (sp + 2 > sizeof stack / sizeof stack[0] || op->end > limit[i] ||
                op->else_start > op->end) {
                ok = false; /* not a shape the decoder runs: no runs at all */
                break;
            }
            if (op->code != OP_STRUCT || sp == 0)
                stack[sp++] = op->end;
            if (op->code == OP_IF)
                stack[sp++] = op->else_start > i ? op->else_start : op->end;
        }
    }
    if (ok) {
        /* Backwards, each run is this op's reads plus the run after it. */
        uint32_t first = count;
        for (uint32_t i = n; i-- > 0;) {
            struct schema_op *op = &s->ops[i];
            first -= reads[i];
            op->run_ops = op->run_fields = op->run_reads = 0;
            op->run_bits = 0;
            op->run_first = first;
            if (!reads[i] && !nested[i])
                continue;
            uint64_t bits = 0;
            for (uint32_t k = 0; k < reads[i]; k++)
                bits += leaves[first + k].width;
            op->run_ops = 1;
            op->run_fields = reads[i] ? 1 : 0;
            op->run_reads = reads[i];
            op->run_bits = bits;
            if (i + 1 < limit[i]) {
                const struct schema_op *next = op + 1;
                op->run_ops += next->run_ops;
                op->run_fields += next->run_fields;
                op->run_reads += next->run_reads;
                op->run_bits += next->run_bits;
            }
        }
        s->leaves = leaves;
        s->leaf_count = count;
        leaves = NULL;
    }
    free(limit);
    free(reads);
    free(nested);
    free(leaves);
}

/* ---- the schema object -------------------------------------------------- */

void bitsift_schema_free(bitsift_schema *s)
{
    if (!s)
        return;
    free(s->ops);
    free(s->fields);
    free(s->packets);
    free(s->enums);
    free(s->enum_values);
    free(s->allowed);
    free(s->expr);
    free(s->leaves);
    schema_validate_free(s->validate);
    for (struct string_block *b = s->blocks, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(s);
}

static void set_plain_error(bitsift_schema_error *err, bitsift_error kind, const char *file,
                            const char *what)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->kind = kind;
    snprintf(err->message, sizeof err->message, "%s: %s", file, what);
}

bitsift_schema *bitsift_schema_compile(const char *text, size_t size, const char *filename,
                                       bitsift_schema_error *err)
{
    const char *file = filename ? filename : "<string>";
    if (err)
        memset(err, 0, sizeof *err);
    if (size > BITSIFT_SCHEMA_MAX_TEXT) {
        set_plain_error(err, BITSIFT_E_LIMIT, file, "schema larger than 1 MiB");
        return NULL;
    }
    if (!text && size) {
        set_plain_error(err, BITSIFT_E_ARGUMENT, file, "no schema text");
        return NULL;
    }
    struct token *toks = NULL;
    size_t ntoks = 0;
    bitsift_schema_error lex_err = {0};
    if (!schema_lex(text ? text : "", size, &toks, &ntoks, &lex_err)) {
        if (err) {
            *err = lex_err;
            if (!err->kind)
                err->kind = BITSIFT_E_SCHEMA;
            char what[128];
            memcpy(what, lex_err.message, sizeof what - 1);
            what[sizeof what - 1] = 0;
            if (lex_err.line)
                snprintf(err->message, sizeof err->message, "%.300s:%u:%u: %.120s", file,
                         lex_err.line, lex_err.column, what);
            else
                snprintf(err->message, sizeof err->message, "%.300s: %.120s", file, what);
        }
        return NULL;
    }
    bitsift_schema *s = calloc(1, sizeof *s);
    struct compiler c = {.filename = file, .toks = toks, .ntoks = ntoks, .err = err, .s = s};
    c.owner = -1;
    c.array_op = -1;
    c.parent_field = -1;
    bool ok = s && schema_parse(&c);
    if (!s)
        set_plain_error(err, BITSIFT_E_NOMEM, file, "out of memory");
    if (ok) {
        compile_finish(&c);
        if (!c.failed) {
            schema_prepare_ops(s);
            schema_prepare_visit(s);
            schema_fuse_leaf_runs(s);
            /* Without it (no memory, a shape it leaves alone) the
             * interpreter validates: slower, same answers. */
            s->validate = schema_validate_build(s);
        }
    }
    free(c.decls);
    free(c.decl_table);
    free(c.vis);
    free(toks);
    if (!ok || c.failed) {
        if (err && !err->kind)
            set_plain_error(err, BITSIFT_E_SCHEMA, file, "invalid schema");
        bitsift_schema_free(s);
        return NULL;
    }
    return s;
}

bitsift_schema *bitsift_schema_load_file(const char *path, bitsift_schema_error *err)
{
    if (!path) {
        set_plain_error(err, BITSIFT_E_ARGUMENT, "<null>", "no file name");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_plain_error(err, BITSIFT_E_IO, path, strerror(errno));
        return NULL;
    }
    /* Read at most one byte more than allowed, to tell "too large". */
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap > BITSIFT_SCHEMA_MAX_TEXT)
                break;
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger, cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool read_error = ferror(f);
    fclose(f);
    if (!buf) {
        set_plain_error(err, BITSIFT_E_NOMEM, path, "out of memory");
        return NULL;
    }
    if (read_error) {
        free(buf);
        set_plain_error(err, BITSIFT_E_IO, path, "read error");
        return NULL;
    }
    bitsift_schema *s = bitsift_schema_compile(buf, n, path, err);
    free(buf);
    return s;
}

/* ---- introspection ------------------------------------------------------ */

const char *bitsift_schema_name(const bitsift_schema *s)
{
    return s->name;
}

uint32_t bitsift_schema_protocol_id(const bitsift_schema *s)
{
    return s->framing.protocol_id;
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

const char *bitsift_field_type_name(bitsift_field_type t)
{
    static const char *const names[BITSIFT_FIELD_TYPE_COUNT] = {
        "bits",          "bool",         "uint8",
        "uint16",        "uint32",       "uint64",
        "int",           "float",        "double",
        "compressed_float", "bytes",     "string",
        "align",         "check",        "int_relative",
        "object_index",  "sequence_relative", "ack_relative",
        "enum",          "struct",       "array",
        "vector",        "quaternion",   "prefix",
        "crc",           "type",         "end_check",
    };
    if ((unsigned)t >= BITSIFT_FIELD_TYPE_COUNT)
        return "unknown";
    return names[t];
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

const char *bitsift_schema_enum_name(const bitsift_schema *s, unsigned id, int64_t value)
{
    if (id >= s->field_count)
        return NULL;
    const struct schema_op *op = &s->ops[s->fields[id].op];
    if (op->code != OP_ENUM || s->fields[id].info.type != BITSIFT_FIELD_ENUM)
        return NULL;
    return schema_enum_lookup(s, op->enum_id, value);
}

/* ---- run-time helpers ---------------------------------------------------- */

bool schema_enum_raw_range(const bitsift_schema *s, const struct schema_op *op, uint64_t *lo,
                           uint64_t *span)
{
    const struct schema_enum *e = &s->enums[op->enum_id];
    if (!e->dense || !e->count)
        return false;
    int64_t first = s->enum_values[e->first].value;
    int64_t last = s->enum_values[e->first + e->count - 1].value;
    if (first < op->min || last > op->max)
        return false;
    *lo = (uint64_t)first - (uint64_t)op->min;
    *span = (uint64_t)last - (uint64_t)first;
    return true;
}

const char *schema_enum_lookup(const bitsift_schema *s, int32_t enum_id, int64_t value)
{
    const struct schema_enum *e = &s->enums[enum_id];
    const struct schema_enum_value *v = s->enum_values + e->first;
    if (e->dense) {
        uint64_t k = (uint64_t)value - (uint64_t)v[0].value;
        return k < e->count ? v[k].name : NULL;
    }
    uint32_t lo = 0, hi = e->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[mid].value < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < e->count && v[lo].value == value ? v[lo].name : NULL;
}

bool schema_enum_value(const bitsift_schema *s, int32_t enum_id, const char *name, size_t len,
                       int64_t *value)
{
    const struct schema_enum *e = &s->enums[enum_id];
    for (uint32_t i = 0; i < e->count; i++) {
        const struct schema_enum_value *v = &s->enum_values[e->first + i];
        if (strlen(v->name) == len && memcmp(v->name, name, len) == 0) {
            *value = v->value;
            return true;
        }
    }
    return false;
}

bool schema_eval(const bitsift_schema *s, const struct schema_op *op, const int64_t *slots)
{
    switch ((enum cond_shape)op->cond_shape) {
    case COND_NONZERO:
        return slots[op->cond_slot] != 0;
    case COND_ZERO:
        return slots[op->cond_slot] == 0;
    case COND_EQ:
        return slots[op->cond_slot] == op->cond_value;
    case COND_NE:
        return slots[op->cond_slot] != op->cond_value;
    case COND_EXPR:
        break;
    }
    const struct expr_item *x = &s->expr[op->expr_first];
    /* The common shapes first: "field", "!field", "field OP constant". */
    if (op->expr_count == 1 && x[0].code == EXPR_SLOT)
        return slots[x[0].value] != 0;
    if (op->expr_count == 2 && x[0].code == EXPR_SLOT && x[1].code == EXPR_NOT)
        return slots[x[0].value] == 0;
    if (op->expr_count == 3 && x[0].code == EXPR_SLOT && x[1].code == EXPR_CONST) {
        int64_t a = slots[x[0].value], b = x[1].value;
        switch (x[2].code) {
        case EXPR_EQ:
            return a == b;
        case EXPR_NE:
            return a != b;
        default:
            break;
        }
    }
    int64_t stack[SCHEMA_MAX_EXPR];
    unsigned sp = 0;
    for (uint32_t i = 0; i < op->expr_count; i++) {
        const struct expr_item *e = &s->expr[op->expr_first + i];
        int64_t a, b;
        switch (e->code) {
        case EXPR_CONST:
            stack[sp++] = e->value;
            continue;
        case EXPR_SLOT:
            stack[sp++] = slots[e->value];
            continue;
        case EXPR_NOT:
            stack[sp - 1] = !stack[sp - 1];
            continue;
        default:
            break;
        }
        b = stack[--sp];
        a = stack[sp - 1];
        int64_t r = 0;
        switch (e->code) {
        case EXPR_EQ: r = a == b; break;
        case EXPR_NE: r = a != b; break;
        case EXPR_LT: r = a < b; break;
        case EXPR_LE: r = a <= b; break;
        case EXPR_GT: r = a > b; break;
        case EXPR_GE: r = a >= b; break;
        case EXPR_AND: r = a && b; break;
        case EXPR_OR: r = a || b; break;
        default: break;
        }
        stack[sp - 1] = r;
    }
    return sp && stack[sp - 1] != 0;
}

bool schema_allowed(const bitsift_schema *s, const struct schema_op *op, int64_t v)
{
    if (!op->allowed_count)
        return true;
    for (uint32_t i = 0; i < op->allowed_count; i++)
        if (s->allowed[op->allowed_first + i] == v)
            return true;
    return false;
}

/* smallest three: a component of a unit quaternion that is not the
 * largest lies in [-1/sqrt(2), 1/sqrt(2)]; it is sent as an integer of
 * `bits` bits spread evenly over that range. */
#define S3_LIMIT 0.707107f

float schema_s3_dequantize(uint32_t bits, uint32_t raw)
{
    float steps = (float)((1u << bits) - 1);
    return (float)raw / steps * (2.0f * S3_LIMIT) - S3_LIMIT;
}

uint32_t schema_s3_quantize(uint32_t bits, float v)
{
    uint32_t top = (1u << bits) - 1;
    float t = (v + S3_LIMIT) / (2.0f * S3_LIMIT);
    if (!(t >= 0.0f))
        t = 0.0f;
    if (t > 1.0f)
        t = 1.0f;
    uint32_t q = (uint32_t)floorf(t * (float)top + 0.5f);
    return q > top ? top : q;
}

bitsift_value_kind schema_value_kind(const struct schema_op *op)
{
    switch ((enum op_code)op->code) {
    case OP_BOOL:
        return BITSIFT_VALUE_BOOL;
    case OP_BITS:
    case OP_SEQ_REL:
    case OP_ACK_REL:
    case OP_CHECK:
        return BITSIFT_VALUE_UINT;
    case OP_INT:
    case OP_INT_REL:
    case OP_OBJ_INDEX:
        return BITSIFT_VALUE_INT;
    case OP_FLOAT:
    case OP_CFLOAT:
        return BITSIFT_VALUE_FLOAT;
    case OP_DOUBLE:
        return BITSIFT_VALUE_DOUBLE;
    case OP_BYTES:
        return BITSIFT_VALUE_BYTES;
    case OP_STRING:
        return BITSIFT_VALUE_STRING;
    case OP_ENUM:
        return BITSIFT_VALUE_ENUM;
    default:
        return BITSIFT_VALUE_NONE;
    }
}

bitsift_value schema_default(const struct schema_op *op)
{
    if (op->has_default)
        return op->def;
    bitsift_value v;
    memset(&v, 0, sizeof v);
    v.kind = schema_value_kind(op);
    return v;
}

int64_t schema_value_int(const bitsift_value *v)
{
    switch (v->kind) {
    case BITSIFT_VALUE_BOOL:
        return v->b;
    case BITSIFT_VALUE_UINT:
        return (int64_t)v->u;
    case BITSIFT_VALUE_INT:
    case BITSIFT_VALUE_ENUM:
        return v->i;
    default:
        return 0;
    }
}

