//! GGUF reader against files built in memory: valid v2/v3 round trips, and hostile files
//! (truncated, absurd counts, bad types, bad tensor layouts) that must give a clear error and
//! never panic, read out of bounds or allocate by an untrusted count.

use engine::gguf::{GgufError, GgufFile, MetadataValue, MAX_ARRAY_DEPTH, MAX_DIMS};
use engine::model::Hparams;
use kernels::quant::GgmlType;
use proptest::prelude::*;

use crate::common::gguf_writer;

use gguf_writer::{Builder, W};

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

fn all_value_kinds() -> Vec<(&'static str, MetadataValue)> {
    use MetadataValue as V;
    vec![
        ("general.architecture", V::String("llama".into())),
        ("t.u8", V::U8(200)),
        ("t.i8", V::I8(-100)),
        ("t.u16", V::U16(60_000)),
        ("t.i16", V::I16(-30_000)),
        ("t.u32", V::U32(4_000_000_000)),
        ("t.i32", V::I32(-2_000_000_000)),
        ("t.u64", V::U64(u64::MAX)),
        ("t.i64", V::I64(i64::MIN)),
        ("t.f32", V::F32(1e-5)),
        ("t.f64", V::F64(-2.5e300)),
        ("t.true", V::Bool(true)),
        ("t.false", V::Bool(false)),
        ("t.string", V::String("héllo ✓".into())),
        ("t.empty_string", V::String(String::new())),
        ("t.array", V::Array(vec![V::U32(1), V::U32(2), V::U32(3)])),
        (
            "t.strings",
            V::Array(vec![V::String("a".into()), V::String("<|im_end|>".into())]),
        ),
        ("t.empty_array", V::Array(vec![])),
        (
            "t.nested",
            V::Array(vec![
                V::Array(vec![V::I16(1), V::I16(-2)]),
                V::Array(vec![V::Array(vec![V::F64(0.5)])]),
                V::Array(vec![]),
            ]),
        ),
    ]
}

/// A valid file: every value type, a nested array, custom alignment 64, three tensors of
/// different types.
fn valid_builder(version: u32) -> Builder {
    let mut b = Builder::new(version);
    for (key, value) in all_value_kinds() {
        b = b.kv(key, value);
    }
    b.alignment = 64;
    b.kv("general.alignment", MetadataValue::U32(64))
        .tensor("a.weight", &[4, 3], GgmlType::F32, pattern(48, 1))
        .tensor("b.weight", &[64, 2], GgmlType::Q4_1, pattern(2 * 2 * 20, 2))
        .tensor("c.norm", &[3], GgmlType::F16, pattern(6, 3))
}

