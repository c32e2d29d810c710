/* Texture and surface objects of the public API: ls_texture_create,
 * ls_surface_create, ls_texture_destroy and the ls_texture_1d/2d
 * shorthands. Every descriptor is checked here; what the model does not
 * implement is refused with a message naming it (docs/textures.md). */
#include <stdlib.h>
#include <string.h>
#include "gpu/gpu.h"

/* Appends t to the object table; *handle = its handle. */
static ls_status add_object(ls_gpu *gpu, const struct exec_tex *t,
                            uint64_t *handle, const char *who)
{
    if (!gpu_mem_host(gpu, t->base, t->span, who))
        return LS_ERR_INVALID;
    if (gpu->ntex == gpu->texcap) {
        uint32_t nc = gpu->texcap ? gpu->texcap * 2 : 8;
        struct exec_tex *nt = realloc(gpu->tex, nc * sizeof *nt);
        if (!nt)
            return GPU_FAIL(gpu, LS_ERR_NOMEM, "out of host memory");
        gpu->tex = nt;
        gpu->texcap = nc;
    }
    gpu->tex[gpu->ntex] = *t;
    gpu->tex[gpu->ntex].live = true;
    *handle = EXEC_TEX_TAG | gpu->ntex;
    gpu->ntex++;
    return LS_OK;
}

/* Fills the resource half of *t from res (format, layout, levels). */
static ls_status set_resource(ls_gpu *gpu, const ls_resource_desc *res,
                              struct exec_tex *t, const char *who)
{
    if (!res)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: res is NULL", who);
    const ls_channel_desc *f = &res->format;
    int bits[4] = {f->x, f->y, f->z, f->w};
    unsigned nch = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (bits[c] < 0)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: negative channel size", who);
        if (bits[c] && nch != c)
            return GPU_FAIL(gpu, LS_ERR_INVALID,
                            "%s: channels must be x, xy or xyzw (a gap before "
                            "channel %u)", who, c);
        if (bits[c])
            nch++;
        if (bits[c] && bits[c] != bits[0])
            return GPU_FAIL(gpu, LS_ERR_INVALID,
                            "%s: channels of different sizes (%d, %d, %d, %d bits) "
                            "are not modelled", who, f->x, f->y, f->z, f->w);
    }
    if (nch != 1 && nch != 2 && nch != 4)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: %u channels: CUDA textures have 1, 2 or 4", who, nch);
    if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: %d-bit channels (8, 16 or 32 are modelled)", who, bits[0]);
    if (f->kind != LS_CHANNEL_SIGNED && f->kind != LS_CHANNEL_UNSIGNED &&
        f->kind != LS_CHANNEL_FLOAT)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: channel kind %d is not signed, unsigned or float", who,
                        (int)f->kind);
    if (f->kind == LS_CHANNEL_FLOAT && bits[0] == 8)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: 8-bit float channels do not exist", who);
    t->nch = (uint8_t)nch;
    t->chbits = (uint8_t)bits[0];
    t->kind = (uint8_t)(f->kind == LS_CHANNEL_SIGNED ? EXEC_CH_SIGNED
                        : f->kind == LS_CHANNEL_UNSIGNED ? EXEC_CH_UNSIGNED
                        : EXEC_CH_FLOAT);
    t->elem_bytes = nch * (unsigned)bits[0] / 8;
    uint64_t eb = t->elem_bytes;
    t->base = res->base;
    t->levels = 1;
    t->layers = 1;
    switch (res->type) {
    case LS_RES_LINEAR:
        if (res->size_bytes < eb)
            return GPU_FAIL(gpu, LS_ERR_INVALID,
                            "%s: linear resource of %zu bytes holds no %llu-byte texel",
                            who, res->size_bytes, (unsigned long long)eb);
        t->res = EXEC_RES_LINEAR;
        t->dims = 1;
        t->w[0] = res->size_bytes / eb;
        t->h[0] = t->d[0] = 1;
        t->pitch[0] = t->w[0] * eb;
        t->int_oob_zero = true;     /* tex1Dfetch outside: 0 */
        break;
    case LS_RES_PITCH2D:
        if (!res->width || !res->height)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: pitch-2D resource of %zu x %zu "
                            "texels", who, res->width, res->height);
        if (res->pitch < res->width * eb)
            return GPU_FAIL(gpu, LS_ERR_INVALID,
                            "%s: pitch %zu is less than width x %llu bytes", who,
                            res->pitch, (unsigned long long)eb);
        t->res = EXEC_RES_PITCH2D;
        t->dims = 2;
        t->w[0] = res->width;
        t->h[0] = res->height;
        t->d[0] = 1;
        t->pitch[0] = res->pitch;
        break;
    case LS_RES_ARRAY:
    case LS_RES_MIPMAPPED: {
        bool mip = res->type == LS_RES_MIPMAPPED;
        unsigned fl = res->flags;
        if (fl & ~(LS_ARRAY_LAYERED | LS_ARRAY_CUBEMAP | LS_ARRAY_SURFACE))
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: unknown array flags 0x%x", who,
                            fl & ~(LS_ARRAY_LAYERED | LS_ARRAY_CUBEMAP | LS_ARRAY_SURFACE));
        if (!res->width || (res->depth && !res->height))
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: array extent %zu x %zu x %zu "
                            "(width, then height, then depth)", who, res->width,
                            res->height, res->depth);
        t->res = EXEC_RES_ARRAY;
        t->dims = res->depth ? 3 : res->height ? 2 : 1;
        t->cube = (fl & LS_ARRAY_CUBEMAP) != 0;
        t->layered = (fl & LS_ARRAY_LAYERED) != 0;
        if (t->cube && (t->dims != 2 || res->width != res->height))
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: a cubemap needs square 2-D faces "
                            "(%zu x %zu x %zu)", who, res->width, res->height, res->depth);
        if (t->layered && t->dims == 3)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: layered 3-D arrays do not exist",
                            who);
        if (t->layered) {
            if (!res->layers || (t->cube && res->layers % 6))
                return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: %zu layers (a layered %s "
                                "needs %s)", who, res->layers,
                                t->cube ? "cubemap" : "array",
                                t->cube ? "a positive multiple of 6" : "at least 1");
            t->layers = (uint32_t)res->layers;
        } else if (t->cube) {
            t->layers = 6;
        }
        unsigned lv = mip ? res->levels : 1;
        if (lv < 1 || lv > EXEC_TEX_MAX_LEVELS)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: %u mip levels (1 to %u)", who, lv,
                            EXEC_TEX_MAX_LEVELS);
        t->levels = lv;
        uint64_t off = 0;
        for (unsigned k = 0; k < lv; k++) {
            uint64_t w = res->width >> k, h = res->height >> k, d = res->depth >> k;
            t->w[k] = w ? w : 1;
            t->h[k] = t->dims >= 2 ? (h ? h : 1) : 1;
            t->d[k] = t->dims >= 3 ? (d ? d : 1) : 1;
            t->pitch[k] = t->w[k] * eb;
            t->lvl_off[k] = off;
            off += t->pitch[k] * t->h[k] * t->d[k] * t->layers;
        }
        t->span = off;
        break;
    }
    default:
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: resource type %d", who, (int)res->type);
    }
    if (t->res != EXEC_RES_ARRAY)
        t->span = (t->h[0] - 1) * t->pitch[0] + t->w[0] * eb;
    return LS_OK;
}

