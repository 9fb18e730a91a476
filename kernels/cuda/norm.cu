// RMSNorm: y = x / sqrt(mean(x^2) + eps) * weight, row by row. Mirrors kernels/src/norm.rs.
#include "common.cuh"

// The factor that normalizes `row` (one block per row: threads stride over it, then a block
// reduction of the squares).
__device__ __forceinline__ float rms_scale(const float* row, unsigned dim, float eps,
                                           float* scratch) {
    float sum_sq = 0.0f;
    for (unsigned i = threadIdx.x; i < dim; i += blockDim.x) sum_sq += row[i] * row[i];
    sum_sq = block_sum(sum_sq, scratch);
    // 1/sqrt rather than rsqrtf: the CPU reference divides by an exact sqrt.
    return 1.0f / sqrtf(sum_sq / (float)dim + eps);
}

extern "C" __global__ void rms_norm(
    const float* __restrict__ x,
    const float* __restrict__ weight,
    float* __restrict__ out,
    unsigned dim,
    float eps) {
    __shared__ float scratch[32];
    const float* row = x + (size_t)blockIdx.x * dim;
    float* dst = out + (size_t)blockIdx.x * dim;
    const float scale = rms_scale(row, dim, eps, scratch);
    for (unsigned i = threadIdx.x; i < dim; i += blockDim.x) dst[i] = row[i] * scale * weight[i];
}

// RMSNorm in place (Qwen3's and Gemma 3's per-head Q/K norms, Gemma 3's post-norms): each
// thread rewrites only the elements it read, after the block's reduction.
extern "C" __global__ void rms_norm_inplace(
    float* __restrict__ x,
    const float* __restrict__ weight,
    unsigned dim,
    float eps) {
    __shared__ float scratch[32];
    float* row = x + (size_t)blockIdx.x * dim;
    const float scale = rms_scale(row, dim, eps, scratch);
    for (unsigned i = threadIdx.x; i < dim; i += blockDim.x) row[i] = row[i] * scale * weight[i];
}

// The residual add, the RMSNorm and the cast in front of the next GEMM in one pass (SGLang's
// fused_add_rmsnorm): x += residual (when given), then out = f16(x / rms(x) * weight), f16
// saturating as the cast kernel does. The same operations in the same order as add_in_place,
// rms_norm and cast_f32_f16, so the GEMM gets the same bits. Each thread reads back only the
// elements it wrote before the block's reduction.
extern "C" __global__ void add_rms_norm_f16(
    float* __restrict__ x,
    const float* __restrict__ residual,  // null: no add
    const float* __restrict__ weight,
    f16* __restrict__ out,
    unsigned dim,
    float eps) {
    __shared__ float scratch[32];
    float* row = x + (size_t)blockIdx.x * dim;
    if (residual != nullptr) {
        const float* add = residual + (size_t)blockIdx.x * dim;
        for (unsigned i = threadIdx.x; i < dim; i += blockDim.x) row[i] += add[i];
    }
    const float scale = rms_scale(row, dim, eps, scratch);
    f16* dst = out + (size_t)blockIdx.x * dim;
    for (unsigned i = threadIdx.x; i < dim; i += blockDim.x)
        dst[i] = from_f32<f16>(gemm_range<f16>(row[i] * scale * weight[i]));
}

// Qwen3's and Gemma 3's per-head Q and K RMSNorms in place, in one launch: one block per
// head row of [tokens, heads + kv_heads], Q heads first, each row read from its own buffer
// and stride (one GEMM's [tokens, q | k | v] rows, or separate Q and K buffers). Bit for
// bit rms_norm_inplace on each head. Twin: cuda_index::qk_norm_row.
extern "C" __global__ void qk_norm_inplace(
    float* q,
    unsigned q_stride,
    float* k,
    unsigned k_stride,
    const float* __restrict__ q_weight,
    const float* __restrict__ k_weight,
    unsigned heads,
    unsigned kv_heads,
    unsigned head_dim,
    float eps) {
    __shared__ float scratch[32];
    const unsigned per_token = heads + kv_heads;
    const size_t token = blockIdx.x / per_token;
    const unsigned head = blockIdx.x - (unsigned)(token * per_token);
    const bool is_q = head < heads;
    float* row = is_q ? q + token * q_stride + (size_t)head * head_dim
                      : k + token * k_stride + (size_t)(head - heads) * head_dim;
    const float* weight = is_q ? q_weight : k_weight;
    const float scale = rms_scale(row, head_dim, eps, scratch);
    for (unsigned i = threadIdx.x; i < head_dim; i += blockDim.x)
        row[i] = row[i] * scale * weight[i];
}
