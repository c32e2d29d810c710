/* Bump allocator owning every allocation of a parsed PTX module. */
#ifndef PTX_ARENA_H
#define PTX_ARENA_H

#include <stddef.h>

struct ptx_arena_chunk;
struct ptx_arena {
    struct ptx_arena_chunk *head;
    char *cur;
    size_t left;
};

/* Creates an empty arena, or NULL when out of memory. */
struct ptx_arena *ptx_arena_new(void);
/* Zeroed block of n bytes aligned to 16, or NULL when out of memory. */
void *ptx_arena_alloc(struct ptx_arena *a, size_t n);
/* Copy of the n bytes at s plus a NUL, or NULL when out of memory. */
char *ptx_arena_strdup(struct ptx_arena *a, const char *s, size_t n);
/* Frees the arena and every block it handed out; NULL is ignored. */
void ptx_arena_free(struct ptx_arena *a);

#endif
