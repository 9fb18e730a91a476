// Helpers shared by every kernel module. The Rust loader hands this file to NVRTC as an
// in-memory header, so each .cu source stays a self-contained compilation unit.
#pragma once
#include <cuda_fp16.h>
#include <cuda_bf16.h>

typedef __half f16;
typedef __nv_bfloat16 bf16;

// NVRTC has no <cmath>; -inf marks masked scores and empty softmax states.
#define NEG_INF __int_as_float(0xff800000)

__device__ __forceinline__ float to_f32(float x) { return x; }
__device__ __forceinline__ float to_f32(f16 x) { return __half2float(x); }
__device__ __forceinline__ float to_f32(bf16 x) { return __bfloat162float(x); }

// Round to nearest even, as `half::{f16, bf16}::from_f32` do on the CPU side.
template <typename T> __device__ __forceinline__ T from_f32(float x);
template <> __device__ __forceinline__ float from_f32<float>(float x) { return x; }
template <> __device__ __forceinline__ f16 from_f32<f16>(float x) { return __float2half_rn(x); }
template <> __device__ __forceinline__ bf16 from_f32<bf16>(float x) {
    return __float2bfloat16_rn(x);
}

// GEMM operands in f16 saturate at its largest finite value: one outlier activation (FFN
// outputs of Llama-type models reach thousands) must not become inf and turn the logits into
// NaN. NaN passes.
template <typename D> __device__ __forceinline__ float gemm_range(float x) { return x; }
template <> __device__ __forceinline__ float gemm_range<f16>(float x) {
    return x > 65504.0f ? 65504.0f : (x < -65504.0f ? -65504.0f : x);
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

// Block-wide sum returned to every thread. blockDim.x must be a multiple of 32 (the Rust
// launchers only use such sizes); `scratch` holds 32 floats of shared memory.
__device__ __forceinline__ float block_sum(float v, float* scratch) {
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    __syncthreads();  // a previous reduction may still be reading `scratch`
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = lane < (blockDim.x >> 5) ? scratch[lane] : 0.0f;
    return warp_sum(v);
}

__device__ __forceinline__ float block_max(float v, float* scratch) {
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    v = warp_max(v);
    __syncthreads();
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = lane < (blockDim.x >> 5) ? scratch[lane] : NEG_INF;
    return warp_max(v);
}

// First element of the calling thread in a grid-stride loop over a 1-D grid.
__device__ __forceinline__ size_t grid_first() {
    return (size_t)blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ size_t grid_step() { return (size_t)gridDim.x * blockDim.x; }
