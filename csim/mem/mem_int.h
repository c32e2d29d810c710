/* Internals of the timing memory hierarchy (csim/mem): the sectored tag
 * array shared by L1D and L2, the event heap, the per-SM and per-partition
 * state, and the calls between mem_sys.c (API, L1D, interconnect) and
 * mem_l2.c (L2 slices and DRAM channels). Not part of the public contract. */
#ifndef MEM_INT_H
#define MEM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/mem.h"
#include "mem/mem_mta.h"

#define MEM_NONE (-1)
/* mem_line.gans: no GDU query allocated the line (a write, a prefetch), or
 * the query answered FG (less than the whole line) or CG */
enum { MEM_GANS_NONE, MEM_GANS_FG, MEM_GANS_CG };
#define MEM_PKT_HDR 8u            /* request/ack header bytes on the icnt   */
#define MEM_ICNT_QUEUE_TICKS 16u  /* SM request port: refuse beyond this    */
#define MEM_L1_MERGE 8u           /* waiter nodes per L1D MSHR (pool size)  */

/* ---- sectored tag array ---- */
struct mem_line {
    uint64_t addr;        /* line address (tag + index)                      */
    uint64_t lru;         /* larger = more recently used                     */
    int32_t mshr;         /* pending miss on this line, or MEM_NONE          */
    uint8_t present;      /* the line is allocated                           */
    uint8_t valid;        /* per-sector valid bits                           */
    uint8_t used;         /* sectors accessed since allocation               */
    uint8_t dirty;        /* per-sector dirty bits (L2 only)                 */
    /* LAMAR (docs/lamar.md): sectors asked of the level below and not yet
     * filled, by category; sectors filled on a prediction and not yet
     * referenced; the SPP table entry that predicted the line */
    uint8_t fdem, fnpr, fprd, pnr;
    uint8_t gans;         /* the GDU's answer that allocated it: MEM_GANS_*  */
    uint8_t deprio;       /* PCA: allocated by a warp without a token (L1D)  */
    uint8_t pf;           /* MTA: a prefetch allocated it, not yet referenced */
    uint32_t reuse;       /* hits since allocation (block reuse, Fig 6.6)    */
    uint16_t locks;       /* DAC: enq.data records holding the line until
                             their deq (docs/dac.md "The units"); a locked
                             line is a victim only when no other way is  */
    uint32_t trig;
};

struct mem_cache {
    unsigned sets, assoc, line, sector, nsec;
    struct mem_line *lines;   /* sets * assoc                               */
    uint64_t clock;           /* LRU stamp source                           */
    unsigned th_fg;           /* LAMAR's TH_FG, to judge GDU answers        */
    bool keep_locked;         /* DAC: a locked line is never a victim
                                 (dac.lock_break=off)                       */
    ls_cache_stats st;
    uint64_t pf_unused;       /* MTA: prefetched lines dropped unreferenced */
};

/* Sets up an empty cache of size bytes; size 0 gives sets == 0 (no cache).
 * Returns 0, or -1 with a message in err. */
int mem_cache_init(struct mem_cache *c, uint64_t size, unsigned assoc, unsigned line,
                   unsigned sector, char *err, size_t errlen);
/* Frees the tag array. */
void mem_cache_free(struct mem_cache *c);
/* The allocated line holding addr in set, or NULL. */
struct mem_line *mem_cache_find(struct mem_cache *c, unsigned set, uint64_t addr);
/* A way of set that can be replaced: an unallocated one first, else the
 * least recently used without a pending miss; NULL when every way waits. */
struct mem_line *mem_cache_victim(struct mem_cache *c, unsigned set);
/* PCA (docs/pca.md): a way of set that a warp without a token may
 * replace: an unallocated one first, else the least recently used line
 * that a warp without a token allocated and that has no pending miss;
 * NULL when there is none (the fill bypasses the cache). */
struct mem_line *mem_cache_victim_deprio(struct mem_cache *c, unsigned set);
/* keep_locked (DAC): true when every line of set holds a lock and none is
 * pending, so no fill can free a way; a demand miss there bypasses the
 * L1D rather than wait on the locks (no deadlock). */
bool mem_cache_lock_blocked(const struct mem_cache *c, unsigned set);
/* Marks l most recently used. */
void mem_cache_touch(struct mem_cache *c, struct mem_line *l);
/* Records on l, just allocated by a GDU query, whether the answer extra
 * (sectors beyond the requested ones; all = every sector) was FG or CG. */
void mem_cache_gdu_answer(struct mem_line *l, uint8_t extra, uint8_t all);
/* Drops l (if allocated) counting an eviction and its used sectors. */
void mem_cache_evict(struct mem_cache *c, struct mem_line *l);
/* Allocates victim l for addr with no valid sectors (evicting first). */
void mem_cache_fill_line(struct mem_cache *c, struct mem_line *l, uint64_t addr);
/* Counts the used sectors of every allocated idle line into the histogram
 * and invalidates it (lines with a pending miss stay). */
