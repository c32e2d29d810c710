/* MTA, the many-thread-aware hardware prefetcher (Lee, Lakshminarayana,
 * Kim, Vuduc, MICRO 2010; docs/dac.md "Comparison points"), one per L1D
 * (prefetch = mta). The tables: training on the load instructions an SM
 * sends, stride promotion, inter-thread (inter-warp) strides, the prefetch
 * candidates and the adaptive throttle; and the prefetch cache the
 * prefetched lines go to (mta.cache_kb; 0: into the L1D). mem_sys.c
 * issues the candidates and reports their fate back (useful, late,
 * evicted unused). Timing only: it sees line addresses, never data. */
#ifndef MEM_MTA_H
#define MEM_MTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep.h"
#include "cfg/cfg.h"

/* Which table predicted a candidate (ls_mta_stats.issued_by). */
enum mem_mta_src { MEM_MTA_GS, MEM_MTA_PWS, MEM_MTA_IP, MEM_MTA_NSRC };

/* Per-warp stride entry: one (pc, warp) pair. */
struct mem_mta_pws {
    uint64_t last;            /* line address of the warp's last access      */
    int64_t stride;           /* last observed difference (bytes)            */
    uint64_t lru;
    uint32_t pc;
    uint16_t warp;
    uint8_t valid, conf;      /* conf: times the stride repeated (saturates) */
};

/* Global stride entry (stride promotion): a stride several warps agree on
 * for one pc; a warp of that pc then prefetches without its own training. */
struct mem_mta_gs {
    int64_t stride;
    uint64_t lru;
    uint32_t pc;
    uint8_t valid;
};

/* Inter-thread entry: per pc, the address difference between the accesses
 * of two warps divided by the difference of their warp ids. */
struct mem_mta_ip {
    uint64_t last;
    int64_t stride;           /* bytes per warp id                           */
    uint64_t lru;
    uint32_t pc;
    uint16_t warp;
    uint8_t valid, conf;
};

/* One prefetch candidate: a line address and the table that predicted it. */
struct mem_mta_cand {
    uint64_t line;
    uint8_t src;              /* enum mem_mta_src                            */
};

/* One line of the prefetch cache. */
struct mem_mta_pfl {
    uint64_t addr;            /* line address                                */
    uint64_t lru;
    int32_t msi;              /* the L1D MSHR fetching it; -1: arrived       */
    uint8_t valid, used;      /* used: a demand load referenced it           */
};

struct mem_mta {
    struct mem_mta_pws *pws; unsigned npws;
    struct mem_mta_gs *gs; unsigned ngs;
    struct mem_mta_ip *ip; unsigned nip;
    uint64_t clock;           /* LRU stamps                                  */
    unsigned line;            /* L1D line bytes                              */
    unsigned train, promote;  /* confidence to predict; warps to promote     */
    unsigned distance, ip_distance, max_lines;
    unsigned degree, max_degree; /* current (throttled) and configured degree */
    bool throttle;
    unsigned evict_hi, evict_lo, merge_hi, min_sample; /* percent; prefetches */
    uint64_t period, next_period;  /* core cycles                             */
    uint64_t p_issued, p_unused, p_late;  /* this throttle period              */
    struct mem_mta_pfl *pfc;  /* the prefetch cache: sets x ways lines       */
    unsigned pfc_sets, pfc_ways;
    ls_mta_stats st;
};

/* Sets up t from the mta_* keys of c for an L1D of line bytes. Returns 0,
 * or -1 with "message [file:line]" in err (allocation failure). */
int mem_mta_init(struct mem_mta *t, const struct cfg *c, unsigned line, char *err, size_t errlen);
/* Frees t's tables (t zeroed; a zeroed t is fine). */
void mem_mta_free(struct mem_mta *t);
/* Trains t on a load instruction of warp at pc whose first line is
 * line_addr and which touches nlines lines, at core cycle now (a throttle
 * period may end first; periods without training count as one). Writes up to cap candidates (distinct lines, not
 * among the instruction's own) into out and returns how many: from the
 * promoted stride of pc, else the warp's trained stride, else the trained
 * inter-warp stride; none while the throttle holds the degree at 0. */
unsigned mem_mta_train(struct mem_mta *t, uint32_t pc, uint16_t warp, uint64_t line_addr,
                       unsigned nlines, uint64_t now, struct mem_mta_cand *out, unsigned cap);
/* A candidate of source src was sent below (issued). */
void mem_mta_issued(struct mem_mta *t, unsigned src);
/* A demand load referenced a prefetched line; late: the prefetch was still
 * in flight (the load merged into its MSHR). */
void mem_mta_useful(struct mem_mta *t, bool late);
/* n prefetched lines left the L1D never referenced (eviction, kernel end). */
void mem_mta_unused(struct mem_mta *t, uint64_t n);
/* Ends a throttle period: adjusts the degree from the period's early
 * eviction rate (unused / issued) and merge ratio (late / issued). */
void mem_mta_throttle(struct mem_mta *t);

/* The prefetch cache (mta.cache_kb > 0; t->pfc_ways != 0): the line of
 * line_addr, or NULL. */
struct mem_mta_pfl *mem_mta_pfc_find(struct mem_mta *t, uint64_t line_addr);
/* A line for a prefetch of line_addr fetched by L1D MSHR msi: the LRU line
 * of its set that is not in flight (an unreferenced one counts unused), or
 * NULL when every way is in flight (the prefetch is dropped). */
struct mem_mta_pfl *mem_mta_pfc_alloc(struct mem_mta *t, uint64_t line_addr, int32_t msi);
/* A demand load referenced line l (useful; late while it is in flight). */
void mem_mta_pfc_use(struct mem_mta *t, struct mem_mta_pfl *l);
/* The fetch of L1D MSHR msi arrived: its prefetch-cache line is ready. */
void mem_mta_pfc_arrived(struct mem_mta *t, int32_t msi);
/* Kernel end: every line leaves; unreferenced ones count unused. */
void mem_mta_pfc_flush(struct mem_mta *t);

#endif
