/* Output formats of `lockstep run`: JSON objects and the aligned table. */
#include <math.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cli_json.h"

double cli_rate(uint64_t insts, double wall_s)
{
    return wall_s > 0 ? (double)insts / wall_s : 0.0;
}

static void json_str(FILE *f, const char *s)
{
    cli_json_write_str(f, s ? s : "", s ? strlen(s) : 0);
}

/* JSON has no NaN/Inf: write those as null. */
static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

double cli_miss_rate(const ls_cache_stats *c)
{
    return c->accesses ? (double)c->misses / (double)c->accesses : 0.0;
}

double cli_avg_sec(const ls_cache_stats *a, const ls_cache_stats *b)
{
    double lines = 0, sectors = 0;
    for (unsigned i = 0; i <= LS_MAX_SECTORS; i++) {
        double n = (double)a->used_sectors_hist[i] + (b ? (double)b->used_sectors_hist[i] : 0.0);
        lines += n;
        sectors += n * i;
    }
    return lines ? sectors / lines : 0.0;
}

static void json_u64(FILE *f, int in, const char *key, uint64_t v, int comma)
{
    fprintf(f, "%*s\"%s\": %llu%s\n", in, "", key, (unsigned long long)v,
            comma ? "," : "");
}

static void json_arr(FILE *f, const uint64_t *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    fputc(']', f);
}

static void json_cache(FILE *f, int in, const char *key, const ls_cache_stats *c)
{
    fprintf(f, "%*s\"%s\": {\"accesses\": %llu, \"hits\": %llu, "
            "\"misses\": %llu, \"miss_rate\": ", in, "", key,
            (unsigned long long)c->accesses, (unsigned long long)c->hits,
            (unsigned long long)c->misses);
    json_num(f, cli_miss_rate(c));
    fprintf(f, ", \"sector_misses\": %llu, \"sector_fills\": %llu, "
            "\"evictions\": %llu, \"mshr_merges\": %llu, "
            "\"reservation_fails\": %llu, \"used_sectors_hist\": ",
            (unsigned long long)c->sector_misses,
            (unsigned long long)c->sector_fills,
            (unsigned long long)c->evictions,
            (unsigned long long)c->mshr_merges,
            (unsigned long long)c->reservation_fails);
    json_arr(f, c->used_sectors_hist, LS_MAX_SECTORS + 1);
    fprintf(f, ", \"avg_sec\": ");
    json_num(f, cli_avg_sec(c, NULL));
    fprintf(f, ", \"demand\": %llu, \"pred_ref\": %llu, \"pred_nref\": %llu, "
            "\"npred_ref\": %llu, \"gdu\": {\"queries\": %llu, \"fg\": %llu, "
            "\"insertions\": %llu, \"inversions\": %llu}",
            (unsigned long long)c->demand, (unsigned long long)c->pred_ref,
            (unsigned long long)c->pred_nref, (unsigned long long)c->npred_ref,
            (unsigned long long)c->gdu_queries, (unsigned long long)c->gdu_fg,
            (unsigned long long)c->gdu_insertions, (unsigned long long)c->gdu_inversions);
    fprintf(f, "},\n");
}

/* "cosim": {"slp": {...}} for the blocks the run clocked. */
static void json_cosim(FILE *f, int in, const ls_stats *s)
{
    fprintf(f, "%*s\"cosim\": {", in, "");
    int first = 1;
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        const ls_cosim_stats *c = &s->cosim[b];
        if (!c->instances)
            continue;
        static const char *const be[] = { "c", "rtl", "lockstep", "netlist" };
        fprintf(f, "%s\"%s\": {\"instances\": %llu, \"cycles\": %llu, "
                "\"idle_skipped\": %llu, \"transactions\": %llu, "
                "\"mismatches\": %llu, \"backend\": \"%s\"}", first ? "" : ", ",
                ls_block_name(b), (unsigned long long)c->instances,
                (unsigned long long)c->cycles, (unsigned long long)c->idle_skipped,
                (unsigned long long)c->transactions, (unsigned long long)c->mismatches,
                c->backend >= 0 && c->backend < 4 ? be[c->backend] : "?");
        first = 0;
    }
    fprintf(f, "},\n");
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* "dac": {...} when affine.mode = dac (docs/stats.md, docs/dac.md). */
static void json_dac(FILE *f, int in, const ls_stats *s)
{
    const ls_dac_stats *d = &s->dac;
    if (!d->launches)
        return;
    uint64_t all = d->aff_insts + d->main_insts;
    fprintf(f, "%*s\"dac\": {\"launches\": %llu, \"not_decoupled\": %llu, "
            "\"batches\": %llu, \"batch_ctas\": %llu, \"affine_insts\": %llu, "
            "\"main_insts\": %llu, \"removed_insts\": %llu, \"affine_share\": ", in, "",
            (unsigned long long)d->launches, (unsigned long long)d->not_decoupled,
            (unsigned long long)d->batches, (unsigned long long)d->batch_ctas,
            (unsigned long long)d->aff_insts,
            (unsigned long long)d->main_insts, (unsigned long long)d->removed);
    json_num(f, ratio(d->aff_insts, all));
    fprintf(f, ", \"insts_vs_off\": ");
    json_num(f, ratio(all, d->main_insts + d->removed));
    fprintf(f, ", \"tuples\": %llu, \"records_addr\": %llu, \"records_data\": %llu, "
            "\"records_pred\": %llu, \"gl_loads\": %llu, \"gl_loads_enq_data\": %llu, "
            "\"gl_loads_decoupled\": ", (unsigned long long)d->tuples,
            (unsigned long long)d->rec_addr, (unsigned long long)d->rec_data,
            (unsigned long long)d->rec_pred, (unsigned long long)d->gl_loads,
            (unsigned long long)d->gl_served);
    json_num(f, ratio(d->gl_served, d->gl_loads));
    fprintf(f, ", \"peu_uniform\": %llu, \"peu_two_compares\": %llu, "
            "\"peu_full\": %llu, \"stall_enq_full\": %llu, \"stall_aw_dep\": %llu, "
            "\"stall_aeu_full\": %llu, "
            "\"stall_deq_empty\": %llu, \"stall_deq_data\": %llu, \"queue_avg\": ",
            (unsigned long long)d->peu_uniform, (unsigned long long)d->peu_two,
            (unsigned long long)d->peu_full, (unsigned long long)d->stall_enq_full,
            (unsigned long long)d->stall_aw_dep,
            (unsigned long long)d->stall_aeu_full, (unsigned long long)d->stall_deq_empty,
            (unsigned long long)d->stall_deq_data);
    json_num(f, ratio(d->occ_sum, d->cycles));
    fprintf(f, ", \"queue_max\": %llu, \"atq_avg\": ", (unsigned long long)d->occ_max);
    json_num(f, ratio(d->atq_sum, d->cycles));
    fprintf(f, ", \"locked_avg\": ");
    json_num(f, ratio(d->locked_sum, d->cycles));
    fprintf(f, ", \"locked_max\": %llu, \"lock_refused\": %llu, \"locks_broken\": %llu, "
            "\"prefetch_lines\": %llu, "
            "\"checked_addr\": %llu, \"checked_pred\": %llu, \"widen_checks\": %llu},\n",
            (unsigned long long)d->locked_max, (unsigned long long)d->lock_refused,
            (unsigned long long)s->l1d.locks_broken,
            (unsigned long long)d->prefetch_lines, (unsigned long long)d->checked_addr,
            (unsigned long long)d->checked_pred, (unsigned long long)d->widen_checks);
}

