// Token embedding: out[t] = table[ids[t]] as f32, from an f32/f16/bf16 table [vocab, hidden].
#include "common.cuh"

// One block per token; threads stride over the row (coalesced on both sides).
template <typename T>
__device__ __forceinline__ void embedding(
    const unsigned* __restrict__ ids,
    const T* __restrict__ table,
    float* __restrict__ out,
    unsigned hidden,
    unsigned vocab) {
    const unsigned id = ids[blockIdx.x];
    float* dst = out + (size_t)blockIdx.x * hidden;
    // The host validated the ids; an id past the table reads as zeros, never out of bounds.
    const T* src = table + (size_t)(id < vocab ? id : 0u) * hidden;
    for (unsigned i = threadIdx.x; i < hidden; i += blockDim.x) {
        dst[i] = id < vocab ? to_f32(src[i]) : 0.0f;
    }
}

#define EMBEDDING(NAME, T)                                                                  \
    extern "C" __global__ void NAME(const unsigned* __restrict__ ids,                       \
                                    const T* __restrict__ table, float* __restrict__ out,   \
                                    unsigned hidden, unsigned vocab) {                      \
        embedding<T>(ids, table, out, hidden, vocab);                                       \
    }

EMBEDDING(embedding_f32, float)
EMBEDDING(embedding_f16, f16)
EMBEDDING(embedding_bf16, bf16)
