/* Commit logs (docs/golden.md): one text line per executed warp
 * instruction, written by an observer on every warp (simt_commit_fn) in
 * functional and in timing mode alike, so the per-warp streams of the two
 * modes can be compared record by record (`lockstep diff --commit-log`).
 *
 *   # lockstep commit log 1
 *   launch 1 vecadd grid 64,1,1 block 256,1,1
 *   1 0.0.0 3 12 L40 add.s32 ffffffff ffffffff %r5=1f,20,21,...
 *   1 0.0.0 3 13 L41 st.global.f32 ffffffff ffffffff a=10000000,... d=3f800000,...
 *
 * Fields: launch, CTA x.y.z, warp in the CTA, pc, PTX source line, opcode
 * with its type, the lanes issued and the lanes that ran it (after the
 * guard; hex), then the values written: each
 * destination register as name=values over the lanes that ran it (lane
 * order, hex; "*v" when every such lane holds v), for memory instructions
 * a= the per-lane addresses and, for st/atom/red, d= the data operand.
 * An atom's destination (the old value) depends on the order in which
 * warps reach the address, so it is written as name=?; so is a bar.red
 * destination (written when the barrier releases, after this record). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/gpu.h"
#include "simt/simt.h"

/* A record under construction (one fwrite per record). */
struct line { char b[8192]; size_t n; };

static void put_s(struct line *L, const char *s)
{
    size_t k = strlen(s);
    if (L->n + k < sizeof L->b) {
        memcpy(L->b + L->n, s, k);
        L->n += k;
    }
}

static void put_hex(struct line *L, uint64_t v)
{
    static const char dig[] = "0123456789abcdef";
    char t[16];
    int k = 0;
    do {
        t[k++] = dig[v & 15];
        v >>= 4;
    } while (v);
    if (L->n + (size_t)k >= sizeof L->b)
        return;
    while (k)
        L->b[L->n++] = t[--k];
}

/* One operand's per-lane values over the lanes of act. */
static void put_vals(struct line *L, const uint64_t *v, uint32_t act)
{
    if (!act) {
        put_s(L, "-");
        return;
    }
    uint64_t u = v[__builtin_ctz(act)];
    int uniform = 1;
    for (uint32_t m = act; m; m &= m - 1)
        if (v[__builtin_ctz(m)] != u) {
            uniform = 0;
            break;
        }
    if (uniform && (act & (act - 1))) {
        put_s(L, "*");
        put_hex(L, u);
        return;
    }
    for (uint32_t m = act; m; m &= m - 1) {
        if (m != act)
            put_s(L, ",");
        put_hex(L, v[__builtin_ctz(m)]);
    }
}

/* Values of register r (raw bits) for every lane. */
static void reg_vals(const struct simt_warp *w, int32_t r, uint64_t *v)
{
    if (r < 0)                  /* a '_' sink or a literal 0 element */
        memset(v, 0, EXEC_WARP * sizeof *v);
    else
        memcpy(v, &w->ew.regs[(size_t)r * EXEC_WARP], EXEC_WARP * sizeof *v);
}

static void put_reg(struct line *L, const struct simt_warp *w, const struct ptx_func *f,
                    int32_t r, uint32_t act)
{
    uint64_t v[EXEC_WARP];
    reg_vals(w, r, v);
    put_s(L, " ");
    put_s(L, (uint32_t)r < f->nregs ? f->regs[r].name : "?");
    put_s(L, "=");
    put_vals(L, v, act);
}

/* The data operand o of a store/atom/red: registers, vectors or an
 * immediate, per lane. */
static void put_data(struct line *L, const struct simt_warp *w, const struct ptx_inst *in,
                     const struct ptx_operand *o, uint32_t act)
{
    uint64_t v[EXEC_WARP];
    unsigned n = o->kind == PTX_O_VEC ? o->vec_n : 1;
    for (unsigned k = 0; k < n && k < 4; k++) {
        if (o->kind == PTX_O_VEC)
            reg_vals(w, o->vec_regs[k], v);
        else
            for (unsigned l = 0; l < EXEC_WARP; l++)
                v[l] = (act >> l & 1) ? exec_read(&w->ew, o, (enum ptx_type)in->type, l) : 0;
        put_s(L, k ? ":" : " d=");
        put_vals(L, v, act);
    }
}

