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

/* Runs workload w in mode on config with overrides sets (NULL: none);
 * returns its digest and stats. */
static int run_wl_set(const struct workload *w, ls_mode mode, const char *config,
                      const char *const *sets, uint64_t *digest, ls_stats *total)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = mode;
    c.config = config;
    c.sets = sets;
    char err[512];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    const struct wl_ptx_blob *b = wl_ptx_find(w->name);
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

static int run_wl(const struct workload *w, ls_mode mode, const char *config,
                  uint64_t *digest, ls_stats *total)
{
    return run_wl_set(w, mode, config, NULL, digest, total);
}

/* The instruction cache (icache_size): every block fetch is looked up,
 * the first of each line misses, a slower fill costs cycles, no cache
 * counts nothing; results never change. */
static void test_icache(void **state)
{
    (void)state;
    const struct workload *w = wl_find("fwt");
    assert_non_null(w);
    const char *off[] = { "icache_size=0", NULL };
    const char *on[] = { "icache_size=2048", NULL };
    const char *slow[] = { "icache_size=2048", "icache_miss_latency=2000", NULL };
    uint64_t d0, d1, d2;
    ls_stats a, b, s2;
    run_wl_set(w, LS_MODE_TIMING, "gtx480", off, &d0, &a);
    run_wl_set(w, LS_MODE_TIMING, "gtx480", on, &d1, &b);
    run_wl_set(w, LS_MODE_TIMING, "gtx480", slow, &d2, &s2);
    assert_true(d0 == d1 && d1 == d2);
    assert_int_equal(a.icache_accesses, 0);
    assert_true(b.icache_accesses > 0);
    assert_true(b.icache_misses > 0 && b.icache_misses < b.icache_accesses);
    assert_int_equal(s2.icache_misses, b.icache_misses);
    assert_true(b.cycles > a.cycles);
    assert_true(s2.cycles > b.cycles + 2000);
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
        /* the stall breakdown partitions the idle SM-cycles */
        const ls_stall_stats *k = &st.stall;
        assert_true(st.idle_cycles == k->no_warps + k->ibuffer + k->scoreboard +
                                      k->barrier + k->pipe_busy + k->mem_wait);
        assert_true(st.idle_cycles <= st.cycles * 15);
        /* every issued warp instruction is in the stack-depth histogram */
        uint64_t h = 0;
        for (unsigned i = 0; i < LS_STACK_HIST; i++)
            h += st.stack_depth_hist[i];
        assert_true(h == st.warp_insts);
        assert_true(st.stack_depth_hist[0] == 0);
        /* global traffic reached the caches */
        assert_true(st.l1d.accesses > 0 || st.l2.accesses > 0);
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


/* Kernels of test_api.c's synchronisation cases, run in timing mode. */
#include "sync_kernels.h"

static ls_gpu *mk_timing(uint64_t budget)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_TIMING;
    c.max_warp_insts = budget;
    char err[256];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    return g;
}

static void test_timing_sync_cases(void **state)
{
    (void)state;
    ls_gpu *g = mk_timing(1000);
    ls_module *m;
    ls_stats s;
    /* an endless loop: the instruction budget ends it with a report */
    assert_int_equal(ls_module_load_text(g, "spin.ptx", SPIN, strlen(SPIN), &m), LS_OK);
    assert_int_equal(ls_launch(g, m, "spin", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1},
                               0, NULL, &s), LS_ERR_DEADLOCK);
    const char *e = ls_gpu_error(g);
    assert_non_null(strstr(e, "budget"));
    assert_non_null(strstr(e, "1000"));
    assert_non_null(strstr(e, "spin.ptx:"));
    assert_int_equal(s.warp_insts, 1000);
    /* many warps on many SMs: the budget is still exact */
    assert_int_equal(ls_launch(g, m, "spin", (ls_dim3){40, 1, 1}, (ls_dim3){128, 1, 1},
                               0, NULL, &s), LS_ERR_DEADLOCK);
    assert_int_equal(s.warp_insts, 1000);
    ls_gpu_destroy(g);
    /* exited threads count as arrived at a barrier */
    g = mk_timing(100000);
    assert_int_equal(ls_module_load_text(g, "eb.ptx", EXITBAR, strlen(EXITBAR), &m), LS_OK);
    ls_dptr q;
    uint32_t h[32];
    assert_int_equal(ls_malloc(g, &q, sizeof h), LS_OK);
    void *args[] = { &q };
    if (ls_launch(g, m, "exitbar", (ls_dim3){1, 1, 1}, (ls_dim3){96, 1, 1}, 0, args,
                  &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, h, q, sizeof h), LS_OK);
    for (int i = 0; i < 32; i++)
        assert_int_equal(h[i], 32);
    /* a warp spinning on a shared flag another warp sets: the schedulers
     * interleave the warps, so it finishes */
    assert_int_equal(ls_module_load_text(g, "flag.ptx", FLAG, strlen(FLAG), &m), LS_OK);
    if (ls_launch(g, m, "flag", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1}, 0, args,
                  &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, h, q, 4), LS_OK);
    assert_int_equal(h[0], 7);
    assert_true(s.stall.barrier == 0);
    /* named barrier with bar.arrive (producer) and bar.sync (consumer) */
    assert_int_equal(ls_module_load_text(g, "pc.ptx", PRODCONS, strlen(PRODCONS), &m), LS_OK);
    if (ls_launch(g, m, "pc", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1}, 0, args,
                  &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, h, q, sizeof h), LS_OK);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(h[i], 3 * i);
    ls_gpu_destroy(g);
}


