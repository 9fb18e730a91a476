//! GGUF (v2 and v3) model files: metadata, tensor directory and memory-mapped tensor data.

pub mod metadata;

pub use metadata::{Metadata, MetadataValue};
