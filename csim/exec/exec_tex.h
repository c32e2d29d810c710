/* Texture and surface objects as the exec layer sees them: a resource
 * (texel layout in device memory, channel format) plus a sampler, built
 * by the API (csim/api/api_tex.c) and read by tex/tld4/txq/suld/sust/suq
 * (csim/exec/exec_tex.c). Semantics: docs/textures.md. */
#ifndef EXEC_TEX_H
#define EXEC_TEX_H

#include <stdbool.h>
#include <stdint.h>

#define EXEC_TEX_MAX_LEVELS 16

enum exec_tex_res { EXEC_RES_LINEAR, EXEC_RES_PITCH2D, EXEC_RES_ARRAY };
enum exec_chan_kind { EXEC_CH_SIGNED, EXEC_CH_UNSIGNED, EXEC_CH_FLOAT };
enum exec_addr { EXEC_ADDR_WRAP, EXEC_ADDR_CLAMP, EXEC_ADDR_MIRROR,
                 EXEC_ADDR_BORDER };

/* One texture or surface object. Texel (x, y, z) of layer l at level k
 * lives at base + lvl_off[k] + ((l * dk + z) * hk + y) * pitch[k] + x *
 * elem_bytes, where (wk, hk, dk) = (w, h, d)[k] (h, d are 1 where the
 * geometry lacks the axis). */
struct exec_tex {
    bool live;                  /* created and not destroyed              */
    bool surface;               /* surface object (suld/sust/suq only)    */
    bool raw;                   /* ls_texture_1d/2d shorthand: texels are
                                   raw 32-bit words, no format conversion */
    bool int_oob_zero;          /* integer coordinates outside the texture
                                   read zeros (linear memory, shorthands) */
    uint8_t res;                /* enum exec_tex_res                      */
    uint8_t dims;               /* 1, 2 or 3                              */
    bool cube;                  /* cubemap (faces are layers)             */
    bool layered;               /* a1d/a2d/acube                          */
    uint32_t layers;            /* layers (cube: 6 x cubemaps); 1 if none */
    uint32_t levels;            /* mip levels (1 = not mipmapped)         */
    uint64_t base;
    uint64_t w[EXEC_TEX_MAX_LEVELS], h[EXEC_TEX_MAX_LEVELS],
             d[EXEC_TEX_MAX_LEVELS], pitch[EXEC_TEX_MAX_LEVELS],
             lvl_off[EXEC_TEX_MAX_LEVELS];
    uint64_t span;              /* bytes from base the texels occupy      */
    /* format */
    uint8_t nch;                /* channels: 1, 2 or 4                    */
    uint8_t chbits;             /* bits per channel: 8, 16 or 32         */
    uint8_t kind;               /* enum exec_chan_kind                    */
    uint32_t elem_bytes;        /* nch * chbits / 8 (raw: as bound)      */
    /* sampler */
    bool norm;                  /* normalised coordinates                 */
    bool linear;                /* linear filtering                       */
    bool read_norm;             /* cudaReadModeNormalizedFloat            */
    bool mip_linear;            /* linear filtering between mip levels    */
    uint8_t addr[3];            /* enum exec_addr per dimension           */
    float border[4];
    float mip_bias, min_lod, max_lod;
};

#endif
