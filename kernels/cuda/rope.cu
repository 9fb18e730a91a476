// Rotary position embedding, in place over [tokens, n_heads * head_dim]. Mirrors
// kernels/src/rope.rs: "normal" rotates adjacent pairs (x[2i], x[2i+1]) as GGUF llama weights
// expect; "neox" rotates (x[i], x[i + rot_dim/2]). Only the first rot_dim dims turn.
#include "common.cuh"

// A pair's rotation factors. The angle is computed in double, like the CPU reference, so
// that long positions keep their precision (pos * freq reaches 1e4 rad).
__device__ __forceinline__ void rope_factors(unsigned position, double inv_freq,
                                             double linear_factor, double mscale, float* cf,
                                             float* sf) {
    const double angle = ((double)position / linear_factor) * inv_freq;
    double s, c;
    sincos(angle, &s, &c);
    *cf = (float)(c * mscale);
    *sf = (float)(s * mscale);
}

// (x0, x1) rotated: x0 c - x1 s and x0 s + x1 c, every product and sum rounded on its own
// (no FMA), as the CPU computes them, so both RoPE kernels give the same bits.
__device__ __forceinline__ void rotate(float x0, float x1, float cf, float sf, float* y0,
                                       float* y1) {
    *y0 = __fsub_rn(__fmul_rn(x0, cf), __fmul_rn(x1, sf));
    *y1 = __fadd_rn(__fmul_rn(x0, sf), __fmul_rn(x1, cf));
}

// Item `item` of [tokens, n_heads, pairs]: its token, frequency index and the indices of its
// two elements in [tokens, n_heads * head_dim]. Twin: cuda_index::rope_pair.
struct RopeItem {
    size_t token;
    unsigned pair;
    size_t a, b;
};

__device__ __forceinline__ RopeItem rope_item(size_t item, unsigned n_heads, unsigned head_dim,
                                              unsigned pairs, int neox) {
    const size_t per_token = (size_t)n_heads * pairs;
    const size_t token = item / per_token;
    const size_t rem = item - token * per_token;
    const size_t head = rem / pairs;
    const unsigned i = (unsigned)(rem - head * pairs);
    const unsigned a = neox ? i : 2u * i;
    const unsigned b = neox ? i + pairs : 2u * i + 1u;
    const size_t base = (token * n_heads + head) * head_dim;
    return RopeItem{token, i, base + a, base + b};
}

// One thread per rotated pair (grid-stride).
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
    const size_t total = (size_t)n_tokens * n_heads * pairs;
    for (size_t idx = grid_first(); idx < total; idx += grid_step()) {
        const RopeItem p = rope_item(idx, n_heads, head_dim, pairs, neox);
        float cf, sf, y0, y1;
        rope_factors(positions[p.token], inv_freq[p.pair], linear_factor, mscale, &cf, &sf);
        rotate(x[p.a], x[p.b], cf, sf, &y0, &y1);
        x[p.a] = y0;
        x[p.b] = y1;
    }
}

