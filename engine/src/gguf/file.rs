//! [`GgufFile`]: an opened GGUF file — header, metadata, tensor directory — over its bytes
//! (memory-mapped, or owned for tests and in-memory files).
//!
//! Layout: magic "GGUF", version u32, tensor count u64, metadata count u64, the metadata
//! key/value pairs, the tensor infos, padding up to `general.alignment`, then the data section.

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::ops::Range;
use std::path::Path;

use memmap2::Mmap;

use super::decode::read_metadata;
use super::error::GgufError;
use super::metadata::Metadata;
use super::reader::Reader;
use super::tensor::{read_tensor_info, TensorInfo, TensorView, MIN_TENSOR_INFO_BYTES};

const MAGIC: &[u8; 4] = b"GGUF";

/// Data-section alignment when `general.alignment` is absent.
pub const DEFAULT_ALIGNMENT: u64 = 32;

pub const ALIGNMENT_KEY: &str = "general.alignment";
pub const ARCHITECTURE_KEY: &str = "general.architecture";

/// Where the file's bytes live.
enum Backing {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Backing {
    fn bytes(&self) -> &[u8] {
        match self {
            Backing::Mapped(map) => map,
            Backing::Owned(bytes) => bytes,
        }
    }
}

/// A parsed GGUF (v2 or v3, little-endian) file. Every tensor's bytes were checked to lie
/// inside the file, aligned and not overlapping, so [`GgufFile::tensor`] only slices.
pub struct GgufFile {
    backing: Backing,
    version: u32,
    metadata: Metadata,
    alignment: u64,
    data_offset: u64,
    tensors: Vec<TensorInfo>,
    /// Absolute byte range of each tensor's data, parallel to `tensors`.
    ranges: Vec<Range<usize>>,
    by_name: HashMap<String, usize>,
}

impl GgufFile {
    /// Memory-maps and parses the file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<GgufFile, GgufError> {
        let path = path.as_ref();
        let io_error = |source| GgufError::Io {
            path: path.to_owned(),
            source,
        };
        let file = File::open(path).map_err(io_error)?;
        let len = file.metadata().map_err(io_error)?.len();
        // Mapping an empty file fails on some platforms; an empty file is simply truncated.
        if len == 0 {
            return Self::from_bytes(Vec::new());
        }
        // SAFETY: the map is read-only. Model files are not modified while served; if another
        // process truncates the file anyway, reads fault (SIGBUS) rather than read bad memory,
        // the accepted trade-off of mapping multi-gigabyte weights instead of copying them.
        let map = unsafe { Mmap::map(&file) }.map_err(io_error)?;
        Self::parse(Backing::Mapped(map))
    }

    /// Parses a file held in memory.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<GgufFile, GgufError> {
        Self::parse(Backing::Owned(bytes))
    }

    fn parse(backing: Backing) -> Result<GgufFile, GgufError> {
        let bytes = backing.bytes();
        let mut reader = Reader::new(bytes);
        let version = read_header(&mut reader)?;
        let tensor_count = reader.count(MIN_TENSOR_INFO_BYTES, "tensor count")?;
        let metadata = read_metadata(&mut reader)?;
        let alignment = alignment(&metadata)?;

        let mut tensors = Vec::with_capacity(tensor_count);
        let mut by_name = HashMap::with_capacity(tensor_count);
        for index in 0..tensor_count {
            let info = read_tensor_info(&mut reader, index)?;
            if let Some(&first) = by_name.get(&info.name) {
                return Err(GgufError::DuplicateTensor {
                    name: info.name,
                    first,
                    second: index,
                });
            }
            by_name.insert(info.name.clone(), index);
            tensors.push(info);
        }

        let info_end = reader.offset();
        let data_offset = align_up(info_end, alignment).ok_or(GgufError::DataOffsetOverflow {
            info_end,
            alignment,
        })?;
        let ranges = data_ranges(&tensors, data_offset, alignment, bytes.len())?;
        check_no_overlap(&tensors, &ranges)?;

        Ok(GgufFile {
            backing,
            version,
            metadata,
            alignment,
            data_offset,
            tensors,
            ranges,
            by_name,
        })
    }

    /// The format version: 2 or 3.
    pub fn version(&self) -> u32 {
        self.version
    }

    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// `general.architecture` (e.g. "llama"), the prefix of the model's hyper-parameter keys.
    pub fn architecture(&self) -> Option<&str> {
        self.metadata.get_str(ARCHITECTURE_KEY)
    }

    /// The data section's alignment (`general.alignment`, default 32).
    pub fn alignment(&self) -> u64 {
        self.alignment
    }

    /// Absolute file offset of the data section; tensor offsets are relative to it.
    pub fn data_offset(&self) -> u64 {
        self.data_offset
    }

    /// The tensor directory, in file order.
    pub fn tensors(&self) -> &[TensorInfo] {
        &self.tensors
    }

    /// The tensor called `name` with its bytes, if present.
    pub fn tensor(&self, name: &str) -> Option<TensorView<'_>> {
        let &index = self.by_name.get(name)?;
        let info = self.tensors.get(index)?;
        let range = self.ranges.get(index)?.clone();
        // Ranges were checked against the file at parse time, so this lookup always succeeds.
        let data = self.backing.bytes().get(range)?;
        Some(TensorView::new(info, data))
    }

    /// The whole file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.backing.bytes()
    }
}

