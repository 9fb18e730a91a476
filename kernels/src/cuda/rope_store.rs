//! The fused RoPE + K/V store (`rope_store_kv` in `kernels/cuda/rope.cu`): RoPE on a layer's
//! Q and K and the store of K and V into the pool in one launch instead of three, with the
//! bits of [`DeviceRope::apply`] on each followed by [`DeviceKvStorage::set_kv`].

use super::context::GpuContext;
use super::error::{bad_shape, to_u32, CudaError};
use super::nvrtc::Module;
use super::ops::{need, stride_launch, DeviceRope};
use super::storage::{DeviceKvStorage, DeviceLayerKv, DeviceSlots};
use crate::cuda_index::RopeStoreShape;
use crate::rope::RopeStyle;
use cudarc::driver::{CudaSlice, PushKernelArg};

/// A null device pointer: the frequency table of a layer without RoPE (never read).
const NULL_PTR: u64 = 0;

/// A layer's new Q, K and V rows of `tokens` tokens (`[tokens, heads * head_dim]` for Q,
/// `[tokens, kv_heads * head_dim]` for K and V) with their positions and pool slots.
pub struct NewRows<'a> {
    pub tokens: usize,
    pub q: &'a mut CudaSlice<f32>,
    pub heads: usize,
    pub k: &'a CudaSlice<f32>,
    pub v: &'a CudaSlice<f32>,
    pub positions: &'a CudaSlice<u32>,
    pub out_cache_loc: &'a DeviceSlots,
}

impl DeviceKvStorage {
    /// Rotates `rows.q` in place and K by `rope` (`None`: no rotation), and stores K and V
    /// into `layer` at `rows.out_cache_loc` (slots of -1 store nothing).
    pub fn rope_and_set_kv(
        &mut self,
        gpu: &GpuContext,
        layer: usize,
        rope: Option<&DeviceRope>,
        rows: NewRows<'_>,
    ) -> Result<(), CudaError> {
        let layout = self.layout();
        let (head_dim, kv_heads) = (layout.head_dim, layout.num_kv_heads);
        let tokens = rows.tokens;
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
        need(
            "rope_store_kv q",
            rows.q.len(),
            tokens * rows.heads * head_dim,
        )?;
        need(
            "rope_store_kv k",
            rows.k.len(),
            tokens * kv_heads * head_dim,
        )?;
        need(
            "rope_store_kv v",
            rows.v.len(),
            tokens * kv_heads * head_dim,
        )?;
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
            heads: rows.heads,
            kv_heads,
            head_dim,
            pairs: rope.map_or(0, |r| r.pairs),
            neox: rope.is_some_and(|r| r.style == RopeStyle::Neox),
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
            to_u32(rows.heads, "heads")?,
            to_u32(kv_heads, "kv_heads")?,
            to_u32(head_dim, "head_dim")?,
            to_u32(shape.pairs, "pairs")?,
        ];
        let neox = i32::from(shape.neox);
        let (linear_factor, mscale) = rope.map_or((1.0, 1.0), |r| (r.linear_factor, r.mscale));
        let num_slots_u = to_u32(num_slots, "num_slots")?;
        let mut launch = gpu.stream().launch_builder(&f);
        launch
            .arg(rows.q)
            .arg(rows.k)
            .arg(rows.v)
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
            .arg(&linear_factor)
            .arg(&mscale)
            .arg(&num_slots_u);
        // SAFETY: the arguments match rope_store_kv's signature, with the pool buffers of the
        // dtype the kernel's name says; q, k, v and positions cover the tokens (checked
        // above), pair indices stay below 2 * pairs <= head_dim (the RoPE table is for this
        // head_dim), and slots outside the pool are skipped by the kernel.
        unsafe { launch.launch(stride_launch(items)) }?;
        Ok(())
    }
}
