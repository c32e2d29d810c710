/* cmocka tests of the workload infrastructure (workloads/wl_common.c): the
 * seeded RNG (determinism, ranges), registry lookup and its agreement with
 * the embedded PTX table, the check helpers and first-failure reporting,
 * and wl_launch accumulating statistics over real launches of vecadd. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/wl_common.h"
#include "workloads/wl_ptx.h"

static void test_rng_deterministic(void **state)
{
    (void)state;
    struct wl_rng a, b, c;
    wl_rng_seed(&a, 42);
    wl_rng_seed(&b, 42);
    wl_rng_seed(&c, 43);
    int differs = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t x = wl_rng_next(&a);
        assert_true(x == wl_rng_next(&b));
        differs += x != wl_rng_next(&c);
    }
    assert_true(differs > 90);
    /* splitmix64 reference value for seed 0 */
    wl_rng_seed(&a, 0);
    assert_true(wl_rng_next(&a) == 0xE220A8397B1DCDAFull);
}

static void test_rng_ranges(void **state)
{
    (void)state;
    struct wl_rng r;
    wl_rng_seed(&r, 7);
    unsigned hist[10] = { 0 };
    for (int i = 0; i < 20000; i++) {
        float f = wl_rng_float(&r, -2.0f, 3.0f);
        assert_true(f >= -2.0f && f < 3.0f);
        uint32_t k = wl_rng_below(&r, 10);
        assert_true(k < 10);
        hist[k]++;
    }
    for (int k = 0; k < 10; k++)   /* 2000 expected each */
        assert_true(hist[k] > 1700 && hist[k] < 2300);
    assert_int_equal(wl_rng_below(&r, 0), 0);
    assert_int_equal(wl_rng_below(&r, 1), 0);
}

static void test_registry(void **state)
{
    (void)state;
    size_t n = 0;
    for (const struct workload *const *w = wl_registry; *w; w++, n++) {
        assert_ptr_equal(wl_find((*w)->name), *w);
        assert_non_null((*w)->run);
        assert_non_null((*w)->desc);
        int found = 0;
        for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name; b++)
            if (!strcmp(b->name, (*w)->name)) {
                found = 1;
                assert_int_equal(strlen(b->text), b->len);
                assert_non_null(strstr(b->text, ".target sm_75"));
            }
        assert_true(found);
    }
    assert_true(n >= 7);
    assert_null(wl_find("no_such_workload"));
    assert_null(wl_find(NULL));
    assert_non_null(wl_find("vecadd"));
}

static void test_checks(void **state)
{
    (void)state;
    struct wl_report rep;
    memset(&rep, 0, sizeof rep);
    rep.pass = 1;
    uint32_t a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 2, 3, 4 };
    assert_int_equal(wl_check_u32(&rep, "x", a, b, 4), 1);
    assert_int_equal(rep.pass, 1);
    float f[3] = { 1.0f, 2.0f, 100.0f }, g[3] = { 1.0f, 2.00001f, 100.001f };
    assert_int_equal(wl_check_f32(&rep, "f", f, g, 3, 1e-4, 0.0), 1);
    assert_int_equal(rep.pass, 1);
    b[2] = 9;
    assert_int_equal(wl_check_u32(&rep, "x", a, b, 4), 0);
    assert_int_equal(rep.pass, 0);
    assert_non_null(strstr(rep.msg, "x[2] = 3"));
    /* the first failure is kept */
    assert_int_equal(wl_check_f32(&rep, "f", f, g, 3, 0.0, 0.0), 0);
    assert_non_null(strstr(rep.msg, "x[2]"));
    memset(&rep, 0, sizeof rep);
    float nan = __builtin_nanf("");
    assert_int_equal(wl_check_f32(&rep, "n", &nan, &nan, 1, 1.0, 1.0), 0);
    /* per-value bounds: inside, on the edge, just outside, NaN */
    memset(&rep, 0, sizeof rep);
    rep.pass = 1;
    double want[3] = { 1.0, -2.0, 0.5 }, bound[3] = { 0.25, 0.0, 1e-3 };
    float h[3] = { 1.25f, -2.0f, 0.5f };
    assert_int_equal(wl_check_f32_bounds(&rep, "q", h, want, bound, 3), 1);
    assert_int_equal(rep.pass, 1);
    h[2] = 0.5f + 2e-3f;
    assert_int_equal(wl_check_f32_bounds(&rep, "q", h, want, bound, 3), 0);
    assert_int_equal(rep.pass, 0);
    assert_non_null(strstr(rep.msg, "q[2] = 0.50"));
    assert_non_null(strstr(rep.msg, "bound 0.001"));
    memset(&rep, 0, sizeof rep);
    h[2] = nan;
    assert_int_equal(wl_check_f32_bounds(&rep, "q", h, want, bound, 3), 0);
    assert_int_equal(wl_pick(WL_SMALL, 1, 2, 3), 1);
    assert_int_equal(wl_pick(WL_DEFAULT, 1, 2, 3), 2);
    assert_int_equal(wl_pick(WL_LARGE, 1, 2, 3), 3);
    assert_int_equal(wl_pick(WL_XLARGE, 1, 2, 3), 3);
    assert_int_equal(wl_pick_xl(WL_DEFAULT, 1, 2, 3, 4), 2);
    assert_int_equal(wl_pick_xl(WL_LARGE, 1, 2, 3, 4), 3);
    assert_int_equal(wl_pick_xl(WL_XLARGE, 1, 2, 3, 4), 4);
    assert_int_equal(wl_has_xlarge("gaussian"), 1);
    assert_int_equal(wl_has_xlarge("kmeans"), 1);
    assert_int_equal(wl_has_xlarge("vecadd"), 0);
}

