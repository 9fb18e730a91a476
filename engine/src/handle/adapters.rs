//! LoRA adapters named at start (`--lora-paths name=path`): loaded onto the model, described
//! for clients, and found again by the name a request gives. A path is llama.cpp's GGUF
//! adapter file, or a PEFT adapter (its directory, or its `.safetensors` file).

use super::EngineError;
use crate::gguf::GgufFile;
use crate::io::AdapterInfo;
use crate::model::lora::LoraAdapter;
use crate::model::ForwardModel;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Longest adapter name.
pub const MAX_ADAPTER_NAME_BYTES: usize = 128;

/// An adapter to load: the name requests use, and its GGUF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoraSpec {
    pub name: String,
    pub path: PathBuf,
}

impl LoraSpec {
    /// `name=path`, as the command line gives it (a bare path is named by its file stem).
    pub fn parse(arg: &str) -> Result<Self, String> {
        let (name, path) = match arg.split_once('=') {
            Some((name, path)) => (name.to_string(), PathBuf::from(path)),
            None => {
                let path = PathBuf::from(arg);
                let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
                (stem.unwrap_or_default(), path)
            }
        };
        check_name(&name)?;
        Ok(Self { name, path })
    }
}

/// A name requests can give in `model` (alone, or after the base model's name and a
/// colon) and in `lora_path`: printable, without spaces, colons or `=`.
fn check_name(name: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_graphic() && c != ':' && c != '=';
    if name.is_empty() || name.len() > MAX_ADAPTER_NAME_BYTES || !name.chars().all(allowed) {
        return Err(format!(
            "adapter name {name:?}: 1 to {MAX_ADAPTER_NAME_BYTES} printable ASCII characters \
             without spaces, ':' or '='"
        ));
    }
    Ok(())
}

/// Loads each of `specs` onto `model` (adapter `i` is `specs[i]`), refusing duplicate names,
/// a name equal to the base model's, and any file the model cannot apply.
pub fn load_adapters<M: ForwardModel>(
    model: &mut M,
    config: &crate::model::ModelConfig,
    base_name: &str,
    specs: &[LoraSpec],
) -> Result<Vec<AdapterInfo>, EngineError> {
    let mut loaded: Vec<AdapterInfo> = Vec::with_capacity(specs.len());
    for spec in specs {
        check_name(&spec.name).map_err(EngineError::Config)?;
        if spec.name == base_name || loaded.iter().any(|a| a.name == spec.name) {
            return Err(EngineError::Config(format!(
                "adapter name {:?} is taken (by the base model or another adapter)",
                spec.name
            )));
        }
        let context = |e: &dyn std::fmt::Display| {
            EngineError::Config(format!(
                "LoRA adapter {:?} ({}): {e}",
                spec.name,
                spec.path.display()
            ))
        };
        let (adapter, sha256) = if is_peft(&spec.path) {
            let adapter = LoraAdapter::from_peft(&spec.path, config).map_err(|e| context(&e))?;
            (adapter, peft_sha256(&spec.path).map_err(|e| context(&e))?)
        } else {
            let bytes = std::fs::read(&spec.path).map_err(|e| context(&e))?;
            let sha256 = hex::encode(Sha256::digest(&bytes));
            let file = GgufFile::from_bytes(bytes).map_err(|e| context(&e))?;
            let adapter = LoraAdapter::from_gguf(&file, config).map_err(|e| context(&e))?;
            (adapter, sha256)
        };
        let rank = adapter.rank();
        model.add_adapter(adapter).map_err(|e| context(&e))?;
        loaded.push(AdapterInfo {
            name: spec.name.clone(),
            path: spec.path.display().to_string(),
            rank,
            sha256,
        });
    }
    Ok(loaded)
}

/// Whether `path` is a PEFT adapter: a directory, or a `.safetensors` file.
fn is_peft(path: &Path) -> bool {
    path.is_dir() || path.extension().is_some_and(|e| e == "safetensors")
}

/// The sha256 of a PEFT adapter's weights and configuration together.
fn peft_sha256(path: &Path) -> std::io::Result<String> {
    let (dir, weights) = if path.is_dir() {
        (path.to_path_buf(), path.join("adapter_model.safetensors"))
    } else {
        (
            path.parent().map(Path::to_path_buf).unwrap_or_default(),
            path.to_path_buf(),
        )
    };
    let mut hasher = Sha256::new();
    for file in [weights, dir.join("adapter_config.json")] {
        hasher.update(Sha256::digest(std::fs::read(file)?));
    }
    Ok(hex::encode(hasher.finalize()))
}

/// The index of the adapter `name` names among `adapters`.
pub fn adapter_index(adapters: &[AdapterInfo], name: &str) -> Option<u32> {
    let i = adapters.iter().position(|a| a.name == name)?;
    u32::try_from(i).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_as_name_equals_path_or_a_bare_path() {
        assert_eq!(
            LoraSpec::parse("sql=/a/b.gguf").unwrap(),
            LoraSpec {
                name: "sql".into(),
                path: "/a/b.gguf".into()
            }
        );
        assert_eq!(LoraSpec::parse("/x/tone-v2.gguf").unwrap().name, "tone-v2");
        for bad in ["=/a.gguf", "a b=/a.gguf", "a:b=/a.gguf", "é=/a.gguf"] {
            assert!(LoraSpec::parse(bad).is_err(), "{bad}");
        }
        let long = format!("{}=/a.gguf", "n".repeat(MAX_ADAPTER_NAME_BYTES + 1));
        assert!(LoraSpec::parse(&long).is_err());
    }
}