fn expect_err(result: Result<GgufFile, GgufError>) -> GgufError {
    match result {
        Ok(file) => panic!("expected an error, parsed {file:?}"),
        Err(err) => {
            assert!(!err.to_string().is_empty());
            err
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Valid files.

fn check_valid(version: u32) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = valid_builder(version).build();
    let file = GgufFile::from_bytes(bytes.clone())?;
    assert_eq!(file.version(), version);
    assert_eq!(file.architecture(), Some("llama"));
    assert_eq!(file.alignment(), 64);
    assert_eq!(file.data_offset() % 64, 0);
    assert_eq!(file.bytes(), &bytes[..]);

    let kinds = all_value_kinds();
    assert_eq!(file.metadata().len(), kinds.len() + 1);
    for (key, value) in &kinds {
        assert_eq!(file.metadata().get(key), Some(value), "{key}");
    }
    let keys: Vec<&str> = file.metadata().iter().map(|(k, _)| k).collect();
    assert_eq!(keys[0], "general.architecture", "file order is kept");

    let names: Vec<&str> = file.tensors().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a.weight", "b.weight", "c.norm"]);
    let expected = [
        ("a.weight", vec![4, 3], GgmlType::F32, pattern(48, 1), 12),
        ("b.weight", vec![64, 2], GgmlType::Q4_1, pattern(80, 2), 128),
        ("c.norm", vec![3], GgmlType::F16, pattern(6, 3), 3),
    ];
    for (name, dims, ggml_type, data, n_elements) in expected {
        let view = file.tensor(name).ok_or(name)?;
        assert_eq!(view.name(), name);
        assert_eq!(view.dims(), &dims[..]);
        assert_eq!(view.ggml_type(), ggml_type);
        assert_eq!(view.data(), &data[..]);
        assert_eq!(view.n_elements(), n_elements);
        assert_eq!(view.info().n_bytes, data.len() as u64);
        assert_eq!(view.info().offset % 64, 0);
    }
    assert!(file.tensor("missing").is_none());
    Ok(())
}

#[test]
fn valid_v3_round_trip() {
    check_valid(3).unwrap();
}

#[test]
fn valid_v2_round_trip() {
    check_valid(2).unwrap();
}

#[test]
fn default_alignment_is_32_and_empty_file_parses() {
    let file = Builder::new(3)
        .tensor("x", &[5], GgmlType::F32, pattern(20, 0))
        .tensor("y", &[2], GgmlType::F32, pattern(8, 9))
        .parse()
        .unwrap();
    assert_eq!(file.alignment(), 32);
    assert_eq!(file.tensors()[1].offset, 32);
    assert_eq!(file.tensor("y").unwrap().data(), &pattern(8, 9)[..]);

    let empty = Builder::new(3).parse().unwrap();
    assert!(empty.tensors().is_empty() && empty.metadata().is_empty());
    assert_eq!(empty.architecture(), None);
}

#[test]
fn zero_sized_and_scalar_tensors() {
    let file = Builder::new(3)
        .tensor("scalar", &[], GgmlType::F32, pattern(4, 0))
        .raw_tensor("empty", &[0, 7], GgmlType::F32 as u32, Some(0))
        .parse()
        .unwrap();
    assert_eq!(file.tensor("scalar").unwrap().n_elements(), 1);
    let empty = file.tensor("empty").unwrap();
    assert_eq!((empty.n_elements(), empty.data().len()), (0, 0));
}

#[test]
fn open_maps_a_file_from_disk() {
    let dir = std::env::temp_dir().join(format!("gguf_hostile_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("valid.gguf");
    std::fs::write(&path, valid_builder(3).build()).unwrap();
    let file = GgufFile::open(&path).unwrap();
    assert_eq!(file.tensor("b.weight").unwrap().data(), &pattern(80, 2)[..]);

    let empty = dir.join("empty.gguf");
    std::fs::write(&empty, b"").unwrap();
    assert!(matches!(
        GgufFile::open(&empty),
        Err(GgufError::Truncated { .. })
    ));

    let missing = dir.join("missing.gguf");
    let err = expect_err(GgufFile::open(&missing));
    assert!(matches!(err, GgufError::Io { .. }));
    assert!(err.to_string().contains("missing.gguf"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hparams_from_a_built_file() {
    let u32v = MetadataValue::U32;
    let file = Builder::new(3)
        .kv(
            "general.architecture",
            MetadataValue::String("llama".into()),
        )
        .kv("llama.block_count", u32v(2))
        .kv("llama.embedding_length", u32v(128))
        .kv("llama.feed_forward_length", u32v(256))
        .kv("llama.context_length", u32v(512))
        .kv("llama.attention.head_count", u32v(4))
        .kv(
            "llama.attention.layer_norm_rms_epsilon",
            MetadataValue::F32(1e-6),
        )
        .parse()
        .unwrap();
    let hp = Hparams::from_metadata(file.metadata()).unwrap();
    assert_eq!(
        (hp.head_count_kv, hp.key_length, hp.rope_freq_base),
        (4, 32, 10_000.0)
    );

    let file = Builder::new(3)
        .kv(
            "general.architecture",
            MetadataValue::String("llama".into()),
        )
        .parse()
        .unwrap();
    let err = Hparams::from_metadata(file.metadata()).unwrap_err();
    assert!(err.to_string().contains("llama.block_count"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Truncation and corruption.

#[test]
fn truncated_at_every_byte_is_an_error() {
    for version in [2, 3] {
        let bytes = valid_builder(version).build();
        for len in 0..bytes.len() {
            let result = GgufFile::from_bytes(bytes[..len].to_vec());
            assert!(
                result.is_err(),
                "v{version} truncated to {len} bytes parsed"
            );
        }
    }
}

#[test]
fn truncation_errors_say_where() {
    let bytes = valid_builder(3).build();
    // Counts are checked against the bytes left before anything is read.
    let err = expect_err(GgufFile::from_bytes(bytes[..30].to_vec()));
    assert!(
        matches!(err, GgufError::CountTooLarge { offset: 8, .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("tensor count at offset 8"),
        "{err}"
    );
    let err = expect_err(GgufFile::from_bytes(bytes[..bytes.len() / 2].to_vec()));
    assert!(matches!(err, GgufError::Truncated { .. }), "{err}");
    assert!(err.to_string().contains("offset"), "{err}");
    let err = expect_err(GgufFile::from_bytes(bytes[..bytes.len() - 1].to_vec()));
    assert!(matches!(err, GgufError::TensorOutOfBounds { ref name, .. } if name == "c.norm"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random byte overwrites of a valid file: any outcome but a panic; a file that still
    /// parses must serve every tensor's bytes.
    #[test]
    fn corrupted_files_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = valid_builder(3).build();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        if cut.index(4) == 0 {
            bytes.truncate(cut.index(bytes.len()));
        }
        if let Ok(file) = GgufFile::from_bytes(bytes) {
            for info in file.tensors() {
                let view = file.tensor(&info.name).unwrap();
                prop_assert_eq!(view.data().len() as u64, info.n_bytes);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Header.

#[test]
fn bad_magic() {
    let mut bytes = valid_builder(3).build();
    bytes[..4].copy_from_slice(b"GGML");
    let err = expect_err(GgufFile::from_bytes(bytes));
    assert!(matches!(err, GgufError::BadMagic { found } if &found == b"GGML"));
    assert!(err.to_string().contains("GGUF"));
}

#[test]
fn unsupported_versions() {
    for version in [0, 1, 4, 1000] {
        let err = expect_err(Builder::new(version).parse());
        assert!(
            matches!(err, GgufError::UnsupportedVersion { version: v, .. } if v == version),
            "{err}"
        );
    }
}

#[test]
fn big_endian_is_recognised() {
    for version in [2u32, 3] {
        let err = expect_err(Builder::new(version.swap_bytes()).parse());
        assert!(matches!(err, GgufError::BigEndian { swapped, .. } if swapped == version));
        assert!(err.to_string().contains("big-endian"), "{err}");
    }
}

// ---------------------------------------------------------------------------------------------
// Absurd counts and lengths.

#[test]
fn huge_tensor_count() {
    for count in [u64::MAX, 1 << 40, 2] {
        let mut b = Builder::new(3);
        b.tensor_count = Some(count);
        let err = expect_err(b.parse());
        assert!(
            matches!(err, GgufError::CountTooLarge { .. }),
            "{count}: {err}"
        );
    }
}

#[test]
fn huge_metadata_count() {
    let mut b = Builder::new(3).kv("a", MetadataValue::U8(1));
    b.kv_count = Some(u64::MAX);
    assert!(matches!(
        expect_err(b.parse()),
        GgufError::CountTooLarge { .. }
    ));
}

#[test]
fn huge_string_lengths() {
    // Key length.
    let mut kv = W::default();
    kv.u64(u64::MAX).raw(&[b'a'; 16]);
    let err = expect_err(Builder::new(3).raw_kv(kv.0).parse());
    assert!(
        matches!(
            err,
            GgufError::Truncated {
                needed: u64::MAX,
                ..
            }
        ),
        "{err}"
    );
    // String value length.
    let mut kv = W::default();
    kv.str("k").u32(8).u64(u64::MAX - 1).raw(b"abc");
    let err = expect_err(Builder::new(3).raw_kv(kv.0).parse());
    assert!(err.to_string().contains("\"k\""), "{err}");
    // Tensor name length: with no metadata, the first tensor info follows the 24-byte header.
    let mut bytes = Builder::new(3)
        .tensor("t", &[1], GgmlType::F32, pattern(4, 0))
        .build();
    bytes[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
    let err = expect_err(GgufFile::from_bytes(bytes));
    assert!(
        matches!(err, GgufError::Truncated { offset: 32, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("name of tensor 0"), "{err}");
}

#[test]
fn huge_array_counts() {
    for (elem_type, count) in [
        (0u32, u64::MAX),
        (8, u64::MAX / 8 + 1),
        (9, 1 << 50),
        (12, 10),
    ] {
        let mut kv = W::default();
        kv.str("arr").u32(9).u32(elem_type).u64(count).raw(&[0; 16]);
        let err = expect_err(Builder::new(3).raw_kv(kv.0).parse());
        assert!(
            matches!(err, GgufError::CountTooLarge { .. }),
            "{elem_type}: {err}"
        );
    }
}

#[test]
fn deep_nesting_is_capped() {
    let nested = |depth: usize| {
        let mut kv = W::default();
        kv.str("deep").u32(9);
        for _ in 1..depth {
            kv.u32(9).u64(1);
        }
        kv.u32(0).u64(0);
        kv.0
    };
    assert!(Builder::new(3)
        .raw_kv(nested(MAX_ARRAY_DEPTH))
        .parse()
        .is_ok());
    let err = expect_err(Builder::new(3).raw_kv(nested(MAX_ARRAY_DEPTH + 1)).parse());
    assert!(matches!(err, GgufError::NestingTooDeep { .. }), "{err}");
    // Far deeper than any stack would take: stopped at the cap, not by recursion.
    let err = expect_err(Builder::new(3).raw_kv(nested(1_000_000)).parse());
    assert!(matches!(err, GgufError::NestingTooDeep { .. }), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Bad metadata.

#[test]
fn unknown_value_types() {
    for type_id in [13, 100, u32::MAX] {
        let mut kv = W::default();
        kv.str("k").u32(type_id).u64(0);
        let err = expect_err(Builder::new(3).raw_kv(kv.0).parse());
        assert!(matches!(err, GgufError::UnknownValueType { type_id: t, .. } if t == type_id));
        // Also as an array element type.
        let mut kv = W::default();
        kv.str("k").u32(9).u32(type_id).u64(0);
        let err = expect_err(Builder::new(3).raw_kv(kv.0).parse());
        assert!(matches!(err, GgufError::UnknownValueType { .. }), "{err}");
    }
}

#[test]
fn invalid_utf8_bool_and_duplicate_keys() {
    let mut kv = W::default();
    kv.u64(2).raw(&[0xc3, 0x28]).u32(0).u8(0);
    let err = expect_err(Builder::new(3).raw_kv(kv.0).parse());
    assert!(matches!(err, GgufError::InvalidUtf8 { .. }), "{err}");

    let mut kv = W::default();
    kv.str("b").u32(7).u8(2);
    let err = expect_err(Builder::new(3).raw_kv(kv.0).parse());
    assert!(
        matches!(err, GgufError::InvalidBool { byte: 2, .. }),
        "{err}"
    );

    let b = Builder::new(3)
        .kv("k", MetadataValue::U8(1))
        .kv("k", MetadataValue::U8(2));
    let err = expect_err(b.parse());
    assert!(matches!(err, GgufError::DuplicateKey { ref key, .. } if key == "k"));
}

#[test]
fn bad_alignment() {
    for alignment in [0u32, 3, 48, 100] {
        let b = Builder::new(3).kv("general.alignment", MetadataValue::U32(alignment));
        let err = expect_err(b.parse());
        assert!(
            matches!(err, GgufError::InvalidValue { ref key, .. } if key == "general.alignment")
        );
        assert!(err.to_string().contains(&alignment.to_string()), "{err}");
    }
    let b = Builder::new(3).kv("general.alignment", MetadataValue::String("32".into()));
    assert!(matches!(expect_err(b.parse()), GgufError::WrongType { .. }));
    // A huge alignment is a power of two, but puts the data section far past the end.
    let b = Builder::new(3)
        .kv("general.alignment", MetadataValue::U64(1 << 63))
        .raw_tensor("t", &[1], 0, Some(0));
    assert!(matches!(
        expect_err(b.parse()),
        GgufError::TensorOutOfBounds { .. }
    ));
}

// ---------------------------------------------------------------------------------------------
// Bad tensors.

#[test]
fn unknown_tensor_type() {
    for type_id in [4, 5, 31, 1000, u32::MAX] {
        let err = expect_err(
            Builder::new(3)
                .raw_tensor("t", &[32], type_id, None)
                .parse(),
        );
        assert!(
            matches!(err, GgufError::UnknownTensorType { type_id: t, ref name, .. } if t == type_id && name == "t"),
            "{err}"
        );
    }
}

#[test]
fn too_many_dims() {
    let dims = vec![1; MAX_DIMS as usize + 1];
    let err = expect_err(Builder::new(3).raw_tensor("t", &dims, 0, None).parse());
    assert!(
        matches!(err, GgufError::TooManyDims { n_dims: 5, .. }),
        "{err}"
    );
    // A huge n_dims is refused before reading (or allocating) any dimension.
    let mut bytes = Builder::new(3).raw_tensor("t", &[], 0, None).build();
    let n_dims_at = 4 + 4 + 8 + 8 + 8 + 1;
    bytes[n_dims_at..n_dims_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = expect_err(GgufFile::from_bytes(bytes));
    assert!(
        matches!(
            err,
            GgufError::TooManyDims {
                n_dims: u32::MAX,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn tensor_past_the_end() {
    let b = Builder::new(3)
        .tensor("a", &[8], GgmlType::F32, pattern(32, 0))
        .raw_tensor("far", &[8], GgmlType::F32 as u32, Some(1 << 20));
    let err = expect_err(b.parse());
    assert!(matches!(err, GgufError::TensorOutOfBounds { ref name, .. } if name == "far"));
    // Offset so large that data_offset + offset overflows.
    let b = Builder::new(3).raw_tensor("t", &[8], 0, Some(u64::MAX - 31));
    assert!(matches!(
        expect_err(b.parse()),
        GgufError::TensorOutOfBounds { .. }
    ));
    // Declared larger than its data.
    let b = Builder::new(3).tensor("t", &[9], GgmlType::F32, pattern(32, 0));
    assert!(matches!(
        expect_err(b.parse()),
        GgufError::TensorOutOfBounds { .. }
    ));
}

#[test]
fn tensor_size_overflow() {
    let shapes: [&[u64]; 4] = [
        &[1 << 40, 1 << 40, 1 << 40],
        &[u64::MAX, 2],
        &[u64::MAX - 31],
        &[1 << 62, 0],
    ];
    for dims in shapes {
        let err = expect_err(Builder::new(3).raw_tensor("t", dims, 0, None).parse());
        assert!(matches!(err, GgufError::BadShape { .. }), "{dims:?}: {err}");
    }
    // Elements fit in i64 but F32 bytes do not fit in u64.
    let dims = [1 << 31, 1 << 31, 1 << 0];
    let err = expect_err(Builder::new(3).raw_tensor("t", &dims, 0, None).parse());
    assert!(matches!(
        err,
        GgufError::TensorOutOfBounds { .. } | GgufError::BadShape { .. }
    ));
}

#[test]
fn row_not_whole_blocks() {
    let err = expect_err(Builder::new(3).raw_tensor("q", &[33, 2], 3, None).parse());
    assert!(err.to_string().contains("block size 32"), "{err}");
}

#[test]
fn misaligned_offset() {
    let b = Builder::new(3)
        .tensor("a", &[8], GgmlType::F32, pattern(32, 0))
        .raw_tensor("b", &[1], GgmlType::F32 as u32, Some(4));
    let err = expect_err(b.parse());
    assert!(
        matches!(
            err,
            GgufError::Misaligned {
                offset: 4,
                alignment: 32,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn overlapping_tensors() {
    let b = Builder::new(3)
        .tensor("a", &[16], GgmlType::F32, pattern(64, 0))
        .raw_tensor("b", &[8], GgmlType::F32 as u32, Some(32));
    assert!(matches!(
        expect_err(b.parse()),
        GgufError::TensorOverlap { .. }
    ));
}

#[test]
fn duplicate_tensor_names() {
    let b = Builder::new(3)
        .tensor("w", &[8], GgmlType::F32, pattern(32, 0))
        .tensor("w", &[8], GgmlType::F32, pattern(32, 1));
    let err = expect_err(b.parse());
    assert!(
        matches!(err, GgufError::DuplicateTensor { ref name, first: 0, second: 1 } if name == "w"),
        "{err}"
    );
}
