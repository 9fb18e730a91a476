// store_kv: scatter the new tokens' K and V rows (f32) into one layer's pool buffers at
// `out_cache_loc`, converting to the pool's dtype. Mirrors `pools::KvStorage::set_kv`.
#include "common.cuh"

// One thread per element of the [n_tokens, row_len] inputs (grid-stride): consecutive
// threads touch consecutive columns of one row, so both sides are coalesced.
template <typename T>
__device__ __forceinline__ void store_kv(
    const int* __restrict__ out_cache_loc,
    const float* __restrict__ k,
    const float* __restrict__ v,
    T* __restrict__ k_cache,
    T* __restrict__ v_cache,
    unsigned n_tokens,
    unsigned row_len,
    unsigned num_slots) {
    const size_t total = (size_t)n_tokens * row_len;
    for (size_t idx = grid_first(); idx < total; idx += grid_step()) {
        const size_t token = idx / row_len;
        const size_t col = idx - token * row_len;
        const int slot = out_cache_loc[token];
        // The host validated the slots; this guard only keeps a bad id inside the pool.
        if (slot < 0 || (unsigned)slot >= num_slots) continue;
        const size_t dst = (size_t)slot * row_len + col;
        k_cache[dst] = from_f32<T>(k[idx]);
        v_cache[dst] = from_f32<T>(v[idx]);
    }
}

#define STORE_KV(NAME, T)                                                                   \
    extern "C" __global__ void NAME(const int* __restrict__ out_cache_loc,                  \
                                    const float* __restrict__ k, const float* __restrict__ v, \
                                    T* __restrict__ k_cache, T* __restrict__ v_cache,       \
                                    unsigned n_tokens, unsigned row_len, unsigned num_slots) { \
        store_kv<T>(out_cache_loc, k, v, k_cache, v_cache, n_tokens, row_len, num_slots);   \
    }

STORE_KV(store_kv_f32, float)
STORE_KV(store_kv_f16, f16)
STORE_KV(store_kv_bf16, bf16)
