/* Sanity tests of the timing model through the public API, on every
 * shipped config (gtx480, fx5800, gtx480-gscalar), with the kernels of tests/timing/timing_sanity.cu (committed PTX
 * read relative to the repository root):
 *  - a compute-bound FMA loop stays under the config's peak IPC;
 *  - a streaming copy moves DRAM data at less than the configured peak
 *    bandwidth and more than half of it;
 *  - re-reading a small array hits in L1 more than 95% of the time.
 * Every figure compared against comes from `ls_config_dump` of the config,
 * none is hard-coded. Results are also checked against the CPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "lockstep.h"

/* The shipped configs; every check runs on each. */
static const char *const configs[] = { "gtx480", "fx5800", "gtx480-gscalar" };
#define NCONFIGS (sizeof configs / sizeof configs[0])
#define PTX_REL "tests/timing/timing_sanity.ptx"

/* Value of key in the effective configuration of CONFIG. */
static double cfg_value(const char *conf, const char *key)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_TIMING;
    c.config = conf;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    char err[512] = "";
    ls_status st = ls_config_dump(&c, f, err, sizeof err);
    fclose(f);
    if (st != LS_OK)
        fail_msg("ls_config_dump(%s): %s", conf, err);
    size_t kl = strlen(key);
    double v = NAN;
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (!strncmp(line, key, kl) && (line[kl] == ' ' || line[kl] == '=')) {
            char *eq = strchr(line, '=');
            if (eq)
                v = strtod(eq + 1, NULL);
            break;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(buf);
    if (isnan(v))
        fail_msg("config %s has no numeric key %s", conf, key);
    return v;
}

/* The committed PTX: from the repository root (where make runs the unit
 * tests), else relative to this source file. */
static ls_gpu *mk_gpu(const char *conf, ls_module **mod)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_TIMING;
    c.config = conf;
    char err[512] = "";
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    if (!g)
        fail_msg("ls_gpu_create(%s): %s", conf, err);
    ls_status st = ls_module_load_file(g, PTX_REL, mod);
    if (st != LS_OK) {
        char alt[1024];
        const char *src = __FILE__;
        const char *cut = strstr(src, "tests/unit/");
        snprintf(alt, sizeof alt, "%.*s%s", cut ? (int)(cut - src) : 0, src, PTX_REL);
        st = ls_module_load_file(g, alt, mod);
    }
    if (st != LS_OK)
        fail_msg("loading %s: %s", PTX_REL, ls_gpu_error(g));
    return g;
}

static void launch(ls_gpu *g, ls_module *m, const char *k, unsigned grid,
                   unsigned block, void **args, ls_stats *s)
{
    ls_dim3 gd = { grid, 1, 1 }, bd = { block, 1, 1 };
    ls_status st = ls_launch(g, m, k, gd, bd, 0, args, s);
    if (st != LS_OK)
        fail_msg("%s: %s: %s", k, ls_status_name(st), ls_gpu_error(g));
    assert_true(s->cycles > 0);
    assert_true(s->warp_insts > 0);
}

/* Peak IPC of the config: each of the num_schedulers warp schedulers of an
 * SM issues at most one warp instruction per cycle, so the GPU issues at
 * most num_sms * num_schedulers warp instructions per cycle. A second bound
 * is the pipelines' throughput: a warp instruction occupies a unit for
 * warp_size / lanes cycles, so an SM completes at most
 * (alu_units*alu_lanes + sfu_units*sfu_lanes + mem_units*mem_lanes) /
 * warp_size warp instructions per cycle. */
