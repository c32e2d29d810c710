/* Shared driver for the memory-hierarchy unit tests (test_mem_l1.c,
 * test_mem_dram.c): builds a mem_sys from a config and plays a synthetic
 * request stream through it like the GPU top loop would. Header-only (static
 * functions) because each tests/unit/test_*.c is its own binary. */
#ifndef TEST_MEM_DRV_H
#define TEST_MEM_DRV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg/cfg.h"
#include "mem/mem.h"
#include "ptx/ptx_ir.h"

static inline struct mem_sys *drv_make(const struct cfg *c, unsigned nsms)
{
    char err[256] = "";
    struct mem_sys *m = mem_sys_create(c, nsms, err, sizeof err);
    if (!m)
        fprintf(stderr, "mem_sys_create: %s\n", err);
    return m;
}

static inline struct core_mem_req drv_req(unsigned sm, uint64_t line, uint8_t mask, int is_write)
{
    struct core_mem_req r;
    memset(&r, 0, sizeof r);
    r.line_addr = line;
    r.sm = (uint16_t)sm;
    r.sector_mask = mask;
    r.is_write = (uint8_t)is_write;
    r.space = PTX_SP_GLOBAL;
    r.bytes = 32;
    return r;
}

/* Offers rs[0..n) in order from cycle *now (a refused request is retried
 * the next cycle and holds back the later ones), then runs until every
 * response is back and the hierarchy is idle. Returns the number of
 * responses (n unless something is lost); *now is the final cycle. */
static inline size_t drv_run(struct mem_sys *m, struct core_mem_req *rs, size_t n, unsigned nsms, uint64_t *now)
{
    size_t next = 0, got = 0;
    uint64_t t = *now, guard = 0;
    for (;;) {
        mem_cycle(m, t);
        struct core_mem_resp resp;
        for (unsigned s = 0; s < nsms; s++)
            while (mem_pop_resp(m, s, t, &resp))
                got++;
        while (next < n) {
            rs[next].tag = (uint32_t)next;
            if (!mem_access(m, &rs[next], t))
                break;
            next++;
        }
        if (next == n && got >= n && mem_idle(m))
            break;
        uint64_t nx = mem_next_event(m, t);
        t = next < n ? t + 1 : nx;
        if (t == UINT64_MAX || ++guard > 50000000u)
            break;
    }
    *now = t;
    return got;
}

#endif
