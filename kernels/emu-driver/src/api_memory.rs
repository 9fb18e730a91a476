//! Allocation, fills and copies. Device ranges are checked against live allocations when an
//! operation is enqueued, and again when it runs (a graph may be replayed after a buffer it
//! uses was freed). Host memory follows the driver's rules: a copy from pageable memory takes
//! the bytes before the call returns, a copy into pageable memory waits for everything before
//! it; copies from or to pinned memory (`cuMemHostAlloc`) are queued like launches. Inside a
//! capture only pinned memory may be copied, since a graph reads the host address on each
//! replay.

use crate::memory::{Allocations, DEVICE, PINNED};
use crate::status::{CuResult, CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_INVALID_VALUE, CUDA_SUCCESS};
use crate::stream::{refuse_during_capture, run_queued, stream_of, Stream};
use std::ffi::{c_uint, c_void};
use std::sync::Arc;

fn code(result: Result<(), CuResult>) -> CuResult {
    match result {
        Ok(()) => CUDA_SUCCESS,
        Err(code) => code,
    }
}

/// Whether a range is still allocated when a queued operation runs.
fn still_live(memory: &Allocations, ptr: usize, bytes: usize) -> Result<(), CuResult> {
    if memory.contains(ptr, bytes) {
        Ok(())
    } else {
        eprintln!("cuda-emu-driver: a queued operation uses {bytes} bytes at {ptr:#x}, no longer allocated");
        Err(CUDA_ERROR_ILLEGAL_ADDRESS)
    }
}

/// # Safety
/// `out` is writable.
unsafe fn allocate_into(out: *mut u64, bytes: usize) -> CuResult {
    if out.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if let Err(code) = refuse_during_capture() {
        return code;
    }
    match DEVICE.allocate(bytes) {
        Ok(ptr) => {
            // SAFETY: the caller's contract.
            unsafe { *out = ptr as u64 };
            CUDA_SUCCESS
        }
        Err(code) => code,
    }
}

/// A synchronous free: waits for the device first.
fn free(ptr: u64) -> CuResult {
    if ptr == 0 {
        return CUDA_SUCCESS;
    }
    code(
        refuse_during_capture()
            .and_then(|()| run_queued())
            .and_then(|()| DEVICE.free(ptr as usize)),
    )
}

/// # Safety
/// `ptr` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuMemAlloc_v2(ptr: *mut u64, bytes: usize) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { allocate_into(ptr, bytes) }
}

/// Stream-ordered allocation, made at once (earlier than the stream needs it). Refused on a
/// capturing stream, where a GPU would add an allocation node: stricter than CUDA, since the
/// engine's graphs must not allocate.
///
/// # Safety
/// `ptr` is writable; `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuMemAllocAsync(
    ptr: *mut u64,
    bytes: usize,
    stream: *mut c_void,
) -> CuResult {
    // SAFETY: the caller's contract.
    if let Err(code) = unsafe { stream_of(stream) }.refuse_if_capturing() {
        return code;
    }
    // SAFETY: the caller's contract.
    unsafe { allocate_into(ptr, bytes) }
}

#[no_mangle]
pub extern "C" fn cuMemFree_v2(ptr: u64) -> CuResult {
    free(ptr)
}

/// Stream-ordered: the memory stays valid for the operations queued before. Refused on a
/// capturing stream, as `cuMemAllocAsync`.
///
/// # Safety
/// `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuMemFreeAsync(ptr: u64, stream: *mut c_void) -> CuResult {
    if ptr == 0 {
        return CUDA_SUCCESS;
    }
    // SAFETY: the caller's contract.
    let stream = unsafe { stream_of(stream) };
    if let Err(code) = stream
        .refuse_if_capturing()
        .and_then(|()| refuse_during_capture())
    {
        return code;
    }
    if !DEVICE.contains(ptr as usize, 1) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    stream.enqueue(Arc::new(move || DEVICE.free(ptr as usize)))
}

