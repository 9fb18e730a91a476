//! Device and pinned host memory: host allocations recorded by address, so that every copy
//! and GEMM operand can be checked against a live allocation, and freed exactly once.

use crate::status::{CuResult, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_OUT_OF_MEMORY};
use parking_lot::Mutex;
use std::alloc::Layout;
use std::collections::BTreeMap;

/// `cudaMalloc`'s alignment guarantee.
const ALIGN: usize = 256;

/// What the emulated device reports as its memory; allocations beyond it fail, as they
/// would on a card of this size.
pub(crate) const DEVICE_BYTES: usize = 8 << 30;

/// Live allocations of one kind: start address to length in bytes.
pub(crate) struct Allocations {
    live: Mutex<BTreeMap<usize, usize>>,
    limit: usize,
}

pub(crate) static DEVICE: Allocations = Allocations::new(DEVICE_BYTES);
pub(crate) static PINNED: Allocations = Allocations::new(usize::MAX);

impl Allocations {
    const fn new(limit: usize) -> Self {
        Allocations {
            live: Mutex::new(BTreeMap::new()),
            limit,
        }
    }

    /// A new allocation of `bytes`, filled with 0xff: unwritten memory reads as NaN (f32)
    /// or -1 (integers), not as the zeros a fresh page would give by luck.
    pub(crate) fn allocate(&self, bytes: usize) -> Result<usize, CuResult> {
        if bytes == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let mut live = self.live.lock();
        let used: usize = live.values().sum();
        if used.saturating_add(bytes) > self.limit {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        let layout = Layout::from_size_align(bytes, ALIGN).map_err(|_| CUDA_ERROR_OUT_OF_MEMORY)?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc(layout) };
        if ptr.is_null() {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        // SAFETY: `ptr` was just allocated with `bytes` bytes.
        unsafe { std::ptr::write_bytes(ptr, 0xff, bytes) };
        live.insert(ptr as usize, bytes);
        Ok(ptr as usize)
    }

    /// Frees an allocation by its start address; anything else is an invalid value.
    pub(crate) fn free(&self, ptr: usize) -> Result<(), CuResult> {
        let bytes = self
            .live
            .lock()
            .remove(&ptr)
            .ok_or(CUDA_ERROR_INVALID_VALUE)?;
        let layout = Layout::from_size_align(bytes, ALIGN).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        // SAFETY: `ptr` was allocated by `allocate` with this layout and is freed once (it
        // was just removed from the live set).
        unsafe { std::alloc::dealloc(ptr as *mut u8, layout) };
        Ok(())
    }

    /// Whether `[ptr, ptr + bytes)` lies inside one live allocation.
    pub(crate) fn contains(&self, ptr: usize, bytes: usize) -> bool {
        let live = self.live.lock();
        match live.range(..=ptr).next_back() {
            Some((&start, &len)) => ptr.checked_add(bytes).is_some_and(|end| end <= start + len),
            None => false,
        }
    }

    /// `contains`, as the error a driver call returns.
    pub(crate) fn check(&self, ptr: usize, bytes: usize) -> Result<(), CuResult> {
        if self.contains(ptr, bytes) {
            Ok(())
        } else {
            eprintln!("cuda-emu-driver: {bytes} bytes at {ptr:#x} are not inside one allocation");
            Err(CUDA_ERROR_INVALID_VALUE)
        }
    }

    /// Bytes held by live allocations.
    pub(crate) fn used(&self) -> usize {
        self.live.lock().values().sum()
    }
}
