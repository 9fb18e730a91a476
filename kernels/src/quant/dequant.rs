//! `dequantize`: any supported ggml type to f32, with length checks.

use super::{float, kquants, legacy, mxfp4, GgmlType};
use crate::KernelError;

/// Dequantizes `out.len()` elements of type `ty` from `bytes` (a whole number of blocks).
///
/// Results are bit-identical to ggml's `dequantize_row_*` (compiled without floating-point
/// contraction). Supported: F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K, Q5_K, Q6_K,
/// MXFP4.
pub fn dequantize(ty: GgmlType, bytes: &[u8], out: &mut [f32]) -> Result<(), KernelError> {
    let run: fn(&[u8], &mut [f32]) = match ty {
        GgmlType::F32 => float::dequantize_f32,
        GgmlType::F16 => float::dequantize_f16,
        GgmlType::Bf16 => float::dequantize_bf16,
        GgmlType::Q4_0 => legacy::dequantize_q4_0,
        GgmlType::Q4_1 => legacy::dequantize_q4_1,
        GgmlType::Q5_0 => legacy::dequantize_q5_0,
        GgmlType::Q5_1 => legacy::dequantize_q5_1,
        GgmlType::Q8_0 => legacy::dequantize_q8_0,
        GgmlType::Q4K => kquants::dequantize_q4_k,
        GgmlType::Q5K => kquants::dequantize_q5_k,
        GgmlType::Q6K => kquants::dequantize_q6_k,
        GgmlType::Mxfp4 => mxfp4::dequantize_mxfp4,
        other => return Err(KernelError::UnsupportedType(other.name())),
    };
    check_len(ty, bytes.len(), out.len())?;
    run(bytes, out);
    Ok(())
}

/// Checks that `n_bytes` holds exactly `elements` values of type `ty`.
pub(crate) fn check_len(ty: GgmlType, n_bytes: usize, elements: usize) -> Result<(), KernelError> {
    let expected = ty.row_bytes(elements as u64).ok_or_else(|| {
        KernelError::Shape(format!(
            "{} elements is not a whole number of {} blocks of {}",
            elements,
            ty.name(),
            ty.block_size()
        ))
    })?;
    if expected != n_bytes as u64 {
        return Err(KernelError::Shape(format!(
            "{} elements of {} take {} bytes, got {}",
            elements,
            ty.name(),
            expected,
            n_bytes
        )));
    }
    Ok(())
}
