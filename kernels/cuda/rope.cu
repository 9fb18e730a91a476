// Rotary position embedding, in place over [tokens, n_heads * head_dim]. Mirrors
// kernels/src/rope.rs: "normal" rotates adjacent pairs (x[2i], x[2i+1]) as GGUF llama weights
// expect; "neox" rotates (x[i], x[i + rot_dim/2]). Only the first rot_dim dims turn.
#include "common.cuh"

// One thread per rotated pair (grid-stride). Angles are computed in double, like the CPU
// reference, so that long positions keep their precision (pos * freq reaches 1e4 rad).
extern "C" __global__ void rope(
    float* __restrict__ x,
    const unsigned* __restrict__ positions,
    const double* __restrict__ inv_freq,  // [pairs] = base^(-2i / rot_dim)
    unsigned n_tokens,
    unsigned n_heads,
    unsigned head_dim,
    unsigned pairs,
    int neox,
    double linear_factor,
    double mscale) {  // multiplies the rotated pairs (LongRoPE's attention factor)
    const size_t per_token = (size_t)n_heads * pairs;
    const size_t total = (size_t)n_tokens * per_token;
    for (size_t idx = grid_first(); idx < total; idx += grid_step()) {
        const size_t token = idx / per_token;
        const size_t rem = idx - token * per_token;
        const size_t head = rem / pairs;
        const unsigned i = (unsigned)(rem - head * pairs);
        const unsigned a = neox ? i : 2u * i;
        const unsigned b = neox ? i + pairs : 2u * i + 1u;
        float* h = x + (token * n_heads + head) * head_dim;
        const double angle = ((double)positions[token] / linear_factor) * inv_freq[i];
        double s, c;
        sincos(angle, &s, &c);
        const float cf = (float)(c * mscale), sf = (float)(s * mscale);
        const float x0 = h[a], x1 = h[b];
        h[a] = x0 * cf - x1 * sf;
        h[b] = x0 * sf + x1 * cf;
    }
}
