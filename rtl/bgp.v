// BGP: bi-modal granularity predictor with a dual bit-array bloom filter
// (dissertation 5.2.3, Fig 5.5, 5.6, Table 5.2). Query on a miss: positive
// in the active (SEL) array -> opposite of the default D, else D.
// Eviction: FG locality iff used < TH_FG; inserted iff it differs from D.
// Array 0 takes every insertion, array 1 only after the first N/2; each is
// cleared after N insertions; SEL is the array with the longer history.
// Every NUM_EVICT evictions: insertions*100 > SKEW_PCT*NUM_EVICT inverts D
// and clears both arrays (the fill schedule restarts).
// All outputs are registers; state changes only on a valid input.
// Spec: shared spec blocks.md section 5; docs/blocks/bgp.md.
//
// The hashes, the query read and the insertion decoders are functions of
// the valid input that uses them, called where the next state takes them:
// the same gates as free-standing logic, and a simulator evaluates them
// only on the edges with a query or an inserting eviction
// (docs/blocks/bgp.md section 11).
module bgp #(
    parameter int M         = 2048,  // bits per array, 2^8..2^16
    parameter int K         = 6,     // hash functions, 1..8
    parameter int N         = 512,   // refresh period, even
    parameter int NUM_EVICT = 1000,  // skew window in evictions
    parameter int TH_FG     = 2,     // FG iff used sectors < TH_FG
    parameter int SKEW_PCT  = 70     // SKEW_THRES x 100
) (
    input  logic        clk_i,
    input  logic        rst_ni,           // synchronous, active low
    input  logic        q_valid_i,
    input  logic [31:0] q_addr_i,
    input  logic        e_valid_i,
    input  logic [31:0] e_addr_i,
    input  logic [2:0]  e_used_i,
    output logic        q_valid_o,
    output logic        q_hit_o,
    output logic        q_fg_o,
    output logic        e_valid_o,
    output logic        e_ins_o,
    output logic        inv_o,
    output logic        dflt_o,
    output logic        sel_o,
    output logic        idle1_o,
    output logic [$clog2(N+1)-1:0]         cnt0_o,
    output logic [$clog2(N+1)-1:0]         cnt1_o,
    output logic [$clog2(NUM_EVICT+1)-1:0] win_ev_o,
    output logic [$clog2(NUM_EVICT+1)-1:0] win_ins_o,
    output logic [31:0] ev_total_o,
    output logic [31:0] ins_total_o
);
    localparam int L  = $clog2(M);
    localparam int CW = $clog2(N + 1);
    localparam int EW = $clog2(NUM_EVICT + 1);
    localparam int SKEW_INS = (SKEW_PCT * NUM_EVICT) / 100;
    localparam int HALF_N = N / 2;

    // Hash functions (docs/blocks/bgp.md): for k = 0..K-1 the block
    // address is rotated left by R_k = 9k mod 32 (k bytes plus k bits, so
    // the K functions differ for every L) and cut into L-bit slices that
    // are XORed: address bit p feeds index bit ((p + R_k) mod 32) mod L.
    // Pure wiring and XOR trees of ceil(32/L) inputs per index bit; h_k
    // is in bits k*L +: L.
    function automatic logic [K*L-1:0] hashes(input logic [31:0] a_i);
        logic [31:0] a, r;
        logic [63:0] rr;
        logic [L-1:0] h;
        hashes = '0;
`ifdef MUTANT_1
        // fault: the top address byte is left out of every hash
        a = a_i & 32'h00ff_ffff;
`else
        a = a_i;
