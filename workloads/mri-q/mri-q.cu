// MRI Q-matrix computation (non-Cartesian k-space reconstruction): for
// every voxel x,
//   Qr(x) = sum_k |phi_k|^2 cos(2 pi k . x),  Qi(x) = sum_k |phi_k|^2 sin(2 pi k . x).
//
// mriq_phimag: one thread per k-space sample, |phi|^2 = re^2 + im^2.
// mriq_q: one thread per voxel. The k-space samples (kx, ky, kz, |phi|^2)
// do not fit in constant memory at once, so the host copies them in chunks
// of MRIQ_CHUNK into the __constant__ array c_k and launches mriq_q once
// per chunk; each launch reads the voxel's running sums, adds the chunk's
// terms and writes them back. Every thread of a warp reads the same sample
// at the same time (a constant-cache broadcast). The only divergence is
// the voxel-count guard of the last CTA.

#define MRIQ_CHUNK 128

struct mriq_k { float x, y, z, phimag; };

__constant__ mriq_k c_k[MRIQ_CHUNK];

extern "C" __global__ void mriq_phimag(const float *re, const float *im,
                                       float *phimag, int numk)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < numk) {
        float r = re[k], i = im[k];
        phimag[k] = fmaf(r, r, i * i);
    }
}

extern "C" __global__ void mriq_q(const float *x, const float *y,
                                  const float *z, float *qr, float *qi,
                                  int numx, int nk)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= numx)
        return;
    float sx = x[v], sy = y[v], sz = z[v];
    float accr = qr[v], acci = qi[v];
    for (int k = 0; k < nk; k++) {
        float arg = 6.2831853071795864769f *
                    (c_k[k].x * sx + c_k[k].y * sy + c_k[k].z * sz);
        float s, c;
        sincosf(arg, &s, &c);
        accr += c_k[k].phimag * c;
        acci += c_k[k].phimag * s;
    }
    qr[v] = accr;
    qi[v] = acci;
}
