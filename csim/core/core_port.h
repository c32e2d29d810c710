/* The SM's memory port: the records the SM timing model (csim/core) hands
 * to the memory hierarchy (csim/mem) and gets back. Data flows one way:
 * csim/core defines and fills these; csim/mem consumes them; the GPU top
 * (csim/gpu) moves them between the two each cycle. No values travel here:
 * functional results were computed at issue; these records carry timing. */
#ifndef CORE_PORT_H
#define CORE_PORT_H

#include <stdbool.h>
#include <stdint.h>

/* One coalesced access of a warp instruction to one cache line. */
struct core_mem_req {
    uint64_t line_addr;     /* device address aligned to the L1D line size  */
    uint32_t tag;           /* the SM's token for the waiting instruction   */
    uint16_t sm;            /* issuing SM                                   */
    uint16_t warp;          /* SM-local warp slot                           */
    uint8_t  sector_mask;   /* 32-byte sectors of the line touched (bit i)  */
    uint8_t  is_write;      /* store: write traffic, no response data       */
    uint8_t  is_atomic;     /* atomic/red: performed at L2, bypasses L1D    */
    uint8_t  space;         /* enum ptx_space after generic resolution      */
    uint16_t bytes;         /* bytes actually accessed in the line          */
    uint32_t pc;            /* PTX source line of the instruction (LAMAR SPP) */
    uint8_t  prio;          /* PCA: the warp holds a token (docs/pca.md)    */
    uint8_t  nlines;        /* lines of the instruction (MTA: its footprint) */
    uint8_t  first;         /* the instruction's first (lowest-lane) line   */
    uint8_t  lock;          /* DAC enq.data prefetch: lock the line in the
                               L1D (one more holder) until an unlock       */
    uint8_t  unlock;        /* DAC deq.data: its access releases one lock  */
};

/* Completion of a request: the data (or the write acknowledgement) for tag
 * is back at the SM. */
struct core_mem_resp {
    uint32_t tag;
    uint16_t sm, warp;
};

#endif
