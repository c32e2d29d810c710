/* One RTL port of a block, as described by its <blk>_ports.def: shared by
 * the standalone testbenches (tb/) and the in-the-loop seam (csim/cosim),
 * and read by the Verilator glue (tb/vl_glue.cpp) to pack the C structs
 * into the RTL's flat port vectors. Header only. */
#ifndef BLK_PORT_H
#define BLK_PORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LS_MAX_PORTS 64

/* One RTL port (from the .def) with its actual size under the current cfg. */
struct ls_port {
    const char *name;
    int is_out;                   /* 0 input, 1 output                    */
    unsigned max_bits, max_count; /* from the .def                        */
    unsigned bits, count;         /* actual RTL size under the cfg        */
    size_t off;                   /* offset of the uint32_t array         */
};

#ifdef __cplusplus
}
#endif
#endif
