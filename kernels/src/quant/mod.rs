//! ggml tensor types: ids as stored in GGUF, block sizes, and dequantization.

mod dequant;
pub(crate) mod float;
pub(crate) mod kquants;
pub(crate) mod legacy;
pub(crate) mod mxfp4;
#[cfg(test)]
mod tests;

pub(crate) use dequant::check_len;
pub use dequant::dequantize;

/// A ggml tensor element type. Discriminants are the ids GGUF stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum GgmlType {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q8_1 = 9,
    Q2K = 10,
    Q3K = 11,
    Q4K = 12,
    Q5K = 13,
    Q6K = 14,
    Q8K = 15,
    I8 = 24,
    I16 = 25,
    I32 = 26,
    I64 = 27,
    F64 = 28,
    Bf16 = 30,
    Mxfp4 = 39,
}

impl GgmlType {
    /// The type with GGUF id `id`, if known.
    pub fn from_id(id: u32) -> Option<Self> {
        use GgmlType::*;
        Some(match id {
            0 => F32,
            1 => F16,
            2 => Q4_0,
            3 => Q4_1,
            6 => Q5_0,
            7 => Q5_1,
            8 => Q8_0,
            9 => Q8_1,
            10 => Q2K,
            11 => Q3K,
            12 => Q4K,
            13 => Q5K,
            14 => Q6K,
            15 => Q8K,
            24 => I8,
            25 => I16,
            26 => I32,
            27 => I64,
            28 => F64,
            30 => Bf16,
            39 => Mxfp4,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        use GgmlType::*;
        match self {
            F32 => "F32",
            F16 => "F16",
            Q4_0 => "Q4_0",
            Q4_1 => "Q4_1",
            Q5_0 => "Q5_0",
            Q5_1 => "Q5_1",
            Q8_0 => "Q8_0",
            Q8_1 => "Q8_1",
            Q2K => "Q2_K",
            Q3K => "Q3_K",
            Q4K => "Q4_K",
            Q5K => "Q5_K",
            Q6K => "Q6_K",
            Q8K => "Q8_K",
            I8 => "I8",
            I16 => "I16",
            I32 => "I32",
            I64 => "I64",
            F64 => "F64",
            Bf16 => "BF16",
            Mxfp4 => "MXFP4",
        }
    }

    /// Elements per block (1 for plain types).
    pub fn block_size(self) -> usize {
        use GgmlType::*;
        match self {
            Q4_0 | Q4_1 | Q5_0 | Q5_1 | Q8_0 | Q8_1 | Mxfp4 => 32,
            Q2K | Q3K | Q4K | Q5K | Q6K | Q8K => 256,
            F32 | F16 | Bf16 | I8 | I16 | I32 | I64 | F64 => 1,
        }
    }

    /// Bytes per block.
    pub fn type_size(self) -> usize {
        use GgmlType::*;
        match self {
            F32 | I32 => 4,
            F16 | Bf16 | I16 => 2,
            I8 => 1,
            I64 | F64 => 8,
            Q4_0 => 18,
            Mxfp4 => 17,
            Q4_1 => 20,
            Q5_0 => 22,
            Q5_1 => 24,
            Q8_0 => 34,
            Q8_1 => 36,
            Q2K => 84,
            Q3K => 110,
            Q4K => 144,
            Q5K => 176,
            Q6K => 210,
            Q8K => 292,
        }
    }

    /// Bytes of a row of `elements` values, or `None` if `elements` is not a whole number of
    /// blocks or the size overflows.
    pub fn row_bytes(self, elements: u64) -> Option<u64> {
        let block = self.block_size() as u64;
        if !elements.is_multiple_of(block) {
            return None;
        }
        (elements / block).checked_mul(self.type_size() as u64)
    }
}
