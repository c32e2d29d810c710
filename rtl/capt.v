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
    // One-hot match vectors; every per-entry write below uses a constant
    // index (no dynamic part-selects, which synthesise to wide shifters).
    logic [ENTRIES-1:0] hit_oh, uhit_oh, inv_oh, lru_oh, vic_oh, touch_oh;
    logic               inv_run;
    logic             hit, uhit, inv_any;
    logic [IDX_W-1:0] hit_idx, vic_idx, touch_idx;
    logic [HW-1:0]    hit_hist;
    logic             hit_adeq, alloc, vic_valid;
    logic [IDX_W-1:0] touch_age;

    always_comb begin
        for (int i = 0; i < ENTRIES; i++) begin
            age_init[i*IDX_W +: IDX_W] = i[IDX_W-1:0];
`ifdef MUTANT_1   // tag compare ignores the most significant PC bit
            hit_oh[i] = valid_q[i] &&
                        tag_q[i*TAG_W +: TAG_W-1] == lookup_pc_i[TAG_W-2:0];
`else
            hit_oh[i] = valid_q[i] && tag_q[i*TAG_W +: TAG_W] == lookup_pc_i;
`endif
`ifdef MUTANT_5   // an update also matches invalid (flushed) entries
            uhit_oh[i] = tag_q[i*TAG_W +: TAG_W] == update_pc_i;
`else
            uhit_oh[i] = valid_q[i] && tag_q[i*TAG_W +: TAG_W] == update_pc_i;
`endif
            lru_oh[i] = age_q[i*IDX_W +: IDX_W] == OLDEST;
        end
    end

    // first invalid entry (lowest index), one-hot
    always_comb begin
        inv_run = 1'b0;
        for (int i = 0; i < ENTRIES; i++) begin
            inv_oh[i] = !valid_q[i] && !inv_run;
            inv_run   = inv_run || !valid_q[i];
        end
    end

    // tags are unique among valid entries, so the one-hot vectors have at
    // most one bit set and AND-OR reads are exact
    always_comb begin
        hit_idx = '0;
        vic_idx = '0;
        hit_hist = '0;
        vic_valid = 1'b0;
        touch_age = '0;
        for (int i = 0; i < ENTRIES; i++) begin
            if (hit_oh[i]) begin
                hit_idx  = hit_idx  | i[IDX_W-1:0];
                hit_hist = hit_hist | hist_q[i*HW +: HW];
            end
            if (vic_oh[i]) begin
                vic_idx   = vic_idx | i[IDX_W-1:0];
                vic_valid = vic_valid | valid_q[i];
            end
            if (touch_oh[i])
                touch_age = touch_age | age_q[i*IDX_W +: IDX_W];
        end
    end

    assign hit      = |hit_oh;
    assign uhit     = |uhit_oh;
    assign inv_any  = |inv_oh;
    assign vic_oh   = inv_any ? inv_oh : lru_oh;
    assign touch_oh = hit ? hit_oh : vic_oh;
    assign touch_idx = hit ? hit_idx : vic_idx;
    assign hit_adeq = (HIST == 2) ? hit_hist[HW-1] : hit_hist[0];
    assign alloc    = lookup_valid_i && !hit;

    // history update from the WCU evaluation
    function automatic logic [HW-1:0] hist_upd(input logic [HW-1:0] h,
                                               input logic adeq);
        if (HIST == 2) begin
            if (adeq)
`ifdef MUTANT_2   // 2-bit counter wraps from 3 to 0 instead of saturating
                hist_upd = h + HW'(1);
`else
                hist_upd = (h == HW'(3)) ? h : h + HW'(1);
`endif
            else
                hist_upd = (h == '0) ? h : h - HW'(1);
        end else if (HIST == 1) begin
            hist_upd = h | HW'(adeq);
        end else begin
            hist_upd = HW'(adeq);
        end
    endfunction

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
            for (int i = 0; i < ENTRIES; i++) begin
                if (update_valid_i && uhit_oh[i])
                    hist_d[i*HW +: HW] = hist_upd(hist_q[i*HW +: HW], update_adequate_i);
                if (lookup_valid_i && hit_oh[i] && HIST == 1)
                    hist_d[i*HW +: HW] = HW'(1);
                if (alloc && vic_oh[i]) begin
                    valid_d[i] = 1'b1;
                    tag_d[i*TAG_W +: TAG_W] = lookup_pc_i;
`ifdef MUTANT_4   // a new entry starts "inadequate"
                    hist_d[i*HW +: HW] = '0;
`else
                    hist_d[i*HW +: HW] = H_INIT;
`endif
                end
                if (lookup_valid_i) begin
`ifdef MUTANT_3   // LRU ages of younger entries are not advanced
                    if (touch_oh[i])
                        age_d[i*IDX_W +: IDX_W] = '0;
`else
                    if (touch_oh[i])
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
            pred_evict_o <= alloc && vic_valid;
            pred_idx_o   <= lookup_valid_i ? touch_idx : '0;
            upd_valid_o  <= update_valid_i;
            upd_hit_o    <= update_valid_i && uhit;
        end
    end
endmodule
