/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json_budget.c -- jansson's memory, within a budget per record.
 *
 * jansson builds a tree of values that costs many times the text: the
 * records decode prints take 7 to 14 times their size, an array of small
 * numbers about 25 times ("0," becomes a 24-byte json_t, its malloc
 * overhead and a slot in the array). A record may make jansson hold
 * JSON_BUDGET_BASE + JSON_BUDGET_FACTOR times its size; past that the
 * allocation fails, the parse stops and the record is refused. The base
 * covers any record decode prints for a UDP datagram (at most ~3 MB of
 * JSON); what does not fit is a record built to exhaust memory.
 *
 * jansson takes its allocator process-wide (json_set_alloc_funcs, with no
 * context argument), so the count is the one piece of state the library
 * keeps outside a reader.
 */
#include <stdint.h>
#include <stdlib.h>

#include "records_internal.h"

#define JSON_BUDGET_BASE   (16u << 20)
#define JSON_BUDGET_FACTOR 8

/* Each block carries its size in front, for the count when it is freed. */
union json_block {
    size_t size;
    max_align_t align; /* what jansson stores after it stays aligned */
};

static struct {
    size_t in_use, limit;
    int exceeded;
} json_budget = {0, SIZE_MAX, 0};

static void *json_budget_malloc(size_t size)
{
    if (size > json_budget.limit - json_budget.in_use ||
        json_budget.limit - json_budget.in_use - size < sizeof(union json_block)) {
        json_budget.exceeded = 1;
        return NULL;
    }
    union json_block *b = malloc(sizeof *b + size);
    if (!b)
        return NULL;
    b->size = sizeof *b + size;
    json_budget.in_use += b->size;
    return b + 1;
}

static void json_budget_free(void *p)
{
    if (!p)
        return;
    union json_block *b = (union json_block *)p - 1;
    json_budget.in_use -= b->size;
    free(b);
}

void record_budget_install(void)
{
    json_set_alloc_funcs(json_budget_malloc, json_budget_free);
}

void record_budget_start(size_t size)
{
    size_t allowed = size > (SIZE_MAX - JSON_BUDGET_BASE) / JSON_BUDGET_FACTOR
                         ? SIZE_MAX
                         : JSON_BUDGET_BASE + JSON_BUDGET_FACTOR * size;
    json_budget.limit = allowed > SIZE_MAX - json_budget.in_use ? SIZE_MAX
                                                                : json_budget.in_use + allowed;
    json_budget.exceeded = 0;
}

int record_budget_exceeded(void)
{
    return json_budget.exceeded;
}

size_t record_budget_mib(size_t size)
{
    return ((size_t)JSON_BUDGET_BASE + JSON_BUDGET_FACTOR * size) >> 20;
}
