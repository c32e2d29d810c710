// RVC byte-wise comparator of lanes LO..HI-1 (G-Scalar Fig 2, Fig 7(a)).
// Inactive lanes take the value of the highest-numbered active lane
// (leading-one broadcast), so only active lanes decide equality. Output
// enc_o is the thermometer code from the most significant byte; no active
// lane gives 4'b1111. Purely combinational.
module rvc_comp_enc #(
    parameter integer W  = 32,
    parameter integer LO = 0,
    parameter integer HI = 32
) (
    input  wire [W*32-1:0] data_i,
    input  wire [W-1:0]    mask_i,
    output wire [3:0]      enc_o
);
    // Leading one: later (higher) active lanes override earlier ones.
    reg [31:0] ref_q;
    reg [3:0]  eq;
    integer l, b;
    always @* begin
        ref_q = 32'd0;
        for (l = LO; l < HI; l = l + 1)
            if (mask_i[l]) ref_q = data_i[l*32 +: 32];
        eq = 4'hf;
        for (l = LO; l < HI; l = l + 1)
            for (b = 0; b < 4; b = b + 1)
`ifdef MUTANT_1
                // fault: inactive lanes take part in the compare
                if (data_i[l*32 + b*8 +: 8] != ref_q[b*8 +: 8])
`else
                if (mask_i[l] && data_i[l*32 + b*8 +: 8] != ref_q[b*8 +: 8])
`endif
                    eq[b] = 1'b0;
    end
`ifdef MUTANT_2
    // fault: plain equality flags, no thermometer
    assign enc_o = eq;
`else
    assign enc_o = {eq[3], eq[3] & eq[2], eq[3] & eq[2] & eq[1], &eq};
`endif
endmodule
