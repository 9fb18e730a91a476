//! CUDA kernels (feature `cuda`), the GPU twins of the CPU kernels with the same argument
//! meaning and the same FlashInfer/SGLang batch layout.
//!
//! The `.cu` sources in `kernels/cuda/` are embedded in the binary and compiled at run time by
//! NVRTC for the GPU at hand (one module per concept, compiled on first use and cached), so
//! neither building nor running needs a CUDA toolkit: only the driver, NVRTC and (for GEMM)
//! cuBLAS libraries, loaded dynamically through `cudarc`. NVRTC also needs the directory of
//! `cuda_fp16.h` (see [`default_include_paths`]).
//!
//! Entry point: [`GpuContext`] owns the device, its stream, the module cache and the cuBLAS
//! handle; device-side pools are [`DeviceReqToToken`] and [`DeviceKvStorage`].

mod attention;
mod context;
mod decode_meta;
mod error;
mod gemm;
mod graph;
mod nvrtc;
mod ops;
mod pointwise;
mod qkv;
mod rope_store;
mod sampling;
mod storage;

pub use attention::{split_plan, AttentionLayer, AttentionMeta, DeviceAttentionBatch, SplitParts};
pub use context::{driver_available, GpuContext, GpuOptions};
pub use cudarc::driver::{CudaSlice, CudaView};
pub use decode_meta::DecodeMeta;
pub use error::CudaError;
pub use gemm::HalfFloat;
pub use graph::DeviceGraph;
pub use nvrtc::{
    compile_module, default_include_paths, nvrtc_available, nvrtc_version, CompileTarget, Module,
};
pub use ops::{DeviceKvIndices, DeviceRope, EmbeddingElem};
pub use pointwise::Gate;
pub use qkv::{QkvRows, QkvShape};
pub use rope_store::NewRows;
pub use sampling::SamplingBuffers;
pub use storage::{DeviceKvStorage, DeviceLayerKv, DeviceReqToToken, DeviceSlots};
