/* Texture and surface instructions: tex (every geometry, point/linear
 * filtering with 8-bit fixed-point weights, mip levels), tld4, txq, suld,
 * sust, suq over the objects of csim/exec/exec_tex.h. The formulas, and
 * every choice the CUDA guide and the PTX ISA leave open, are in
 * docs/textures.md; this file implements exactly that page. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec_mem.h"
#include "exec/exec_lane.h"

#define TEX_MAX_TEXELS 8        /* texels one lane reads (3-D linear)   */

static int terr(struct exec_error *err, int lane, uint64_t addr,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static int terr(struct exec_error *err, int lane, uint64_t addr,
                const char *fmt, ...)
{
    err->lane = lane;
    err->addr = addr;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static inline uint64_t reg_of(const struct exec_warp *w, int32_t r, unsigned lane)
{
    return w->regs[(size_t)r * EXEC_WARP + lane];
}

static inline uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n < 8 ? n : 8);
    return v;
}

/* Writes v to register r of lane, truncated to the register's width. */
static void put_reg(struct exec_warp *w, const struct ptx_func *f, int32_t r,
                    unsigned lane, uint64_t v)
{
    if (r < 0)
        return;
    unsigned rbits = 64;
    if (f && (uint32_t)r < f->nregs) {
        rbits = ptx_type_bits((enum ptx_type)f->regs[r].type);
        if (rbits == 0 || rbits > 64)
            rbits = 64;
    }
    if (rbits < 64)
        v &= (1ull << rbits) - 1;
    w->regs[(size_t)r * EXEC_WARP + lane] = v;
}

/* What geometry g needs ("2-D"), for messages. */
static const char *geom_want(unsigned g)
{
    static const char *const n[] = {"?", "1-D", "2-D", "3-D", "1-D layered",
                                    "2-D layered", "cubemap", "cubemap layered",
                                    "multi-sample", "multi-sample layered"};
    return g < sizeof n / sizeof n[0] ? n[g] : "?";
}

static const char *geom_name(unsigned g)
{
    static const char *const n[] = {"?", "1d", "2d", "3d", "a1d", "a2d", "cube",
                                    "acube", "2dms", "a2dms"};
    return g < sizeof n / sizeof n[0] ? n[g] : "?";
}

/* ------------------------------------------------------------ half float */

static float half_to_float(uint16_t h)
{
    unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 0x400), (int)e - 25);
    return (h & 0x8000) ? -v : v;
}

/* f32 -> f16, round to nearest even (NaN stays NaN, overflow -> inf). */
static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t s = (uint16_t)((x >> 16) & 0x8000);
    uint32_t e = (x >> 23) & 0xff, m = x & 0x7fffff;
    if (e == 0xff)
        return (uint16_t)(s | 0x7c00 | (m ? 0x200 : 0));
    int ex = (int)e - 127 + 15;
    if (ex >= 31)
        return (uint16_t)(s | 0x7c00);
    if (ex <= 0) {                      /* subnormal half or zero */
        if (ex < -10)
            return s;
        m |= 0x800000;
        unsigned sh = (unsigned)(14 - ex);
        uint32_t q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        return (uint16_t)(s | q);
    }
    uint32_t q = m >> 13, rem = m & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (q & 1)))
        q++;
    uint32_t r = ((uint32_t)ex << 10) + q;  /* mantissa carry bumps exponent */
    return (uint16_t)(s | (r >= 0x7c00 ? 0x7c00 : r));
}

/* ------------------------------------------------------------ handles */

/* The object named by MEM operand o for lane (bindless register or the
 * 8 bytes of a .texref/.surfref/.samplerref variable). */
static const struct exec_tex *tex_of(const struct exec_warp *w,
                                     const struct exec_memctx *m,
                                     const struct ptx_operand *o, unsigned lane,
                                     const char *op, struct exec_error *err)
{
    uint64_t h;
    if (o->reg >= 0) {
        h = reg_of(w, o->reg, lane);
    } else if (o->sym.index >= 0) {
        uint64_t sa = w->sym_addr[o->sym.scope ? 1 : 0][o->sym.index];
        const struct exec_alloc *a = m->dmem ? exec_dmem_find(m->dmem, sa, 8) : NULL;
        if (!a) {
            terr(err, (int)lane, sa, "%s: texture/surface variable at 0x%llx is "
                 "not in device memory", op, (unsigned long long)sa);
            return NULL;
        }
        h = load_le(a->host + (sa - a->base), 8);
    } else {
        terr(err, (int)lane, 0, "%s: malformed texture operand", op);
        return NULL;
    }
    uint64_t idx = h & ~EXEC_TEX_TAG;
    if ((h & EXEC_TEX_TAG) != EXEC_TEX_TAG || idx >= m->ntex || !m->tex[idx].live) {
        terr(err, (int)lane, h, "%s: handle 0x%llx is not bound to a live texture or "
             "surface object (create one with ls_texture_create, ls_surface_create "
             "or ls_texture_1d/2d)", op, (unsigned long long)h);
        return NULL;
    }
    return &m->tex[idx];
}

