//! The `extern "C"` entry points of `kernels/cuda/*.cu`, as the emulator compiled them. Call
//! them only inside [`crate::launch`], which provides the thread and block a CUDA launch
//! would; the argument lists are those of the `.cu` signatures, which the launch wrappers in
//! `kernels::cuda` pass through cudarc in the same order.

use crate::entry::{entry_points, EntryPoint};
use half::{bf16, f16};
use kernels::sampling::{LogitEdit, RowPlan};

/// Every kernel of `kernels/cuda/*.cu` by name, for a driver that launches them by name.
pub fn entry_points() -> impl Iterator<Item = &'static EntryPoint> {
    [BASIC, STORE_KV, ATTENTION, ROPE_STORE_KV, EMBEDDING]
        .into_iter()
        .flatten()
}

entry_points! {
    BASIC;
    pub fn create_kv_indices(
        req_to_token: *const i32,
        row_stride: u32,
        req_pool_indices: *const u32,
        kv_indptr: *const u32,
        kv_start: *const u32,
        kv_indices: *mut i32,
    );
    pub fn write_req_to_token(
        req_to_token: *mut i32,
        table_len: u64,
        cells: *const u64,
        slots: *const i32,
        n: u64,
    );
    pub fn attention_merge(
        part_acc: *const f32,
        part_ml: *const f32,
        out: *mut f32,
        num_heads: u32,
        head_dim: u32,
        splits: u32,
    );
    pub fn rms_norm(x: *const f32, weight: *const f32, out: *mut f32, dim: u32, eps: f32);
    pub fn rms_norm_inplace(x: *mut f32, weight: *const f32, dim: u32, eps: f32);
    pub fn add_rms_norm_f16(
        x: *mut f32,
        residual: *const f32,
        weight: *const f32,
        out: *mut f16,
        dim: u32,
        eps: f32,
    );
    pub fn qk_norm_inplace(
        q: *mut f32,
        q_stride: u32,
        k: *mut f32,
        k_stride: u32,
        q_weight: *const f32,
        k_weight: *const f32,
        heads: u32,
        kv_heads: u32,
        head_dim: u32,
        eps: f32,
    );
    pub fn rope(
        x: *mut f32,
        positions: *const u32,
        inv_freq: *const f64,
        n_tokens: u32,
        n_heads: u32,
        head_dim: u32,
        pairs: u32,
        neox: i32,
        linear_factor: f64,
        mscale: f64,
    );
    pub fn silu_mul(gate_up: *const f32, out: *mut f32, n_rows: u32, ffn: u32);
    pub fn gelu_tanh_mul(gate_up: *const f32, out: *mut f32, n_rows: u32, ffn: u32);
    pub fn silu_mul_f16(gate_up: *const f32, out: *mut f16, n_rows: u32, ffn: u32);
    pub fn gelu_tanh_mul_f16(gate_up: *const f32, out: *mut f16, n_rows: u32, ffn: u32);
    pub fn add_inplace(x: *mut f32, y: *const f32, n: u64);
    pub fn add_bias(x: *mut f32, bias: *const f32, n_rows: u32, width: u32);
    pub fn scale_inplace(x: *mut f32, factor: f32, n: u64);
    pub fn softcap_inplace(x: *mut f32, cap: f32, n: u64);
    pub fn cast_f32_f16(src: *const f32, dst: *mut f16, n: u64);
    pub fn cast_f32_bf16(src: *const f32, dst: *mut bf16, n: u64);
    pub fn cast_f16_f32(src: *const f16, dst: *mut f32, n: u64);
    pub fn cast_bf16_f32(src: *const bf16, dst: *mut f32, n: u64);
    pub fn sample_rows(
        logits: *mut f32,
        weights: *mut f32,
        vocab: u32,
        plans: *const RowPlan,
        edits: *const LogitEdit,
        masks: *const u32,
        tokens: *mut u32,
        logprobs: *mut f32,
        top_ids: *mut u32,
        top_logprobs: *mut f32,
    );
    pub fn resolve_futures(
        ids: *mut u32,
        at: *const u32,
        rows: *const u32,
        sampled: *const u32,
        n: u32,
    );
}

// Emulator self-checks (src/probes.cpp): not kernels of `kernels/cuda/`, so not in
// [`entry_points`].
entry_points! {
    PROBES;
    pub fn probe_sums(out: *mut f32, lane_sums: *mut f32);
    pub fn probe_divergent(mode: i32);
    pub fn probe_shared_write(floats: u32);
    pub fn probe_shared_read(out: *mut f32);
    pub fn probe_static_shared_read(out: *mut f32);
}

// The entry points instantiated per element type (`NAME_f32`, `NAME_f16`, `NAME_bf16`).

macro_rules! store_kv {
    ($table:ident; $($name:ident: $t:ty),*) => {
        entry_points! {
            $table;
            $(pub fn $name(
                out_cache_loc: *const i32,
                k: *const f32,
                v: *const f32,
                k_cache: *mut $t,
                v_cache: *mut $t,
                n_tokens: u32,
                row_len: u32,
                num_slots: u32,
            );)*
        }
    };
}
store_kv!(STORE_KV; store_kv_f32: f32, store_kv_f16: f16, store_kv_bf16: bf16);

macro_rules! attention {
    ($table:ident; $($name:ident: $t:ty),*) => {
        entry_points! {
            $table;
            $(pub fn $name(
                q: *const f32,
                k_cache: *const $t,
                v_cache: *const $t,
                q_indptr: *const u32,
                kv_indptr: *const u32,
                kv_indices: *const i32,
                batch: u32,
                num_heads: u32,
                num_kv_heads: u32,
                head_dim: u32,
                num_slots: u32,
                scale: f32,
                chunk: u32,
                window: u32,
                softcap: f32,
                out: *mut f32,
                part_acc: *mut f32,
                part_ml: *mut f32,
            );)*
        }
    };
}
attention!(
    ATTENTION;
    attention_partial_f32: f32,
    attention_partial_f16: f16,
    attention_partial_bf16: bf16,
    attention_gqa_f32: f32,
    attention_gqa_f16: f16,
    attention_gqa_bf16: bf16
);

macro_rules! rope_store_kv {
    ($table:ident; $($name:ident: $t:ty),*) => {
        entry_points! {
            $table;
            $(pub fn $name(
                q: *const f32,
                q_stride: u32,
                q_out: *mut f32,
                q_out_stride: u32,
                k: *const f32,
                v: *const f32,
                kv_stride: u32,
                positions: *const u32,
                inv_freq: *const f64,
                out_cache_loc: *const i32,
                k_cache: *mut $t,
                v_cache: *mut $t,
                n_tokens: u32,
                heads: u32,
                kv_heads: u32,
                head_dim: u32,
                pairs: u32,
                neox: i32,
                copy_q: i32,
                linear_factor: f64,
                mscale: f64,
                num_slots: u32,
            );)*
        }
    };
}
rope_store_kv!(ROPE_STORE_KV; rope_store_kv_f32: f32, rope_store_kv_f16: f16, rope_store_kv_bf16: bf16);

macro_rules! embedding {
    ($table:ident; $($name:ident: $t:ty),*) => {
        entry_points! {
            $table;
            $(pub fn $name(ids: *const u32, table: *const $t, out: *mut f32, hidden: u32, vocab: u32);)*
        }
    };
}
embedding!(EMBEDDING; embedding_f32: f32, embedding_f16: f16, embedding_bf16: bf16);
