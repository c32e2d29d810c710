// Lane maximum of the WCU adequacy evaluator (Fig 4.9): the largest of W
// per-lane counts given as CW bit planes (plane p bit l = bit p of lane
// l's count, plane p in cnt_i[p*W +: W]). Found plane by plane from the
// top: keep the lanes whose count has every bit found so far.
// Combinational.
module wcu_max #(
    parameter integer W  = 32,   // lanes
    parameter integer CW = 6     // count bits
) (
    input  wire [CW*W-1:0] cnt_i,
    output reg  [CW-1:0]   max_o
);
    reg [W-1:0] cand, hit;
    integer p;
    always_comb begin
        cand = {W{1'b1}};
        for (p = CW - 1; p >= 0; p = p - 1) begin
            hit      = cand & cnt_i[p*W +: W];
            max_o[p] = |hit;
            if (|hit)
                cand = hit;
        end
    end
endmodule
