// Compaction-adequacy evaluator of the WCU (the "Predictor" of Fig 4.9,
// dissertation 4.2.2): on a load it registers, over ALL warps of mask_i
// (bypassed ones included), the largest number of active threads in one
// lane (nw_min_o), the number of warps with an active thread (nw_nocomp_o)
// and adequate_o = nw_min_o < nw_nocomp_o; they hold until the next load.
// Per-lane counts: a bit-sliced adder tree over the NW warp words (below);
// their maximum: rtl/wcu_max.v (its own module, so synthesis maps it apart
// from the adder trees: ABC's equivalence sweep on the two together takes
// many minutes). The adder trees' operands are isolated on edges without a
// load, so a simulator evaluates them only on the edges that load.
module wcu_eval #(
    parameter integer W  = 32,   // lanes per warp, 1..32
    parameter integer NW = 32    // warps per CTA, 2..32
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,       // synchronous, active low
    input  wire                    load_i,       // register a new result
    input  wire [NW*W-1:0]         mask_i,       // bit w*W+l: warp w, lane l
    output wire [$clog2(NW+1)-1:0] nw_min_o,     // max threads in one lane
    output wire [$clog2(NW+1)-1:0] nw_nocomp_o,  // warps with a thread
    output wire                    adequate_o    // nw_min_o < nw_nocomp_o
);
    localparam integer CNT_W = $clog2(NW + 1);   // NW counter bits
    localparam integer NP    = 1 << $clog2(NW);  // NW rounded up to 2^k

    // Evaluator, threads per lane over all warps: an adder tree per lane,
    // bit-sliced over the W lanes (each operation below is W full adders,
    // one per lane). The tree is built in place in NP slots of W bits:
    // at the level of stride s, number i (i a multiple of s, at most s, so
    // $clog2(s)+1 bit planes) holds plane p in slot i+p; numbers i and
    // i+s (i a multiple of 2s) are added by a ripple of full adders into
    // slots i..i+$clog2(s)+1. Padding slots (warps NW..NP-1) are 0.
    function [CNT_W*W-1:0] lane_counts(input [NW*W-1:0] m);
        reg [NP*W-1:0] t;
        reg [W-1:0]    a, b, c;
        integer i, s, p;
        begin
            t = {NP*W{1'b0}};
            t[NW*W-1:0] = m;
            for (s = 1; s < NP; s = s * 2)
                for (i = 0; i < NP; i = i + 2 * s) begin
                    c = {W{1'b0}};
                    for (p = 0; p <= $clog2(s); p = p + 1) begin
                        a = t[(i + p)*W +: W];
                        b = t[(i + s + p)*W +: W];
                        t[(i + p)*W +: W] = a ^ b ^ c;
                        c = (a & b) | (c & (a ^ b));
                    end
                    t[(i + $clog2(s) + 1)*W +: W] = c;
                end
            lane_counts = t[CNT_W*W-1:0];
        end
    endfunction

    // Evaluator, warps with an active thread: an adder tree over the NW
    // warp bits.
    function [CNT_W-1:0] warp_count(input [NW-1:0] v);
        reg [NP*CNT_W-1:0] t;
        integer i, s;
        begin
            t = {NP*CNT_W{1'b0}};
            for (i = 0; i < NW; i = i + 1)
                t[i*CNT_W] = v[i];
            for (s = 1; s < NP; s = s * 2)
                for (i = 0; i + s < NW; i = i + 2 * s)
                    t[i*CNT_W +: CNT_W] = t[i*CNT_W +: CNT_W] + t[(i + s)*CNT_W +: CNT_W];
            warp_count = t[0 +: CNT_W];
        end
    endfunction

    // The per-lane counts, held at 0 on edges that do not load (W x CNT_W
    // AND gates of operand isolation: a simulator skips the adder trees
    // then). Written as a default and an override, not as if/else: the
    // simulator would turn that into a select that computes both sides.
    reg [CNT_W*W-1:0] cnt;
    always_comb begin
        cnt = {CNT_W*W{1'b0}};
        if (load_i)
            cnt = lane_counts(mask_i);
    end

    wire [CNT_W-1:0] mx;   // the largest lane count
    wcu_max #(.W(W), .CW(CNT_W)) u_max (
        .cnt_i(cnt),
        .max_o(mx)
    );

    // Warps with an active thread.
    function [NW-1:0] warps_any(input [NW*W-1:0] m);
        integer w;
        begin
            for (w = 0; w < NW; w = w + 1)
                warps_any[w] = |m[w*W +: W];
        end
    endfunction

    // {adequate, nw_nocomp, nw_min} from the lane maximum and the warp
    // count.
    function [2*CNT_W:0] result(input [CNT_W-1:0] mx_i, input [CNT_W-1:0] nc);
        begin
`ifdef MUTANT_3
            result = {mx_i <= nc, nc, mx_i};   // fault: <= for <
`else
            result = {mx_i < nc, nc, mx_i};
`endif
        end
    endfunction

    reg [2*CNT_W:0] eval_q, eval_d;   // {adequate, nw_nocomp, nw_min}
    always_comb begin
        eval_d = eval_q;
        if (load_i)   // (the warp count only where it is loaded)
            eval_d = result(mx, warp_count(warps_any(mask_i)));
    end
    always_ff @(posedge clk_i) begin
        if (!rst_ni)
            eval_q <= {(2*CNT_W+1){1'b0}};
        else
            eval_q <= eval_d;
    end

    assign {adequate_o, nw_nocomp_o, nw_min_o} = eval_q;
endmodule
