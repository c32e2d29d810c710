/* Test-only faults of the tensor-core fragment mapping, for
 * `make test-mma-fault` (tests/regress/mma-fault.sh): a build with
 * -DLS_FAULT_MMA_TRANSPOSE reads each 8x8 block of the mma.sync m16n8k8 A
 * fragment transposed and the wmma B fragment in the other layout, and
 * test_ptx_mma and test_nv_wmma must then fail. In every other build the
 * hooks do nothing and compile away. Included by exec_mma.c only. */
#ifndef EXEC_MMA_FAULT_H
#define EXEC_MMA_FAULT_H

#include <stdbool.h>

/* mma.sync A fragment: true with (*r, *c) set when the fault moves
 * element e of lane (group g, thread t); false: the true mapping. */
static inline bool exec_mma_fault_a_pos(bool k8, unsigned g, unsigned t,
                                        unsigned e, unsigned *r, unsigned *c)
{
#ifdef LS_FAULT_MMA_TRANSPOSE
    if (k8) {
        *r = 2 * t + (e & 1) + 8 * (e >> 1);
        *c = g;
        return true;
    }
#endif
    (void)k8, (void)g, (void)t, (void)e, (void)r, (void)c;
    return false;
}

/* wmma B fragment layout as read (colmajor: the instruction's). */
static inline bool exec_mma_fault_b_layout(bool colmajor)
{
#ifdef LS_FAULT_MMA_TRANSPOSE
    return !colmajor;
#else
    return colmajor;
#endif
}

#endif
