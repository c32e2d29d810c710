/* A workload run for the unit tests that need whole-GPU traffic (include
 * after cmocka.h): wl_run_timing runs workload `name` at its small size,
 * seed 1, in timing mode on gtx480 with the key=value overrides `sets`
 * (NULL-terminated, or NULL), asserts that it passes, and fills *t with
 * its statistics. */
#ifndef TESTS_WL_RUN_H
#define TESTS_WL_RUN_H
#include <string.h>
#include "lockstep.h"
#include "workloads/wl_common.h"
#include "workloads/wl_ptx.h"

static inline void wl_run_timing(const char *name, const char *const *sets, ls_stats *t)
{
    ls_config c;
    ls_config_default(&c);
    c.config = "gtx480";
    c.sets = sets;
    char err[512];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    const struct wl_ptx_blob *b = wl_ptx_find(name);
    assert_non_null(b);
    ls_module *mod = NULL;
    assert_int_equal(ls_module_load_text(g, b->path, b->text, b->len, &mod), LS_OK);
    struct wl_report rep;
    memset(&rep, 0, sizeof rep);
    assert_int_equal(wl_find(name)->run(g, mod, WL_SMALL, 1, &rep), 0);
    assert_true(rep.pass);
    *t = rep.total;
    ls_gpu_destroy(g);
}

#endif