/* Does geometry g fit object t? NULL, or what t is. */
static const char *geom_mismatch(unsigned g, const struct exec_tex *t)
{
    bool ok;
    switch (g) {
    case PTX_GEOM_1D: ok = t->dims == 1 && !t->layered; break;
    case PTX_GEOM_2D: ok = t->dims == 2 && !t->layered && !t->cube; break;
    case PTX_GEOM_3D: ok = t->dims == 3; break;
    case PTX_GEOM_A1D: ok = t->dims == 1 && t->layered; break;
    case PTX_GEOM_A2D: ok = t->dims == 2 && t->layered && !t->cube; break;
    case PTX_GEOM_CUBE: ok = t->cube && !t->layered; break;
    case PTX_GEOM_ACUBE: ok = t->cube && t->layered; break;
    default: return "a multi-sample texture (not modelled: CUDA has none)";
    }
    if (ok)
        return NULL;
    if (t->cube)
        return t->layered ? "a cubemap layered texture" : "a cubemap texture";
    static const char *const d[2][4] = {
        {"?", "a 1-D texture", "a 2-D texture", "a 3-D texture"},
        {"?", "a 1-D layered texture", "a 2-D layered texture", "?"}};
    return d[t->layered][t->dims & 3];
}

/* ------------------------------------------------------------ texels */

/* Channel values of one texel: ints exact, floats as f32 values. */
struct texel {
    double v[4];
};

/* Index along one axis after the address mode, or -1 (border). */
static int64_t wrap_index(int64_t i, uint64_t n, unsigned mode)
{
    int64_t nn = (int64_t)n;
    switch (mode) {
    case EXEC_ADDR_WRAP: {
        int64_t r = i % nn;
        return r < 0 ? r + nn : r;
    }
    case EXEC_ADDR_MIRROR: {
        int64_t r = i % (2 * nn);
        if (r < 0)
            r += 2 * nn;
        return r >= nn ? 2 * nn - 1 - r : r;
    }
    case EXEC_ADDR_BORDER:
        return i < 0 || i >= nn ? -1 : i;
    default:
        return i < 0 ? 0 : i >= nn ? nn - 1 : i;
    }
}

/* Reads the texel at (x, y, z) of layer l, level k (indices in range),
 * converted per format and read mode; records its address. */
static int read_texel(const struct exec_memctx *m, const struct exec_tex *t,
                      unsigned k, uint64_t l, uint64_t x, uint64_t y, uint64_t z,
                      struct texel *out, uint64_t *addr, unsigned lane,
                      struct exec_error *err)
{
    uint64_t a = t->base + t->lvl_off[k] +
                 ((l * t->d[k] + z) * t->h[k] + y) * t->pitch[k] + x * t->elem_bytes;
    *addr = a;
    const struct exec_alloc *al = m->dmem ? exec_dmem_find(m->dmem, a, t->elem_bytes) : NULL;
    if (!al)
        return terr(err, (int)lane, a, "out-of-bounds texture fetch of %u bytes at "
                    "0x%llx: texture memory is no longer allocated", t->elem_bytes,
                    (unsigned long long)a);
    const uint8_t *p = al->host + (a - al->base);
    unsigned cb = t->chbits / 8;
    for (unsigned c = 0; c < 4; c++) {
        if (t->raw) {                   /* shorthand: 32-bit words */
            out->v[c] = 4 * c < t->elem_bytes
                ? (double)load_le(p + 4 * c, t->elem_bytes - 4 * c < 4 ? t->elem_bytes - 4 * c : 4)
                : 0.0;
            continue;
        }
        if (c >= t->nch) {              /* absent channel: 0, alpha 1 */
            out->v[c] = c == 3 ? 1.0 : 0.0;
            continue;
        }
        uint64_t raw = load_le(p + c * cb, cb);
        double v;
        if (t->kind == EXEC_CH_FLOAT)
            v = cb == 2 ? (double)half_to_float((uint16_t)raw) : (double)exec_f32(raw);
        else if (t->kind == EXEC_CH_SIGNED)
            v = (double)exec_sext(raw, t->chbits);
        else
            v = (double)raw;
        if (t->read_norm && t->kind != EXEC_CH_FLOAT) {
            if (t->kind == EXEC_CH_UNSIGNED)
                v = (double)(float)(v / (double)((1u << t->chbits) - 1));
            else {
                v = (double)(float)(v / (double)((1u << (t->chbits - 1)) - 1));
                if (v < -1.0)
                    v = -1.0;
            }
        }
        out->v[c] = v;
    }
    return 0;
}

static void border_texel(const struct exec_tex *t, struct texel *out)
{
    for (unsigned c = 0; c < 4; c++)
        out->v[c] = t->raw ? 0.0 : (double)t->border[c];
}

/* Where one lane samples: per-axis float coordinates (unnormalised or
 * normalised per t->norm), the layer, and what it reads. */
struct sample_ctx {
    const struct exec_memctx *m;
    const struct exec_tex *t;   /* texels                                 */
    const struct exec_tex *s;   /* sampler state (t, or a .samplerref)    */
    unsigned lane;
    uint64_t *addrs;            /* texel addresses read (timing)          */
    unsigned naddr, cap;
    struct exec_error *err;
};

