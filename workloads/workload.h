/* Workload registry: each workload is a CUDA kernel (.cu), its committed
 * PTX (embedded at build time), and a C host driver with seeded inputs and
 * a CPU reference. The CLI and the regression tests run them by name. */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <stdint.h>
#include "lockstep.h"

/* Input sizes; WL_XLARGE exists only for the workloads wl_has_xlarge()
 * names (inputs whose footprint exceeds the L2 at large sizes' budget
 * would not, docs/workloads.md "Sizes"). */
enum wl_size { WL_SMALL, WL_DEFAULT, WL_LARGE, WL_XLARGE };

/* What a driver reports back: per-launch records and the final check. */
struct wl_report {
    int pass;                  /* 1 when every launch ran and the check held */
    char msg[256];             /* why it failed (first failure)             */
    ls_stats total;            /* sum over launches                          */
    unsigned nlaunches;
    /* optional per-launch hook (kernel name, status, stats), may be NULL */
    void (*on_launch)(void *user, const char *kernel, ls_status st,
                      const ls_stats *s);
    void *user;
};

struct workload {
    const char *name;          /* "vecadd"; also the PTX file stem          */
    const char *category;      /* "regular", "divergent", "irregular", ...  */
    const char *desc;          /* one line                                   */
    /* Runs the workload on gpu (module already loaded from the PTX):
     * allocates, launches, checks against the CPU reference. Returns 0 when
     * the run completed (pass or fail is in rep), or an ls_status error. */
    int (*run)(ls_gpu *gpu, ls_module *mod, enum wl_size size, uint64_t seed,
               struct wl_report *rep);
};

/* All workloads, ending with a {0} row. */
extern const struct workload *const wl_registry[];

/* Names of the workloads whose driver calls wl_pick_xl, ending with NULL
 * (generated from the sources by tools/gen-registry.sh). */
extern const char *const wl_xlarge_names[];

/* Workload by name, or NULL. */
const struct workload *wl_find(const char *name);

/* 1 when workload NAME has an xlarge input (its driver picks one with
 * wl_pick_xl), else 0. */
int wl_has_xlarge(const char *name);

/* Launch wrapper for drivers: ls_launch + accumulate stats in rep + call
 * rep->on_launch; on error records the message in rep and returns it. */
ls_status wl_launch(ls_gpu *gpu, ls_module *mod, struct wl_report *rep,
                    const char *kernel, ls_dim3 grid, ls_dim3 block,
                    size_t dyn_shared, void **args);

/* Deterministic RNG for inputs (splitmix64 seeded). */
struct wl_rng { uint64_t s; };
void wl_rng_seed(struct wl_rng *r, uint64_t seed);
uint64_t wl_rng_next(struct wl_rng *r);
/* Uniform float in [lo, hi). */
float wl_rng_float(struct wl_rng *r, float lo, float hi);
/* Uniform integer in [0, n). */
uint32_t wl_rng_below(struct wl_rng *r, uint32_t n);

#endif