/* "dpe": {...} when simt.paths = dual or dws (docs/stats.md, docs/dpe.md). */
static void json_dpe(FILE *f, int in, const ls_stats *s)
{
    const ls_dpe_stats *d = &s->dpe;
    if (!d->launches)
        return;
    int dws = s->dpe_paths == 2;
    fprintf(f, "%*s\"dpe\": {\"paths\": \"%s\", \"avg_path\": ", in, "",
            dws ? "dws" : "dual");
    json_num(f, ratio(d->path_sum, d->issued));
    fprintf(f, ", \"launches\": %llu, \"single_launches\": %llu, \"issued\": %llu, "
            "\"path_sum\": %llu, \"branches\": %llu, \"divergent\": %llu, ",
            (unsigned long long)d->launches, (unsigned long long)d->single,
            (unsigned long long)d->issued, (unsigned long long)d->path_sum,
            (unsigned long long)d->branches, (unsigned long long)d->divergent);
    if (dws)
        fprintf(f, "\"subdivided\": %llu, \"refused\": %llu, \"nested\": %llu, "
                "\"splits_created\": %llu, \"merges\": %llu, ",
                (unsigned long long)d->subdivided, (unsigned long long)d->refused,
                (unsigned long long)d->nested, (unsigned long long)d->created,
                (unsigned long long)d->merges);
    else
        fprintf(f, "\"switches\": %llu, \"forwarded\": %llu, \"interleavable\": %llu, "
                "\"non_interleavable\": %llu, \"entry_bits\": 160, "
                "\"single_entry_bits\": 96, ",
                (unsigned long long)d->switches, (unsigned long long)d->forwarded,
                (unsigned long long)d->interleavable,
                (unsigned long long)(d->divergent - d->interleavable));
    fprintf(f, "\"single\": ");
    if (s->dpe_single[0])
        fprintf(f, "\"%s\"},\n", s->dpe_single);
    else
        fprintf(f, "null},\n");
}