impl fmt::Debug for GgufFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GgufFile")
            .field("version", &self.version)
            .field("architecture", &self.architecture())
            .field("metadata_entries", &self.metadata.len())
            .field("tensors", &self.tensors.len())
            .field("alignment", &self.alignment)
            .field("data_offset", &self.data_offset)
            .field("file_len", &self.backing.bytes().len())
            .finish()
    }
}

/// Magic and version; returns the version.
fn read_header(reader: &mut Reader<'_>) -> Result<u32, GgufError> {
    let magic = reader.take(4, "magic")?;
    if magic != MAGIC {
        let mut found = [0u8; 4];
        found
            .iter_mut()
            .zip(magic)
            .for_each(|(dst, src)| *dst = *src);
        return Err(GgufError::BadMagic { found });
    }
    let version = reader.u32("version")?;
    match version {
        2 | 3 => Ok(version),
        1 => Err(GgufError::UnsupportedVersion {
            version,
            reason:
                "GGUF v1 (32-bit counts) is obsolete; re-convert the model; 2 and 3 are supported",
        }),
        // Big-endian files store the version byte-swapped; small versions then read as huge.
        _ if (1..=3).contains(&version.swap_bytes()) => Err(GgufError::BigEndian {
            raw: version,
            swapped: version.swap_bytes(),
        }),
        _ => Err(GgufError::UnsupportedVersion {
            version,
            reason: "only versions 2 and 3 are supported",
        }),
    }
}

/// `general.alignment`: an unsigned integer, a non-zero power of two.
fn alignment(metadata: &Metadata) -> Result<u64, GgufError> {
    let Some(value) = metadata.get(ALIGNMENT_KEY) else {
        return Ok(DEFAULT_ALIGNMENT);
    };
    let alignment = value.as_u64().ok_or(GgufError::WrongType {
        key: ALIGNMENT_KEY.to_owned(),
        expected: "an unsigned integer",
        found: value.type_name(),
    })?;
    if !alignment.is_power_of_two() {
        return Err(GgufError::InvalidValue {
            key: ALIGNMENT_KEY.to_owned(),
            reason: format!("alignment {alignment} is not a non-zero power of two"),
        });
    }
    Ok(alignment)
}

/// `value` rounded up to a multiple of the power of two `alignment`, if that fits.
fn align_up(value: u64, alignment: u64) -> Option<u64> {
    let mask = alignment.checked_sub(1)?;
    Some(value.checked_add(mask)? & !mask)
}

/// Checks each tensor's alignment and bounds; returns the absolute byte ranges.
fn data_ranges(
    tensors: &[TensorInfo],
    data_offset: u64,
    alignment: u64,
    file_len: usize,
) -> Result<Vec<Range<usize>>, GgufError> {
    let mut ranges = Vec::with_capacity(tensors.len());
    for (index, info) in tensors.iter().enumerate() {
        if info.offset % alignment != 0 {
            return Err(GgufError::Misaligned {
                index,
                name: info.name.clone(),
                offset: info.offset,
                alignment,
            });
        }
        let range = data_offset
            .checked_add(info.offset)
            .and_then(|start| Some((start, start.checked_add(info.n_bytes)?)))
            .filter(|&(_, end)| end <= file_len as u64)
            .and_then(|(start, end)| {
                Some(usize::try_from(start).ok()?..usize::try_from(end).ok()?)
            });
        let Some(range) = range else {
            return Err(GgufError::TensorOutOfBounds {
                index,
                name: info.name.clone(),
                offset: info.offset,
                n_bytes: info.n_bytes,
                data_offset,
                file_len: file_len as u64,
            });
        };
        ranges.push(range);
    }
    Ok(ranges)
}

/// Two tensors sharing bytes is never produced by a writer; it would let a corrupt file alias
/// one weight as another.
fn check_no_overlap(tensors: &[TensorInfo], ranges: &[Range<usize>]) -> Result<(), GgufError> {
    let mut order: Vec<usize> = (0..ranges.len())
        .filter(|&i| !ranges[i].is_empty())
        .collect();
    order.sort_unstable_by_key(|&i| ranges[i].start);
    for pair in order.windows(2) {
        if let [a, b] = *pair {
            if ranges[b].start < ranges[a].end {
                return Err(GgufError::TensorOverlap {
                    first: tensors[a].name.clone(),
                    second: tensors[b].name.clone(),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn align_up_rounds_and_detects_overflow() {
        assert_eq!(align_up(0, 32), Some(0));
        assert_eq!(align_up(1, 32), Some(32));
        assert_eq!(align_up(64, 32), Some(64));
        assert_eq!(align_up(u64::MAX - 3, 32), None);
        assert_eq!(align_up(5, 1 << 63), Some(1 << 63));
    }

    #[test]
    fn header_distinguishes_big_endian_and_old_versions() {
        let header = |version: u32| {
            let mut bytes = MAGIC.to_vec();
            bytes.extend_from_slice(&version.to_le_bytes());
            bytes
        };
        let parse = |bytes: &[u8]| read_header(&mut Reader::new(bytes));
        assert_eq!(parse(&header(3)).unwrap(), 3);
        assert!(matches!(
            parse(&header(3u32.swap_bytes())),
            Err(GgufError::BigEndian { .. })
        ));
        assert!(matches!(
            parse(&header(1)),
            Err(GgufError::UnsupportedVersion { version: 1, .. })
        ));
        assert!(matches!(parse(b"GGU"), Err(GgufError::Truncated { .. })));
        assert!(matches!(
            parse(b"GGML\x03\0\0\0"),
            Err(GgufError::BadMagic { .. })
        ));
    }
}
