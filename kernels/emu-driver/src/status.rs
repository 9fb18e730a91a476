//! The result codes the emulated driver and cuBLAS return (values of `CUresult` and
//! `cublasStatus_t`), with the names `cuGetErrorName` reports.

pub(crate) type CuResult = i32;

pub(crate) const CUDA_SUCCESS: CuResult = 0;
pub(crate) const CUDA_ERROR_INVALID_VALUE: CuResult = 1;
pub(crate) const CUDA_ERROR_OUT_OF_MEMORY: CuResult = 2;
pub(crate) const CUDA_ERROR_INVALID_DEVICE: CuResult = 101;
pub(crate) const CUDA_ERROR_INVALID_IMAGE: CuResult = 200;
pub(crate) const CUDA_ERROR_INVALID_HANDLE: CuResult = 400;
pub(crate) const CUDA_ERROR_NOT_FOUND: CuResult = 500;
pub(crate) const CUDA_ERROR_ILLEGAL_ADDRESS: CuResult = 700;
pub(crate) const CUDA_ERROR_LAUNCH_FAILED: CuResult = 719;
pub(crate) const CUDA_ERROR_NOT_SUPPORTED: CuResult = 801;
pub(crate) const CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: CuResult = 900;
pub(crate) const CUDA_ERROR_STREAM_CAPTURE_INVALIDATED: CuResult = 901;
pub(crate) const CUDA_ERROR_STREAM_CAPTURE_UNMATCHED: CuResult = 903;

/// `cuGetErrorName`'s answer, NUL-terminated.
pub(crate) fn error_name(code: CuResult) -> Option<&'static [u8]> {
    Some(match code {
        CUDA_SUCCESS => b"CUDA_SUCCESS\0",
        CUDA_ERROR_INVALID_VALUE => b"CUDA_ERROR_INVALID_VALUE\0",
        CUDA_ERROR_OUT_OF_MEMORY => b"CUDA_ERROR_OUT_OF_MEMORY\0",
        CUDA_ERROR_INVALID_DEVICE => b"CUDA_ERROR_INVALID_DEVICE\0",
        CUDA_ERROR_INVALID_IMAGE => b"CUDA_ERROR_INVALID_IMAGE\0",
        CUDA_ERROR_INVALID_HANDLE => b"CUDA_ERROR_INVALID_HANDLE\0",
        CUDA_ERROR_NOT_FOUND => b"CUDA_ERROR_NOT_FOUND\0",
        CUDA_ERROR_ILLEGAL_ADDRESS => b"CUDA_ERROR_ILLEGAL_ADDRESS\0",
        CUDA_ERROR_LAUNCH_FAILED => b"CUDA_ERROR_LAUNCH_FAILED\0",
        CUDA_ERROR_NOT_SUPPORTED => b"CUDA_ERROR_NOT_SUPPORTED\0",
        CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED => b"CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED\0",
        CUDA_ERROR_STREAM_CAPTURE_INVALIDATED => b"CUDA_ERROR_STREAM_CAPTURE_INVALIDATED\0",
        CUDA_ERROR_STREAM_CAPTURE_UNMATCHED => b"CUDA_ERROR_STREAM_CAPTURE_UNMATCHED\0",
        _ => return None,
    })
}

/// Writes an out-parameter; a null one is an invalid value.
///
/// # Safety
/// `out` is null or writable.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) -> CuResult {
    if out.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    unsafe { out.write(value) };
    CUDA_SUCCESS
}

pub(crate) type BlasStatus = i32;

pub(crate) const CUBLAS_STATUS_SUCCESS: BlasStatus = 0;
pub(crate) const CUBLAS_STATUS_NOT_INITIALIZED: BlasStatus = 1;
pub(crate) const CUBLAS_STATUS_INVALID_VALUE: BlasStatus = 7;
pub(crate) const CUBLAS_STATUS_EXECUTION_FAILED: BlasStatus = 13;
pub(crate) const CUBLAS_STATUS_NOT_SUPPORTED: BlasStatus = 15;