// RoPE on Q and K and the store of K and V into one layer's pool at out_cache_loc, in one
// launch: bit for bit `rope` on q and on k, then store_kv. Q, K and V are read from rows of
// their own strides, so one GEMM's [tokens, q | k | v] output serves as well as three
// buffers; rotated Q goes to q_out (which may be q: rotation in place). Work items,
// grid-stride: the [tokens, heads, pairs] pairs of Q; the [tokens, kv_heads, pairs] pairs of
// K, rotated into the pool; the [tokens, kv_heads * head_dim] elements, whose V goes to the
// pool, and K too past the rotated dims; when copy_q, the [tokens, heads, head_dim - 2 pairs]
// unrotated elements of Q, copied to q_out. No rotation: pairs = 0 (inv_freq
// unread). A slot outside the pool (-1: a padding row) stores nothing.
// Twin: cuda_index::rope_store_item.
template <typename T>
__device__ __forceinline__ void rope_store_kv(
    const float* q, unsigned q_stride, float* q_out, unsigned q_out_stride,
    const float* __restrict__ k, const float* __restrict__ v, unsigned kv_stride,
    const unsigned* __restrict__ positions, const double* __restrict__ inv_freq,
    const int* __restrict__ out_cache_loc, T* __restrict__ k_cache, T* __restrict__ v_cache,
    unsigned n_tokens, unsigned heads, unsigned kv_heads, unsigned head_dim, unsigned pairs,
    int neox, int copy_q, double linear_factor, double mscale, unsigned num_slots) {
    const size_t q_items = (size_t)n_tokens * heads * pairs;
    const size_t pair_items = q_items + (size_t)n_tokens * kv_heads * pairs;
    const size_t row_len = (size_t)kv_heads * head_dim;
    const size_t kv_end = pair_items + (size_t)n_tokens * row_len;
    const unsigned unrotated = head_dim - 2u * pairs;
    const size_t total = kv_end + (copy_q ? (size_t)n_tokens * heads * unrotated : 0);
    for (size_t idx = grid_first(); idx < total; idx += grid_step()) {
        if (idx < pair_items) {
            const bool is_q = idx < q_items;
            const unsigned n_heads = is_q ? heads : kv_heads;
            const size_t item = is_q ? idx : idx - q_items;
            const RopeItem p = rope_item(item, n_heads, head_dim, pairs, neox);
            // The pair's offsets within its token's row (for K, within its pool row too).
            const size_t row_first = p.token * n_heads * head_dim;
            const size_t a = p.a - row_first, b = p.b - row_first;
            const int slot = out_cache_loc[p.token];
            if (!is_q && (slot < 0 || (unsigned)slot >= num_slots)) continue;
            float cf, sf, y0, y1;
            rope_factors(positions[p.token], inv_freq[p.pair], linear_factor, mscale, &cf, &sf);
            if (is_q) {
                const float* src = q + p.token * q_stride;
                rotate(src[a], src[b], cf, sf, &y0, &y1);
                float* dst = q_out + p.token * q_out_stride;
                dst[a] = y0;
                dst[b] = y1;
            } else {
                const float* src = k + p.token * kv_stride;
                rotate(src[a], src[b], cf, sf, &y0, &y1);
                const size_t dst = (size_t)slot * row_len;
                k_cache[dst + a] = from_f32<T>(y0);
                k_cache[dst + b] = from_f32<T>(y1);
            }
        } else if (idx < kv_end) {
            const size_t element = idx - pair_items;
            const size_t token = element / row_len;
            const size_t col = element - token * row_len;
            const int slot = out_cache_loc[token];
            if (slot < 0 || (unsigned)slot >= num_slots) continue;
            const size_t dst = (size_t)slot * row_len + col;
            const size_t src = token * kv_stride + col;
            v_cache[dst] = from_f32<T>(v[src]);
            if (col % head_dim >= 2u * pairs) k_cache[dst] = from_f32<T>(k[src]);
        } else {
            const size_t element = idx - kv_end;
            const size_t head_row = element / unrotated;  // token * heads + head
            const size_t token = head_row / heads;
            const size_t col = (head_row - token * heads) * head_dim + 2u * pairs +
                               (element - head_row * unrotated);
            q_out[token * q_out_stride + col] = q[token * q_stride + col];
        }
    }
}

#define ROPE_STORE_KV(NAME, T)                                                              \
    extern "C" __global__ void NAME(                                                        \
        const float* q, unsigned q_stride, float* q_out, unsigned q_out_stride,             \
        const float* __restrict__ k, const float* __restrict__ v, unsigned kv_stride,       \
        const unsigned* __restrict__ positions, const double* __restrict__ inv_freq,        \
        const int* __restrict__ out_cache_loc, T* __restrict__ k_cache,                     \
        T* __restrict__ v_cache, unsigned n_tokens, unsigned heads, unsigned kv_heads,      \
        unsigned head_dim, unsigned pairs, int neox, int copy_q, double linear_factor,      \
        double mscale, unsigned num_slots) {                                                \
        rope_store_kv<T>(q, q_stride, q_out, q_out_stride, k, v, kv_stride, positions,      \
                         inv_freq, out_cache_loc, k_cache, v_cache, n_tokens, heads,        \
                         kv_heads, head_dim, pairs, neox, copy_q, linear_factor, mscale,    \
                         num_slots);                                                        \
    }

ROPE_STORE_KV(rope_store_kv_f32, float)
ROPE_STORE_KV(rope_store_kv_f16, f16)
ROPE_STORE_KV(rope_store_kv_bf16, bf16)
