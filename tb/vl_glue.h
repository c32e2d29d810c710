/* Generic Verilator glue API (tb/vl_glue.cpp, compiled per block with
 * -DBLK=<blk>): the C driver talks to the Verilated top through these
 * extern "C" functions using the same in/out structs as the C model.
 * BLK_FN(x) pastes the block prefix: BLK_FN(_vl_new) = capt_vl_new. */
#ifndef TB_VL_GLUE_H
#define TB_VL_GLUE_H

#include "lockstep.h"

#define BLK_CAT_(a, b) a##b
#define BLK_CAT(a, b) BLK_CAT_(a, b)
#define BLK_FN(x) BLK_CAT(BLK, x)

#ifdef __cplusplus
extern "C" {
#endif

/* Builds the Verilated top. ports/nports: the port table with actual sizes
 * (kept by reference). plusargs: "+verilator+seed+N" etc. fst_ever: enable
 * tracing infrastructure (needed before a later BLK_vl_trace). */
void *BLK_FN(_vl_new)(const struct ls_port *ports, int nports,
                      int nplus, const char **plusargs, int fst_ever);
/* rst_ni low for one clock edge, inputs 0. */
void BLK_FN(_vl_reset)(void *h);
/* One rising edge with `in` applied; `out` = outputs after the edge. */
void BLK_FN(_vl_step)(void *h, const void *in, void *out);
/* Opens an FST file (path) or closes the open one (NULL). */
void BLK_FN(_vl_trace)(void *h, const char *path);
/* Writes coverage data (if built with coverage) to path. */
void BLK_FN(_vl_coverage)(void *h, const char *path);
/* Final + frees. */
void BLK_FN(_vl_free)(void *h);

#ifdef __cplusplus
}
#endif
#endif
