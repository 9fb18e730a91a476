//! Decoding of the metadata key/value section into [`Metadata`].

use super::error::GgufError;
use super::metadata::{Metadata, MetadataValue};
use super::reader::Reader;

/// Arrays may nest (an array of arrays), but a file has no reason to go deep; the cap keeps
/// recursion bounded whatever the file says.
pub const MAX_ARRAY_DEPTH: usize = 8;

/// Total array elements a file's metadata may hold. Each decoded value takes ~32 bytes in
/// memory against as little as 1 byte on disk; the cap bounds that blow-up (real tokenizers
/// hold a few hundred thousand entries).
pub const MAX_METADATA_VALUES: u64 = 1 << 24;

/// Smallest encoding of a key/value pair: empty key (u64 length), type (u32), 1-byte value.
const MIN_KV_BYTES: u64 = 8 + 4 + 1;

/// The value type ids GGUF stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValueType {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    F32,
    Bool,
    String,
    Array,
    U64,
    I64,
    F64,
}

impl ValueType {
    fn from_id(id: u32) -> Option<Self> {
        use ValueType::*;
        Some(match id {
            0 => U8,
            1 => I8,
            2 => U16,
            3 => I16,
            4 => U32,
            5 => I32,
            6 => F32,
            7 => Bool,
            8 => String,
            9 => Array,
            10 => U64,
            11 => I64,
            12 => F64,
            _ => return None,
        })
    }

    /// Fewest bytes one value of this type takes in the file (strings: the length prefix;
    /// arrays: element type and count).
    fn min_bytes(self) -> u64 {
        use ValueType::*;
        match self {
            U8 | I8 | Bool => 1,
            U16 | I16 => 2,
            U32 | I32 | F32 => 4,
            U64 | I64 | F64 | String => 8,
            Array => 12,
        }
    }
}

/// Reads `kv_count` key/value pairs (the count is bounded by the bytes left before allocating).
pub(crate) fn read_metadata(reader: &mut Reader<'_>) -> Result<Metadata, GgufError> {
    let kv_count = reader.count(MIN_KV_BYTES, "metadata key/value count")?;
    let mut metadata = Metadata::default();
    let mut budget = MAX_METADATA_VALUES;
    for i in 0..kv_count {
        let key_offset = reader.offset();
        let key = reader.string(&format!("key of metadata entry {i}"))?;
        if metadata.get(&key).is_some() {
            return Err(GgufError::DuplicateKey {
                key,
                offset: key_offset,
            });
        }
        let what = format!("value of metadata key {key:?}");
        let type_offset = reader.offset();
        let type_id = reader.u32(&what)?;
        let value_type =
            ValueType::from_id(type_id).ok_or_else(|| GgufError::UnknownValueType {
                what: what.clone(),
                offset: type_offset,
                type_id,
            })?;
        let value = read_value(reader, value_type, &what, 0, &mut budget)?;
        metadata.insert(key, value);
    }
    Ok(metadata)
}

/// One value of type `value_type`; `depth` counts the arrays around it.
fn read_value(
    reader: &mut Reader<'_>,
    value_type: ValueType,
    what: &str,
    depth: usize,
    budget: &mut u64,
) -> Result<MetadataValue, GgufError> {
    Ok(match value_type {
        ValueType::U8 => MetadataValue::U8(reader.u8(what)?),
        ValueType::I8 => MetadataValue::I8(reader.i8(what)?),
        ValueType::U16 => MetadataValue::U16(reader.u16(what)?),
        ValueType::I16 => MetadataValue::I16(reader.i16(what)?),
        ValueType::U32 => MetadataValue::U32(reader.u32(what)?),
        ValueType::I32 => MetadataValue::I32(reader.i32(what)?),
        ValueType::U64 => MetadataValue::U64(reader.u64(what)?),
        ValueType::I64 => MetadataValue::I64(reader.i64(what)?),
        ValueType::F32 => MetadataValue::F32(reader.f32(what)?),
        ValueType::F64 => MetadataValue::F64(reader.f64(what)?),
        ValueType::Bool => {
            let offset = reader.offset();
            match reader.u8(what)? {
                0 => MetadataValue::Bool(false),
                1 => MetadataValue::Bool(true),
                byte => {
                    return Err(GgufError::InvalidBool {
                        what: what.to_owned(),
                        offset,
                        byte,
                    })
                }
            }
        }
        ValueType::String => MetadataValue::String(reader.string(what)?),
        ValueType::Array => read_array(reader, what, depth, budget)?,
    })
}

fn read_array(
    reader: &mut Reader<'_>,
    what: &str,
    depth: usize,
    budget: &mut u64,
) -> Result<MetadataValue, GgufError> {
    let offset = reader.offset();
    if depth >= MAX_ARRAY_DEPTH {
        return Err(GgufError::NestingTooDeep {
            what: what.to_owned(),
            offset,
            max_depth: MAX_ARRAY_DEPTH,
        });
    }
    let type_id = reader.u32(what)?;
    let element_type = ValueType::from_id(type_id).ok_or_else(|| GgufError::UnknownValueType {
        what: format!("array element type of {what}"),
        offset,
        type_id,
    })?;
    let count_offset = reader.offset();
    let count = reader.count(element_type.min_bytes(), what)?;
    let count_u64 = count as u64;
    *budget = budget
        .checked_sub(count_u64)
        .ok_or_else(|| GgufError::TooManyValues {
            what: what.to_owned(),
            offset: count_offset,
            count: count_u64,
            budget: *budget,
        })?;
    let mut items = Vec::with_capacity(count);
    for _ in 0..count {
        items.push(read_value(reader, element_type, what, depth + 1, budget)?);
    }
    Ok(MetadataValue::Array(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv_bytes(key: &str, type_id: u32, value: &[u8]) -> Vec<u8> {
        let mut out = 1u64.to_le_bytes().to_vec();
        out.extend_from_slice(&(key.len() as u64).to_le_bytes());
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(&type_id.to_le_bytes());
        out.extend_from_slice(value);
        out
    }

    #[test]
    fn decodes_scalars() {
        let bytes = kv_bytes("a", 6, &1.5f32.to_le_bytes());
        let md = read_metadata(&mut Reader::new(&bytes)).unwrap();
        assert_eq!(md.get("a"), Some(&MetadataValue::F32(1.5)));
    }

    #[test]
    fn nesting_is_capped() {
        // MAX_ARRAY_DEPTH + 1 arrays, each holding one array, ending in an empty u8 array.
        let mut value = Vec::new();
        for _ in 0..MAX_ARRAY_DEPTH {
            value.extend_from_slice(&9u32.to_le_bytes());
            value.extend_from_slice(&1u64.to_le_bytes());
        }
        value.extend_from_slice(&0u32.to_le_bytes());
        value.extend_from_slice(&0u64.to_le_bytes());
        let bytes = kv_bytes("deep", 9, &value);
        let err = read_metadata(&mut Reader::new(&bytes)).unwrap_err();
        assert!(matches!(err, GgufError::NestingTooDeep { .. }), "{err}");
    }

    #[test]
    fn array_count_is_bounded_by_the_value_budget() {
        let count = MAX_METADATA_VALUES + 1;
        let mut value = 0u32.to_le_bytes().to_vec();
        value.extend_from_slice(&count.to_le_bytes());
        value.resize(value.len() + count as usize, 0);
        let bytes = kv_bytes("big", 9, &value);
        let err = read_metadata(&mut Reader::new(&bytes)).unwrap_err();
        assert!(matches!(err, GgufError::TooManyValues { .. }), "{err}");
    }
}
