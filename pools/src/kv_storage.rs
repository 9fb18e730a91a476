//! Per-layer K and V buffers `[num_slots, num_kv_heads, head_dim]` (SGLang's
//! `MHATokenToKVPool`), in f32, f16 or bf16; or, for multi-head latent attention, the K
//! buffers alone, whose rows hold the values too (SGLang's `MLATokenToKVPool`).

use crate::{PoolError, SlotId};
use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

/// Element type of the K/V buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KvDtype {
    F32,
    F16,
    Bf16,
}

impl KvDtype {
    pub fn size_bytes(self) -> usize {
        match self {
            KvDtype::F32 => 4,
            KvDtype::F16 | KvDtype::Bf16 => 2,
        }
    }
}

impl std::str::FromStr for KvDtype {
    type Err = PoolError;
    fn from_str(s: &str) -> Result<Self, PoolError> {
        match s {
            "f32" => Ok(KvDtype::F32),
            "f16" => Ok(KvDtype::F16),
            "bf16" => Ok(KvDtype::Bf16),
            other => Err(PoolError::InvalidConfig(format!(
                "unknown KV dtype {other:?} (expected f32, f16 or bf16)"
            ))),
        }
    }
}

/// Shape of the model's K/V: what one token costs in every layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KvLayout {
    pub num_layers: usize,
    pub num_kv_heads: usize,
    pub head_dim: usize,
    pub dtype: KvDtype,
    /// Attention reads each value from its key's row (multi-head latent attention: the row
    /// is the compressed latent, then the rotated part, and the values are the latent), so
    /// there are no V buffers and a token costs half.
    pub values_in_keys: bool,
    /// Layers whose rows have another width (Gemma 4's global layers: fewer, wider heads
    /// than its sliding ones).
    pub other_rows: Option<OtherRows>,
}

/// K/V layers whose rows are `row_len` values wide instead of `num_kv_heads * head_dim`: a
/// bit per layer, so the first [`OtherRows::MAX_LAYER`] + 1 layers can have them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OtherRows {
    pub layers: u128,
    pub row_len: usize,
}

impl OtherRows {
    /// The last layer index a bit can name.
    pub const MAX_LAYER: usize = 127;

    /// `row_len`-wide rows in `layers` (each at most [`Self::MAX_LAYER`]; `None` if one is
    /// past it).
    pub fn new(layers: impl IntoIterator<Item = usize>, row_len: usize) -> Option<Self> {
        let mut bits = 0u128;
        for layer in layers {
            if layer > Self::MAX_LAYER {
                return None;
            }
            bits |= 1 << layer;
        }
        Some(Self {
            layers: bits,
            row_len,
        })
    }

    fn has(&self, layer: usize) -> bool {
        layer <= Self::MAX_LAYER && self.layers & (1 << layer) != 0
    }
}

impl KvLayout {
    /// Values of K (or of V) per token in a layer without [`OtherRows`].
    pub fn row_len(&self) -> usize {
        self.num_kv_heads * self.head_dim
    }

    /// Values of K (or of V) per token in `layer`.
    pub fn row_len_of(&self, layer: usize) -> usize {
        match self.other_rows {
            Some(other) if other.has(layer) => other.row_len,
            _ => self.row_len(),
        }
    }

    /// Whether every layer's rows are `num_kv_heads * head_dim` wide.
    pub fn is_uniform(&self) -> bool {
        (0..self.num_layers).all(|l| self.row_len_of(l) == self.row_len())
    }

    /// The row width of each buffer in the order [`KvStorage::export_slots`] writes them:
    /// per layer its K, then its V where it has V buffers.
    pub fn buffer_row_lens(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.num_layers)
            .flat_map(move |l| std::iter::repeat_n(self.row_len_of(l), self.buffers_per_layer()))
    }

    /// K and V buffers per layer: 1 where the values are read from the keys.
    pub fn buffers_per_layer(&self) -> usize {
        if self.values_in_keys {
            1
        } else {
            2
        }
    }

    /// `2 * layers * kv_heads * head_dim * sizeof(dtype)` (half that where the values are
    /// read from the keys; each layer at its own width).
    pub fn bytes_per_token(&self) -> usize {
        self.buffer_row_lens().sum::<usize>() * self.dtype.size_bytes()
    }

    /// How many slots fit in `budget_bytes`, rounded down to whole pages.
    pub fn slots_for_budget(&self, budget_bytes: usize, page_size: usize) -> usize {
        let per_token = self.bytes_per_token().max(1);
        budget_bytes / per_token / page_size.max(1) * page_size.max(1)
    }
}