ls_status ls_texture_create(ls_gpu *gpu, const ls_resource_desc *res,
                            const ls_texture_desc *tex, uint64_t *handle)
{
    static const char who[] = "ls_texture_create";
    if (!gpu)
        return LS_ERR_INVALID;
    if (!tex || !handle)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: tex or handle is NULL", who);
    struct exec_tex t;
    memset(&t, 0, sizeof t);
    ls_status st = set_resource(gpu, res, &t, who);
    if (st != LS_OK)
        return st;
    if (tex->srgb)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: sRGB conversion is not modelled", who);
    if (tex->max_anisotropy > 1)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: anisotropic filtering (max_anisotropy "
                        "%u) is not modelled", who, tex->max_anisotropy);
    if (tex->seamless_cubemap)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: seamless cubemap filtering is not "
                        "modelled (faces are clamped at their edges)", who);
    static const char *const am[] = {"wrap", "clamp", "mirror", "border"};
    for (unsigned a = 0; a < 3; a++) {
        unsigned m = (unsigned)tex->address_mode[a];
        if (m > LS_ADDRESS_BORDER)
            return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: address mode %u of dimension %u",
                            who, m, a);
        if ((m == LS_ADDRESS_WRAP || m == LS_ADDRESS_MIRROR) && !tex->normalized_coords &&
            a < t.dims && !t.cube)
            return GPU_FAIL(gpu, LS_ERR_INVALID,
                            "%s: address mode %s in dimension %u needs normalized "
                            "coordinates (CUDA supports wrap and mirror only with "
                            "normalized coordinates)", who, am[m], a);
        t.addr[a] = (uint8_t)(m == LS_ADDRESS_WRAP ? EXEC_ADDR_WRAP
                              : m == LS_ADDRESS_CLAMP ? EXEC_ADDR_CLAMP
                              : m == LS_ADDRESS_MIRROR ? EXEC_ADDR_MIRROR
                              : EXEC_ADDR_BORDER);
    }
    if (tex->filter_mode != LS_FILTER_POINT && tex->filter_mode != LS_FILTER_LINEAR)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: filter mode %d", who,
                        (int)tex->filter_mode);
    if (tex->mipmap_filter_mode != LS_FILTER_POINT &&
        tex->mipmap_filter_mode != LS_FILTER_LINEAR)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: mipmap filter mode %d", who,
                        (int)tex->mipmap_filter_mode);
    if (tex->read_mode != LS_READ_ELEMENT_TYPE && tex->read_mode != LS_READ_NORMALIZED_FLOAT)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: read mode %d", who, (int)tex->read_mode);
    t.read_norm = tex->read_mode == LS_READ_NORMALIZED_FLOAT;
    if (t.read_norm && (t.kind == EXEC_CH_FLOAT || t.chbits == 32))
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: normalized-float read mode applies to 8- and 16-bit integer "
                        "channels only (this format: %u-bit %s)", who, t.chbits,
                        t.kind == EXEC_CH_FLOAT ? "float" : "integer");
    t.linear = tex->filter_mode == LS_FILTER_LINEAR;
    if (t.linear && t.kind != EXEC_CH_FLOAT && !t.read_norm)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: linear filtering needs float texels: float channels or "
                        "normalized-float read mode (CUDA: cudaErrorInvalidFilterSetting)",
                        who);
    t.norm = tex->normalized_coords != 0;
    if (t.levels > 1 && !t.norm && !t.cube)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: a mipmapped texture needs normalized coordinates", who);
    t.mip_linear = tex->mipmap_filter_mode == LS_FILTER_LINEAR;
    memcpy(t.border, tex->border_color, sizeof t.border);
    t.mip_bias = tex->mipmap_level_bias;
    t.min_lod = tex->min_mipmap_level_clamp;
    t.max_lod = tex->max_mipmap_level_clamp;
    if (!(t.min_lod <= t.max_lod))
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: min_mipmap_level_clamp %g above max_mipmap_level_clamp %g",
                        who, (double)t.min_lod, (double)t.max_lod);
    return add_object(gpu, &t, handle, who);
}

