// RVC compressor (G-Scalar sec. 3.1, 3.3, 4.2, 4.3): byte-wise compare of
// the W lanes of one write-back, thermometer enc, D/FS flags, base value
// registers and byte-array write enables, all registered (one cycle to
// compress). Payload registers load only when valid_i is 1.
// Spec: shared spec blocks.md section 4; docs/blocks/rvc.md.
//
// Each lane is compared as one 32-bit word (an XOR), the lanes of a half
// are ORed and the result folded byte-wise once, and only on an edge with
// a write-back (docs/blocks/rvc.md section 9).
module rvc_comp #(
    parameter int W = 32                // lanes, even, 2..32
) (
    input  logic            clk_i,
    input  logic            rst_ni,     // synchronous, active low
    input  logic            valid_i,
    input  logic [W*32-1:0] data_i,     // lane l in bits l*32 +: 32
    input  logic [W-1:0]    mask_i,     // active mask M
    input  logic            half_i,     // half-register compression
    output logic            valid_o,
    output logic            d_o,
    output logic            half_o,
    output logic [3:0]      enc_o,
    output logic [3:0]      encl_o,
    output logic [3:0]      ench_o,
    output logic            fs_o,
    output logic [7:0]      we_o,       // {weH, weL}
    output logic [31:0]     bvr_o,
    output logic [31:0]     bvrh_o,
    output logic [W-1:0]    mask_o,
    output logic [W*32-1:0] data_o
);
    // Thermometer from the most significant byte.
    function automatic logic [3:0] therm(input logic [3:0] eq);
`ifdef MUTANT_2
        // fault: plain equality flags, no thermometer
        therm = eq;
`else
        therm = {eq[3], eq[3] & eq[2], eq[3] & eq[2] & eq[1], &eq};
`endif
    endfunction

    // The compressed fields of a write-back. Two half comparators (Fig
    // 7(c)); the full-register result combines them: equal in both halves and, when both halves have an active
    // lane, the two leading-one values agree in that byte. Per half:
    // inactive lanes take the value of the highest-numbered active lane
    // (leading-one broadcast, Fig 7(a)), so only active lanes decide;
    // eq[b] = byte b equal in every active lane of the half (1111 and
    // ref = 0 when the half has no active lane).
    localparam logic [31:0] BYTE0 = 32'h0101_0101;
    logic [3:0]  eql, eqh, eqf, nel, neh, enc, encl, ench;
    logic [31:0] refl, refh, x, nwl, nwh, bvr, bvrh;
    logic [7:0]  we;
    logic        anyl, anyh, d, fs;
    always_comb begin
        refl = '0;
        refh = '0;
        for (int l = 0; l < W/2; l++) begin
            if (mask_i[l])       refl = data_i[l*32 +: 32];
            if (mask_i[W/2 + l]) refh = data_i[(W/2 + l)*32 +: 32];
        end
        // Byte b of an active lane's word differs from ref iff bit 8b of
        // the byte-wise OR fold of word XOR ref is set. The fold (an OR of
        // 8 per byte) distributes over OR, so the half's active lanes'
        // differences are ORed first and folded once: the same OR of
        // 8 x W/2 bits per byte. Under valid_i: operand isolation, so a
        // simulator skips the compares on an edge without a write-back
        // (the registers load nothing then).
        nwl = '0;
        nwh = '0;
        x   = '0;
        if (valid_i) begin
            for (int l = 0; l < W/2; l++) begin
`ifdef MUTANT_1
                // fault: inactive lanes take part in the compare
                nwl = nwl | (data_i[l*32 +: 32] ^ refl);
                nwh = nwh | (data_i[(W/2 + l)*32 +: 32] ^ refh);
`else
                nwl = nwl | ((data_i[l*32 +: 32] ^ refl) & {32{mask_i[l]}});
                nwh = nwh | ((data_i[(W/2 + l)*32 +: 32] ^ refh)
                             & {32{mask_i[W/2 + l]}});
`endif
            end
            x   = nwl | (nwl >> 4);
            x   = x | (x >> 2);
            nwl = (x | (x >> 1)) & BYTE0;
            x   = nwh | (nwh >> 4);
            x   = x | (x >> 2);
            nwh = (x | (x >> 1)) & BYTE0;
        end
        nel = {nwl[24], nwl[16], nwl[8], nwl[0]};
        neh = {nwh[24], nwh[16], nwh[8], nwh[0]};
        anyl = |mask_i[W/2-1:0];
        anyh = |mask_i[W-1:W/2];
        for (int b = 0; b < 4; b++)