/// One layer's K or V buffer, typed.
#[derive(Debug)]
pub enum LayerKv {
    F32(Vec<f32>),
    F16(Vec<f16>),
    Bf16(Vec<bf16>),
}

impl LayerKv {
    fn zeros(dtype: KvDtype, len: usize) -> Self {
        match dtype {
            KvDtype::F32 => LayerKv::F32(vec![0.0; len]),
            KvDtype::F16 => LayerKv::F16(vec![f16::ZERO; len]),
            KvDtype::Bf16 => LayerKv::Bf16(vec![bf16::ZERO; len]),
        }
    }

    /// Writes `src` rows (each `row_len` f32 values) at `slots`.
    fn scatter(&mut self, row_len: usize, slots: &[SlotId], src: &[f32]) {
        fn put<T: Copy>(
            dst: &mut [T],
            row_len: usize,
            slots: &[SlotId],
            src: &[f32],
            cvt: fn(f32) -> T,
        ) {
            for (&slot, row) in slots.iter().zip(src.chunks_exact(row_len)) {
                let at = slot as usize * row_len;
                for (d, &s) in dst[at..at + row_len].iter_mut().zip(row) {
                    *d = cvt(s);
                }
            }
        }
        match self {
            LayerKv::F32(b) => put(b, row_len, slots, src, |x| x),
            LayerKv::F16(b) => put(b, row_len, slots, src, f16::from_f32),
            LayerKv::Bf16(b) => put(b, row_len, slots, src, bf16::from_f32),
        }
    }

    /// Reads the row at `slot` into `out` as f32.
    pub fn read_row(&self, row_len: usize, slot: SlotId, out: &mut [f32]) {
        let at = slot as usize * row_len;
        match self {
            LayerKv::F32(b) => out.copy_from_slice(&b[at..at + row_len]),
            // Slice conversion: F16C / vector code picked at run time, not one scalar
            // conversion per element (attention reads every key and value row this way).
            LayerKv::F16(b) => b[at..at + row_len].convert_to_f32_slice(out),
            LayerKv::Bf16(b) => b[at..at + row_len].convert_to_f32_slice(out),
        }
    }
}

/// Rows of `slots` as raw bytes of the element type (native byte order, which the disk
/// tier's fingerprint records).
fn export_rows<T: bytemuck::Pod>(src: &[T], row_len: usize, slots: &[SlotId], out: &mut Vec<u8>) {
    for &slot in slots {
        let at = slot as usize * row_len;
        out.extend_from_slice(bytemuck::cast_slice(&src[at..at + row_len]));
    }
}

/// Writes rows from `bytes` at `slots`; returns the bytes consumed.
fn import_rows<T: bytemuck::Pod>(
    dst: &mut [T],
    row_len: usize,
    slots: &[SlotId],
    bytes: &[u8],
) -> usize {
    let row_bytes = row_len * std::mem::size_of::<T>();
    for (&slot, row) in slots.iter().zip(bytes.chunks_exact(row_bytes)) {
        let at = slot as usize * row_len;
        bytemuck::cast_slice_mut::<T, u8>(&mut dst[at..at + row_len]).copy_from_slice(row);
    }
    slots.len() * row_bytes
}

impl LayerKv {
    fn export(&self, row_len: usize, slots: &[SlotId], out: &mut Vec<u8>) {
        match self {
            LayerKv::F32(b) => export_rows(b, row_len, slots, out),
            LayerKv::F16(b) => export_rows(b, row_len, slots, out),
            LayerKv::Bf16(b) => export_rows(b, row_len, slots, out),
        }
    }

    fn import(&mut self, row_len: usize, slots: &[SlotId], bytes: &[u8]) -> usize {
        match self {
            LayerKv::F32(b) => import_rows(b, row_len, slots, bytes),
            LayerKv::F16(b) => import_rows(b, row_len, slots, bytes),
            LayerKv::Bf16(b) => import_rows(b, row_len, slots, bytes),
        }
    }
}

