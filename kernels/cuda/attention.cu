// Paged attention over FlashInfer's CSR layout; mirrors kernels/src/attention.rs. The queries
// of request b are rows q_indptr[b]..q_indptr[b+1]; its keys and values are the pool slots
// kv_indices[kv_indptr[b]..kv_indptr[b+1]]. Query i of a request with q_len queries and kv_len
// keys sees the first kv_len - (q_len - 1 - i) keys (causal, aligned at the end), so the same
// kernel serves decode (one query per request), extend (a new chunk over a cached prefix) and
// mixed batches. GQA: query head h reads KV head h / (num_heads / num_kv_heads). On a
// sliding-window layer a query sees only the last `window` of its visible keys; with a soft
// cap (Gemma 2) scores become cap * tanh(score / cap) before the softmax.
//
// Grid: x = query row, y = query head, z = split. Split s covers keys [s*chunk, (s+1)*chunk)
// of the row's visible range (split-K, for decode batches too small to fill the GPU); with
// more than one split, attention_merge combines the partial softmax states. A chunk of 0
// asks each row to cut its own keys into gridDim.z runs (the plan of a CUDA graph, recorded
// before the lengths are known). The index math is
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

// Keys per split of a row that sees `visible` keys: the plan's chunk, or (chunk 0) the row's
// keys cut into `splits` runs of whole 128-key tiles (ATTN_THREADS). Twin: cuda_index::row_chunk.
__device__ __forceinline__ unsigned row_chunk(unsigned chunk, unsigned visible, unsigned splits) {
    if (chunk != 0u) return chunk;
    const unsigned per_split = (visible + splits - 1u) / splits;
    const unsigned tiles = (per_split + 127u) / 128u;
    return tiles > 0u ? tiles * 128u : 1u;
}

// Gemma 2's attention soft-capping of a score (cap 0: none), as the CPU kernel does it.
__device__ __forceinline__ float soft_cap(float s, float cap) {
    return cap > 0.0f ? cap * tanhf(s / cap) : s;
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
    unsigned num_slots, float scale, unsigned chunk, unsigned window, float softcap,
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
    const unsigned span = row_chunk(chunk, visible, splits);
    const unsigned split_lo = split * span;
    const unsigned split_first = split_lo < visible ? split_lo : visible;
    const unsigned key_hi = split_first + min(span, visible - split_first);
    // A sliding window: the row sees only its last `window` keys (~0u: no window).
    const unsigned window_lo = visible > window ? visible - window : 0u;
    const unsigned key_lo = max(split_first, min(window_lo, key_hi));
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
                s = soft_cap(dot, softcap);
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

// The extern "C" entry points of one attention implementation for one K/V element type.
#define ATTENTION_KERNEL(NAME, IMPL, T)                                                     \
    extern "C" __global__ void NAME(                                                        \
        const float* __restrict__ q, const T* __restrict__ k_cache,                        \
        const T* __restrict__ v_cache, const unsigned* __restrict__ q_indptr,              \
        const unsigned* __restrict__ kv_indptr, const int* __restrict__ kv_indices,        \
        unsigned batch, unsigned num_heads, unsigned num_kv_heads, unsigned head_dim,      \
        unsigned num_slots, float scale, unsigned chunk, unsigned window, float softcap,   \
        float* __restrict__ out, float* __restrict__ part_acc,                             \
        float* __restrict__ part_ml) {                                                     \
        IMPL<T>(q, k_cache, v_cache, q_indptr, kv_indptr, kv_indices, batch, num_heads,    \
                num_kv_heads, head_dim, num_slots, scale, chunk, window, softcap, out,     \
                part_acc, part_ml);                                                        \
    }

ATTENTION_KERNEL(attention_partial_f32, attention_partial, float)
ATTENTION_KERNEL(attention_partial_f16, attention_partial, f16)
ATTENTION_KERNEL(attention_partial_bf16, attention_partial, bf16)

// ---------------------------------------------------------------------------------------
// Grouped fast path (head_dim <= 32 * GQA_ACC_PER_LANE, group <= GQA_MAX_GROUP): one block of
// GQA_WARPS warps per (query row, KV head, split) computes every query head of the KV head's
// group, so each K/V row is read once per group instead of once per query head. Warp w takes
// the keys key_lo + w*32 + j*GQA_WARPS*32 .. +32 (lane = key): a 16-byte-vectorized dot
// product per key and group head, then a warp-local online softmax (shuffles, no block
// barrier), then lanes over head dims accumulate the warp's 32 V rows (coalesced). The warps'
// states are merged at the end like split-K partials. Twin: cuda_index::gqa_warp_tiles.
#define GQA_WARPS 4
#define GQA_MAX_GROUP 8
#define GQA_ACC_PER_LANE 4

// 16 bytes of K widened to f32.
__device__ __forceinline__ void widen16(const float* p, float* o) {
    const float4 v = *(const float4*)p;
    o[0] = v.x; o[1] = v.y; o[2] = v.z; o[3] = v.w;
}
__device__ __forceinline__ void widen16(const f16* p, float* o) {
    const uint4 v = *(const uint4*)p;
    const __half2* h = (const __half2*)&v;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const float2 f = __half22float2(h[i]);
        o[2 * i] = f.x; o[2 * i + 1] = f.y;
    }
}
__device__ __forceinline__ void widen16(const bf16* p, float* o) {
    const uint4 v = *(const uint4*)p;
    const __nv_bfloat162* h = (const __nv_bfloat162*)&v;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const float2 f = __bfloat1622float2(h[i]);
        o[2 * i] = f.x; o[2 * i + 1] = f.y;
    }
}

