/* PCA token assignment (core_pca.h). Ranking by dispatch age at each
 * request gives exactly the dissertation's policy: tokens go to the N
 * oldest warps; a holder keeps its token until it finishes (no older warp
 * can appear after it), and a finished warp's token passes to the oldest
 * warp without one. Only the timing of L1D allocation depends on it. */
#include "core/core.h"
#include "core/core_pca.h"

uint8_t core_pca_token(const struct core_sm *sm, unsigned slot)
{
    uint64_t n = (uint64_t)sm->c->pca_tokens;
    if (n == 0)
        return 0;
    uint64_t age = sm->w[slot].age, older = 0;
    for (unsigned i = 0; i < sm->nslots; i++)
        if (sm->w[i].cta >= 0 && sm->w[i].age < age && ++older >= n)
            return 0;
    return 1;
}
