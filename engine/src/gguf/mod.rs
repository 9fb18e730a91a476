//! GGUF (v2 and v3) model files: metadata, tensor directory and memory-mapped tensor data.
//!
//! [`GgufFile`] validates the whole directory when it opens a file (every count bounded by
//! the bytes left, every tensor inside the file), so hostile files give a [`GgufError`],
//! never a panic or an out-of-bounds read. Tensor bytes are exposed raw; dequantization
//! lives in `kernels::quant`.

mod decode;
pub mod error;
pub mod file;
pub mod keys;
pub mod metadata;
mod reader;
pub mod tensor;

pub use decode::{MAX_ARRAY_DEPTH, MAX_METADATA_VALUES};
pub use error::GgufError;
pub use file::{GgufFile, DEFAULT_ALIGNMENT};
pub use metadata::{Metadata, MetadataValue};
pub use tensor::{TensorInfo, TensorView, MAX_DIMS};
