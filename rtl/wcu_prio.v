// Priority encoder of the WCU, one per SIMD lane (dissertation 4.1.3,
// Fig 4.3): grants the lowest-numbered requesting warp. Combinational.
// grant = req & ~(req - 1) (the lowest set bit); the index is the OR
// encoding of the one-hot grant: index bit b is the OR of the grant bits
// whose warp number has bit b set (one OR tree per index bit), so the
// whole encoder is word operations on the N-bit request.
module wcu_prio #(
    parameter integer N     = 32,                          // warps
    parameter integer IDX_W = (N > 1) ? $clog2(N) : 1      // index bits
) (
    input  wire [N-1:0]     req_i,    // bit w: warp w active in this lane
    output wire [N-1:0]     grant_o,  // one-hot lowest request (0 if none)
    output wire [IDX_W-1:0] idx_o     // index of grant_o (0 if none)
);
    localparam [N-1:0] ONE = {{(N-1){1'b0}}, 1'b1};

`ifdef MUTANT_4
    localparam integer LAST = (N > 1) ? N - 1 : N;  // fault: top warp id lost
`else
    localparam integer LAST = N;
`endif

    assign grant_o = req_i & ~(req_i - ONE);

    // Encoder mask of index bit b: bit i set iff bit b of warp number i is
    // set (warps 0..LAST-1); constant wires (generate, not a constant
    // function: a function's lines would count as never-hit code).
    genvar b, i;
    generate
        for (b = 0; b < IDX_W; b = b + 1) begin : g_idx
            wire [N-1:0] enc;
            for (i = 0; i < N; i = i + 1) begin : g_enc
                assign enc[i] = (i < LAST) && (((i >> b) % 2) == 1);
            end
            assign idx_o[b] = |(grant_o & enc);
        end
    endgenerate
endmodule
