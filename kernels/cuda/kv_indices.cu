// create_kv_indices: FlashInfer's CSR `kv_indices` gathered from `req_to_token` (SGLang's
// create_flashinfer_kv_indices_triton). `kv_indptr` is the prefix sum of the KV lengths,
// computed on the host, which knows the lengths anyway. Mirrors kernels/src/kv_indices.rs.
#include "common.cuh"

// One block per request; its threads stride over the request's range so that neighbouring
// threads read neighbouring `req_to_token` entries (coalesced loads and stores).
extern "C" __global__ void create_kv_indices(
    const int* __restrict__ req_to_token,
    unsigned row_stride,
    const unsigned* __restrict__ req_pool_indices,
    const unsigned* __restrict__ kv_indptr,
    const unsigned* __restrict__ kv_start,  // null: every range starts at column 0
    int* __restrict__ kv_indices) {
    const unsigned b = blockIdx.x;
    const unsigned out_lo = kv_indptr[b];
    const unsigned len = kv_indptr[b + 1] - out_lo;
    const unsigned start = kv_start != nullptr ? kv_start[b] : 0u;
    const size_t src = (size_t)req_pool_indices[b] * row_stride + start;
    for (unsigned i = threadIdx.x; i < len; i += blockDim.x) {
        kv_indices[out_lo + i] = req_to_token[src + i];
    }
}

// write_req_to_token: table[cells[i]] = slots[i], the batched update of the device
// `req_to_token` (one launch per step instead of one copy per request). A cell past the table
// is skipped, as the host rejects it before launch. Mirrors kernels/src/kv_indices.rs.
extern "C" __global__ void write_req_to_token(
    int* __restrict__ req_to_token,
    unsigned long long table_len,
    const unsigned long long* __restrict__ cells,
    const int* __restrict__ slots,
    unsigned long long n) {
    for (size_t i = grid_first(); i < n; i += grid_step()) {
        const unsigned long long cell = cells[i];
        if (cell < table_len) req_to_token[cell] = slots[i];
    }
}