`endif
        for (int k = 0; k < K; k++) begin
            r  = (a << ((9 * k) % 32)) | (a >> ((32 - (9 * k) % 32) % 32));
            rr = {32'd0, r};
            h  = '0;
            for (int s = 0; s < 32; s += L)
                h = h ^ rr[s +: L];
            hashes[k*L +: L] = h;
        end
    endfunction

    // Query: all K bits set in the active array (one M:1 read per hash).
    function automatic logic query_hit(input logic [M-1:0] act,
                                       input logic [31:0] a);
        logic [K*L-1:0] h;
        h = hashes(a);
        query_hit = 1'b1;
        for (int k = 0; k < K; k++)
            query_hit = query_hit & act[h[k*L +: L]];
    endfunction

    // Insertion set vector: the OR of K one-hot decodes of the eviction
    // hashes, each a two-level predecoded decoder, not a shifter: the low
    // LO index bits and the high HI ones are decoded apart (2^LO and 2^HI
    // comparators), and bit j*2^LO + i of the decode is lo[i] & hi[j]
    // (one AND per bit and hash, an OR of K per bit). Word-wise: slice j
    // of the decode is the low one-hot gated by hi[j].
    localparam int LO = L / 2;
    localparam int HI = L - LO;
    function automatic logic [M-1:0] ins_vec(input logic [31:0] a);
        logic [K*L-1:0]     h;
        logic [(1<<LO)-1:0] lo;
        logic [(1<<HI)-1:0] hi;
        h = hashes(a);
        ins_vec = '0;
        for (int k = 0; k < K; k++) begin
            for (int i = 0; i < (1 << LO); i++)
                lo[i] = h[k*L +: LO] == i[LO-1:0];
            for (int j = 0; j < (1 << HI); j++)
                hi[j] = h[k*L + LO +: HI] == j[HI-1:0];
            for (int j = 0; j < (1 << HI); j++)
                ins_vec[j*(1<<LO) +: (1<<LO)] = ins_vec[j*(1<<LO) +: (1<<LO)] |
                                                 (lo & {(1<<LO){hi[j]}});
        end
    endfunction

    logic [M-1:0]  arr0_q, arr0_d, arr1_q, arr1_d;
    logic          q_valid_q, q_hit_q, q_hit_d, q_fg_q, q_fg_d;
    logic          e_valid_q, e_ins_q, e_ins_d, inv_q, inv_d, dflt_q, dflt_d;
    logic          idle1_q, idle1_d;
    logic [CW-1:0] cnt0_q, cnt0_d, cnt1_q, cnt1_d;
    logic [EW-1:0] win_ev_q, win_ev_d, win_ins_q, win_ins_d;
    logic [31:0]   ev_total_q, ev_total_d, ins_total_q, ins_total_d;

`ifdef MUTANT_2
    // fault: SEL prefers array 1 on a tie (answers from the idle array)
    wire sel = cnt1_q >= cnt0_q;
