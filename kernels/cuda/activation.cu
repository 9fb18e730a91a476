// SwiGLU's gate: out = silu(gate) * up over rows [gate (ffn) | up (ffn)]. Mirrors
// kernels/src/activation.rs.
#include "common.cuh"

// One thread per output element (grid-stride).
extern "C" __global__ void silu_mul(
    const float* __restrict__ gate_up,
    float* __restrict__ out,
    unsigned n_rows,
    unsigned ffn) {
    const size_t total = (size_t)n_rows * ffn;
    for (size_t idx = grid_first(); idx < total; idx += grid_step()) {
        const size_t row = idx / ffn;
        const size_t col = idx - row * ffn;
        const float g = gate_up[row * 2 * ffn + col];
        const float u = gate_up[row * 2 * ffn + ffn + col];
        out[idx] = g / (1.0f + expf(-g)) * u;
    }
}

// Residual add: x += y over n elements (grid-stride). Mirrors kernels/src/activation.rs.
extern "C" __global__ void add_inplace(
    float* __restrict__ x,
    const float* __restrict__ y,
    unsigned long long n) {
    for (size_t idx = grid_first(); idx < n; idx += grid_step()) {
        x[idx] += y[idx];
    }
}
