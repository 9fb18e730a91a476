//! The CUDA driver API and the one cuBLAS call the engine makes, implemented on the CPU.
//!
//! Built as a shared library and found by cudarc under the names `libcuda.so` and
//! `libcublas.so` (scripts/check-cuda.sh points `LD_LIBRARY_PATH` at links to it when no GPU is
//! present), it lets the unchanged GPU code paths run in CI: `GpuContext`, every launch
//! wrapper, CUDA graph capture and replay, device sampling and the engine's GPU model runner.
//! NVRTC stays NVIDIA's own: the kernels are still compiled for sm_90, and a module's image
//! must declare every function asked of it.
//!
//! - Device memory is host memory (a `CUdeviceptr` is an address), allocated 256-aligned and
//!   filled with 0xff bytes (NaN as f32, -1 as i32) so that a read of memory nothing wrote
//!   shows; every copy is checked against the live allocations.
//! - Operations wait in one queue in program order and run when the host waits for the
//!   device (a synchronization, a copy into pageable memory, a synchronous free), so a host
//!   read of pinned memory that does not wait for its copy sees stale bytes, as it may on a
//!   GPU. While a stream captures, operations are recorded into the graph instead, with
//!   copies of the kernel arguments, as the driver keeps them; a launch queues the records.
//! - What a capture must not contain (a synchronous allocation or free, a copy from or to
//!   pageable host memory, a wait) fails and invalidates the capture, as on a GPU. Stricter
//!   than CUDA: stream-ordered allocations and frees on a capturing stream fail too (a GPU
//!   would record them as graph nodes), since the engine's graphs must not allocate.
//! - One error slot for the whole queue: a failed operation is reported by the next wait, on
//!   whichever thread waits (a GPU keeps such errors on the context).
//! - Kernels run through `cuda-emu` (blocks of fibers); GEMMs in f32 on the host.

mod api_device;
mod api_memory;
mod api_module;
mod api_stream;
mod blas;
mod gemm;
mod memory;
mod status;
mod stream;
