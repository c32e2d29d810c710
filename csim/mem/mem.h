/* The timing memory hierarchy below the SMs: per-SM sectored L1D with MSHRs,
 * an interconnect (request and reply networks), memory partitions each with
 * a sectored L2 slice and a GDDR5-like DRAM channel (banks, rows, FR-FCFS).
 * It consumes core_mem_req records (csim/core/core_port.h) and produces
 * core_mem_resp completions; it never computes values (those were computed
 * at issue by the functional model). Shared memory is modelled in the SM.
 * See docs/memory-hierarchy.md for structure, knobs and write policies. */
#ifndef MEM_H
#define MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep.h"
#include "cfg/cfg.h"
#include "core/core_port.h"

struct mem_sys;

/* Builds the hierarchy for nsms SMs from c (sizes, latencies, clocks).
 * Returns NULL with "file:line: message" in err on a bad configuration or
 * allocation failure. */
struct mem_sys *mem_sys_create(const struct cfg *c, unsigned nsms, char *err, size_t errlen);
struct cosim_env;
struct bgp_cfg;
/* The BGP block parameters of config c (lamar_bgp_*, lamar_th_fg). */
void mem_bgp_cfg(const struct cfg *c, struct bgp_cfg *b);
/* mem_sys_create with the GDUs' blocks (LAMAR lamar.gdu=bgp) created under
 * env's backends (NULL: the C models). */
struct mem_sys *mem_sys_create_env(const struct cfg *c, unsigned nsms, struct cosim_env *env,
                                   char *err, size_t errlen);
/* Frees m and everything it owns (NULL is fine). */
void mem_sys_free(struct mem_sys *m);
/* Offers request r from SM r->sm at core cycle now. Returns false when it
 * cannot be accepted this cycle (no MSHR / queue slot): the SM stalls and
 * retries; the refusal is counted in reservation_fails. */
bool mem_access(struct mem_sys *m, const struct core_mem_req *r, uint64_t now);
/* Whether the request mem_access last took from SM sm hit: answered at the
 * L1D's latency (or at once, shared memory) rather than after a miss. */
bool mem_l1_hit(const struct mem_sys *m, unsigned sm);
/* Advances the hierarchy to core cycle now (handles the icnt and DRAM clock
 * domains internally); cost is proportional to the work in flight. */
void mem_cycle(struct mem_sys *m, uint64_t now);
/* Pops one completion for SM sm that is due at or before now into *out.
 * Returns false when none is due. */
bool mem_pop_resp(struct mem_sys *m, unsigned sm, uint64_t now, struct core_mem_resp *out);
/* Earliest core cycle > now at which anything in the hierarchy changes (a
 * completion becomes due or internal work must be done); UINT64_MAX when
 * nothing is in flight. */
uint64_t mem_next_event(const struct mem_sys *m, uint64_t now);
/* End of a kernel: sweeps the L1Ds into the used-sector histogram and
 * invalidates them (the L1D is not coherent); the L2 is kept. */
void mem_kernel_end(struct mem_sys *m);
/* Start of a kernel (the i-th .entry of its module, for lamar.gdu=static)
 * at GPU cycle now: names it in reports; the first call starts the GDUs'
 * clocks. */
void mem_kernel_begin(struct mem_sys *m, const char *kernel, unsigned entry, uint64_t now);
/* Kernel end at GPU cycle end, before mem_kernel_end: every idle L1D line
 * goes to its GDU as an eviction (the invalidation ends its life), then the
 * GDU blocks are clocked through end - 1. Returns 0, or -1 when a block
 * disagreed with its C model (mem_gdu_error). */
int mem_gdu_finish(struct mem_sys *m, uint64_t end);
/* The first GDU block mismatch report (the run must stop), or NULL. */
const char *mem_gdu_error(const struct mem_sys *m);
/* Adds the GDU blocks' seam figures since mem_kernel_begin into c. */
void mem_gdu_cosim(const struct mem_sys *m, ls_cosim_stats *c);
/* Copies the cumulative statistics (L1D summed over SMs, L2 over slices,
 * DRAM over channels) since creation; any pointer may be NULL. */
void mem_stats(const struct mem_sys *m, ls_cache_stats *l1d, ls_cache_stats *l2, ls_dram_stats *dram);
/* Writes a human-readable description of MSHR and queue occupancy (for
 * watchdog reports) into buf; returns the snprintf-style length. */
int mem_describe(const struct mem_sys *m, char *buf, size_t n);

/* MTA prefetcher figures (prefetch = mta; docs/dac.md) summed over the
 * L1Ds since creation into *out (launches left 0). */
void mem_mta_stats(const struct mem_sys *m, ls_mta_stats *out);
/* PCA figures (docs/pca.md) summed over the L1Ds since creation into *out. */
void mem_pca_stats(const struct mem_sys *m, ls_pca_stats *out);
/* The DRAM's time counters at core cycle now (cumulative since creation):
 * channel clocks with a row open, and sub-rank clocks in each power state
 * (docs/lamar.md "DRAM and system power"). */
struct mem_dram_ticks { uint64_t open, act_stby, act_pdn, pre_stby, pre_pdn; };
void mem_dram_ticks(const struct mem_sys *m, uint64_t now, struct mem_dram_ticks *t);
/* Writes the time counters between a (earlier) and now into d's
 * open_ticks and *_ticks members. */
void mem_dram_ticks_since(const struct mem_sys *m, uint64_t now, const struct mem_dram_ticks *a,
                          ls_dram_stats *d);
/* The DRAM energy (docs/lamar.md "DRAM and system power") and simulated
 * seconds of a run of cycles core cycles whose DRAM statistics are d
 * (the state ticks included) under config c, into *p (the GPU members
 * zero: the chip model fills them, gpu_energy_run). */
void mem_power(const struct cfg *c, const ls_dram_stats *d, uint64_t cycles, ls_power_stats *p);
/* The DRAM energy of p in joules: the sum of its DRAM components (what the
 * chip energy model charges for the DRAM). */
double mem_power_dram_j(const ls_power_stats *p);
/* Interconnect flits sent so far, both directions (the energy model). */
uint64_t mem_noc_flits(const struct mem_sys *m);

/* Additive: true when no request, reply or DRAM command is in flight and
 * every completion has been popped. */
bool mem_idle(const struct mem_sys *m);
/* A count that grows whenever the memory system serves something (L1/L2
 * lookups, L2 fills, DRAM commands): the watchdog's sign of progress. */
uint64_t mem_activity(const struct mem_sys *m);

#endif