/* "compaction": {...} when simt.compaction != none (docs/stats.md). */
static void json_compaction(FILE *f, int in, const ls_stats *s)
{
    static const char *const nm[] = { "none", "tbc", "tbc_plus", "capri", "ideal" };
    const ls_compaction_stats *c = &s->compaction;
    if (!c->launches)
        return;
    int k = s->compaction_scheme >= 0 && s->compaction_scheme < 5 ? s->compaction_scheme : 0;
    fprintf(f, "%*s\"compaction\": {\"scheme\": \"%s\", \"simd_util\": ", in, "", nm[k]);
    json_num(f, c->issued_active ? (double)c->thread_insts / (32.0 * (double)c->issued_active)
                                 : 0.0);
    fprintf(f, ", \"launches\": %llu, \"uncompacted_launches\": %llu, "
            "\"issued\": %llu, \"issued_active\": %llu, \"thread_insts\": %llu, "
            "\"points\": %llu, \"divergent_points\": %llu, \"warps_formed\": %llu, "
            "\"nw_nocomp\": %llu, \"nw_tbc\": %llu, \"nw_ideal\": %llu, "
            "\"stall_slot_cycles\": %llu",
            (unsigned long long)c->launches, (unsigned long long)c->uncompacted,
            (unsigned long long)c->issued, (unsigned long long)c->issued_active,
            (unsigned long long)c->thread_insts, (unsigned long long)c->points,
            (unsigned long long)c->divergent_points, (unsigned long long)c->warps_formed,
            (unsigned long long)c->nw_nocomp, (unsigned long long)c->nw_tbc,
            (unsigned long long)c->nw_ideal, (unsigned long long)c->stall_slot_cycles);
    /* per branch class (Fig 4.26) and capri's predictions (Fig 4.21) */
    fprintf(f, ", \"classes\": {");
    for (unsigned i = 0; i < 2; i++) {
        fprintf(f, "%s\"%s\": {\"points\": %llu, \"nw_nocomp\": %llu, \"nw_tbc\": %llu, "
                "\"compaction_rate\": ", i ? ", " : "", i ? "D" : "P",
                (unsigned long long)c->class_points[i],
                (unsigned long long)c->class_nw_nocomp[i],
                (unsigned long long)c->class_nw_tbc[i]);
        json_num(f, c->class_nw_nocomp[i] ? 1.0 - ratio(c->class_nw_tbc[i],
                                                        c->class_nw_nocomp[i]) : 0.0);
        fprintf(f, "}");
    }
    fprintf(f, "}, \"capri\": {\"lookups\": %llu, \"hits\": %llu, \"pred_stall\": %llu, "
            "\"pred_bypass\": %llu, \"nodiv_bypass\": %llu, \"bypass_denied\": %llu, "
            "\"bypassed\": %llu, \"quality\": {\"bypass_bypass\": %llu, "
            "\"stall_stall\": %llu, \"bypass_stall\": %llu, \"stall_bypass\": %llu}}, "
            "\"uncompacted\": ",
            (unsigned long long)c->capri_lookups, (unsigned long long)c->capri_hits,
            (unsigned long long)c->capri_pred_stall, (unsigned long long)c->capri_pred_bypass,
            (unsigned long long)c->capri_nodiv_bypass,
            (unsigned long long)c->capri_bypass_denied, (unsigned long long)c->capri_bypassed,
            (unsigned long long)c->capri_quality[0], (unsigned long long)c->capri_quality[1],
            (unsigned long long)c->capri_quality[2], (unsigned long long)c->capri_quality[3]);
    if (s->uncompacted[0])
        fprintf(f, "\"uncompacted: %s\"},\n", s->uncompacted);
    else
        fprintf(f, "null},\n");
}

/* Energies (millionths of E_v) named keys[i], printed in E_v as
 * "key": value pairs, then "power": total / cycles. */
static void json_energies(FILE *f, const char *const *keys, const uint64_t *v,
                          uint64_t cycles, uint64_t total)
{
    for (unsigned i = 0; keys[i]; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : "", keys[i]);
        json_num(f, (double)v[i] * 1e-6);
    }
    fprintf(f, ", \"power\": ");
    json_num(f, cycles ? (double)total * 1e-6 / (double)cycles : 0.0);
}

/* The scalar-execution, BDI and energy members of "gscalar"
 * (docs/gscalar.md): Fig 9 classes as counts and fractions of the warp
 * instructions, lane operations, the BDI paper's encodings, energies in
 * units of one vector-register access and instructions per unit energy
 * (IPC/W up to a constant). */
static void json_gscalar_exec(FILE *f, const ls_stats *s)
{
    const ls_gscalar_stats *g = &s->gscalar;
    static const char *const cls[LS_GS_NCLS] = { "none", "alu", "sfu", "mem",
                                                 "half", "div" };
    fprintf(f, ", \"insts\": %llu, \"eligible\": {", (unsigned long long)g->insts);
    for (int i = 0; i < LS_GS_NCLS; i++)
        fprintf(f, "%s\"%s\": %llu", i ? ", " : "", cls[i], (unsigned long long)g->elig[i]);
    fprintf(f, "}, \"eligible_frac\": {");
    for (int i = 0; i < LS_GS_NCLS; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : "", cls[i]);
        json_num(f, ratio(g->elig[i], g->insts));
    }
    fprintf(f, "}, \"scalar_insts\": %llu, \"scalar_frac\": ",
            (unsigned long long)g->scalar_insts);
    json_num(f, ratio(g->scalar_insts, g->insts));
    static const char *const un[3] = { "alu", "sfu", "mem" };
    for (int b = 0; b < 2; b++) {
        fprintf(f, ", \"%s\": {", b ? "base_lane_ops" : "lane_ops");
        for (int u = 0; u < 3; u++)
            fprintf(f, "%s\"%s\": %llu", u ? ", " : "", un[u],
                    (unsigned long long)(b ? g->base_lane_ops[u] : g->lane_ops[u]));
        fprintf(f, "}");
    }
    static const char *const be[LS_BDI_NENC] = { "zeros", "rep8", "b8d1", "b8d2",
                                                 "b8d4", "b4d1", "b4d2", "b2d1", "raw" };
    fprintf(f, ", \"bdi_all_bytes\": %llu, \"ratio_bdi_all\": ",
            (unsigned long long)g->bdi_all_bytes);
    json_num(f, ratio(g->raw_bytes, g->bdi_all_bytes));
    fprintf(f, ", \"bdi_enc\": {");
    for (int i = 0; i < LS_BDI_NENC; i++)
        fprintf(f, "%s\"%s\": %llu", i ? ", " : "", be[i], (unsigned long long)g->bdi_enc[i]);
    uint64_t tot = g->rf_energy + g->exec_energy + g->other_energy;
    uint64_t base = g->base_rf_energy + g->base_exec_energy + g->other_energy;
    const double m = 1e-6;
    fprintf(f, "}, \"energy\": {");
    json_energies(f, (const char *const[]){ "rf", "exec", "other", "total", "exec_base",
                                            "total_base", NULL },
                  (const uint64_t[]){ g->rf_energy, g->exec_energy, g->other_energy, tot,
                                      g->base_exec_energy, base }, s->cycles, tot);
    fprintf(f, ", \"insts_per_energy\": ");
    json_num(f, tot ? (double)s->warp_insts / ((double)tot * m) : 0.0);
    fprintf(f, "}");
}

