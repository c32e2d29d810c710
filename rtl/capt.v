// CAPT: compaction-adequacy prediction table of CAPRI (dissertation 4.2.2,
// Fig 4.8). Fully associative, ENTRIES x {valid, tag (branch PC), history},
// true LRU with per-entry age counters (age 0 = most recently used; the ages
// are always a permutation of 0..ENTRIES-1). All outputs are registered:
// they report the lookup/update of the last edge as seen in the state
// before that edge. Cycle-exact C model: csim/blocks/capt.c.
//
// HIST: 0 = 1b-latest, 1 = 1b-sticky, 2 = 2-bit saturating counter.
module capt #(
    parameter int ENTRIES = 32,
    parameter int TAG_W   = 32,
    parameter int HIST    = 0
) (
    input  logic                 clk_i,
    input  logic                 rst_ni,
    input  logic                 lookup_valid_i,
    input  logic [TAG_W-1:0]     lookup_pc_i,
    input  logic                 update_valid_i,
    input  logic [TAG_W-1:0]     update_pc_i,
    input  logic                 update_adequate_i,
    input  logic                 flush_i,
    output logic                 pred_valid_o,
    output logic                 pred_hit_o,
    output logic                 pred_stall_o,
    output logic                 pred_evict_o,
    output logic [IDX_W-1:0]     pred_idx_o,
    output logic                 upd_valid_o,
    output logic                 upd_hit_o
);
    localparam int IDX_W = (ENTRIES > 2) ? $clog2(ENTRIES) : 1;
    localparam int HW    = (HIST == 2) ? 2 : 1;
    localparam logic [IDX_W-1:0] OLDEST = IDX_W'(ENTRIES - 1);
    localparam logic [HW-1:0] H_INIT = (HIST == 2) ? HW'(2) : HW'(1);

    logic [ENTRIES-1:0]       valid_q, valid_d;
    logic [ENTRIES*TAG_W-1:0] tag_q, tag_d;
    logic [ENTRIES*HW-1:0]    hist_q, hist_d;
    logic [ENTRIES*IDX_W-1:0] age_q, age_d, age_init;

    // ---- search on the state before the edge -------------------------
    logic             hit, uhit, inv_any, lru_any;
    logic [IDX_W-1:0] hit_idx, uhit_idx, inv_idx, lru_idx, vic_idx, touch_idx;
    logic [HW-1:0]    hit_hist, uhit_hist, uhist_new;
    logic             hit_adeq, alloc, touch;
    logic [IDX_W-1:0] touch_age;

    always_comb begin
        hit = 1'b0;     hit_idx = '0;
        uhit = 1'b0;    uhit_idx = '0;
        inv_any = 1'b0; inv_idx = '0;
        lru_any = 1'b0; lru_idx = '0;
        for (int i = 0; i < ENTRIES; i++) begin
            age_init[i*IDX_W +: IDX_W] = i[IDX_W-1:0];
`ifdef MUTANT_1   // tag compare ignores the most significant PC bit
            if (!hit && valid_q[i] &&
                tag_q[i*TAG_W +: TAG_W-1] == lookup_pc_i[TAG_W-2:0]) begin
`else
            if (!hit && valid_q[i] && tag_q[i*TAG_W +: TAG_W] == lookup_pc_i) begin
`endif
                hit = 1'b1;
                hit_idx = i[IDX_W-1:0];
            end
`ifdef MUTANT_5   // an update also matches invalid (flushed) entries
            if (!uhit && tag_q[i*TAG_W +: TAG_W] == update_pc_i) begin
