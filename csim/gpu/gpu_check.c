/* The launch side of racecheck, synccheck and initcheck (docs/checks.md):
 * one exec_chk per launch, its findings turned into ls_check_finding
 * records kept on the GPU, LS_ERR_CHECK under check_error = 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/gpu.h"
#include "exec/exec_check.h"

/* the check bits exec takes are the choices of the `check` key */
_Static_assert(EXEC_CHK_MEM == CFG_CHECK_MEMCHECK && EXEC_CHK_RACE == CFG_CHECK_RACECHECK &&
               EXEC_CHK_SYNC == CFG_CHECK_SYNCCHECK && EXEC_CHK_INIT == CFG_CHECK_INITCHECK &&
               EXEC_CHK_GRACE == CFG_CHECK_GLOBALRACE,
               "EXEC_CHK_* differ from the choices of the check key (cfg_keys.def)");

void gpu_check_begin(ls_gpu *gpu, struct exec_chk *c, const struct ls_module *m,
                     const struct ptx_func *f, ls_dim3 grid, ls_dim3 block,
                     uint64_t shared_bytes, uint64_t local_stride)
{
    (void)f;
    unsigned mask = (unsigned)gpu->tcfg.check & (EXEC_CHK_RACE | EXEC_CHK_SYNC |
                                                 EXEC_CHK_INIT | EXEC_CHK_GRACE);
    uint32_t ntid[3] = { block.x, block.y, block.z };
    uint32_t nctaid[3] = { grid.x, grid.y, grid.z };
    exec_chk_init(c, mask, m->ptx, ntid, nctaid, shared_bytes, local_stride);
    /* memcheck: the mode every warp's memory accesses see, and where
     * warn's findings go (exec_chk_oob, from the SIMT layer) */
    gpu->dmem.memcheck = (uint8_t)gpu->tcfg.memcheck;
    gpu->dmem.oob_chk = gpu->tcfg.memcheck == 1 ? c : NULL;
}

static void tid3(const struct exec_chk *c, uint64_t t, unsigned out[3])
{
    out[0] = (unsigned)(t % c->ntid[0]);
    out[1] = (unsigned)(t / c->ntid[0] % c->ntid[1]);
    out[2] = (unsigned)(t / ((uint64_t)c->ntid[0] * c->ntid[1]));
}

static void cta3(const struct exec_chk *c, uint64_t cta, unsigned out[3])
{
    out[0] = (unsigned)(cta % c->nctaid[0]);
    out[1] = (unsigned)(cta / c->nctaid[0] % c->nctaid[1]);
    out[2] = (unsigned)(cta / ((uint64_t)c->nctaid[0] * c->nctaid[1]));
}

static void access_of(const struct exec_chk *c, ls_check_access *a, uint64_t cta,
                      uint32_t tid, const struct ptx_func *f, int32_t pc, bool write)
{
    cta3(c, cta, a->cta);
    tid3(c, tid, a->tid);
    a->pc = pc;
    a->line = f && (uint32_t)pc < f->ninsts ? f->insts[pc].line : 0;
    a->write = write;
    snprintf(a->func, sizeof a->func, "%s", f && f->name ? f->name : "?");
    uint32_t sl;
    const char *sf = ptx_srcloc_of(c->mod, f, pc, &sl);
    if (sf) {
        const char *base = strrchr(sf, '/');    /* the file name, as CUDA's
                                                 * own reports give it */
        snprintf(a->src, sizeof a->src, "%s:%u", base ? base + 1 : sf, sl);
    } else {
        a->src[0] = 0;
    }
}

static const char *space_name(unsigned sp)
{
    switch (sp) {
    case PTX_SP_GLOBAL: return "global";
    case PTX_SP_SHARED: return "shared";
    case PTX_SP_LOCAL:  return "local";
    case PTX_SP_CONST:  return "const";
    default:            return "";
    }
}