/* Texel (index per axis, -1 = border) of level k, layer l. */
static int fetch(struct sample_ctx *c, unsigned k, uint64_t l, const int64_t *ix,
                 struct texel *out)
{
    const struct exec_tex *t = c->t;
    for (unsigned a = 0; a < t->dims; a++)
        if (ix[a] < 0) {
            border_texel(c->s, out);
            return 0;
        }
    uint64_t addr;
    if (read_texel(c->m, t, k, l, (uint64_t)ix[0], t->dims > 1 ? (uint64_t)ix[1] : 0,
                   t->dims > 2 ? (uint64_t)ix[2] : 0, out, &addr, c->lane, c->err))
        return -1;
    if (c->naddr < c->cap)
        c->addrs[c->naddr++] = addr;
    return 0;
}

static uint64_t axis_size(const struct exec_tex *t, unsigned k, unsigned a)
{
    return a == 0 ? t->w[k] : a == 1 ? t->h[k] : t->d[k];
}

/* Texel-space coordinate of float u along an axis of n texels: NaN reads
 * as 0 and magnitudes are bounded so the fixed-point maths cannot
 * overflow (docs/textures.md). */
static double texel_coord(float u, uint64_t n, bool norm)
{
    double x = isnan(u) ? 0.0 : (double)u;
    if (norm)
        x *= (double)n;
    if (x > 1e12)
        x = 1e12;
    if (x < -1e12)
        x = -1e12;
    return x;
}

/* Samples level k, layer l at float coordinates u[] (texture's own
 * normalisation unless force_norm) with the sampler's filter: result in
 * *out (double accumulation). */
static int sample_level(struct sample_ctx *c, unsigned k, uint64_t l,
                        const float *u, bool force_norm, const uint8_t *modes,
                        struct texel *out)
{
    const struct exec_tex *t = c->t, *s = c->s;
    unsigned dims = t->dims;
    bool norm = force_norm || s->norm;
    int64_t i0[3] = {0, 0, 0};
    unsigned wgt[3] = {0, 0, 0};        /* weight of the upper texel, /256 */
    for (unsigned a = 0; a < dims; a++) {
        uint64_t n = axis_size(t, k, a);
        double x = texel_coord(u[a], n, norm);
        if (s->linear) {
            int64_t X = (int64_t)floor((x - 0.5) * 256.0 + 0.5);
            i0[a] = X >> 8;             /* arithmetic: floor division */
            wgt[a] = (unsigned)(X & 255);
        } else {
            i0[a] = (int64_t)floor(x);
        }
    }
    if (!s->linear) {
        int64_t ix[3];
        for (unsigned a = 0; a < dims; a++)
            ix[a] = wrap_index(i0[a], axis_size(t, k, a), modes[a]);
        return fetch(c, k, l, ix, out);
    }
    double acc[4] = {0, 0, 0, 0};
    for (unsigned corner = 0; corner < (1u << dims); corner++) {
        uint64_t wprod = 1;
        int64_t ix[3];
        for (unsigned a = 0; a < dims; a++) {
            unsigned up = (corner >> a) & 1;
            wprod *= up ? wgt[a] : 256u - wgt[a];
            ix[a] = wrap_index(i0[a] + up, axis_size(t, k, a), modes[a]);
        }
        if (!wprod)
            continue;                   /* weight 0: texel not read */
        struct texel tx;
        if (fetch(c, k, l, ix, &tx))
            return -1;
        for (unsigned ch = 0; ch < 4; ch++)
            acc[ch] += (double)wprod * tx.v[ch];
    }
    double scale = ldexp(1.0, -8 * (int)dims);
    for (unsigned ch = 0; ch < 4; ch++)
        out->v[ch] = acc[ch] * scale;
    return 0;
}

/* Cube face and face coordinates in [0, 1] of direction (x, y, z); ties
 * prefer x over y over z (docs/textures.md). */
static unsigned cube_face(float x, float y, float z, float *s, float *t)
{
    double ax = fabs((double)x), ay = fabs((double)y), az = fabs((double)z);
    double sc, tc, ma;
    unsigned face;
    if (ax >= ay && ax >= az) {
        ma = ax;
        face = x >= 0 ? 0 : 1;
        sc = x >= 0 ? -z : z;
        tc = -y;
    } else if (ay >= az) {
        ma = ay;
        face = y >= 0 ? 2 : 3;
        sc = x;
        tc = y >= 0 ? z : -z;
    } else {
        ma = az;
        face = z >= 0 ? 4 : 5;
        sc = z >= 0 ? x : -x;
        tc = -y;
    }
    if (!(ma > 0)) {                    /* zero or NaN direction */
        *s = *t = 0.5f;
        return face;
    }
    *s = (float)((sc / ma + 1.0) * 0.5);
    *t = (float)((tc / ma + 1.0) * 0.5);
    return face;
}

