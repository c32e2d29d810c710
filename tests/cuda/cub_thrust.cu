// CUB's device-wide algorithms and thrust's through them, end to end,
// against CPU references: DeviceReduce (Sum, Min, ArgMax), DeviceScan
// (inclusive and exclusive), DeviceRadixSort (pairs, multi-pass, and the
// single-tile path), DeviceSelect (If, Flagged, Unique), thrust
// sort_by_key, reduce, min_element/max_element/minmax_element. They need
// cudaFuncGetAttributes to report the PTX target (ptxVersion 75) as a
// real sm_75 device does, and the occupancy and attribute queries CUB
// sizes its grids with.
#define TEST_NAME "cub_thrust"
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <algorithm>
#include <vector>
#include "ck.h"

struct IsOdd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

__global__ void empty() {}

template <class T> static T *dev(const std::vector<T> &h)
{
    T *d;
    CK(cudaMalloc(&d, h.size() * sizeof(T) + 1));
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class T> static std::vector<T> host(const T *d, size_t n)
{
    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 5000;
    std::vector<int> in(n), flags(n);
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        in[i] = (int)(s >> 8) % 100000 - 50000;
        flags[i] = (s >> 3) & 1;
    }
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, empty));
    EXPECT(fa.ptxVersion == 75 && fa.binaryVersion == 75, "ptxVersion %d, binaryVersion %d",
           fa.ptxVersion, fa.binaryVersion);
    EXPECT(fa.maxThreadsPerBlock > 0 && fa.numRegs > 0, "maxThreadsPerBlock %d, numRegs %d",
           fa.maxThreadsPerBlock, fa.numRegs);
    int ptx = 0;                    // what CUB's dispatch compares with 750
    CK(cub::PtxVersion(ptx));
    EXPECT(ptx == 750, "cub::PtxVersion %d", ptx);
    int *d_in = dev(in), *d_flags = dev(flags), *d_out, *d_num;
    CK(cudaMalloc(&d_out, n * sizeof(int)));
    CK(cudaMalloc(&d_num, sizeof(int)));
    void *tmp = nullptr;
    size_t tmp_bytes = 0, need = 0;
    auto temp = [&](size_t b) {     // one temporary buffer, grown as asked
        if (b > tmp_bytes) {
            if (tmp)
                CK(cudaFree(tmp));
            CK(cudaMalloc(&tmp, b));
            tmp_bytes = b;
        }
    };
    // DeviceReduce
    long long want = 0;
    for (int v : in)
        want += v;
    CK(cub::DeviceReduce::Sum(nullptr, need, d_in, d_out, n));
    temp(need);
    CK(cub::DeviceReduce::Sum(tmp, need, d_in, d_out, n));
    EXPECT(host(d_out, 1)[0] == (int)want, "DeviceReduce::Sum %d, want %lld",
           host(d_out, 1)[0], want);
    CK(cub::DeviceReduce::Min(nullptr, need, d_in, d_out, n));
    temp(need);
    CK(cub::DeviceReduce::Min(tmp, need, d_in, d_out, n));
    int mn = *std::min_element(in.begin(), in.end());
    EXPECT(host(d_out, 1)[0] == mn, "DeviceReduce::Min %d, want %d", host(d_out, 1)[0], mn);
    cub::KeyValuePair<int, int> *d_kv;
    CK(cudaMalloc(&d_kv, sizeof *d_kv));
    CK(cub::DeviceReduce::ArgMax(nullptr, need, d_in, d_kv, n));
    temp(need);
    CK(cub::DeviceReduce::ArgMax(tmp, need, d_in, d_kv, n));
    cub::KeyValuePair<int, int> kv = host(d_kv, 1)[0];
    int am = (int)(std::max_element(in.begin(), in.end()) - in.begin());
    EXPECT(kv.key == am && kv.value == in[am], "ArgMax (%d, %d), want (%d, %d)", kv.key,
           kv.value, am, in[am]);
    // DeviceScan
    CK(cub::DeviceScan::InclusiveSum(nullptr, need, d_in, d_out, n));
    temp(need);
    CK(cub::DeviceScan::InclusiveSum(tmp, need, d_in, d_out, n));
    std::vector<int> got = host(d_out, n);
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += in[i];
        EXPECT(got[i] == acc, "InclusiveSum[%d] = %d, want %d", i, got[i], acc);
    }
    CK(cub::DeviceScan::ExclusiveSum(nullptr, need, d_in, d_out, n));
    temp(need);
    CK(cub::DeviceScan::ExclusiveSum(tmp, need, d_in, d_out, n));
    got = host(d_out, n);
    acc = 0;
    for (int i = 0; i < n; i++) {
        EXPECT(got[i] == acc, "ExclusiveSum[%d] = %d, want %d", i, got[i], acc);
        acc += in[i];
    }
    // DeviceRadixSort: pairs (keys with their indices), all 32 bits
    std::vector<int> idx(n);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    int *d_idx = dev(idx), *d_kout, *d_vout;
    CK(cudaMalloc(&d_kout, n * sizeof(int)));
    CK(cudaMalloc(&d_vout, n * sizeof(int)));
    CK(cub::DeviceRadixSort::SortPairs(nullptr, need, d_in, d_kout, d_idx, d_vout, n));
    temp(need);
    CK(cub::DeviceRadixSort::SortPairs(tmp, need, d_in, d_kout, d_idx, d_vout, n));
    std::vector<int> order(idx);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return in[a] < in[b]; });
    got = host(d_kout, n);
    std::vector<int> gv = host(d_vout, n);
    for (int i = 0; i < n; i++)
        EXPECT(got[i] == in[order[i]] && gv[i] == order[i], "SortPairs[%d] = (%d, %d), want "
               "(%d, %d)", i, got[i], gv[i], in[order[i]], order[i]);
    // the single-tile path (one CTA sorts everything)
    const int m = 100;
    CK(cub::DeviceRadixSort::SortKeysDescending(nullptr, need, d_in, d_kout, m));
    temp(need);
    CK(cub::DeviceRadixSort::SortKeysDescending(tmp, need, d_in, d_kout, m));
    std::vector<int> small(in.begin(), in.begin() + m);
    std::sort(small.begin(), small.end(), [](int a, int b) { return a > b; });
    got = host(d_kout, m);
    EXPECT(got == small, "SortKeysDescending of %d keys", m);
    // DeviceSelect
    std::vector<int> odd, fl, uniq;
    for (int i = 0; i < n; i++) {
        if (in[i] & 1)
            odd.push_back(in[i]);
        if (flags[i])
            fl.push_back(in[i]);
    }
    CK(cub::DeviceSelect::If(nullptr, need, d_in, d_out, d_num, n, IsOdd()));
    temp(need);
    CK(cub::DeviceSelect::If(tmp, need, d_in, d_out, d_num, n, IsOdd()));
    int k = host(d_num, 1)[0];
    EXPECT(k == (int)odd.size() && host(d_out, k) == odd, "Select::If: %d of %zu", k,
           odd.size());
    CK(cub::DeviceSelect::Flagged(nullptr, need, d_in, d_flags, d_out, d_num, n));
    temp(need);
    CK(cub::DeviceSelect::Flagged(tmp, need, d_in, d_flags, d_out, d_num, n));
    k = host(d_num, 1)[0];
    EXPECT(k == (int)fl.size() && host(d_out, k) == fl, "Select::Flagged: %d of %zu", k,
           fl.size());
    std::vector<int> sorted(in);
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < n; i++)
        if (i == 0 || sorted[i] != sorted[i - 1])
            uniq.push_back(sorted[i]);
    int *d_sorted = dev(sorted);
    CK(cub::DeviceSelect::Unique(nullptr, need, d_sorted, d_out, d_num, n));
    temp(need);
    CK(cub::DeviceSelect::Unique(tmp, need, d_sorted, d_out, d_num, n));
    k = host(d_num, 1)[0];
    EXPECT(k == (int)uniq.size() && host(d_out, k) == uniq, "Select::Unique: %d of %zu", k,
           uniq.size());
    // thrust (through CUB): sort_by_key, reduce, min/max
    thrust::device_vector<int> tk(in.begin(), in.end()), tv(idx.begin(), idx.end());
    thrust::sort_by_key(tk.begin(), tk.end(), tv.begin());
    std::vector<int> hk(n), hv(n);
    thrust::copy(tk.begin(), tk.end(), hk.begin());
    thrust::copy(tv.begin(), tv.end(), hv.begin());
    for (int i = 0; i < n; i++)
        EXPECT(hk[i] == in[order[i]] && hv[i] == order[i], "sort_by_key[%d] = (%d, %d)", i,
               hk[i], hv[i]);
    thrust::device_vector<int> td(in.begin(), in.end());
    long long tr = thrust::reduce(td.begin(), td.end(), 0LL);
    EXPECT(tr == want, "thrust::reduce %lld, want %lld", tr, want);
    int tmin = *thrust::min_element(td.begin(), td.end());
    int tmax = *thrust::max_element(td.begin(), td.end());
    auto mm = thrust::minmax_element(td.begin(), td.end());
    int mx = *std::max_element(in.begin(), in.end());
    EXPECT(tmin == mn && tmax == mx && *mm.first == mn && *mm.second == mx,
           "thrust min/max %d %d (minmax %d %d), want %d %d", tmin, tmax, (int)*mm.first,
           (int)*mm.second, mn, mx);
    CK(cudaGetLastError());
    return ck_done();
}