/* Per-thread local memory in timing mode: each thread stores to and
 * reloads from its .local array; 8 CTAs over the SMs' warp slots. */
static const char *LOCALK = HDR
    ".visible .entry loc(\n .param .u64 q\n)\n{\n"
    " .local .align 4 .b8 buf[16];\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
    " mov.u32 %r1, %tid.x;\n mov.u32 %r2, %ctaid.x;\n mov.u32 %r3, %ntid.x;\n"
    " mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    " mov.u64 %rd1, buf;\n"
    " and.b32 %r5, %r4, 3;\n mul.wide.u32 %rd2, %r5, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.local.u32 [%rd3], %r4;\n"
    " ld.local.u32 %r6, [%rd3];\n"
    " add.u32 %r7, %r6, 5;\n"
    " ld.param.u64 %rd4, [q];\n cvta.to.global.u64 %rd5, %rd4;\n"
    " mul.wide.u32 %rd6, %r4, 4;\n add.s64 %rd7, %rd5, %rd6;\n"
    " st.global.u32 [%rd7], %r7;\n ret;\n}\n";

static void test_timing_local_memory(void **state)
{
    (void)state;
    ls_gpu *g = mk_timing(1000000);
    ls_module *m;
    assert_int_equal(ls_module_load_text(g, "loc.ptx", LOCALK, strlen(LOCALK), &m), LS_OK);
    enum { N = 8 * 256 };
    ls_dptr q;
    assert_int_equal(ls_malloc(g, &q, N * 4), LS_OK);
    void *args[] = { &q };
    ls_stats s;
    if (ls_launch(g, m, "loc", (ls_dim3){8, 1, 1}, (ls_dim3){256, 1, 1}, 0, args, &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    static uint32_t h[N];
    assert_int_equal(ls_memcpy_dtoh(g, h, q, sizeof h), LS_OK);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(h[i], i + 5);
    /* local memory is interleaved per word across the warp: the 4
     * distinct offsets of a warp's local access are 4 lines (not 32),
     * for the local store and the load, plus 1 line of global store */
    if (s.l1d.accesses != 9 * (N / 32))
        fail_msg("L1D accesses %llu, want %u", (unsigned long long)s.l1d.accesses,
                 9 * (N / 32));
    ls_gpu_destroy(g);
}


/* Two timing GPUs in one process share nothing: interleaving launches on
 * a second GPU (another config) leaves the first GPU's cycles unchanged. */
static uint64_t loc_cycles(ls_gpu *g, ls_module *m, ls_dptr q)
{
    void *args[] = { &q };
    ls_stats s;
    if (ls_launch(g, m, "loc", (ls_dim3){8, 1, 1}, (ls_dim3){256, 1, 1}, 0, args, &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    return s.cycles;
}

static void test_two_timing_gpus(void **state)
{
    (void)state;
    ls_gpu *a = mk_timing(1000000);
    ls_config c;
    ls_config_default(&c);
    c.config = "fx5800";
    char err[256];
    ls_gpu *b = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(b);
    ls_module *ma, *mb;
    assert_int_equal(ls_module_load_text(a, "loc.ptx", LOCALK, strlen(LOCALK), &ma), LS_OK);
    assert_int_equal(ls_module_load_text(b, "loc.ptx", LOCALK, strlen(LOCALK), &mb), LS_OK);
    ls_dptr qa, qb;
    assert_int_equal(ls_malloc(a, &qa, 8 * 256 * 4), LS_OK);
    assert_int_equal(ls_malloc(b, &qb, 8 * 256 * 4), LS_OK);
    uint64_t a1 = loc_cycles(a, ma, qa), a2 = loc_cycles(a, ma, qa);
    ls_gpu_destroy(a);
    a = mk_timing(1000000);
    assert_int_equal(ls_module_load_text(a, "loc.ptx", LOCALK, strlen(LOCALK), &ma), LS_OK);
    assert_int_equal(ls_malloc(a, &qa, 8 * 256 * 4), LS_OK);
    uint64_t x1 = loc_cycles(a, ma, qa);
    uint64_t y = loc_cycles(b, mb, qb);
    uint64_t x2 = loc_cycles(a, ma, qa);
    assert_true(a1 == x1 && a2 == x2);
    assert_true(y > 0);
    ls_gpu_destroy(a);
    ls_gpu_destroy(b);
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
        cmocka_unit_test(test_icache),
        cmocka_unit_test(test_timing_deadlock_report),
        cmocka_unit_test(test_timing_sync_cases),
        cmocka_unit_test(test_timing_local_memory),
        cmocka_unit_test(test_two_timing_gpus),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_config_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
