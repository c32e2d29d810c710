/* The device allocation table (struct exec_dmem of exec_mem.h, sorted by
 * base): which allocation holds an address range. Inline: every global
 * access that misses its warp's last allocation asks it. */
#ifndef EXEC_DMEM_H
#define EXEC_DMEM_H

#include <stdint.h>
#include "exec/exec_mem.h"

/* The allocation with the highest base <= addr (it may end before addr),
 * or NULL. */
static inline const struct exec_alloc *exec_dmem_below(const struct exec_dmem *d,
                                                       uint64_t addr)
{
    uint32_t lo = 0, hi = d->n;
    while (lo < hi) {               /* first allocation with base > addr */
        uint32_t mid = (lo + hi) / 2;
        if (d->a[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &d->a[lo - 1] : NULL;
}

/* Allocation holding [addr, addr+n), or NULL. */
static inline const struct exec_alloc *exec_dmem_find(const struct exec_dmem *d,
                                                      uint64_t addr, uint64_t n)
{
    const struct exec_alloc *a = exec_dmem_below(d, addr);
    if (!a || addr - a->base >= a->size || n > a->size - (addr - a->base))
        return NULL;
    return a;
}

#endif
