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
    output reg                 out_valid_o,   // compacted warp on out_*
    output reg                 out_done_o,    // last warp of its mask
    output reg  [W-1:0]        out_lanes_o,   // compacted active mask
    output reg  [W*$clog2(NW)-1:0] out_wid_o, // lane l: source warp id
    output reg                 eval_valid_o,  // evaluator result is new
    output reg  [$clog2(NW+1)-1:0] nw_min_o, // max threads in one lane
    output reg  [$clog2(NW+1)-1:0] nw_nocomp_o, // warps with a thread
    output reg                 adequate_o     // nw_min_o < nw_nocomp_o
);
    localparam integer WID_W = $clog2(NW);       // warp-id bits
    localparam integer CNT_W = $clog2(NW + 1);   // NW counter bits

    reg  [NW*W-1:0]    rem_q;      // remaining non-bypassed active bits
    wire [NW*W-1:0]    rem_next;   // after this edge's picks
    wire [W-1:0]       pick_any;
    wire [W*WID_W-1:0] pick_wid;
    wire [W*CNT_W-1:0] lane_cnt;   // evaluator: threads per lane, all warps
    wire [NW-1:0]      warp_any;   // evaluator: warp has an active thread
    wire [CNT_W-1:0]   nocomp;
    reg  [CNT_W-1:0]   lane_max;

    genvar l, w;
    generate
        for (l = 0; l < W; l = l + 1) begin : g_lane
            wire [NW-1:0] col;     // remaining bits of lane l, one per warp
            wire [NW-1:0] grant;
            wire [NW-1:0] col_in;  // loaded bits of lane l, all warps
            for (w = 0; w < NW; w = w + 1) begin : g_warp
                assign col[w]    = rem_q[w*W + l];
                assign col_in[w] = mask_i[w*W + l];
`ifdef MUTANT_2
                // fault: a lane's remaining bits are not cleared for warp 1
                assign rem_next[w*W + l] = col[w] & ~(grant[w] & (w != 1));
`else
                assign rem_next[w*W + l] = col[w] & ~grant[w];
`endif
            end
            wcu_prio #(.N(NW), .IDX_W(WID_W)) u_prio (
                .req_i  (col),
                .grant_o(grant),
                .idx_o  (pick_wid[l*WID_W +: WID_W])
            );
            assign pick_any[l] = |col;
            wcu_popcnt #(.N(NW), .CW(CNT_W)) u_lane_cnt (
                .v_i  (col_in),
                .cnt_o(lane_cnt[l*CNT_W +: CNT_W])
            );
        end
        for (w = 0; w < NW; w = w + 1) begin : g_any
            assign warp_any[w] = |mask_i[w*W +: W];
        end
    endgenerate

    wcu_popcnt #(.N(NW), .CW(CNT_W)) u_nocomp (
        .v_i  (warp_any),
        .cnt_o(nocomp)
    );

    integer i;
    always @* begin
        lane_max = {CNT_W{1'b0}};
        for (i = 0; i < W; i = i + 1)
            if (lane_cnt[i*CNT_W +: CNT_W] > lane_max)
                lane_max = lane_cnt[i*CNT_W +: CNT_W];
    end

    // UMask expanded to every lane of its warp.
    reg [NW*W-1:0] umask_x;
    integer j;
    always @* begin
        for (j = 0; j < NW; j = j + 1)
`ifdef MUTANT_1
            // fault: warp 0 is compacted even when it bypassed
            umask_x[j*W +: W] = {W{umask_i[j] | (j == 0)}};
`else
            umask_x[j*W +: W] = {W{umask_i[j]}};
`endif
    end

    wire emit   = |pick_any;
    wire last   = ~|rem_next;
    wire accept = load_i & last;

    assign busy_o  = |rem_q;
`ifdef MUTANT_5
    assign ready_o = ~busy_o;                    // fault: no back-to-back
`else
    assign ready_o = last;
`endif

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            rem_q        <= {NW*W{1'b0}};
            out_valid_o  <= 1'b0;
            out_done_o   <= 1'b0;
            out_lanes_o  <= {W{1'b0}};
            out_wid_o    <= {W*WID_W{1'b0}};
            eval_valid_o <= 1'b0;
            nw_min_o     <= {CNT_W{1'b0}};
            nw_nocomp_o  <= {CNT_W{1'b0}};
            adequate_o   <= 1'b0;
        end else begin
            out_valid_o  <= emit;
            out_done_o   <= emit & last;
            out_lanes_o  <= pick_any;
            out_wid_o    <= pick_wid;
            eval_valid_o <= accept;
            rem_q        <= accept ? (mask_i & umask_x) : rem_next;
            if (accept) begin
                nw_min_o    <= lane_max;
                nw_nocomp_o <= nocomp;
`ifdef MUTANT_3
                adequate_o  <= lane_max <= nocomp;   // fault: <= for <
`else
                adequate_o  <= lane_max < nocomp;
`endif
            end
        end
    end
endmodule
