//! The cuBLAS entry points the engine calls: a handle bound to a stream, its workspace, and
//! `cublasGemmEx` with f32 compute, enqueued on the handle's stream like any launch (so it is
//! recorded into a graph during a capture).

use crate::gemm::{gemm, DataType, GemmShape, Operand, Output};
use crate::memory::DEVICE;
use crate::status::{
    BlasStatus, CUBLAS_STATUS_EXECUTION_FAILED, CUBLAS_STATUS_INVALID_VALUE,
    CUBLAS_STATUS_NOT_INITIALIZED, CUBLAS_STATUS_NOT_SUPPORTED, CUBLAS_STATUS_SUCCESS,
    CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_SUCCESS,
};
use crate::stream::stream_of;
use parking_lot::Mutex;
use std::ffi::c_void;
use std::sync::Arc;

/// A `cublasHandle_t`: its handle is a pointer to this.
struct Handle {
    stream: Mutex<usize>,
}

/// `cublasComputeType_t` values with f32 accumulation (plain, pedantic, and the fast modes,
/// which may only be more exact here).
const COMPUTE_32F: [i32; 5] = [68, 69, 74, 75, 77];

/// `cublasOperation_t`: N, T (C is T for real types).
fn transposed(op: i32) -> Option<bool> {
    match op {
        0 => Some(false),
        1 | 2 => Some(true),
        _ => None,
    }
}

