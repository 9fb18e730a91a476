// Element type conversions around cuBLAS: activations are f32, GEMM operands f16/bf16.
#include "common.cuh"

// f16 saturates (gemm_range, common.cuh).
template <typename S, typename D>
__device__ __forceinline__ void cast(const S* __restrict__ src, D* __restrict__ dst, size_t n) {
    for (size_t idx = grid_first(); idx < n; idx += grid_step())
        dst[idx] = from_f32<D>(gemm_range<D>(to_f32(src[idx])));
}

#define CAST(NAME, S, D)                                                                    \
    extern "C" __global__ void NAME(const S* __restrict__ src, D* __restrict__ dst,         \
                                    unsigned long long n) {                                 \
        cast<S, D>(src, dst, (size_t)n);                                                    \
    }

CAST(cast_f32_f16, float, f16)
CAST(cast_f32_bf16, float, bf16)
CAST(cast_f16_f32, f16, float)
CAST(cast_bf16_f32, bf16, float)
