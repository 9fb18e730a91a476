// RMSNorm: y = x / sqrt(mean(x^2) + eps) * weight, row by row. Mirrors kernels/src/norm.rs.
#include "common.cuh"

// One block per row; threads stride over the row, then a block reduction of the squares.
extern "C" __global__ void rms_norm(
    const float* __restrict__ x,
    const float* __restrict__ weight,
    float* __restrict__ out,
    unsigned dim,
    float eps) {
    __shared__ float scratch[32];
    const float* row = x + (size_t)blockIdx.x * dim;
    float* dst = out + (size_t)blockIdx.x * dim;
    float sum_sq = 0.0f;
    for (unsigned i = threadIdx.x; i < dim; i += blockDim.x) sum_sq += row[i] * row[i];
    sum_sq = block_sum(sum_sq, scratch);
    // 1/sqrt rather than rsqrtf: the CPU reference divides by an exact sqrt.
    const float scale = 1.0f / sqrtf(sum_sq / (float)dim + eps);
    for (unsigned i = threadIdx.x; i < dim; i += blockDim.x) dst[i] = row[i] * scale * weight[i];
}
