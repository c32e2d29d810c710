/* The energy model (gpu_energy.h). */
#include "gpu/gpu_energy.h"

struct gpu_energy_k gpu_energy_k_of(const struct cfg *c)
{
    struct gpu_energy_k k = { { c->energy_alu_lane, c->energy_sfu_lane,
                                c->energy_mem_lane }, c->energy_sm_cycle };
    return k;
}

/* n events of energy e, in millionths (rounded). */
static uint64_t micro(uint64_t n, double e)
{
    return (uint64_t)((double)n * e * 1e6 + 0.5);
}

uint64_t gpu_energy_exec(const struct gpu_energy_k *k, const struct gpu_energy_in *in)
{
    uint64_t e = 0;
    for (unsigned u = 0; u < 3; u++)
        e += micro(in->lane_ops[u], k->lane[u]);
    return e;
}

uint64_t gpu_energy_other(const struct gpu_energy_k *k, const struct gpu_energy_in *in)
{
    return micro(in->sm_cycles, k->sm_cycle);
}

void gpu_energy_gscalar(const struct cfg *c, ls_stats *s)
{
    ls_gscalar_stats *g = &s->gscalar;
    if (!g->insts)
        return;
    struct gpu_energy_k k = gpu_energy_k_of(c);
    struct gpu_energy_in in = { { g->lane_ops[0], g->lane_ops[1], g->lane_ops[2] },
                                s->sm_cycles };
    g->exec_energy = gpu_energy_exec(&k, &in);
    for (unsigned u = 0; u < 3; u++)
        in.lane_ops[u] = g->base_lane_ops[u];
    g->base_exec_energy = gpu_energy_exec(&k, &in);
    g->other_energy = gpu_energy_other(&k, &in);
}

void gpu_energy_run(const struct cfg *c, ls_stats *s)
{
    ls_energy_stats *e = &s->energy;
    const ls_dac_stats *d = &s->dac;
    /* AEU: an accumulator step per record and per line it prefetches; PEU:
     * one compare (uniform), two (first/last thread), 32 (the fallback),
     * and one operation per warp vector it combines (and/or/xor/not) */
    e->dac_unit_ops = d->rec_addr + d->rec_data + d->prefetch_lines + d->peu_uniform +
                      2 * d->peu_two + 32 * d->peu_full + d->peu_ops;
    /* every ATQ entry, per-warp record and fed-back mask is written once
     * and read once */
    e->queue_accesses = 2 * (d->tuples + d->rec_addr + d->rec_data + d->rec_pred +
                             d->rec_mask);
    struct gpu_energy_k k = gpu_energy_k_of(c);
    struct gpu_energy_in in = { { e->lane_ops[0], e->lane_ops[1], e->lane_ops[2] },
                                s->sm_cycles };
    e->e_rf = micro(e->rf_arrays_read + e->rf_arrays_written + e->tuple_accesses, 0.125);
    e->e_exec = gpu_energy_exec(&k, &in) + micro(e->dac_unit_ops, k.lane[0]);
    e->e_dac = micro(e->queue_accesses, 0.125);
    e->e_other = gpu_energy_other(&k, &in);
    e->e_total = e->e_rf + e->e_exec + e->e_dac + e->e_other;
}
