/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * game_net.c -- a game's send and receive code over the C that
 * `bitsift gen c -s examples/shooter.bss -o net` writes (net/shooter.h,
 * net/shooter.c): the server fills a snapshot and writes it sealed, the
 * client reads it back into the same structs. docs/gen-c.md walks through
 * it; tests/gen-c/schemas.sh builds and runs it.
 *
 *   cc -I net game_net.c net/shooter.c -lbitsift -o game_net && ./game_net
 */
#include <stdio.h>
#include <string.h>

#include "shooter.h"

static struct shooter_packet sent, received; /* large: not on the stack */

/* Server side: one tick's snapshot with one player and one door. */
static size_t server_send(uint8_t *buf, size_t capacity)
{
    memset(&sent, 0, sizeof sent);
    sent.type = shooter_TYPE_snapshot;
    struct shooter_snapshot *s = &sent.as.snapshot;
    s->baseline = 100;
    s->sequence = 101; /* sent relative to baseline */
    s->ack = 99;
    s->baseline_tick = 5000;
    s->server_tick = 5002;
    s->player_count = 1;
    struct shooter_PlayerState *p = &s->players[0];
    p->client_id = 7;
    p->team = shooter_Team_red;
    p->position[0] = 12.5f;
    p->position[1] = -3.25f;
    p->position[2] = 0.0f;
    p->orientation.q[3] = 1.0f; /* w: no rotation */
    p->stance = shooter_Stance_crouching;
    p->health = 180;
    p->weapon = shooter_Weapon_rifle;
    p->ammo = 30;
    s->entities_count = 1;
    s->entities[0].id = 4;
    s->entities[0].kind = shooter_EntityKind_door;
    s->entities[0].open = true;
    s->entities[0].progress = 0.5f;

    bitsift_writer w;
    bitsift_writer_init(&w, buf, capacity);
    size_t size = 0;
    if (!shooter_write(&w, &sent, &size)) {
        char why[256];
        bitsift_failure_format(bitsift_writer_failure(&w), why, sizeof why);
        fprintf(stderr, "cannot send: %s\n", why);
        return 0;
    }
    return size;
}

/* A log line per field of the first player, from shooter_visit: the
 * path as bitsift decode prints it, enum values with their names. */
static bool log_field(void *ctx, const struct shooter_field *f)
{
    (void)ctx;
    if (strncmp(f->path, "players[0].", 11) != 0 || (f->flags & shooter_FIELD_ABSENT))
        return true;
    switch (f->kind) {
    case shooter_KIND_ENUM:
        printf("  %s = %s\n", f->path, f->name ? f->name : "?");
        break;
    case shooter_KIND_INT:
        printf("  %s = %lld\n", f->path, (long long)f->value.i);
        break;
    case shooter_KIND_FLOAT:
        printf("  %s = %g\n", f->path, (double)f->value.f);
        break;
    case shooter_KIND_BOOL:
        printf("  %s = %s\n", f->path, f->value.b ? "true" : "false");
        break;
    default:
        break;
    }
    return true;
}

/* Client side: read what arrived; a bad packet names its field. */
static int client_receive(const uint8_t *data, size_t size)
{
    bitsift_reader r;
    bitsift_reader_init(&r, data, size);
    if (!shooter_read(&r, &received)) {
        char why[256];
        bitsift_failure_format(bitsift_reader_failure(&r), why, sizeof why);
        printf("dropped: %s\n", why);
        return 1;
    }
    if (received.type == shooter_TYPE_snapshot) {
        const struct shooter_snapshot *s = &received.as.snapshot;
        printf("snapshot %u, tick %lld: player %lld at (%g, %g), health %lld; door %lld %s\n",
               (unsigned)s->sequence, (long long)s->server_tick,
               (long long)s->players[0].client_id, (double)s->players[0].position[0],
               (double)s->players[0].position[1], (long long)s->players[0].health,
               (long long)s->entities[0].id, s->entities[0].open ? "open" : "closed");
        shooter_visit(&received, log_field, NULL);
    }
    return 0;
}

int main(void)
{
    uint8_t datagram[1200];
    size_t size = server_send(datagram, sizeof datagram);
    if (!size)
        return 1;
    printf("sent %zu bytes (%llu bits measured)\n", size,
           (unsigned long long)shooter_measure(&sent));
    if (client_receive(datagram, size) != 0)
        return 1;
    datagram[size / 2] ^= 0x10; /* damage it: the CRC refuses it */
    return client_receive(datagram, size) == 1 ? 0 : 1;
}
