/* PCA token assignment (docs/pca.md, dissertation 6.2.2): the SM hands its
 * pca.tokens tokens to its oldest resident warps; a load of a warp with a
 * token may allocate an L1D line over a line of a warp without one. Ranking
 * by dispatch age at each request gives exactly the dissertation's policy:
 * tokens go to the N oldest warps; a holder keeps its token until it
 * finishes (no older warp can appear after it), and a finished warp's
 * token passes to the oldest warp without one. Only the timing of L1D
 * allocation depends on it. A mechanism of the SM (core_mech.h) that
 * offers the request priority service (core_view_prio). */
#include <stdlib.h>
#include "core/core.h"
#include "core/core_mech.h"

struct core_pca {
    uint64_t tokens;
};

/* 1 when the warp in slot holds a token: fewer than pca.tokens resident
 * warps of the SM are older than it. */
static uint8_t pca_token(const void *self, const struct core_view *v, unsigned slot)
{
    const struct core_pca *p = self;
    uint64_t age = v->w[slot].age, older = 0;
    for (unsigned i = 0; i < v->nslots; i++)
        if (v->w[i].cta >= 0 && v->w[i].age < age && ++older >= p->tokens)
            return 0;
    return 1;
}

static bool pca_on(const struct cfg *c)
{
    return c->pca_tokens != 0;
}

static int pca_init(void **self, struct core_view *v, const struct core_mech_env *e,
                    char *err, size_t n)
{
    (void)err;
    (void)n;
    struct core_pca *p = malloc(sizeof *p);
    if (!p)
        return -1;
    p->tokens = (uint64_t)e->c->pca_tokens;
    *self = p;
    v->prio = pca_token;
    v->prio_self = p;
    return 0;
}

const struct core_mech_ops core_pca_mech = {
    .name = "pca",
    .kind = CORE_MECH_AUGMENT,
    .on = pca_on,
    .init = pca_init,
    .free = free,
};
