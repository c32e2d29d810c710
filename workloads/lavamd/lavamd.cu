// Particle interactions within neighbouring boxes (an N-body step cut into
// boxes, in the manner of molecular-dynamics cell lists). Space is split
// into unit boxes, each holding LAVA_P particles; a particle interacts with
// every particle of its own box and of the up to 26 boxes around it through
// a Gaussian-screened pair potential:
//   u2 = a2 * |ra - rb|^2, v = exp(-u2), pot += qb * v,
//   force += qb * (2 v) * (ra - rb).
// One CTA of LAVA_NT threads per home box: the home box's positions are
// staged in shared memory once, then for each neighbour box its positions
// and charges are staged in shared memory (two barriers per neighbour) and
// every thread that owns a home particle sums over the staged particles.
//
// LAVA_NT is larger than LAVA_P, so the last warp of every CTA has only
// LAVA_P - 32 lanes working in the pair loop; the others only take part in
// the barriers.

#define LAVA_P 50
#define LAVA_NT 64
#define LAVA_MAXNEI 27

extern "C" __global__ void lava_forces(const float4 *pos, const float *charge,
                                       const int *nnei, const int *nei,
                                       float4 *force, float a2)
{
    __shared__ float4 ra[LAVA_P];
    __shared__ float4 rb[LAVA_P];
    __shared__ float qb[LAVA_P];
    int box = blockIdx.x, t = threadIdx.x;
    int home = box * LAVA_P;
    if (t < LAVA_P)
        ra[t] = pos[home + t];
    float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);   // x, y, z force; w potential
    int n = nnei[box];
    for (int k = 0; k < n; k++) {
        int other = nei[box * LAVA_MAXNEI + k] * LAVA_P;
        __syncthreads();           // ra is staged; the last box's readers are done
        if (t < LAVA_P) {
            rb[t] = pos[other + t];
            qb[t] = charge[other + t];
        }
        __syncthreads();
        if (t < LAVA_P) {
            float4 a = ra[t];
            for (int j = 0; j < LAVA_P; j++) {
                float4 b = rb[j];
                float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
                float r2 = dx * dx + dy * dy + dz * dz;
                float v = expf(-a2 * r2);
                float fs = 2.0f * v;
                float q = qb[j];
                f.w += q * v;
                f.x += q * (fs * dx);
                f.y += q * (fs * dy);
                f.z += q * (fs * dz);
            }
        }
    }
    if (t < LAVA_P)
        force[home + t] = f;
}
