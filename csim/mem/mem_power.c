/* DRAM power (dissertation 5.3.1, docs/lamar.md "DRAM and system power"):
 * Micron's method (TN-41-01 "Calculating Memory System Power for DDR3",
 * the model the dissertation uses, Equation 5.1) applied to a GDDR5
 * channel. Background power follows each sub-rank's real state in the
 * DRAM model (a row open in some bank or every bank precharged; clock
 * enabled or powered down), accounted here in sub-rank clocks; activate,
 * burst and I/O energy follow the command counts. The GPU's part of
 * ls_power_stats is the chip model's (csim/gpu/gpu_energy.c), which
 * charges the DRAM through mem_power_dram_j. Nothing here changes a
 * timing figure. */
#include <string.h>

#include "mem/mem_int.h"

/* Adds sub-rank clocks [from, to) of partition pt in its present state
 * into t[MEM_PW_*]. Power-down (dram_powerdown = idle): a sub-rank with
 * no queued request touching it whose last burst ended (pw_busy). */
static void pw_span(const struct mem_sys *m, const struct mem_part *pt, uint64_t from,
                    uint64_t to, uint64_t *t)
{
    if (to <= from)
        return;
    bool pdn = m->c.dram_powerdown == CFG_DRAM_POWERDOWN_IDLE;
    for (unsigned s = 0; s < (unsigned)m->c.dram_subranks && s < MEM_MAX_SR; s++) {
        uint64_t stby = to - from;
        if (pdn && !pt->pw_nq[s])
            stby = pt->pw_busy[s] <= from ? 0 : (pt->pw_busy[s] < to ? pt->pw_busy[s] : to) - from;
        bool act = pt->pw_open[s] > 0;
        t[act ? MEM_PW_ACT_STBY : MEM_PW_PRE_STBY] += stby;
        t[act ? MEM_PW_ACT_PDN : MEM_PW_PRE_PDN] += (to - from) - stby;
    }
}

void mem_pw_account(const struct mem_sys *m, struct mem_part *pt, uint64_t T)
{
    if (T <= pt->pw_at)
        return;
    pw_span(m, pt, pt->pw_at, T, pt->pw_ticks);
    pt->pw_at = T;
}

void mem_dram_ticks(const struct mem_sys *m, uint64_t now, struct mem_dram_ticks *out)
{
    uint64_t t = mem_dram_floor(m, now), st[MEM_PW_N] = {0};
    memset(out, 0, sizeof *out);
    for (unsigned p = 0; p < m->nparts; p++) {
        const struct mem_part *pt = &m->part[p];
        if (pt->first_act < t)
            out->open += t - pt->first_act;
        for (unsigned k = 0; k < MEM_PW_N; k++)
            st[k] += pt->pw_ticks[k];
        pw_span(m, pt, pt->pw_at, t, st);
    }
    out->act_stby = st[MEM_PW_ACT_STBY];
    out->act_pdn = st[MEM_PW_ACT_PDN];
    out->pre_stby = st[MEM_PW_PRE_STBY];
    out->pre_pdn = st[MEM_PW_PRE_PDN];
}

void mem_dram_ticks_since(const struct mem_sys *m, uint64_t now, const struct mem_dram_ticks *a,
                          ls_dram_stats *d)
{
    struct mem_dram_ticks b;
    mem_dram_ticks(m, now, &b);
    d->open_ticks = b.open - a->open;
    d->act_stby_ticks = b.act_stby - a->act_stby;
    d->act_pdn_ticks = b.act_pdn - a->act_pdn;
    d->pre_stby_ticks = b.pre_stby - a->pre_stby;
    d->pre_pdn_ticks = b.pre_pdn - a->pre_pdn;
}

double mem_power_dram_j(const ls_power_stats *p)
{
    return p->dram_pre_stby + p->dram_act_stby + p->dram_pre_pdn + p->dram_act_pdn + p->dram_ref +
           p->dram_act_pre + p->dram_rd + p->dram_rd_io + p->dram_wr + p->dram_wr_io;
}

