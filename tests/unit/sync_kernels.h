/* PTX kernels of the synchronisation tests, shared by the functional
 * (test_api.c) and timing (test_core_timing.c) suites. */
#ifndef TEST_SYNC_KERNELS_H
#define TEST_SYNC_KERNELS_H

#ifndef HDR
#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"
#endif

/* An infinite loop: only the instruction budget ends it. */
static const char *SPIN = HDR
    ".visible .entry spin()\n{\n"
    " .reg .b32 %r<3>;\n"
    " mov.u32 %r1, 0;\n"
    "LOOP:\n add.u32 %r1, %r1, 1; // spins\n"
    " bra.uni LOOP;\n}\n";

/* Threads that exited count as arrived: half the CTA leaves early. */
static const char *EXITBAR = HDR
    ".visible .entry exitbar(\n .param .u64 q\n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<3>;\n .reg .b64 %rd<5>;\n"
    " .shared .align 4 .b8 s[4];\n"
    " ld.param.u64 %rd1, [q];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.ge.u32 %p1, %r1, 32;\n"
    " @%p1 bra OUT;\n"
    " atom.shared.add.u32 %r2, [s], 1;\n"
    " bar.sync 0;\n"
    " ld.shared.u32 %r2, [s];\n"
    " mul.wide.u32 %rd3, %r1, 4;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r2;\n"
    "OUT:\n ret;\n}\n";

/* Warp 0 spins on a shared flag that warp 1 sets: only time slicing
 * between the warps of a CTA lets it finish. */
static const char *FLAG = HDR
    ".visible .entry flag(\n .param .u64 q\n)\n{\n"
    " .reg .pred %p<3>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n"
    " .shared .align 4 .b8 f[4];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.lt.u32 %p1, %r1, 32;\n"
    " @%p1 bra WAIT;\n"
    " mov.u32 %r2, 7;\n"
    " st.volatile.shared.u32 [f], %r2;\n"
    " bra.uni DONE;\n"
    "WAIT:\n ld.volatile.shared.u32 %r3, [f];\n"
    " setp.eq.u32 %p2, %r3, 0;\n"
    " @%p2 bra WAIT;\n"
    " ld.param.u64 %rd1, [q];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " st.global.u32 [%rd2], %r3;\n"
    "DONE:\n ret;\n}\n";

/* Named barrier, producer/consumer: warp 0 writes and bar.arrive's,
 * warp 1 bar.sync's on the same barrier with a count of 64 and reads. */
static const char *PRODCONS = HDR
    ".visible .entry pc(\n .param .u64 q\n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<6>;\n .reg .b64 %rd<5>;\n"
    " .shared .align 4 .b8 buf[128];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mov.u32 %r2, buf;\n"
    " setp.ge.u32 %p1, %r1, 32;\n"
    " @%p1 bra CONS;\n"
    " shl.b32 %r3, %r1, 2;\n"
    " add.u32 %r4, %r2, %r3;\n"
    " mul.lo.u32 %r5, %r1, 3;\n"
    " st.shared.u32 [%r4], %r5;\n"
    " bar.arrive 1, 64;\n"
    " bra.uni DONE;\n"
    "CONS:\n bar.sync 1, 64;\n"
    " sub.u32 %r3, %r1, 32;\n"
    " shl.b32 %r3, %r3, 2;\n"
    " add.u32 %r4, %r2, %r3;\n"
    " ld.shared.u32 %r5, [%r4];\n"
    " ld.param.u64 %rd1, [q];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n"
    " cvt.u64.u32 %rd3, %r3;\n"
    " add.s64 %rd4, %rd2, %rd3;\n"
    " st.global.u32 [%rd4], %r5;\n"
    "DONE:\n ret;\n}\n";

#endif
