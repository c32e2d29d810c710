/* cmocka tests of the functional memory model: out-of-bounds and
 * misaligned faults name the PTX line, kernel, CTA, thread, PC and address;
 * shared/local/generic windows and cvta; sign extension and vectors;
 * global and shared atomics; textures; shfl/vote/activemask. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "exec/exec_mem.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* 1-based line of the first line of text containing needle. */
static unsigned line_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    assert_non_null(p);
    unsigned line = 1;
    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}

static ls_gpu *mk(const char *name, const char *ptx, ls_module **m)
{
    char err[256];
    ls_gpu *g = ls_gpu_create(NULL, err, sizeof err);
    assert_non_null(g);
    if (ls_module_load_text(g, name, ptx, strlen(ptx), m) != LS_OK)
        fail_msg("load %s: %s", name, ls_gpu_error(g));
    return g;
}

static const char *OOB = HDR
    ".visible .entry oob(\n .param .u64 oob_param_0,\n .param .u32 oob_param_1\n)\n{\n"
    " .reg .b32 %r<6>;\n .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [oob_param_0];\n"
    " ld.param.u32 %r2, [oob_param_1];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " mov.u32 %r3, %ctaid.y;\n"
    " shl.b32 %r4, %r3, 5;\n"
    " add.u32 %r5, %r4, %r1;\n"
    " mul.wide.u32 %rd3, %r5, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " cvt.u64.u32 %rd5, %r2;\n"
    " add.s64 %rd6, %rd4, %rd5;\n"
    " st.global.u32 [%rd6], %r1; // the store\n"
    " ret;\n}\n";

static void test_oob_fault(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("oob.ptx", OOB, &m);
    ls_dptr buf;
    assert_int_equal(ls_malloc(g, &buf, 48 * 4), LS_OK);
    uint32_t extra = 0;
    void *args[] = { &buf, &extra };
    ls_status st = ls_launch(g, m, "oob", (ls_dim3){1, 2, 1}, (ls_dim3){32, 1, 1},
                             0, args, NULL);
    assert_int_equal(st, LS_ERR_MEMFAULT);
    const char *e = ls_gpu_error(g);
    char want[128];
    snprintf(want, sizeof want, "oob.ptx:%u:", line_of(OOB, "the store"));
    if (!strstr(e, want))
        fail_msg("no %s in: %s", want, e);
    assert_non_null(strstr(e, "kernel oob"));
    assert_non_null(strstr(e, "CTA (0,1,0)"));
    assert_non_null(strstr(e, "thread (16,0,0)"));
    assert_non_null(strstr(e, "pc 11"));
    assert_non_null(strstr(e, "out-of-bounds global store of 4 bytes"));
    snprintf(want, sizeof want, "0x%llx", (unsigned long long)(buf + 48 * 4));
    if (!strstr(e, want))
        fail_msg("no address %s in: %s", want, e);
    /* the stores before the fault happened; memory is intact */
    uint32_t h[48];
    assert_int_equal(ls_memcpy_dtoh(g, h, buf, sizeof h), LS_OK);
    assert_int_equal(h[33], 1);
    ls_gpu_destroy(g);
}

static void test_misaligned_fault(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("oob.ptx", OOB, &m);
    ls_dptr buf;
    assert_int_equal(ls_malloc(g, &buf, 64 * 4), LS_OK);
    uint32_t extra = 2;
    void *args[] = { &buf, &extra };
    ls_status st = ls_launch(g, m, "oob", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1},
                             0, args, NULL);
    assert_int_equal(st, LS_ERR_MEMFAULT);
    const char *e = ls_gpu_error(g);
    assert_non_null(strstr(e, "misaligned global store of 4 bytes"));
    assert_non_null(strstr(e, "thread (0,0,0)"));
    char want[64];
    snprintf(want, sizeof want, "0x%llx", (unsigned long long)(buf + 2));
    assert_non_null(strstr(e, want));
    /* a null pointer is a fault too, and the GPU stays usable */
    ls_dptr zero = 0;
    extra = 0;
    void *args0[] = { &zero, &extra };
    assert_int_equal(ls_launch(g, m, "oob", (ls_dim3){1, 1, 1},
                               (ls_dim3){1, 1, 1}, 0, args0, NULL),
                     LS_ERR_MEMFAULT);
    assert_non_null(strstr(ls_gpu_error(g), "null pointer"));
    args[0] = &buf;
    assert_int_equal(ls_launch(g, m, "oob", (ls_dim3){1, 1, 1},
                               (ls_dim3){32, 1, 1}, 0, args, NULL), LS_OK);
    ls_gpu_destroy(g);
}

