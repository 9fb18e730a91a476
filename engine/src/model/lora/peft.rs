//! LoRA adapters as Hugging Face PEFT saves them (what SGLang and vLLM load): a directory
//! with `adapter_config.json` (`r`, `lora_alpha`, `use_rslora`, ...) and
//! `adapter_model.safetensors` (`...layers.N.self_attn.q_proj.lora_A.weight`, `[r, in]`, and
//! `lora_B.weight`, `[out, r]`). The base model is the GGUF llama.cpp converted, so each
//! update is laid out as the converter lays out its projection: for the families whose Q and
//! K rows it reorders for its RoPE (llama, SmolLM3, Granite), B's rows are reordered the same
//! way.

use super::{checked_place, locate, LoraAdapter, LowRank};
use crate::model::{ModelConfig, ModelError};
use half::{bf16, f16};
use safetensors::{Dtype, SafeTensors};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::Path;

/// The parts of `adapter_config.json` that change what the adapter computes.
#[derive(Debug, Deserialize)]
struct PeftConfig {
    #[serde(default)]
    peft_type: Option<String>,
    r: Option<u32>,
    lora_alpha: f64,
    #[serde(default)]
    use_rslora: bool,
    #[serde(default)]
    use_dora: bool,
    #[serde(default)]
    fan_in_fan_out: bool,
    #[serde(default)]
    bias: Option<String>,
    #[serde(default)]
    modules_to_save: Option<serde_json::Value>,
    #[serde(default)]
    alpha_pattern: Option<serde_json::Map<String, serde_json::Value>>,
}

impl PeftConfig {
    /// Refuses what this loader would compute wrongly.
    fn check(&self) -> Result<(), ModelError> {
        let refuse = |why: &str| Err(ModelError::Adapter(format!("adapter_config.json: {why}")));
        if self.peft_type.as_deref().is_some_and(|t| t != "LORA") {
            return refuse("only peft_type LORA is supported");
        }
        if self.use_dora {
            return refuse("DoRA (use_dora) is not supported");
        }
        if self.fan_in_fan_out {
            return refuse("fan_in_fan_out (Conv1D layers) is not supported");
        }
        if self.bias.as_deref().is_some_and(|b| b != "none") {
            return refuse("trained biases (bias other than \"none\") are not supported");
        }
        let saved = match &self.modules_to_save {
            None | Some(serde_json::Value::Null) => false,
            Some(serde_json::Value::Array(a)) => !a.is_empty(),
            Some(_) => true,
        };
        if saved {
            return refuse("modules_to_save (whole layers replaced) is not supported");
        }
        if self.alpha_pattern.as_ref().is_some_and(|p| !p.is_empty()) {
            return refuse("alpha_pattern (an alpha per module) is not supported");
        }
        if !self.lora_alpha.is_finite() || self.r == Some(0) {
            return refuse("lora_alpha must be a finite number and r positive");
        }
        Ok(())
    }

    /// PEFT's scale of a rank-`rank` update.
    fn scale(&self, rank: usize) -> f32 {
        let rank = rank as f64;
        let divisor = if self.use_rslora { rank.sqrt() } else { rank };
        (self.lora_alpha / divisor) as f32
    }
}

/// Whether llama.cpp's converter reorders Q and K rows for this architecture's RoPE.
fn permutes_qk(architecture: &str) -> bool {
    matches!(architecture, "llama" | "smollm3" | "granite")
}

impl LoraAdapter {
    /// Reads the PEFT adapter at `path` (its directory, or its `.safetensors` file with
    /// `adapter_config.json` beside it) for a base model of `config`.
    pub fn from_peft(path: &Path, config: &ModelConfig) -> Result<Self, ModelError> {
        Ok(Self::read_peft(path, config)?.0)
    }