`else
    wire sel = cnt1_q > cnt0_q;
`endif

    // Eviction bookkeeping.
    wire fg_loc = {29'd0, e_used_i} < TH_FG;
`ifdef MUTANT_3
    // fault: every eviction is inserted
    wire ins = 1'b1;
`else
    wire ins = fg_loc != dflt_q;
`endif
    wire [CW-1:0] n0 = cnt0_q + 1'b1;
    wire [CW-1:0] n1 = cnt1_q + 1'b1;
    wire full0 = n0 == N[CW-1:0];
    wire full1 = n1 == N[CW-1:0];
    wire half0 = n0 == HALF_N[CW-1:0];
    wire [EW-1:0] wev  = win_ev_q + 1'b1;
    wire [EW-1:0] wins = win_ins_q + {{(EW-1){1'b0}}, ins};
    wire wend = wev == NUM_EVICT[EW-1:0];
`ifdef MUTANT_4
    // fault: >= instead of > at the skew threshold
    wire skew = wins >= SKEW_INS[EW-1:0];
`else
    wire skew = wins > SKEW_INS[EW-1:0];
`endif

    // Next state: defaults hold, a valid input overrides (written as
    // overrides, not if/else selects, so a simulator computes the query
    // and the insertion only when they happen).
    logic hit;
    logic [M-1:0] setv;
    always_comb begin
        q_hit_d     = q_hit_q;
        q_fg_d      = q_fg_q;
        e_ins_d     = e_ins_q;
        inv_d       = inv_q;
        dflt_d      = dflt_q;
        idle1_d     = idle1_q;
        arr0_d      = arr0_q;
        arr1_d      = arr1_q;
        cnt0_d      = cnt0_q;
        cnt1_d      = cnt1_q;
        win_ev_d    = win_ev_q;
        win_ins_d   = win_ins_q;
        ev_total_d  = ev_total_q;
        ins_total_d = ins_total_q;
        hit         = 1'b0;
        setv        = '0;
        if (q_valid_i) begin
            hit    = query_hit(sel ? arr1_q : arr0_q, q_addr_i);
            q_hit_d = hit;
            q_fg_d  = dflt_q ^ hit;
        end
        if (e_valid_i) begin
            e_ins_d    = ins;
            ev_total_d = ev_total_q + 32'd1;
            if (ins) begin
                setv        = ins_vec(e_addr_i);
                ins_total_d = ins_total_q + 32'd1;
                arr0_d      = full0 ? '0 : (arr0_q | setv);
                cnt0_d      = full0 ? '0 : n0;
                if (!idle1_q) begin
                    arr1_d = full1 ? '0 : (arr1_q | setv);
                    cnt1_d = full1 ? '0 : n1;
                end else if (half0) begin
                    idle1_d = 1'b0;
                end
            end
            inv_d = wend & skew;
            if (wend) begin
                win_ev_d  = '0;
                win_ins_d = '0;
                if (skew) begin
                    dflt_d  = ~dflt_q;
                    arr0_d  = '0;
                    arr1_d  = '0;
                    cnt0_d  = '0;
                    cnt1_d  = '0;
                    idle1_d = 1'b1;
                end
            end else begin
                win_ev_d  = wev;
                win_ins_d = wins;
            end
        end
    end

    always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
            arr0_q      <= '0;
            arr1_q      <= '0;
            q_valid_q   <= 1'b0;
            q_hit_q     <= 1'b0;
            q_fg_q      <= 1'b0;
            e_valid_q   <= 1'b0;
            e_ins_q     <= 1'b0;
            inv_q       <= 1'b0;
            dflt_q      <= 1'b0;
            idle1_q     <= 1'b1;
            cnt0_q      <= '0;
            cnt1_q      <= '0;
            win_ev_q    <= '0;
            win_ins_q   <= '0;
            ev_total_q  <= '0;
            ins_total_q <= '0;
        end else begin
            arr0_q      <= arr0_d;
            arr1_q      <= arr1_d;
            q_valid_q   <= q_valid_i;
            q_hit_q     <= q_hit_d;
            q_fg_q      <= q_fg_d;
            e_valid_q   <= e_valid_i;
            e_ins_q     <= e_ins_d;
            inv_q       <= inv_d;
            dflt_q      <= dflt_d;
            idle1_q     <= idle1_d;
            cnt0_q      <= cnt0_d;
            cnt1_q      <= cnt1_d;
            win_ev_q    <= win_ev_d;
            win_ins_q   <= win_ins_d;
            ev_total_q  <= ev_total_d;
            ins_total_q <= ins_total_d;
        end
    end

    assign q_valid_o   = q_valid_q;
    assign q_hit_o     = q_hit_q;
    assign q_fg_o      = q_fg_q;
    assign e_valid_o   = e_valid_q;
    assign e_ins_o     = e_ins_q;
    assign inv_o       = inv_q;
    assign dflt_o      = dflt_q;
    assign sel_o       = sel;
    assign idle1_o     = idle1_q;
    assign cnt0_o      = cnt0_q;
    assign cnt1_o      = cnt1_q;
    assign win_ev_o    = win_ev_q;
    assign win_ins_o   = win_ins_q;
    assign ev_total_o  = ev_total_q;
    assign ins_total_o = ins_total_q;
endmodule