static const char *WIN = HDR
    ".visible .entry win(\n .param .u64 win_param_0\n)\n{\n"
    " .reg .b32 %r<9>;\n .reg .b64 %rd<12>;\n"
    " .shared .align 4 .b8 sbuf[128];\n"
    " .local .align 4 .b8 lbuf[16];\n"
    " ld.param.u64 %rd1, [win_param_0];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " shl.b32 %r2, %r1, 2;\n"
    " mov.u32 %r3, sbuf;\n"
    " add.u32 %r4, %r3, %r2;\n"
    " st.shared.u32 [%r4], %r1;\n"
    " bar.sync 0;\n"
    " mov.u64 %rd3, sbuf;\n"
    " cvta.shared.u64 %rd4, %rd3;\n"
    " add.u32 %r5, %r1, 1;\n"
    " and.b32 %r5, %r5, 31;\n"
    " shl.b32 %r5, %r5, 2;\n"
    " cvt.u64.u32 %rd5, %r5;\n"
    " add.s64 %rd6, %rd4, %rd5;\n"
    " ld.u32 %r6, [%rd6];\n"
    " mov.u64 %rd7, lbuf;\n"
    " mul.lo.u32 %r7, %r1, 3;\n"
    " st.local.u32 [%rd7+4], %r7;\n"
    " cvta.local.u64 %rd8, %rd7;\n"
    " ld.u32 %r7, [%rd8+4];\n"
    " add.u32 %r6, %r6, %r7;\n"
    " cvta.to.shared.u64 %rd9, %rd6;\n"
    " cvt.u32.u64 %r5, %rd9;\n"
    " ld.shared.u32 %r8, [%r5];\n"
    " add.u32 %r6, %r6, %r8;\n"
    " mul.wide.u32 %rd10, %r1, 4;\n"
    " add.s64 %rd11, %rd2, %rd10;\n"
    " st.global.u32 [%rd11], %r6;\n"
    " st.global.u64 [%rd2+128], %rd4;\n"
    " st.global.u64 [%rd2+136], %rd8;\n"
    " mov.u64 %rd9, win_param_0;\n"
    " cvta.param.u64 %rd10, %rd9;\n"
    " ld.u64 %rd11, [%rd10];\n"
    " st.global.u64 [%rd2+144], %rd11;\n"
    " ret;\n}\n";

