// Population count used by the WCU adequacy evaluator (Fig 4.9): number of
// ones in v_i. Combinational.
module wcu_popcnt #(
    parameter integer N  = 32,               // input bits
    parameter integer CW = $clog2(N + 1)     // count bits
) (
    input  wire [N-1:0]  v_i,
    output reg  [CW-1:0] cnt_o
);
    integer i;
    always @* begin
        cnt_o = {CW{1'b0}};
        for (i = 0; i < N; i = i + 1)
            cnt_o = cnt_o + {{(CW-1){1'b0}}, v_i[i]};
    end
endmodule
