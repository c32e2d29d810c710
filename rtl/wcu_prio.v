// Priority encoders of the WCU, one per SIMD lane (dissertation 4.1.3,
// Fig 4.3): each grants the lowest-numbered requesting warp of its lane.
// Combinational. The request comes warp-major (one W-bit word per warp,
// bit l = lane l), so all W encoders advance together, one warp word at a
// time: warp w's grant word is its request word less the lanes an earlier
// warp already requests (the running OR, "seen"); each lane's grant is
// then one-hot over the warps. The index is the OR encoding of the grant:
// index plane b (one bit per lane) is the OR of the grant words of the
// warps whose number has bit b set; lane l's index gathers bit l of each
// plane. Every step is a word operation over the W lanes.
// The encoders sit behind one isolation test: with no request in any lane
// every output is 0, as the encoders would give, and a simulator skips
// them (nearly every compared edge of the WCU in the GPU loop is such an
// idle one; docs/blocks/wcu.md section 5a).
module wcu_prio #(
    parameter integer N     = 32,                          // warps
    parameter integer W     = 32,                          // lanes
    parameter integer IDX_W = (N > 1) ? $clog2(N) : 1      // index bits
) (
    input  logic [N*W-1:0]     req_i,    // bit w*W + l: warp w, lane l
    output logic [N*W-1:0]     grant_o,  // per lane one-hot over warps
    output logic [W*IDX_W-1:0] idx_o,    // lane l: index of its grant
    output logic [W-1:0]       any_o     // lane l has a request
);
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

    logic [W-1:0]       seen, g;
    logic [IDX_W*W-1:0] plane;   // plane k bit l: index bit k of lane l
    always_comb begin
        grant_o = '0;
        idx_o   = '0;
        any_o   = '0;
        seen    = '0;
        g       = '0;
        plane   = '0;
        if (|req_i) begin
            for (int w = 0; w < N; w++) begin
                g    = req_i[w*W +: W] & ~seen;
                seen = seen | req_i[w*W +: W];
                grant_o[w*W +: W] = g;
                for (int k = 0; k < IDX_W; k++)
                    plane[k*W +: W] = plane[k*W +: W] | (g & {W{enc[k*N + w]}});
            end
            any_o = seen;
            for (int l = 0; l < W; l++)
                for (int k = 0; k < IDX_W; k++)
                    idx_o[l*IDX_W + k] = plane[k*W + l];
        end
    end
endmodule