`else
            if (!uhit && valid_q[i] && tag_q[i*TAG_W +: TAG_W] == update_pc_i) begin
`endif
                uhit = 1'b1;
                uhit_idx = i[IDX_W-1:0];
            end
            if (!inv_any && !valid_q[i]) begin
                inv_any = 1'b1;
                inv_idx = i[IDX_W-1:0];
            end
            if (!lru_any && age_q[i*IDX_W +: IDX_W] == OLDEST) begin
                lru_any = 1'b1;
                lru_idx = i[IDX_W-1:0];
            end
        end
    end

    assign vic_idx   = inv_any ? inv_idx : lru_idx;
    assign hit_hist  = hist_q[hit_idx*HW +: HW];
    assign uhit_hist = hist_q[uhit_idx*HW +: HW];
    assign hit_adeq  = (HIST == 2) ? hit_hist[HW-1] : hit_hist[0];
    assign alloc     = lookup_valid_i && !hit;
    assign touch     = lookup_valid_i;
    assign touch_idx = hit ? hit_idx : vic_idx;
    assign touch_age = age_q[touch_idx*IDX_W +: IDX_W];

    // history update from the WCU evaluation
    always_comb begin
        if (HIST == 2) begin
            if (update_adequate_i)
`ifdef MUTANT_2   // 2-bit counter wraps from 3 to 0 instead of saturating
                uhist_new = uhit_hist + HW'(1);
`else
                uhist_new = (uhit_hist == HW'(3)) ? uhit_hist : uhit_hist + HW'(1);
`endif
            else
                uhist_new = (uhit_hist == '0) ? uhit_hist : uhit_hist - HW'(1);
        end else if (HIST == 1) begin
            uhist_new = uhit_hist | HW'(update_adequate_i);
        end else begin
            uhist_new = HW'(update_adequate_i);
        end
    end

    // ---- next state ----------------------------------------------------
    always_comb begin
        valid_d = valid_q;
        tag_d   = tag_q;
        hist_d  = hist_q;
        age_d   = age_q;
        if (flush_i) begin
            valid_d = '0;
            age_d   = age_init;
        end else begin
            if (update_valid_i && uhit)
                hist_d[uhit_idx*HW +: HW] = uhist_new;
            if (lookup_valid_i && hit && HIST == 1)
                hist_d[hit_idx*HW +: HW] = HW'(1);
            if (alloc) begin
                valid_d[vic_idx] = 1'b1;
                tag_d[vic_idx*TAG_W +: TAG_W] = lookup_pc_i;
`ifdef MUTANT_4   // a new entry starts "inadequate"
                hist_d[vic_idx*HW +: HW] = '0;
`else
                hist_d[vic_idx*HW +: HW] = H_INIT;
`endif
            end
            if (touch) begin
                for (int i = 0; i < ENTRIES; i++) begin
`ifdef MUTANT_3   // LRU ages of younger entries are not advanced
                    if (i[IDX_W-1:0] == touch_idx)
                        age_d[i*IDX_W +: IDX_W] = '0;
`else
                    if (i[IDX_W-1:0] == touch_idx)
                        age_d[i*IDX_W +: IDX_W] = '0;
                    else if (age_q[i*IDX_W +: IDX_W] < touch_age)
                        age_d[i*IDX_W +: IDX_W] = age_q[i*IDX_W +: IDX_W] + IDX_W'(1);
`endif
                end
            end
        end
    end

    always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
            valid_q      <= '0;
            tag_q        <= '0;
            hist_q       <= '0;
            age_q        <= age_init;
            pred_valid_o <= 1'b0;
            pred_hit_o   <= 1'b0;
            pred_stall_o <= 1'b0;
            pred_evict_o <= 1'b0;
            pred_idx_o   <= '0;
            upd_valid_o  <= 1'b0;
            upd_hit_o    <= 1'b0;
        end else begin
            valid_q      <= valid_d;
            tag_q        <= tag_d;
            hist_q       <= hist_d;
            age_q        <= age_d;
            pred_valid_o <= lookup_valid_i;
            pred_hit_o   <= lookup_valid_i && hit;
            pred_stall_o <= lookup_valid_i && (hit ? hit_adeq : 1'b1);
            pred_evict_o <= alloc && valid_q[vic_idx];
            pred_idx_o   <= lookup_valid_i ? touch_idx : '0;
            upd_valid_o  <= update_valid_i;
            upd_hit_o    <= update_valid_i && uhit;
        end
    end
endmodule
