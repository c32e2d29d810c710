/* CUDA device printf formatting (vprintf's argument-buffer convention).
 * The CUDA driver formats device printf on the host with the C library's
 * printf; this does the same, one conversion at a time, with widths and
 * precisions resolved from the buffer first, so the text equals what the
 * host C library prints for the same values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec_printf.h"

#define STR_MAX (1u << 20)      /* longest %s string read from the device */

int exec_text_add(struct exec_text *out, const char *s, size_t n)
{
    if (out->len + n + 1 > out->cap) {
        size_t nc = out->cap ? out->cap : 128;
        while (nc < out->len + n + 1)
            nc *= 2;
        char *r = realloc(out->s, nc);
        if (!r)
            return -1;
        out->s = r;
        out->cap = nc;
    }
    memcpy(out->s + out->len, s, n);
    out->len += n;
    out->s[out->len] = 0;
    return 0;
}

/* The argument cursor: offset into the buffer, aligned per argument. */
struct args {
    uint64_t base, off;
    exec_read_fn rd;
    void *user;
    int n;
};

static int arg_read(struct args *a, unsigned size, uint64_t *v)
{
    a->off = (a->off + size - 1) / size * size;
    uint64_t x = 0;
    if (a->rd(a->user, a->base + a->off, &x, size) != 0)
        return -1;
    a->off += size;
    a->n++;
    *v = size == 4 ? (uint64_t)(uint32_t)x : x;
    return 0;
}

/* Appends a device string (up to its NUL) to t; "(null)" for 0. */
static int add_dev_string(struct args *a, uint64_t p, struct exec_text *t)
{
    if (p == 0)
        return exec_text_add(t, "(null)", 6);
    for (uint32_t i = 0; i < STR_MAX; i++) {
        char c;
        if (a->rd(a->user, p + i, &c, 1) != 0)
            return -1;
        if (c == 0)
            return 0;
        if (exec_text_add(t, &c, 1) != 0)
            return -1;
    }
    return 0;
}

/* snprintf into out, growing as needed; the format has one conversion. */
static int emit(struct exec_text *out, const char *spec, int kind,
                long long iv, unsigned long long uv, double dv, const char *sv)
{
    char small[128];
    int k;
    switch (kind) {
    case 0: k = snprintf(small, sizeof small, spec, iv); break;
    case 1: k = snprintf(small, sizeof small, spec, uv); break;
    case 2: k = snprintf(small, sizeof small, spec, dv); break;
    case 3: k = snprintf(small, sizeof small, spec, (int)iv); break;
    case 4: k = snprintf(small, sizeof small, spec, sv); break;
    default: k = snprintf(small, sizeof small, spec, (void *)(uintptr_t)uv); break;
    }
    if (k < 0)
        return -1;
    if ((size_t)k < sizeof small)
        return exec_text_add(out, small, (size_t)k);
    char *big = malloc((size_t)k + 1);
    if (!big)
        return -1;
    switch (kind) {
    case 0: snprintf(big, (size_t)k + 1, spec, iv); break;
    case 1: snprintf(big, (size_t)k + 1, spec, uv); break;
    case 2: snprintf(big, (size_t)k + 1, spec, dv); break;
    case 3: snprintf(big, (size_t)k + 1, spec, (int)iv); break;
    case 4: snprintf(big, (size_t)k + 1, spec, sv); break;
    default: snprintf(big, (size_t)k + 1, spec, (void *)(uintptr_t)uv); break;
    }
    int r = exec_text_add(out, big, (size_t)k);
    free(big);
    return r;
}

