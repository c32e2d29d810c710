/* The SM's mechanisms (core_mech.h): created from the table, activated
 * per kernel, their hook lists, failures, end of kernel and statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "core/core_mech.h"

int core_sm_mech_init(struct core_sm *sm, const struct core_mech_env *e, char *err,
                      size_t n)
{
    for (unsigned i = 0; i < CORE_MECH_COUNT; i++) {
        const struct core_mech_ops *o = core_mech_ops_of((enum core_mech_id)i);
        struct core_mech_inst *m = &sm->mech[i];
        if (!o->on(e->c))
            continue;
        if (o->init(&m->self, &sm->v, e, err, n) != 0)
            return -1;
        m->ops = o;
    }
    sm->nmech = CORE_MECH_COUNT;
    return 0;
}

void core_sm_mech_free(struct core_sm *sm)
{
    for (unsigned i = 0; i < sm->nmech; i++) {
        struct core_mech_inst *m = &sm->mech[i];
        if (m->ops && m->ops->free)
            m->ops->free(m->self);
        memset(m, 0, sizeof *m);
    }
    sm->nmech = 0;
}

int core_sm_attach(struct core_sm *sm, const struct core_mech_ops *ops, void *self)
{
    if (sm->nmech < CORE_MECH_COUNT)
        sm->nmech = CORE_MECH_COUNT;
    if (sm->nmech == CORE_MECH_MAX)
        return -1;
    sm->mech[sm->nmech++] = (struct core_mech_inst){ ops, self, false };
    return 0;
}

void *core_sm_mech(const struct core_sm *sm, enum core_mech_id id)
{
    return (unsigned)id < CORE_MECH_COUNT && sm->mech[id].ops ? sm->mech[id].self : NULL;
}

/* Appends m to hook list h when its ops have hook h. */
#define HOOK(h)                                                                     \
    do {                                                                            \
        if (o->h)                                                                   \
            hk->h[hk->n##h++] = m;                                                  \
    } while (0)

int core_sm_mech_kernel(struct core_sm *sm, uint64_t now)
{
    struct core_hooks *hk = &sm->hk;
    memset(hk, 0, sizeof *hk);
    sm->step = NULL;
    for (unsigned i = 0; i < sm->nmech; i++) {
        struct core_mech_inst *m = &sm->mech[i];
        const struct core_mech_ops *o = m->ops;
        m->active = false;
        if (!o)
            continue;
        int r = o->kernel ? o->kernel(m->self, &sm->v, now) : 1;
        if (r < 0)
            return -1;
        m->active = r > 0;
        if (!m->active)
            continue;
        if (o->kind == CORE_MECH_STEPPER) {
            sm->step = m;       /* the rules leave at most one on */
            continue;
        }
        HOOK(gate); HOOK(asleep); HOOK(own_wait); HOOK(before); HOOK(retire);
        HOOK(next_inst); HOOK(claim); HOOK(cycle); HOOK(cycle_end); HOOK(next);
        HOOK(resp); HOOK(bar_release); HOOK(warp_start); HOOK(cta_start);
        HOOK(warp_leave);
        hk->rows |= o->rows;
    }
    sm->merged = sm->step && sm->step->ops->merges;
    return 0;
}

#undef HOOK

const char *core_sm_why(const struct core_sm *sm, int e, uint32_t *line)
{
    *line = 0;
    for (unsigned i = 0; i < sm->nmech; i++) {
        const struct core_mech_inst *m = &sm->mech[i];
        const char *why = m->ops && m->ops->why ? m->ops->why(m->self, e, line) : NULL;
        if (why)
            return why;
    }
    return NULL;
}

int core_sm_finish(struct core_sm *sm, uint64_t end, const char **why, uint32_t *line)
{
    int first = 0;
    *why = NULL;
    *line = 0;
    for (unsigned i = 0; i < sm->nmech; i++) {
        const struct core_mech_inst *m = &sm->mech[i];
        int e = m->ops && m->ops->finish ? m->ops->finish(m->self, end) : 0;
        if (e && !first) {
            first = e;
            uint32_t l = 0;
            *why = m->ops->why ? m->ops->why(m->self, e, &l) : NULL;
            *line = l;
            if (!*why)
                *why = m->ops->name;
        }
    }
    return first;
}

void core_sm_mech_stats(const struct core_sm *sm, bool first, ls_stats *s)
{
    for (unsigned i = 0; i < sm->nmech; i++) {
        const struct core_mech_inst *m = &sm->mech[i];
        if (m->ops && m->ops->stats)
            m->ops->stats(m->self, first, s);
    }
}