/* "gscalar": {...} when the run compressed its register file
 * (docs/gscalar.md). */
static void json_gscalar(FILE *f, int in, const ls_stats *s)
{
    const ls_gscalar_stats *g = &s->gscalar;
    if (!g->writes && !g->reads)
        return;
    fprintf(f, "%*s\"gscalar\": {\"writes\": %llu, \"div_writes\": %llu, "
            "\"write_bytes\": ", in, "", (unsigned long long)g->writes,
            (unsigned long long)g->div_writes);
    json_arr(f, g->write_bytes, 5);
    fprintf(f, ", \"reads\": %llu, \"read_cat\": {", (unsigned long long)g->reads);
    static const char *const cat[LS_GS_NCAT] = { "scalar", "byte3", "byte2", "byte1",
                                                 "none", "raw", "divergent" };
    for (int i = 0; i < LS_GS_NCAT; i++)
        fprintf(f, "%s\"%s\": %llu", i ? ", " : "", cat[i],
                (unsigned long long)g->read_cat[i]);
    fprintf(f, "}, \"read_cls\": {\"none\": %llu, \"scalar\": %llu, "
            "\"div_scalar\": %llu, \"half_scalar\": %llu}, \"rmw_moves\": %llu, "
            "\"arrays_read\": %llu, \"arrays_written\": %llu, \"bvr_reads\": %llu, "
            "\"bvr_writes\": %llu, \"base_arrays_read\": %llu, "
            "\"base_arrays_written\": %llu, \"raw_bytes\": %llu, \"gs_bytes\": %llu, "
            "\"bdi_bytes\": %llu, \"ratio_gs\": ",
            (unsigned long long)g->read_cls[0], (unsigned long long)g->read_cls[1],
            (unsigned long long)g->read_cls[2], (unsigned long long)g->read_cls[3],
            (unsigned long long)g->rmw_moves, (unsigned long long)g->arrays_read,
            (unsigned long long)g->arrays_written, (unsigned long long)g->bvr_reads,
            (unsigned long long)g->bvr_writes, (unsigned long long)g->base_arrays_read,
            (unsigned long long)g->base_arrays_written, (unsigned long long)g->raw_bytes,
            (unsigned long long)g->gs_bytes, (unsigned long long)g->bdi_bytes);
    json_num(f, ratio(g->raw_bytes, g->gs_bytes));
    fprintf(f, ", \"ratio_bdi\": ");
    json_num(f, ratio(g->raw_bytes, g->bdi_bytes));
    fprintf(f, ", \"arrays_per_read\": ");
    json_num(f, ratio(g->arrays_read, g->reads));
    fprintf(f, ", \"rf_energy\": ");
    json_num(f, (double)g->rf_energy * 1e-6);
    fprintf(f, ", \"rf_energy_base\": ");
    json_num(f, (double)g->base_rf_energy * 1e-6);
    fprintf(f, ", \"rf_energy_ratio\": ");
    json_num(f, ratio(g->rf_energy, g->base_rf_energy));
    json_gscalar_exec(f, s);
    fprintf(f, "},\n");
}

/* "energy": the core energy model's events and energies, in E_v (one
 * 1024-bit vector-register access), for a timing run (docs/energy.md). */
static void json_energy(FILE *f, int in, const ls_stats *s)
{
    const ls_energy_stats *e = &s->energy;
    if (!e->e_total)
        return;
    fprintf(f, "%*s\"energy\": {\"rf_arrays_read\": %llu, \"rf_arrays_written\": %llu, "
            "\"tuple_accesses\": %llu, \"lane_ops\": {\"alu\": %llu, \"sfu\": %llu, "
            "\"mem\": %llu}, \"dac_unit_ops\": %llu, \"queue_accesses\": %llu, ",
            in, "", (unsigned long long)e->rf_arrays_read,
            (unsigned long long)e->rf_arrays_written, (unsigned long long)e->tuple_accesses,
            (unsigned long long)e->lane_ops[0], (unsigned long long)e->lane_ops[1],
            (unsigned long long)e->lane_ops[2], (unsigned long long)e->dac_unit_ops,
            (unsigned long long)e->queue_accesses);
    json_energies(f, (const char *const[]){ "rf", "exec", "dac", "dynamic", "other",
                                            "total", NULL },
                  (const uint64_t[]){ e->e_rf, e->e_exec, e->e_dac,
                                      e->e_rf + e->e_exec + e->e_dac, e->e_other,
                                      e->e_total }, s->cycles, e->e_total);
    fprintf(f, "},\n");
}

/* "power": DRAM energy by component, average DRAM and system power, Perf/W
 * (docs/lamar.md "DRAM and system power"), for a timing run. */
