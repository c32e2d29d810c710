// Area bound for the CAPT (docs/area.md, "CAPT: what Table 4.3 counts").
// Not a block: the least logic any CAPT of shared spec blocks.md section 1
// contains, synthesised by synth/bound.sh with the blocks' flow.
//   UPD = 0: the entry array alone: per entry a valid flop (reset), a
//            32-bit tag and a 1-bit history (no reset) with their write
//            enables, and the entry's lookup tag comparator.
//   UPD = 1: plus the update port the spec requires: the read of entry
//            update_idx_i (tag, history, valid) and its one tag
//            comparator, which gates the history write.
// Left out, so both are lower bounds: the replacement state and victim
// choice, the hit/victim index encoders, the history prediction and every
// output register.
module capt_array #(
    parameter int ENTRIES = 4,
    parameter int TAG_W   = 32,
    parameter int UPD     = 1
) (
    input  logic                    clk_i,
    input  logic                    rst_ni,
    input  logic [ENTRIES-1:0]      we_i,
    input  logic [TAG_W-1:0]        pc_i,
    input  logic                    hist_i,
    input  logic [IDX_W-1:0]        upd_idx_i,
    input  logic [TAG_W-1:0]        upd_pc_i,
    input  logic                    upd_hist_i,
    output logic [ENTRIES-1:0]      hit_o,
    output logic                    upd_hit_o
);
    localparam int IDX_W = (ENTRIES > 2) ? $clog2(ENTRIES) : 1;
    logic [ENTRIES-1:0]       valid_q, valid_d, hist_q, hist_d;
    logic [ENTRIES*TAG_W-1:0] tag_q, tag_d;
    logic [TAG_W-1:0]         utag;
    logic                     uvalid;

    always_comb begin
        utag   = '0;
        uvalid = 1'b0;
        for (int i = 0; i < ENTRIES; i++)
            if (upd_idx_i == i[IDX_W-1:0]) begin
                utag   = utag | tag_q[i*TAG_W +: TAG_W];
                uvalid = uvalid | valid_q[i];
            end
    end
    assign upd_hit_o = UPD != 0 && uvalid && utag == upd_pc_i;

    always_comb begin
        valid_d = valid_q;
        tag_d   = tag_q;
        hist_d  = hist_q;
        for (int i = 0; i < ENTRIES; i++) begin
            hit_o[i] = valid_q[i] && tag_q[i*TAG_W +: TAG_W] == pc_i;
            if (upd_hit_o && upd_idx_i == i[IDX_W-1:0])
                hist_d[i] = upd_hist_i;
            if (we_i[i]) begin
                valid_d[i] = 1'b1;
                tag_d[i*TAG_W +: TAG_W] = pc_i;
                hist_d[i] = hist_i;
            end
        end
    end

    always_ff @(posedge clk_i) begin
        if (!rst_ni) valid_q <= '0;
        else         valid_q <= valid_d;
    end

    always_ff @(posedge clk_i) begin
        tag_q  <= tag_d;
        hist_q <= hist_d;
    end
endmodule