`ifdef MUTANT_5
            // fault: the two halves' leading-one values are not compared
            eqf[b] = ~nel[b] & ~neh[b];
`else
            eqf[b] = ~nel[b] & ~neh[b] &
                     (~anyl | ~anyh | (refl[b*8 +: 8] == refh[b*8 +: 8]));
`endif
`ifdef MUTANT_3
        // fault: D only when the low lane is inactive
        d = ~mask_i[0];
`else
        d = ~&mask_i;
`endif
        eql  = ~nel;
        eqh  = ~neh;
        enc  = therm(eqf);
        encl = therm(eql);
        ench = therm(eqh);
        fs   = half_i & ~d & (&enc);
        if (d) begin
            we   = 8'hff;
            bvr  = {{(32-W){1'b0}}, mask_i};
            bvrh = 32'd0;
        end else if (half_i) begin
            we   = {~ench, ~encl};
            bvr  = data_i[31:0];
`ifdef MUTANT_4
            // fault: high base from the wrong lane
            bvrh = data_i[(W/2-1)*32 +: 32];
`else
            bvrh = data_i[(W/2)*32 +: 32];
`endif
        end else begin
            we   = {~enc, ~enc};
            bvr  = data_i[31:0];
            bvrh = 32'd0;
        end
    end

    logic            valid_q, d_q, d_d, half_q, half_d, fs_q, fs_d;
    logic [3:0]      enc_q, enc_d, encl_q, encl_d, ench_q, ench_d;
    logic [7:0]      we_q, we_d;
    logic [31:0]     bvr_q, bvr_d, bvrh_q, bvrh_d;
    logic [W-1:0]    mask_q, mask_d;
    logic [W*32-1:0] data_q, data_d;

    // Payload registers load on a write-back and hold otherwise.
    // One 2:1 hold multiplexer per register as a continuous assign, which
    // a simulator evaluates as one select per word (a default copy of q
    // overwritten under valid_i copied the words twice; docs/blocks/rvc.md
    // section 9).
    assign d_d    = valid_i ? d      : d_q;
    assign enc_d  = valid_i ? enc    : enc_q;
    assign encl_d = valid_i ? encl   : encl_q;
    assign ench_d = valid_i ? ench   : ench_q;
    assign fs_d   = valid_i ? fs     : fs_q;
    assign we_d   = valid_i ? we     : we_q;
    assign bvr_d  = valid_i ? bvr    : bvr_q;
    assign bvrh_d = valid_i ? bvrh   : bvrh_q;
    assign half_d = valid_i ? half_i : half_q;
    assign mask_d = valid_i ? mask_i : mask_q;
    assign data_d = valid_i ? data_i : data_q;

    always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
            valid_q <= 1'b0;
            d_q     <= 1'b0;
            half_q  <= 1'b0;
            enc_q   <= '0;
            encl_q  <= '0;
            ench_q  <= '0;
            fs_q    <= 1'b0;
            we_q    <= '0;
            bvr_q   <= '0;
            bvrh_q  <= '0;
            mask_q  <= '0;
            data_q  <= '0;
        end else begin
            valid_q <= valid_i;
            d_q     <= d_d;
            half_q  <= half_d;
            enc_q   <= enc_d;
            encl_q  <= encl_d;
            ench_q  <= ench_d;
            fs_q    <= fs_d;
            we_q    <= we_d;
            bvr_q   <= bvr_d;
            bvrh_q  <= bvrh_d;
            mask_q  <= mask_d;
            data_q  <= data_d;
        end
    end

    assign valid_o = valid_q;
    assign d_o     = d_q;
    assign half_o  = half_q;
    assign enc_o   = enc_q;
    assign encl_o  = encl_q;
    assign ench_o  = ench_q;
    assign fs_o    = fs_q;
    assign we_o    = we_q;
    assign bvr_o   = bvr_q;
    assign bvrh_o  = bvrh_q;
    assign mask_o  = mask_q;
    assign data_o  = data_q;
endmodule
