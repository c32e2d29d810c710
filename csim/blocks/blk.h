/* The RTL blocks as one list (include/lockstep_blocks.def): names and the
 * block lists of --cosim and LOCKSTEP_COSIM. */
#ifndef BLK_H
#define BLK_H

#include <stddef.h>
#include "lockstep.h"

/* Name of block b ("slp"), or "?" out of range. */
const char *blk_name(int b);

/* How blk_select chose a block. */
enum { BLK_NOT = 0, BLK_NAMED = 1, BLK_BY_ALL = 2 };

/* Parses a comma-separated block list: block names, group names (rvc: both
 * RVC kinds), all, none. sel[b] becomes BLK_NAMED for a block named or in a
 * named group, else BLK_BY_ALL when `all` is listed, else BLK_NOT. Returns
 * 0, or -1 with "unknown block 'x' (the choices)" or "bad block list" in
 * err. */
int blk_select(const char *list, int sel[LS_BLK_COUNT], char *err, size_t errlen);

#endif