static void test_windows(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("win.ptx", WIN, &m);
    ls_dptr buf;
    assert_int_equal(ls_malloc(g, &buf, 152), LS_OK);
    void *args[] = { &buf };
    if (ls_launch(g, m, "win", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1}, 0,
                  args, NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    uint32_t h[38];
    assert_int_equal(ls_memcpy_dtoh(g, h, buf, sizeof h), LS_OK);
    for (uint32_t t = 0; t < 32; t++)
        assert_int_equal(h[t], 2 * ((t + 1) % 32) + 3 * t);
    uint64_t gsh, gloc;
    memcpy(&gsh, &h[32], 8);
    memcpy(&gloc, &h[34], 8);
    assert_true(gsh >= EXEC_SHARED_WINDOW && gsh < EXEC_SHARED_WINDOW + EXEC_WINDOW_BYTES);
    assert_true(gloc >= EXEC_LOCAL_WINDOW && gloc < EXEC_LOCAL_WINDOW + EXEC_WINDOW_BYTES);
    uint64_t pv;                       /* kernel param read through generic */
    memcpy(&pv, &h[36], 8);
    assert_int_equal(pv, buf);
    ls_gpu_destroy(g);
}

static const char *SHOOB = HDR
    ".visible .entry sh(\n .param .u32 sh_param_0\n)\n{\n"
    " .reg .b32 %r<4>;\n"
    " .shared .align 4 .b8 sb[64];\n"
    " ld.param.u32 %r1, [sh_param_0];\n"
    " mov.u32 %r2, sb;\n"
    " add.u32 %r3, %r2, %r1;\n"
    " st.shared.u32 [%r3], %r1;\n"
    " ret;\n}\n";

static void test_shared_oob(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("sh.ptx", SHOOB, &m);
    uint32_t off = 60;
    void *args[] = { &off };
    assert_int_equal(ls_launch(g, m, "sh", (ls_dim3){1, 1, 1}, (ls_dim3){1, 1, 1},
                               0, args, NULL), LS_OK);
    off = 64;
    assert_int_equal(ls_launch(g, m, "sh", (ls_dim3){1, 1, 1}, (ls_dim3){1, 1, 1},
                               0, args, NULL), LS_ERR_MEMFAULT);
    assert_non_null(strstr(ls_gpu_error(g), "out-of-bounds shared store"));
    /* dynamic shared memory extends the segment */
    assert_int_equal(ls_launch(g, m, "sh", (ls_dim3){1, 1, 1}, (ls_dim3){1, 1, 1},
                               16, args, NULL), LS_OK);
    ls_gpu_destroy(g);
}

static const char *ATOM = HDR
    ".visible .entry at(\n .param .u64 at_param_0,\n .param .u64 at_param_1\n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<12>;\n .reg .f32 %f<3>;\n .reg .b64 %rd<8>;\n"
    " .shared .align 4 .b8 smax[4];\n"
    " ld.param.u64 %rd1, [at_param_0];\n"
    " ld.param.u64 %rd2, [at_param_1];\n"
    " cvta.to.global.u64 %rd3, %rd1;\n"
    " cvta.to.global.u64 %rd4, %rd2;\n"
    " mov.u32 %r1, %tid.x;\n"
    " atom.global.add.u32 %r2, [%rd3], 1;\n"
    " mul.wide.u32 %rd5, %r1, 4;\n"
    " add.s64 %rd6, %rd4, %rd5;\n"
    " st.global.u32 [%rd6], %r2;\n"
    " mov.u32 %r10, 40;\n"
    " sub.s32 %r3, %r10, %r1;\n"
    " atom.global.max.s32 %r4, [%rd3+4], %r3;\n"
    " atom.global.cas.b32 %r5, [%rd3+8], %r1, 100;\n"
    " atom.global.inc.u32 %r6, [%rd3+12], 9;\n"
    " mov.f32 %f1, 0f3F000000;\n"
    " atom.global.add.f32 %f2, [%rd3+16], %f1;\n"
    " red.global.add.u32 [%rd3+20], %r1;\n"
    " setp.eq.u32 %p1, %r1, 0;\n"
    " mov.u32 %r11, 5;\n"
    " @%p1 st.shared.u32 [smax], %r11;\n"
    " bar.sync 0;\n"
    " atom.shared.max.u32 %r7, [smax], %r1;\n"
    " bar.sync 0;\n"
    " ld.shared.u32 %r8, [smax];\n"
    " st.global.u32 [%rd3+24], %r8;\n"
    " atom.global.exch.b32 %r9, [%rd3+28], %r1;\n"
    " atom.global.dec.u32 %r9, [%rd3+32], 3;\n"
    " atom.global.min.s32 %r9, [%rd3+36], %r3;\n"
    " atom.global.or.b32 %r9, [%rd3+40], %r1;\n"
    " ret;\n}\n";

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void test_atomics(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("atom.ptx", ATOM, &m);
    ls_dptr cnt, olds;
    assert_int_equal(ls_malloc(g, &cnt, 11 * 4), LS_OK);
    assert_int_equal(ls_malloc(g, &olds, 64 * 4), LS_OK);
    int32_t init[11] = {0, -100, 0, 0, 0, 0, 0, 0, 0, 1000, 0};
    assert_int_equal(ls_memcpy_htod(g, cnt, init, sizeof init), LS_OK);
    void *args[] = { &cnt, &olds };
    if (ls_launch(g, m, "at", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1}, 0, args,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    uint32_t c[11], o[64];
    assert_int_equal(ls_memcpy_dtoh(g, c, cnt, sizeof c), LS_OK);
    assert_int_equal(ls_memcpy_dtoh(g, o, olds, sizeof o), LS_OK);
    assert_int_equal(c[0], 64);
    qsort(o, 64, 4, cmp_u32);
    for (uint32_t i = 0; i < 64; i++)
        assert_int_equal(o[i], i);             /* every old value once */
    assert_int_equal((int32_t)c[1], 40);
    assert_int_equal(c[2], 100);
    assert_int_equal(c[3], 64 % 10);
    float f;
    memcpy(&f, &c[4], 4);
    assert_true(f == 32.0f);
    assert_int_equal(c[5], 63 * 64 / 2);
    assert_int_equal(c[6], 63);
    assert_int_equal(c[7], 63);
    assert_int_equal(c[8], 0);                 /* dec wraps every 4 */
    assert_int_equal((int32_t)c[9], 40 - 63);
    assert_int_equal(c[10], 63);
    ls_gpu_destroy(g);
}

static const char *SEXT = HDR
    ".visible .entry sx(\n .param .u64 sx_param_0\n)\n{\n"
    " .reg .b16 %rs<3>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [sx_param_0];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " ld.global.s8 %r1, [%rd2];\n"
    " ld.global.u8 %r2, [%rd2];\n"
    " ld.global.s16 %r3, [%rd2+2];\n"
    " ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd2+16];\n"
    " ld.global.v4.u8 {%rs1, %rs2, _, _}, [%rd2+4];\n"
    " cvt.u32.u16 %r8, %rs1;\n"
    " cvt.u32.u16 %r9, %rs2;\n"
    " st.global.v2.u32 [%rd2+32], {%r1, %r2};\n"
    " st.global.v4.u32 [%rd2+48], {%r3, %r4, %r8, %r9};\n"
    " st.global.u32 [%rd2+64], %r7;\n"
    " ret;\n}\n";

static void test_sign_extension_and_vectors(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("sx.ptx", SEXT, &m);
    ls_dptr b;
    assert_int_equal(ls_malloc(g, &b, 80), LS_OK);
    uint8_t init[80] = {0};
    init[0] = 0x80;
    init[2] = 0x00; init[3] = 0xff;            /* s16 0xff00 */
    init[4] = 0xfe; init[5] = 0x07;
    uint32_t v4[4] = {11, 22, 33, 44};
    memcpy(init + 16, v4, 16);
    assert_int_equal(ls_memcpy_htod(g, b, init, sizeof init), LS_OK);
    void *args[] = { &b };
    if (ls_launch(g, m, "sx", (ls_dim3){1, 1, 1}, (ls_dim3){1, 1, 1}, 0, args,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    uint32_t h[20];
    assert_int_equal(ls_memcpy_dtoh(g, h, b, sizeof h), LS_OK);
    assert_int_equal(h[8], 0xffffff80u);
    assert_int_equal(h[9], 0x80u);
    assert_int_equal(h[12], 0xffffff00u);
    assert_int_equal(h[13], 11);
    assert_int_equal(h[14], 0xfe);
    assert_int_equal(h[15], 0x07);
    assert_int_equal(h[16], 44);
    ls_gpu_destroy(g);
}

static const char *TEX = HDR
    ".visible .entry tx(\n .param .u64 tx_param_0,\n .param .u64 tx_param_1\n)\n{\n"
    " .reg .b32 %r<3>;\n .reg .f32 %f<5>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [tx_param_0];\n"
    " ld.param.u64 %rd2, [tx_param_1];\n"
    " cvta.to.global.u64 %rd3, %rd2;\n"
    " mov.u32 %r1, %tid.x;\n"
    " tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
    " mul.wide.u32 %rd4, %r1, 8;\n"
    " add.s64 %rd5, %rd3, %rd4;\n"
    " st.global.v2.f32 [%rd5], {%f1, %f4};\n"
    " ret;\n}\n";

static void test_texture(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("tex.ptx", TEX, &m);
    ls_dptr src, out;
    assert_int_equal(ls_malloc(g, &src, 8 * 16), LS_OK);
    assert_int_equal(ls_malloc(g, &out, 8 * 8), LS_OK);
    float s[32];
    for (int i = 0; i < 32; i++)
        s[i] = (float)i;
    assert_int_equal(ls_memcpy_htod(g, src, s, sizeof s), LS_OK);
    uint64_t h = 12345;
    void *args[] = { &h, &out };
    assert_int_equal(ls_launch(g, m, "tx", (ls_dim3){1, 1, 1}, (ls_dim3){8, 1, 1},
                               0, args, NULL), LS_ERR_MEMFAULT);
    assert_non_null(strstr(ls_gpu_error(g), "not bound"));
    assert_int_equal(ls_texture_1d(g, src, 6, 16, &h), LS_OK);
    if (ls_launch(g, m, "tx", (ls_dim3){1, 1, 1}, (ls_dim3){8, 1, 1}, 0, args,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    float r[16];
    assert_int_equal(ls_memcpy_dtoh(g, r, out, sizeof r), LS_OK);
    for (int t = 0; t < 8; t++) {
        assert_true(r[2 * t] == (t < 6 ? (float)(4 * t) : 0.0f));
        assert_true(r[2 * t + 1] == (t < 6 ? (float)(4 * t + 3) : 0.0f));
    }
    ls_gpu_destroy(g);
}

static const char *WARPOPS = HDR
    ".visible .entry wk(\n .param .u64 wk_param_0\n)\n{\n"
    " .reg .pred %p<8>;\n .reg .b32 %r<24>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [wk_param_0];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %laneid;\n"
    " mul.lo.u32 %r2, %r1, 10;\n"
    " shfl.sync.down.b32 %r3|%p1, %r2, 3, 31, -1;\n"
    " shfl.sync.up.b32 %r4|%p2, %r2, 2, 0x1800, -1;\n"
    " shfl.sync.bfly.b32 %r5, %r2, 5, 31, -1;\n"
    " shfl.sync.idx.b32 %r6, %r2, 9, 0x181f, -1;\n"
    " and.b32 %r7, %r1, 1;\n"
    " setp.eq.u32 %p3, %r7, 1;\n"
    " vote.sync.ballot.b32 %r8, %p3, -1;\n"
    " vote.sync.any.pred %p4, %p3, -1;\n"
    " vote.sync.all.pred %p5, %p3, -1;\n"
    " vote.sync.uni.pred %p6, %p3, -1;\n"
    " selp.u32 %r11, 1, 0, %p1;\n"
    " selp.u32 %r12, 1, 0, %p2;\n"
    " selp.u32 %r13, 1, 0, %p4;\n"
    " selp.u32 %r14, 2, 0, %p5;\n"
    " selp.u32 %r15, 4, 0, %p6;\n"
    " or.b32 %r13, %r13, %r14;\n"
    " or.b32 %r13, %r13, %r15;\n"
    " mov.u32 %r9, 0;\n"
    " mov.u32 %r10, 0;\n"
    " setp.ge.u32 %p7, %r1, 20;\n"
    " @%p7 bra SKIP;\n"
    " activemask.b32 %r9;\n"
    " vote.sync.ballot.b32 %r10, %p3, 0xff;\n"
    " bar.warp.sync %r9;\n"
    "SKIP:\n"
    " mul.wide.u32 %rd3, %r1, 40;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.v2.u32 [%rd4], {%r3, %r11};\n"
    " st.global.v2.u32 [%rd4+8], {%r4, %r12};\n"
    " st.global.v2.u32 [%rd4+16], {%r5, %r6};\n"
    " st.global.v2.u32 [%rd4+24], {%r8, %r13};\n"
    " st.global.v2.u32 [%rd4+32], {%r9, %r10};\n"
    " ret;\n}\n";

static void test_warp_collectives(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("wk.ptx", WARPOPS, &m);
    ls_dptr b;
    assert_int_equal(ls_malloc(g, &b, 32 * 40), LS_OK);
    void *args[] = { &b };
    if (ls_launch(g, m, "wk", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1}, 0, args,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    uint32_t h[32 * 10];
    assert_int_equal(ls_memcpy_dtoh(g, h, b, sizeof h), LS_OK);
    for (uint32_t l = 0; l < 32; l++) {
        const uint32_t *r = &h[l * 10];
        uint32_t down = l + 3 <= 31 ? l + 3 : l;
        uint32_t up = l - 2 >= (l & ~7u) && l >= 2 ? l - 2 : l;
        assert_int_equal(r[0], 10 * down);
        assert_int_equal(r[1], l + 3 <= 31);
        assert_int_equal(r[2], 10 * up);
        assert_int_equal(r[3], (l & 7) >= 2);
        assert_int_equal(r[4], 10 * (l ^ 5));
        assert_int_equal(r[5], 10 * ((l & ~7u) + 1));
        assert_int_equal(r[6], 0xaaaaaaaau);
        assert_int_equal(r[7], 1);              /* any, not all, not uniform */
        assert_int_equal(r[8], l < 20 ? 0x000fffffu : 0);
        assert_int_equal(r[9], l < 20 ? 0xaau : 0); /* voters: membermask */
    }
    ls_gpu_destroy(g);
}

/* nvcc -O3 of out[y*w+x] = tex2D<uint4>(tex, x * 1.5f - 1.0f, y + 0.5f) */
static const char *TEX2 = HDR
    ".visible .entry t2(\n .param .u64 t2_param_0,\n .param .u64 t2_param_1,\n"
    " .param .u32 t2_param_2\n)\n{\n"
    " .reg .f32 %f<5>;\n .reg .b32 %r<9>;\n .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [t2_param_0];\n"
    " ld.param.u64 %rd2, [t2_param_1];\n"
    " ld.param.u32 %r1, [t2_param_2];\n"
    " cvta.to.global.u64 %rd3, %rd2;\n"
    " mov.u32 %r2, %tid.x;\n"
    " mov.u32 %r3, %ctaid.x;\n"
    " cvt.rn.f32.s32 %f1, %r2;\n"
    " fma.rn.f32 %f2, %f1, 0f3FC00000, 0fBF800000;\n"
    " cvt.rn.f32.s32 %f3, %r3;\n"
    " add.f32 %f4, %f3, 0f3F000000;\n"
    " mad.lo.s32 %r4, %r3, %r1, %r2;\n"
    " mul.wide.s32 %rd4, %r4, 16;\n"
    " add.s64 %rd5, %rd3, %rd4;\n"
    " tex.2d.v4.u32.f32 {%r5, %r6, %r7, %r8}, [%rd1, {%f2, %f4}];\n"
    " st.global.v4.u32 [%rd5], {%r5, %r6, %r7, %r8};\n"
    " ret;\n}\n";

static void test_texture_2d(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("tex2.ptx", TEX2, &m);
    enum { W = 5, H = 3, PITCH = 96, OW = 8 };   /* texels are uint4 */
    ls_dptr src, out;
    assert_int_equal(ls_malloc(g, &src, PITCH * H), LS_OK);
    assert_int_equal(ls_malloc(g, &out, OW * H * 16), LS_OK);
    uint32_t img[PITCH * H / 4];
    memset(img, 0xee, sizeof img);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            for (uint32_t k = 0; k < 4; k++)
                img[(y * PITCH + x * 16) / 4 + k] = 1000 * y + 10 * x + k;
    assert_int_equal(ls_memcpy_htod(g, src, img, sizeof img), LS_OK);
    uint64_t h;
    assert_int_equal(ls_texture_2d(g, src, W, H, 16 * W - 1, 16, &h), LS_ERR_INVALID);
    assert_int_equal(ls_texture_2d(g, src, W, H, PITCH, 16, &h), LS_OK);
    int32_t w = OW;
    void *args[] = { &h, &out, &w };
    if (ls_launch(g, m, "t2", (ls_dim3){H, 1, 1}, (ls_dim3){OW, 1, 1}, 0, args,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    uint32_t r[OW * H * 4];
    assert_int_equal(ls_memcpy_dtoh(g, r, out, sizeof r), LS_OK);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < OW; x++) {
            float fx = (float)x * 1.5f - 1.0f;     /* floor, clamp to edge */
            uint32_t tx = fx <= 0.0f ? 0 : (uint32_t)fx;
            if (tx > W - 1)
                tx = W - 1;
            for (uint32_t k = 0; k < 4; k++)
                assert_int_equal(r[(y * OW + x) * 4 + k], 1000 * y + 10 * tx + k);
        }
    /* a 1-D handle is not a 2-D texture */
    uint64_t h1;
    assert_int_equal(ls_texture_1d(g, src, 4, 16, &h1), LS_OK);
    args[0] = &h1;
    assert_int_equal(ls_launch(g, m, "t2", (ls_dim3){1, 1, 1}, (ls_dim3){1, 1, 1},
                               0, args, NULL), LS_ERR_MEMFAULT);
    assert_non_null(strstr(ls_gpu_error(g), "not bound to a 2-D texture"));
    ls_gpu_destroy(g);
}

/* Older nvcc: a module-scope .texref named in the tex instruction. */
static const char *TEXREF = HDR
    ".global .texref tr;\n"
    ".visible .entry k(\n .param .u64 k_param_0\n)\n{\n"
    " .reg .b32 %r<3>;\n .reg .f32 %f<5>;\n .reg .b64 %rd<5>;\n"
    " ld.param.u64 %rd1, [k_param_0];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tr, {%r1}];\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.f32 [%rd4], %f1;\n"
    " ret;\n}\n";

static void test_texref(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("texref.ptx", TEXREF, &m);
    ls_dptr src, out, tr;
    size_t nb = 0;
    assert_int_equal(ls_malloc(g, &src, 64), LS_OK);
    assert_int_equal(ls_malloc(g, &out, 64), LS_OK);
    float v[16];
    for (int i = 0; i < 16; i++)
        v[i] = 1.5f * (float)i;
    assert_int_equal(ls_memcpy_htod(g, src, v, sizeof v), LS_OK);
    assert_int_equal(ls_module_symbol(g, m, "tr", &tr, &nb), LS_OK);
    assert_int_equal(nb, 8);
    void *args[] = { &out };
    assert_int_equal(ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){16, 1, 1},
                               0, args, NULL), LS_ERR_MEMFAULT);
    assert_non_null(strstr(ls_gpu_error(g), "texref.ptx:"));
    assert_non_null(strstr(ls_gpu_error(g), "not bound"));
    uint64_t h;
    assert_int_equal(ls_texture_1d(g, src, 12, 4, &h), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, tr, &h, 8), LS_OK);
    if (ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){16, 1, 1}, 0, args,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    float r[16];
    assert_int_equal(ls_memcpy_dtoh(g, r, out, sizeof r), LS_OK);
    for (int i = 0; i < 16; i++)
        assert_true(r[i] == (i < 12 ? 1.5f * (float)i : 0.0f));
    ls_gpu_destroy(g);
}

/* Module-scope static and extern shared variables next to a kernel's own:
 * the dynamic part starts after all static shared memory. */
static const char *MSHARED = HDR
    ".extern .shared .align 16 .b8 dsm[];\n"
    ".shared .align 4 .b8 ssm[64];\n"
    ".visible .entry k(\n .param .u64 k_param_0\n)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<5>;\n"
    " .shared .align 4 .b8 loc[32];\n"
    " ld.param.u64 %rd1, [k_param_0];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " shl.b32 %r2, %r1, 2;\n"
    " mov.u32 %r3, dsm;\n"
    " add.u32 %r4, %r3, %r2;\n"
    " st.shared.u32 [%r4], %r1; // dynamic store\n"
    " mov.u32 %r5, ssm;\n"
    " add.u32 %r6, %r5, %r2;\n"
    " mul.lo.u32 %r7, %r1, 100;\n"
    " st.shared.u32 [%r6], %r7;\n"
    " bar.sync 0;\n"
    " ld.shared.u32 %r7, [%r4];\n"
    " ld.shared.u32 %r3, [%r6];\n"
    " add.u32 %r7, %r7, %r3;\n"
    " mov.u32 %r5, loc;\n"
    " st.shared.u32 [%r5], %r1;\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r7;\n"
    " mov.u32 %r3, dsm;\n"
    " st.global.u32 [%rd2+64], %r3;\n"
    " ret;\n}\n";

static void test_module_shared(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk("msh.ptx", MSHARED, &m);
    ls_dptr o;
    assert_int_equal(ls_malloc(g, &o, 68), LS_OK);
    void *args[] = { &o };
    if (ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){16, 1, 1}, 64, args,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    uint32_t r[17];
    assert_int_equal(ls_memcpy_dtoh(g, r, o, sizeof r), LS_OK);
    for (uint32_t t = 0; t < 16; t++)
        assert_int_equal(r[t], 101 * t);
    assert_int_equal(r[16], 96);               /* after loc[32] and ssm[64] */
    /* one byte short of dynamic memory: the last thread faults */
    assert_int_equal(ls_launch(g, m, "k", (ls_dim3){1, 1, 1}, (ls_dim3){16, 1, 1},
                               63, args, NULL), LS_ERR_MEMFAULT);
    const char *e = ls_gpu_error(g);
    char want[32];
    snprintf(want, sizeof want, "msh.ptx:%u:", line_of(MSHARED, "dynamic store"));
    assert_non_null(strstr(e, want));
    assert_non_null(strstr(e, "thread (15,0,0)"));
    assert_non_null(strstr(e, "shared segment is 159 bytes"));
    ls_gpu_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oob_fault),
        cmocka_unit_test(test_misaligned_fault),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_shared_oob),
        cmocka_unit_test(test_module_shared),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_sign_extension_and_vectors),
        cmocka_unit_test(test_texture),
        cmocka_unit_test(test_texture_2d),
        cmocka_unit_test(test_texref),
        cmocka_unit_test(test_warp_collectives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
