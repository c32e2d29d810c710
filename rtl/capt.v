// CAPT: compaction-adequacy prediction table of CAPRI (dissertation 4.2.2,
// Fig 4.8). Fully associative, ENTRIES x {valid, tag (branch PC), history}.
// All outputs are registered: they report the lookup/update of the last
// edge as seen in the state before that edge. Cycle-exact C model:
// csim/blocks/capt.c; docs/blocks/capt.md has the cycle table.
//
// HIST: 0 = 1b-latest, 1 = 1b-sticky, 2 = 2-bit saturating counter.
// LRU:  0 = tree pseudo-LRU (ENTRIES - 1 node bits; ENTRIES must be a power
//       of two), 1 = true LRU (per-entry age counters, always a permutation
//       of 0..ENTRIES-1, age 0 = most recently used).
// The lookup searches all tags (one comparator per entry). The update
// carries the entry index its lookup returned (update_idx_i = pred_idx_o)
// and reads that one entry: it changes it only if the entry is valid and
// its tag still equals update_pc_i (a single comparator, not a second
// CAM bank). Control flops (valid, replacement state, output registers)
// are reset; tags and histories are not: valid guards them.
module capt #(
    parameter int ENTRIES = 32,
    parameter int TAG_W   = 32,
    parameter int HIST    = 0,
    parameter int LRU     = 0
) (
    input  logic                 clk_i,
    input  logic                 rst_ni,
    input  logic                 lookup_valid_i,
    input  logic [TAG_W-1:0]     lookup_pc_i,
    input  logic                 update_valid_i,
    input  logic [IDX_W-1:0]     update_idx_i,
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
    localparam logic [HW-1:0] H_INIT = (HIST == 2) ? HW'(2) : HW'(1);

    // Parameter checks at elaboration (Verilog-2005: a missing module
    // whose name says what is wrong stops Verilator and Yosys alike).
    generate
        if (ENTRIES < 2 || ENTRIES > 64) begin : g_bad_entries
            capt_ENTRIES_must_be_2_to_64 bad_param ();
        end
        if (LRU == 0 && (ENTRIES & (ENTRIES - 1)) != 0) begin : g_bad_plru
            capt_LRU_0_tree_plru_needs_ENTRIES_a_power_of_two bad_param ();
        end
        if (LRU < 0 || LRU > 1 || HIST < 0 || HIST > 2 ||
            TAG_W < 1 || TAG_W > 32) begin : g_bad_param
            capt_LRU_0_1_HIST_0_2_TAG_W_1_32 bad_param ();
        end
    endgenerate

    logic [ENTRIES-1:0]       valid_q, valid_d;
    logic [ENTRIES*TAG_W-1:0] tag_q, tag_d;
    logic [ENTRIES*HW-1:0]    hist_q, hist_d;

    // ---- lookup search on the state before the edge ---------------------
    // One-hot match vectors; every per-entry write below uses a constant
    // index (no dynamic part-selects, which synthesise to wide shifters).
    logic [ENTRIES-1:0] hit_oh, inv_oh, lru_oh, vic_oh;
    logic               inv_run;
    logic               hit, inv_any;
    logic [IDX_W-1:0]   hit_idx, vic_idx, touch_idx;
    logic [HW-1:0]      hit_hist;
    logic               hit_adeq, alloc, vic_valid;

    always_comb begin
        for (int i = 0; i < ENTRIES; i++) begin
`ifdef MUTANT_1   // tag compare ignores the most significant PC bit
            hit_oh[i] = valid_q[i] &&
                        tag_q[i*TAG_W +: TAG_W-1] == lookup_pc_i[TAG_W-2:0];
`else
            hit_oh[i] = valid_q[i] && tag_q[i*TAG_W +: TAG_W] == lookup_pc_i;
`endif
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
        for (int i = 0; i < ENTRIES; i++) begin
            if (hit_oh[i]) begin
                hit_idx  = hit_idx  | i[IDX_W-1:0];
                hit_hist = hit_hist | hist_q[i*HW +: HW];
            end
            if (vic_oh[i]) begin
                vic_idx   = vic_idx | i[IDX_W-1:0];
                vic_valid = vic_valid | valid_q[i];
            end
        end
    end

    assign hit       = |hit_oh;
    assign inv_any   = |inv_oh;
    assign vic_oh    = inv_any ? inv_oh : lru_oh;
    assign touch_idx = hit ? hit_idx : vic_idx;
    assign hit_adeq  = (HIST == 2) ? hit_hist[HW-1] : hit_hist[0];
    assign alloc     = lookup_valid_i && !hit;

    // ---- update: read entry update_idx_i, one tag comparator ------------
    logic [ENTRIES-1:0] uidx_oh;
    logic [TAG_W-1:0]   utag;
    logic [HW-1:0]      uhist, uhist_new;
    logic               uvalid, uhit;

    always_comb begin
        utag   = '0;
        uhist  = '0;
        uvalid = 1'b0;
        for (int i = 0; i < ENTRIES; i++) begin
            uidx_oh[i] = update_idx_i == i[IDX_W-1:0];
            if (uidx_oh[i]) begin
                utag   = utag   | tag_q[i*TAG_W +: TAG_W];
                uhist  = uhist  | hist_q[i*HW +: HW];
                uvalid = uvalid | valid_q[i];
            end
        end
    end

`ifdef MUTANT_5   // an update also changes an invalid (flushed) entry
    assign uhit = utag == update_pc_i;
`else
`ifdef MUTANT_6   // the update skips the tag check: a replaced entry is hit
    assign uhit = uvalid;
`else
    assign uhit = uvalid && utag == update_pc_i;
`endif
`endif

    // history update from the WCU evaluation (one updater, on entry uidx)
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

    assign uhist_new = hist_upd(uhist, update_adequate_i);

    // ---- replacement state: victim one-hot (lru_oh) when the table is
    // full; touched (hit or allocated) on every lookup, reset by flush ----
    generate
        if (LRU == 1) begin : g_true_lru
            localparam logic [IDX_W-1:0] OLDEST = IDX_W'(ENTRIES - 1);
            logic [ENTRIES*IDX_W-1:0] age_q, age_d, age_init;
            logic [ENTRIES-1:0]       touch_oh;
            logic [IDX_W-1:0]         touch_age;

            assign touch_oh = hit ? hit_oh : vic_oh;

            always_comb begin
                touch_age = '0;
                for (int i = 0; i < ENTRIES; i++) begin
                    age_init[i*IDX_W +: IDX_W] = i[IDX_W-1:0];
                    lru_oh[i] = age_q[i*IDX_W +: IDX_W] == OLDEST;
                    if (touch_oh[i])
                        touch_age = touch_age | age_q[i*IDX_W +: IDX_W];
                end
            end

            always_comb begin
                age_d = age_q;
                if (flush_i) begin
                    age_d = age_init;
                end else if (lookup_valid_i) begin
                    for (int i = 0; i < ENTRIES; i++) begin
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

            always_ff @(posedge clk_i) begin
                if (!rst_ni) age_q <= age_init;
                else         age_q <= age_d;
            end
        end else begin : g_tree_plru
            // node k = 1..ENTRIES-1 in heap order (children 2k, 2k+1) is
            // bit k-1; 1 = the victim is in the upper half of the node's
            // entries. Entry e's node at depth d is (1 << d) + (e >> (IDX_W-d))
            // and e goes to its upper half iff bit IDX_W-1-d of e is set.
            logic [ENTRIES-2:0] plru_q, plru_d;

            always_comb begin
                for (int e = 0; e < ENTRIES; e++) begin
                    lru_oh[e] = 1'b1;
                    for (int d = 0; d < IDX_W; d++)
                        if (plru_q[(1 << d) + (e >> (IDX_W - d)) - 1] !=
                            (((e >> (IDX_W - 1 - d)) & 1) == 1))
                            lru_oh[e] = 1'b0;
                end
            end

            // a touch points every node on the entry's path away from it
            always_comb begin
                plru_d = plru_q;
                if (flush_i) begin
                    plru_d = '0;
                end else if (lookup_valid_i) begin
                    for (int d = 0; d < IDX_W; d++)
                        for (int n = 0; n < (1 << d); n++)
`ifdef MUTANT_7   // a touch leaves the root node as it was
                            if (d > 0 && touch_idx >> (IDX_W - d) == IDX_W'(n))
`else
                            if (touch_idx >> (IDX_W - d) == IDX_W'(n))
`endif
                                plru_d[(1 << d) + n - 1] = !touch_idx[IDX_W - 1 - d];
                end
            end

            always_ff @(posedge clk_i) begin
                if (!rst_ni) plru_q <= '0;
                else         plru_q <= plru_d;
            end
        end
    endgenerate

    // ---- next state of the table ------------------------------------------
    always_comb begin
        valid_d = valid_q;
        tag_d   = tag_q;
        hist_d  = hist_q;
        if (flush_i) begin
            valid_d = '0;
        end else begin
            for (int i = 0; i < ENTRIES; i++) begin
                if (update_valid_i && uhit && uidx_oh[i])
                    hist_d[i*HW +: HW] = uhist_new;
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
            end
        end
    end

    // control flops and output registers: reset
    always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
            valid_q      <= '0;
            pred_valid_o <= 1'b0;
            pred_hit_o   <= 1'b0;
            pred_stall_o <= 1'b0;
            pred_evict_o <= 1'b0;
            pred_idx_o   <= '0;
            upd_valid_o  <= 1'b0;
            upd_hit_o    <= 1'b0;
        end else begin
            valid_q      <= valid_d;
            pred_valid_o <= lookup_valid_i;
            pred_hit_o   <= lookup_valid_i && hit;
            pred_stall_o <= lookup_valid_i && (hit ? hit_adeq : 1'b1);
            pred_evict_o <= alloc && vic_valid;
            pred_idx_o   <= lookup_valid_i ? touch_idx : '0;
            upd_valid_o  <= update_valid_i;
            upd_hit_o    <= update_valid_i && uhit;
        end
    end

    // storage guarded by valid_q: no reset (as in a real array)
    always_ff @(posedge clk_i) begin
        tag_q  <= tag_d;
        hist_q <= hist_d;
    end
endmodule