/* Level of detail -> (level, 8-bit blend weight toward level+1). */
static void pick_level(const struct exec_tex *t, const struct exec_tex *s,
                       double lambda, unsigned *k0, unsigned *frac)
{
    *frac = 0;
    if (t->levels <= 1) {
        *k0 = 0;
        return;
    }
    if (isnan(lambda))
        lambda = 0;
    lambda += s->mip_bias;
    if (lambda > s->max_lod)
        lambda = s->max_lod;
    if (lambda < s->min_lod)
        lambda = s->min_lod;
    double top = (double)(t->levels - 1);
    if (lambda < 0)
        lambda = 0;
    if (lambda > top)
        lambda = top;
    if (!s->mip_linear) {
        *k0 = lambda <= 0.5 ? 0 : (unsigned)(ceil(lambda + 0.5) - 1.0);
        return;
    }
    unsigned L = (unsigned)floor(lambda);
    unsigned f = (unsigned)floor((lambda - L) * 256.0 + 0.5);
    if (f == 256) {
        L++;
        f = 0;
    }
    *k0 = L;
    *frac = L + 1 < t->levels ? f : 0;
}

/* ------------------------------------------------------------ tex/tld4 */

/* Output register value of channel value v for destination type dt. */
static uint64_t out_bits(const struct exec_tex *t, double v, unsigned dt)
{
    if (t->raw)
        return (uint64_t)v;
    if (dt == PTX_T_F32)
        return exec_f32_bits((float)v);
    /* integer texels are exact; a border colour converts by truncation,
     * saturated to 32 bits (NaN: 0) */
    if (!(v == v))
        return 0;
    if (v >= 4294967295.0)
        return 0xffffffffu;
    if (v <= -2147483648.0)
        return 0x80000000u;
    return (uint64_t)(uint32_t)(int64_t)v;
}

/* dtype allowed for the texture's texels? NULL or why not. */
static const char *dtype_mismatch(const struct exec_tex *t, unsigned dt)
{
    if (t->raw)
        return NULL;
    bool fl = t->kind == EXEC_CH_FLOAT || t->read_norm;
    if (dt == PTX_T_F32)
        return fl ? NULL : "an integer texture read as element type needs a .s32/.u32 "
                           "destination (or cudaReadModeNormalizedFloat)";
    if (dt == PTX_T_S32 || dt == PTX_T_U32)
        return fl ? "a texture returning floats needs an .f32 destination" : NULL;
    return "destination types other than .f32/.s32/.u32 (.f16) are not modelled";
}

/* Operands and geometry of a tex/tld4 (op: its name), checked once per
 * instruction; 0, or -1 with err set. */
static int tex_check(const struct ptx_inst *in, const char *op, struct exec_error *err)
{
    const struct ptx_operand *d = &in->o[0], *co = &in->o[2];
    bool tld4 = in->op == PTX_OP_TLD4;
    if (co->kind != PTX_O_VEC || d->kind != PTX_O_VEC)
        return terr(err, -1, 0, "%s: malformed operands", op);
    bool fl = ptx_type_is_float((enum ptx_type)in->type2);
    unsigned g = in->geom;
    unsigned need = g == PTX_GEOM_1D ? 1 : g == PTX_GEOM_2D || g == PTX_GEOM_A1D ? 2
                  : g == PTX_GEOM_A2D || g == PTX_GEOM_3D || g == PTX_GEOM_CUBE ||
                    g == PTX_GEOM_ACUBE ? 3 : 4;
    for (unsigned i = 0; i < need && i < co->vec_n; i++)
        if (co->vec_regs[i] < 0)
            return terr(err, -1, 0, "%s.%s: coordinate %u is '_'", op, geom_name(g), i);
    if (co->vec_n < need)
        return terr(err, -1, 0, "%s.%s: expected %u coordinates, found %u", op,
                    geom_name(g), need, co->vec_n);
    if ((g == PTX_GEOM_CUBE || g == PTX_GEOM_ACUBE || tld4) && !fl)
        return terr(err, -1, 0, "%s.%s: needs .f32 coordinates", op, geom_name(g));
    if (tld4 && g != PTX_GEOM_2D && g != PTX_GEOM_A2D && g != PTX_GEOM_CUBE &&
        g != PTX_GEOM_ACUBE)
        return terr(err, -1, 0, "tld4.%s: geometry not allowed (2d, a2d, cube, acube)",
                    geom_name(g));
    return 0;
}

/* The texture (*t) and sampler state (*s: t, or the independent sampler)
 * lane reads, checked against the instruction; 0, or -1 with err set. */
static int tex_handles(const struct exec_warp *w, const struct exec_memctx *m,
                       const struct ptx_inst *in, unsigned lane, const char *op,
                       const struct exec_tex **tp, const struct exec_tex **sp,
                       struct exec_error *err)
{
    unsigned g = in->geom;
    bool has_sampler = in->nopnd > 5 && in->o[5].kind == PTX_O_MEM;
    const struct exec_tex *t = tex_of(w, m, &in->o[1], lane, op, err);
    if (!t)
        return -1;
    const struct exec_tex *s = t;
    if (has_sampler && !(s = tex_of(w, m, &in->o[5], lane, op, err)))
        return -1;
    if (t->surface)
        return terr(err, (int)lane, 0, "%s: handle names a surface object, not a "
                    "texture", op);
    const char *why = geom_mismatch(g, t);
    if (why)
        return terr(err, (int)lane, 0, "%s.%s: handle is not bound to a %s texture "
                    "(it names %s)", op, geom_name(g), geom_want(g), why);
    if ((why = dtype_mismatch(t, in->type)))
        return terr(err, (int)lane, 0, "%s.%s.%s: %s", op, geom_name(g),
                    ptx_type_name((enum ptx_type)in->type), why);
    if (in->op == PTX_OP_TLD4 && t->raw)
        return terr(err, (int)lane, 0, "tld4 on an ls_texture_1d/2d shorthand "
                    "(create it with ls_texture_create)");
    *tp = t;
    *sp = s;
    return 0;
}