static void one_compute_bound_ipc(const char *conf)
{
    double sms = cfg_value(conf, "num_sms"), scheds = cfg_value(conf, "num_schedulers");
    double ws = cfg_value(conf, "warp_size");
    double issue_peak = sms * scheds;
    double pipe_peak = sms * (cfg_value(conf, "alu_units") * cfg_value(conf, "alu_lanes") +
                              cfg_value(conf, "sfu_units") * cfg_value(conf, "sfu_lanes") +
                              cfg_value(conf, "mem_units") * cfg_value(conf, "mem_lanes")) / ws;
    double alu_peak = sms * cfg_value(conf, "alu_units") * cfg_value(conf, "alu_lanes") / ws;

    ls_module *m;
    ls_gpu *g = mk_gpu(conf, &m);
    const unsigned block = 256, grid = (unsigned)sms * 4, n = grid * block;
    const int iters = 64;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    assert_non_null(in);
    assert_non_null(out);
    for (unsigned i = 0; i < n; i++)
        in[i] = (float)(i % 97) * 0.25f;
    ls_dptr din, dout;
    assert_int_equal(ls_malloc(g, &din, n * sizeof *in), LS_OK);
    assert_int_equal(ls_malloc(g, &dout, n * sizeof *out), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, din, in, n * sizeof *in), LS_OK);
    int it = iters;
    void *args[] = { &dout, &din, &it };
    ls_stats s;
    launch(g, m, "fma_loop", grid, block, args, &s);
    assert_int_equal(ls_memcpy_dtoh(g, out, dout, n * sizeof *out), LS_OK);
    for (unsigned i = 0; i < n; i += 61) {
        float x = in[i], a = x, b = x + 1.0f, c = x + 2.0f, d = x + 3.0f;
        for (int k = 0; k < iters; k++) {
            a = fmaf(a, 0.999f, 0.5f);
            b = fmaf(b, 0.998f, 0.25f);
            c = fmaf(c, 0.997f, 0.125f);
            d = fmaf(d, 0.996f, 0.0625f);
        }
        assert_true(out[i] == a + b + c + d);
    }
    double ipc = (double)s.warp_insts / (double)s.cycles;
    print_message("%s fma_loop: %llu warp insts, %llu cycles, IPC %.3f (issue peak "
                  "%.0f, pipeline peak %.2f, ALU peak %.2f)\n", conf,
                  (unsigned long long)s.warp_insts, (unsigned long long)s.cycles,
                  ipc, issue_peak, pipe_peak, alu_peak);
    if (!(ipc < issue_peak))
        fail_msg("%s: IPC %.3f not under the issue peak %.0f", conf, ipc, issue_peak);
    if (!(ipc <= pipe_peak))
        fail_msg("%s: IPC %.3f over the pipeline peak %.2f", conf, ipc, pipe_peak);
    /* compute-bound with 4-way ILP and many warps: well above a tenth of
     * the ALU throughput, or the pipelines are not overlapping at all */
    if (!(ipc > 0.1 * alu_peak))
        fail_msg("%s: IPC %.3f below a tenth of the ALU peak %.2f", conf, ipc, alu_peak);
    free(in);
    free(out);
    ls_gpu_destroy(g);
}

/* DRAM bandwidth of a streaming copy: bytes / (cycles / core clock) is
 * below mem_partitions * dram_bus_bytes * dram_clock and above half. */
static void one_streaming_bandwidth(const char *conf)
{
    double sms = cfg_value(conf, "num_sms");
    double core_hz = cfg_value(conf, "core_clock_mhz") * 1e6;
    double peak = cfg_value(conf, "mem_partitions") * cfg_value(conf, "dram_bus_bytes") *
                  cfg_value(conf, "dram_clock_mhz") * 1e6;
    double l2 = cfg_value(conf, "l2_size");

    ls_module *m;
    ls_gpu *g = mk_gpu(conf, &m);
    /* each array 4x the L2 so the traffic really reaches DRAM */
    size_t bytes = 4 * (size_t)l2, n4 = bytes / 16;
    uint32_t *src = malloc(bytes), *dst = malloc(bytes);
    assert_non_null(src);
    assert_non_null(dst);
    for (size_t i = 0; i < bytes / 4; i++)
        src[i] = (uint32_t)(i * 2654435761u);
    ls_dptr dsrc, ddst;
    assert_int_equal(ls_malloc(g, &dsrc, bytes), LS_OK);
    assert_int_equal(ls_malloc(g, &ddst, bytes), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, dsrc, src, bytes), LS_OK);
    int n = (int)n4;
    void *args[] = { &ddst, &dsrc, &n };
    ls_stats s;
    launch(g, m, "stream_copy", (unsigned)sms * 6, 256, args, &s);
    assert_int_equal(ls_memcpy_dtoh(g, dst, ddst, bytes), LS_OK);
    assert_memory_equal(dst, src, bytes);
    double secs = (double)s.cycles / core_hz;
    double bw = (double)s.dram.bytes / secs;
    print_message("%s stream_copy: %zu bytes copied, %llu DRAM bytes in %llu cycles: "
                  "%.1f GB/s of a %.1f GB/s peak (%.0f%%)\n", conf, bytes,
                  (unsigned long long)s.dram.bytes, (unsigned long long)s.cycles,
                  bw / 1e9, peak / 1e9, 100.0 * bw / peak);
    /* the whole source must have been read from DRAM */
    assert_true(s.dram.bytes >= bytes);
    if (!(bw < peak))
        fail_msg("%s: DRAM bandwidth %.1f GB/s over the peak %.1f GB/s", conf, bw / 1e9, peak / 1e9);
    if (!(bw > 0.5 * peak))
        fail_msg("%s: DRAM bandwidth %.1f GB/s under half the peak %.1f GB/s",
                 conf, bw / 1e9, peak / 1e9);
    free(src);
    free(dst);
    ls_gpu_destroy(g);
}