template <typename T>
__device__ __forceinline__ void attention_gqa(
    const float* __restrict__ q, const T* __restrict__ k_cache, const T* __restrict__ v_cache,
    const unsigned* __restrict__ q_indptr, const unsigned* __restrict__ kv_indptr,
    const int* __restrict__ kv_indices, unsigned batch, unsigned num_heads,
    unsigned num_kv_heads, unsigned head_dim, unsigned num_slots, float scale, unsigned chunk,
    unsigned window, float softcap, float* __restrict__ out, float* __restrict__ part_acc,
    float* __restrict__ part_ml) {
    constexpr unsigned VEC = 16 / sizeof(T);
    const unsigned group = num_heads / num_kv_heads;
    extern __shared__ float smem[];
    float* q_s = smem;                                     // [group, head_dim], pre-scaled
    float* p_s = q_s + group * head_dim;                   // [warps, group, 32]
    int* slot_s = (int*)(p_s + GQA_WARPS * group * 32);    // [warps, 32]
    float* ml_s = (float*)(slot_s + GQA_WARPS * 32);       // [warps, group, 2]
    float* acc_s = ml_s + GQA_WARPS * group * 2;           // [warps, group, head_dim]

    const unsigned row = blockIdx.x, kv_head = blockIdx.y, split = blockIdx.z;
    const unsigned splits = gridDim.z;
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    const unsigned b = find_request(q_indptr, batch, row);
    const unsigned q_lo = q_indptr[b], q_len = q_indptr[b + 1] - q_lo;
    const unsigned kv_lo = kv_indptr[b], kv_len = kv_indptr[b + 1] - kv_lo;
    const unsigned visible = kv_len - (q_len - 1u - (row - q_lo));
    const unsigned span = row_chunk(chunk, visible, splits);
    const unsigned split_lo = split * span;
    const unsigned split_first = split_lo < visible ? split_lo : visible;
    const unsigned key_hi = split_first + min(span, visible - split_first);
    // A sliding window: the row sees only its last `window` keys (~0u: no window).
    const unsigned window_lo = visible > window ? visible - window : 0u;
    const unsigned key_lo = max(split_first, min(window_lo, key_hi));
    const unsigned head0 = kv_head * group;
    const size_t kv_row = (size_t)num_kv_heads * head_dim;
    const size_t head_off = (size_t)kv_head * head_dim;
    // Whole 16-byte K loads when every row slice starts and ends on a 16-byte boundary.
    const bool vec_ok = (kv_row % VEC == 0) && (head_dim % VEC == 0) &&
                        ((size_t)k_cache % 16 == 0);

    const float* q_rows = q + ((size_t)row * num_heads + head0) * head_dim;
    for (unsigned i = threadIdx.x; i < group * head_dim; i += blockDim.x) q_s[i] = q_rows[i] * scale;
    __syncthreads();

    float m[GQA_MAX_GROUP], l[GQA_MAX_GROUP], acc[GQA_MAX_GROUP][GQA_ACC_PER_LANE];
#pragma unroll
    for (int g = 0; g < GQA_MAX_GROUP; ++g) {
        m[g] = NEG_INF;
        l[g] = 0.0f;
#pragma unroll
        for (int r = 0; r < GQA_ACC_PER_LANE; ++r) acc[g][r] = 0.0f;
    }
    float* my_p = p_s + warp * group * 32;
    int* my_slot = slot_s + warp * 32;

    for (unsigned tile = key_lo + warp * 32u; tile < key_hi; tile += GQA_WARPS * 32u) {
        const unsigned key = tile + lane;
        float s[GQA_MAX_GROUP];
#pragma unroll
        for (int g = 0; g < GQA_MAX_GROUP; ++g) s[g] = NEG_INF;
        int slot = -1;
        if (key < key_hi) {
            slot = kv_indices[kv_lo + key];
            if (slot >= 0 && (unsigned)slot < num_slots) {
                const T* k_row = k_cache + (size_t)slot * kv_row + head_off;
                float dot[GQA_MAX_GROUP];
#pragma unroll
                for (int g = 0; g < GQA_MAX_GROUP; ++g) dot[g] = 0.0f;
                if (vec_ok) {
                    for (unsigned i = 0; i < head_dim; i += VEC) {
                        float kx[VEC];
                        widen16(k_row + i, kx);
#pragma unroll
                        for (int g = 0; g < GQA_MAX_GROUP; ++g) {
                            if (g < (int)group) {
                                const float* qg = q_s + g * head_dim + i;
#pragma unroll
                                for (unsigned j = 0; j < VEC; ++j) dot[g] += qg[j] * kx[j];
                            }
                        }
                    }
                } else {
                    for (unsigned i = 0; i < head_dim; ++i) {
                        const float kx = to_f32(k_row[i]);
#pragma unroll
                        for (int g = 0; g < GQA_MAX_GROUP; ++g)
                            if (g < (int)group) dot[g] += q_s[g * head_dim + i] * kx;
                    }
                }
#pragma unroll
                for (int g = 0; g < GQA_MAX_GROUP; ++g) s[g] = soft_cap(dot[g], softcap);
            } else {
                slot = -1;  // outside the pool: masked rather than read out of bounds
            }
        }
        my_slot[lane] = slot;
#pragma unroll
        for (int g = 0; g < GQA_MAX_GROUP; ++g) {
            if (g >= (int)group) break;
            const float m_new = fmaxf(m[g], warp_max(s[g]));
            // Uniform across the warp: every key so far was masked, nothing to accumulate.
            const float p = (m_new == NEG_INF || s[g] == NEG_INF) ? 0.0f : expf(s[g] - m_new);
            if (m_new != NEG_INF) {
                const float correction = expf(m[g] - m_new);  // 0 on the first non-empty tile
                l[g] = l[g] * correction + warp_sum(p);
#pragma unroll
                for (int r = 0; r < GQA_ACC_PER_LANE; ++r) acc[g][r] *= correction;
                m[g] = m_new;
            }
            my_p[g * 32 + lane] = p;
        }
        __syncwarp();
        const unsigned n = min(32u, key_hi - tile);
        for (unsigned t = 0; t < n; ++t) {
            const int sl = my_slot[t];
            if (sl < 0) continue;
            const T* v_row = v_cache + (size_t)sl * kv_row + head_off;
            float vx[GQA_ACC_PER_LANE];
#pragma unroll
            for (int r = 0; r < GQA_ACC_PER_LANE; ++r) {
                const unsigned d = lane + 32u * r;
                vx[r] = d < head_dim ? to_f32(v_row[d]) : 0.0f;
            }
#pragma unroll
            for (int g = 0; g < GQA_MAX_GROUP; ++g) {
                if (g < (int)group) {
                    const float p = my_p[g * 32 + t];
#pragma unroll
                    for (int r = 0; r < GQA_ACC_PER_LANE; ++r) acc[g][r] += p * vx[r];
                }
            }
        }
        __syncwarp();  // the next tile rewrites my_p and my_slot
    }

    // Merge the warps' states (as attention_merge merges splits).
#pragma unroll
    for (int g = 0; g < GQA_MAX_GROUP; ++g) {
        if (g < (int)group) {
            if (lane == 0) {
                ml_s[(warp * group + g) * 2] = m[g];
                ml_s[(warp * group + g) * 2 + 1] = l[g];
            }
#pragma unroll
            for (int r = 0; r < GQA_ACC_PER_LANE; ++r) {
                const unsigned d = lane + 32u * r;
                if (d < head_dim) acc_s[(warp * group + g) * head_dim + d] = acc[g][r];
            }
        }
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < group * head_dim; i += blockDim.x) {
        const unsigned g = i / head_dim, d = i % head_dim;
        float mm = NEG_INF;
        for (unsigned w = 0; w < GQA_WARPS; ++w) mm = fmaxf(mm, ml_s[(w * group + g) * 2]);
        float ll = 0.0f, o = 0.0f;
        if (mm != NEG_INF) {
            for (unsigned w = 0; w < GQA_WARPS; ++w) {
                const float mw = ml_s[(w * group + g) * 2];
                if (mw == NEG_INF) continue;
                const float f = expf(mw - mm);
                ll += ml_s[(w * group + g) * 2 + 1] * f;
                o += acc_s[(w * group + g) * head_dim + d] * f;
            }
        }
        const unsigned head = head0 + g;
        if (splits == 1) {
            out[((size_t)row * num_heads + head) * head_dim + d] = ll > 0.0f ? o / ll : 0.0f;
        } else {
            const size_t part = ((size_t)row * num_heads + head) * splits + split;
            part_acc[part * head_dim + d] = o;
            if (d == 0) {
                part_ml[2 * part] = mm;
                part_ml[2 * part + 1] = ll;
            }
        }
    }
}

ATTENTION_KERNEL(attention_gqa_f32, attention_gqa, float)
ATTENTION_KERNEL(attention_gqa_f16, attention_gqa, f16)
ATTENTION_KERNEL(attention_gqa_bf16, attention_gqa, bf16)

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
