//! Errors of GGUF reading: each says what is wrong and where (byte offset, key or tensor name).

use std::path::PathBuf;

/// Everything that can go wrong while opening a GGUF file or reading its hyper-parameters.
#[derive(Debug, thiserror::Error)]
pub enum GgufError {
    #[error("cannot read GGUF file {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("not a GGUF file: magic at offset 0 is {found:02x?}, expected \"GGUF\"")]
    BadMagic { found: [u8; 4] },

    #[error(
        "big-endian GGUF file (version field reads {raw:#010x}, version {swapped} byte-swapped); \
         only little-endian files are supported"
    )]
    BigEndian { raw: u32, swapped: u32 },

    #[error("unsupported GGUF version {version}: {reason}")]
    UnsupportedVersion { version: u32, reason: &'static str },

    #[error(
        "{what} at offset {offset}: needs {needed} bytes but only {available} are left \
         (truncated or corrupt file)"
    )]
    Truncated {
        what: String,
        offset: u64,
        needed: u64,
        available: u64,
    },

    #[error(
        "{what} at offset {offset}: count {count} cannot fit in the {available} bytes left \
         (each entry takes at least {min_entry_bytes} bytes)"
    )]
    CountTooLarge {
        what: String,
        offset: u64,
        count: u64,
        min_entry_bytes: u64,
        available: u64,
    },

    #[error("{what} at offset {offset} is not valid UTF-8")]
    InvalidUtf8 { what: String, offset: u64 },

    #[error("{what} at offset {offset}: unknown metadata value type {type_id}")]
    UnknownValueType {
        what: String,
        offset: u64,
        type_id: u32,
    },

    #[error("{what} at offset {offset}: bool byte is {byte}, expected 0 or 1")]
    InvalidBool { what: String, offset: u64, byte: u8 },

    #[error("{what} at offset {offset}: arrays nested deeper than {max_depth} levels")]
    NestingTooDeep {
        what: String,
        offset: u64,
        max_depth: usize,
    },

    #[error(
        "{what} at offset {offset}: array of {count} values exceeds the file's remaining \
         metadata budget of {budget} values"
    )]
    TooManyValues {
        what: String,
        offset: u64,
        count: u64,
        budget: u64,
    },

    #[error("metadata key {key:?} at offset {offset} appears twice")]
    DuplicateKey { key: String, offset: u64 },

    #[error("metadata key {key:?} is missing")]
    MissingKey { key: String },

    #[error("metadata key {key:?} holds {found}, expected {expected}")]
    WrongType {
        key: String,
        expected: &'static str,
        found: &'static str,
    },

    #[error("metadata key {key:?}: {reason}")]
    InvalidValue { key: String, reason: String },

    #[error("tensor {index} ({name:?}): unknown ggml type id {type_id}")]
    UnknownTensorType {
        index: usize,
        name: String,
        type_id: u32,
    },

    #[error("tensor {index} ({name:?}): {n_dims} dimensions, at most {max} are supported")]
    TooManyDims {
        index: usize,
        name: String,
        n_dims: u32,
        max: u32,
    },

    #[error("tensor {index} ({name:?}) has shape {dims:?}: {reason}")]
    BadShape {
        index: usize,
        name: String,
        dims: Vec<u64>,
        reason: String,
    },

    #[error(
        "tensor {index} ({name:?}): offset {offset} is not a multiple of the alignment {alignment}"
    )]
    Misaligned {
        index: usize,
        name: String,
        offset: u64,
        alignment: u64,
    },

    #[error(
        "tensor {index} ({name:?}): {n_bytes} bytes at data offset {offset} (data section \
         starts at {data_offset}) run past the end of the {file_len}-byte file"
    )]
    TensorOutOfBounds {
        index: usize,
        name: String,
        offset: u64,
        n_bytes: u64,
        data_offset: u64,
        file_len: u64,
    },

    #[error("tensors {first:?} and {second:?} overlap in the data section")]
    TensorOverlap { first: String, second: String },

    #[error("tensor name {name:?} is used by tensors {first} and {second}")]
    DuplicateTensor {
        name: String,
        first: usize,
        second: usize,
    },

    #[error("data section start overflows: tensor infos end at {info_end}, alignment {alignment}")]
    DataOffsetOverflow { info_end: u64, alignment: u64 },
}