static void json_power(FILE *f, int in, const ls_stats *s)
{
    const ls_power_stats *p = &s->power;
    if (p->seconds <= 0)
        return;
    double dram = p->dram_pre_stby + p->dram_act_stby + p->dram_ref + p->dram_act_pre + p->dram_rd +
                  p->dram_rd_io + p->dram_wr + p->dram_wr_io;
    double gpu = p->gpu_leak + p->gpu_const + p->gpu_dyn, sys = gpu + dram;
    static const char *const name[] = { "pre_stby", "act_stby", "refresh", "act_pre", "rd",
                                        "rd_io", "wr", "wr_io" };
    const double v[] = { p->dram_pre_stby, p->dram_act_stby, p->dram_ref, p->dram_act_pre,
                         p->dram_rd, p->dram_rd_io, p->dram_wr, p->dram_wr_io };
    fprintf(f, "%*s\"power\": {\"seconds\": ", in, "");
    json_num(f, p->seconds);
    fprintf(f, ", \"dram_energy_j\": {");
    for (int i = 0; i < 8; i++) {
        fprintf(f, "%s\"%s\": ", i ? ", " : "", name[i]);
        json_num(f, v[i]);
    }
    fprintf(f, ", \"total\": ");
    json_num(f, dram);
    fprintf(f, "}, \"dram_w\": ");
    json_num(f, dram / p->seconds);
    fprintf(f, ", \"gpu_energy_j\": {\"leakage\": ");
    json_num(f, p->gpu_leak);
    fprintf(f, ", \"constant\": ");
    json_num(f, p->gpu_const);
    fprintf(f, ", \"dynamic\": ");
    json_num(f, p->gpu_dyn);
    fprintf(f, ", \"total\": ");
    json_num(f, gpu);
    fprintf(f, "}, \"system_j\": ");
    json_num(f, sys);
    fprintf(f, ", \"system_w\": ");
    json_num(f, sys / p->seconds);
    fprintf(f, ", \"perf_per_watt\": ");
    json_num(f, sys > 0 ? (double)s->warp_insts / sys : 0.0);
    fprintf(f, ", \"dram_perf_per_watt\": ");
    json_num(f, dram > 0 ? (double)s->warp_insts / dram : 0.0);
    fprintf(f, "},\n");
}

/* "pca": L1D hit rates of prioritised (token) and deprioritised loads and
 * the fills that bypassed (docs/pca.md); timing mode, zeros with PCA off. */
static void json_pca(FILE *f, int in, const ls_stats *s)
{
    const ls_pca_stats *p = &s->pca;
    if (!s->cycles)
        return;
    fprintf(f, "%*s\"pca\": {\"prio_accesses\": %llu, \"prio_hits\": %llu, \"prio_hit_rate\": ",
            in, "", (unsigned long long)p->prio_accesses, (unsigned long long)p->prio_hits);
    json_num(f, ratio(p->prio_hits, p->prio_accesses));
    fprintf(f, ", \"deprio_accesses\": %llu, \"deprio_hits\": %llu, \"deprio_hit_rate\": ",
            (unsigned long long)p->deprio_accesses, (unsigned long long)p->deprio_hits);
    json_num(f, ratio(p->deprio_hits, p->deprio_accesses));
    fprintf(f, ", \"bypassed\": %llu},\n", (unsigned long long)p->bypassed);
}

/* "mta": the MTA prefetcher (prefetch = mta; docs/stats.md): prefetches
 * issued (by table), useful, late, unused, accuracy (useful / issued) and
 * coverage (useful / (useful + uncovered demand misses)); only when on. */
static void json_mta(FILE *f, int in, const ls_stats *s)
{
    const ls_mta_stats *p = &s->mta;
    if (!s->cycles || !p->launches)
        return;
    fprintf(f, "%*s\"mta\": {\"launches\": %llu, \"trained\": %llu, \"candidates\": %llu, "
            "\"issued\": %llu, \"issued_gs\": %llu, \"issued_pws\": %llu, \"issued_ip\": %llu, "
            "\"redundant\": %llu, \"dropped\": %llu, \"useful\": %llu, \"late\": %llu, "
            "\"unused\": %llu, \"uncovered\": %llu, \"accuracy\": ", in, "",
            (unsigned long long)p->launches, (unsigned long long)p->trained,
            (unsigned long long)p->candidates, (unsigned long long)p->issued,
            (unsigned long long)p->issued_by[0], (unsigned long long)p->issued_by[1],
            (unsigned long long)p->issued_by[2], (unsigned long long)p->redundant,
            (unsigned long long)p->dropped, (unsigned long long)p->useful,
            (unsigned long long)p->late, (unsigned long long)p->unused,
            (unsigned long long)p->uncovered);
    json_num(f, ratio(p->useful, p->issued));
    fprintf(f, ", \"coverage\": ");
    json_num(f, ratio(p->useful, p->useful + p->uncovered));
    fprintf(f, ", \"throttle_down\": %llu, \"throttle_up\": %llu, \"mean_degree\": ",
            (unsigned long long)p->throttle_down, (unsigned long long)p->throttle_up);
    json_num(f, ratio(p->degree_sum, p->periods));
    fprintf(f, "},\n");
}

/* "cae": compact affine execution (affine.mode = cae; docs/stats.md):
 * compact instructions by pipeline, their fraction of the warp
 * instructions, affine register writes; only when on. */
static void json_cae(FILE *f, int in, const ls_stats *s)
{
    const ls_cae_stats *p = &s->cae;
    if (!s->cycles || !p->launches)
        return;
    uint64_t comp = p->compact[0] + p->compact[1] + p->compact[2];
    fprintf(f, "%*s\"cae\": {\"launches\": %llu, \"insts\": %llu, \"compact\": %llu, "
            "\"compact_alu\": %llu, \"compact_sfu\": %llu, \"compact_mem\": %llu, "
            "\"compact_affine\": %llu, \"fallback\": %llu, \"compact_fraction\": ", in, "",
            (unsigned long long)p->launches, (unsigned long long)p->insts,
            (unsigned long long)comp, (unsigned long long)p->compact[0],
            (unsigned long long)p->compact[1], (unsigned long long)p->compact[2],
            (unsigned long long)p->compact_affine, (unsigned long long)p->fallback);
    json_num(f, ratio(comp, p->insts));
    fprintf(f, ", \"writes\": %llu, \"writes_uniform\": %llu, \"writes_affine\": %llu, "
            "\"affine_write_fraction\": ", (unsigned long long)p->writes,
            (unsigned long long)p->writes_uniform, (unsigned long long)p->writes_affine);
    json_num(f, ratio(p->writes_uniform + p->writes_affine, p->writes));
    fprintf(f, "},\n");
}

