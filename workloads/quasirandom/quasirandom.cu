// quasirandom: Sobol/Niederreiter-style base-2 quasirandom points. Point i of
// dimension d is the XOR of the direction vectors c_dir[d][b] for every set
// bit b of (seed + i); the table lives in __constant__ memory and is filled
// by the host through the module symbol. The bit loop stops at the highest
// set bit, so lanes run different trip counts and the `if (data & 1)`
// inside it diverges bit by bit. threadIdx.y selects the dimension.
#define QRNG_DIMS 3
#define QRNG_BITS 32

__constant__ unsigned c_dir[QRNG_DIMS][QRNG_BITS];

extern "C" __global__ void quasirandom(float *out, unsigned *raw,
                                       unsigned seed, unsigned n)
{
    const unsigned *dim = c_dir[threadIdx.y];
    unsigned stride = blockDim.x * gridDim.x;
    for (unsigned pos = blockIdx.x * blockDim.x + threadIdx.x; pos < n;
         pos += stride) {
        unsigned result = 0;
        unsigned data = seed + pos;
        for (int bit = 0; data != 0; bit++, data >>= 1)
            if (data & 1)
                result ^= dim[bit];
        raw[threadIdx.y * n + pos] = result;
        // (result + 1) / 2^32 in (0, 1]
        out[threadIdx.y * n + pos] = (float)(result + 1u) * (1.0f / 4294967296.0f);
    }
}
