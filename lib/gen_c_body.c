/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen_c_body.c -- what every function `bitsift gen c` writes refers to in
 * its struct: the member path of each op ("pos", "sub.x"), the value a
 * slot keeps (counts, relative bases) and an if's condition; and the one
 * opening, serialize or visit, that sets them up for a type.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_c_internal.h"

/* Member paths of the ops a body can refer to (not inside arrays). */
static void assign_members(struct cgen *g, uint32_t first, uint32_t end, const char *prefix)
{
    const struct schema_op *ops = g->s->ops;
    for (uint32_t i = first; i < end; i++) {
        const struct schema_op *op = &ops[i];
        if (op->slot >= 0 && (uint32_t)op->slot < SCHEMA_MAX_SLOTS)
            g->slot_op[op->slot] = (int32_t)i;
        if (op->code == OP_IF)
            continue;
        size_t n = strlen(prefix) + 80 + (g->cname[i] ? strlen(g->cname[i]) : 0);
        char *m = malloc(n);
        if (m) {
            memcpy(m, prefix, strlen(prefix));
            if (g->cname[i])
                strcpy(m + strlen(prefix), g->cname[i]);
            else
                gen_c_name(m + strlen(prefix), 80, op->name);
        }
        free(g->member[i]);
        g->member[i] = m;
        if (op->code == OP_STRUCT && !is_composite(op) && m) {
            char *p = malloc(strlen(m) + 2);
            if (p) {
                sprintf(p, "%s.", m);
                assign_members(g, i + 1, op->end, p);
                free(p);
            }
            i = op->end - 1;
        } else if (op->code == OP_ARRAY || op->code == OP_STRUCT) {
            i = op->end - 1;
        }
    }
}

/* The opening every generated function of type `t` shares, serialize or
 * visit: the member paths of its body (the previous type's forgotten)
 * and no loop variable in use yet. */
void gen_c_begin_function(struct cgen *g, const struct c_type *t)
{
    for (uint32_t i = 0; i < g->s->op_count; i++) {
        free(g->member[i]);
        g->member[i] = NULL;
    }
    for (uint32_t i = 0; i < SCHEMA_MAX_SLOTS; i++)
        g->slot_op[i] = -1;
    assign_members(g, t->first, t->end, "");
    g->loop = 0;
}

/* The value an op keeps, as an int64_t C expression. */
bool gen_c_slot_expr(struct cgen *g, int64_t slot, FILE *out)
{
    if (slot < 0 || slot >= SCHEMA_MAX_SLOTS || g->slot_op[slot] < 0 ||
        !g->member[g->slot_op[slot]])
        return refuse(g, BITSIFT_E_SCHEMA, "a reference the C generator cannot follow");
    fprintf(out, "((int64_t)v->%s)", g->member[g->slot_op[slot]]);
    return true;
}

/* An if's condition from its postfix expression. */
bool gen_c_condition(struct cgen *g, const struct schema_op *op)
{
    const bitsift_schema *s = g->s;
    char *stack[SCHEMA_MAX_EXPR];
    size_t sizes[SCHEMA_MAX_EXPR];
    unsigned n = 0;
    bool ok = true;
    for (uint32_t k = 0; k < op->expr_count && ok; k++) {
        const struct expr_item *x = &s->expr[op->expr_first + k];
        char *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);
        if (!f) {
            ok = refuse(g, BITSIFT_E_NOMEM, "out of memory");
            break;
        }
        static const char *const ops2[] = {[EXPR_EQ] = "==", [EXPR_NE] = "!=", [EXPR_LT] = "<",
                                           [EXPR_LE] = "<=", [EXPR_GT] = ">", [EXPR_GE] = ">=",
                                           [EXPR_AND] = "&&", [EXPR_OR] = "||"};
        switch (x->code) {
        case EXPR_CONST:
            gen_c_int(f, x->value);
            break;
        case EXPR_SLOT:
            ok = gen_c_slot_expr(g, x->value, f);
            break;
        case EXPR_NOT:
            if (n < 1) {
                ok = false;
                break;
            }
            fprintf(f, "(int64_t)!(%s)", stack[n - 1]);
            free(stack[--n]);
            break;
        default:
            if (n < 2) {
                ok = false;
                break;
            }
            fprintf(f, "(int64_t)(%s %s %s)", stack[n - 2], ops2[x->code], stack[n - 1]);
            free(stack[--n]);
            free(stack[--n]);
            break;
        }
        fclose(f);
        if (!ok || n == SCHEMA_MAX_EXPR) {
            free(text);
            ok = false;
            break;
        }
        stack[n] = text;
        sizes[n++] = size;
    }
    if (ok && n == 1)
        fprintf(g->out, "%s", stack[0]);
    else
        ok = refuse(g, BITSIFT_E_SCHEMA, "field '%s': a condition the C generator cannot write",
                    op->name ? op->name : "if");
    while (n)
        free(stack[--n]);
    (void)sizes;
    return ok;
}
