//! Modules, functions and launches. NVRTC's output is kept only to answer which functions
//! a module declares; the functions themselves are the emulator's builds of the same
//! sources, found by name.

use crate::status::{
    CuResult, CUDA_ERROR_INVALID_HANDLE, CUDA_ERROR_INVALID_IMAGE, CUDA_ERROR_INVALID_VALUE,
    CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_NOT_FOUND, CUDA_ERROR_NOT_SUPPORTED, CUDA_SUCCESS,
};
use crate::stream::stream_of;
use cuda_emu::{EmuError, EntryPoint, Launch};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::Arc;

/// A `CUmodule`: the image as loaded.
struct Module {
    image: Vec<u8>,
}

/// The emulator's dynamic shared memory per block.
const SHARED_BYTES: u32 = 48 << 10;

/// Images larger than this are refused rather than trusted (ours are well under 1 MiB).
const MAX_IMAGE_BYTES: u64 = 256 << 20;

/// The bytes of a module image: NUL-terminated PTX text, or a CUBIN (ELF64) whose length is
/// the furthest end of its header tables and of its sections' contents.
///
/// # Safety
/// `image` is a whole CUBIN or a NUL-terminated PTX text.
unsafe fn image_bytes(image: *const u8) -> Option<Vec<u8>> {
    const MAGIC: &[u8; 4] = b"\x7fELF";
    // Byte by byte: a PTX text shorter than the magic ends (at its NUL) before a mismatch.
    // SAFETY: each byte read is before the first mismatch, so inside either form.
    let is_elf = MAGIC
        .iter()
        .enumerate()
        .all(|(i, &b)| unsafe { *image.add(i) } == b);
    if !is_elf {
        // SAFETY: the caller's contract: PTX text ends with a NUL.
        let text = unsafe { CStr::from_ptr(image.cast::<c_char>()) };
        return Some(text.to_bytes().to_vec());
    }
    // SAFETY: an ELF64 header is 64 bytes.
    let header = unsafe { std::slice::from_raw_parts(image, 64) };
    if header[4] != 2 {
        return None;
    }
    let field = |bytes: &[u8], at: usize, width: usize| -> u64 {
        bytes[at..at + width]
            .iter()
            .rev()
            .fold(0u64, |v, &b| (v << 8) | u64::from(b))
    };
    let table_end = |offset: u64, size: u64, count: u64| {
        size.checked_mul(count).and_then(|n| n.checked_add(offset))
    };
    let (shoff, shentsize, shnum) = (
        field(header, 0x28, 8),
        field(header, 0x3a, 2),
        field(header, 0x3c, 2),
    );
    let program_end = table_end(
        field(header, 0x20, 8),
        field(header, 0x36, 2),
        field(header, 0x38, 2),
    )?;
    let section_table_end = table_end(shoff, shentsize, shnum)?;
    let mut len = program_end.max(section_table_end).max(64);
    if len > MAX_IMAGE_BYTES || (shnum > 0 && shentsize < 0x28) {
        return None;
    }
    for i in 0..shnum {
        let at = usize::try_from(shoff + i * shentsize).ok()?;
        // SAFETY: the section header table lies inside the image (its end is within `len`).
        let entry = unsafe { std::slice::from_raw_parts(image.add(at), 0x28) };
        const NOBITS: u64 = 8;
        if field(entry, 4, 4) != NOBITS {
            len = len.max(field(entry, 0x18, 8).checked_add(field(entry, 0x20, 8))?);
        }
    }
    if len > MAX_IMAGE_BYTES {
        return None;
    }
    // SAFETY: the caller's contract: the tables and section contents lie inside the image.
    Some(unsafe { std::slice::from_raw_parts(image, usize::try_from(len).ok()?) }.to_vec())
}

/// Whether `name` appears in the image as a whole identifier (a symbol of the CUBIN's string
/// table, or a `.entry` of the PTX).
fn declares(image: &[u8], name: &[u8]) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    image.windows(name.len()).enumerate().any(|(at, window)| {
        window == name
            && (at == 0 || !ident(image[at - 1]))
            && image.get(at + name.len()).is_none_or(|&b| !ident(b))
    })
}

/// # Safety
/// `module` is writable; `image` is a CUBIN or NUL-terminated PTX.
#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadData(
    module: *mut *mut c_void,
    image: *const c_void,
) -> CuResult {
    if module.is_null() || image.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    let Some(image) = (unsafe { image_bytes(image.cast()) }) else {
        return CUDA_ERROR_INVALID_IMAGE;
    };
    // SAFETY: the caller's contract.
    unsafe { *module = Box::into_raw(Box::new(Module { image })).cast() };
    CUDA_SUCCESS
}