/// # Safety
/// `ptr` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuMemHostAlloc(
    ptr: *mut *mut c_void,
    bytes: usize,
    _flags: c_uint,
) -> CuResult {
    if ptr.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if let Err(code) = refuse_during_capture() {
        return code;
    }
    match PINNED.allocate(bytes) {
        Ok(host) => {
            // SAFETY: the caller's contract.
            unsafe { *ptr = host as *mut c_void };
            CUDA_SUCCESS
        }
        Err(code) => code,
    }
}

/// # Safety
/// `ptr` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuMemAllocHost_v2(ptr: *mut *mut c_void, bytes: usize) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { cuMemHostAlloc(ptr, bytes, 0) }
}

#[no_mangle]
pub extern "C" fn cuMemFreeHost(ptr: *mut c_void) -> CuResult {
    code(
        refuse_during_capture()
            .and_then(|()| run_queued())
            .and_then(|()| PINNED.free(ptr as usize)),
    )
}

/// Enqueues a fill of `count` elements of `width` bytes with `value`'s low bytes.
fn fill(stream: &Stream, dst: u64, value: u32, width: usize, count: usize) -> CuResult {
    let Some(bytes) = count.checked_mul(width) else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    if let Err(code) = DEVICE.check(dst as usize, bytes) {
        return code;
    }
    stream.enqueue(Arc::new(move || {
        let base = dst as usize;
        still_live(&DEVICE, base, bytes)?;
        for i in 0..count {
            let at = base + i * width;
            // SAFETY: the range is a live allocation (checked just now).
            unsafe {
                match width {
                    1 => *(at as *mut u8) = value as u8,
                    2 => std::ptr::write_unaligned(at as *mut u16, value as u16),
                    _ => std::ptr::write_unaligned(at as *mut u32, value),
                }
            }
        }
        Ok(())
    }))
}

/// # Safety
/// `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuMemsetD8Async(
    dst: u64,
    value: u8,
    count: usize,
    stream: *mut c_void,
) -> CuResult {
    // SAFETY: the caller's contract.
    fill(unsafe { stream_of(stream) }, dst, value.into(), 1, count)
}

/// # Safety
/// `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuMemsetD32Async(
    dst: u64,
    value: u32,
    count: usize,
    stream: *mut c_void,
) -> CuResult {
    // SAFETY: the caller's contract.
    fill(unsafe { stream_of(stream) }, dst, value, 4, count)
}

#[no_mangle]
pub extern "C" fn cuMemsetD8_v2(dst: u64, value: u8, count: usize) -> CuResult {
    if let Err(code) = refuse_during_capture() {
        return code;
    }
    // SAFETY: the default stream's handle.
    let queued = fill(
        unsafe { stream_of(std::ptr::null_mut()) },
        dst,
        value.into(),
        1,
        count,
    );
    if queued != CUDA_SUCCESS {
        return queued;
    }
    code(run_queued())
}

/// Where one side of a copy lives, as decided when it is enqueued.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Device,
    /// Pinned host memory: checked again when the copy runs.
    Pinned,
    /// Pageable host memory: the caller's, alive until the copy runs (the copy functions
    /// wait or stage so that it is).
    Pageable,
}

impl Side {
    fn host(ptr: usize, bytes: usize) -> Self {
        if PINNED.contains(ptr, bytes) {
            Side::Pinned
        } else {
            Side::Pageable
        }
    }
}

/// A copy's host side: any memory outside a capture, pinned memory inside one.
fn check_host(stream: &Stream, host: usize, bytes: usize) -> Result<Side, CuResult> {
    if host == 0 && bytes > 0 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let side = Side::host(host, bytes);
    if stream.is_capturing() && side == Side::Pageable {
        eprintln!("cuda-emu-driver: a copy of pageable host memory inside a stream capture");
        stream.refuse_if_capturing()?;
    }
    Ok(side)
}