/* The statistics members shared by a workload object and a launch object
 * (each line ends with a comma: more members follow). */
static void json_stats(FILE *f, int in, const ls_stats *s)
{
    json_u64(f, in, "cycles", s->cycles, 1);
    json_u64(f, in, "sm_cycles", s->sm_cycles, 1);
    json_u64(f, in, "warp_insts", s->warp_insts, 1);
    json_u64(f, in, "thread_insts", s->thread_insts, 1);
    fprintf(f, "%*s\"ipc\": ", in, "");
    json_num(f, s->cycles ? (double)s->warp_insts / (double)s->cycles : 0.0);
    fprintf(f, ",\n%*s\"simd_util\": ", in, "");
    json_num(f, s->simd_util);
    fprintf(f, ",\n");
    json_u64(f, in, "idle_cycles", s->idle_cycles, 1);
    fprintf(f, "%*s\"stall\": {\"no_warps\": %llu, \"ibuffer\": %llu, "
            "\"scoreboard\": %llu, \"barrier\": %llu, \"pipe_busy\": %llu, "
            "\"mem_wait\": %llu},\n", in, "",
            (unsigned long long)s->stall.no_warps,
            (unsigned long long)s->stall.ibuffer,
            (unsigned long long)s->stall.scoreboard,
            (unsigned long long)s->stall.barrier,
            (unsigned long long)s->stall.pipe_busy,
            (unsigned long long)s->stall.mem_wait);
    fprintf(f, "%*s\"tensor\": {\"insts\": %llu, \"busy_cycles\": %llu},\n", in, "",
            (unsigned long long)s->tensor_insts,
            (unsigned long long)s->tensor_busy_cycles);
    json_u64(f, in, "branches", s->branches, 1);
    json_u64(f, in, "divergent_branches", s->divergent_branches, 1);
    json_u64(f, in, "max_stack_depth", s->max_stack_depth, 1);
    fprintf(f, "%*s\"stack_depth_hist\": ", in, "");
    json_arr(f, s->stack_depth_hist, LS_STACK_HIST);
    fprintf(f, ",\n");
    json_u64(f, in, "ctas", s->ctas, 1);
    json_u64(f, in, "threads", s->threads, 1);
    json_cache(f, in, "l1d", &s->l1d);
    json_cache(f, in, "l2", &s->l2);
    const ls_dram_stats *d = &s->dram;
    fprintf(f, "%*s\"dram\": {\"reads\": %llu, \"writes\": %llu, "
            "\"bytes\": %llu, \"row_hits\": %llu, \"activates\": %llu, "
            "\"precharges\": %llu, \"read_bytes\": %llu, \"write_bytes\": %llu, "
            "\"act_subranks\": %llu, \"open_ticks\": %llu",
            in, "",
            (unsigned long long)d->reads, (unsigned long long)d->writes,
            (unsigned long long)d->bytes, (unsigned long long)d->row_hits,
            (unsigned long long)d->activates, (unsigned long long)d->precharges,
            (unsigned long long)d->read_bytes, (unsigned long long)d->write_bytes,
            (unsigned long long)d->act_subranks, (unsigned long long)d->open_ticks);
    static const char *const cls[2] = { "sector", "multi" };
    for (unsigned k = 0; k < 2; k++) {
        const ls_dram_class *x = &d->by_size[k];
        fprintf(f, ", \"%s\": {\"requests\": %llu, \"reads\": %llu, \"writes\": %llu, "
                "\"row_hits\": %llu, \"activates\": %llu, \"precharges\": %llu}", cls[k],
                (unsigned long long)x->requests, (unsigned long long)x->reads,
                (unsigned long long)x->writes, (unsigned long long)x->row_hits,
                (unsigned long long)x->activates, (unsigned long long)x->precharges);
    }
    fprintf(f, "},\n");
    double avg = cli_avg_sec(&s->l1d, &s->l2);
    fprintf(f, "%*s\"lamar\": {\"avg_sec\": ", in, "");
    json_num(f, avg);
    fprintf(f, ", \"leaning\": \"%s\"},\n", avg > 2.0 ? "cg" : "fg");
    json_energy(f, in, s);
    json_power(f, in, s);
    json_pca(f, in, s);
    json_mta(f, in, s);
    json_cae(f, in, s);
    if (s->printf_calls || s->printf_dropped || s->malloc_calls || s->free_calls)
        fprintf(f, "%*s\"devrt\": {\"printf_calls\": %llu, \"printf_bytes\": %llu, "
                "\"printf_dropped\": %llu, \"malloc_calls\": %llu, "
                "\"malloc_failed\": %llu, \"free_calls\": %llu},\n", in, "",
                (unsigned long long)s->printf_calls,
                (unsigned long long)s->printf_bytes,
                (unsigned long long)s->printf_dropped,
                (unsigned long long)s->malloc_calls,
                (unsigned long long)s->malloc_failed,
                (unsigned long long)s->free_calls);
    json_gscalar(f, in, s);
    json_compaction(f, in, s);
    json_dpe(f, in, s);
    json_dac(f, in, s);
    json_cosim(f, in, s);
}

static void json_digest(FILE *f, int have, uint64_t d)
{
    if (have)
        fprintf(f, "\"%016llx\"", (unsigned long long)d);
    else
        fputs("null", f);
}