void gpu_commit_record(void *user, const struct simt_warp *w,
                       const struct ptx_func *f, int32_t pc, uint32_t mask)
{
    struct gpu_clog *c = user;
    if (!c->f)
        return;
    FILE *out = c->f;
    const struct ptx_inst *in = &f->insts[pc];
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_unit u = ptx_op_unit(op);
    /* lanes that ran it: exec sets res.active for ALU/memory/warp ops */
    uint32_t act = (u == PTX_UNIT_CTRL || op == PTX_OP_BAR || op == PTX_OP_BARRIER ||
                    op == PTX_OP_MEMBAR || op == PTX_OP_FENCE)
                       ? mask : w->res.active;
    struct line L;
    L.n = (size_t)snprintf(L.b, sizeof L.b, "%u %u.%u.%u %u %d L%u %s", c->launch,
                           w->gridv.ctaid[0], w->gridv.ctaid[1], w->gridv.ctaid[2],
                           w->gridv.warpid, pc, in->line, ptx_op_name(op));
    if (in->type) {
        put_s(&L, ".");
        put_s(&L, ptx_type_name((enum ptx_type)in->type));
    }
    char m[24];
    snprintf(m, sizeof m, " %08x %08x", mask, act);
    put_s(&L, m);
    if (op == PTX_OP_BRA) {
        snprintf(m, sizeof m, " taken=%08x", w->res.taken);
        put_s(&L, m);
    } else if (u != PTX_UNIT_CTRL) {
        unsigned nd = ptx_inst_ndst(in);
        for (unsigned i = 0; i < nd && i < in->nopnd; i++) {
            const struct ptx_operand *o = &in->o[i];
            /* an atom's old value depends on the order of the warps; a
             * bar.red result is written only when the barrier releases */
            if (o->kind == PTX_O_REG &&
                (op == PTX_OP_ATOM || op == PTX_OP_BAR || op == PTX_OP_BARRIER)) {
                put_s(&L, " ");
                put_s(&L, f->regs[o->reg].name);
                put_s(&L, "=?");
            } else if (o->kind == PTX_O_REG) {
                put_reg(&L, w, f, o->reg, act);
            } else if (o->kind == PTX_O_VEC) {
                for (unsigned k = 0; k < o->vec_n && k < 4; k++)
                    put_reg(&L, w, f, o->vec_regs[k], act);
            }
        }
        if (u == PTX_UNIT_MEM && op != PTX_OP_CVTA) {
            put_s(&L, " a=");
            put_vals(&L, w->res.addr, act);
            if (op == PTX_OP_ST)
                put_data(&L, w, in, &in->o[1], act);
            else if (op == PTX_OP_RED && in->nopnd > 1)
                put_data(&L, w, in, &in->o[1], act);
            else if (op == PTX_OP_ATOM && in->nopnd > 2)
                put_data(&L, w, in, &in->o[2], act);
        }
    }
    L.b[L.n++] = '\n';
    fwrite(L.b, 1, L.n, out);
    c->records++;
}

int gpu_commit_open(struct gpu_clog *c, const char *path, char *err, size_t n)
{
    memset(c, 0, sizeof *c);
    c->f = fopen(path, "w");
    if (!c->f) {
        snprintf(err, n, "cannot write the commit log %s [%s:%d]",
                 path, __FILE__, __LINE__);
        return -1;
    }
    setvbuf(c->f, NULL, _IOFBF, 1 << 20);
    fprintf(c->f, "# lockstep commit log 1 (docs/golden.md)\n");
    return 0;
}

void gpu_commit_launch(struct gpu_clog *c, const char *kernel, ls_dim3 grid,
                       ls_dim3 block)
{
    if (!c->f)
        return;
    c->launch++;
    fprintf(c->f, "launch %u %s grid %u,%u,%u block %u,%u,%u\n", c->launch, kernel,
            grid.x, grid.y, grid.z, block.x, block.y, block.z);
}

int gpu_commit_close(struct gpu_clog *c)
{
    if (!c->f)
        return 0;
    int bad = ferror(c->f);
    bad |= fclose(c->f) != 0;
    c->f = NULL;
    return bad ? -1 : 0;
}
