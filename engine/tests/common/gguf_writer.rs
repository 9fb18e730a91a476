//! A small GGUF writer for tests: files built in memory, valid or deliberately broken.

#![allow(dead_code, clippy::unwrap_used)]

use engine::gguf::{GgufError, GgufFile, MetadataValue};
use kernels::quant::GgmlType;

/// Little-endian byte sink with the GGUF encodings.
#[derive(Default)]
pub struct W(pub Vec<u8>);

impl W {
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.extend_from_slice(bytes);
        self
    }
    pub fn str(&mut self, s: &str) -> &mut Self {
        self.u64(s.len() as u64).raw(s.as_bytes())
    }
}

fn type_id(v: &MetadataValue) -> u32 {
    match v {
        MetadataValue::U8(_) => 0,
        MetadataValue::I8(_) => 1,
        MetadataValue::U16(_) => 2,
        MetadataValue::I16(_) => 3,
        MetadataValue::U32(_) => 4,
        MetadataValue::I32(_) => 5,
        MetadataValue::F32(_) => 6,
        MetadataValue::Bool(_) => 7,
        MetadataValue::String(_) => 8,
        MetadataValue::Array(_) => 9,
        MetadataValue::U64(_) => 10,
        MetadataValue::I64(_) => 11,
        MetadataValue::F64(_) => 12,
    }
}

/// The value's payload (without its type id).
fn put_value(w: &mut W, v: &MetadataValue) {
    match v {
        MetadataValue::U8(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::I8(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::U16(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::I16(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::U32(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::I32(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::U64(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::I64(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::F32(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::F64(x) => w.raw(&x.to_le_bytes()),
        MetadataValue::Bool(x) => w.u8(u8::from(*x)),
        MetadataValue::String(s) => w.str(s),
        MetadataValue::Array(items) => {
            w.u32(items.first().map_or(0, type_id))
                .u64(items.len() as u64);
            items.iter().for_each(|item| put_value(w, item));
            w
        }
    };
}

pub struct TensorSpec {
    pub name: String,
    pub dims: Vec<u64>,
    pub type_id: u32,
    pub data: Vec<u8>,
    /// Written as is instead of the computed offset.
    pub offset: Option<u64>,
}

/// Builds a file: header, metadata, tensor infos, data section (tensors packed in order, each
/// aligned; no padding after the last one, so every byte of the file matters).
pub struct Builder {
    pub version: u32,
    pub kvs: Vec<(String, MetadataValue)>,
    /// Pre-encoded key/value pairs, appended after `kvs` (and counted).
    pub raw_kvs: Vec<Vec<u8>>,
    pub tensors: Vec<TensorSpec>,
    /// Alignment used for the layout (the reader takes it from `general.alignment`).
    pub alignment: u64,
    pub tensor_count: Option<u64>,
    pub kv_count: Option<u64>,
}

impl Builder {
    pub fn new(version: u32) -> Self {
        Builder {
            version,
            kvs: Vec::new(),
            raw_kvs: Vec::new(),
            tensors: Vec::new(),
            alignment: 32,
            tensor_count: None,
            kv_count: None,
        }
    }

    pub fn kv(mut self, key: &str, value: MetadataValue) -> Self {
        self.kvs.push((key.to_owned(), value));
        self
    }

    pub fn raw_kv(mut self, bytes: Vec<u8>) -> Self {
        self.raw_kvs.push(bytes);
        self
    }

    pub fn tensor(mut self, name: &str, dims: &[u64], ggml_type: GgmlType, data: Vec<u8>) -> Self {
        self.tensors.push(TensorSpec {
            name: name.to_owned(),
            dims: dims.to_vec(),
            type_id: ggml_type as u32,
            data,
            offset: None,
        });
        self
    }

    pub fn raw_tensor(
        mut self,
        name: &str,
        dims: &[u64],
        type_id: u32,
        offset: Option<u64>,
    ) -> Self {
        self.tensors.push(TensorSpec {
            name: name.to_owned(),
            dims: dims.to_vec(),
            type_id,
            data: Vec::new(),
            offset,
        });
        self
    }

    pub fn build(&self) -> Vec<u8> {
        let align = |x: u64| x.div_ceil(self.alignment) * self.alignment;
        let mut w = W::default();
        w.raw(b"GGUF").u32(self.version);
        w.u64(self.tensor_count.unwrap_or(self.tensors.len() as u64));
        w.u64(
            self.kv_count
                .unwrap_or((self.kvs.len() + self.raw_kvs.len()) as u64),
        );
        for (key, value) in &self.kvs {
            w.str(key).u32(type_id(value));
            put_value(&mut w, value);
        }
        self.raw_kvs.iter().for_each(|kv| {
            w.raw(kv);
        });
        let mut offsets = Vec::new();
        let mut next = 0u64;
        for t in &self.tensors {
            let offset = align(next);
            offsets.push(offset);
            next = offset + t.data.len() as u64;
        }
        for (t, &offset) in self.tensors.iter().zip(&offsets) {
            w.str(&t.name).u32(t.dims.len() as u32);
            t.dims.iter().for_each(|&d| {
                w.u64(d);
            });
            w.u32(t.type_id).u64(t.offset.unwrap_or(offset));
        }
        let data_start = align(w.0.len() as u64) as usize;
        for (t, &offset) in self.tensors.iter().zip(&offsets) {
            if t.data.is_empty() {
                continue;
            }
            let start = data_start + offset as usize;
            w.0.resize(start, 0);
            w.raw(&t.data);
        }
        w.0
    }

    pub fn parse(&self) -> Result<GgufFile, GgufError> {
        GgufFile::from_bytes(self.build())
    }
}

/// A tensor to put into a rebuilt file: name, dims, type and bytes.
pub type NewTensor = (String, Vec<u64>, GgmlType, Vec<u8>);

/// `file` written again with `kvs` set (replacing keys of the same name), the tensors named in
/// `drop` left out, and `add` appended (replacing tensors of the same name).
pub fn rebuild(
    file: &GgufFile,
    kvs: &[(&str, MetadataValue)],
    drop: &[&str],
    add: Vec<NewTensor>,
) -> GgufFile {
    let mut b = Builder::new(3);
    b.alignment = file.alignment();
    for (key, value) in file.metadata().iter() {
        if !kvs.iter().any(|(k, _)| *k == key) {
            b = b.kv(key, value.clone());
        }
    }
    for (key, value) in kvs {
        b = b.kv(key, value.clone());
    }
    for info in file.tensors() {
        let replaced = add.iter().any(|(name, ..)| *name == info.name);
        if drop.contains(&info.name.as_str()) || replaced {
            continue;
        }
        let t = file.tensor(&info.name).unwrap();
        b = b.tensor(t.name(), t.dims(), t.ggml_type(), t.data().to_vec());
    }
    for (name, dims, ggml_type, data) in add {
        b = b.tensor(&name, &dims, ggml_type, data);
    }
    GgufFile::from_bytes(b.build()).unwrap()
}
