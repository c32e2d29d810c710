// backprop: the two kernels of a Rodinia-style back-propagation layer, our
// own code. layerforward: a 16x16 block multiplies 16 inputs by their 16x16
// slice of the weight matrix and reduces each column in shared memory with
// a log2(HEIGHT)-step tree (`if (ty % power_two == 0)`), writing one
// partial sum per hidden unit per block; only tx == 0 loads inputs and
// writes results. adjust_weights: w += ETA*delta*input + MOMENTUM*oldw.
#define WIDTH 16
#define HEIGHT 16
#define LOG2_HEIGHT 4
#define ETA 0.3f
#define MOMENTUM 0.3f

// Weights are (in + 1) x (hid + 1), row-major; row 0 and column 0 are the
// bias entries, so input k (1-based) and hidden j (1-based) meet at
// w[k * (hid + 1) + j].
extern "C" __global__ void layerforward(const float *input, float *weights,
                                        float *partial, int in, int hid)
{
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];
    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;

    if (tx == 0)
        input_node[ty] = input[index_in];
    __syncthreads();
    weight_matrix[ty][tx] = weights[index];
    __syncthreads();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    __syncthreads();
    for (int i = 1; i <= LOG2_HEIGHT; i++) {
        int power_two = 1 << i;
        if (ty % power_two == 0)
            weight_matrix[ty][tx] = weight_matrix[ty][tx] +
                                    weight_matrix[ty + power_two / 2][tx];
        __syncthreads();
    }
    weights[index] = weight_matrix[ty][tx];
    __syncthreads();
    if (tx == 0)
        partial[by * hid + ty] = weight_matrix[tx][ty];
}

extern "C" __global__ void adjust_weights(const float *delta, int hid,
                                          const float *ly, int in, float *w,
                                          float *oldw)
{
    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;
    float dw = ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    w[index] += dw;
    oldw[index] = dw;
    __syncthreads();
    if (ty == 0 && by == 0) {
        float db = ETA * delta[index_x] + MOMENTUM * oldw[index_x];
        w[index_x] += db;
        oldw[index_x] = db;
    }
}
