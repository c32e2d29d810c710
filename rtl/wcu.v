// WCU: warp compaction unit with per-lane priority encoders and the
// compaction-adequacy evaluator (dissertation 4.1.3, 4.2.2, Fig 4.3, 4.9;
// spec blocks.md section 2). C model: csim/blocks/wcu.c; timing and
// examples: docs/blocks/wcu.md.
//
// An accepted load (load_i && ready_o) registers the CTA-wide mask of the
// non-bypassed warps (mask_i & UMask) and the evaluator result over ALL
// warps. Each following edge emits one compacted warp: every lane takes
// its lowest-numbered remaining warp; those bits are cleared. A path that
// needs K compacted warps is busy for K edges. ready_o is high when at
// most one warp remains, so the next load can ride on the last warp's edge.
// All outputs come from registers (Moore).
//
// Layout: the remaining-mask register is warp-major like mask_i (bit
// w*W + l: warp w in lane l), so the load writes mask_i & UMask word by
// word and the W per-lane priority encoders advance together over the
// warp words (rtl/wcu_prio.v). The evaluator (rtl/wcu_eval.v) works on
// mask_i as it comes.
module wcu #(
    parameter integer W  = 32,   // lanes per warp (SIMD width), 1..32
    parameter integer NW = 32    // warps per CTA (MAX_WARPS), 2..32
) (
    input  wire                clk_i,
    input  wire                rst_ni,        // synchronous, active low
    input  wire                load_i,        // offer a CTA-wide mask
    input  wire [NW*W-1:0]     mask_i,        // bit w*W+l: warp w, lane l
    input  wire [NW-1:0]       umask_i,       // 1: warp waited (compact it)
    output wire                ready_o,       // next-edge load accepted
    output wire                busy_o,        // compacted warps remain
    output wire                out_valid_o,   // compacted warp on out_*
    output wire                out_done_o,    // last warp of its mask
    output wire [W-1:0]        out_lanes_o,   // compacted active mask
    output wire [W*$clog2(NW)-1:0] out_wid_o, // lane l: source warp id
    output wire                eval_valid_o,  // evaluator result is new
    output wire [$clog2(NW+1)-1:0] nw_min_o, // max threads in one lane
    output wire [$clog2(NW+1)-1:0] nw_nocomp_o, // warps with a thread
    output wire                adequate_o     // nw_min_o < nw_nocomp_o
);
    localparam integer WID_W = $clog2(NW);       // warp-id bits

    reg  [NW*W-1:0]    rem_q;      // remaining non-bypassed active bits
    reg  [NW*W-1:0]    rem_next;   // after this edge's picks
    wire [NW*W-1:0]    grant;      // lane l: its pick, one-hot
    wire [W-1:0]       pick_any;
    wire [W*WID_W-1:0] pick_wid;

`ifdef MUTANT_2
    // fault: a lane's remaining bits are not cleared for warp 1
    localparam [NW-1:0] KEEP = {{(NW-1){1'b0}}, 1'b1} << 1;
`else
    localparam [NW-1:0] KEEP = {NW{1'b0}};
`endif

    // The per-lane priority encoders (warp w's word rem_q[w*W +: W], one
    // bit per lane).
    wcu_prio #(.N(NW), .W(W), .IDX_W(WID_W)) u_prio (
        .req_i  (rem_q),
        .grant_o(grant),
        .idx_o  (pick_wid),
        .any_o  (pick_any)
    );

    // Each lane's pick leaves its warp; with nothing remaining the
    // result is 0 either way, so it is computed only when busy (the
    // isolation a simulator needs to skip the idle edges).
    wire busy = |rem_q;
    reg  last;
    always_comb begin
        rem_next = {NW*W{1'b0}};
        last     = 1'b1;
        if (busy) begin
            for (int w = 0; w < NW; w++)
                rem_next[w*W +: W] = rem_q[w*W +: W]
                                   & ~(grant[w*W +: W] & {W{~KEEP[w]}});
            last     = ~|rem_next;
        end
    end

    wire emit   = |pick_any;
    wire accept = load_i & last;

    assign busy_o  = busy;
`ifdef MUTANT_5
    assign ready_o = ~busy_o;                    // fault: no back-to-back
`else
    assign ready_o = last;
`endif

    // The adequacy evaluator, registered on the accepting edge.
    wcu_eval #(.W(W), .NW(NW)) u_eval (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .load_i     (accept),
        .mask_i     (mask_i),
        .nw_min_o   (nw_min_o),
        .nw_nocomp_o(nw_nocomp_o),
        .adequate_o (adequate_o)
    );

    // The load: mask_i & UMask, one W-bit word per warp. It overrides
    // the default rem_next rather than sitting in an if/else: the
    // simulator turns an if/else that assigns one register into a select,
    // which computes both sides on every edge (docs/blocks/wcu.md 5a).
    reg [NW*W-1:0] rem_d;
    always_comb begin
        rem_d = rem_next;
        if (accept)
            for (int w = 0; w < NW; w++)
`ifdef MUTANT_1
                // fault: warp 0 is compacted even when it bypassed
                rem_d[w*W +: W] = mask_i[w*W +: W] & {W{umask_i[w] | (w == 0)}};
`else
                rem_d[w*W +: W] = mask_i[w*W +: W] & {W{umask_i[w]}};
`endif
    end

    reg              out_valid_q, out_done_q, eval_valid_q;
    reg [W-1:0]      out_lanes_q;
    reg [W*WID_W-1:0] out_wid_q;
    always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
            rem_q        <= {NW*W{1'b0}};
            out_valid_q  <= 1'b0;
            out_done_q   <= 1'b0;
            out_lanes_q  <= {W{1'b0}};
            out_wid_q    <= {W*WID_W{1'b0}};
            eval_valid_q <= 1'b0;
        end else begin
            rem_q        <= rem_d;
            out_valid_q  <= emit;
            out_done_q   <= emit & last;
            out_lanes_q  <= pick_any;
            out_wid_q    <= pick_wid;
            eval_valid_q <= accept;
        end
    end

    assign out_valid_o  = out_valid_q;
    assign out_done_o   = out_done_q;
    assign out_lanes_o  = out_lanes_q;
    assign out_wid_o    = out_wid_q;
    assign eval_valid_o = eval_valid_q;
endmodule
