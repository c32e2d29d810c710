/* The fat binary nvcc embeds in a program (.nv_fatbin) and registers with
 * __cudaRegisterFatBinary: a wrapper {magic 0x466243b1, version, data},
 * data = a header {magic 0xba55ed50, version, header size, payload size}
 * followed by entries, each with its own header: kind (1 PTX, 2 ELF
 * cubin), header size, payload sizes, target architecture, flags (0x2000:
 * LZ4 block, 0x8000: zstd frame; nvcc 13 compresses with zstd unless
 * -compress-mode none|speed or -no-compress) and the uncompressed size.
 * Layout found by inspecting nvcc 13.0's output (docs/cuda-programs.md). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_int.h"

#define FATBINC_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xba55ed50u
#define FB_KIND_PTX 1
#define FB_FLAG_LZ4 0x2000u
#define FB_FLAG_ZSTD 0x8000u
#define FB_MAX_BYTES (256u << 20)

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

int cudart_lz4_block(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    size_t i = 0, o = 0;
    while (i < n) {
        unsigned tok = in[i++];
        size_t lit = tok >> 4;
        if (lit == 15) {
            unsigned b;
            do {
                if (i >= n)
                    return -1;
                b = in[i++];
                lit += b;
            } while (b == 255);
        }
        if (lit > n - i || lit > cap - o)
            return -1;
        memcpy(out + o, in + i, lit);
        i += lit;
        o += lit;
        if (i == n)
            break;                  /* the last sequence has no match */
        if (n - i < 2)
            return -1;
        size_t off = in[i] | (size_t)in[i + 1] << 8;
        i += 2;
        size_t mlen = (tok & 15u) + 4;
        if ((tok & 15u) == 15) {
            unsigned b;
            do {
                if (i >= n)
                    return -1;
                b = in[i++];
                mlen += b;
            } while (b == 255);
        }
        if (off == 0 || off > o || mlen > cap - o)
            return -1;
        for (size_t k = 0; k < mlen; k++, o++)   /* may overlap: bytewise */
            out[o] = out[o - off];
    }
    return o == cap ? 0 : -1;
}

/* zstd through the system library (dlopen: no build dependency). */
static int zstd_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap,
                       char *err, size_t errlen)
{
    void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(err, errlen, "the fat binary's PTX is zstd-compressed (nvcc 13's "
                 "default) and libzstd.so.1 is not installed: install it, or "
                 "rebuild with nvcc -compress-mode none (or -compress-mode speed, "
                 "LZ4, which Lockstep decodes itself)");
        return -1;
    }
    size_t (*dec)(void *, size_t, const void *, size_t);
    unsigned (*is_err)(size_t);
    const char *(*ename)(size_t);
    *(void **)&dec = dlsym(h, "ZSTD_decompress");
    *(void **)&is_err = dlsym(h, "ZSTD_isError");
    *(void **)&ename = dlsym(h, "ZSTD_getErrorName");
    int rc = -1;
    if (!dec || !is_err || !ename) {
        snprintf(err, errlen, "libzstd.so.1 lacks ZSTD_decompress: rebuild with "
                 "nvcc -compress-mode none");
    } else {
        size_t r = dec(out, cap, in, n);
        if (is_err(r))
            snprintf(err, errlen, "zstd: %s (fat binary PTX entry)", ename(r));
        else if (r != cap)
            snprintf(err, errlen, "zstd: PTX entry decoded to %zu bytes, header "
                     "says %zu", r, cap);
        else
            rc = 0;
    }
    dlclose(h);
    return rc;
}