static void json_sim(FILE *f, const ls_stats *s, double wall_s)
{
    fprintf(f, "{\"wall_s\": ");
    json_num(f, wall_s);
    fprintf(f, ", \"thread_insts_per_s\": ");
    json_num(f, cli_rate(s->thread_insts, wall_s));
    fprintf(f, ", \"warp_insts_per_s\": ");
    json_num(f, cli_rate(s->warp_insts, wall_s));
    fprintf(f, ", \"cycles_per_s\": ");
    json_num(f, cli_rate(s->cycles, wall_s));
    fprintf(f, "}");
}

static void json_access(FILE *f, const ls_check_access *a)
{
    fprintf(f, "{\"cta\": [%u, %u, %u], \"tid\": [%u, %u, %u], \"pc\": %d, "
            "\"line\": %u, \"func\": ", a->cta[0], a->cta[1], a->cta[2],
            a->tid[0], a->tid[1], a->tid[2], a->pc, a->line);
    json_str(f, a->func);
    fprintf(f, ", \"src\": ");
    json_str(f, a->src);
    fprintf(f, ", \"write\": %s}", a->write ? "true" : "false");
}

/* "checks": the checks that were on and every finding (docs/stats.md);
 * written only when racecheck, synccheck or initcheck was on. */
static void json_checks(FILE *f, int in, const struct cli_result *r)
{
    static const char *const names[5] = { "memcheck", "racecheck", "synccheck",
                                          "initcheck", "globalrace" };
    if (!(r->checks_on & ~1u))
        return;
    fprintf(f, "%*s\"checks\": {\"enabled\": [", in, "");
    for (unsigned b = 0, k = 0; b < 5; b++)
        if (r->checks_on >> b & 1)
            fprintf(f, "%s\"%s\"", k++ ? ", " : "", names[b]);
    fprintf(f, "], \"findings\": %zu, \"list\": [", r->nchk);
    for (size_t i = 0; i < r->nchk; i++) {
        const ls_check_finding *x = &r->chk[i];
        fprintf(f, "%s\n%*s{\"check\": ", i ? "," : "", in + 2, "");
        json_str(f, x->check);
        fprintf(f, ", \"kind\": ");
        json_str(f, x->kind);
        fprintf(f, ", \"kernel\": ");
        json_str(f, x->kernel);
        fprintf(f, ", \"launch\": %u, \"cta\": [%u, %u, %u], \"space\": ", x->launch,
                x->cta[0], x->cta[1], x->cta[2]);
        json_str(f, x->space);
        fprintf(f, ", \"addr\": %llu, \"lanes\": %u, \"count\": %llu, \"accesses\": [",
                (unsigned long long)x->addr, (unsigned)x->lanes,
                (unsigned long long)x->count);
        json_access(f, &x->a);
        if (x->naccess > 1) {
            fprintf(f, ", ");
            json_access(f, &x->b);
        }
        fprintf(f, "]}");
    }
    if (r->nchk)
        fprintf(f, "\n%*s", in, "");
    fprintf(f, "]},\n");
}

void cli_json_result(FILE *f, const struct cli_result *r, int indent)
{
    const ls_stats *s = &r->total;
    int in = indent + 2;
    fprintf(f, "%*s{\n", indent, "");
    fprintf(f, "%*s\"schema\": %d,\n", in, "", CLI_STATS_SCHEMA);
    fprintf(f, "%*s\"workload\": ", in, "");
    json_str(f, r->workload);
    fprintf(f, ",\n%*s\"category\": ", in, "");
    json_str(f, r->category);
    fprintf(f, ",\n%*s\"size\": ", in, "");
    json_str(f, r->size);
    fprintf(f, ",\n%*s\"seed\": %llu,\n", in, "", (unsigned long long)r->seed);
    fprintf(f, "%*s\"mode\": ", in, "");
    json_str(f, r->mode ? r->mode : "functional");
    fprintf(f, ",\n%*s\"config\": ", in, "");
    json_str(f, r->config ? r->config : "builtin");
    fprintf(f, ",\n%*s\"pass\": %s,\n", in, "", r->pass ? "true" : "false");
    fprintf(f, "%*s\"msg\": ", in, "");
    json_str(f, r->msg);
    fprintf(f, ",\n%*s\"nlaunches\": %u,\n", in, "", r->nlaunches);
    json_stats(f, in, s);
    fprintf(f, "%*s\"mem_digest\": ", in, "");
    json_digest(f, r->have_digest, r->mem_digest);
    fprintf(f, ",\n%*s\"launches\": [", in, "");
    for (unsigned i = 0; i < r->nlaunch_rec; i++) {
        const struct cli_launch *l = &r->launch[i];
        int in2 = in + 4;
        fprintf(f, "%s\n%*s{\n", i ? "," : "", in + 2, "");
        fprintf(f, "%*s\"index\": %u,\n%*s\"kernel\": ", in2, "", i + 1, in2, "");
        json_str(f, l->kernel);
        fprintf(f, ",\n%*s\"status\": ", in2, "");
        json_str(f, ls_status_name(l->status));
        fprintf(f, ",\n");
        json_stats(f, in2, &l->s);
        fprintf(f, "%*s\"mem_digest\": ", in2, "");
        json_digest(f, l->have_digest, l->mem_digest);
        fprintf(f, ",\n%*s\"sim\": ", in2, "");
        json_sim(f, &l->s, l->s.wall_s);
        fprintf(f, "\n%*s}", in + 2, "");
    }
    if (r->nlaunch_rec)
        fprintf(f, "\n%*s", in, "");
    fprintf(f, "],\n");
    json_checks(f, in, r);
    fprintf(f, "%*s\"sim\": ", in, "");
    json_sim(f, s, r->wall_s);
    fprintf(f, "\n%*s}", indent, "");
}

