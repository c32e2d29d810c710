/* cmocka tests of timing mode through the public API: every workload
 * leaves the same device memory (ls_mem_digest) as functional mode under
 * gtx480 (small inputs); a repeated run gives identical statistics; the
 * watchdog/deadlock report names warps and memory state; config errors
 * name the key; ls_config_dump prints the effective values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static const struct wl_ptx_blob *blob_of(const char *name)
{
    for (const struct wl_ptx_blob *b = wl_ptx_blobs; b->name; b++)
        if (!strcmp(b->name, name))
            return b;
    return NULL;
}

/* Runs workload w in mode on config; returns its digest and stats. */
static int run_wl(const struct workload *w, ls_mode mode, const char *config,
                  uint64_t *digest, ls_stats *total)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = mode;
    c.config = config;
    char err[512];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    const struct wl_ptx_blob *b = blob_of(w->name);
    assert_non_null(b);
    ls_module *mod = NULL;
    assert_int_equal(ls_module_load_text(g, b->path, b->text, b->len, &mod), LS_OK);
    struct wl_report rep;
    memset(&rep, 0, sizeof rep);
    int rc = w->run(g, mod, WL_SMALL, 1, &rep);
    if (rc != 0 || !rep.pass)
        fprintf(stderr, "%s (%s): %s %s\n", w->name, mode ? "timing" : "functional",
                rep.msg, ls_gpu_error(g));
    assert_int_equal(rc, 0);
    assert_true(rep.pass);
    assert_int_equal(ls_mem_digest(g, digest), LS_OK);
    *total = rep.total;
    ls_gpu_destroy(g);
    return 0;
}

static void test_timing_matches_functional(void **state)
{
    (void)state;
    unsigned n = 0;
    for (const struct workload *const *w = wl_registry; *w; w++) {
        uint64_t df = 0, dt = 0;
        ls_stats sf, st;
        run_wl(*w, LS_MODE_FUNCTIONAL, "gtx480", &df, &sf);
        run_wl(*w, LS_MODE_TIMING, "gtx480", &dt, &st);
        if (df != dt)
            fprintf(stderr, "%s: digest functional %016llx timing %016llx\n",
                    (*w)->name, (unsigned long long)df, (unsigned long long)dt);
        assert_true(df == dt);
        /* the same instructions ran; timing adds cycles */
        assert_true(sf.warp_insts == st.warp_insts);
        assert_true(sf.thread_insts == st.thread_insts);
        assert_true(sf.cycles == 0 && st.cycles > 0);
        assert_true(st.ipc > 0.0);
        assert_true(st.sm_cycles <= st.cycles * 15);
        n++;
    }
    assert_true(n >= 15);
}

static void test_timing_deterministic(void **state)
{
    (void)state;
    const char *names[] = { "spmv", "histogram", "bfs" };
    for (unsigned i = 0; i < 3; i++) {
        const struct workload *w = wl_find(names[i]);
        assert_non_null(w);
        uint64_t d1, d2;
        ls_stats a, b;
        run_wl(w, LS_MODE_TIMING, "gtx480", &d1, &a);
        run_wl(w, LS_MODE_TIMING, "gtx480", &d2, &b);
        assert_true(d1 == d2);
        a.wall_s = b.wall_s = 0;
        assert_memory_equal(&a, &b, sizeof a);
    }
}

/* Only warp 0 reaches the barrier: the timing model reports a deadlock
 * with each warp's state and the memory system's. */
static const char *DIVBAR = HDR
    ".visible .entry k()\n{\n .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n setp.ge.u32 %p1, %r1, 32;\n @%p1 bra END;\n"
    " bar.sync 0;\nEND:\n mov.u32 %r2, %tid.x;\n"
    " setp.ge.u32 %p1, %r2, 16;\n @%p1 bra.uni LOOP;\n ret;\n"
    "LOOP:\n bar.sync 1;\n ret;\n}\n";

static void test_timing_deadlock_report(void **state)
{
    (void)state;
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_TIMING;
    char err[256];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    ls_module *m;
    assert_int_equal(ls_module_load_text(g, "divbar.ptx", DIVBAR, strlen(DIVBAR), &m), LS_OK);
    ls_stats s;
    ls_status st = ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1}, 0, NULL, &s);
    assert_int_equal(st, LS_ERR_DEADLOCK);
    const char *e = ls_gpu_error(g);
    assert_non_null(strstr(e, "deadlock in kernel k"));
    assert_non_null(strstr(e, "warp 0"));
    assert_non_null(strstr(e, "barrier"));
    assert_non_null(strstr(e, "scoreboard"));
    assert_non_null(strstr(e, "memory:"));
    /* the GPU stays usable after a failed timing launch */
    static const char *OK = HDR ".visible .entry k2()\n{\n ret;\n}\n";
    ls_module *m2;
    assert_int_equal(ls_module_load_text(g, "ok.ptx", OK, strlen(OK), &m2), LS_OK);
    assert_int_equal(ls_launch(g, m2, "k2", (ls_dim3){4, 1, 1}, (ls_dim3){32, 1, 1},
                               0, NULL, &s), LS_OK);
    assert_true(s.cycles > 0);
    ls_gpu_destroy(g);
}

static void test_config_errors(void **state)
{
    (void)state;
    ls_config c;
    ls_config_default(&c);
    char err[512];
    const char *bad_key[] = { "no_such_key=3", NULL };
    c.sets = bad_key;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "no_such_key"));
    const char *bad_val[] = { "alu_lanes=banana", NULL };
    c.sets = bad_val;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "alu_lanes"));
    c.sets = NULL;
    c.config = "no_such_config";
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "no_such_config"));
    assert_non_null(strstr(err, "gtx480"));
    /* a config file with a bad line: file:line and key */
    char path[] = "/tmp/lockstep_cfg_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    fprintf(fp, "# comment\nnum_sms = 4\nsfu_lanes = -3\n");
    fclose(fp);
    c.config = path;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, ":3"));
    assert_non_null(strstr(err, "sfu_lanes"));
    remove(path);
}

static void test_config_dump(void **state)
{
    (void)state;
    ls_config c;
    ls_config_default(&c);
    c.config = "fx5800";
    const char *sets[] = { "num_sms=7", NULL };
    c.sets = sets;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    char err[256];
    assert_int_equal(ls_config_dump(&c, fp, err, sizeof err), LS_OK);
    fclose(fp);
    assert_non_null(strstr(buf, "num_sms"));
    char *p = strstr(buf, "\nnum_sms");
    assert_non_null(p);
    assert_non_null(strstr(p, "7"));
    assert_non_null(strstr(buf, "sched_policy"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timing_matches_functional),
        cmocka_unit_test(test_timing_deterministic),
        cmocka_unit_test(test_timing_deadlock_report),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_config_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