/* Re-reading a 1 KB array: L1 hit rate over 95%. */
static void one_reread_l1_hits(const char *conf)
{
    double sms = cfg_value(conf, "num_sms");
    ls_module *m;
    ls_gpu *g = mk_gpu(conf, &m);
    const int len = 256, iters = 512;
    const unsigned block = 256, grid = (unsigned)sms * 2, n = grid * block;
    float small[256];
    for (int i = 0; i < len; i++)
        small[i] = (float)i * 0.5f;
    float *out = malloc(n * sizeof *out);
    assert_non_null(out);
    ls_dptr dsmall, dout;
    assert_int_equal(ls_malloc(g, &dsmall, sizeof small), LS_OK);
    assert_int_equal(ls_malloc(g, &dout, n * sizeof *out), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, dsmall, small, sizeof small), LS_OK);
    int l = len, it = iters;
    void *args[] = { &dout, &dsmall, &l, &it };
    ls_stats s;
    launch(g, m, "reread", grid, block, args, &s);
    assert_int_equal(ls_memcpy_dtoh(g, out, dout, n * sizeof *out), LS_OK);
    for (unsigned i = 0; i < n; i += 37) {
        float sum = 0.0f;
        for (int k = 0; k < iters; k++)
            sum += small[((i % block) + 32 * (unsigned)k) & (unsigned)(len - 1)];
        assert_true(out[i] == sum);
    }
    uint64_t warps = (uint64_t)n / 32;
    double rate = s.l1d.accesses ? (double)s.l1d.hits / (double)s.l1d.accesses : 0.0;
    print_message("%s reread: %llu L1D accesses, %llu hits, %llu misses: hit rate %.4f\n", conf,
                  (unsigned long long)s.l1d.accesses, (unsigned long long)s.l1d.hits,
                  (unsigned long long)s.l1d.misses, rate);
    /* one line request per warp load at least */
    assert_true(s.l1d.accesses >= warps * (uint64_t)iters);
    if (!(rate > 0.95))
        fail_msg("%s: L1 hit rate %.4f not above 0.95", conf, rate);
    free(out);
    ls_gpu_destroy(g);
}

/* l1d_kernel_flush: the same re-read launched twice on gtx480-gscalar; with
 * the L1Ds invalidated at each kernel's end (on) the second launch misses
 * cold (its misses near the first's), with them kept (off, GPGPU-Sim
 * 3.2.2) it finds the 1 KB array in the SMs' L1Ds and misses less. */
static uint64_t reread_second_misses(const char *flush, uint64_t *first)
{
    const char *conf = "gtx480-gscalar";
    double sms = cfg_value(conf, "num_sms");
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_TIMING;
    c.config = conf;
    const char *sets[] = { flush, NULL };
    c.sets = sets;
    char err[512] = "";
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    if (!g)
        fail_msg("ls_gpu_create(%s): %s", conf, err);
    ls_module *m;
    assert_int_equal(ls_module_load_file(g, PTX_REL, &m), LS_OK);
    const unsigned block = 256, grid = (unsigned)sms * 2, n = grid * block;
    float small[256];
    for (int i = 0; i < 256; i++)
        small[i] = (float)i;
    ls_dptr dsmall, dout;
    assert_int_equal(ls_malloc(g, &dsmall, sizeof small), LS_OK);
    assert_int_equal(ls_malloc(g, &dout, n * sizeof(float)), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, dsmall, small, sizeof small), LS_OK);
    int l = 256, it = 4;
    void *args[] = { &dout, &dsmall, &l, &it };
    ls_stats s1, s2;
    launch(g, m, "reread", grid, block, args, &s1);
    launch(g, m, "reread", grid, block, args, &s2);
    print_message("%s %s reread twice: L1D misses %llu, then %llu\n", conf, flush,
                  (unsigned long long)s1.l1d.misses, (unsigned long long)s2.l1d.misses);
    ls_gpu_destroy(g);
    *first = s1.l1d.misses;
    return s2.l1d.misses;
}

static void test_l1d_kernel_flush(void **state)
{
    (void)state;
    uint64_t first_on, first_off;
    uint64_t on = reread_second_misses("l1d_kernel_flush=on", &first_on);
    uint64_t off = reread_second_misses("l1d_kernel_flush=off", &first_off);
    assert_int_equal(first_on, first_off);
    assert_true(first_off > 0);
    assert_true(off < on);
}

static void test_compute_bound_ipc(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCONFIGS; i++)
        one_compute_bound_ipc(configs[i]);
}

static void test_streaming_bandwidth(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCONFIGS; i++)
        one_streaming_bandwidth(configs[i]);
}

static void test_reread_l1_hits(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCONFIGS; i++)
        one_reread_l1_hits(configs[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute_bound_ipc),
        cmocka_unit_test(test_streaming_bandwidth),
        cmocka_unit_test(test_reread_l1_hits),
        cmocka_unit_test(test_l1d_kernel_flush),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