ls_status gpu_check_end(ls_gpu *gpu, struct exec_chk *c, const struct ls_module *m,
                        const struct ptx_func *f, ls_status st)
{
    gpu->dmem.oob_chk = NULL;
    if (!c->mask && !c->nfd) {
        exec_chk_free(c);
        return st;
    }
    exec_chk_finish(c);
    size_t first = gpu->nchk;
    if (c->nfd && gpu->nchk + c->nfd > gpu->capchk) {
        size_t nc = gpu->nchk + c->nfd + 16;
        ls_check_finding *n = realloc(gpu->chk, nc * sizeof *n);
        if (!n) {
            exec_chk_free(c);
            return st == LS_OK ? GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted "
                                          "(check findings)") : st;
        }
        gpu->chk = n;
        gpu->capchk = nc;
    }
    for (uint32_t i = 0; i < c->nfd; i++) {
        const struct exec_chk_finding *x = &c->fd[i];
        ls_check_finding *o = &gpu->chk[gpu->nchk++];
        memset(o, 0, sizeof *o);
        snprintf(o->check, sizeof o->check, "%s", exec_chk_check_name(x->kind));
        snprintf(o->kind, sizeof o->kind, "%s", exec_chk_kind_name(x->kind));
        snprintf(o->kernel, sizeof o->kernel, "%s", f->name ? f->name : "?");
        o->launch = gpu->nlaunch;
        cta3(c, x->cta, o->cta);
        o->naccess = x->nsites;
        access_of(c, &o->a, x->cta, x->tid[0], x->f[0], x->pc[0], x->write[0]);
        if (x->nsites > 1)
            access_of(c, &o->b, x->cta2, x->tid[1], x->f[1], x->pc[1], x->write[1]);
        o->lanes = x->lanes;
        snprintf(o->space, sizeof o->space, "%s",
                 x->kind <= EXEC_CHK_K_WAR || x->kind >= EXEC_CHK_K_INIT
                     ? space_name(x->space) : "");
        o->addr = x->addr;
        o->count = x->count;
    }
    bool oom = c->oom;
    exec_chk_free(c);
    if (st != LS_OK)
        return st;
    if (oom)
        return GPU_FAIL(gpu, LS_ERR_NOMEM, "host memory exhausted (check shadow "
                        "state of kernel %s): its findings are incomplete", f->name);
    if (gpu->tcfg.check_error && gpu->nchk > first) {
        char line[1024];
        gpu_check_format(&gpu->chk[first], line, sizeof line);
        uint32_t pl = (uint32_t)gpu->chk[first].a.pc < f->ninsts
                          ? gpu->chk[first].a.line : f->line;
        return gpu_fail(gpu, LS_ERR_CHECK, m->ptx->file ? m->ptx->file : m->name, (int)pl,
                        "%zu check finding%s in kernel %s (check_error = 1); first: %s",
                        gpu->nchk - first, gpu->nchk - first == 1 ? "" : "s",
                        f->name, line);
    }
    return LS_OK;
}

char *gpu_check_format(const ls_check_finding *f, char *buf, size_t n)
{
    if (!buf || !n)
        return buf;
    if (!f) {
        snprintf(buf, n, "(null)");
        return buf;
    }
    const ls_check_access *a = &f->a, *b = &f->b;
    char where[96] = "";
    if (f->space[0])
        snprintf(where, sizeof where, ", %s 0x%llx", f->space, (unsigned long long)f->addr);
    else if (!strcmp(f->kind, "barrier-count-mismatch"))
        snprintf(where, sizeof where, ", thread counts differ (smallest %llu)",
                 (unsigned long long)f->addr);
    else if (f->lanes)
        snprintf(where, sizeof where, ", lanes 0x%08x, member mask 0x%08x", f->lanes,
                 (unsigned)f->addr);
    if (f->naccess > 1 && !strcmp(f->check, "globalrace"))
        snprintf(buf, n, "%s %s: kernel %s launch %u%s: write by CTA (%u,%u,%u) thread "
                 "(%u,%u,%u) at pc %d line %u (%s%s%s), write by CTA (%u,%u,%u) thread "
                 "(%u,%u,%u) at pc %d line %u (%s%s%s); %llu byte%s", f->check, f->kind,
                 f->kernel, f->launch, where, a->cta[0], a->cta[1], a->cta[2],
                 a->tid[0], a->tid[1], a->tid[2], a->pc, a->line, a->func, a->src[0] ? " " : "", a->src,
                 b->cta[0], b->cta[1], b->cta[2], b->tid[0], b->tid[1], b->tid[2],
                 b->pc, b->line, b->func, b->src[0] ? " " : "", b->src, (unsigned long long)f->count,
                 f->count == 1 ? "" : "s");
    else if (f->naccess > 1)
        snprintf(buf, n, "%s %s: kernel %s launch %u, CTA (%u,%u,%u)%s: %s by thread "
                 "(%u,%u,%u) at pc %d line %u (%s%s%s), %s by thread (%u,%u,%u) at pc %d "
                 "line %u (%s%s%s); %llu instance%s", f->check, f->kind, f->kernel,
                 f->launch, f->cta[0], f->cta[1], f->cta[2], where,
                 f->check[0] == 'r' ? (a->write ? "write" : "read") : "barrier",
                 a->tid[0], a->tid[1], a->tid[2], a->pc, a->line, a->func, a->src[0] ? " " : "", a->src,
                 f->check[0] == 'r' ? (b->write ? "write" : "read") : "barrier",
                 b->tid[0], b->tid[1], b->tid[2], b->pc, b->line, b->func, b->src[0] ? " " : "", b->src,
                 (unsigned long long)f->count, f->count == 1 ? "" : "s");
    else
        snprintf(buf, n, "%s %s: kernel %s launch %u, CTA (%u,%u,%u), thread (%u,%u,%u) "
                 "at pc %d line %u (%s%s%s)%s; %llu instance%s", f->check, f->kind,
                 f->kernel, f->launch, f->cta[0], f->cta[1], f->cta[2], a->tid[0],
                 a->tid[1], a->tid[2], a->pc, a->line, a->func, a->src[0] ? " " : "", a->src, where,
                 (unsigned long long)f->count, f->count == 1 ? "" : "s");
    return buf;
}
