// BGP hash functions (docs/blocks/bgp.md): for k = 0..K-1 the block
// address is rotated left by R_k = 9k mod 32 (k bytes plus k bits, so the
// K functions differ for every L) and cut into L-bit slices, L = log2(M), that are
// XORed together: bit p of the address feeds index bit
// ((p + R_k) mod 32) mod L. Pure wiring and K XOR trees of ceil(32/L)
// inputs per index bit.
module bgp_hash #(
    parameter integer M = 2048,
    parameter integer K = 6
) (
    input  wire [31:0]             addr_i,
    output reg  [K*$clog2(M)-1:0]  idx_o      // h_k in bits k*L +: L
);
    localparam integer L = $clog2(M);
    integer k, p;
    always @* begin
        idx_o = {K*L{1'b0}};
        for (k = 0; k < K; k = k + 1)
`ifdef MUTANT_1
            // fault: the top address byte is left out of every hash
            for (p = 0; p < 24; p = p + 1)
`else
            for (p = 0; p < 32; p = p + 1)
`endif
                idx_o[k*L + ((p + 9*k) % 32) % L] =
                    idx_o[k*L + ((p + 9*k) % 32) % L] ^ addr_i[p];
    end
endmodule