/// # Safety
/// `handle` is writable.
#[no_mangle]
pub unsafe extern "C" fn cublasCreate_v2(handle: *mut *mut c_void) -> BlasStatus {
    if handle.is_null() {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    let created = Box::new(Handle {
        stream: Mutex::new(0),
    });
    // SAFETY: the caller's contract.
    unsafe { *handle = Box::into_raw(created).cast() };
    CUBLAS_STATUS_SUCCESS
}

/// # Safety
/// `handle` came from `cublasCreate_v2` and is destroyed once.
#[no_mangle]
pub unsafe extern "C" fn cublasDestroy_v2(handle: *mut c_void) -> BlasStatus {
    if handle.is_null() {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    // SAFETY: the caller's contract.
    drop(unsafe { Box::from_raw(handle.cast::<Handle>()) });
    CUBLAS_STATUS_SUCCESS
}

/// # Safety
/// `handle` is live; `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cublasSetStream_v2(
    handle: *mut c_void,
    stream: *mut c_void,
) -> BlasStatus {
    // SAFETY: the caller's contract.
    let Some(handle) = (unsafe { handle.cast::<Handle>().as_ref() }) else {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    };
    *handle.stream.lock() = stream as usize;
    CUBLAS_STATUS_SUCCESS
}

/// The workspace must be device memory; the host GEMM needs none.
///
/// # Safety
/// `handle` is live.
#[no_mangle]
pub unsafe extern "C" fn cublasSetWorkspace_v2(
    handle: *mut c_void,
    workspace: *mut c_void,
    bytes: usize,
) -> BlasStatus {
    if handle.is_null() {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    if bytes > 0 && !DEVICE.contains(workspace as usize, bytes) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    CUBLAS_STATUS_SUCCESS
}

/// # Safety
/// `handle` is live.
#[no_mangle]
pub unsafe extern "C" fn cublasSetMathMode(handle: *mut c_void, _mode: i32) -> BlasStatus {
    if handle.is_null() {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    CUBLAS_STATUS_SUCCESS
}

/// `C = alpha op(A) op(B) + beta C` with f32 compute, alpha and beta host f32 values.
/// Every operand must lie inside one device allocation, checked before it is enqueued.
///
/// # Safety
/// `handle` is live; `alpha` and `beta` point to f32 values; A, B and C are device addresses.
#[no_mangle]
pub unsafe extern "C" fn cublasGemmEx(
    handle: *mut c_void,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const c_void,
    a: *const c_void,
    a_type: i32,
    lda: i32,
    b: *const c_void,
    b_type: i32,
    ldb: i32,
    beta: *const c_void,
    c: *mut c_void,
    c_type: i32,
    ldc: i32,
    compute_type: i32,
    _algo: i32,
) -> BlasStatus {
    // SAFETY: the caller's contract.
    let Some(handle) = (unsafe { handle.cast::<Handle>().as_ref() }) else {
        return CUBLAS_STATUS_NOT_INITIALIZED;
    };
    if !COMPUTE_32F.contains(&compute_type) || alpha.is_null() || beta.is_null() {
        return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    let (Some(a_t), Some(b_t)) = (transposed(transa), transposed(transb)) else {
        return CUBLAS_STATUS_INVALID_VALUE;
    };
    let (Some(a_type), Some(b_type), Some(c_type)) = (
        DataType::from_cuda(a_type),
        DataType::from_cuda(b_type),
        DataType::from_cuda(c_type),
    ) else {
        return CUBLAS_STATUS_NOT_SUPPORTED;
    };
    // cuBLAS's GemmEx combinations with f32 compute: A and B of one type, C of that type or
    // f32.
    if a_type != b_type || (c_type != a_type && c_type != DataType::F32) {
        return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    let dims = [m, n, k, lda, ldb, ldc].map(usize::try_from);
    let [Ok(m), Ok(n), Ok(k), Ok(lda), Ok(ldb), Ok(ldc)] = dims else {
        return CUBLAS_STATUS_INVALID_VALUE;
    };
    // cuBLAS's own checks: each leading dimension covers its stored rows.
    let a_rows = if a_t { k } else { m };
    let b_rows = if b_t { n } else { k };
    if lda < a_rows.max(1) || ldb < b_rows.max(1) || ldc < m.max(1) {
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    let a_op = Operand {
        ptr: a as usize,
        dtype: a_type,
        transposed: a_t,
        ld: lda,
    };
    let b_op = Operand {
        ptr: b as usize,
        dtype: b_type,
        transposed: b_t,
        ld: ldb,
    };
    let c_out = Output {
        ptr: c as usize,
        dtype: c_type,
        ld: ldc,
    };
    let c_extent = if m == 0 || n == 0 {
        0
    } else {
        ldc * (n - 1) + m
    };
    let operands = [
        (a_op.ptr, a_op.extent(m, k) * a_type.size()),
        (b_op.ptr, b_op.extent(k, n) * b_type.size()),
        (c_out.ptr, c_extent * c_type.size()),
    ];
    if operands
        .iter()
        .any(|&(ptr, bytes)| bytes > 0 && !DEVICE.contains(ptr, bytes))
    {
        eprintln!("cuda-emu-driver: cublasGemmEx reads or writes outside device memory");
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    // SAFETY: the caller's contract: host f32 scalars, read now as cuBLAS does.
    let (alpha, beta) = unsafe { (*(alpha as *const f32), *(beta as *const f32)) };
    let shape = GemmShape { m, n, k };
    let stream = *handle.stream.lock();
    // SAFETY: the handle's stream is live while the handle uses it.
    let stream = unsafe { stream_of(stream as *mut c_void) };
    let code = stream.enqueue(Arc::new(move || {
        // Checked again when it runs: a graph may be replayed after a buffer was freed.
        if operands
            .iter()
            .any(|&(ptr, bytes)| bytes > 0 && !DEVICE.contains(ptr, bytes))
        {
            eprintln!("cuda-emu-driver: a queued GEMM uses memory no longer allocated");
            return Err(CUDA_ERROR_ILLEGAL_ADDRESS);
        }
        // SAFETY: every operand lies inside a live device allocation (checked just now).
        unsafe { gemm(shape, alpha, a_op, b_op, beta, c_out) };
        Ok(())
    }));
    if code == CUDA_SUCCESS {
        CUBLAS_STATUS_SUCCESS
    } else {
        CUBLAS_STATUS_EXECUTION_FAILED
    }
}
