//! Which model a request runs: the base model or one of the LoRA adapters served beside it.
//! SGLang's `lora_path` names an adapter; so does `model`, as vLLM reads it (the adapter's
//! name) and as SGLang writes it (`<base>:<adapter>`). Without adapters any `model` is the
//! one model served, as before; once any was served, a `model` that names nothing served is
//! a 404, so a misspelt or unloaded adapter never falls back to the base model unnoticed.

use super::error::ApiError;
use crate::handle::EngineHandle;
use crate::server::adapters::{usable_adapter, usable_adapters};
use crate::tenants::Caller;
use serde_json::Value;

/// The model a request runs, and the name its responses report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServedModel {
    pub adapter: Option<u32>,
    pub name: String,
}

/// The model `model` and `lora_path` (a request's fields) ask for; an adapter `caller` may
/// not run counts as not served.
pub fn served_model(
    engine: &EngineHandle,
    caller: &Caller,
    model: Option<&str>,
    lora_path: Option<&Value>,
) -> Result<ServedModel, ApiError> {
    let info = engine.model_info();
    let adapter = |name: &str| {
        usable_adapter(engine, caller, name).map(|a| ServedModel {
            adapter: Some(a),
            name: name.to_string(),
        })
    };
    let base = ServedModel {
        adapter: None,
        name: info.name.clone(),
    };
    let by_model = match model {
        None => None,
        Some(m) if m == info.name => Some(base.clone()),
        Some(m) => adapter(m)
            .or_else(|| m.rsplit_once(':').and_then(|(_, name)| adapter(name)))
            .map(Some)
            .or_else(|| (!engine.adapters_ever_served()).then_some(None))
            .ok_or_else(|| unknown_model(engine, caller, m))?,
    };
    let by_path = match lora_path {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some(adapter(name).ok_or_else(|| {
            ApiError::invalid_param(
                "lora_path",
                format!(
                    "lora_path: no LoRA adapter {name:?} is loaded{}",
                    loaded(engine, caller)
                ),
            )
        })?),
        Some(_) => {
            return Err(ApiError::invalid_param(
                "lora_path",
                "lora_path: the name of one loaded LoRA adapter (a string)",
            ))
        }
    };
    match (by_model, by_path) {
        (Some(m), Some(p)) if m.adapter.is_some() && m != p => Err(ApiError::invalid_param(
            "lora_path",
            format!(
                "lora_path names adapter {:?} but model names {:?}",
                p.name, m.name
            ),
        )),
        (_, Some(p)) => Ok(p),
        (m, None) => Ok(m.unwrap_or(base)),
    }
}

fn unknown_model(engine: &EngineHandle, caller: &Caller, model: &str) -> ApiError {
    ApiError::not_found(format!(
        "no model {model:?} is served here: the base model is {:?}{}",
        engine.model_info().name,
        loaded(engine, caller)
    ))
    .with_param("model")
    .with_code("model_not_found")
}

/// ", the LoRA adapters a, b" (those `caller` may run), for error messages.
fn loaded(engine: &EngineHandle, caller: &Caller) -> String {
    let served = usable_adapters(engine, caller);
    let names: Vec<&str> = served.iter().map(|a| a.name.as_str()).collect();
    if names.is_empty() {
        " (no LoRA adapters are loaded)".into()
    } else {
        format!(", the LoRA adapters {}", names.join(", "))
    }
}