/* Where one lane samples: layer (array index, clamped; for a cube the
 * face folded in), float and integer coordinates, addressing modes. */
struct tex_coord {
    uint64_t layer;
    float u[3];
    int64_t iu[3];
    unsigned nc;                        /* coordinates read */
    bool force_norm;                    /* cube faces: normalised */
    uint8_t modes[3];
};

static void tex_coords(const struct exec_warp *w, const struct ptx_inst *in,
                       const struct exec_tex *t, const struct exec_tex *s,
                       unsigned lane, struct tex_coord *c)
{
    const struct ptx_operand *co = &in->o[2];
    unsigned g = in->geom;
    c->layer = 0;
    unsigned ci = 0;
    if (g == PTX_GEOM_A1D || g == PTX_GEOM_A2D || g == PTX_GEOM_ACUBE) {
        uint64_t li = (uint32_t)reg_of(w, co->vec_regs[0], lane);
        uint64_t nl = g == PTX_GEOM_ACUBE ? t->layers / 6 : t->layers;
        c->layer = li >= nl ? nl - 1 : li;      /* clamped (docs/textures.md) */
        ci = 1;
    }
    for (unsigned k = 0; k < 3; k++) {
        c->u[k] = 0;
        c->iu[k] = 0;
        c->modes[k] = s->addr[k];
    }
    c->nc = g == PTX_GEOM_CUBE || g == PTX_GEOM_ACUBE ? 3 : t->dims;
    for (unsigned k = 0; k < c->nc; k++) {
        uint64_t r = reg_of(w, co->vec_regs[ci + k], lane);
        c->u[k] = exec_f32(r);
        c->iu[k] = exec_sext(r, 32);
    }
    c->force_norm = false;
    if (t->cube) {
        float fs, ft;
        unsigned face = cube_face(c->u[0], c->u[1], c->u[2], &fs, &ft);
        c->u[0] = fs;
        c->u[1] = ft;
        c->layer = c->layer * 6 + face;
        c->force_norm = true;
        c->modes[0] = c->modes[1] = EXEC_ADDR_CLAMP;
    }
}

/* Integer coordinates: the one texel they name (zero out of range where
 * the texture asks for it). */
static int tex_point(struct sample_ctx *sc, const struct tex_coord *c, struct texel *val)
{
    const struct exec_tex *t = sc->t;
    int64_t ix[3];
    bool zero = false;
    for (unsigned k = 0; k < t->dims; k++) {
        uint64_t n = axis_size(t, 0, k);
        if (t->int_oob_zero && (c->iu[k] < 0 || c->iu[k] >= (int64_t)n))
            zero = true;
        ix[k] = wrap_index(c->iu[k], n, c->modes[k]);
    }
    if (zero) {
        memset(val, 0, sizeof *val);
        return 0;
    }
    return fetch(sc, 0, c->layer, ix, val);
}

/* tld4: component comp of the bilinear footprint's four texels,
 * counter-clockwise from lower left. */
static int tex_gather4(struct sample_ctx *sc, const struct tex_coord *c, unsigned comp,
                       struct texel *val)
{
    const struct exec_tex *t = sc->t;
    int64_t i0[2], ix[3];
    for (unsigned k = 0; k < 2; k++) {
        double x = texel_coord(c->u[k], axis_size(t, 0, k), c->force_norm || sc->s->norm);
        int64_t X = (int64_t)floor((x - 0.5) * 256.0 + 0.5);
        i0[k] = X >> 8;
    }
    static const unsigned dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
    for (unsigned q = 0; q < 4; q++) {
        ix[0] = wrap_index(i0[0] + dx[q], axis_size(t, 0, 0), c->modes[0]);
        ix[1] = wrap_index(i0[1] + dy[q], axis_size(t, 0, 1), c->modes[1]);
        struct texel tq;
        if (fetch(sc, 0, c->layer, ix, &tq))
            return -1;
        val->v[q] = tq.v[comp];
    }
    return 0;
}

/* Level of detail of tex.level (the operand) or tex.grad (from the
 * gradients); 0 for the base level. 0, or -1 with err set. */
