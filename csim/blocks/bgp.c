/* BGP C model; see bgp.h and docs/blocks/bgp.md. */
#include "blocks/bgp.h"

#include <string.h>

static unsigned log2u(unsigned v)
{
    unsigned l = 0;
    while ((1u << l) < v)
        l++;
    return l;
}

unsigned bgp_rot(unsigned k)
{
    return (9 * k) % 32;
}

unsigned bgp_hash(unsigned M, unsigned k, uint32_t a)
{
    unsigned L = log2u(M), r = bgp_rot(k), h = 0;
    for (unsigned p = 0; p < 32; p++)
        h ^= (a >> p & 1u) << (((p + r) % 32) % L);
    return h;
}

struct bgp_cfg bgp_cfg_default(void)
{
    struct bgp_cfg c = { .M = 2048, .K = 6, .N = 512, .NUM_EVICT = 1000,
                         .TH_FG = 2, .SKEW_PCT = 70 };
    return c;
}

int bgp_init(struct bgp_state *s, const struct bgp_cfg *c)
{
    if (!s || !c || c->M < 256 || c->M > BGP_MAX_M || (c->M & (c->M - 1)) ||
        c->K < 1 || c->K > BGP_MAX_K || c->N < 2 || c->N > 32768 ||
        (c->N & 1u) || c->NUM_EVICT < 1 || c->NUM_EVICT > 65535 ||
        c->TH_FG > 8 || c->SKEW_PCT > 100)
        return -1;
    memset(s, 0, sizeof *s);
    s->cfg = *c;
    bgp_reset(s);
    return 0;
}

void bgp_reset(struct bgp_state *s)
{
    struct bgp_cfg c = s->cfg;
    memset(s, 0, sizeof *s);
    s->cfg = c;
    s->idle1 = 1;
}

unsigned bgp_sel(const struct bgp_state *s)
{
    return s->cnt1 > s->cnt0;
}

static bool test_bit(const struct bgp_state *s, unsigned a, unsigned j)
{
    return s->arr[a][j / 64] >> (j % 64) & 1u;
}

static void clear_arr(struct bgp_state *s, unsigned a)
{
    memset(s->arr[a], 0, sizeof s->arr[a]);
}

static void insert_arr(struct bgp_state *s, unsigned a, uint32_t addr)
{
    for (unsigned k = 0; k < s->cfg.K; k++) {
        unsigned j = bgp_hash(s->cfg.M, k, addr);
        s->arr[a][j / 64] |= 1ull << (j % 64);
    }
}

static bool query(const struct bgp_state *s, uint32_t addr)
{
    unsigned a = bgp_sel(s);
    for (unsigned k = 0; k < s->cfg.K; k++)
        if (!test_bit(s, a, bgp_hash(s->cfg.M, k, addr)))
            return false;
    return true;
}

static void evict(struct bgp_state *s, uint32_t addr, unsigned used)
{
    const struct bgp_cfg *c = &s->cfg;
    unsigned fg = used < c->TH_FG;
    unsigned ins = fg != s->dflt;
    s->e_ins = ins;
    s->inv = 0;
    if (ins) {
        unsigned n0 = s->cnt0 + 1;
        insert_arr(s, 0, addr);
        if (n0 == c->N) {
            clear_arr(s, 0);
            s->st.clears[0]++;
            n0 = 0;
        }
        if (!s->idle1) {
            unsigned n1 = s->cnt1 + 1;
            insert_arr(s, 1, addr);
            if (n1 == c->N) {
                clear_arr(s, 1);
                s->st.clears[1]++;
                n1 = 0;
            }
            s->cnt1 = n1;
        } else if (s->cnt0 + 1 == c->N / 2) {
            s->idle1 = 0;
        }
        s->cnt0 = n0;
        s->ins_total++;
        s->st.insertions++;
    }
    s->ev_total++;
    s->st.evictions++;
    unsigned wev = s->win_ev + 1, wins = s->win_ins + ins;
    if (wev == c->NUM_EVICT) {
        if ((uint64_t)wins * 100u > (uint64_t)c->SKEW_PCT * c->NUM_EVICT) {
            s->dflt ^= 1u;
            clear_arr(s, 0);
            clear_arr(s, 1);
            s->cnt0 = s->cnt1 = 0;
            s->idle1 = 1;
            s->inv = 1;
            s->st.inversions++;
        }
        wev = wins = 0;
    }
    s->win_ev = wev;
    s->win_ins = wins;
}

void bgp_step(struct bgp_state *s, const struct bgp_in *in,
              struct bgp_out *out)
{
    s->st.cycles++;
    s->q_valid = in->q_valid_i[0] & 1u;
    s->e_valid = in->e_valid_i[0] & 1u;
    if (s->q_valid) {
        s->q_hit = query(s, in->q_addr_i[0]);
        s->q_fg = s->dflt ^ s->q_hit;
        s->st.queries++;
        s->st.hits += s->q_hit;
        s->st.pred_fg += s->q_fg;
    }
    if (s->e_valid)
        evict(s, in->e_addr_i[0], in->e_used_i[0] & 7u);
    bgp_outputs(s, out);
}

void bgp_outputs(const struct bgp_state *s, struct bgp_out *out)
{
    memset(out, 0, sizeof *out);
    out->q_valid_o[0] = s->q_valid;
    out->q_hit_o[0] = s->q_hit;
    out->q_fg_o[0] = s->q_fg;
    out->e_valid_o[0] = s->e_valid;
    out->e_ins_o[0] = s->e_ins;
    out->inv_o[0] = s->inv;
    out->dflt_o[0] = s->dflt;
    out->sel_o[0] = bgp_sel(s);
    out->idle1_o[0] = s->idle1;
    out->cnt0_o[0] = s->cnt0;
    out->cnt1_o[0] = s->cnt1;
    out->win_ev_o[0] = s->win_ev;
    out->win_ins_o[0] = s->win_ins;
    out->ev_total_o[0] = s->ev_total;
    out->ins_total_o[0] = s->ins_total;
}

bool bgp_saturated(const struct bgp_state *s, unsigned i)
{
    return bgp_popcount(s, i) == s->cfg.M;
}

unsigned bgp_popcount(const struct bgp_state *s, unsigned i)
{
    unsigned n = 0;
    for (unsigned w = 0; w < s->cfg.M / 64; w++)
        n += (unsigned)__builtin_popcountll(s->arr[i][w]);
    return n;
}
