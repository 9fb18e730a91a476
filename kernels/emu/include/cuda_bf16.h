// The subset of CUDA's cuda_bf16.h the kernels use, for the CPU emulator: a bf16 as its bits,
// converted with round-to-nearest-even like __float2bfloat16_rn (NaN becomes 0x7fff, as there).
#pragma once
#include <cstdint>
#include <cstring>
#include "cuda_fp16.h"

struct __nv_bfloat16 {
    uint16_t bits;
};
struct alignas(4) __nv_bfloat162 {
    __nv_bfloat16 x, y;
};

inline float __bfloat162float(__nv_bfloat16 h) {
    const uint32_t bits = (uint32_t)h.bits << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline __nv_bfloat16 __float2bfloat16_rn(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return __nv_bfloat16{0x7fffu};
    x += 0x7fffu + ((x >> 16) & 1u);
    return __nv_bfloat16{(uint16_t)(x >> 16)};
}

inline float2 __bfloat1622float2(__nv_bfloat162 h) {
    return float2{__bfloat162float(h.x), __bfloat162float(h.y)};
}