static int tex_lod(const struct exec_warp *w, const struct ptx_inst *in,
                   const struct sample_ctx *sc, unsigned nc, double *lambda,
                   struct exec_error *err)
{
    const struct exec_tex *t = sc->t, *s = sc->s;
    *lambda = 0;
    if (in->tmode == PTX_TM_LEVEL) {
        *lambda = exec_f32(exec_read(w, &in->o[3], PTX_T_F32, sc->lane));
    } else if (in->tmode == PTX_TM_GRAD) {
        double rho2x = 0, rho2y = 0;
        const struct ptx_operand *gx = &in->o[3], *gy = &in->o[4];
        for (unsigned k = 0; k < nc && k < 3; k++) {
            if (k >= gx->vec_n || k >= gy->vec_n || gx->vec_regs[k] < 0 ||
                gy->vec_regs[k] < 0)
                return terr(err, -1, 0, "tex.grad: gradient vectors need %u "
                            "elements", nc);
            double sz = t->cube ? (double)t->w[0]
                      : (s->norm ? (double)axis_size(t, 0, k) : 1.0);
            double ax = exec_f32(reg_of(w, gx->vec_regs[k], sc->lane)) * sz;
            double ay = exec_f32(reg_of(w, gy->vec_regs[k], sc->lane)) * sz;
            rho2x += ax * ax;
            rho2y += ay * ay;
        }
        double rho2 = rho2x > rho2y ? rho2x : rho2y;
        *lambda = rho2 > 0 ? 0.5 * log2(rho2) : -INFINITY;
    }
    return 0;
}

/* Float coordinates: filtered sample of the chosen level, blended with
 * the next level for linear mipmap filtering. */
static int tex_filtered(const struct exec_warp *w, const struct ptx_inst *in,
                        struct sample_ctx *sc, const struct tex_coord *c,
                        struct texel *val, struct exec_error *err)
{
    double lambda;
    if (tex_lod(w, in, sc, c->nc, &lambda, err))
        return -1;
    unsigned k0, fr;
    pick_level(sc->t, sc->s, lambda, &k0, &fr);
    if (sample_level(sc, k0, c->layer, c->u, c->force_norm, c->modes, val))
        return -1;
    if (fr) {
        struct texel v1;
        if (sample_level(sc, k0 + 1, c->layer, c->u, c->force_norm, c->modes, &v1))
            return -1;
        for (unsigned ch = 0; ch < 4; ch++)
            val->v[ch] = (val->v[ch] * (256 - fr) + v1.v[ch] * fr) / 256.0;
    }
    return 0;
}

static int do_tex(struct exec_warp *w, struct exec_memctx *m,
                  const struct ptx_inst *in, uint32_t act,
                  struct exec_result *res, struct exec_error *err)
{
    const char *op = in->op == PTX_OP_TLD4 ? "tld4" : "tex";
    const struct ptx_operand *d = &in->o[0];
    bool tld4 = in->op == PTX_OP_TLD4;
    if (tex_check(in, op, err))
        return -1;
    bool fl = ptx_type_is_float((enum ptx_type)in->type2);
    res->space = PTX_SP_GLOBAL;
    res->is_store = false;
    if (!m->texaddr) {
        m->texaddr = calloc((size_t)EXEC_WARP * TEX_MAX_TEXELS * 2, sizeof *m->texaddr);
        if (!m->texaddr)
            return terr(err, -1, 0, "%s: host memory exhausted", op);
    }
    uint32_t nx = 0;                    /* extra texel addresses (timing) */
    EXEC_FOR_EACH_LANE(act, lane, {
        const struct exec_tex *t = NULL, *s = NULL;
        if (tex_handles(w, m, in, lane, op, &t, &s, err))
            return -1;
        struct tex_coord c;
        tex_coords(w, in, t, s, lane, &c);
        struct sample_ctx sc = {m, t, s, lane, m->texaddr + nx,
                                0, EXEC_WARP * TEX_MAX_TEXELS * 2 - nx, err};
        struct texel val;
        int bad = !fl ? tex_point(&sc, &c, &val)           /* one texel */
                : tld4 ? tex_gather4(&sc, &c, in->tq & 3, &val)
                : tex_filtered(w, in, &sc, &c, &val, err);
        if (bad)
            return -1;
        /* timing: first texel in addr[lane], the rest after it */
        if (sc.naddr) {
            res->addr[lane] = sc.addrs[0];
            for (unsigned q = 1; q < sc.naddr; q++)
                m->texaddr[nx++] = sc.addrs[q];
        } else {
            res->addr[lane] = t->base;  /* border only: no texel read */
        }
        res->access_bytes = (uint8_t)(t->elem_bytes > 16 ? 16 : t->elem_bytes);
        for (unsigned k = 0; k < 4 && k < d->vec_n; k++)
            put_reg(w, m->func, d->vec_regs[k], lane, out_bits(t, val.v[k], in->type));
    });
    m->ntexaddr = nx;
    res->nxaddr = (uint16_t)nx;
    return 0;
}

/* ------------------------------------------------------------ queries */

