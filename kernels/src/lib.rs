//! Compute kernels. CPU kernels are the default and the reference; every kernel takes the
//! FlashInfer/SGLang batch layout (`q_indptr`, `kv_indptr`, `kv_indices`) so the same metadata
//! feeds the CPU and CUDA paths.

pub mod activation;
pub mod attention;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod cuda_index;
pub mod delta_net;
pub mod kv_indices;
pub mod mamba2;
pub mod matmul;
pub mod norm;
pub mod quant;
pub mod rope;
pub mod sampling;
pub mod vector;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KernelError {
    #[error("tensor type {0} is not supported by this kernel")]
    UnsupportedType(&'static str),
    #[error("shape mismatch: {0}")]
    Shape(String),
    #[error("kernel path {0} is not available on this CPU")]
    PathUnavailable(&'static str),
}