void mem_cache_sweep(struct mem_cache *c);
/* Clears every line's DAC locks and keeps the lines (the kernel-end step
 * of l1d_kernel_flush = off). */
void mem_cache_unlock(struct mem_cache *c);
/* Number of set bits of a sector mask. */
unsigned mem_popcount8(uint8_t m);
/* Sectors mask arrive from below for l: marks them valid and counts the
 * fresh ones in sector_fills and their LAMAR category (demand, npred_ref,
 * or, for predicted sectors, pred_ref when already referenced). */
void mem_cache_fill_sectors(struct mem_cache *c, struct mem_line *l, uint8_t mask);
/* The sectors need of l are referenced: counts predicted sectors not yet
 * referenced as pred_ref and sets the used bits. */
void mem_cache_ref(struct mem_cache *c, struct mem_line *l, uint8_t need);

/* ---- LAMAR granularity decision units (mem_gdu.c); a unit's kind is a
 * lamar_gdu choice (CFG_LAMAR_GDU_*) ---- */

struct cosim_inst;
struct cosim_env;
struct bgp_ref;

/* One GDU: beside one L1D or one L2 slice. */
struct mem_gdu {
    uint8_t kind;             /* enum cfg_lamar_gdu                          */
    uint8_t all;              /* every sector of a line                      */
    uint8_t static_fg;        /* static: the running kernel fetches FG       */
    uint8_t started;          /* t0 is set (the first kernel began)          */
    struct cosim_inst *blk;   /* bgp: the BGP block through the seam         */
    struct bgp_ref *ref;      /* bgp_inf: the exact set                      */
    uint16_t *pht;            /* spp: 0 invalid, else 0x100 | used sectors   */
    unsigned npht;
    uint8_t active;           /* bgp, bgp_inf: has seen an eviction          */
    uint8_t idle1;            /* bgp: idle1_o after the last edge            */
    uint64_t windows;         /* bgp, bgp_inf: skew windows closed           */
    uint64_t *seen;           /* lines queried or evicted so far (key addr+1, */
    size_t nseen, seen_cap;   /* open addressing; 0 empty): first fetches     */
    uint64_t t0;              /* GPU cycle of the block's edge 0             */
    ls_cosim_stats base;      /* the block's figures at the kernel's start   */
};

/* Creates every GDU of m (one per L1D, one per L2 slice) from m->c under
 * env (NULL: the C models). Returns 0 or -1 with err. */
int mem_gdu_init(struct mem_sys *m, struct cosim_env *env, char *err, size_t errlen);
/* Frees every GDU of m. */
void mem_gdu_free(struct mem_sys *m);
/* The SPP table entry (index + 1) of a miss of the instruction at PTX line
 * pc whose lowest requested sector is the trigger (0 when the GDU is not an
 * SPP: no entry). */
uint32_t mem_gdu_trig(const struct mem_gdu *g, uint32_t pc, uint8_t need);
/* One GDU transaction at GPU cycle now: with q, a miss allocating the line
 * at byte address qaddr (SPP entry qtrig) asks how to fetch it; with ev,
 * the line ev (still allocated) is evicted and its used sectors go to the
 * GDU. The BGP hashes the low 32 bits of the line's byte address. Counts
 * gdu_* in st. Returns the sectors to fetch beyond the request (all of a
 * line for CG, none for FG); 0 without q. A lockstep mismatch is kept in
 * m->gdu_why (the run stops at the next check). */
uint8_t mem_gdu_step(struct mem_sys *m, struct mem_gdu *g, ls_cache_stats *st, uint64_t now,
                     int q, uint64_t qaddr, uint32_t qtrig, const struct mem_line *ev);

/* ---- events ---- */
enum mem_ev_type { MEM_EV_L2_ARRIVE, MEM_EV_SM_ARRIVE, MEM_EV_DRAM_WAKE, MEM_EV_DRAM_DONE };

struct mem_ev {
    uint64_t time;        /* core cycle                                      */
    uint64_t seq;         /* tie-break: insertion order                      */
    uint32_t a, b;        /* packet, or partition and MSHR                   */
    uint8_t type, mask;
};

struct mem_heap { struct mem_ev *v; size_t n, cap; };

/* Inserts e ordered by (time, seq). Returns false on allocation failure. */
bool mem_heap_push(struct mem_heap *h, const struct mem_ev *e);
/* Removes the earliest event into *e; false when empty. */
bool mem_heap_pop(struct mem_heap *h, struct mem_ev *e);

/* ---- packets on the interconnect ---- */
enum mem_pkt_kind { MEM_PK_READ, MEM_PK_WRITE, MEM_PK_ATOMIC };