static int64_t query(const struct exec_tex *t, unsigned q, unsigned k, bool surf)
{
    switch (q) {
    case PTX_TQ_WIDTH: return (int64_t)t->w[k];
    case PTX_TQ_HEIGHT: return (int64_t)t->h[k];
    case PTX_TQ_DEPTH: return (int64_t)t->d[k];
    case PTX_TQ_CHANNEL_DATA_TYPE: return t->kind;
    case PTX_TQ_CHANNEL_ORDER: return t->nch;
    case PTX_TQ_NORMALIZED_COORDS: return t->norm;
    case PTX_TQ_ARRAY_SIZE:
        return t->layered ? (t->cube ? t->layers / 6 : t->layers) : 0;
    case PTX_TQ_NUM_MIPMAP_LEVELS: return t->levels;
    case PTX_TQ_NUM_SAMPLES: return 1;
    case PTX_TQ_FORCE_UNNORMALIZED_COORDS: return !t->norm;
    case PTX_TQ_FILTER_MODE: return t->linear;
    case PTX_TQ_ADDR_MODE_0: return t->addr[0];
    case PTX_TQ_ADDR_MODE_1: return t->addr[1];
    case PTX_TQ_ADDR_MODE_2: return t->addr[2];
    case PTX_TQ_MEMORY_LAYOUT: return surf ? 1 : -1;
    default: return -1;
    }
}

static int do_query(struct exec_warp *w, struct exec_memctx *m,
                    const struct ptx_inst *in, uint32_t act,
                    struct exec_error *err)
{
    bool surf = in->op == PTX_OP_SUQ;
    const char *op = surf ? "suq" : "txq";
    if (in->o[0].kind != PTX_O_REG)
        return terr(err, -1, 0, "%s: destination is not a register", op);
    if (surf && (in->tq == PTX_TQ_NORMALIZED_COORDS || in->tq == PTX_TQ_NUM_MIPMAP_LEVELS ||
                 in->tq == PTX_TQ_NUM_SAMPLES || in->tq >= PTX_TQ_FORCE_UNNORMALIZED_COORDS) &&
        in->tq != PTX_TQ_MEMORY_LAYOUT)
        return terr(err, -1, 0, "suq: query not defined for surfaces");
    if (!surf && in->tq == PTX_TQ_MEMORY_LAYOUT)
        return terr(err, -1, 0, "txq: .memory_layout is a surface query (suq)");
    EXEC_FOR_EACH_LANE(act, lane, {
        const struct exec_tex *t = tex_of(w, m, &in->o[1], lane, op, err);
        if (!t)
            return -1;
        if (t->surface != surf)
            return terr(err, (int)lane, 0, "%s: handle names a %s object", op,
                        t->surface ? "surface" : "texture");
        unsigned k = 0;
        if (in->tmode == PTX_TM_LEVEL) {
            int64_t lv = exec_sext(exec_read(w, &in->o[2], PTX_T_S32, lane), 32);
            if (lv < 0 || lv >= (int64_t)t->levels)
                return terr(err, (int)lane, 0, "txq.level: level %lld outside the "
                            "texture's %u levels", (long long)lv, t->levels);
            k = (unsigned)lv;
        }
        int64_t v = query(t, in->tq, k, surf);
        put_reg(w, m->func, in->o[0].reg, lane, (uint64_t)v);
    });
    return 0;
}

/* ------------------------------------------------------------ surfaces */

