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

/* PORT_OUT body that copies one registered output of a block model to its
 * out struct (`memcpy(out->port, s->r.port)`): a step ends with its .def
 * included under it, port by port rather than `*out = s->r`. A copy of
 * the whole struct in 16-byte pieces loads across the narrower stores that
 * just wrote the registers (and a data array at another 16-byte phase),
 * which the host cannot forward from its store buffer; per port, every
 * load matches the stores before it. */
#define BLK_PORT_COPY_OUT(name, bits, count) \
    memcpy(out->name, s->r.name, sizeof out->name);

#ifdef __cplusplus
}
#endif
#endif