/// K and V of every layer for every slot.
#[derive(Debug)]
pub struct KvStorage {
    layout: KvLayout,
    num_slots: usize,
    k: Vec<LayerKv>,
    v: Vec<LayerKv>,
}

impl KvStorage {
    pub fn new(layout: KvLayout, num_slots: usize) -> Result<Self, PoolError> {
        let empty = (0..layout.num_layers).any(|l| layout.row_len_of(l) == 0);
        if layout.num_layers == 0 || empty || num_slots == 0 {
            return Err(PoolError::InvalidConfig(format!(
                "empty KV storage: {layout:?}, {num_slots} slots"
            )));
        }
        let len = |layer: usize| {
            num_slots
                .checked_mul(layout.row_len_of(layer))
                .ok_or_else(|| PoolError::InvalidConfig("KV storage too large".into()))
        };
        let k = (0..layout.num_layers)
            .map(|l| Ok(LayerKv::zeros(layout.dtype, len(l)?)))
            .collect::<Result<_, PoolError>>()?;
        let v_buffers = if layout.values_in_keys {
            0
        } else {
            layout.num_layers
        };
        let v = (0..v_buffers)
            .map(|l| Ok(LayerKv::zeros(layout.dtype, len(l)?)))
            .collect::<Result<_, PoolError>>()?;
        Ok(Self {
            layout,
            num_slots,
            k,
            v,
        })
    }

    /// Storage sized to fit `budget_bytes`, rounded down to whole pages.
    pub fn with_budget(
        layout: KvLayout,
        budget_bytes: usize,
        page_size: usize,
    ) -> Result<Self, PoolError> {
        Self::new(layout, layout.slots_for_budget(budget_bytes, page_size))
    }

    pub fn layout(&self) -> KvLayout {
        self.layout
    }

    pub fn num_slots(&self) -> usize {
        self.num_slots
    }

    pub fn bytes_per_token(&self) -> usize {
        self.layout.bytes_per_token()
    }

    /// Scatters new tokens' K and V (`[n, kv_heads * head_dim]` f32 each) into `layer` at
    /// `out_cache_loc`. Where the values are read from the keys, `v` must be empty.
    pub fn set_kv(
        &mut self,
        layer: usize,
        out_cache_loc: &[SlotId],
        k: &[f32],
        v: &[f32],
    ) -> Result<(), PoolError> {
        if layer >= self.layout.num_layers {
            return Err(PoolError::InvalidConfig(format!("no layer {layer}")));
        }
        let row_len = self.layout.row_len_of(layer);
        let expected = out_cache_loc.len() * row_len;
        let expected_v = if self.layout.values_in_keys {
            0
        } else {
            expected
        };
        for (got, expected) in [(k.len(), expected), (v.len(), expected_v)] {
            if got != expected {
                return Err(PoolError::KvShape { got, expected });
            }
        }
        if let Some(&bad) = out_cache_loc
            .iter()
            .find(|&&s| s < 0 || s as usize >= self.num_slots)
        {
            return Err(PoolError::SlotOutOfRange {
                slot: bad,
                num_slots: self.num_slots,
            });
        }
        self.k[layer].scatter(row_len, out_cache_loc, k);
        if let Some(v_buffer) = self.v.get_mut(layer) {
            v_buffer.scatter(row_len, out_cache_loc, v);
        }
        Ok(())
    }

    fn check_slots(&self, slots: &[SlotId]) -> Result<(), PoolError> {
        match slots
            .iter()
            .find(|&&s| s < 0 || s as usize >= self.num_slots)
        {
            Some(&slot) => Err(PoolError::SlotOutOfRange {
                slot,
                num_slots: self.num_slots,
            }),
            None => Ok(()),
        }
    }

    /// Appends the K/V of `slots` to `out` as raw bytes of the pool's dtype (native byte order):
    /// per layer, the K rows then the V rows, if it has V buffers (`slots.len() *
    /// bytes_per_token` bytes).
    pub fn export_slots(&self, slots: &[SlotId], out: &mut Vec<u8>) -> Result<(), PoolError> {
        self.check_slots(slots)?;
        out.reserve(slots.len() * self.bytes_per_token());
        for layer in 0..self.layout.num_layers {
            let row_len = self.layout.row_len_of(layer);
            self.k[layer].export(row_len, slots, out);
            if let Some(v) = self.v.get(layer) {
                v.export(row_len, slots, out);
            }
        }
        Ok(())
    }

