//! LoRA adapters named at start (`--lora-paths name=path`): loaded onto the model, described
//! for clients, and found again by the name a request gives. A path is llama.cpp's GGUF
//! adapter file, or a PEFT adapter (its directory, or its `.safetensors` file).

use super::{EngineError, EngineHandle};
use crate::io::{AdapterInfo, Command};
use crate::model::lora::read_adapter;
use crate::model::ForwardModel;
use std::path::PathBuf;
use tokio::sync::oneshot;

/// Longest adapter name.
pub const MAX_ADAPTER_NAME_BYTES: usize = 128;

/// An adapter to load: the name requests use, and its file (PEFT directory or weights, or
/// GGUF).
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
    // ':' separates `<base>:<adapter>`, '=' NAME=PATH, and '*' ends a prefix in a tenant's
    // `lora_adapters`.
    let allowed = |c: char| c.is_ascii_graphic() && !matches!(c, ':' | '=' | '*');
    if name.is_empty() || name.len() > MAX_ADAPTER_NAME_BYTES || !name.chars().all(allowed) {
        return Err(format!(
            "adapter name {name:?}: 1 to {MAX_ADAPTER_NAME_BYTES} printable ASCII characters \
             without spaces, ':', '=' or '*'"
        ));
    }
    Ok(())
}

/// Checks that `name` may name a new adapter: well formed, and neither the base model's name
/// nor a served adapter's.
pub fn check_new_name(name: &str, base_name: &str, served: &[AdapterInfo]) -> Result<(), String> {
    check_name(name)?;
    if name == base_name || served.iter().any(|a| a.name == name) {
        return Err(format!(
            "adapter name {name:?} is taken (by the base model or another adapter)"
        ));
    }
    Ok(())
}

/// Loads each of `specs` onto `model` (adapter `i` is `specs[i]`), refusing duplicate names,
/// a name equal to the base model's, and any file the model cannot apply.
pub fn load_adapters<M: ForwardModel>(
    model: &mut M,
    base_name: &str,
    specs: &[LoraSpec],
) -> Result<Vec<AdapterInfo>, EngineError> {
    let mut loaded: Vec<AdapterInfo> = Vec::with_capacity(specs.len());
    for spec in specs {
        check_new_name(&spec.name, base_name, &loaded).map_err(EngineError::Config)?;
        let context = |e: &dyn std::fmt::Display| {
            EngineError::Config(format!(
                "LoRA adapter {:?} ({}): {e}",
                spec.name,
                spec.path.display()
            ))
        };
        let base = model
            .adapter_base()
            .ok_or_else(|| context(&"this runner takes no LoRA adapters"))?;
        let (adapter, sha256) = read_adapter(&spec.path, &base).map_err(|e| context(&e))?;
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

/// The number of the served adapter `name` (`adapters` by number, `None` where unloaded).
pub fn adapter_index(adapters: &[Option<AdapterInfo>], name: &str) -> Option<u32> {
    let i = adapters
        .iter()
        .position(|a| a.as_ref().is_some_and(|a| a.name == name))?;
    u32::try_from(i).ok()
}

/// Why an adapter could not be loaded or unloaded.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum AdapterError {
    /// A bad or taken name (400).
    #[error("{0}")]
    BadName(String),
    /// A file the model cannot apply, or a runner that takes none (400).
    #[error("{0}")]
    Invalid(String),
    /// No adapter of that name is served (404).
    #[error("{0}")]
    NotFound(String),
    /// The engine has stopped (503).
    #[error("the engine has stopped")]
    Stopped,
}

impl EngineHandle {
    /// Loads the adapter of `spec` while serving: its file is read on the blocking pool,
    /// then the scheduler adds it between two steps; requests may name it once this returns.
    pub async fn load_adapter(&self, spec: LoraSpec) -> Result<AdapterInfo, AdapterError> {
        // In a task of its own: a caller that goes away mid-load cannot leave the adapter
        // loaded but unnamed (it could never be unloaded).
        let handle = self.clone();
        let load = tokio::spawn(async move { handle.load_adapter_to_end(spec).await });
        load.await.map_err(|_| AdapterError::Stopped)?
    }

    async fn load_adapter_to_end(&self, spec: LoraSpec) -> Result<AdapterInfo, AdapterError> {
        let _one_at_a_time = self.inner.adapter_changes.lock().await;
        check_new_name(&spec.name, &self.inner.model_info.name, &self.adapters())
            .map_err(AdapterError::BadName)?;
        let base = (self.inner.adapter_base.clone())
            .ok_or_else(|| AdapterError::Invalid("this runner takes no LoRA adapters".into()))?;
        let path = spec.path.clone();
        let read = tokio::task::spawn_blocking(move || read_adapter(&path, &base));
        let (adapter, sha256) = (read.await)
            .map_err(|_| AdapterError::Stopped)?
            .map_err(|e| AdapterError::Invalid(e.to_string()))?;
        let rank = adapter.rank();
        let (reply, rx) = oneshot::channel();
        let command = Command::AddAdapter {
            adapter: Box::new(adapter),
            name: spec.name.clone(),
            sha256: sha256.clone(),
            reply,
        };
        self.inner
            .tx
            .send(command)
            .map_err(|_| AdapterError::Stopped)?;
        let id = (rx.await)
            .map_err(|_| AdapterError::Stopped)?
            .map_err(AdapterError::Invalid)?;
        let info = AdapterInfo {
            name: spec.name,
            path: spec.path.display().to_string(),
            rank,
            sha256,
        };
        let mut served = self.inner.adapters.write();
        let id = id as usize;
        if served.len() <= id {
            served.resize(id + 1, None);
        }
        if let Some(slot) = served.get_mut(id) {
            *slot = Some(info.clone());
        }
        Ok(info)
    }

    /// Unloads the adapter `name`: new requests may not name it from now on; those already
    /// in the engine finish with it, and its weights and cached prefixes go after them.
    pub async fn unload_adapter(&self, name: &str) -> Result<AdapterInfo, AdapterError> {
        let _one_at_a_time = self.inner.adapter_changes.lock().await;
        let id = self
            .adapter(name)
            .ok_or_else(|| AdapterError::NotFound(format!("no LoRA adapter {name:?} is served")))?;
        let info = (self.inner.adapters.write().get_mut(id as usize)).and_then(Option::take);
        (self.inner.tx.send(Command::UnloadAdapter { id })).map_err(|_| AdapterError::Stopped)?;
        info.ok_or(AdapterError::Stopped)
    }
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
        for bad in [
            "=/a.gguf",
            "a b=/a.gguf",
            "a:b=/a.gguf",
            "a*=/a.gguf",
            "é=/a.gguf",
        ] {
            assert!(LoraSpec::parse(bad).is_err(), "{bad}");
        }
        let long = format!("{}=/a.gguf", "n".repeat(MAX_ADAPTER_NAME_BYTES + 1));
        assert!(LoraSpec::parse(&long).is_err());
    }
}
