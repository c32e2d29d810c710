// Monte Carlo photon migration in a layered slab (MCML-style), one thread
// per photon stream. Each thread launches its photons one after another
// (weight 1 - specular reflectance, at the origin, straight down +z) and
// moves them by hop-drop-spin steps:
//   hop:  a free path s = -ln(xi) / mu_t of the current layer (or what is
//         left of a step cut short by a boundary, rescaled to the layer);
//         if the path crosses the layer's top or bottom, the photon stops
//         on the boundary; between layers (matched refractive index) it
//         crosses, at the slab's surfaces it is internally reflected with
//         the Fresnel probability or escapes, adding its weight to the
//         reflectance (top) or transmittance (bottom) of its radial bin;
//   drop: otherwise it deposits w * mu_a / mu_t in the absorption bin
//         (depth, radius) of its new position;
//   spin: and scatters by the Henyey-Greenstein phase function (g of the
//         layer) and a uniform azimuth;
//   roulette: a photon below weight MC_WTH survives with probability
//         MC_CHANCE (its weight divided by MC_CHANCE) or dies.
// A launch runs at most nsteps steps per thread and keeps the photon
// state (position, direction, weight, step left, layer, random state,
// photons left) in global memory for the next launch; *active counts the
// threads with work left. Tallies are fixed point (weight * 2^32, rounded
// toward zero) added with 64-bit integer atomics, so their sums do not
// depend on the order of the threads, as in CUDAMCML.
//
// Random numbers: a per-thread xorshift32 state; xi = ((r >> 8) + 1) * 2^-24
// in (0, 1]. Floating point: __f*_rn everywhere (nothing contracted),
// __log2f (lg2.approx) times ln 2 for the logarithm and __sinf/__cosf
// (sin.approx, cos.approx) for the azimuth.
//
// Divergent: every photon's path length, its boundary hits, reflections,
// escapes, roulette and the moment it dies differ per lane, and lanes
// whose photon died launch a new one while the others keep walking.

#define MC_WTH 1e-4f
#define MC_CHANCE 0.1f
#define MC_LN2 0.693147182f
#define MC_2PI 6.28318548f

struct mc_layer {
    float mua, mus, g, z0, z1, mut, ratio, pad;
};

__device__ __forceinline__ float mc_rnd(unsigned &r)
{
    r ^= r << 13;
    r ^= r >> 17;
    r ^= r << 5;
    return __fmul_rn((float)((r >> 8) + 1u), 5.96046448e-8f);
}

__device__ __forceinline__ void mc_tally(unsigned long long *bin, float w)
{
    atomicAdd(bin, (unsigned long long)__fmul_rn(w, 4294967296.0f));
}

// Fresnel reflectance from the tissue (index n) into air (index 1) at
// cos(angle of incidence) ca1; r0 is the value at normal incidence.
__device__ __forceinline__ float mc_fresnel(float n, float r0, float ca1)
{
    if (ca1 > 0.999999f)
        return r0;
    float sa1 = __fsqrt_rn(__fsub_rn(1.0f, __fmul_rn(ca1, ca1)));
    float sa2 = __fmul_rn(n, sa1);
    if (sa2 >= 1.0f)
        return 1.0f;
    float ca2 = __fsqrt_rn(__fsub_rn(1.0f, __fmul_rn(sa2, sa2)));
    float nc1 = __fmul_rn(n, ca1), nc2 = __fmul_rn(n, ca2);
    float rs = __fdiv_rn(__fsub_rn(nc1, ca2), __fadd_rn(nc1, ca2));
    float rp = __fdiv_rn(__fsub_rn(nc2, ca1), __fadd_rn(nc2, ca1));
    return __fmul_rn(0.5f, __fadd_rn(__fmul_rn(rs, rs), __fmul_rn(rp, rp)));
}