fn copy(stream: &Stream, dst: (usize, Side), src: (usize, Side), bytes: usize) -> CuResult {
    if bytes == 0 {
        return CUDA_SUCCESS;
    }
    stream.enqueue(Arc::new(move || {
        for (ptr, side) in [dst, src] {
            match side {
                Side::Device => still_live(&DEVICE, ptr, bytes)?,
                Side::Pinned => still_live(&PINNED, ptr, bytes)?,
                Side::Pageable => {}
            }
        }
        // SAFETY: device and pinned ranges are live (checked just now); a pageable one is the
        // caller's, alive until the copy runs.
        unsafe { std::ptr::copy(src.0 as *const u8, dst.0 as *mut u8, bytes) };
        Ok(())
    }))
}

/// # Safety
/// `src` holds `bytes` bytes; `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuMemcpyHtoDAsync_v2(
    dst: u64,
    src: *const c_void,
    bytes: usize,
    stream: *mut c_void,
) -> CuResult {
    // SAFETY: the caller's contract.
    let stream = unsafe { stream_of(stream) };
    let side = match DEVICE
        .check(dst as usize, bytes)
        .and_then(|()| check_host(stream, src as usize, bytes))
    {
        Ok(side) => side,
        Err(code) => return code,
    };
    let dst = dst as usize;
    if bytes == 0 || side == Side::Pinned {
        return copy(stream, (dst, Side::Device), (src as usize, side), bytes);
    }
    // Pageable memory: its bytes are taken now, so the caller may reuse it on return.
    // SAFETY: the caller's contract.
    let staged = unsafe { std::slice::from_raw_parts(src.cast::<u8>(), bytes) }.to_vec();
    stream.enqueue(Arc::new(move || {
        still_live(&DEVICE, dst, bytes)?;
        // SAFETY: the destination is a live device allocation of at least `bytes` bytes.
        unsafe { std::ptr::copy_nonoverlapping(staged.as_ptr(), dst as *mut u8, bytes) };
        Ok(())
    }))
}

/// # Safety
/// `dst` has room for `bytes` bytes; `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoHAsync_v2(
    dst: *mut c_void,
    src: u64,
    bytes: usize,
    stream: *mut c_void,
) -> CuResult {
    // SAFETY: the caller's contract.
    let stream = unsafe { stream_of(stream) };
    let side = match DEVICE
        .check(src as usize, bytes)
        .and_then(|()| check_host(stream, dst as usize, bytes))
    {
        Ok(side) => side,
        Err(code) => return code,
    };
    let queued = copy(
        stream,
        (dst as usize, side),
        (src as usize, Side::Device),
        bytes,
    );
    if queued != CUDA_SUCCESS || stream.is_capturing() || side == Side::Pinned {
        return queued;
    }
    // Pageable memory: the call returns once the copy is done.
    code(run_queued())
}

/// # Safety
/// `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoDAsync_v2(
    dst: u64,
    src: u64,
    bytes: usize,
    stream: *mut c_void,
) -> CuResult {
    // SAFETY: the caller's contract.
    let stream = unsafe { stream_of(stream) };
    match DEVICE
        .check(dst as usize, bytes)
        .and_then(|()| DEVICE.check(src as usize, bytes))
    {
        Ok(()) => copy(
            stream,
            (dst as usize, Side::Device),
            (src as usize, Side::Device),
            bytes,
        ),
        Err(code) => code,
    }
}

/// # Safety
/// `src` holds `bytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn cuMemcpyHtoD_v2(dst: u64, src: *const c_void, bytes: usize) -> CuResult {
    if let Err(code) = refuse_during_capture() {
        return code;
    }
    // SAFETY: the caller's contract; the default stream.
    let queued = unsafe { cuMemcpyHtoDAsync_v2(dst, src, bytes, std::ptr::null_mut()) };
    if queued != CUDA_SUCCESS {
        return queued;
    }
    code(run_queued())
}

/// # Safety
/// `dst` has room for `bytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoH_v2(dst: *mut c_void, src: u64, bytes: usize) -> CuResult {
    if let Err(code) = refuse_during_capture() {
        return code;
    }
    // SAFETY: the caller's contract; the default stream.
    let queued = unsafe { cuMemcpyDtoHAsync_v2(dst, src, bytes, std::ptr::null_mut()) };
    if queued != CUDA_SUCCESS {
        return queued;
    }
    code(run_queued())
}
