/* The RTL blocks in the public and internal API: names, which the GPU
 * clocks, block lists, trace replay (csim/cosim). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api/api_int.h"
#include "blocks/blk.h"
#include "cosim/cosim.h"

const char *ls_block_name(int b)
{
    return blk_name(b);
}

int ls_block_in_loop(int b)
{
    return cosim_desc_by_id(b) != NULL;
}

int api_cosim_select(const char *list, int sel[LS_BLK_COUNT], char *err, size_t errlen)
{
    if (blk_select(list, sel, err, errlen))
        return -1;
    char loop[128] = "";
    size_t o = 0;
    for (int b = 0; b < LS_BLK_COUNT; b++)
        if (ls_block_in_loop(b) && o < sizeof loop)
            o += (size_t)snprintf(loop + o, sizeof loop - o, "%s%s", o ? ", " : "",
                                  blk_name(b));
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        if (sel[b] == BLK_NAMED && !ls_block_in_loop(b)) {
            snprintf(err, errlen, "the %s block is not in the GPU loop yet: no "
                     "mechanism of the model gives it traffic (in the loop: %s)",
                     blk_name(b), loop);
            return -1;
        }
        sel[b] = sel[b] != BLK_NOT && ls_block_in_loop(b);
    }
    return 0;
}

ls_status ls_cosim_replay(const char *trace, const char *fst, FILE *out,
                          char *err, size_t errlen)
{
    const struct cosim_cfg lc = { NULL, NULL, NULL };
    int be[LS_BLK_COUNT] = { 0 };
    struct cosim_env *env = calloc(1, sizeof *env);
    if (!env) {
        if (err && errlen)
            snprintf(err, errlen, "host memory exhausted [%s:%d]", __FILE__, __LINE__);
        return LS_ERR_NOMEM;
    }
    if (!trace || !out) {
        free(env);
        if (err && errlen)
            snprintf(err, errlen, "ls_cosim_replay: trace and out are required [%s:%d]",
                     __FILE__, __LINE__);
        return LS_ERR_INVALID;
    }
    ls_status st;
    if (cosim_env_init(env, &lc, be, 0, err, errlen) != 0) {
        st = LS_ERR_INVALID;
    } else {
        int r = cosim_replay(env, trace, fst, out, err, errlen);
        st = r == 0 ? LS_OK : r == 1 ? LS_ERR_COSIM : LS_ERR_IO;
    }
    cosim_env_fini(env);
    free(env);
    return st;
}
