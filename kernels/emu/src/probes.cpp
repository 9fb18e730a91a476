// Kernels that check the emulator itself (tests/runtime.rs): reductions over warp shuffles
// and block barriers, a divergent barrier, a write past the dynamic shared memory, and reads
// of shared memory before any write. build.rs compiles it like the kernel sources.
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

// mode 1: the low half of each warp waits at a block barrier, the high half at a warp
// barrier, which can never complete (a hang on a GPU). mode 2: the low half shuffles while
// the high half waits at __syncwarp, which cannot complete either. mode 0: even warps wait at
// a block barrier and odd warps at a warp barrier, then finish: fine, since threads that have
// exited hold no barrier (as on GPUs since Volta).
extern "C" __global__ void probe_divergent(int mode) {
    const bool low = mode != 0 ? (threadIdx.x & 31u) < 16u : (threadIdx.x >> 5) % 2 == 0;
    if (!low) __syncwarp();
    else if (mode == 2) (void)__shfl_xor_sync(0xffffffffu, 1.0f, 1);
    else __syncthreads();
}

// Thread 0 writes one float past `floats` floats of dynamic shared memory.
extern "C" __global__ void probe_shared_write(unsigned floats) {
    extern __shared__ float smem[];
    if (threadIdx.x == 0) smem[floats] = 1.0f;
}

// Thread t reads dynamic shared memory before anything wrote it: the poison shows as NaN.
extern "C" __global__ void probe_shared_read(float* out) {
    extern __shared__ float smem[];
    out[threadIdx.x] = smem[threadIdx.x];
}

// Thread t reads a static shared array before anything wrote it in this block, then writes
// it: every block must read the poison, not the previous block's values.
extern "C" __global__ void probe_static_shared_read(float* out) {
    __shared__ float cells[1024];
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = cells[threadIdx.x];
    __syncthreads();
    cells[threadIdx.x] = 1.0f;
}
