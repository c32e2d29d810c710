/* Bump allocator: chunks of at least 64 KiB, blocks never freed singly. */
#include "ptx/ptx_arena.h"

#include <stdlib.h>
#include <string.h>

struct ptx_arena_chunk {
    struct ptx_arena_chunk *next;
    size_t size;
    /* data follows, 16-aligned */
};

#define CHUNK_HDR ((sizeof(struct ptx_arena_chunk) + 15u) & ~(size_t)15u)
#define CHUNK_MIN ((size_t)64 * 1024)

struct ptx_arena *ptx_arena_new(void)
{
    return calloc(1, sizeof(struct ptx_arena));
}

void *ptx_arena_alloc(struct ptx_arena *a, size_t n)
{
    size_t need = (n + 15u) & ~(size_t)15u;
    if (need < n)
        return NULL;
    if (need > a->left) {
        size_t sz = need > CHUNK_MIN ? need : CHUNK_MIN;
        if (sz > (size_t)-1 - CHUNK_HDR)
            return NULL;
        struct ptx_arena_chunk *c = malloc(CHUNK_HDR + sz);
        if (!c)
            return NULL;
        c->size = sz;
        c->next = a->head;
        a->head = c;
        a->cur = (char *)c + CHUNK_HDR;
        a->left = sz;
    }
    void *p = a->cur;
    a->cur += need;
    a->left -= need;
    memset(p, 0, n);
    return p;
}

char *ptx_arena_strdup(struct ptx_arena *a, const char *s, size_t n)
{
    char *d = ptx_arena_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void ptx_arena_free(struct ptx_arena *a)
{
    if (!a)
        return;
    struct ptx_arena_chunk *c = a->head;
    while (c) {
        struct ptx_arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    free(a);
}
