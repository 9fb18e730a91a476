//! The one entry point that turns a GGUF file into a runnable model: it dispatches on
//! `general.architecture` to the family that knows its hyper-parameters and weight names,
//! then places the weights on the device. A new family is a folder and a line in
//! [`FAMILIES`].

use super::smollm3;
use super::{
    deepseek2, exaone4, gemma2, gemma3, gemma4, glm4moe, gpt_oss, granite, lfm2, llama, llama4,
    minimax_m2,
};
use super::{mistral3, nemotron_h, olmo2, phi3, qwen2, qwen2moe, qwen3, qwen35, qwen3moe};
use super::{Device, Model, ModelConfig, ModelError, Weights};
use crate::gguf::GgufFile;

type LoadWeights = fn(&GgufFile, &LoadOptions) -> Result<Weights, ModelError>;

/// What the engine will do with the model, where a family's weights depend on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// The longest sequence that will be served (`--max-context-len`); 0: the model's own
    /// context. Phi-3's LongRoPE files pick their short or long frequency factors by it, as
    /// llama.cpp does by its context size.
    pub max_context_len: usize,
}

impl LoadOptions {
    /// The context that will be served for a model trained on `context_length` tokens.
    pub fn served_context(&self, context_length: usize) -> usize {
        match self.max_context_len {
            0 => context_length,
            n => n.min(context_length),
        }
    }
}

/// Every supported family, by the `general.architecture` it answers to.
const FAMILIES: [(&str, LoadWeights); 27] = [
    (llama::ARCHITECTURE, llama::load),
    (qwen2::ARCHITECTURE, qwen2::load),
    (qwen3::ARCHITECTURE, qwen3::load),
    (qwen3moe::ARCHITECTURE, qwen3moe::load),
    (gemma2::ARCHITECTURE, gemma2::load),
    (gemma3::ARCHITECTURE, gemma3::load),
    (gemma4::ARCHITECTURE, gemma4::load),
    (smollm3::ARCHITECTURE, smollm3::load),
    (phi3::ARCHITECTURE, phi3::load),
    (granite::ARCHITECTURE, granite::load),
    (granite::MOE_ARCHITECTURE, granite::load),
    (granite::HYBRID_ARCHITECTURE, granite::load),
    (gpt_oss::ARCHITECTURE, gpt_oss::load),
    (olmo2::ARCHITECTURE, olmo2::load),
    (deepseek2::ARCHITECTURE, deepseek2::load),
    (glm4moe::ARCHITECTURE, glm4moe::load),
    (qwen2moe::ARCHITECTURE, qwen2moe::load),
    (minimax_m2::ARCHITECTURE, minimax_m2::load),
    (mistral3::ARCHITECTURE, mistral3::load),
    (llama4::ARCHITECTURE, llama4::load),
    (qwen35::ARCHITECTURE, qwen35::load),
    (qwen35::MOE_ARCHITECTURE, qwen35::load),
    (qwen35::NEXT_ARCHITECTURE, qwen35::load),
    (lfm2::ARCHITECTURE, lfm2::load),
    (lfm2::MOE_ARCHITECTURE, lfm2::load),
    (exaone4::ARCHITECTURE, exaone4::load),
    (nemotron_h::ARCHITECTURE, nemotron_h::load),
];

/// The architectures [`load`] accepts.
pub fn supported_architectures() -> impl Iterator<Item = &'static str> {
    FAMILIES.iter().map(|(name, _)| *name)
}

/// The weights of the file's family, on the host.
pub fn load_weights(file: &GgufFile, options: &LoadOptions) -> Result<Weights, ModelError> {
    let architecture = file.architecture().unwrap_or("");
    let Some((_, load)) = FAMILIES.iter().find(|(name, _)| *name == architecture) else {
        let supported: Vec<_> = supported_architectures().collect();
        return Err(ModelError::Unsupported(format!(
            "architecture {architecture:?} (general.architecture); supported: {}",
            supported.join(", ")
        )));
    };
    load(file, options)
}

/// A model ready to serve on one device.
pub enum LoadedModel {
    Cpu(Box<Model>),
    #[cfg(feature = "cuda")]
    Cuda(Box<super::gpu::GpuModel>),
}

impl LoadedModel {
    pub fn config(&self) -> &ModelConfig {
        match self {
            LoadedModel::Cpu(m) => m.config(),
            #[cfg(feature = "cuda")]
            LoadedModel::Cuda(m) => m.config(),
        }
    }
}

/// Loads the file's family and places it on `device`.
pub fn load(
    file: &GgufFile,
    device: Device,
    options: &LoadOptions,
) -> Result<LoadedModel, ModelError> {
    let model = Model::from_weights(load_weights(file, options)?);
    match device {
        Device::Cpu => Ok(LoadedModel::Cpu(Box::new(model))),
        #[cfg(feature = "cuda")]
        Device::Cuda(ordinal) => Ok(LoadedModel::Cuda(Box::new(
            super::gpu::GpuModel::from_model(&model, ordinal)?,
        ))),
        #[cfg(not(feature = "cuda"))]
        Device::Cuda(_) => Err(ModelError::Unsupported(format!(
            "device {device} needs a build with CUDA support (cargo build --features cuda)"
        ))),
    }
}
