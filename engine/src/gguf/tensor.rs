//! The tensor directory: one [`TensorInfo`] per tensor, and [`TensorView`], a tensor's raw
//! bytes borrowed from the file.

use kernels::quant::GgmlType;

use super::error::GgufError;
use super::reader::Reader;

/// ggml tensors have at most 4 dimensions.
pub const MAX_DIMS: u32 = 4;

/// Smallest encoding of a tensor info: empty name, n_dims, type, offset.
pub(crate) const MIN_TENSOR_INFO_BYTES: u64 = 8 + 4 + 4 + 8;

/// One entry of the tensor directory, validated against the file when it was opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    pub name: String,
    /// Dimensions as ggml orders them: `dims[0]` is the contiguous (row) dimension.
    pub dims: Vec<u64>,
    pub ggml_type: GgmlType,
    /// Byte offset of the data, relative to the start of the data section.
    pub offset: u64,
    /// Bytes of data: whole blocks of `ggml_type` for every row.
    pub n_bytes: u64,
    /// Elements, the product of `dims` (1 for a 0-dimensional tensor).
    pub n_elements: u64,
}

/// A tensor's metadata and its raw (possibly quantized) bytes, borrowed from the file.
#[derive(Clone, Copy, Debug)]
pub struct TensorView<'a> {
    info: &'a TensorInfo,
    data: &'a [u8],
}

impl<'a> TensorView<'a> {
    pub(crate) fn new(info: &'a TensorInfo, data: &'a [u8]) -> Self {
        TensorView { info, data }
    }

    pub fn info(&self) -> &'a TensorInfo {
        self.info
    }

    pub fn name(&self) -> &'a str {
        &self.info.name
    }

    pub fn dims(&self) -> &'a [u64] {
        &self.info.dims
    }

    pub fn ggml_type(&self) -> GgmlType {
        self.info.ggml_type
    }

    pub fn n_elements(&self) -> u64 {
        self.info.n_elements
    }

    /// The raw bytes, exactly `n_bytes` long. Their address is aligned as the file's data
    /// section is (memory maps start on a page), not necessarily to the element type.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }
}

/// Reads tensor info number `index`: name, n_dims, dims, type id, offset; checks the shape
/// and computes the byte size (bounds and alignment are checked by the caller, which knows
/// where the data section starts).
pub(crate) fn read_tensor_info(
    reader: &mut Reader<'_>,
    index: usize,
) -> Result<TensorInfo, GgufError> {
    let name = reader.string(&format!("name of tensor {index}"))?;
    let what = format!("tensor {index} ({name:?})");
    let n_dims = reader.u32(&what)?;
    if n_dims > MAX_DIMS {
        return Err(GgufError::TooManyDims {
            index,
            name,
            n_dims,
            max: MAX_DIMS,
        });
    }
    let mut dims = Vec::with_capacity(n_dims as usize);
    for _ in 0..n_dims {
        dims.push(reader.u64(&what)?);
    }
    let type_id = reader.u32(&what)?;
    let offset = reader.u64(&what)?;
    let Some(ggml_type) = GgmlType::from_id(type_id) else {
        return Err(GgufError::UnknownTensorType {
            index,
            name,
            type_id,
        });
    };
    let bad_shape = |reason: String| GgufError::BadShape {
        index,
        name: name.clone(),
        dims: dims.clone(),
        reason,
    };
    let n_elements = element_count(&dims).map_err(bad_shape)?;
    let n_bytes = byte_size(ggml_type, &dims).map_err(bad_shape)?;
    Ok(TensorInfo {
        name,
        dims,
        ggml_type,
        offset,
        n_bytes,
        n_elements,
    })
}

/// The product of `dims`; ggml stores dimensions and counts as i64, so they must fit there.
fn element_count(dims: &[u64]) -> Result<u64, String> {
    let limit = i64::MAX as u64;
    if let Some(dim) = dims.iter().find(|&&d| d > limit) {
        return Err(format!("dimension {dim} exceeds {limit}"));
    }
    dims.iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d).filter(|&n| n <= limit))
        .ok_or_else(|| format!("element count overflows {limit}"))
}

/// Bytes of a tensor: whole blocks along `dims[0]`, times the other dimensions.
fn byte_size(ggml_type: GgmlType, dims: &[u64]) -> Result<u64, String> {
    let row_len = dims.first().copied().unwrap_or(1);
    let block = ggml_type.block_size() as u64;
    if row_len % block != 0 {
        return Err(format!(
            "first dimension {row_len} is not a multiple of the {} block size {block}",
            ggml_type.name()
        ));
    }
    let row_bytes = ggml_type
        .row_bytes(row_len)
        .ok_or_else(|| "row byte size overflows u64".to_owned())?;
    dims.iter()
        .skip(1)
        .try_fold(row_bytes, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| "byte size overflows u64".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes_follow_blocks() {
        assert_eq!(byte_size(GgmlType::F32, &[3, 2]), Ok(24));
        assert_eq!(byte_size(GgmlType::Q4_1, &[64, 3]), Ok(2 * 20 * 3));
        assert_eq!(byte_size(GgmlType::F16, &[]), Ok(2));
        assert!(byte_size(GgmlType::Q8_0, &[33, 1]).is_err());
        assert!(byte_size(GgmlType::F32, &[1 << 62, 1 << 62]).is_err());
    }

    #[test]
    fn element_counts_fit_i64() {
        assert_eq!(element_count(&[]), Ok(1));
        assert_eq!(element_count(&[4, 0, u32::MAX as u64]), Ok(0));
        assert!(element_count(&[u64::MAX, 0]).is_err());
        assert!(element_count(&[1 << 32, 1 << 32]).is_err());
    }
}
