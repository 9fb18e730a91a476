// Sampling of logits rows on the device, one block of SAMPLE_THREADS threads per row. The
// CPU twin (kernels/src/sampling/twin.rs) runs the same phases with the same arithmetic in
// the same order: change one, change the other. Every float operation that must match the
// twin bit for bit is written with an explicit rounding intrinsic (__fadd_rn, ...), which
// the compiler never contracts into an FMA.
#include "common.cuh"

#define SAMPLE_THREADS 256
#define MAX_TOP 20

#define EDIT_REPETITION 1u
#define EDIT_SUBTRACT 2u
#define EDIT_BIAS 4u
#define EDIT_BAN 8u

// Layouts of kernels::sampling::{RowPlan, LogitEdit} (#[repr(C)]).
struct RowPlan {
    double uniform;
    float scale;
    float logprob_scale;
    float top_p;
    float min_p;
    unsigned top_k;
    unsigned greedy;
    unsigned n_top;
    unsigned want_logprob;
    unsigned edit_lo;
    unsigned edit_hi;
    int mask_row;
    unsigned reserved;
};

struct LogitEdit {
    unsigned id;
    unsigned flags;
    float rep;
    float sub;
    float bias;
};

typedef unsigned long long u64;

#define FLT_MAX_BITS 0x7f7fffff
__device__ __forceinline__ float flt_max() { return __int_as_float(FLT_MAX_BITS); }

// kernels::vector::exp_approx, operation for operation (constants by their f32 bits).
__device__ __forceinline__ float exp_approx(float x) {
    const float LOG2E = __int_as_float(0x3fb8aa3b);
    const float LN2_HI = __int_as_float(0x3f318000);
    const float LN2_LO = __int_as_float(0xb95e8083);
    const float ROUNDER = 12582912.0f;
    const float xc = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
    const float shifted = __fadd_rn(__fmul_rn(xc, LOG2E), ROUNDER);
    const float n = __fsub_rn(shifted, ROUNDER);
    const float r = __fsub_rn(__fsub_rn(xc, __fmul_rn(n, LN2_HI)), __fmul_rn(n, LN2_LO));
    float p = __int_as_float(0x39506967);
    p = __fadd_rn(__fmul_rn(p, r), __int_as_float(0x3ab743ce));
    p = __fadd_rn(__fmul_rn(p, r), __int_as_float(0x3c088908));
    p = __fadd_rn(__fmul_rn(p, r), __int_as_float(0x3d2aa9c1));
    p = __fadd_rn(__fmul_rn(p, r), __int_as_float(0x3e2aaaaa));
    p = __fadd_rn(__fmul_rn(p, r), 0.5f);
    const float e = __fadd_rn(__fadd_rn(__fmul_rn(__fmul_rn(p, r), r), r), 1.0f);
    const float two_n = __uint_as_float((__float_as_uint(shifted) - (0x4B400000u - 127u)) << 23);
    return x < -87.0f ? 0.0f : __fmul_rn(e, two_n);
}

// kernels::vector::order_key: ascending order is value descending, then id ascending.
__device__ __forceinline__ u64 order_key(float x, unsigned id) {
    const unsigned bits = __float_as_uint(x);
    const unsigned ascending = (bits >> 31) ? ~bits : (bits | 0x80000000u);
    return ((u64)(~ascending) << 32) | (u64)id;
}

__device__ __forceinline__ float sanitize(float x) {
    if (x != x) return -flt_max();
    return x < -flt_max() ? -flt_max() : (x > flt_max() ? flt_max() : x);
}

__device__ __forceinline__ float apply_edit(float x, const LogitEdit& e) {
    if (e.flags & EDIT_REPETITION) x = x > 0.0f ? __fdiv_rn(x, e.rep) : __fmul_rn(x, e.rep);
    if (e.flags & EDIT_SUBTRACT) x = __fsub_rn(x, e.sub);
    if (e.flags & EDIT_BIAS) x = __fadd_rn(x, e.bias);
    if (e.flags & EDIT_BAN) x = NEG_INF;
    return x;
}