struct mem_pkt {
    uint64_t l2_addr;     /* L2 line address                                 */
    uint32_t tag;         /* SM token (writes, atomics, L1-less reads)       */
    int32_t l1_mshr;      /* waiting L1 MSHR, or MEM_NONE                     */
    int32_t next;         /* list link (L2 waiters, partition wait FIFO)      */
    uint16_t sm, warp, bytes;
    uint8_t kind, l2_mask, l1_mask;
    uint8_t counted;      /* reservation failure already counted at L2       */
    uint8_t tex;          /* a texture fetch (no ROP delay, l2_rop_latency)  */
    uint32_t pc;          /* PTX line of the instruction (LAMAR SPP)          */
};

/* ---- per SM ---- */
struct mem_l1_mshr {
    int32_t line;         /* index into l1.lines, or MEM_NONE without L1D    */
    int32_t head, tail;   /* waiter list                                     */
    uint8_t pending;      /* sectors requested from below                    */
    uint16_t out;         /* packets not yet answered                        */
    uint8_t pfc;          /* an MTA prefetch into the prefetch cache         */
};

struct mem_waiter { uint32_t tag; uint16_t warp; int32_t next; };

struct mem_resp_ev { uint64_t due, seq; uint32_t tag; uint16_t warp; };

struct mem_sm {
    struct mem_cache l1;
    struct mem_gdu gdu;
    struct mem_l1_mshr *mshr;
    int32_t *mshr_free; unsigned nmshr_free;
    struct mem_waiter *wt;
    int32_t *wt_free; unsigned nwt_free;
    uint64_t req_port, rep_port;    /* icnt tick at which the port is free  */
    struct mem_resp_ev *resp; size_t nresp, capresp;   /* min-heap by due   */
    uint8_t l1_hit;             /* the request mem_access took last was
                                   answered at the L1D's latency (a hit) or
                                   at once (shared): mem_l1_hit           */
    ls_pca_stats pca;               /* PCA at this L1D (pca.tokens > 0)     */
    struct mem_mta mta;             /* MTA prefetcher (prefetch = mta)      */
    uint64_t pf_seen;               /* l1.pf_unused already given to mta    */
};

/* ---- per partition: L2 slice + DRAM channel ---- */
struct mem_l2_mshr {
    int32_t line;
    int32_t head, tail;   /* waiting packets                                 */
    uint8_t pending;
    uint16_t out;         /* DRAM reads outstanding                          */
    uint16_t n;           /* packets it holds (l2_mshr_merge bounds them)     */
};

/* DRAM power states of a sub-rank (mem_power.c, TN-41-01's background
 * terms): a row open in some bank or every bank precharged, crossed with
 * standby (CKE high) or power-down (CKE low). */
enum { MEM_PW_ACT_STBY, MEM_PW_ACT_PDN, MEM_PW_PRE_STBY, MEM_PW_PRE_PDN, MEM_PW_N };
#define MEM_MAX_SR 8                /* dram_subranks' upper bound            */

struct mem_dram_bank {
    int64_t open_row;     /* MEM_NONE when precharged                        */
    uint64_t ready;       /* DRAM tick: the bank takes its next request      */
    uint64_t pre_ready;   /* earliest precharge (tRAS, data done, tWR)       */
    uint64_t act_ready;   /* earliest next activate of this bank (tRC)       */
    uint8_t sr_open;      /* sub-ranks whose chips hold the open row (power) */
};

struct mem_dram_req {
    uint64_t seq, row;
    uint64_t ready;       /* DRAM tick the scheduler sees it (dram_latency)  */
    uint32_t bank;
    int32_t mshr;         /* L2 MSHR to fill (reads), MEM_NONE for writes    */
    uint16_t bytes, atoms;
    uint8_t is_write, mask, used;
    uint8_t opened;       /* its activate opened the row (first column not a hit) */
    uint8_t big;          /* more than one sector (ls_dram_stats.by_size)     */
    uint8_t sr;           /* sub-ranks its atoms touch (power: chips activated) */
};

