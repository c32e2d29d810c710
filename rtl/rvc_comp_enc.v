// RVC byte-wise comparator of lanes LO..HI-1 (G-Scalar Fig 2, Fig 7(a)).
// Inactive lanes take the value of the highest-numbered active lane
// (leading-one broadcast, ref_o), so only active lanes decide equality:
// eq_o[b] = byte b equal in every active lane. any_o = some lane active;
// with no active lane eq_o = 4'b1111 and ref_o = 0. Combinational.
module rvc_comp_enc #(
    parameter integer W  = 32,
    parameter integer LO = 0,
    parameter integer HI = 32
) (
    input  wire [W*32-1:0] data_i,
    input  wire [W-1:0]    mask_i,
    output reg  [3:0]      eq_o,
    output reg  [31:0]     ref_o,
    output wire            any_o
);
    assign any_o = |mask_i[HI-1:LO];
    integer l, b;
    always @* begin
        // Leading one: later (higher) active lanes override earlier ones.
        ref_o = 32'd0;
        for (l = LO; l < HI; l = l + 1)
            if (mask_i[l]) ref_o = data_i[l*32 +: 32];
        eq_o = 4'hf;
        for (l = LO; l < HI; l = l + 1)
            for (b = 0; b < 4; b = b + 1)
`ifdef MUTANT_1
                // fault: inactive lanes take part in the compare
                if (data_i[l*32 + b*8 +: 8] != ref_o[b*8 +: 8])
`else
                if (mask_i[l] && data_i[l*32 + b*8 +: 8] != ref_o[b*8 +: 8])
`endif
                    eq_o[b] = 1'b0;
    end
endmodule
