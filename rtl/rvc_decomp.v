// RVC decompressor (G-Scalar sec. 3.2, 4.1-4.3, Fig 5, Fig 7(b)): rebuilds
// the W x 32-bit register from enc/D/FS, the base value registers and the
// byte-sliced arrays, and classifies the operand's scalar eligibility for
// the reading instruction's mask M'. One registered cycle; payload
// registers load only when valid_i is 1.
// Spec: shared spec blocks.md section 4; docs/blocks/rvc.md.
module rvc_decomp #(
    parameter integer W = 32            // lanes, even, 2..32
) (
    input  wire            clk_i,
    input  wire            rst_ni,      // synchronous, active low
    input  wire            valid_i,
    input  wire            d_i,
    input  wire            half_i,
    input  wire [3:0]      enc_i,
    input  wire [3:0]      encl_i,
    input  wire [3:0]      ench_i,
    input  wire            fs_i,
    input  wire [31:0]     bvr_i,
    input  wire [31:0]     bvrh_i,
    input  wire [W*32-1:0] arr_i,       // lane l in bits l*32 +: 32
    input  wire [W-1:0]    mask_i,      // M' of the reading instruction
    output reg             valid_o,
    output reg  [7:0]      re_o,        // {reH, reL}
    output reg  [1:0]      cls_o,       // 0 none 1 scalar 2 div 3 half
    output reg  [1:0]      hsc_o,       // {high, low} half scalar
    output reg  [W*32-1:0] data_o
);
    // Per-lane byte select (Fig 5): base byte where enc covers it.
    reg [W*32-1:0] data;
    reg [3:0]  sel;
    reg [31:0] base;
    integer l, b;
    always @* begin
        data = arr_i;
        for (l = 0; l < W; l = l + 1) begin
`ifdef MUTANT_1
            // fault: half mode ignored when rebuilding
            sel = enc_i;
            base = bvr_i;
`else
            sel = !half_i ? enc_i : (l < W/2 ? encl_i : ench_i);
            base = (half_i && l >= W/2) ? bvrh_i : bvr_i;
`endif
            if (!d_i)
                for (b = 0; b < 4; b = b + 1)
                    if (sel[b]) data[l*32 + b*8 +: 8] = base[b*8 +: 8];
        end
    end

    wire sc_l = &encl_i, sc_h = &ench_i, sc = &enc_i;
`ifdef MUTANT_2
    // fault: divergent-scalar ignores the stored mask
    wire mask_eq = 1'b1;
`else
    wire mask_eq = bvr_i[W-1:0] == mask_i;
`endif
    reg [1:0] cls, hsc;
    reg [7:0] re;
    always @* begin
        cls = 2'd0;
        hsc = 2'd0;
        if (d_i) begin
            re = 8'hff;
            if (sc && mask_eq) cls = 2'd2;
        end else if (half_i) begin
            re = {~ench_i, ~encl_i};
            hsc = {sc_h, sc_l};
            if (fs_i) cls = 2'd1;
`ifdef MUTANT_3
            // fault: half-scalar needs both halves
            else if (sc_h & sc_l) cls = 2'd3;
`else
            else if (sc_h | sc_l) cls = 2'd3;
`endif
        end else begin
            re = {~enc_i, ~enc_i};
            if (sc) cls = 2'd1;
        end
    end

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            valid_o <= 1'b0;
            re_o <= 8'd0;
            cls_o <= 2'd0;
            hsc_o <= 2'd0;
            data_o <= {W*32{1'b0}};
        end else begin
            valid_o <= valid_i;
            if (valid_i) begin
                re_o <= re;
                cls_o <= cls;
                hsc_o <= hsc;
                data_o <= data;
            end
        end
    end
endmodule
