// BGP byte-sliced XOR hash functions (docs/blocks/bgp.md): for k = 0..K-1
//   h_k(a) = XOR_{i=0..3} rotl8(a[8i+7:8i], (k*(2i+1)) mod 8)
//                          << ((k + 3i) mod (L-7)),   L = log2(M)
// each an L-bit index. Pure wiring and K four-input XOR trees.
module bgp_hash #(
    parameter integer M = 2048,
    parameter integer K = 6
) (
    input  wire [31:0]             addr_i,
    output wire [K*$clog2(M)-1:0]  idx_o      // h_k in bits k*L +: L
);
    localparam integer L = $clog2(M);
    genvar k, i;
    generate
        for (k = 0; k < K; k = k + 1) begin : g_k
            wire [L-1:0] part [0:3];
            for (i = 0; i < 4; i = i + 1) begin : g_i
                localparam integer R = (k * (2 * i + 1)) % 8;
                localparam integer S = (k + 3 * i) % (L - 7);
                wire [7:0] b = addr_i[8*i +: 8];
                wire [7:0] rb;
                if (R == 0) begin : g_r0
                    assign rb = b;
                end else begin : g_rot
                    assign rb = {b[7-R:0], b[7:8-R]};
                end
                wire [L-1:0] ext = {{(L-8){1'b0}}, rb};
                assign part[i] = ext << S;
            end
`ifdef MUTANT_1
            // fault: the top address byte is left out of every hash
            assign idx_o[k*L +: L] = part[0] ^ part[1] ^ part[2];
`else
            assign idx_o[k*L +: L] = part[0] ^ part[1] ^ part[2] ^ part[3];
`endif
        end
    endgenerate
endmodule