/* The timing-mode table: cycles, IPC, utilization, miss rates, traffic
 * and simulation speed. */
static void print_timing_table(FILE *f, const struct cli_result *r, size_t n)
{
    const char *hdr = "%-12s %-4s %11s %7s %6s %7s %7s %12s %8s %11s %10s\n";
    const char *row = "%-12s %-4s %11llu %7.3f %6.3f %7.3f %7.3f %12llu %8.3f %11.2f %10.0f\n";
    fprintf(f, hdr, "workload", "res", "cycles", "IPC", "simd", "L1miss",
            "L2miss", "DRAM_bytes", "wall_s", "Mthr-ins/s", "cycles/s");
    ls_stats sum;
    memset(&sum, 0, sizeof sum);
    double wall = 0;
    size_t passed = 0;
    for (size_t i = 0; i < n; i++) {
        const ls_stats *s = &r[i].total;
        fprintf(f, row, r[i].workload, r[i].pass ? "PASS" : "FAIL",
                (unsigned long long)s->cycles,
                s->cycles ? (double)s->warp_insts / (double)s->cycles : 0.0,
                s->simd_util, cli_miss_rate(&s->l1d), cli_miss_rate(&s->l2),
                (unsigned long long)s->dram.bytes, r[i].wall_s,
                cli_rate(s->thread_insts, r[i].wall_s) / 1e6,
                cli_rate(s->cycles, r[i].wall_s));
        ls_stats_add(&sum, s, 32);
        wall += r[i].wall_s;
        passed += r[i].pass != 0;
    }
    if (n > 1)
        fprintf(f, row, "total", passed == n ? "PASS" : "FAIL",
                (unsigned long long)sum.cycles, sum.ipc, sum.simd_util,
                cli_miss_rate(&sum.l1d), cli_miss_rate(&sum.l2),
                (unsigned long long)sum.dram.bytes, wall,
                cli_rate(sum.thread_insts, wall) / 1e6,
                cli_rate(sum.cycles, wall));
}

void cli_print_table(FILE *f, const struct cli_result *r, size_t n)
{
    if (n && r[0].mode && !strcmp(r[0].mode, "timing")) {
        print_timing_table(f, r, n);
        return;
    }
    const char *hdr = "%-12s %-8s %-4s %4s %12s %13s %6s %10s %5s %8s %10s\n";
    const char *row = "%-12s %-8s %-4s %4u %12llu %13llu %6.3f %10llu %5llu %8.3f %10.2f\n";
    fprintf(f, hdr, "workload", "size", "res", "lnch", "warp_insts",
            "thread_insts", "simd", "div_br", "stack", "wall_s", "Mthr-ins/s");
    ls_stats sum;
    memset(&sum, 0, sizeof sum);
    double wall = 0;
    unsigned launches = 0;
    size_t passed = 0;
    for (size_t i = 0; i < n; i++) {
        const ls_stats *s = &r[i].total;
        fprintf(f, row, r[i].workload, r[i].size, r[i].pass ? "PASS" : "FAIL",
                r[i].nlaunches, (unsigned long long)s->warp_insts,
                (unsigned long long)s->thread_insts, s->simd_util,
                (unsigned long long)s->divergent_branches,
                (unsigned long long)s->max_stack_depth, r[i].wall_s,
                cli_rate(s->thread_insts, r[i].wall_s) / 1e6);
        sum.warp_insts += s->warp_insts;
        sum.thread_insts += s->thread_insts;
        sum.divergent_branches += s->divergent_branches;
        if (s->max_stack_depth > sum.max_stack_depth)
            sum.max_stack_depth = s->max_stack_depth;
        wall += r[i].wall_s;
        launches += r[i].nlaunches;
        passed += r[i].pass != 0;
    }
    if (n > 1) {
        /* utilization of the whole suite, assuming the 32-wide default warp */
        double util = sum.warp_insts
            ? (double)sum.thread_insts / ((double)sum.warp_insts * 32.0) : 0.0;
        fprintf(f, row, "total", r[0].size, passed == n ? "PASS" : "FAIL",
                launches, (unsigned long long)sum.warp_insts,
                (unsigned long long)sum.thread_insts, util,
                (unsigned long long)sum.divergent_branches,
                (unsigned long long)sum.max_stack_depth, wall,
                cli_rate(sum.thread_insts, wall) / 1e6);
    }
}

int cli_close_out(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (f != stdout)
        bad |= fclose(f) != 0;
    else
        fflush(f);
    if (bad) {
        fprintf(stderr, "lockstep: error writing %s\n", path);
        return -1;
    }
    return 0;
}

void cli_print_cosim(FILE *f, const struct cli_result *r, size_t n)
{
    ls_stats sum;
    memset(&sum, 0, sizeof sum);
    for (size_t i = 0; i < n; i++)
        ls_stats_add(&sum, &r[i].total, 32);
    for (int b = 0; b < LS_BLK_COUNT; b++) {
        const ls_cosim_stats *a = &sum.cosim[b];
        if (!a->instances)
            continue;
        static const char *const be[] = { "c", "rtl", "lockstep", "netlist" };
        fprintf(f, "cosim %-10s %-8s %3llu instances, %12llu cycles %s, %12llu idle "
                "skipped, %9llu transactions, %llu mismatches\n", ls_block_name(b),
                a->backend >= 0 && a->backend < 4 ? be[a->backend] : "?",
                (unsigned long long)a->instances, (unsigned long long)a->cycles,
                a->backend >= 2 ? "compared" : "stepped ",
                (unsigned long long)a->idle_skipped,
                (unsigned long long)a->transactions,
                (unsigned long long)a->mismatches);
    }
}