    /// [`Self::from_peft`], and the sha256 of what it read (weights and configuration).
    pub(super) fn read_peft(
        path: &Path,
        config: &ModelConfig,
    ) -> Result<(Self, String), ModelError> {
        let (dir, weights) = super::read::peft_files(path);
        let config_bytes = super::read::read_file(&dir.join("adapter_config.json"))?;
        let weight_bytes = super::read::read_file(&weights)?;
        let mut hasher = Sha256::new();
        hasher.update(Sha256::digest(&weight_bytes));
        hasher.update(Sha256::digest(&config_bytes));
        let peft: PeftConfig = serde_json::from_slice(&config_bytes)
            .map_err(|e| ModelError::Adapter(format!("adapter_config.json: {e}")))?;
        peft.check()?;
        let adapter = Self::from_peft_bytes(&weight_bytes, &peft, config)?;
        Ok((adapter, hex::encode(hasher.finalize())))
    }

    fn from_peft_bytes(
        bytes: &[u8],
        peft: &PeftConfig,
        config: &ModelConfig,
    ) -> Result<Self, ModelError> {
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| ModelError::Adapter(format!("adapter_model.safetensors: {e}")))?;
        let mut adapter = Self::empty(config);
        let names = tensors.names();
        for name in &names {
            let clean = name.replace(".default.", ".");
            let Some(prefix) = clean.strip_suffix(".lora_A.weight") else {
                if clean.ends_with(".lora_B.weight") {
                    // Read with its A.
                    continue;
                }
                return Err(ModelError::Adapter(format!(
                    "tensor {name:?} is neither a lora_A nor a lora_B weight"
                )));
            };
            let base = gguf_name(prefix).ok_or_else(|| {
                ModelError::Adapter(format!(
                    "{prefix}: only the attention and dense MLP projections of the layers \
                     can be adapted"
                ))
            })?;
            let (layer, target, place) = locate(&base, config)?;
            let b_name = name.replace("lora_A", "lora_B");
            let a = tensors
                .tensor(name)
                .map_err(|e| ModelError::Adapter(format!("{name}: {e}")))?;
            let b = tensors.tensor(&b_name).map_err(|_| {
                ModelError::Adapter(format!("{prefix}: a lora_A without its lora_B"))
            })?;
            let (rank, n_in) = shape2(a.shape()).ok_or_else(|| shape_error(name, a.shape()))?;
            let (n_out, rank_b) =
                shape2(b.shape()).ok_or_else(|| shape_error(&b_name, b.shape()))?;
            let place = checked_place(&base, place, [n_in, rank, rank_b, n_out])?;
            let mut b_values = values(&b_name, b.dtype(), b.data(), n_out * rank)?;
            if permutes_qk(&config.architecture) {
                let heads = match base.rsplit('.').nth(1) {
                    Some("attn_q") => Some(config.num_heads),
                    Some("attn_k") => Some(config.num_kv_heads),
                    _ => None,
                };
                if let Some(heads) = heads {
                    b_values = permute_rows(&b_values, heads, rank);
                }
            }
            let a_values = values(name, a.dtype(), a.data(), rank * n_in)?;
            let update = LowRank::new(&base, place, a_values, b_values, peft.scale(rank))?;
            adapter.push(&base, layer, target, update)?;
        }
        for name in &names {
            let clean = name.replace(".default.", ".");
            if let Some(prefix) = clean.strip_suffix(".lora_B.weight") {
                let a = name.replace("lora_B", "lora_A");
                if tensors.tensor(&a).is_err() {
                    return Err(ModelError::Adapter(format!(
                        "{prefix}: a lora_B without its lora_A"
                    )));
                }
            }
        }
        adapter.finished()
    }
}

/// The GGUF name (`blk.N.attn_q.weight`) of the projection PEFT calls `prefix`
/// (`base_model.model.model.layers.N.self_attn.q_proj`).
fn gguf_name(prefix: &str) -> Option<String> {
    let at = prefix.rfind("layers.")?;
    let rest = &prefix[at + "layers.".len()..];
    let (layer, module) = rest.split_once('.')?;
    let layer: usize = layer.parse().ok()?;
    let projection = match module {
        "self_attn.q_proj" => "attn_q",
        "self_attn.k_proj" => "attn_k",
        "self_attn.v_proj" => "attn_v",
        "self_attn.qkv_proj" => "attn_qkv",
        "self_attn.o_proj" => "attn_output",
        "mlp.gate_proj" => "ffn_gate",
        "mlp.up_proj" => "ffn_up",
        // Phi-3's gate|up, which llama.cpp keeps fused as ffn_up.
        "mlp.gate_up_proj" => "ffn_up",
        "mlp.down_proj" => "ffn_down",
        _ => return None,
    };
    Some(format!("blk.{layer}.{projection}.weight"))
}