struct hook { unsigned calls; uint64_t thread_insts; };

static void hook_fn(void *user, const char *kernel, ls_status st,
                    const ls_stats *s)
{
    struct hook *h = user;
    assert_string_equal(kernel, "vecadd");
    assert_int_equal(st, LS_OK);
    h->calls++;
    h->thread_insts += s->thread_insts;
}

/* Two launches of the embedded vecadd through wl_launch: totals add up, the
 * hook sees both, and a bad kernel name fails with a message. */
static void test_launch_accumulates(void **state)
{
    (void)state;
    const struct wl_ptx_blob *b = wl_ptx_blobs;
    while (b->name && strcmp(b->name, "vecadd"))
        b++;
    assert_non_null(b->name);
    ls_config cfg;
    ls_config_default(&cfg);
    char err[256];
    ls_gpu *gpu = ls_gpu_create(&cfg, err, sizeof err);
    assert_non_null(gpu);
    ls_module *mod = NULL;
    assert_int_equal(ls_module_load_text(gpu, b->path, b->text, b->len, &mod), LS_OK);
    struct wl_report rep;
    memset(&rep, 0, sizeof rep);
    struct hook h = { 0, 0 };
    rep.on_launch = hook_fn;
    rep.user = &h;
    rep.pass = 1;
    ls_dptr d = 0;
    assert_int_equal(wl_upload(gpu, &rep, "buf", &d, NULL, 3 * 100 * 4), LS_OK);
    ls_dptr da = d, db = d + 400, dc = d + 800;
    int n = 100;
    void *args[] = { &da, &db, &dc, &n };
    ls_dim3 grid = { 2, 1, 1 }, block = { 64, 1, 1 };
    assert_int_equal(wl_launch(gpu, mod, &rep, "vecadd", grid, block, 0, args), LS_OK);
    uint64_t one = rep.total.thread_insts;
    assert_true(one > 0);
    assert_int_equal(wl_launch(gpu, mod, &rep, "vecadd", grid, block, 0, args), LS_OK);
    assert_int_equal(rep.nlaunches, 2);
    assert_int_equal(h.calls, 2);
    assert_true(rep.total.thread_insts == 2 * one);
    assert_true(h.thread_insts == 2 * one);
    assert_true(rep.total.simd_util > 0.0 && rep.total.simd_util <= 1.0);
    assert_int_equal(rep.pass, 1);
    rep.on_launch = NULL;
    assert_int_not_equal(wl_launch(gpu, mod, &rep, "no_such_kernel", grid, block,
                                   0, args), LS_OK);
    assert_int_equal(rep.pass, 0);
    assert_non_null(strstr(rep.msg, "no_such_kernel"));
    assert_int_equal(rep.nlaunches, 2);
    ls_free(gpu, d);
    ls_gpu_destroy(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_deterministic),
        cmocka_unit_test(test_rng_ranges),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_launch_accumulates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
