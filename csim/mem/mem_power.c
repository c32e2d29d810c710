/* DRAM power (dissertation 5.3.1, docs/lamar.md "DRAM and system
 * power"): a Micron-style GDDR5 model (TN-41-01 "Calculating Memory
 * System Power for DDR3", the model the dissertation uses, Equation 5.1)
 * from the DRAM command counts of a run and the timing config. The GPU's
 * part of ls_power_stats is the chip model's (csim/gpu/gpu_energy.c). Pure arithmetic on
 * statistics: nothing here changes a timing figure. */
#include <string.h>

#include "mem/mem_int.h"

uint64_t mem_dram_open_ticks(const struct mem_sys *m, uint64_t now)
{
    uint64_t t = mem_dram_floor(m, now), sum = 0;
    for (unsigned p = 0; p < m->nparts; p++)
        if (m->part[p].first_act < t)
            sum += t - m->part[p].first_act;
    return sum;
}

/* Energies of one chip in joules (currents in mA, times in ns, so mA * V *
 * ns = pJ; * 1e-12):
 *   activate + precharge pair  (IDD0 tRC - IDD3N tRAS - IDD2N (tRC - tRAS)) VDD
 *   one burst (read / write)   (IDD4R/W - IDD3N) VDD tBURST
 *   I/O of one burst           dq_pins * io_mw * tBURST
 * where tRC = tRAS + tRP and tBURST is the data time of one chip's share
 * of a dram_atom_bytes atom (dram_atom_bytes / dram_bus_bytes clocks: each
 * chip moves dram_atom_bytes / dram_chips bytes at dram_bus_bytes /
 * dram_chips per clock, with or without sub-ranks). */
void mem_power(const struct cfg *c, const ls_dram_stats *d, uint64_t cycles, ls_power_stats *p)
{
    memset(p, 0, sizeof *p);
    if (!cycles || c->core_clock_mhz <= 0 || c->dram_clock_mhz <= 0)
        return;
    const double pj = 1e-12;
    double tck = 1e3 / (double)c->dram_clock_mhz;                 /* ns */
    double secs = (double)cycles / ((double)c->core_clock_mhz * 1e6);
    double chips = (double)c->dram_chips, vdd = c->dram_vdd;
    double nch = (double)c->mem_partitions;
    /* background: every chip of a channel draws IDD3N while a row of the
     * channel is open, IDD2N before its first activate */
    double chan_ns = secs * 1e9 * nch;
    double open_ns = (double)d->open_ticks * tck;
    if (open_ns > chan_ns)
        open_ns = chan_ns;
    p->dram_act_stby = c->dram_idd3n * vdd * open_ns * chips * pj;
    p->dram_pre_stby = c->dram_idd2n * vdd * (chan_ns - open_ns) * chips * pj;
    /* refresh: (IDD5 - IDD3N) for tRFC of every tREFI, every chip, all time */
    p->dram_ref = (c->dram_idd5 - c->dram_idd3n) * vdd * chan_ns * chips *
                  (c->dram_tRFC_ns / c->dram_tREFI_ns) * pj;
    /* activates: per chip activated (a sub-rank is chips / subranks chips) */
    double tras = (double)c->dram_tRAS * tck, trc = (double)(c->dram_tRAS + c->dram_tRP) * tck;
    double e_act = (c->dram_idd0 * trc - c->dram_idd3n * tras - c->dram_idd2n * (trc - tras)) * vdd * pj;
    p->dram_act_pre = e_act * (double)d->act_subranks * chips / (double)c->dram_subranks;
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
