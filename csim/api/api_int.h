/* The library's internal API: what the command line (csim/cli) and the
 * CUDA runtime (csim/cudart) need beyond include/lockstep.h. They reach the
 * model through lockstep.h and this header only (tools/layers.txt). */
#ifndef API_INT_H
#define API_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lockstep.h"

/* Parses a block list of --cosim or LOCKSTEP_COSIM (block and group names,
 * all, none; include/lockstep_blocks.def) into sel[b] = 1 for each block to
 * put in lockstep; `all` selects the blocks in the GPU loop. Returns 0, or
 * -1 with why in err (an unknown name, a named block the GPU does not
 * clock). */
int api_cosim_select(const char *list, int sel[LS_BLK_COUNT], char *err, size_t errlen);

#endif
