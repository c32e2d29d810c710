/* The RTL block list: see blk.h; the rows are include/lockstep_blocks.def. */
#include <stdio.h>
#include <string.h>
#include "blocks/blk.h"

static const char *const blk_names[LS_BLK_COUNT] = {
#define LS_BLOCK(id, name, group, title, when) [LS_BLK_##id] = #name,
#include "lockstep_blocks.def"
#undef LS_BLOCK
};

static const char *const blk_groups[LS_BLK_COUNT] = {
#define LS_BLOCK(id, name, group, title, when) [LS_BLK_##id] = #group,
#include "lockstep_blocks.def"
#undef LS_BLOCK
};

const char *blk_name(int b)
{
    return b >= 0 && b < LS_BLK_COUNT ? blk_names[b] : "?";
}

/* "capt, wcu, ..., rvc, all, none": every name of a block list. */
static void blk_choices(char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (int b = 0; b < 2 * LS_BLK_COUNT; b++) {
        const char *nm = b < LS_BLK_COUNT ? blk_names[b] : blk_groups[b - LS_BLK_COUNT];
        int seen = 0;               /* a group named like a block, or twice */
        for (int k = 0; k < b && !seen; k++)
            seen = !strcmp(nm, k < LS_BLK_COUNT ? blk_names[k] : blk_groups[k - LS_BLK_COUNT]);
        if (!seen && o < n)
            o += (size_t)snprintf(buf + o, n - o, "%s, ", nm);
    }
    if (o < n)
        snprintf(buf + o, n - o, "all, none");
}

int blk_select(const char *list, int sel[LS_BLK_COUNT], char *err, size_t errlen)
{
    int all = 0;
    memset(sel, 0, LS_BLK_COUNT * sizeof *sel);
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, ",");
        char name[32];
        if (!len || len >= sizeof name) {
            snprintf(err, errlen, "bad block list '%s' (blocks separated by commas, "
                     "or all, or none)", list);
            return -1;
        }
        memcpy(name, p, len);
        name[len] = 0;
        int hit = !strcmp(name, "none");
        if (!strcmp(name, "all"))
            all = hit = 1;
        for (int b = 0; b < LS_BLK_COUNT; b++)
            if (!strcmp(name, blk_names[b]) || !strcmp(name, blk_groups[b]))
                sel[b] = hit = BLK_NAMED;
        if (!hit) {
            char ch[256];
            blk_choices(ch, sizeof ch);
            snprintf(err, errlen, "unknown block '%s' (%s)", name, ch);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    for (int b = 0; all && b < LS_BLK_COUNT; b++)
        if (!sel[b])
            sel[b] = BLK_BY_ALL;
    return 0;
}