/// # Safety
/// `module` came from `cuModuleLoadData` and is unloaded once.
#[no_mangle]
pub unsafe extern "C" fn cuModuleUnload(module: *mut c_void) -> CuResult {
    if module.is_null() {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    // SAFETY: the caller's contract.
    drop(unsafe { Box::from_raw(module.cast::<Module>()) });
    CUDA_SUCCESS
}

/// A function the module declares and the emulator built; else `CUDA_ERROR_NOT_FOUND`.
///
/// # Safety
/// `function` is writable; `module` is live; `name` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn cuModuleGetFunction(
    function: *mut *mut c_void,
    module: *mut c_void,
    name: *const c_char,
) -> CuResult {
    if function.is_null() || name.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    let Some(module) = (unsafe { module.cast::<Module>().as_ref() }) else {
        return CUDA_ERROR_INVALID_HANDLE;
    };
    // SAFETY: the caller's contract.
    let name = unsafe { CStr::from_ptr(name) }.to_bytes();
    if !declares(&module.image, name) {
        return CUDA_ERROR_NOT_FOUND;
    }
    let Some(entry) = cuda_emu::cu::entry_points().find(|e| e.name.as_bytes() == name) else {
        eprintln!(
            "cuda-emu-driver: {} is in the module but not in the emulator's entry points",
            String::from_utf8_lossy(name)
        );
        return CUDA_ERROR_NOT_FOUND;
    };
    // SAFETY: the caller's contract; the entry is static.
    unsafe { *function = (entry as *const EntryPoint).cast_mut().cast() };
    CUDA_SUCCESS
}

/// Raising the dynamic shared memory limit is accepted up to the emulator's 48 KiB.
#[no_mangle]
pub extern "C" fn cuFuncSetAttribute(
    function: *mut c_void,
    attrib: c_int,
    value: c_int,
) -> CuResult {
    const MAX_DYNAMIC_SHARED_SIZE_BYTES: c_int = 8;
    if function.is_null() {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    match attrib {
        MAX_DYNAMIC_SHARED_SIZE_BYTES if u32::try_from(value).is_ok_and(|v| v <= SHARED_BYTES) => {
            CUDA_SUCCESS
        }
        MAX_DYNAMIC_SHARED_SIZE_BYTES => CUDA_ERROR_INVALID_VALUE,
        _ => CUDA_ERROR_NOT_SUPPORTED,
    }
}

/// The limits a GPU checks at launch.
fn launch_is_valid(cfg: &Launch) -> bool {
    let (gx, gy, gz) = cfg.grid_dim;
    let (bx, by, bz) = cfg.block_dim;
    let threads = u64::from(bx) * u64::from(by) * u64::from(bz);
    (1..=1024).contains(&threads)
        && bz <= 64
        && gx >= 1
        && (1..=65535).contains(&gy)
        && (1..=65535).contains(&gz)
        && cfg.shared_mem_bytes <= SHARED_BYTES
}

/// Enqueues the launch with copies of the argument values (as the driver takes them at the
/// call, so a capture records them).
///
/// # Safety
/// `function` came from `cuModuleGetFunction`; `params` holds one pointer per parameter of
/// the kernel, each to a value of its type; `stream` is a live stream handle.
#[no_mangle]
pub unsafe extern "C" fn cuLaunchKernel(
    function: *mut c_void,
    grid_x: c_uint,
    grid_y: c_uint,
    grid_z: c_uint,
    block_x: c_uint,
    block_y: c_uint,
    block_z: c_uint,
    shared_mem_bytes: c_uint,
    stream: *mut c_void,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CuResult {
    // SAFETY: the caller's contract.
    let Some(entry) = (unsafe { function.cast::<EntryPoint>().as_ref() }) else {
        return CUDA_ERROR_INVALID_HANDLE;
    };
    if !extra.is_null() {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if params.is_null() && !entry.param_sizes.is_empty() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let cfg = Launch {
        grid_dim: (grid_x, grid_y, grid_z),
        block_dim: (block_x, block_y, block_z),
        shared_mem_bytes,
    };
    if !launch_is_valid(&cfg) {
        eprintln!(
            "cuda-emu-driver: {}: launch outside the device limits: {cfg:?}",
            entry.name
        );
        return CUDA_ERROR_INVALID_VALUE;
    }
    let values: Vec<Vec<u64>> = entry
        .param_sizes
        .iter()
        .enumerate()
        .map(|(i, &size)| {
            let mut value = vec![0u64; size.div_ceil(8)];
            // SAFETY: the caller's contract: `params[i]` points to `size` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (*params.add(i)).cast::<u8>(),
                    value.as_mut_ptr().cast::<u8>(),
                    size,
                )
            };
            value
        })
        .collect();
    let invoke = entry.invoke;
    let name = entry.name;
    // SAFETY: the caller's contract.
    let stream = unsafe { stream_of(stream) };
    stream.enqueue(Arc::new(move || {
        let pointers: Vec<*mut c_void> = values
            .iter()
            .map(|value| value.as_ptr().cast_mut().cast())
            .collect();
        // SAFETY: the arguments are the launch's own values, of the kernel's parameter types;
        // the buffers they address are the caller's, live while the launch runs.
        let result = unsafe { cuda_emu::launch(cfg, || invoke(pointers.as_ptr())) };
        result.map_err(|err| {
            eprintln!("cuda-emu-driver: {name}: {err}");
            match err {
                EmuError::BadLaunch(_) => CUDA_ERROR_INVALID_VALUE,
                _ => CUDA_ERROR_LAUNCH_FAILED,
            }
        })
    }))
}
