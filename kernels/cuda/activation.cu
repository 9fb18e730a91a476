// The gated MLPs' activations over rows [gate (ffn) | up (ffn)] (SwiGLU's silu, GeGLU's gelu),
// element-wise helpers of the family layers, and the residual add. Mirror
// kernels/src/activation.rs.
#include "common.cuh"

struct Silu {
    __device__ __forceinline__ float operator()(float g) const { return g / (1.0f + expf(-g)); }
};

// GELU's tanh form, with tanh(y) = 1 - 2 / (e^(2y) + 1) like kernels/src/activation.rs
// (saturates to +-1).
struct GeluTanh {
    __device__ __forceinline__ float operator()(float g) const {
        const float y = 0.7978846f * (g + 0.044715f * g * g * g);
        const float tanh_y = 1.0f - 2.0f / (expf(2.0f * y) + 1.0f);
        return 0.5f * g * (1.0f + tanh_y);
    }
};

// out = act(gate) * up, one thread per output element (grid-stride); written as f32, or
// as the f16 operand of the next GEMM (saturating as the cast kernel does: the same bits as
// the f32 kernel followed by cast_f32_f16).
template <typename Act, typename D>
__device__ __forceinline__ void gated(
    const float* __restrict__ gate_up, D* __restrict__ out, unsigned n_rows, unsigned ffn,
    Act act) {
    const size_t total = (size_t)n_rows * ffn;
    for (size_t idx = grid_first(); idx < total; idx += grid_step()) {
        const size_t row = idx / ffn;
        const size_t col = idx - row * ffn;
        const float g = gate_up[row * 2 * ffn + col];
        const float u = gate_up[row * 2 * ffn + ffn + col];
        out[idx] = from_f32<D>(gemm_range<D>(act(g) * u));
    }
}

#define GATED(NAME, ACT, D)                                                                 \
    extern "C" __global__ void NAME(const float* __restrict__ gate_up, D* __restrict__ out,  \
                                    unsigned n_rows, unsigned ffn) {                        \
        gated(gate_up, out, n_rows, ffn, ACT());                                            \
    }

// SwiGLU's gate: out = silu(gate) * up; GeGLU's (Gemma): out = gelu(gate) * up. The _f16
// ones write the f16 input of the down projection directly.
GATED(silu_mul, Silu, float)
GATED(gelu_tanh_mul, GeluTanh, float)
GATED(silu_mul_f16, Silu, f16)
GATED(gelu_tanh_mul_f16, GeluTanh, f16)

// Residual add: x += y over n elements (grid-stride). Mirrors kernels/src/activation.rs.
extern "C" __global__ void add_inplace(
    float* __restrict__ x,
    const float* __restrict__ y,
    unsigned long long n) {
    for (size_t idx = grid_first(); idx < n; idx += grid_step()) {
        x[idx] += y[idx];
    }
}

// A projection's bias (Qwen2): x[row, col] += bias[col] over n_rows rows of `width`.
extern "C" __global__ void add_bias(
    float* __restrict__ x,
    const float* __restrict__ bias,
    unsigned n_rows,
    unsigned width) {
    const size_t total = (size_t)n_rows * width;
    for (size_t idx = grid_first(); idx < total; idx += grid_step()) {
        x[idx] += bias[idx % width];
    }
}

// x *= factor over n elements (Gemma's embedding scale, a family's query scale).
extern "C" __global__ void scale_inplace(float* __restrict__ x, float factor, unsigned long long n) {
    for (size_t idx = grid_first(); idx < n; idx += grid_step()) x[idx] *= factor;
}

// Logit soft-capping: x = cap * tanh(x / cap) over n elements.
extern "C" __global__ void softcap_inplace(float* __restrict__ x, float cap, unsigned long long n) {
    for (size_t idx = grid_first(); idx < n; idx += grid_step()) x[idx] = cap * tanhf(x[idx] / cap);
}