int exec_printf_format(const char *fmt, uint64_t argbuf, exec_read_fn rd,
                       void *user, struct exec_text *out)
{
    struct args a = { argbuf, 0, rd, user, 0 };
    const char *p = fmt;
    while (*p) {
        const char *pct = strchr(p, '%');
        if (!pct)
            return exec_text_add(out, p, strlen(p)) == 0 ? a.n : -1;
        if (exec_text_add(out, p, (size_t)(pct - p)) != 0)
            return -1;
        const char *q = pct + 1;
        if (*q == '%') {
            if (exec_text_add(out, "%", 1) != 0)
                return -1;
            p = q + 1;
            continue;
        }
        /* %[flags][width][.precision][length]conv */
        char spec[64];
        size_t sl = 0;
        spec[sl++] = '%';
        while (*q && strchr("-+ #0", *q)) {
            if (sl < 16)
                spec[sl++] = *q;
            q++;
        }
        uint64_t v;
        if (*q == '*') {
            if (arg_read(&a, 4, &v) != 0)
                return -1;
            sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", (int)(int32_t)v);
            q++;
        } else {
            while (*q >= '0' && *q <= '9') {
                if (sl < 30)
                    spec[sl++] = *q;
                q++;
            }
        }
        if (*q == '.') {
            q++;
            if (*q == '*') {
                if (arg_read(&a, 4, &v) != 0)
                    return -1;
                int pr = (int)(int32_t)v;
                if (pr >= 0)    /* a negative precision is taken as omitted */
                    sl += (size_t)snprintf(spec + sl, sizeof spec - sl, ".%d", pr);
                q++;
            } else {
                spec[sl++] = '.';
                while (*q >= '0' && *q <= '9') {
                    if (sl < 44)
                        spec[sl++] = *q;
                    q++;
                }
            }
        }
        int lng = 0;            /* -2 hh, -1 h, 0, 1 l, 2 ll (j z t L: 64-bit) */
        for (;;) {
            if (*q == 'h') lng = lng == -1 ? -2 : -1;
            else if (*q == 'l') lng = lng == 1 ? 2 : 1;
            else if (*q == 'j' || *q == 'z' || *q == 't' || *q == 'L' || *q == 'q') lng = 2;
            else break;
            q++;
        }
        char c = *q;
        if (!c) {               /* a lone '%' at the end: printed as is */
            if (exec_text_add(out, pct, strlen(pct)) != 0)
                return -1;
            break;
        }
        q++;
        unsigned isz = lng > 0 ? 8 : 4;
        int r = 0;
        switch (c) {
        case 'd': case 'i': {
            if (arg_read(&a, isz, &v) != 0)
                return -1;
            long long x = isz == 8 ? (long long)(int64_t)v : (long long)(int32_t)v;
            if (lng == -1) x = (short)x;
            if (lng == -2) x = (signed char)x;
            memcpy(spec + sl, "ll", 2); sl += 2;
            spec[sl++] = 'd'; spec[sl] = 0;
            r = emit(out, spec, 0, x, 0, 0, NULL);
            break;
        }
        case 'u': case 'x': case 'X': case 'o': {
            if (arg_read(&a, isz, &v) != 0)
                return -1;
            unsigned long long x = v;
            if (lng == -1) x = (unsigned short)x;
            if (lng == -2) x = (unsigned char)x;
            memcpy(spec + sl, "ll", 2); sl += 2;
            spec[sl++] = c; spec[sl] = 0;
            r = emit(out, spec, 1, 0, x, 0, NULL);
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
        case 'a': case 'A': {
            if (arg_read(&a, 8, &v) != 0)
                return -1;
            double d;
            memcpy(&d, &v, 8);
            spec[sl++] = c; spec[sl] = 0;
            r = emit(out, spec, 2, 0, 0, d, NULL);
            break;
        }
        case 'c': {
            if (arg_read(&a, isz, &v) != 0)
                return -1;
            spec[sl++] = 'c'; spec[sl] = 0;
            r = emit(out, spec, 3, (long long)(unsigned char)v, 0, 0, NULL);
            break;
        }
        case 's': {
            if (arg_read(&a, 8, &v) != 0)
                return -1;
            struct exec_text s = { 0 };
            if (add_dev_string(&a, v, &s) != 0 ||
                (s.s == NULL && exec_text_add(&s, "", 0) != 0)) {
                free(s.s);
                return -1;
            }
            spec[sl++] = 's'; spec[sl] = 0;
            r = emit(out, spec, 4, 0, 0, 0, s.s);
            free(s.s);
            break;
        }
        case 'p': {
            if (arg_read(&a, 8, &v) != 0)
                return -1;
            spec[sl++] = 'p'; spec[sl] = 0;
            r = emit(out, spec, 5, 0, v, 0, NULL);
            break;
        }
        default:                /* %n and unknown conversions: printed as is */
            r = exec_text_add(out, pct, (size_t)(q - pct));
            break;
        }
        if (r != 0)
            return -1;
        p = q;
    }
    return a.n;
}