extern "C" __global__ void mcml_walk(const mc_layer *lay, int nl, float n,
                                     float r0, float dz, float dr, int nz,
                                     int nr, float *sf, int *si, int nt,
                                     int nsteps, unsigned long long *abs_rz,
                                     unsigned long long *rd,
                                     unsigned long long *tt, int *steps,
                                     int *active)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nt)
        return;
    float x = sf[t], y = sf[nt + t], z = sf[2 * nt + t];
    float ux = sf[3 * nt + t], uy = sf[4 * nt + t], uz = sf[5 * nt + t];
    float w = sf[6 * nt + t], sleft = sf[7 * nt + t];
    int l = si[t], left = si[2 * nt + t], nstep = steps[t];
    unsigned r = (unsigned)si[nt + t];
    for (int k = 0; k < nsteps; k++) {
        if (w == 0.0f) {                          // launch the next photon
            if (left == 0)
                break;
            left--;
            x = 0.0f; y = 0.0f; z = 0.0f;
            ux = 0.0f; uy = 0.0f; uz = 1.0f;
            w = __fsub_rn(1.0f, r0);
            sleft = 0.0f;
            l = 0;
        }
        nstep++;
        const mc_layer *L = lay + l;
        float s;
        if (sleft == 0.0f) {
            s = __fdiv_rn(-__fmul_rn(__log2f(mc_rnd(r)), MC_LN2), L->mut);
        } else {
            s = __fdiv_rn(sleft, L->mut);
            sleft = 0.0f;
        }
        float db = 3.0e38f;
        if (uz > 0.0f)
            db = __fdiv_rn(__fsub_rn(L->z1, z), uz);
        else if (uz < 0.0f)
            db = __fdiv_rn(__fsub_rn(L->z0, z), uz);
        if (s > db) {                             // stops on a boundary
            sleft = __fmul_rn(__fsub_rn(s, db), L->mut);
            x = __fadd_rn(x, __fmul_rn(db, ux));
            y = __fadd_rn(y, __fmul_rn(db, uy));
            z = uz > 0.0f ? L->z1 : L->z0;
            int nlay = uz > 0.0f ? l + 1 : l - 1;
            if (nlay >= 0 && nlay < nl) {
                l = nlay;
            } else if (mc_rnd(r) <= mc_fresnel(n, r0, fabsf(uz))) {
                uz = -uz;
            } else {
                float rad = __fsqrt_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)));
                int ir = min((int)__fdiv_rn(rad, dr), nr - 1);
                mc_tally((uz < 0.0f ? rd : tt) + ir, w);
                w = 0.0f;
                sleft = 0.0f;
            }
        } else {
            x = __fadd_rn(x, __fmul_rn(s, ux));
            y = __fadd_rn(y, __fmul_rn(s, uy));
            z = __fadd_rn(z, __fmul_rn(s, uz));
            float dw = __fmul_rn(w, L->ratio);
            w = __fsub_rn(w, dw);
            float rad = __fsqrt_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)));
            int ir = min((int)__fdiv_rn(rad, dr), nr - 1);
            int iz = max(min((int)__fdiv_rn(z, dz), nz - 1), 0);
            mc_tally(abs_rz + iz * nr + ir, dw);
            float g = L->g, cost;
            float xi = mc_rnd(r);
            if (g == 0.0f) {
                cost = __fsub_rn(__fmul_rn(2.0f, xi), 1.0f);
            } else {
                float g2 = __fmul_rn(g, g);
                float tmp = __fdiv_rn(__fsub_rn(1.0f, g2),
                                      __fadd_rn(__fsub_rn(1.0f, g),
                                                __fmul_rn(__fmul_rn(2.0f, g), xi)));
                cost = __fdiv_rn(__fsub_rn(__fadd_rn(1.0f, g2), __fmul_rn(tmp, tmp)),
                                 __fmul_rn(2.0f, g));
                cost = fminf(fmaxf(cost, -1.0f), 1.0f);
            }
            float sint = __fsqrt_rn(__fsub_rn(1.0f, __fmul_rn(cost, cost)));
            float psi = __fmul_rn(MC_2PI, mc_rnd(r));
            float cosp = __cosf(psi), sinp = __sinf(psi);
            if (fabsf(uz) > 0.99999f) {
                ux = __fmul_rn(sint, cosp);
                uy = __fmul_rn(sint, sinp);
                uz = uz >= 0.0f ? cost : -cost;
            } else {
                float tmp = __fsqrt_rn(__fsub_rn(1.0f, __fmul_rn(uz, uz)));
                float a = __fsub_rn(__fmul_rn(__fmul_rn(ux, uz), cosp), __fmul_rn(uy, sinp));
                float b = __fadd_rn(__fmul_rn(__fmul_rn(uy, uz), cosp), __fmul_rn(ux, sinp));
                float nux = __fadd_rn(__fdiv_rn(__fmul_rn(sint, a), tmp), __fmul_rn(ux, cost));
                float nuy = __fadd_rn(__fdiv_rn(__fmul_rn(sint, b), tmp), __fmul_rn(uy, cost));
                uz = __fadd_rn(-__fmul_rn(__fmul_rn(sint, cosp), tmp), __fmul_rn(uz, cost));
                ux = nux;
                uy = nuy;
            }
        }
        if (w > 0.0f && w < MC_WTH) {             // roulette
            if (mc_rnd(r) <= MC_CHANCE)
                w = __fdiv_rn(w, MC_CHANCE);
            else
                w = 0.0f;
        }
    }
    sf[t] = x; sf[nt + t] = y; sf[2 * nt + t] = z;
    sf[3 * nt + t] = ux; sf[4 * nt + t] = uy; sf[5 * nt + t] = uz;
    sf[6 * nt + t] = w; sf[7 * nt + t] = sleft;
    si[t] = l; si[nt + t] = (int)r; si[2 * nt + t] = left;
    steps[t] = nstep;
    if (w > 0.0f || left > 0)
        atomicAdd(active, 1);
}
