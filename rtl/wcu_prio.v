// Priority encoder of the WCU, one per SIMD lane (dissertation 4.1.3,
// Fig 4.3): grants the lowest-numbered requesting warp. Combinational.
module wcu_prio #(
    parameter integer N     = 32,                          // warps
    parameter integer IDX_W = (N > 1) ? $clog2(N) : 1      // index bits
) (
    input  wire [N-1:0]     req_i,    // bit w: warp w active in this lane
    output wire [N-1:0]     grant_o,  // one-hot lowest request (0 if none)
    output reg  [IDX_W-1:0] idx_o     // index of grant_o (0 if none)
);
    localparam [N-1:0] ONE = {{(N-1){1'b0}}, 1'b1};

    assign grant_o = req_i & ~(req_i - ONE);

`ifdef MUTANT_4
    localparam integer LAST = (N > 1) ? N - 1 : N;  // fault: top warp id lost
`else
    localparam integer LAST = N;
`endif
    integer i;
    always @* begin
        idx_o = {IDX_W{1'b0}};
        for (i = 0; i < LAST; i = i + 1)
            if (grant_o[i])
                idx_o = idx_o | i[IDX_W-1:0];
    end
endmodule