int cudart_fatbin_ptx(const void *wrapper, char **ptx, size_t *len,
                      char *err, size_t errlen)
{
    *ptx = NULL;
    *len = 0;
    const uint8_t *w = wrapper;
    if (!w || rd32(w) != FATBINC_MAGIC) {
        snprintf(err, errlen, "not an nvcc fat binary wrapper (magic 0x%08x, "
                 "want 0x%08x)", w ? rd32(w) : 0u, FATBINC_MAGIC);
        return -1;
    }
    const uint8_t *fb = (const uint8_t *)(uintptr_t)rd64(w + 8);
    if (!fb || rd32(fb) != FATBIN_MAGIC) {
        snprintf(err, errlen, "fat binary data: bad magic (relocatable device "
                 "code, -rdc, is not supported: build without -rdc)");
        return -1;
    }
    unsigned hsz = rd16(fb + 6);
    uint64_t total = rd64(fb + 8);
    if (total > FB_MAX_BYTES) {
        snprintf(err, errlen, "fat binary of %llu bytes is over the %u MiB limit",
                 (unsigned long long)total, FB_MAX_BYTES >> 20);
        return -1;
    }
    const uint8_t *e = fb + hsz, *end = fb + hsz + total, *best = NULL;
    unsigned best_arch = 0, nptx = 0, ncubin = 0;
    while (e + 64 <= end) {
        unsigned kind = rd16(e), ehsz = rd32(e + 4);
        uint64_t padded = rd64(e + 8);
        unsigned arch = rd32(e + 28);
        if (ehsz < 64 || padded > (uint64_t)(end - e) - ehsz)
            break;
        if (kind == FB_KIND_PTX) {
            nptx++;
            if (!best || (best_arch != 75 && (arch == 75 || arch < best_arch))) {
                best = e;
                best_arch = arch;
            }
        } else {
            ncubin++;
        }
        e += ehsz + padded;
    }
    if (!best) {
        snprintf(err, errlen, "the fat binary has no PTX (%u cubin entries): "
                 "Lockstep runs PTX; build with -gencode "
                 "arch=compute_75,code=compute_75", ncubin);
        return -1;
    }
    unsigned ehsz = rd32(best + 4);
    uint64_t padded = rd64(best + 8), csize = rd32(best + 16);
    uint64_t flags = rd64(best + 40), usize = rd64(best + 56);
    const uint8_t *pay = best + ehsz;
    int lz4 = (flags & FB_FLAG_LZ4) != 0, zstd = (flags & FB_FLAG_ZSTD) != 0;
    uint64_t outsz = (lz4 || zstd) ? usize : padded;
    if ((lz4 || zstd) && (csize == 0 || csize > padded)) {
        snprintf(err, errlen, "PTX entry: compressed size %llu outside its %llu "
                 "bytes", (unsigned long long)csize, (unsigned long long)padded);
        return -1;
    }
    if (outsz > FB_MAX_BYTES) {
        snprintf(err, errlen, "PTX entry of %llu bytes is over the limit",
                 (unsigned long long)outsz);
        return -1;
    }
    char *out = malloc((size_t)outsz + 1);
    if (!out) {
        snprintf(err, errlen, "out of host memory decoding %llu PTX bytes",
                 (unsigned long long)outsz);
        return -1;
    }
    if (lz4) {
        if (cudart_lz4_block(pay, (size_t)csize, (uint8_t *)out, (size_t)outsz)) {
            snprintf(err, errlen, "PTX entry: malformed LZ4 block (%llu bytes "
                     "to %llu): rebuild with nvcc -compress-mode none",
                     (unsigned long long)csize, (unsigned long long)outsz);
            free(out);
            return -1;
        }
    } else if (zstd) {
        if (zstd_decode(pay, (size_t)csize, (uint8_t *)out, (size_t)outsz, err, errlen)) {
            free(out);
            return -1;
        }
    } else if (flags & ~(uint64_t)0x1fff) {
        snprintf(err, errlen, "PTX entry: unknown compression flags 0x%llx: "
                 "rebuild with nvcc -compress-mode none",
                 (unsigned long long)flags);
        free(out);
        return -1;
    } else {
        memcpy(out, pay, (size_t)outsz);
    }
    out[outsz] = 0;
    *len = strlen(out);          /* the payload is NUL-padded */
    *ptx = out;
    (void)nptx;
    return 0;
}