struct MinOp {
    template <typename T> __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
struct MaxOp {
    template <typename T> __device__ T operator()(T a, T b) const { return b > a ? b : a; }
};
struct AddOp {
    template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};

// A reduction over the block's threads, returned to every thread: thread t's value meets
// t + stride's, stride halving from SAMPLE_THREADS / 2. For f64 sums this is the twin's
// `tree`, addition for addition.
template <typename T, typename Op> __device__ T block_reduce(T v, T* scratch, Op op) {
    __syncthreads();
    scratch[threadIdx.x] = v;
    __syncthreads();
    for (unsigned stride = SAMPLE_THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            scratch[threadIdx.x] = op(scratch[threadIdx.x], scratch[threadIdx.x + stride]);
        __syncthreads();
    }
    return scratch[0];
}

// Mass of the ids of this thread (lo..hi) whose key is at most `bound`, in id order.
__device__ double thread_mass(const float* y, const float* w, unsigned lo, unsigned hi,
                              u64 bound) {
    double acc = 0.0;
    for (unsigned i = lo; i < hi; ++i)
        if (order_key(y[i], i) <= bound) acc = __dadd_rn(acc, (double)w[i]);
    return acc;
}

// logits: [rows, vocab], edited in place into the sanitized `y`; weights: [rows, vocab]
// scratch. Outputs per row: the token, its log-probability, and MAX_TOP slots of top-n.
extern "C" __global__ void __launch_bounds__(SAMPLE_THREADS)
    sample_rows(float* __restrict__ logits, float* __restrict__ weights, unsigned vocab,
                const RowPlan* __restrict__ plans, const LogitEdit* __restrict__ edits,
                const unsigned* __restrict__ masks, unsigned* __restrict__ tokens,
                float* __restrict__ logprobs, unsigned* __restrict__ top_ids,
                float* __restrict__ top_logprobs) {
    __shared__ double partial[SAMPLE_THREADS];
    __shared__ u64 keys[SAMPLE_THREADS];
    __shared__ unsigned counts[SAMPLE_THREADS];
    __shared__ float maxes[SAMPLE_THREADS];
    __shared__ int last[SAMPLE_THREADS];
    __shared__ unsigned chosen;

    const unsigned row = blockIdx.x, t = threadIdx.x;
    const RowPlan plan = plans[row];
    float* y = logits + (size_t)row * vocab;
    float* w = weights + (size_t)row * vocab;
    const unsigned per = (vocab + SAMPLE_THREADS - 1) / SAMPLE_THREADS;
    const unsigned lo = min(t * per, vocab), hi = min((t + 1) * per, vocab);

    // Phase 1: the grammar mask, then the edits (distinct tokens: one thread each).
    if (plan.mask_row >= 0) {
        const unsigned* mask = masks + (size_t)plan.mask_row * ((vocab + 31) / 32);
        for (unsigned i = lo; i < hi; ++i)
            if (((mask[i / 32] >> (i % 32)) & 1u) == 0u) y[i] = NEG_INF;
    }
    __syncthreads();
    for (unsigned e = plan.edit_lo + t; e < plan.edit_hi; e += SAMPLE_THREADS) {
        const LogitEdit edit = edits[e];
        y[edit.id] = apply_edit(y[edit.id], edit);
    }
    __syncthreads();

    // Phase 2: scale and sanitize; the maximum and the best key.
    float m = -flt_max();
    u64 best = ~0ull;
    for (unsigned i = lo; i < hi; ++i) {
        const float v = sanitize(__fmul_rn(y[i], plan.scale));
        y[i] = v;
        if (v > m) m = v;
        const u64 k = order_key(v, i);
        if (k < best) best = k;
    }
    const float max = block_reduce(m, maxes, MaxOp());
    best = block_reduce(best, keys, MinOp());

    // Phase 3: weights and the normalizer, where anything needs them.
    const bool greedy = plan.greedy != 0;
    double z = __longlong_as_double(0x7ff8000000000000ll);  // NaN
    if (!greedy || plan.want_logprob != 0 || plan.n_top > 0) {
        double acc = 0.0;
        for (unsigned i = lo; i < hi; ++i) {
            const float wi = exp_approx(__fmul_rn(__fsub_rn(y[i], max), plan.logprob_scale));
            w[i] = wi;
            acc = __dadd_rn(acc, (double)wi);
        }
        z = block_reduce(acc, partial, AddOp());
    }
    const double ln_z = log(z);

    // Phase 4: the token.
    if (greedy) {
        if (t == 0) chosen = (unsigned)(best & 0xffffffffull);
    } else {
        // Top-k: the smallest key bound holding k tokens, by bisection.
        const unsigned k = plan.top_k;
        const bool top_k = k > 0 && k < vocab;
        u64 bound = ~0ull;
        if (top_k) {
            u64 b_lo = best, b_hi = ~0ull;
            while (b_lo < b_hi) {
                const u64 mid = b_lo + (b_hi - b_lo) / 2;
                unsigned c = 0;
                for (unsigned i = lo; i < hi; ++i) c += order_key(y[i], i) <= mid ? 1u : 0u;
                if (block_reduce(c, counts, AddOp()) >= k) b_hi = mid; else b_lo = mid + 1;
            }
            bound = b_hi;
        }
        // Top-p: the shortest best-first prefix of the candidates reaching its mass.
        if (plan.top_p < 1.0f) {
            const double total = top_k ? block_reduce(thread_mass(y, w, lo, hi, bound), partial, AddOp()) : z;
            const double target = __dmul_rn((double)plan.top_p, total);
            if (block_reduce(thread_mass(y, w, lo, hi, bound), partial, AddOp()) >= target) {
                u64 b_lo = best, b_hi = bound;
                while (b_lo < b_hi) {
                    const u64 mid = b_lo + (b_hi - b_lo) / 2;
                    if (block_reduce(thread_mass(y, w, lo, hi, mid), partial, AddOp()) >= target)
                        b_hi = mid;
                    else
                        b_lo = mid + 1;
                }
                bound = b_hi;
            }
        }
        // The walk: per-thread survivor masses, then thread 0 finds the thread and its id.
        const float min_p = plan.min_p;
        double acc = 0.0;
        int mine = -1;
        for (unsigned i = lo; i < hi; ++i) {
            if (order_key(y[i], i) <= bound && (min_p <= 0.0f || w[i] >= min_p)) {
                acc = __dadd_rn(acc, (double)w[i]);
                if (w[i] > 0.0f) mine = (int)i;
            }
        }
        __syncthreads();
        partial[t] = acc;
        last[t] = mine;
        __syncthreads();
        if (t == 0) {
            double total = 0.0;
            for (unsigned s = 0; s < SAMPLE_THREADS; ++s) total = __dadd_rn(total, partial[s]);
            const double target = __dmul_rn(plan.uniform, total);
            int pick = -1;
            bool found = false;
            double run = 0.0;
            for (unsigned s = 0; s < SAMPLE_THREADS && !found; ++s) {
                if (partial[s] > 0.0 && __dadd_rn(run, partial[s]) > target) {
                    found = true;
                    double walk = run;
                    const unsigned s_lo = min(s * per, vocab), s_hi = min((s + 1) * per, vocab);
                    for (unsigned i = s_lo; i < s_hi && pick < 0; ++i) {
                        if (order_key(y[i], i) <= bound && (min_p <= 0.0f || w[i] >= min_p)) {
                            walk = __dadd_rn(walk, (double)w[i]);
                            if (walk > target) pick = (int)i;
                        }
                    }
                    if (pick < 0) pick = last[s];
                }
                run = __dadd_rn(run, partial[s]);
            }
            for (int s = SAMPLE_THREADS - 1; s >= 0 && pick < 0; --s) pick = last[s];
            chosen = pick >= 0 ? (unsigned)pick : (unsigned)(best & 0xffffffffull);
        }
    }
    __syncthreads();
    const unsigned token = chosen;
    if (t == 0) {
        tokens[row] = token;
        logprobs[row] =
            greedy && plan.want_logprob == 0
                ? __int_as_float(0x7fc00000)
                : __double2float_rn(__dsub_rn(
                      (double)__fmul_rn(__fsub_rn(y[token], max), plan.logprob_scale), ln_z));
    }

    // Phase 5: the top-n, one block minimum over the keys past the previous one each.
    u64 previous = 0;
    for (unsigned j = 0; j < plan.n_top; ++j) {
        u64 next = ~0ull;
        for (unsigned i = lo; i < hi; ++i) {
            const u64 k = order_key(y[i], i);
            if ((j == 0 || k > previous) && k < next) next = k;
        }
        next = block_reduce(next, keys, MinOp());
        if (next == ~0ull) break;  // fewer tokens than asked for
        const unsigned id = (unsigned)(next & 0xffffffffull);
        if (t == 0) {
            top_ids[(size_t)row * MAX_TOP + j] = id;
            top_logprobs[(size_t)row * MAX_TOP + j] = __double2float_rn(__dsub_rn(
                (double)__fmul_rn(__fsub_rn(y[id], max), plan.logprob_scale), ln_z));
        }
        previous = next;
    }
}

// Overlap scheduling: input ids that are tokens the previous sample_rows launch chose.
// ids[at[i]] = sampled[rows[i]] for i < n.
extern "C" __global__ void resolve_futures(unsigned* __restrict__ ids,
                                           const unsigned* __restrict__ at,
                                           const unsigned* __restrict__ rows,
                                           const unsigned* __restrict__ sampled, unsigned n) {
    for (size_t i = grid_first(); i < n; i += grid_step()) ids[at[i]] = sampled[rows[i]];
}
