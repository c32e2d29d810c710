/* PCA token assignment (docs/pca.md, dissertation 6.2.2): the SM hands its
 * pca.tokens tokens to its oldest resident warps; a warp keeps its token
 * until it finishes, when the next oldest warp without one gets it. */
#ifndef CORE_PCA_H
#define CORE_PCA_H

#include <stdint.h>

struct core_sm;

/* 1 when the warp in slot holds a token: fewer than pca.tokens resident
 * warps of sm are older (dispatched earlier); 0 when PCA is off. */
uint8_t core_pca_token(const struct core_sm *sm, unsigned slot);

#endif
