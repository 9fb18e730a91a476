//! Attention metadata in FlashInfer's CSR layout, gathered from `req_to_token` (SGLang's
//! `create_flashinfer_kv_indices_triton`). The per-request body is a separate function so the
//! CUDA kernel's one-block-per-request mapping can be checked against it on the CPU.

use crate::KernelError;
use pools::SlotId;

/// Per-request inputs: which `req_to_token` row, how many KV entries, from which offset.
#[derive(Clone, Copy, Debug)]
pub struct KvGather<'a> {
    pub req_to_token: &'a [SlotId],
    /// Row length of `req_to_token` (its `max_context_len`).
    pub row_stride: usize,
    pub req_pool_indices: &'a [u32],
    pub kv_lens: &'a [u32],
    /// Optional start offset inside each row (0 when absent).
    pub kv_start: Option<&'a [u32]>,
}

/// Fills `kv_indptr` (`[batch + 1]` prefix sums of `kv_lens`) and `kv_indices` (the slots).
pub fn create_kv_indices(
    g: &KvGather<'_>,
    kv_indptr: &mut Vec<u32>,
    kv_indices: &mut Vec<SlotId>,
) -> Result<(), KernelError> {
    let batch = g.req_pool_indices.len();
    if g.kv_lens.len() != batch || g.kv_start.is_some_and(|s| s.len() != batch) {
        return Err(KernelError::Shape(format!(
            "create_kv_indices: {batch} rows, {} lengths",
            g.kv_lens.len()
        )));
    }
    kv_indptr.clear();
    kv_indptr.push(0);
    let mut total = 0u32;
    for &len in g.kv_lens {
        total = total
            .checked_add(len)
            .ok_or_else(|| KernelError::Shape("kv_indptr overflows u32".into()))?;
        kv_indptr.push(total);
    }
    kv_indices.clear();
    kv_indices.resize(total as usize, 0);
    for b in 0..batch {
        let (lo, hi) = (kv_indptr[b] as usize, kv_indptr[b + 1] as usize);
        gather_one(g, b, &mut kv_indices[lo..hi])?;
    }
    Ok(())
}

/// The body one CUDA block runs for request `b`: copy its row segment to `out`.
pub fn gather_one(g: &KvGather<'_>, b: usize, out: &mut [SlotId]) -> Result<(), KernelError> {
    let start = g.kv_start.map_or(0, |s| s[b] as usize);
    let row = g.req_pool_indices[b] as usize;
    let end = start + out.len();
    if end > g.row_stride {
        return Err(KernelError::Shape(format!(
            "request {b}: KV range {start}..{end} exceeds the row length {}",
            g.row_stride
        )));
    }
    let base = row * g.row_stride;
    let src = g
        .req_to_token
        .get(base + start..base + end)
        .ok_or_else(|| KernelError::Shape(format!("request {b}: row {row} out of range")))?;
    out.copy_from_slice(src);
    Ok(())
}

/// `req_to_token[cells[i]] = slots[i]`: the batched table update the device mirror of
/// `req_to_token` gets each step (the CUDA kernel runs one thread per pair). Cells are flat
/// indices (`row * row_stride + column`); one past the table is an error here, and the
/// kernel skips it.
pub fn write_req_to_token(
    req_to_token: &mut [SlotId],
    cells: &[u64],
    slots: &[SlotId],
) -> Result<(), KernelError> {
    if cells.len() != slots.len() {
        return Err(KernelError::Shape(format!(
            "write_req_to_token: {} cells, {} slots",
            cells.len(),
            slots.len()
        )));
    }
    let len = req_to_token.len();
    if let Some(&bad) = cells.iter().find(|&&c| c >= len as u64) {
        return Err(KernelError::Shape(format!(
            "write_req_to_token: cell {bad} outside the table of {len}"
        )));
    }
    for (&cell, &slot) in cells.iter().zip(slots) {
        req_to_token[cell as usize] = slot;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_req_to_token_scatters_pairs_and_rejects_cells_past_the_table() {
        let mut table = vec![0; 8];
        write_req_to_token(&mut table, &[5, 0, 7], &[50, 10, 70]).unwrap();
        assert_eq!(table, [10, 0, 0, 0, 0, 50, 0, 70]);
        assert!(write_req_to_token(&mut table, &[8], &[1]).is_err());
        assert!(write_req_to_token(&mut table, &[1, 2], &[1]).is_err());
        assert_eq!(table, [10, 0, 0, 0, 0, 50, 0, 70]);
    }

    #[test]
    fn gathers_rows_into_csr() {
        // 3 rows of 4.
        let table = [10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33];
        let g = KvGather {
            req_to_token: &table,
            row_stride: 4,
            req_pool_indices: &[2, 0],
            kv_lens: &[3, 1],
            kv_start: Some(&[1, 0]),
        };
        let (mut indptr, mut indices) = (Vec::new(), Vec::new());
        create_kv_indices(&g, &mut indptr, &mut indices).unwrap();
        assert_eq!(indptr, vec![0, 3, 4]);
        assert_eq!(indices, vec![31, 32, 33, 10]);
        let bad = KvGather {
            kv_lens: &[4, 1],
            ..g
        };
        assert!(create_kv_indices(&bad, &mut indptr, &mut indices).is_err());
    }
}
