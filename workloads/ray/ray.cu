// Whitted-style ray tracing of a seeded scene of spheres, one thread per
// pixel. Sphere s is 8 floats at sph[8 s]: centre (x, y, z), radius,
// colour (r, g, b) and reflectivity (0 for matte spheres); sphere 0 is a
// huge, slightly reflective ground below the others. The camera sits at the
// origin looking down -z through a w x h image plane at z = -1 (x in
// [-aspect, aspect], y in [-1, 1]); a point light sits at lp.
//
// Per pixel, for up to RAY_BOUNCES segments:
//   1. nearest hit over all spheres (t = -b - sqrt(b^2 - c), or the far
//      root when the near one is behind the origin); a miss adds the sky
//      colour times the path's throughput and ends the path;
//   2. a shadow ray to the light tests the spheres in order and stops at
//      the first occluder;
//   3. the surface adds throughput * (1 - refl) * colour * (ambient +
//      max(0, n.l) unless shadowed);
//   4. a matte sphere, or a throughput below RAY_MIN_TP, ends the path;
//      otherwise the ray reflects (d - 2 (d.n) n) and the throughput is
//      multiplied by refl.
// The colour (3 floats) and the number of segments go to out[] and nseg[].
//
// Divergent: neighbouring pixels hit different spheres, take the far root
// or not, stop their shadow loops at different spheres and bounce a
// different number of times. All arithmetic is __f*_rn (no contraction)
// so the CPU reference can replay it bit for bit.

#define RAY_BOUNCES 6
#define RAY_EPS 1e-3f
#define RAY_MIN_TP 0.02f
#define RAY_AMBIENT 0.1f

__device__ __forceinline__ float ray_dot(float ax, float ay, float az,
                                         float bx, float by, float bz)
{
    return __fadd_rn(__fadd_rn(__fmul_rn(ax, bx), __fmul_rn(ay, by)),
                     __fmul_rn(az, bz));
}

// Distance along (dx, dy, dz) from (ox, oy, oz) to sphere s, or -1.
__device__ __forceinline__ float ray_hit(const float *s, float ox, float oy,
                                         float oz, float dx, float dy,
                                         float dz)
{
    float px = __fsub_rn(ox, s[0]), py = __fsub_rn(oy, s[1]),
          pz = __fsub_rn(oz, s[2]);
    float b = ray_dot(px, py, pz, dx, dy, dz);
    float c = __fsub_rn(ray_dot(px, py, pz, px, py, pz), __fmul_rn(s[3], s[3]));
    float disc = __fsub_rn(__fmul_rn(b, b), c);
    if (disc <= 0.0f)
        return -1.0f;
    float q = __fsqrt_rn(disc);
    float t = __fsub_rn(-b, q);
    if (t <= RAY_EPS)
        t = __fadd_rn(-b, q);
    return t > RAY_EPS ? t : -1.0f;
}

extern "C" __global__ void ray_trace(const float *sph, int ns, float lx,
                                     float ly, float lz, int w, int h,
                                     float *out, int *nseg)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float aspect = __fdiv_rn((float)w, (float)h);
    float u = __fmul_rn(__fsub_rn(__fdiv_rn(__fmul_rn(2.0f, __fadd_rn((float)x, 0.5f)),
                                            (float)w), 1.0f), aspect);
    float v = __fsub_rn(1.0f, __fdiv_rn(__fmul_rn(2.0f, __fadd_rn((float)y, 0.5f)),
                                        (float)h));
    float inv = __fdiv_rn(1.0f, __fsqrt_rn(ray_dot(u, v, -1.0f, u, v, -1.0f)));
    float dx = __fmul_rn(u, inv), dy = __fmul_rn(v, inv), dz = -inv;
    float ox = 0.0f, oy = 0.0f, oz = 0.0f;
    float cr = 0.0f, cg = 0.0f, cb = 0.0f, tp = 1.0f;
    int seg = 0;
    while (seg < RAY_BOUNCES) {
        seg++;
        float tbest = 3.0e38f;
        int hit = -1;
        for (int s = 0; s < ns; s++) {
            float t = ray_hit(sph + 8 * s, ox, oy, oz, dx, dy, dz);
            if (t > 0.0f && t < tbest) {
                tbest = t;
                hit = s;
            }
        }
        if (hit < 0) {                      // sky: a gradient in dy
            float k = __fmul_rn(0.5f, __fadd_rn(dy, 1.0f));
            cr = __fadd_rn(cr, __fmul_rn(tp, __fadd_rn(0.5f, __fmul_rn(0.2f, k))));
            cg = __fadd_rn(cg, __fmul_rn(tp, __fadd_rn(0.6f, __fmul_rn(0.2f, k))));
            cb = __fadd_rn(cb, __fmul_rn(tp, __fadd_rn(0.8f, __fmul_rn(0.2f, k))));
            break;
        }
        const float *s = sph + 8 * hit;
        float px = __fadd_rn(ox, __fmul_rn(tbest, dx));
        float py = __fadd_rn(oy, __fmul_rn(tbest, dy));
        float pz = __fadd_rn(oz, __fmul_rn(tbest, dz));
        float nx = __fdiv_rn(__fsub_rn(px, s[0]), s[3]);
        float ny = __fdiv_rn(__fsub_rn(py, s[1]), s[3]);
        float nz = __fdiv_rn(__fsub_rn(pz, s[2]), s[3]);
        float ax = __fsub_rn(lx, px), ay = __fsub_rn(ly, py), az = __fsub_rn(lz, pz);
        float dist = __fsqrt_rn(ray_dot(ax, ay, az, ax, ay, az));
        ax = __fdiv_rn(ax, dist);
        ay = __fdiv_rn(ay, dist);
        az = __fdiv_rn(az, dist);
        float lit = ray_dot(nx, ny, nz, ax, ay, az);
        if (lit > 0.0f) {
            for (int o = 0; o < ns; o++) {
                float t = ray_hit(sph + 8 * o, px, py, pz, ax, ay, az);
                if (t > 0.0f && t < dist) {
                    lit = 0.0f;
                    break;
                }
            }
        } else {
            lit = 0.0f;
        }
        float refl = s[7];
        float k = __fmul_rn(__fmul_rn(tp, __fsub_rn(1.0f, refl)),
                            __fadd_rn(RAY_AMBIENT, lit));
        cr = __fadd_rn(cr, __fmul_rn(k, s[4]));
        cg = __fadd_rn(cg, __fmul_rn(k, s[5]));
        cb = __fadd_rn(cb, __fmul_rn(k, s[6]));
        tp = __fmul_rn(tp, refl);
        if (tp < RAY_MIN_TP)
            break;
        float dn2 = __fmul_rn(2.0f, ray_dot(dx, dy, dz, nx, ny, nz));
        dx = __fsub_rn(dx, __fmul_rn(dn2, nx));
        dy = __fsub_rn(dy, __fmul_rn(dn2, ny));
        dz = __fsub_rn(dz, __fmul_rn(dn2, nz));
        ox = px;
        oy = py;
        oz = pz;
    }
    int i = y * w + x;
    out[3 * i] = cr;
    out[3 * i + 1] = cg;
    out[3 * i + 2] = cb;
    nseg[i] = seg;
}