/* Energies of one chip in joules (currents in mA, times in ns, so mA * V *
 * ns = pJ; * 1e-12), TN-41-01's terms as energies:
 *   background, per chip-clock in a state   IDD2N/IDD2P/IDD3N/IDD3P VDD tCK
 *   activate + precharge pair  (IDD0 tRC - IDD3N tRAS - IDD2N (tRC - tRAS)) VDD
 *   one burst (read / write)   (IDD4R/W - IDD3N) VDD tBURST
 *   I/O of one burst           dq_pins * io_mw * tBURST
 *   refresh                    (IDD5 - IDD3N) VDD tRFC per tREFI, all time
 * where tRC = tRAS + tRP and tBURST is the data time of one chip's share
 * of a dram_atom_bytes atom (dram_atom_bytes / dram_bus_bytes clocks: each
 * chip moves dram_atom_bytes / dram_chips bytes at dram_bus_bytes /
 * dram_chips per clock, with or without sub-ranks). A sub-rank is
 * dram_chips / dram_subranks chips: its state ticks and its activations
 * are charged for that many chips, so a sub-ranked FG activate opens the
 * row in half the chips of a CG one. */
void mem_power(const struct cfg *c, const ls_dram_stats *d, uint64_t cycles, ls_power_stats *p)
{
    memset(p, 0, sizeof *p);
    if (!cycles || c->core_clock_mhz <= 0 || c->dram_clock_mhz <= 0)
        return;
    const double pj = 1e-12;
    double tck = 1e3 / (double)c->dram_clock_mhz;                 /* ns */
    double secs = (double)cycles / ((double)c->core_clock_mhz * 1e6);
    double chips = (double)c->dram_chips, vdd = c->dram_vdd;
    double sr_chips = chips / (double)c->dram_subranks;
    double nch = (double)c->mem_partitions;
    /* background: each sub-rank's clocks in its state (the DRAM model's
     * accounting: open rows per sub-rank, power-down when idle) */
    double e_ck = vdd * tck * sr_chips * pj;      /* J per mA per sub-rank clock */
    p->dram_act_stby = c->dram_idd3n * (double)d->act_stby_ticks * e_ck;
    p->dram_act_pdn = c->dram_idd3p * (double)d->act_pdn_ticks * e_ck;
    p->dram_pre_stby = c->dram_idd2n * (double)d->pre_stby_ticks * e_ck;
    p->dram_pre_pdn = c->dram_idd2p * (double)d->pre_pdn_ticks * e_ck;
    /* refresh: (IDD5 - IDD3N) for tRFC of every tREFI, every chip, all time */
    double chan_ns = secs * 1e9 * nch;
    p->dram_ref = (c->dram_idd5 - c->dram_idd3n) * vdd * chan_ns * chips *
                  (c->dram_tRFC_ns / c->dram_tREFI_ns) * pj;
    /* activates: per chip activated (a sub-rank is chips / subranks chips) */
    double tras = (double)c->dram_tRAS * tck, trc = (double)(c->dram_tRAS + c->dram_tRP) * tck;
    double e_act = (c->dram_idd0 * trc - c->dram_idd3n * tras - c->dram_idd2n * (trc - tras)) * vdd * pj;
    p->dram_act_pre = e_act * (double)d->act_subranks * sr_chips;
    /* bursts: per chip-burst; a chip-burst moves dram_atom_bytes / chips
     * bytes, so the bytes moved count them (a 32 B sub-ranked atom is one
     * chip's burst, a 64 B atom two) */
    double tburst = (double)c->dram_atom_bytes / (double)c->dram_bus_bytes * tck;
    double chip_bytes = (double)c->dram_atom_bytes / chips;
    double rd_bursts = (double)d->read_bytes / chip_bytes, wr_bursts = (double)d->write_bytes / chip_bytes;
    double io = (double)c->dram_dq_pins * c->dram_io_mw * 1e-3 * tburst * 1e-9;   /* W * s */
    p->dram_rd = (c->dram_idd4r - c->dram_idd3n) * vdd * tburst * rd_bursts * pj;
    p->dram_wr = (c->dram_idd4w - c->dram_idd3n) * vdd * tburst * wr_bursts * pj;
    p->dram_rd_io = io * rd_bursts;
    p->dram_wr_io = io * wr_bursts;
    p->seconds = secs;
}
