// RVC compressor (G-Scalar sec. 3.1, 3.3, 4.2, 4.3): byte-wise compare of
// the W lanes of one write-back, thermometer enc, D/FS flags, base value
// registers and byte-array write enables, all registered (one cycle to
// compress). Payload registers load only when valid_i is 1.
// Spec: shared spec blocks.md section 4; docs/blocks/rvc.md.
module rvc_comp #(
    parameter integer W = 32            // lanes, even, 2..32
) (
    input  wire            clk_i,
    input  wire            rst_ni,      // synchronous, active low
    input  wire            valid_i,
    input  wire [W*32-1:0] data_i,      // lane l in bits l*32 +: 32
    input  wire [W-1:0]    mask_i,      // active mask M
    input  wire            half_i,      // half-register compression
    output reg             valid_o,
    output reg             d_o,
    output reg             half_o,
    output reg  [3:0]      enc_o,
    output reg  [3:0]      encl_o,
    output reg  [3:0]      ench_o,
    output reg             fs_o,
    output reg  [7:0]      we_o,        // {weH, weL}
    output reg  [31:0]     bvr_o,
    output reg  [31:0]     bvrh_o,
    output reg  [W-1:0]    mask_o,
    output reg  [W*32-1:0] data_o
);
    // Two half comparators (Fig 7(c)); the full-register result combines
    // them: equal in both halves and, when both halves have an active
    // lane, the two leading-one values agree in that byte. Per half:
    // inactive lanes take the value of the highest-numbered active lane
    // (leading-one broadcast, Fig 7(a)), so only active lanes decide;
    // eq[b] = byte b equal in every active lane of the half (1111 and
    // ref = 0 when the half has no active lane).
    reg  [3:0]  eql, eqh;
    reg  [31:0] refl, refh;
    wire        anyl = |mask_i[W/2-1:0];
    wire        anyh = |mask_i[W-1:W/2];
    integer l, h;
    always @* begin
        refl = 32'd0;
        refh = 32'd0;
        for (l = 0; l < W/2; l = l + 1) begin
            if (mask_i[l])       refl = data_i[l*32 +: 32];
            if (mask_i[W/2 + l]) refh = data_i[(W/2 + l)*32 +: 32];
        end
        eql = 4'hf;
        eqh = 4'hf;
        for (l = 0; l < W/2; l = l + 1)
            for (h = 0; h < 4; h = h + 1) begin
`ifdef MUTANT_1
                // fault: inactive lanes take part in the compare
                if (data_i[l*32 + h*8 +: 8] != refl[h*8 +: 8])
                    eql[h] = 1'b0;
                if (data_i[(W/2 + l)*32 + h*8 +: 8] != refh[h*8 +: 8])
                    eqh[h] = 1'b0;
`else
                if (mask_i[l] && data_i[l*32 + h*8 +: 8] != refl[h*8 +: 8])
                    eql[h] = 1'b0;
                if (mask_i[W/2 + l] &&
                    data_i[(W/2 + l)*32 + h*8 +: 8] != refh[h*8 +: 8])
                    eqh[h] = 1'b0;
`endif
            end
    end
    reg [3:0] eqf;
    integer b;
    always @* begin
        for (b = 0; b < 4; b = b + 1)
`ifdef MUTANT_5
            // fault: the two halves' leading-one values are not compared
            eqf[b] = eql[b] & eqh[b];
`else
            eqf[b] = eql[b] & eqh[b] &
                     (~anyl | ~anyh | (refl[b*8 +: 8] == refh[b*8 +: 8]));
`endif
    end

    // Thermometer from the most significant byte.
    function [3:0] therm(input [3:0] eq);
`ifdef MUTANT_2
        // fault: plain equality flags, no thermometer
        therm = eq;
`else
        therm = {eq[3], eq[3] & eq[2], eq[3] & eq[2] & eq[1], &eq};
`endif
    endfunction
    wire [3:0] enc = therm(eqf), encl = therm(eql), ench = therm(eqh);

`ifdef MUTANT_3
    // fault: D only when the low lane is inactive
    wire d = ~mask_i[0];
`else
    wire d = ~&mask_i;
`endif
    wire [31:0] mask32 = {{(32-W){1'b0}}, mask_i};

    reg [7:0]  we;
    reg [31:0] bvr, bvrh;
    always @* begin
        if (d) begin
            we = 8'hff;
            bvr = mask32;
            bvrh = 32'd0;
        end else if (half_i) begin
            we = {~ench, ~encl};
            bvr = data_i[31:0];
`ifdef MUTANT_4
            // fault: high base from the wrong lane
            bvrh = data_i[(W/2-1)*32 +: 32];
`else
            bvrh = data_i[(W/2)*32 +: 32];
`endif
        end else begin
            we = {~enc, ~enc};
            bvr = data_i[31:0];
            bvrh = 32'd0;
        end
    end

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            valid_o <= 1'b0;
            d_o <= 1'b0;
            half_o <= 1'b0;
            enc_o <= 4'd0;
            encl_o <= 4'd0;
            ench_o <= 4'd0;
            fs_o <= 1'b0;
            we_o <= 8'd0;
            bvr_o <= 32'd0;
            bvrh_o <= 32'd0;
            mask_o <= {W{1'b0}};
            data_o <= {W*32{1'b0}};
        end else begin
            valid_o <= valid_i;
            if (valid_i) begin
                d_o <= d;
                half_o <= half_i;
                enc_o <= enc;
                encl_o <= encl;
                ench_o <= ench;
                fs_o <= half_i & ~d & (&enc);
                we_o <= we;
                bvr_o <= bvr;
                bvrh_o <= bvrh;
                mask_o <= mask_i;
                data_o <= data_i;
            end
        end
    end
endmodule
