// Priority encoders of the WCU, one per SIMD lane (dissertation 4.1.3,
// Fig 4.3): each grants the lowest-numbered requesting warp of its lane.
// Combinational. Per lane: grant = req & ~(req - 1) (the lowest set bit);
// the index is the OR encoding of the one-hot grant: index bit b is the OR
// of the grant bits whose warp number has bit b set (one OR tree per index
// bit), so each encoder is word operations on the lane's N-bit request.
// The W encoders sit in one module with one isolation test in front: with
// no request in any lane every output is 0, as the encoders would give,
// and a simulator skips them (nearly every compared edge of the WCU in the
// GPU loop is such an idle one; docs/blocks/wcu.md section 5a).
module wcu_prio #(
    parameter integer N     = 32,                          // warps
    parameter integer W     = 32,                          // lanes
    parameter integer IDX_W = (N > 1) ? $clog2(N) : 1      // index bits
) (
    input  logic [W*N-1:0]     req_i,    // lane l bit w: warp w requests
    output logic [W*N-1:0]     grant_o,  // lane l: one-hot lowest request
    output logic [W*IDX_W-1:0] idx_o,    // lane l: index of its grant
    output logic [W-1:0]       any_o     // lane l has a request
);
    localparam [N-1:0] ONE = {{(N-1){1'b0}}, 1'b1};

`ifdef MUTANT_4
    localparam integer LAST = (N > 1) ? N - 1 : N;  // fault: top warp id lost
`else
    localparam integer LAST = N;
`endif

    // Encoder mask of index bit b: bit b*N + i set iff bit b of warp
    // number i is set (warps 0..LAST-1); constant wires (generate, not a
    // constant function: a function's lines would count as never-hit code).
    wire [IDX_W*N-1:0] enc;
    genvar b, i;
    generate
        for (b = 0; b < IDX_W; b = b + 1) begin : g_idx
            for (i = 0; i < N; i = i + 1) begin : g_enc
                assign enc[b*N + i] = (i < LAST) && (((i >> b) % 2) == 1);
            end
        end
    endgenerate

    logic [N-1:0] col, g;
    always_comb begin
        grant_o = '0;
        idx_o   = '0;
        any_o   = '0;
        col     = '0;
        g       = '0;
        if (|req_i)
            for (int l = 0; l < W; l++) begin
                col = req_i[l*N +: N];
                g   = col & ~(col - ONE);
                any_o[l] = |col;
                grant_o[l*N +: N] = g;
                for (int k = 0; k < IDX_W; k++)
                    idx_o[l*IDX_W + k] = |(g & enc[k*N +: N]);
            end
    end
endmodule
