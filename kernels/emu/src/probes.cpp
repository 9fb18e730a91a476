// Kernels that check the emulator itself (tests/runtime.rs): reductions over warp shuffles
// and block barriers, a divergent barrier, and a write past the dynamic shared memory.
#include "emu.h"
#include "common.cuh"

// out[block] = the block's sum of (threadIdx.x + 1) by block_sum; lane_sums[t] = t's warp sum
// by warp_sum.
extern "C" __global__ void probe_sums(float* out, float* lane_sums) {
    __shared__ float scratch[32];
    const float v = (float)(threadIdx.x + 1);
    lane_sums[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = warp_sum(v);
    const float total = block_sum(v, scratch);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// within_warps: the low half of each warp waits at a block barrier, the high half at a warp
// barrier, which can never complete (a hang on a GPU). Otherwise even warps wait at a block
// barrier and odd warps at a warp barrier, then finish: fine, since threads that have exited
// hold no barrier (as on GPUs since Volta).
extern "C" __global__ void probe_divergent(int within_warps) {
    const bool low = within_warps ? (threadIdx.x & 31u) < 16u : (threadIdx.x >> 5) % 2 == 0;
    if (low) __syncthreads();
    else __syncwarp();
}

// Thread 0 writes one float past `floats` floats of dynamic shared memory.
extern "C" __global__ void probe_shared_write(unsigned floats) {
    float* smem = emu_dynamic_shared();
    if (threadIdx.x == 0) smem[floats] = 1.0f;
}

// Thread t reads dynamic shared memory before anything wrote it: the poison shows as NaN.
extern "C" __global__ void probe_shared_read(float* out) {
    float* smem = emu_dynamic_shared();
    out[threadIdx.x] = smem[threadIdx.x];
}