ls_status ls_surface_create(ls_gpu *gpu, const ls_resource_desc *res, uint64_t *handle)
{
    static const char who[] = "ls_surface_create";
    if (!gpu)
        return LS_ERR_INVALID;
    if (!handle)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: handle is NULL", who);
    if (res && res->type != LS_RES_ARRAY)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: surfaces are over array resources (LS_RES_ARRAY), as in "
                        "CUDA", who);
    struct exec_tex t;
    memset(&t, 0, sizeof t);
    ls_status st = set_resource(gpu, res, &t, who);
    if (st != LS_OK)
        return st;
    if (t.cube)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: cubemap surfaces are not modelled", who);
    t.surface = true;
    t.addr[0] = t.addr[1] = t.addr[2] = EXEC_ADDR_CLAMP;
    return add_object(gpu, &t, handle, who);
}

ls_status ls_texture_destroy(ls_gpu *gpu, uint64_t handle)
{
    if (!gpu)
        return LS_ERR_INVALID;
    uint64_t idx = handle & ~EXEC_TEX_TAG;
    if ((handle & EXEC_TEX_TAG) != EXEC_TEX_TAG || idx >= gpu->ntex || !gpu->tex[idx].live)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "ls_texture_destroy: 0x%llx is not a live texture or surface",
                        (unsigned long long)handle);
    gpu->tex[idx].live = false;
    return LS_OK;
}

/* The shorthands: raw texels (32-bit words of elem_bytes), point
 * sampling, clamped float coordinates, zeros for integer coordinates
 * outside (their behaviour before the descriptor call existed). */
static ls_status shorthand(ls_gpu *gpu, uint64_t base, size_t width, size_t height,
                           size_t pitch, unsigned eb, uint64_t *handle, const char *who)
{
    if (!handle)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: handle is NULL", who);
    if (eb != 1 && eb != 2 && eb != 4 && eb != 8 && eb != 16)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: elem_bytes %u is not 1, 2, 4, 8 or 16", who, eb);
    if (width == 0)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "%s: empty texture", who);
    if (height && pitch < width * eb)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "%s: pitch %zu is less than width x elem_bytes", who, pitch);
    struct exec_tex t;
    memset(&t, 0, sizeof t);
    t.raw = true;
    t.int_oob_zero = true;
    t.res = height ? EXEC_RES_PITCH2D : EXEC_RES_LINEAR;
    t.dims = height ? 2 : 1;
    t.levels = t.layers = 1;
    t.base = base;
    t.elem_bytes = eb;
    t.nch = 1;
    t.chbits = 32;
    t.kind = EXEC_CH_UNSIGNED;
    t.w[0] = width;
    t.h[0] = height ? height : 1;
    t.d[0] = 1;
    t.pitch[0] = height ? pitch : width * eb;
    t.span = (t.h[0] - 1) * t.pitch[0] + width * eb;
    t.addr[0] = t.addr[1] = t.addr[2] = EXEC_ADDR_CLAMP;
    return add_object(gpu, &t, handle, who);
}

ls_status ls_texture_1d(ls_gpu *gpu, ls_dptr base, size_t nelem,
                        unsigned elem_bytes, uint64_t *handle)
{
    if (!gpu)
        return LS_ERR_INVALID;
    return shorthand(gpu, base, nelem, 0, 0, elem_bytes, handle, "ls_texture_1d");
}

ls_status ls_texture_2d(ls_gpu *gpu, ls_dptr base, size_t width, size_t height,
                        size_t pitch, unsigned elem_bytes, uint64_t *handle)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (height == 0)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "ls_texture_2d: height is 0");
    return shorthand(gpu, base, width, height, pitch, elem_bytes, handle,
                     "ls_texture_2d");
}
