/* Undefined-behaviour checks of one launch (docs/checks.md): racecheck
 * (shared-memory hazards between barriers), synccheck (warp collectives
 * with a bad member mask or source lane, divergent or mismatched CTA
 * barriers) and initcheck (loads of never-written global, shared or local
 * bytes). They observe functional execution only: the SIMT layer calls
 * exec_chk_step after every instruction of a warp whose chk pointer is
 * set, in both modes, and findings are the same whatever the warp order
 * (detection per barrier interval and byte, deduplicated by pc pair). */
#ifndef EXEC_CHECK_H
#define EXEC_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include "exec/exec.h"
#include "exec/exec_mem.h"

/* Bits of the `check` config key (choice i = bit i). */
#define EXEC_CHK_MEM  1u            /* out of bounds: always on (exec_mem)   */
#define EXEC_CHK_RACE 2u
#define EXEC_CHK_SYNC 4u
#define EXEC_CHK_INIT 8u
#define EXEC_CHK_GRACE 16u          /* globalrace: stores of different CTAs */

/* What a finding is (one row of the report). */
enum exec_chk_kind {
    EXEC_CHK_K_WAW,         /* racecheck: write-after-write                 */
    EXEC_CHK_K_RAW,         /* racecheck: read-after-write                  */
    EXEC_CHK_K_WAR,         /* racecheck: write-after-read                  */
    EXEC_CHK_K_SHFL_SRC,    /* synccheck: shfl source lane inactive/not member */
    EXEC_CHK_K_MASK_SELF,   /* synccheck: member mask misses executing lane  */
    EXEC_CHK_K_MASK_INACT,  /* synccheck: member lanes not executing the op  */
    EXEC_CHK_K_DIV_BAR,     /* synccheck: aligned barrier, part of a warp    */
    EXEC_CHK_K_BAR_PC,      /* synccheck: warps at different barriers        */
    EXEC_CHK_K_BAR_COUNT,   /* synccheck: different thread counts            */
    EXEC_CHK_K_INIT,        /* initcheck: load of a never-written byte       */
    EXEC_CHK_K_GWAW,        /* globalrace: plain stores of two CTAs, one byte */
    EXEC_CHK_K_OOB,         /* memcheck = warn: a global access past its
                               allocation, inside its granule
                               or the mapped range (EXEC_MAP_PAGE)        */
    EXEC_CHK_NKINDS
};

/* One deduplicated finding: the representative instance (smallest CTA,
 * address, threads) of every instance with the same kind and sites. */
struct exec_chk_finding {
    uint8_t kind;               /* enum exec_chk_kind                       */
    uint8_t space;              /* PTX_SP_* of the access (memory kinds)    */
    uint8_t nsites;             /* 2 for races (a = write or first, b)      */
    uint64_t cta;               /* linear CTA id (of access a)              */
    uint64_t cta2;              /* globalrace: CTA of access b (else = cta) */
    uint32_t tid[2];            /* linear thread ids in the CTA (a, b)      */
    const struct ptx_func *f[2];
    int32_t pc[2];
    bool write[2];              /* races: whether access a / b wrote        */
    uint32_t lanes;             /* synccheck: the lanes concerned           */
    uint64_t addr;              /* space offset (shared, local) or address  */
    uint64_t count;             /* instances (races: CTA x interval x byte) */
};

struct exec_chk_cta;
struct chk_galloc;
struct chk_gconf;

/* One launch's checker: configuration, live CTA shadows, findings. */
struct exec_chk {
    unsigned mask;              /* EXEC_CHK_* bits                          */
    const struct ptx_module *mod;
    uint32_t *fbase;            /* site of (func i, pc) = fbase[i] + pc     */
    uint32_t ntid[3], nctaid[3];
    uint32_t nthreads, nwarps;
    uint64_t shared_bytes, local_stride;
    struct exec_chk_cta *ctas;  /* live CTAs (timing mode: several)         */
    struct exec_chk_cta *spare; /* one finished CTA's buffers, reused       */
    struct exec_chk_finding *fd;
    uint32_t nfd, capfd;
    uint32_t *hash;  uint32_t hcap;   /* finding index + 1 by key; 0 empty  */
    struct chk_galloc *ga;      /* globalrace: shadow per global allocation */
    uint32_t nga, capga;
    struct chk_gconf *gc;       /* globalrace: bytes stored to by two CTAs  */
    uint32_t ngc, gccap;
    bool oom;                   /* host memory ran out: findings incomplete */
};

/* The per-warp hook state (embedded in the SIMT warp; chk NULL = off). */
struct exec_chk_warp {
    struct exec_chk *chk;
    struct exec_chk_cta *cta;   /* attached on the warp's first step        */
    uint32_t first;             /* linear thread id of lane 0               */
};

/* Initialises c for a launch of kernel f of mod with the given geometry
 * and memory layout; mask = EXEC_CHK_* bits. Returns 0 (c is usable even
 * with mask 0). */
int exec_chk_init(struct exec_chk *c, unsigned mask, const struct ptx_module *mod,
                  const uint32_t ntid[3], const uint32_t nctaid[3],
                  uint64_t shared_bytes, uint64_t local_stride);
/* Finishes every CTA still live (a failed launch leaves some), so all
 * findings are in c->fd, sorted (kind, sites, CTA, threads). */
void exec_chk_finish(struct exec_chk *c);
/* Frees what c holds (findings included). */
void exec_chk_free(struct exec_chk *c);

/* Observes one executed instruction of warp w: pc of f, issued for mask,
 * retire record res (after execution); arrive = lanes that arrived at a
 * CTA barrier (0 otherwise), live = lanes not exited, seq = the warp's
 * instruction count. */
void exec_chk_step(struct exec_chk_warp *cw, const struct exec_warp *w,
                   const struct exec_memctx *m, const struct ptx_func *f,
                   int32_t pc, uint32_t mask, const struct exec_result *res,
                   uint32_t arrive, uint32_t live, uint64_t seq);
/* memcheck = warn: thread tid of CTA cta (linear ids) accessed global
 * address addr at pc of f outside its allocation but inside its granule
 * or the mapped range around the allocations (exec_dmem_mapped).
 * One finding per site; c may have no other check on. */
void exec_chk_oob(struct exec_chk *c, uint64_t cta, uint32_t tid,
                  const struct ptx_func *f, int32_t pc, bool store, uint64_t addr);
/* The warp finished (all its lanes exited): detaches it; the CTA's
 * shadow is evaluated and released when its last warp finishes. */
void exec_chk_warp_done(struct exec_chk_warp *cw);

/* Marks [off, off+n) of allocation a as written (host copy, memset, a
 * kernel store). No-op when a has no init shadow. */
void exec_chk_init_mark(const struct exec_alloc *a, uint64_t off, uint64_t n);

/* Name of a kind ("read-after-write") and of its check ("racecheck"). */
const char *exec_chk_kind_name(unsigned kind);
const char *exec_chk_check_name(unsigned kind);

#endif
