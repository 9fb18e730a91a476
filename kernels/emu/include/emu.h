// What the CUDA kernels in kernels/cuda/ take from the CUDA language, for the CPU emulator.
// Each kernel source is compiled as C++ after this header: a __global__ function becomes a
// plain extern "C" function that the runtime (src/runtime.cpp) calls once per thread, each
// thread a fiber of its block. Built-in variables are thread-locals the runtime sets before
// it resumes a fiber; __shared__ variables are thread-locals too, which all fibers of a block
// share (one block runs at a time on a thread); barriers and shuffles switch fibers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <math.h>

#define __global__
#define __device__ inline
#define __host__
#define __forceinline__
#define __launch_bounds__(...)
#define __shared__ thread_local

struct dim3 {
    unsigned x, y, z;
};
typedef dim3 uint3;

extern thread_local uint3 threadIdx;
extern thread_local uint3 blockIdx;
extern thread_local dim3 blockDim;
extern thread_local dim3 gridDim;

// The block's dynamic shared memory: build.rs rewrites the kernels'
// `extern __shared__ float smem[];` into a call of this.
#define EMU_DYNAMIC_SHARED_BYTES 49152
extern "C" float* emu_dynamic_shared();
// Poisons a static __shared__ variable the first time a thread of the block declares it
// (build.rs adds the call after each declaration).
extern "C" void emu_poison_shared(void* var, size_t bytes);

struct alignas(16) float4 {
    float x, y, z, w;
};
struct alignas(16) uint4 {
    unsigned x, y, z, w;
};

// Barriers: the calling fiber waits until every live thread of its block (warp) arrives.
extern "C" void emu_sync_block();
extern "C" void emu_sync_warp();
// A shuffle's exchange: publish this thread's bits, wait for the warp, read those of the
// lane whose index differs from this one's by `lane_mask` (xor).
extern "C" uint64_t emu_exchange(uint64_t bits, unsigned lane_mask);

inline void __syncthreads() { emu_sync_block(); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu_sync_warp(); }

template <typename T> inline T __shfl_xor_sync(unsigned, T v, int lane_mask, int = 32) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    bits = emu_exchange(bits, (unsigned)lane_mask);
    T out;
    std::memcpy(&out, &bits, sizeof(T));
    return out;
}

template <typename T> inline T min(T a, T b) { return b < a ? b : a; }
template <typename T> inline T max(T a, T b) { return b > a ? b : a; }

inline float __int_as_float(int x) {
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}
inline float __uint_as_float(unsigned x) {
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}
inline unsigned __float_as_uint(float f) {
    unsigned x;
    std::memcpy(&x, &f, 4);
    return x;
}
inline double __longlong_as_double(long long x) {
    double d;
    std::memcpy(&d, &x, 8);
    return d;
}

// Rounded as written: the build passes -ffp-contract=off, so no FMA forms.
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline float __double2float_rn(double d) { return (float)d; }
