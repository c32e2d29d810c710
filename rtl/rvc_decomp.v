// RVC decompressor (G-Scalar sec. 3.2, 4.1-4.3, Fig 5, Fig 7(b)): rebuilds
// the W x 32-bit register from enc/D/FS, the base value registers and the
// byte-sliced arrays, and classifies the operand's scalar eligibility for
// the reading instruction's mask M'. One registered cycle; payload
// registers load only when valid_i is 1.
// Spec: shared spec blocks.md section 4; docs/blocks/rvc.md.
//
// The rebuild is word-wise: each lane is one 32-bit select between the
// array bytes and the base under a byte mask (docs/blocks/rvc.md
// section 9).
module rvc_decomp #(
    parameter int W = 32                // lanes, even, 2..32
) (
    input  logic            clk_i,
    input  logic            rst_ni,     // synchronous, active low
    input  logic            valid_i,
    input  logic            d_i,
    input  logic            half_i,
    input  logic [3:0]      enc_i,
    input  logic [3:0]      encl_i,
    input  logic [3:0]      ench_i,
    input  logic            fs_i,
    input  logic [31:0]     bvr_i,
    input  logic [31:0]     bvrh_i,
    input  logic [W*32-1:0] arr_i,      // lane l in bits l*32 +: 32
    input  logic [W-1:0]    mask_i,     // M' of the reading instruction
    output logic            valid_o,
    output logic [7:0]      re_o,       // {reH, reL}
    output logic [1:0]      cls_o,      // 0 none 1 scalar 2 div 3 half
    output logic [1:0]      hsc_o,      // {high, low} half scalar
    output logic [W*32-1:0] data_o
);
    // Per-lane byte select (Fig 5): base byte where enc covers it. The
    // select and the base are those of the lane's half; a 32-bit mask
    // with byte b all ones where sel[b] picks the base byte.
    logic [W*32-1:0] data;
    logic [3:0]      sel_l, sel_h;
    logic [31:0]     base_l, base_h, keep_l, keep_h;
    always_comb begin
`ifdef MUTANT_1
        // fault: half mode ignored when rebuilding
        sel_l  = enc_i;
        sel_h  = enc_i;
        base_l = bvr_i;
        base_h = bvr_i;
`else
        sel_l  = !half_i ? enc_i : encl_i;
        sel_h  = !half_i ? enc_i : ench_i;
        base_l = bvr_i;
        base_h = half_i ? bvrh_i : bvr_i;
`endif
        if (d_i) begin
            sel_l = '0;
            sel_h = '0;
        end
        keep_l = {{8{sel_l[3]}}, {8{sel_l[2]}}, {8{sel_l[1]}}, {8{sel_l[0]}}};
        keep_h = {{8{sel_h[3]}}, {8{sel_h[2]}}, {8{sel_h[1]}}, {8{sel_h[0]}}};
        for (int l = 0; l < W/2; l++) begin
            data[l*32 +: 32] = (arr_i[l*32 +: 32] & ~keep_l) | (base_l & keep_l);
            data[(W/2 + l)*32 +: 32] =
                (arr_i[(W/2 + l)*32 +: 32] & ~keep_h) | (base_h & keep_h);
        end
    end

    wire sc_l = &encl_i, sc_h = &ench_i, sc = &enc_i;
`ifdef MUTANT_2
    // fault: divergent-scalar ignores the stored mask
    wire mask_eq = 1'b1;
`else
    wire mask_eq = bvr_i[W-1:0] == mask_i;
`endif
    logic [1:0] cls, hsc;
    logic [7:0] re;
    always_comb begin
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

    logic            valid_q;
    logic [7:0]      re_q, re_d;
    logic [1:0]      cls_q, cls_d, hsc_q, hsc_d;
    logic [W*32-1:0] data_q, data_d;

    // Payload registers load on a read and hold otherwise.
    // One 2:1 hold multiplexer per register as a continuous assign, which
    // a simulator evaluates as one select per word (a default copy of q
    // overwritten under valid_i copied the words twice; docs/blocks/rvc.md
    // section 9).
    assign re_d   = valid_i ? re   : re_q;
    assign cls_d  = valid_i ? cls  : cls_q;
    assign hsc_d  = valid_i ? hsc  : hsc_q;
    assign data_d = valid_i ? data : data_q;

    always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
            valid_q <= 1'b0;
            re_q    <= '0;
            cls_q   <= '0;
            hsc_q   <= '0;
            data_q  <= '0;
        end else begin
            valid_q <= valid_i;
            re_q    <= re_d;
            cls_q   <= cls_d;
            hsc_q   <= hsc_d;
            data_q  <= data_d;
        end
    end

    assign valid_o = valid_q;
    assign re_o    = re_q;
    assign cls_o   = cls_q;
    assign hsc_o   = hsc_q;
    assign data_o  = data_q;
endmodule