struct mem_part {
    struct mem_cache l2;
    struct mem_gdu gdu;
    struct mem_l2_mshr *mshr;
    int32_t *mshr_free; unsigned nmshr_free, nmshr;
    uint64_t *l2_free;              /* core cycle each L2 pipeline is free: one
                                       per icnt port with l2_port_bytes, else one */
    uint64_t *req_port, *rep_port;  /* icnt ticks, one per icnt_part_ports  */
    int32_t wait_head, wait_tail;   /* packets waiting for L2 resources     */
    unsigned nwait;
    /* DRAM channel */
    struct mem_dram_bank *bank;
    struct mem_dram_req *q; unsigned nq;
    uint64_t bus_free, col_ready;   /* DRAM ticks                           */
    uint64_t act_next;              /* earliest next activate (tRRD)        */
    uint64_t rd_ready, wr_ready;    /* earliest read / write column (tWTR, tRTW) */
    uint64_t last_issue;            /* DRAM tick of the last issue + 1      */
    uint64_t wake_at;               /* pending wake (DRAM tick) or MAX       */
    uint64_t first_act;             /* DRAM tick of the first activate or MAX */
    ls_dram_stats st;
    /* power (mem_power.c): each sub-rank's state, accounted up to pw_at */
    uint64_t pw_at;                 /* DRAM tick accounted up to             */
    uint64_t pw_busy[MEM_MAX_SR];   /* standby (CKE high) until this tick    */
    uint64_t pw_wake[MEM_MAX_SR];   /* power-down exit done (dram_tXP)       */
    uint16_t pw_nq[MEM_MAX_SR];     /* queued requests touching the sub-rank */
    uint16_t pw_open[MEM_MAX_SR];   /* banks with a row open in its chips    */
    uint64_t pw_ticks[MEM_PW_N];    /* sub-rank ticks per state (MEM_PW_*)   */
};

struct mem_sys {
    struct cfg c;
    unsigned nsms, nparts;
    unsigned nports;                /* SM interconnect ports (icnt_sm_share) */
    struct mem_sm *sm;
    struct mem_part *part;
    struct mem_heap ev;
    struct mem_pkt *pkt; int32_t *pkt_free; size_t npkt_free, pktcap;
    uint64_t seq;
    uint64_t noc_flits;             /* flits sent (energy model only)       */
    uint64_t fc, fi, fd;            /* core, icnt, DRAM clocks (MHz)        */
    unsigned atom;                  /* DRAM minimum access bytes            */
    unsigned banks_log;
    bool failed;                    /* an allocation failed (sticky)        */
    /* LAMAR */
    struct cosim_env *own_env;      /* the C-model env when none was given  */
    const char *kernel;             /* the running kernel (reports)         */
    char *gdu_why;                  /* first GDU failure report (malloc'd)  */
};

/* Converts a core cycle to the first icnt/DRAM tick starting at or after
 * it (ceil) and back (ceil), and to the tick in progress (floor). */
uint64_t mem_icnt_ceil(const struct mem_sys *m, uint64_t core);
uint64_t mem_core_of_icnt(const struct mem_sys *m, uint64_t tick);
uint64_t mem_dram_floor(const struct mem_sys *m, uint64_t core);
uint64_t mem_dram_ceil(const struct mem_sys *m, uint64_t core);
uint64_t mem_core_of_dram(const struct mem_sys *m, uint64_t tick);

/* Schedules event e (time, type, a, b, mask); seq is assigned here. */
void mem_event(struct mem_sys *m, uint64_t time, uint8_t type, uint32_t a, uint32_t b, uint8_t mask);
/* Frees packet k back to the pool. */
void mem_pkt_release(struct mem_sys *m, int32_t k);
/* Sends packet k's reply (data or ack) from partition p to its SM starting
 * at core cycle t; schedules MEM_EV_SM_ARRIVE. */
void mem_reply(struct mem_sys *m, unsigned p, int32_t k, uint64_t t);
/* Partition of an L2 line address (line interleaving with an XOR hash). */
unsigned mem_partition_of(const struct mem_sys *m, uint64_t l2_addr);
/* The partition's icnt port (of icnt_part_ports) serving an L2 line. */
unsigned mem_part_port(const struct mem_sys *m, uint64_t l2_addr);
/* The line number of an L2 line inside its partition (L2 set, DRAM bank
 * and row): the address with the partition's digit taken out. */
uint64_t mem_local_line(const struct mem_sys *m, uint64_t l2_addr);

/* mem_l2.c: builds/frees the partitions. Returns 0 or -1 with err. */
int mem_l2_init(struct mem_sys *m, char *err, size_t errlen);
/* Frees the partitions. */
void mem_l2_free(struct mem_sys *m);
/* Packet k arrived at partition p at core cycle t: look it up in the L2 or
 * queue it until resources free. */
void mem_l2_arrive(struct mem_sys *m, unsigned p, int32_t k, uint64_t t);
/* DRAM scheduler wake-up of partition p at core cycle t. */
void mem_dram_wake(struct mem_sys *m, unsigned p, uint64_t t);
/* A DRAM read for L2 MSHR ms of partition p delivered sectors mask at t. */
void mem_dram_done(struct mem_sys *m, unsigned p, uint32_t ms, uint8_t mask, uint64_t t);
/* mem_power.c: accounts partition p's sub-rank states up to DRAM tick
 * T (call before any change of a queue count, open row or busy time). */
void mem_pw_account(const struct mem_sys *m, struct mem_part *pt, uint64_t T);
/* True when partition p holds no queued or waiting work. */
bool mem_part_idle(const struct mem_part *p);

#endif