fn shape2(shape: &[usize]) -> Option<(usize, usize)> {
    match shape {
        [x, y] => Some((*x, *y)),
        _ => None,
    }
}

fn shape_error(name: &str, shape: &[usize]) -> ModelError {
    ModelError::Adapter(format!("{name}: shape {shape:?}, expected two dimensions"))
}

/// A tensor's `len` values as f32.
fn values(name: &str, dtype: Dtype, data: &[u8], len: usize) -> Result<Vec<f32>, ModelError> {
    let width = match dtype {
        Dtype::F32 => 4,
        Dtype::F16 | Dtype::BF16 => 2,
        other => {
            return Err(ModelError::Adapter(format!(
                "{name}: {other:?} values (f32, f16 or bf16 only)"
            )))
        }
    };
    if data.len() != len * width {
        return Err(ModelError::Adapter(format!(
            "{name}: {} bytes for {len} values",
            data.len()
        )));
    }
    let out = data.chunks_exact(width).map(|c| match (dtype, c) {
        (Dtype::F32, [a, b, c, d]) => f32::from_le_bytes([*a, *b, *c, *d]),
        (Dtype::F16, [a, b]) => f16::from_le_bytes([*a, *b]).to_f32(),
        (_, [a, b]) => bf16::from_le_bytes([*a, *b]).to_f32(),
        _ => f32::NAN,
    });
    Ok(out.collect())
}

/// llama.cpp's reordering of a Q or K projection's rows for its RoPE (`LlamaModel.permute`
/// in its converter: per head, the rows of the two halves interleaved), applied to the
/// `[rows, width]` matrix `m` of `heads` heads.
fn permute_rows(m: &[f32], heads: usize, width: usize) -> Vec<f32> {
    let rows = m.len() / width.max(1);
    let head_dim = rows / heads.max(1);
    let half = head_dim / 2;
    let mut out = Vec::with_capacity(m.len());
    for h in 0..heads {
        for j in 0..half {
            for s in 0..2 {
                let from = h * head_dim + s * half + j;
                out.extend_from_slice(&m[from * width..(from + 1) * width]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// llama.cpp's converter: `w.reshape(n_head, 2, rows // n_head // 2, width)
    /// .swapaxes(1, 2).reshape(rows, width)`, written out on row ids.
    #[test]
    fn rows_are_reordered_as_llama_cpp_reorders_q_and_k() {
        let (heads, head_dim) = (2, 6);
        let m: Vec<f32> = (0..heads * head_dim).map(|r| r as f32).collect();
        // Head 0: rows 0..3 are the first half, 3..6 the second; interleaved.
        assert_eq!(
            permute_rows(&m, heads, 1),
            [0.0, 3.0, 1.0, 4.0, 2.0, 5.0, 6.0, 9.0, 7.0, 10.0, 8.0, 11.0]
        );
        let wide: Vec<f32> = (0..heads * head_dim * 2).map(|v| v as f32).collect();
        let permuted = permute_rows(&wide, heads, 2);
        assert_eq!(&permuted[..4], &[0.0, 1.0, 6.0, 7.0]);
    }

    #[test]
    fn peft_names_map_to_gguf_names() {
        let name = |p: &str| gguf_name(p);
        assert_eq!(
            name("base_model.model.model.layers.3.self_attn.q_proj").as_deref(),
            Some("blk.3.attn_q.weight")
        );
        assert_eq!(
            name("base_model.model.layers.12.mlp.down_proj").as_deref(),
            Some("blk.12.ffn_down.weight")
        );
        assert_eq!(name("base_model.model.lm_head"), None);
        assert_eq!(
            name("base_model.model.model.layers.1.mlp.experts.0.up_proj"),
            None
        );
    }

    #[test]
    fn rslora_divides_by_the_root_of_the_rank() {
        let mut config: PeftConfig =
            serde_json::from_str(r#"{"r": 16, "lora_alpha": 32}"#).unwrap();
        assert_eq!(config.scale(16), 2.0);
        config.use_rslora = true;
        assert_eq!(config.scale(16), 8.0);
    }
}
