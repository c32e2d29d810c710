/* Helpers for workload host drivers (implemented in workloads/wl_common.c),
 * on top of the registry contract in workloads/workload.h.
 *
 * Driver convention: run() sets rep->pass = 1 first; every failure goes
 * through wl_fail() (or wl_launch/wl_upload/wl_download, which call it), so
 * rep->pass drops to 0 and rep->msg keeps the FIRST failure. run() returns 0
 * when it ran to the check (pass or fail is in rep) and the ls_status of an
 * API error otherwise. */
#ifndef WL_COMMON_H
#define WL_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "workloads/workload.h"

/* Marks rep failed with a printf-style message (kept only if it is the
 * first); always returns 0 so drivers can `return wl_fail(...)`. */
int wl_fail(struct wl_report *rep, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ls_malloc of bytes into *d, then copies host (or zero-fills when host is
 * NULL); on error records "what: STATUS: gpu message" in rep. */
ls_status wl_upload(ls_gpu *gpu, struct wl_report *rep, const char *what,
                    ls_dptr *d, const void *host, size_t bytes);
/* ls_memcpy_dtoh with the same error recording. */
ls_status wl_download(ls_gpu *gpu, struct wl_report *rep, const char *what,
                      void *host, ls_dptr d, size_t bytes);

/* Exact comparison of n words; on the first mismatch records what[index],
 * the value got and the value wanted in rep. Returns 1 when all match. */
int wl_check_u32(struct wl_report *rep, const char *what, const uint32_t *got,
                 const uint32_t *want, size_t n);
/* Exact comparison of n signed ints; records the first mismatch. Returns
 * 1 when all match. */
int wl_check_i32(struct wl_report *rep, const char *what, const int *got,
                 const int *want, size_t n);
/* Float comparison: |got - want| <= abs_tol + rel_tol * |want| for each of
 * n values (NaN never matches); records the first mismatch. Returns 1 when
 * all match. */
int wl_check_f32(struct wl_report *rep, const char *what, const float *got,
                 const float *want, size_t n, double rel_tol, double abs_tol);
/* Float comparison against a bound per value: |got[i] - want[i]| <=
 * bound[i] for each of n values (NaN never matches); for results whose
 * documented error bound is worked out value by value by the reference.
 * Records the first mismatch. Returns 1 when all match. */
int wl_check_f32_bounds(struct wl_report *rep, const char *what, const float *got,
                        const double *want, const double *bound, size_t n);

/* An iterative kernel's exact check: got must equal want bit for bit
 * (wl_check_f32 with no tolerance), and want must have moved by more than
 * min_move from initial somewhere, or a missing iteration would go unseen
 * (what names the grid in the message). Returns 1 when both hold. */
int wl_check_f32_moved(struct wl_report *rep, const char *what, const float *got,
                       const float *want, const float *initial, size_t n,
                       double min_move);

/* Seeded nx x ny x nz grid (x fastest): cells on the six faces uniform in
 * [0, face_hi), interior cells in [0, inner_hi), drawn in memory order. */
void wl_grid3d_faces(struct wl_rng *r, float *g, unsigned nx, unsigned ny,
                     unsigned nz, float face_hi, float inner_hi);

/* Picks the value for a size: small, default or large (xlarge picks large:
 * the CLI runs xlarge only where wl_has_xlarge says the driver has one). */
unsigned wl_pick(enum wl_size size, unsigned small, unsigned dflt,
                 unsigned large);

/* Picks the value for a size of a driver with an xlarge input. */
unsigned wl_pick_xl(enum wl_size size, unsigned small, unsigned dflt,
                    unsigned large, unsigned xlarge);

#endif
