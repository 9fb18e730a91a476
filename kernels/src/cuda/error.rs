//! Errors of the CUDA path: missing libraries and devices are ordinary errors (callers fall
//! back to the CPU kernels or skip), never panics.

use crate::KernelError;

#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    #[error("{0} could not be loaded: not installed, or not on LD_LIBRARY_PATH")]
    LibraryMissing(&'static str),
    #[error("CUDA driver: {0}")]
    Driver(#[from] cudarc::driver::DriverError),
    #[error("NVRTC: {0}")]
    Nvrtc(#[from] cudarc::nvrtc::result::NvrtcError),
    #[error("cuBLAS: {0}")]
    Cublas(#[from] cudarc::cublas::result::CublasError),
    #[error("NVRTC could not compile {module}.cu for {target}:\n{log}")]
    Compile {
        module: &'static str,
        target: String,
        log: String,
    },
    #[error("kernel module {module} has no entry point {name}")]
    MissingKernel {
        module: &'static str,
        name: &'static str,
    },
    #[error(transparent)]
    Kernel(#[from] KernelError),
    #[error("shape mismatch: {0}")]
    Shape(String),
    #[error("a thread panicked while holding the kernel module cache")]
    Poisoned,
}

/// Shorthand for the shape errors of the launch wrappers.
pub(crate) fn bad_shape<T>(msg: String) -> Result<T, CudaError> {
    Err(CudaError::Shape(msg))
}

/// A size as the `unsigned` the kernels take.
pub(crate) fn to_u32(value: usize, what: &str) -> Result<u32, CudaError> {
    u32::try_from(value).map_err(|_| CudaError::Shape(format!("{what} = {value} exceeds u32")))
}
