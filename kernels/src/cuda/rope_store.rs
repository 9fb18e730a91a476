//! The fused RoPE + K/V store (`rope_store_kv` in `kernels/cuda/rope.cu`): RoPE on a layer's
//! Q and K and the store of K and V into the pool in one launch instead of three, with the
//! bits of [`DeviceRope::apply`] on each followed by [`DeviceKvStorage::set_kv`]. Q, K and V
//! are read where [`QkvRows`] says, so one GEMM's merged output needs no split.

use super::context::GpuContext;
use super::error::{bad_shape, to_u32, CudaError};
use super::nvrtc::Module;
use super::ops::{need, stride_launch, DeviceRope};
use super::qkv::QkvRows;
use super::storage::{DeviceKvStorage, DeviceLayerKv, DeviceSlots};
use crate::cuda_index::RopeStoreShape;
use crate::rope::RopeStyle;
use cudarc::driver::{CudaSlice, DevicePtr, PushKernelArg};

/// A null device pointer: the frequency table of a layer without RoPE (never read).
const NULL_PTR: u64 = 0;

/// A layer's new Q, K and V rows with their positions and pool slots.
pub struct NewRows<'a> {
    pub qkv: QkvRows<'a>,
    /// Where rotated Q goes, `[tokens, heads * head_dim]`; `None`: back where it was read.
    pub q_out: Option<&'a mut CudaSlice<f32>>,
    pub positions: &'a CudaSlice<u32>,
    pub out_cache_loc: &'a DeviceSlots,
}

impl DeviceKvStorage {
    /// Rotates Q (into `rows.q_out`, or in place) and K by `rope` (`None`: no rotation), and
    /// stores K and V into `layer` at `rows.out_cache_loc` (slots of -1 store nothing).
    pub fn rope_and_set_kv(
        &mut self,
        gpu: &GpuContext,
        layer: usize,
        rope: Option<&DeviceRope>,
        rows: NewRows<'_>,
    ) -> Result<(), CudaError> {
        let layout = self.layout();
        let (head_dim, kv_heads) = (layout.head_dim, layout.num_kv_heads);
        let qkv = rows.qkv.shape();
        let tokens = qkv.tokens;
        if (qkv.kv_heads, qkv.head_dim) != (kv_heads, head_dim) {
            return bad_shape(format!(
                "rope_store_kv: rows of {} K/V heads of {}, the pool's are {kv_heads} of \
                 {head_dim}",
                qkv.kv_heads, qkv.head_dim
            ));
        }
        if rows.out_cache_loc.len() != tokens {
            return bad_shape(format!(
                "rope_store_kv: {tokens} tokens, {} cache locations",
                rows.out_cache_loc.len()
            ));
        }
        if rope.is_some_and(|r| r.head_dim != head_dim) {
            return bad_shape(format!(
                "rope_store_kv: RoPE table not for head_dim {head_dim}"
            ));
        }
        if let Some(q_out) = &rows.q_out {
            need("rope_store_kv q_out", q_out.len(), tokens * qkv.q_len())?;
        }
        need("rope_store_kv positions", rows.positions.len(), tokens)?;
        let num_slots = self.num_slots();
        if rows.out_cache_loc.checked_against() > num_slots {
            return bad_shape(format!(
                "rope_store_kv: slots checked against {} slots, pool has {num_slots}",
                rows.out_cache_loc.checked_against()
            ));
        }
        let shape = RopeStoreShape {
            tokens,
            heads: qkv.heads,
            kv_heads,
            head_dim,
            pairs: rope.map_or(0, |r| r.pairs),
            neox: rope.is_some_and(|r| r.style == RopeStyle::Neox),
            copy_q: rows.q_out.is_some(),
        };
        let items = shape.items();
        let Some((k_cache, v_cache)) = self.layer_mut(layer) else {
            return bad_shape(format!("rope_store_kv: no layer {layer}"));
        };
        if items == 0 {
            return Ok(());
        }
        let name = match k_cache {
            DeviceLayerKv::F32(_) => "rope_store_kv_f32",
            DeviceLayerKv::F16(_) => "rope_store_kv_f16",
            DeviceLayerKv::Bf16(_) => "rope_store_kv_bf16",
        };
        let f = gpu.function(Module::Rope, name)?;
        let scalars = [
            to_u32(tokens, "tokens")?,
            to_u32(qkv.heads, "heads")?,
            to_u32(kv_heads, "kv_heads")?,
            to_u32(head_dim, "head_dim")?,
            to_u32(shape.pairs, "pairs")?,
        ];
        let (neox, copy_q) = (i32::from(shape.neox), i32::from(shape.copy_q));
        let (linear_factor, mscale) = rope.map_or((1.0, 1.0), |r| (r.linear_factor, r.mscale));
        let num_slots_u = to_u32(num_slots, "num_slots")?;
        let src = &rows.qkv;
        let (q_out, q_out_stride) = match &rows.q_out {
            Some(out) => (
                out.device_ptr(gpu.stream()).0,
                to_u32(qkv.q_len(), "q row")?,
            ),
            None => (src.q, src.q_stride),
        };
        let mut launch = gpu.stream().launch_builder(&f);
        launch
            .arg(&src.q)
            .arg(&src.q_stride)
            .arg(&q_out)
            .arg(&q_out_stride)
            .arg(&src.k)
            .arg(&src.v)
            .arg(&src.kv_stride)
            .arg(rows.positions);
        match rope {
            Some(r) => launch.arg(&r.inv_freq),
            None => launch.arg(&NULL_PTR),
        };
        launch.arg(rows.out_cache_loc.as_slice());
        match (k_cache, v_cache) {
            (DeviceLayerKv::F32(k), DeviceLayerKv::F32(v)) => launch.arg(k).arg(v),
            (DeviceLayerKv::F16(k), DeviceLayerKv::F16(v)) => launch.arg(k).arg(v),
            (DeviceLayerKv::Bf16(k), DeviceLayerKv::Bf16(v)) => launch.arg(k).arg(v),
            _ => return bad_shape("rope_store_kv: K and V of different dtypes".into()),
        };
        for s in &scalars {
            launch.arg(s);
        }
        launch
            .arg(&neox)
            .arg(&copy_q)
            .arg(&linear_factor)
            .arg(&mscale)
            .arg(&num_slots_u);
        // SAFETY: the arguments match rope_store_kv's signature, with the pool buffers of the
        // dtype the kernel's name says; `rows.qkv` borrows Q, K and V of every token at its
        // strides (checked when it was made), q_out and positions cover the tokens (checked
        // above), pair indices stay below 2 * pairs <= head_dim (the RoPE table is for this
        // head_dim), and slots outside the pool are skipped by the kernel.
        unsafe { launch.launch(stride_launch(items)) }?;
        Ok(())
    }
}