static int do_surface(struct exec_warp *w, struct exec_memctx *m,
                      const struct ptx_inst *in, uint32_t act,
                      struct exec_result *res, struct exec_error *err)
{
    bool st = in->op == PTX_OP_SUST, fmt = st && in->tq == 1;
    const char *op = st ? (fmt ? "sust.p" : "sust.b") : "suld.b";
    const struct ptx_operand *a = &in->o[st ? 0 : 1], *v = &in->o[st ? 1 : 0];
    const struct ptx_operand *co = &in->o[2];
    unsigned g = in->geom;
    if (g != PTX_GEOM_1D && g != PTX_GEOM_2D && g != PTX_GEOM_3D &&
        g != PTX_GEOM_A1D && g != PTX_GEOM_A2D)
        return terr(err, -1, 0, "%s.%s: geometry not allowed for surfaces", op,
                    geom_name(g));
    unsigned need = g == PTX_GEOM_1D ? 1 : g == PTX_GEOM_2D || g == PTX_GEOM_A1D ? 2 : 3;
    if (co->kind != PTX_O_VEC || co->vec_n < need)
        return terr(err, -1, 0, "%s.%s: expected %u coordinates", op, geom_name(g), need);
    unsigned eb = ptx_type_bits((enum ptx_type)in->type) / 8;
    unsigned vec = in->vec ? in->vec : 1;
    if (fmt && eb != 4)
        return terr(err, -1, 0, "sust.p: data must be .b32");
    res->space = PTX_SP_GLOBAL;
    res->is_store = st;
    EXEC_FOR_EACH_LANE(act, lane, {
        const struct exec_tex *t = tex_of(w, m, a, lane, op, err);
        if (!t)
            return -1;
        if (!t->surface)
            return terr(err, (int)lane, 0, "%s: handle names a texture object, not a "
                        "surface (create it with ls_surface_create)", op);
        const char *why = geom_mismatch(g, t);
        if (why)
            return terr(err, (int)lane, 0, "%s.%s: handle is not bound to a %s surface "
                        "(it names %s)", op, geom_name(g), geom_want(g), why);
        unsigned size = fmt ? t->elem_bytes : eb * vec;
        res->access_bytes = (uint8_t)(size > 16 ? 16 : size);
        int64_t c[4] = {0, 0, 0, 0};
        for (unsigned k = 0; k < need; k++)
            c[k] = exec_sext(reg_of(w, co->vec_regs[k], lane), 32);
        int64_t layer = 0;
        if (g == PTX_GEOM_A1D || g == PTX_GEOM_A2D) {
            layer = (int64_t)(uint32_t)c[0];
            memmove(c, c + 1, 3 * sizeof c[0]);
        }
        /* x in bytes (.b) or elements (.p) */
        int64_t xb = fmt ? c[0] * (int64_t)t->elem_bytes : c[0];
        int64_t lim[4] = {(int64_t)(t->w[0] * t->elem_bytes) - (int64_t)size + 1,
                          (int64_t)t->h[0], (int64_t)t->d[0], (int64_t)t->layers};
        int64_t pos[4] = {xb, c[1], c[2], layer};
        bool oob = false;
        for (unsigned k = 0; k < 4; k++)
            if (pos[k] < 0 || pos[k] >= lim[k])
                oob = true;
        if (xb % (int64_t)size && !oob)
            return terr(err, (int)lane, 0, "%s: x = %lld bytes is not a multiple of the "
                        "%u-byte access", op, (long long)xb, size);
        if (oob) {
            if (in->tmode == PTX_SU_TRAP)
                return terr(err, (int)lane, 0, "%s.%s.trap: out-of-bounds surface access "
                            "(x %lld bytes, y %lld, z %lld, layer %lld; surface %llu x "
                            "%llu x %llu bytes/rows/slices, %u layers)", op,
                            geom_name(g), (long long)xb, (long long)c[1],
                            (long long)c[2], (long long)layer,
                            (unsigned long long)(t->w[0] * t->elem_bytes),
                            (unsigned long long)t->h[0], (unsigned long long)t->d[0],
                            t->layers);
            if (in->tmode == PTX_SU_ZERO) {
                res->addr[lane] = t->base;      /* no access */
                if (!st)
                    for (unsigned k = 0; k < vec; k++)
                        put_reg(w, m->func, v->kind == PTX_O_VEC ? v->vec_regs[k] : v->reg,
                                lane, 0);
                continue;
            }
            for (unsigned k = 0; k < 4; k++)   /* .clamp: nearest location */
                pos[k] = pos[k] < 0 ? 0 : pos[k] >= lim[k] ? lim[k] - 1 : pos[k];
            pos[0] -= pos[0] % (int64_t)size;
        }
        uint64_t addr = t->base + ((uint64_t)pos[3] * t->d[0] + (uint64_t)pos[2]) *
                        t->h[0] * t->pitch[0] + (uint64_t)pos[1] * t->pitch[0] +
                        (uint64_t)pos[0];
        res->addr[lane] = addr;
        const struct exec_alloc *al = m->dmem ? exec_dmem_find(m->dmem, addr, size) : NULL;
        if (!al)
            return terr(err, (int)lane, addr, "out-of-bounds surface access of %u bytes at "
                        "0x%llx: surface memory is no longer allocated", size,
                        (unsigned long long)addr);
        uint8_t *p = al->host + (addr - al->base);
        if (!st) {
            for (unsigned k = 0; k < vec; k++)
                put_reg(w, m->func, v->kind == PTX_O_VEC ? v->vec_regs[k] : v->reg, lane,
                        load_le(p + k * eb, eb));
            continue;
        }
        for (unsigned k = 0; k < vec; k++) {
            uint64_t x = v->kind == PTX_O_VEC
                ? (v->vec_regs[k] >= 0 ? reg_of(w, v->vec_regs[k], lane) : 0)
                : exec_read(w, v, (enum ptx_type)in->type, lane);
            if (!fmt) {
                memcpy(p + k * eb, &x, eb);
                continue;
            }
            if (k >= t->nch)
                continue;               /* components the format lacks */
            unsigned cb = t->chbits / 8;
            uint64_t out;
            if (t->kind == EXEC_CH_FLOAT) {
                out = cb == 2 ? float_to_half(exec_f32(x)) : (uint32_t)x;
            } else if (t->kind == EXEC_CH_UNSIGNED) {
                uint64_t mx = cb == 4 ? 0xffffffffull : (1ull << t->chbits) - 1;
                out = (uint32_t)x > mx ? mx : (uint32_t)x;
            } else {
                int64_t sx = exec_sext(x, 32);
                int64_t hi = cb == 4 ? INT32_MAX : (1ll << (t->chbits - 1)) - 1;
                int64_t lo = -hi - 1;
                out = (uint64_t)(sx > hi ? hi : sx < lo ? lo : sx);
            }
            memcpy(p + k * cb, &out, cb);
        }
    });
    return 0;
}

int exec_tex_op(struct exec_warp *w, struct exec_memctx *m,
                const struct ptx_inst *in, uint32_t act,
                struct exec_result *res, struct exec_error *err)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_TEX: case PTX_OP_TLD4:
        return do_tex(w, m, in, act, res, err);
    case PTX_OP_TXQ: case PTX_OP_SUQ:
        return do_query(w, m, in, act, err);
    case PTX_OP_SULD: case PTX_OP_SUST:
        return do_surface(w, m, in, act, res, err);
    default:
        return terr(err, -1, 0, "%s is not a texture instruction",
                    ptx_op_name((enum ptx_op)in->op));
    }
}
