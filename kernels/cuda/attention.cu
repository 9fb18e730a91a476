// Paged attention over FlashInfer's CSR layout; mirrors kernels/src/attention.rs. The queries
// of request b are rows q_indptr[b]..q_indptr[b+1]; its keys and values are the pool slots
// kv_indices[kv_indptr[b]..kv_indptr[b+1]]. Query i of a request with q_len queries and kv_len
// keys sees the first kv_len - (q_len - 1 - i) keys (causal, aligned at the end), so the same
// kernel serves decode (one query per request), extend (a new chunk over a cached prefix) and
// mixed batches. GQA: query head h reads KV head h / (num_heads / num_kv_heads).
//
// Grid: x = query row, y = query head, z = split. Split s covers keys [s*chunk, (s+1)*chunk)
// of the row's visible range (split-K, for decode batches too small to fill the GPU); with
// more than one split, attention_merge combines the partial softmax states. The index math is
// mirrored on the CPU by kernels/src/cuda_index.rs and tested there.
#include "common.cuh"

// Output dims per thread: head_dim <= ATTN_ACC_PER_THREAD * blockDim.x, checked by the host
// (crate::cuda_index::ATTN_ACC_PER_THREAD must match).
#define ATTN_ACC_PER_THREAD 4

// The request owning query row `row`: the largest b with q_indptr[b] <= row, which skips
// requests with no queries.
__device__ __forceinline__ unsigned find_request(const unsigned* q_indptr, unsigned batch,
                                                 unsigned row) {
    unsigned lo = 0, hi = batch;
    while (hi - lo > 1) {
        const unsigned mid = (lo + hi) / 2;
        if (q_indptr[mid] <= row) lo = mid; else hi = mid;
    }
    return lo;
}

// One block per (query row, head, split): keys are processed in tiles of blockDim.x; thread t
// scores key t of the tile (one K row), then every thread updates its output dims with the
// tile's probabilities (coalesced V reads) under an online softmax (running max m, sum l).
template <typename T>
__device__ __forceinline__ void attention_partial(
    const float* __restrict__ q,  // [rows, num_heads * head_dim]
    const T* __restrict__ k_cache,  // [num_slots, num_kv_heads * head_dim]
    const T* __restrict__ v_cache,
    const unsigned* __restrict__ q_indptr,
    const unsigned* __restrict__ kv_indptr,
    const int* __restrict__ kv_indices,
    unsigned batch, unsigned num_heads, unsigned num_kv_heads, unsigned head_dim,
    unsigned num_slots, float scale, unsigned chunk,
    float* __restrict__ out,       // [rows, num_heads * head_dim], written when gridDim.z == 1
    float* __restrict__ part_acc,  // [rows, num_heads, splits, head_dim] unnormalized outputs
    float* __restrict__ part_ml) { // [rows, num_heads, splits, 2] running max and sum
    extern __shared__ float smem[];
    float* q_s = smem;                                // [head_dim], pre-scaled
    float* p_s = q_s + head_dim;                      // [blockDim.x] tile probabilities
    int* slot_s = (int*)(p_s + blockDim.x);           // [blockDim.x] tile slots (-1: masked)
    float* scratch = (float*)(slot_s + blockDim.x);   // [32] reductions

    const unsigned row = blockIdx.x, head = blockIdx.y, split = blockIdx.z;
    const unsigned splits = gridDim.z;
    const unsigned b = find_request(q_indptr, batch, row);
    const unsigned q_lo = q_indptr[b], q_len = q_indptr[b + 1] - q_lo;
    const unsigned kv_lo = kv_indptr[b], kv_len = kv_indptr[b + 1] - kv_lo;
    const unsigned visible = kv_len - (q_len - 1u - (row - q_lo));
    const unsigned split_lo = split * chunk;
    const unsigned key_lo = split_lo < visible ? split_lo : visible;
    const unsigned key_hi = key_lo + min(chunk, visible - key_lo);
    const unsigned kv_head = head / (num_heads / num_kv_heads);
    const size_t kv_row = (size_t)num_kv_heads * head_dim;
    const size_t head_off = (size_t)kv_head * head_dim;

    const float* q_row = q + ((size_t)row * num_heads + head) * head_dim;
    for (unsigned i = threadIdx.x; i < head_dim; i += blockDim.x) q_s[i] = q_row[i] * scale;
    __syncthreads();

    float m = NEG_INF, l = 0.0f;
    float acc[ATTN_ACC_PER_THREAD];
#pragma unroll
    for (int r = 0; r < ATTN_ACC_PER_THREAD; ++r) acc[r] = 0.0f;

    for (unsigned tile = key_lo; tile < key_hi; tile += blockDim.x) {
        const unsigned n = min(blockDim.x, key_hi - tile);
        float s = NEG_INF;
        int slot = -1;
        if (threadIdx.x < n) {
            slot = kv_indices[kv_lo + tile + threadIdx.x];
            if (slot >= 0 && (unsigned)slot < num_slots) {
                const T* k_row = k_cache + (size_t)slot * kv_row + head_off;
                float dot = 0.0f;
                for (unsigned i = 0; i < head_dim; ++i) dot += q_s[i] * to_f32(k_row[i]);
                s = dot;
            } else {
                slot = -1;  // outside the pool: masked rather than read out of bounds
            }
        }
        const float m_new = fmaxf(m, block_max(s, scratch));
        // Uniform across the block: every key so far was masked, nothing to accumulate.
        if (m_new == NEG_INF) continue;
        const float p = s == NEG_INF ? 0.0f : expf(s - m_new);
        const float correction = expf(m - m_new);  // 0 on the first non-empty tile
        p_s[threadIdx.x] = p;
        slot_s[threadIdx.x] = slot;
        // block_sum's barriers also publish p_s and slot_s to the whole block.
        l = l * correction + block_sum(p, scratch);
#pragma unroll
        for (int r = 0; r < ATTN_ACC_PER_THREAD; ++r) {
            const unsigned d = threadIdx.x + r * blockDim.x;
            if (d < head_dim) {
                float a = acc[r] * correction;
                for (unsigned t = 0; t < n; ++t) {
                    const int sl = slot_s[t];
                    if (sl >= 0) a += p_s[t] * to_f32(v_cache[(size_t)sl * kv_row + head_off + d]);
                }
                acc[r] = a;
            }
        }
        m = m_new;
        __syncthreads();  // the next tile rewrites p_s and slot_s
    }

    if (splits == 1) {
        float* dst = out + ((size_t)row * num_heads + head) * head_dim;
        const float inv = l > 0.0f ? 1.0f / l : 0.0f;
#pragma unroll
        for (int r = 0; r < ATTN_ACC_PER_THREAD; ++r) {
            const unsigned d = threadIdx.x + r * blockDim.x;
            if (d < head_dim) dst[d] = acc[r] * inv;
        }
        return;
    }
    const size_t part = ((size_t)row * num_heads + head) * splits + split;
    float* dst = part_acc + part * head_dim;
#pragma unroll
    for (int r = 0; r < ATTN_ACC_PER_THREAD; ++r) {
        const unsigned d = threadIdx.x + r * blockDim.x;
        if (d < head_dim) dst[d] = acc[r];
    }
    if (threadIdx.x == 0) {
        part_ml[2 * part] = m;
        part_ml[2 * part + 1] = l;
    }
}