    /// Writes K/V exported by [`KvStorage::export_slots`] (possibly from other slots) at
    /// `slots`: bit for bit what was exported.
    pub fn import_slots(&mut self, slots: &[SlotId], bytes: &[u8]) -> Result<(), PoolError> {
        self.check_slots(slots)?;
        let expected = slots.len() * self.bytes_per_token();
        if bytes.len() != expected {
            return Err(PoolError::KvShape {
                got: bytes.len(),
                expected,
            });
        }
        let mut at = 0;
        for layer in 0..self.layout.num_layers {
            let row_len = self.layout.row_len_of(layer);
            at += self.k[layer].import(row_len, slots, &bytes[at..]);
            if let Some(v) = self.v.get_mut(layer) {
                at += v.import(row_len, slots, &bytes[at..]);
            }
        }
        Ok(())
    }

    /// Layer `layer`'s K and V buffers, for attention kernels that gather by `kv_indices`;
    /// where the values are read from the keys, the K buffer twice.
    pub fn layer(&self, layer: usize) -> Option<(&LayerKv, &LayerKv)> {
        let k = self.k.get(layer)?;
        if self.layout.values_in_keys {
            return Some((k, k));
        }
        Some((k, self.v.get(layer)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(dtype: KvDtype) -> KvLayout {
        KvLayout {
            num_layers: 2,
            num_kv_heads: 3,
            head_dim: 4,
            dtype,
            values_in_keys: false,
            other_rows: None,
        }
    }

    #[test]
    fn bytes_per_token_matches_the_smollm2_figures() {
        let smol = KvLayout {
            num_layers: 30,
            num_kv_heads: 3,
            head_dim: 64,
            dtype: KvDtype::F32,
            values_in_keys: false,
            other_rows: None,
        };
        assert_eq!(smol.bytes_per_token(), 46_080);
        let half = KvLayout {
            dtype: KvDtype::Bf16,
            ..smol
        };
        assert_eq!(half.bytes_per_token(), 23_040);
        assert_eq!(smol.slots_for_budget(46_080 * 100 + 5, 16), 96);
    }

    #[test]
    fn set_kv_scatters_to_the_right_slots_in_every_dtype() {
        for dtype in [KvDtype::F32, KvDtype::F16, KvDtype::Bf16] {
            let mut kv = KvStorage::new(layout(dtype), 8).unwrap();
            let k: Vec<f32> = (0..24).map(|i| i as f32).collect();
            let v: Vec<f32> = (0..24).map(|i| -(i as f32)).collect();
            kv.set_kv(1, &[5, 2], &k, &v).unwrap();
            let (lk, lv) = kv.layer(1).unwrap();
            let mut row = vec![0.0; 12];
            lk.read_row(12, 5, &mut row);
            assert_eq!(row, k[..12]);
            lv.read_row(12, 2, &mut row);
            assert_eq!(row, v[12..]);
            let (k0, _) = kv.layer(0).unwrap();
            k0.read_row(12, 5, &mut row);
            assert!(row.iter().all(|&x| x == 0.0), "other layers untouched");
        }
    }

    #[test]
    fn export_then_import_elsewhere_is_bitwise_in_every_dtype() {
        for dtype in [KvDtype::F32, KvDtype::F16, KvDtype::Bf16] {
            let mut kv = KvStorage::new(layout(dtype), 10).unwrap();
            for layer in 0..2 {
                let k: Vec<f32> = (0..36)
                    .map(|i| (i as f32 + 0.1) * (layer + 1) as f32)
                    .collect();
                let v: Vec<f32> = (0..36).map(|i| -(i as f32) / 3.0 - layer as f32).collect();
                kv.set_kv(layer, &[2, 3, 4], &k, &v).unwrap();
            }
            let mut bytes = Vec::new();
            kv.export_slots(&[2, 3, 4], &mut bytes).unwrap();
            assert_eq!(bytes.len(), 3 * kv.bytes_per_token());
            kv.import_slots(&[7, 8, 9], &bytes).unwrap();
            let mut a = vec![0.0; 12];
            let mut b = vec![0.0; 12];
            for layer in 0..2 {
                let (k, v) = kv.layer(layer).unwrap();
                for (from, to) in [(2, 7), (3, 8), (4, 9)] {
                    for buf in [k, v] {
                        buf.read_row(12, from, &mut a);
                        buf.read_row(12, to, &mut b);
                        let bits = |x: &[f32]| x.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                        assert_eq!(bits(&a), bits(&b), "{dtype:?} layer {layer}");
                    }
                }
            }
            assert!(kv.import_slots(&[7], &bytes).is_err(), "size is checked");
            assert!(
                kv.export_slots(&[10], &mut bytes).is_err(),
                "slots are checked"
            );
        }
    }

    #[test]
    fn layers_with_other_rows_hold_and_move_rows_of_their_own_width() {
        let wide = KvLayout {
            other_rows: OtherRows::new([1], 20),
            ..layout(KvDtype::F32)
        };
        assert!(!wide.is_uniform());
        assert_eq!((wide.row_len_of(0), wide.row_len_of(1)), (12, 20));
        assert_eq!(wide.bytes_per_token(), (2 * 12 + 2 * 20) * 4);
        assert_eq!(OtherRows::new([OtherRows::MAX_LAYER + 1], 4), None);
        let mut kv = KvStorage::new(wide, 6).unwrap();
        let k1: Vec<f32> = (0..40).map(|i| i as f32 * 0.5).collect();
        let v1: Vec<f32> = (0..40).map(|i| -(i as f32)).collect();
        assert!(
            kv.set_kv(1, &[0, 3], &k1[..24], &v1[..24]).is_err(),
            "a wide layer takes wide rows"
        );
        kv.set_kv(1, &[0, 3], &k1, &v1).unwrap();
        kv.set_kv(0, &[3], &k1[..12], &v1[..12]).unwrap();
        let mut bytes = Vec::new();
        kv.export_slots(&[3], &mut bytes).unwrap();
        assert_eq!(bytes.len(), wide.bytes_per_token());
        kv.import_slots(&[5], &bytes).unwrap();
        let mut row = vec![0.0; 20];
        let (k, v) = kv.layer(1).unwrap();
        k.read_row(20, 5, &mut row);
        assert_eq!(row, k1[20..]);
        v.read_row(20, 5, &mut row);
        assert_eq!(row, v1[20..]);
        let (k, _) = kv.layer(0).unwrap();
        k.read_row(12, 5, &mut row[..12]);
        assert_eq!(row[..12], k1[..12]);
    }

    #[test]
    fn values_read_from_the_keys_take_no_buffer_of_their_own() {
        let latent = KvLayout {
            values_in_keys: true,
            ..layout(KvDtype::F16)
        };
        assert_eq!(latent.bytes_per_token(), 2 * 12 * 2, "K rows only");
        assert_eq!(latent.slots_for_budget(48 * 10, 1), 10);
        let mut kv = KvStorage::new(latent, 6).unwrap();
        let k: Vec<f32> = (0..24).map(|i| i as f32 - 7.5).collect();
        assert!(
            matches!(
                kv.set_kv(0, &[1, 4], &k, &k),
                Err(PoolError::KvShape {
                    got: 24,
                    expected: 0
                })
            ),
            "values are not stored apart"
        );
        kv.set_kv(0, &[1, 4], &k, &[]).unwrap();
        let (lk, lv) = kv.layer(0).unwrap();
        assert!(
            std::ptr::eq(lk, lv),
            "attention reads the values from the keys"
        );
        let mut bytes = Vec::new();
        kv.export_slots(&[1, 4], &mut bytes).unwrap();
        assert_eq!(bytes.len(), 2 * kv.bytes_per_token());
        kv.import_slots(&[5, 0], &bytes).unwrap();
        let mut row = vec![0.0; 12];
        kv.layer(0).unwrap().0.read_row(12, 0, &mut row);
        assert_eq!(row, k[12..], "f16 holds these values exactly");
    }

    #[test]
    fn set_kv_rejects_bad_shapes_and_slots() {
        let mut kv = KvStorage::new(layout(KvDtype::F32), 8).unwrap();
        let k = vec![0.0; 12];
        assert!(matches!(
            kv.set_kv(0, &[1, 2], &k, &k),
            Err(PoolError::KvShape { .. })
        ));
        assert!(matches!(
            kv.set_kv(0, &[8], &k, &k),
            Err(PoolError::SlotOutOfRange { .. })
        ));
        assert!(kv.set_kv(2, &[1], &k, &k).is_err());
    }
}
