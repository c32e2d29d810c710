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
module bgp #(
    parameter integer M         = 2048,  // bits per array, 2^8..2^16
    parameter integer K         = 6,     // hash functions, 1..8
    parameter integer N         = 512,   // refresh period, even
    parameter integer NUM_EVICT = 1000,  // skew window in evictions
    parameter integer TH_FG     = 2,     // FG iff used sectors < TH_FG
    parameter integer SKEW_PCT  = 70     // SKEW_THRES x 100
) (
    input  wire        clk_i,
    input  wire        rst_ni,           // synchronous, active low
    input  wire        q_valid_i,
    input  wire [31:0] q_addr_i,
    input  wire        e_valid_i,
    input  wire [31:0] e_addr_i,
    input  wire [2:0]  e_used_i,
    output reg         q_valid_o,
    output reg         q_hit_o,
    output reg         q_fg_o,
    output reg         e_valid_o,
    output reg         e_ins_o,
    output reg         inv_o,
    output reg         dflt_o,
    output wire        sel_o,
    output reg         idle1_o,
    output reg  [$clog2(N+1)-1:0]         cnt0_o,
    output reg  [$clog2(N+1)-1:0]         cnt1_o,
    output reg  [$clog2(NUM_EVICT+1)-1:0] win_ev_o,
    output reg  [$clog2(NUM_EVICT+1)-1:0] win_ins_o,
    output reg  [31:0] ev_total_o,
    output reg  [31:0] ins_total_o
);
    localparam integer L  = $clog2(M);
    localparam integer CW = $clog2(N + 1);
    localparam integer EW = $clog2(NUM_EVICT + 1);
    localparam integer SKEW_INS = (SKEW_PCT * NUM_EVICT) / 100;
    localparam integer HALF_N = N / 2;

    reg [M-1:0] arr0, arr1;

    // Hash functions (docs/blocks/bgp.md): for k = 0..K-1 the block
    // address is rotated left by R_k = 9k mod 32 (k bytes plus k bits, so
    // the K functions differ for every L) and cut into L-bit slices that
    // are XORed: address bit p feeds index bit ((p + R_k) mod 32) mod L.
    // Pure wiring and XOR trees of ceil(32/L) inputs per index bit; h_k
    // is in bits k*L +: L of qh (query) and eh (eviction).
    reg [K*L-1:0] qh, eh;
    integer hk, hp;
    always @* begin
        qh = {K*L{1'b0}};
        eh = {K*L{1'b0}};
        for (hk = 0; hk < K; hk = hk + 1)
`ifdef MUTANT_1
            // fault: the top address byte is left out of every hash
            for (hp = 0; hp < 24; hp = hp + 1) begin
`else
            for (hp = 0; hp < 32; hp = hp + 1) begin
`endif
                qh[hk*L + ((hp + 9*hk) % 32) % L] =
                    qh[hk*L + ((hp + 9*hk) % 32) % L] ^ q_addr_i[hp];
                eh[hk*L + ((hp + 9*hk) % 32) % L] =
                    eh[hk*L + ((hp + 9*hk) % 32) % L] ^ e_addr_i[hp];
            end
    end

`ifdef MUTANT_2
    // fault: SEL prefers array 1 on a tie (answers from the idle array)
    assign sel_o = cnt1_o >= cnt0_o;
`else
    assign sel_o = cnt1_o > cnt0_o;
`endif

    // Query: all K bits set in the active array (one M:1 read per hash).
    wire [M-1:0] act = sel_o ? arr1 : arr0;
    reg hit;
    integer k;
    always @* begin
        hit = 1'b1;
        for (k = 0; k < K; k = k + 1)
            if (!act[qh[k*L +: L]])
                hit = 1'b0;
    end

    // Insertion set vector: OR of K one-hot decodes of the eviction
    // hashes, each a two-level predecoded decoder (LO low index bits x
    // L-LO high ones), not a shifter.
    localparam integer LO = L / 2;
    localparam integer HI = L - LO;
    reg [M-1:0] setv;
    genvar g, j;
    generate
        wire [K*(1<<LO)-1:0] plo;
        wire [K*(1<<HI)-1:0] phi;
        for (g = 0; g < K; g = g + 1) begin : g_pre
            for (j = 0; j < (1 << LO); j = j + 1) begin : g_lo
                assign plo[g*(1<<LO) + j] = eh[g*L +: LO] == j;
            end
            for (j = 0; j < (1 << HI); j = j + 1) begin : g_hi
                assign phi[g*(1<<HI) + j] = eh[g*L + LO +: HI] == j;
            end
        end
    endgenerate
    // (a loop, not M x K generated assigns: the same gates, and Verilator
    // keeps it a loop instead of emitting code per bit)
    integer sj, sg;
    always @* begin
        setv = {M{1'b0}};
        for (sj = 0; sj < M; sj = sj + 1)
            for (sg = 0; sg < K; sg = sg + 1)
                setv[sj] = setv[sj] | (plo[sg*(1<<LO) + (sj % (1 << LO))] &
                                       phi[sg*(1<<HI) + (sj / (1 << LO))]);
    end

    // Eviction bookkeeping.
    wire fg_loc = {29'd0, e_used_i} < TH_FG;
`ifdef MUTANT_3
    // fault: every eviction is inserted
    wire ins = 1'b1;
`else
    wire ins = fg_loc != dflt_o;
`endif
    wire [CW-1:0] n0 = cnt0_o + 1'b1;
    wire [CW-1:0] n1 = cnt1_o + 1'b1;
    wire full0 = n0 == N[CW-1:0];
    wire full1 = n1 == N[CW-1:0];
    wire half0 = n0 == HALF_N[CW-1:0];
    wire [EW-1:0] wev  = win_ev_o + 1'b1;
    wire [EW-1:0] wins = win_ins_o + {{(EW-1){1'b0}}, ins};
    wire wend = wev == NUM_EVICT[EW-1:0];
`ifdef MUTANT_4
    // fault: >= instead of > at the skew threshold
    wire skew = wins >= SKEW_INS[EW-1:0];
`else
    wire skew = wins > SKEW_INS[EW-1:0];
`endif

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            arr0 <= {M{1'b0}};
            arr1 <= {M{1'b0}};
            q_valid_o <= 1'b0;
            q_hit_o <= 1'b0;
            q_fg_o <= 1'b0;
            e_valid_o <= 1'b0;
            e_ins_o <= 1'b0;
            inv_o <= 1'b0;
            dflt_o <= 1'b0;
            idle1_o <= 1'b1;
            cnt0_o <= {CW{1'b0}};
            cnt1_o <= {CW{1'b0}};
            win_ev_o <= {EW{1'b0}};
            win_ins_o <= {EW{1'b0}};
            ev_total_o <= 32'd0;
            ins_total_o <= 32'd0;
        end else begin
            q_valid_o <= q_valid_i;
            e_valid_o <= e_valid_i;
            if (q_valid_i) begin
                q_hit_o <= hit;
                q_fg_o <= dflt_o ^ hit;
            end
            if (e_valid_i) begin
                e_ins_o <= ins;
                ev_total_o <= ev_total_o + 32'd1;
                if (ins) begin
                    ins_total_o <= ins_total_o + 32'd1;
                    arr0 <= full0 ? {M{1'b0}} : (arr0 | setv);
                    cnt0_o <= full0 ? {CW{1'b0}} : n0;
                    if (!idle1_o) begin
                        arr1 <= full1 ? {M{1'b0}} : (arr1 | setv);
                        cnt1_o <= full1 ? {CW{1'b0}} : n1;
                    end else if (half0) begin
                        idle1_o <= 1'b0;
                    end
                end
                inv_o <= wend & skew;
                if (wend) begin
                    win_ev_o <= {EW{1'b0}};
                    win_ins_o <= {EW{1'b0}};
                    if (skew) begin
                        dflt_o <= ~dflt_o;
                        arr0 <= {M{1'b0}};
                        arr1 <= {M{1'b0}};
                        cnt0_o <= {CW{1'b0}};
                        cnt1_o <= {CW{1'b0}};
                        idle1_o <= 1'b1;
                    end
                end else begin
                    win_ev_o <= wev;
                    win_ins_o <= wins;
                end
            end
        end
    end
endmodule
