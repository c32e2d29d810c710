// SLP: SIMD lane permutation unit (dissertation 4.3.4-4.3.6, Fig 4.16,
// Fig 4.19). A launch computes the permutation key of warp wid_i under
// mode_i and stores it in the per-slot table (fixed for the warp's life);
// a lookup reads the key of slot_i. Either way the key, the logical ->
// physical lane map and the permuted active mask appear on the outputs
// after the edge: one register stage. Cycle-exact C model: csim/blocks/slp.c.
//
// mode_i: 0 none, 1 balanced, 2 odd_even, 3 rev_wid, 4 wid, 5 flip_odd,
//         6 xor_half_odd, 7 rotate_odd_1 (needs ROT_EN; else identity).
// Table storage: NWARPS x $clog2(W) key bits (+ NWARPS rotate flags if
// ROT_EN) = 160 (+32) bits for W = 32, NWARPS = 32.
module slp #(
    parameter int W      = 32,
    parameter int NWARPS = 32,
    parameter int ROT_EN = 1
) (
    input  logic                clk_i,
    input  logic                rst_ni,
    input  logic                valid_i,
    input  logic                launch_i,
    input  logic [SLOT_W-1:0]   slot_i,
    input  logic [M-1:0]        wid_i,   // warp id within the CTA, mod W
    input  logic [2:0]          mode_i,
    input  logic [W-1:0]        mask_i,
    output logic                valid_o,
    output logic [M-1:0]        key_o,
    output logic                rot_o,
    output logic [W*M-1:0]      phys_o,
    output logic [W-1:0]        mask_o
);
    localparam int M      = $clog2(W);
    localparam int SLOT_W = (NWARPS > 2) ? $clog2(NWARPS) : 1;
    localparam logic [M-1:0]    ALL  = {M{1'b1}};  // not '1: Yosys 0.23 reads a typed localparam '1 as 1
    localparam logic [M-1:0]    HALF = {1'b1, {(M-1){1'b0}}};
    localparam logic [M-1:0]    ONE  = {{(M-1){1'b0}}, 1'b1};
    localparam logic [SLOT_W:0] NW_L = NWARPS[SLOT_W:0];

    logic [NWARPS*M-1:0] key_q;
    logic [NWARPS-1:0]   rot_q;

    logic [M-1:0]       nkey, key, wl;
    logic               nrot, rot, odd, in_tab;
    logic [W*M-1:0]     phys;
    logic [W-1:0]       pmask;

    assign wl     = wid_i;
    assign odd    = wid_i[0];
    assign in_tab = {1'b0, slot_i} < NW_L;

    // key of a launching warp
    always_comb begin
        nkey = '0;
        nrot = 1'b0;
        case (mode_i)
            3'd1: nkey = {1'b0, wl[M-1:1]} ^ (odd ? ALL : '0);
`ifdef MUTANT_1   // odd_even permutes the even warps
            3'd2: nkey = odd ? '0 : ONE;
`else
            3'd2: nkey = odd ? ONE : '0;
`endif
            3'd3: for (int i = 0; i < M; i++) nkey[i] = wl[M-1-i];
            3'd4: nkey = wl;
            3'd5: nkey = odd ? ALL : '0;
            3'd6: nkey = odd ? HALF : '0;
            3'd7: if (ROT_EN != 0) begin
                      nkey = odd ? ONE : '0;
                      nrot = 1'b1;
                  end
            default: nkey = '0;
        endcase
    end

    always_comb begin
        if (launch_i) begin
            key = nkey;
            rot = nrot;
        end else if (in_tab) begin
            key = key_q[slot_i*M +: M];
            rot = rot_q[slot_i];
        end else begin
            key = '0;
            rot = 1'b0;
        end
    end

    // lane map and permuted mask
    always_comb begin
        for (int l = 0; l < W; l++) begin
`ifdef MUTANT_2   // rotation goes the wrong way
            phys[l*M +: M] = rot ? (l[M-1:0] - key) : (l[M-1:0] ^ key);
            pmask[l] = mask_i[rot ? (l[M-1:0] + key) : (l[M-1:0] ^ key)];
`else
            phys[l*M +: M] = rot ? (l[M-1:0] + key) : (l[M-1:0] ^ key);
            pmask[l] = mask_i[rot ? (l[M-1:0] - key) : (l[M-1:0] ^ key)];
`endif
        end
    end

    always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
            key_q   <= '0;
            rot_q   <= '0;
            valid_o <= 1'b0;
            key_o   <= '0;
            rot_o   <= 1'b0;
            phys_o  <= '0;
            mask_o  <= '0;
        end else begin
            valid_o <= valid_i;
            if (valid_i) begin
                key_o  <= key;
                rot_o  <= rot;
                phys_o <= phys;
`ifdef MUTANT_3   // the top lane of the permuted mask is dropped
                mask_o <= {1'b0, pmask[W-2:0]};
`else
                mask_o <= pmask;
`endif
            end else begin
                key_o  <= '0;
                rot_o  <= 1'b0;
                phys_o <= '0;
                mask_o <= '0;
            end
            if (valid_i && launch_i && in_tab) begin
`ifdef MUTANT_4   // the table stores the key of the previous launch
                key_q[slot_i*M +: M] <= key_o;
`else
                key_q[slot_i*M +: M] <= nkey;
`endif
                rot_q[slot_i]        <= nrot;
            end
        end
    end
endmodule
