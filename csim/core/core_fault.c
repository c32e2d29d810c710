/* Test builds only (docs/golden.md): a broken timing path, as a mechanism
 * of the SM (core_mech.h) that production builds never turn on. Built
 * with -DLS_FAULT_STALE_STORE, a global store reads lane 5 of its data
 * register as if before the producer's write-back (the value with bit 0
 * flipped); the commit-log comparison must find it at the store's pc,
 * lane 5 (make test-commitlog). */
#include "core/core.h"
#include "core/core_mech.h"

#ifdef LS_FAULT_STALE_STORE
#define FAULT_ON true
#else
#define FAULT_ON false
#endif

static bool fault_on(const struct cfg *c)
{
    (void)c;
    return FAULT_ON;
}

static int fault_init(void **self, struct core_view *v, const struct core_mech_env *e,
                      char *err, size_t n)
{
    (void)v;
    (void)e;
    (void)err;
    (void)n;
    *self = NULL;
    return 0;
}

static int fault_before(void *self, struct core_view *v, struct core_issue *is)
{
    (void)self;
    struct simt_warp *w = &v->w[is->slot].sw;
    if (!w->sp)
        return 0;
    const struct simt_entry *t = &w->stack[w->sp - 1];
    const struct ptx_func *f = w->frames[t->frame].func;
    const struct ptx_inst *in = (uint32_t)t->npc < f->ninsts ? &f->insts[t->npc] : NULL;
    if (in && in->op == PTX_OP_ST && in->space == PTX_SP_GLOBAL &&
        in->o[1].kind == PTX_O_REG && (t->mask >> 5 & 1))
        w->ew.regs[(size_t)in->o[1].reg * EXEC_WARP + 5] ^= 1;
    return 0;
}

const struct core_mech_ops core_fault_mech = {
    .name = "fault",
    .kind = CORE_MECH_AUGMENT,
    .on = fault_on,
    .init = fault_init,
    .before = fault_before,
};