#define ATTENTION_PARTIAL(NAME, T)                                                          \
    extern "C" __global__ void NAME(                                                        \
        const float* __restrict__ q, const T* __restrict__ k_cache,                        \
        const T* __restrict__ v_cache, const unsigned* __restrict__ q_indptr,              \
        const unsigned* __restrict__ kv_indptr, const int* __restrict__ kv_indices,        \
        unsigned batch, unsigned num_heads, unsigned num_kv_heads, unsigned head_dim,      \
        unsigned num_slots, float scale, unsigned chunk, float* __restrict__ out,          \
        float* __restrict__ part_acc, float* __restrict__ part_ml) {                       \
        attention_partial<T>(q, k_cache, v_cache, q_indptr, kv_indptr, kv_indices, batch,  \
                             num_heads, num_kv_heads, head_dim, num_slots, scale, chunk,   \
                             out, part_acc, part_ml);                                      \
    }

ATTENTION_PARTIAL(attention_partial_f32, float)
ATTENTION_PARTIAL(attention_partial_f16, f16)
ATTENTION_PARTIAL(attention_partial_bf16, bf16)

// Second pass of split-K: one block per (row, head), threads over head dims. Rescales each
// split's state to the global max: out = sum_s e^(m_s - M) acc_s / sum_s e^(m_s - M) l_s.
extern "C" __global__ void attention_merge(
    const float* __restrict__ part_acc,
    const float* __restrict__ part_ml,
    float* __restrict__ out,
    unsigned num_heads,
    unsigned head_dim,
    unsigned splits) {
    const unsigned row = blockIdx.x, head = blockIdx.y;
    const size_t first = ((size_t)row * num_heads + head) * splits;
    float m = NEG_INF;
    for (unsigned s = 0; s < splits; ++s) m = fmaxf(m, part_ml[2 * (first + s)]);
    float l = 0.0f;
    if (m != NEG_INF) {
        for (unsigned s = 0; s < splits; ++s) {
            const float ms = part_ml[2 * (first + s)];
            if (ms != NEG_INF) l += part_ml[2 * (first + s) + 1] * expf(ms - m);
        }
    }
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
    float* dst = out + ((size_t)row * num_heads + head) * head_dim;
    for (unsigned d = threadIdx.x; d < head_dim; d += blockDim.x) {
        float o = 0.0f;
        for (unsigned s = 0; s < splits; ++s) {
            const float ms = part_ml[2 * (first + s)];
            if (ms != NEG_INF) o += part_acc[(first + s) * head_dim + d] * expf(ms - m);
        }
        dst[d] = o * inv;
    }
}
