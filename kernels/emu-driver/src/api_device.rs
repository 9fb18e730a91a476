//! Initialization, the one device, its primary context and the error strings.

use crate::memory::{DEVICE, DEVICE_BYTES};
use crate::status::{
    error_name, write_out, CuResult, CUDA_ERROR_INVALID_DEVICE, CUDA_ERROR_INVALID_VALUE,
    CUDA_ERROR_NOT_SUPPORTED, CUDA_SUCCESS,
};
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_uint, c_void};

/// The primary context: one per process, as the device is one.
static PRIMARY_CONTEXT: u8 = 0;

thread_local! {
    static CURRENT: Cell<usize> = const { Cell::new(0) };
}

fn primary() -> *mut c_void {
    &PRIMARY_CONTEXT as *const u8 as *mut c_void
}

/// The device's attributes (`CUdevice_attribute`), those of an H100 where the emulator can
/// honour them; dynamic shared memory stays at the emulator's 48 KiB.
fn attribute(attrib: c_int) -> Option<c_int> {
    Some(match attrib {
        1 => 1024,      // MAX_THREADS_PER_BLOCK
        2 | 3 => 1024,  // MAX_BLOCK_DIM_X, Y
        4 => 64,        // MAX_BLOCK_DIM_Z
        5 => i32::MAX,  // MAX_GRID_DIM_X
        6 | 7 => 65535, // MAX_GRID_DIM_Y, Z
        8 => 48 << 10,  // MAX_SHARED_MEMORY_PER_BLOCK
        10 => 32,       // WARP_SIZE
        16 => 132,      // MULTIPROCESSOR_COUNT
        19 => 1,        // CAN_MAP_HOST_MEMORY
        41 => 1,        // UNIFIED_ADDRESSING
        75 => 9,        // COMPUTE_CAPABILITY_MAJOR
        76 => 0,        // COMPUTE_CAPABILITY_MINOR
        97 => 48 << 10, // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
        115 => 1,       // MEMORY_POOLS_SUPPORTED
        _ => return None,
    })
}

#[no_mangle]
pub extern "C" fn cuInit(flags: c_uint) -> CuResult {
    if flags != 0 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUDA_SUCCESS
}

/// # Safety
/// `version` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuDriverGetVersion(version: *mut c_int) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { write_out(version, 12080) }
}

/// # Safety
/// `count` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetCount(count: *mut c_int) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { write_out(count, 1) }
}

/// # Safety
/// `device` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(device: *mut c_int, ordinal: c_int) -> CuResult {
    if device.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if ordinal != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    // SAFETY: the caller's contract.
    unsafe { *device = 0 };
    CUDA_SUCCESS
}

/// # Safety
/// `name` has room for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, device: c_int) -> CuResult {
    const NAME: &[u8] = b"radixserve CUDA emulator (CPU, sm_90)\0";
    if device != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    let Ok(len) = usize::try_from(len) else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    if name.is_null() || len == 0 {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let n = NAME.len().min(len);
    // SAFETY: the caller's contract; the copy ends with a NUL.
    unsafe {
        std::ptr::copy_nonoverlapping(NAME.as_ptr(), name.cast::<u8>(), n);
        *name.add(n - 1) = 0;
    }
    CUDA_SUCCESS
}

/// # Safety
/// `bytes` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, device: c_int) -> CuResult {
    if device != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    // SAFETY: the caller's contract.
    unsafe { write_out(bytes, DEVICE_BYTES) }
}

/// # Safety
/// `free` and `total` are writable.
#[no_mangle]
pub unsafe extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CuResult {
    if free.is_null() || total.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    unsafe {
        *total = DEVICE_BYTES;
        *free = DEVICE_BYTES.saturating_sub(DEVICE.used());
    }
    CUDA_SUCCESS
}

/// An attribute the emulator does not model is refused rather than made up.
///
/// # Safety
/// `value` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetAttribute(
    value: *mut c_int,
    attrib: c_int,
    device: c_int,
) -> CuResult {
    if device != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    if value.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    match attribute(attrib) {
        Some(v) => {
            // SAFETY: the caller's contract.
            unsafe { *value = v };
            CUDA_SUCCESS
        }
        None => {
            eprintln!("cuda-emu-driver: device attribute {attrib} is not emulated");
            CUDA_ERROR_NOT_SUPPORTED
        }
    }
}

/// # Safety
/// `context` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(
    context: *mut *mut c_void,
    device: c_int,
) -> CuResult {
    if device != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    // SAFETY: the caller's contract.
    unsafe { write_out(context, primary()) }
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxRelease_v2(device: c_int) -> CuResult {
    if device != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    CUDA_SUCCESS
}

#[no_mangle]
pub extern "C" fn cuCtxSetCurrent(context: *mut c_void) -> CuResult {
    if !context.is_null() && context != primary() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    CURRENT.with(|current| current.set(context as usize));
    CUDA_SUCCESS
}

/// # Safety
/// `context` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetCurrent(context: *mut *mut c_void) -> CuResult {
    if context.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let current = CURRENT.with(|current| current.get());
    // SAFETY: the caller's contract.
    unsafe { *context = current as *mut c_void };
    CUDA_SUCCESS
}

/// # Safety
/// `device` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuCtxGetDevice(device: *mut c_int) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { write_out(device, 0) }
}

/// Runs everything enqueued (refused inside a capture, as any wait).
#[no_mangle]
pub extern "C" fn cuCtxSynchronize() -> CuResult {
    match crate::stream::refuse_during_capture().and_then(|()| crate::stream::run_queued()) {
        Ok(()) => CUDA_SUCCESS,
        Err(code) => code,
    }
}

/// # Safety
/// `name` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuGetErrorName(error: CuResult, name: *mut *const c_char) -> CuResult {
    if name.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let Some(text) = error_name(error) else {
        return CUDA_ERROR_INVALID_VALUE;
    };
    // SAFETY: the caller's contract; the text is static and NUL-terminated.
    unsafe { *name = text.as_ptr().cast() };
    CUDA_SUCCESS
}

/// The name doubles as the description.
///
/// # Safety
/// `text` is writable.
#[no_mangle]
pub unsafe extern "C" fn cuGetErrorString(error: CuResult, text: *mut *const c_char) -> CuResult {
    // SAFETY: the caller's contract.
    unsafe { cuGetErrorName(error, text) }
}
