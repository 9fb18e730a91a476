// The subset of CUDA's cuda_fp16.h the kernels use, for the CPU emulator: an f16 as its bits,
// converted with round-to-nearest-even like __float2half_rn (NaN becomes 0x7fff, as there).
#pragma once
#include <cstdint>
#include <cstring>

struct __half {
    uint16_t bits;
};
struct alignas(4) __half2 {
    __half x, y;
};

inline float __half2float(__half h) {
    const uint32_t sign = (uint32_t)(h.bits & 0x8000u) << 16;
    const uint32_t exp = (h.bits >> 10) & 0x1fu, man = h.bits & 0x3ffu;
    if (exp == 0) {
        // Zero or subnormal: man * 2^-24, exact in f32.
        const float mag = (float)man * 5.9604644775390625e-8f;
        return sign ? -mag : mag;
    }
    const uint32_t bits = exp == 31 ? sign | 0x7f800000u | (man << 13)
                                    : sign | ((exp + 112u) << 23) | (man << 13);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline __half __float2half_rn(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff) return __half{man != 0 ? (uint16_t)0x7fffu : (uint16_t)(sign | 0x7c00u)};
    const int e = (int)exp - 112;  // rebiased to f16's exponent
    if (e >= 31) return __half{(uint16_t)(sign | 0x7c00u)};
    if (e <= 0) {
        if (e < -10) return __half{sign};
        man |= 0x800000u;
        const unsigned shift = (unsigned)(14 - e);
        uint32_t h = man >> shift;
        const uint32_t rem = man & ((1u << shift) - 1u), half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (h & 1u))) ++h;
        return __half{(uint16_t)(sign | h)};
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    const uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // a carry may reach inf: right
    return __half{(uint16_t)(sign | h)};
}

struct alignas(8) float2 {
    float x, y;
};

inline float2 __half22float2(__half2 h) { return float2{__half2float(h.x), __half2float(h.y)}; }
