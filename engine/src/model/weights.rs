//! Loading a Llama-family model's weights from GGUF into kernel-ready matrices, once.

use super::ModelError;
use crate::gguf::{GgufFile, LlamaHparams, RopeScalingKind, TensorView};
use kernels::matmul::QMatrix;
use kernels::quant::dequantize;
use kernels::rope::{Rope, RopeStyle};

/// Shape and constants of the loaded model.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelConfig {
    pub hidden: usize,
    pub num_layers: usize,
    pub num_heads: usize,
    pub num_kv_heads: usize,
    pub head_dim: usize,
    pub ffn: usize,
    pub vocab_size: usize,
    pub rms_norm_eps: f32,
    pub context_length: usize,
}

impl ModelConfig {
    pub fn q_dim(&self) -> usize {
        self.num_heads * self.head_dim
    }

    pub fn kv_dim(&self) -> usize {
        self.num_kv_heads * self.head_dim
    }
}

/// Several projections that read the same input, fused into one matrix (Q|K|V, gate|up) so
/// one multiplication reads the input once and keeps both cores busy.
pub struct FusedLinear {
    parts: Vec<QMatrix>,
    /// Output widths of the fused parts, in order.
    widths: Vec<usize>,
}

impl FusedLinear {
    fn load(file: &GgufFile, names: &[String], k_in: usize) -> Result<Self, ModelError> {
        let views = names
            .iter()
            .map(|n| tensor(file, n))
            .collect::<Result<Vec<_>, _>>()?;
        let mut widths = Vec::with_capacity(views.len());
        for v in &views {
            widths.push(matrix_shape(v, k_in)?);
        }
        let same_type = views.iter().all(|v| v.ggml_type() == views[0].ggml_type());
        let parts = if same_type {
            // Rows are independent, so concatenated tensors are one taller matrix.
            let bytes: Vec<u8> = views
                .iter()
                .flat_map(|v| v.data().iter().copied())
                .collect();
            let n_out = widths.iter().sum();
            vec![QMatrix::new(views[0].ggml_type(), n_out, k_in, &bytes)?]
        } else {
            views
                .iter()
                .zip(&widths)
                .map(|(v, &n)| QMatrix::new(v.ggml_type(), n, k_in, v.data()))
                .collect::<Result<_, _>>()?
        };
        Ok(Self { parts, widths })
    }

    pub fn n_out(&self) -> usize {
        self.widths.iter().sum()
    }

    /// Row `r` of the fused matrix, dequantized to f32 (for runners that keep their own copy).
    pub fn row(&self, r: usize, out: &mut [f32]) -> Result<(), ModelError> {
        let mut local = r;
        for part in &self.parts {
            if local < part.n_out() {
                return Ok(part.row(local, out)?);
            }
            local -= part.n_out();
        }
        Err(ModelError::Shape(format!(
            "row {r} of a {}-row matrix",
            self.n_out()
        )))
    }

    /// `out[m x n_out] = x[m x k_in] W^T`, parts side by side in each output row.
    pub fn matmul(
        &self,
        x: &[f32],
        m: usize,
        out: &mut [f32],
        tmp: &mut Vec<f32>,
    ) -> Result<(), ModelError> {
        if let [single] = self.parts.as_slice() {
            return Ok(single.matmul(x, m, out)?);
        }
        let total = self.n_out();
        let mut col = 0;
        for part in &self.parts {
            let n = part.n_out();
            tmp.resize(m * n, 0.0);
            part.matmul(x, m, tmp)?;
            for (dst, src) in out.chunks_exact_mut(total).zip(tmp.chunks_exact(n)) {
                dst[col..col + n].copy_from_slice(src);
            }
            col += n;
        }
        Ok(())
    }
}

pub struct LayerWeights {
    pub attn_norm: Vec<f32>,
    pub qkv: FusedLinear,
    pub attn_output: QMatrix,
    pub ffn_norm: Vec<f32>,
    pub gate_up: FusedLinear,
    pub ffn_down: QMatrix,
}

pub struct Weights {
    pub config: ModelConfig,
    pub token_embd: QMatrix,
    pub layers: Vec<LayerWeights>,
    pub output_norm: Vec<f32>,
    /// `None` when the output head is tied to the token embedding.
    pub output: Option<QMatrix>,
    pub rope: Rope,
}

impl Weights {
    pub fn load(file: &GgufFile) -> Result<Self, ModelError> {
        let hp = file.llama_hparams()?;
        if hp.architecture != "llama" {
            return Err(ModelError::Unsupported(format!(
                "architecture {:?} (only llama is supported)",
                hp.architecture
            )));
        }
        let config = config_from(&hp, file)?;
        let rope = rope_from(file, &hp, &config)?;
        let hidden = config.hidden;
        let token_embd = {
            let v = tensor(file, "token_embd.weight")?;
            let rows = matrix_shape(&v, hidden)?;
            QMatrix::new(v.ggml_type(), rows, hidden, v.data())?
        };
        let mut layers = Vec::with_capacity(config.num_layers);
        for i in 0..config.num_layers {
            let name = |s: &str| format!("blk.{i}.{s}.weight");
            let attn_output = single(file, &name("attn_output"), config.q_dim(), hidden)?;
            let ffn_down = single(file, &name("ffn_down"), config.ffn, hidden)?;
            layers.push(LayerWeights {
                attn_norm: vector(file, &name("attn_norm"), hidden)?,
                qkv: FusedLinear::load(
                    file,
                    &[name("attn_q"), name("attn_k"), name("attn_v")],
                    hidden,
                )?,
                attn_output,
                ffn_norm: vector(file, &name("ffn_norm"), hidden)?,
                gate_up: FusedLinear::load(file, &[name("ffn_gate"), name("ffn_up")], hidden)?,
                ffn_down,
            });
            let l = &layers[i];
            if l.qkv.widths != [config.q_dim(), config.kv_dim(), config.kv_dim()]
                || l.gate_up.widths != [config.ffn, config.ffn]
            {
                return Err(ModelError::Shape(format!(
                    "layer {i}: projection sizes do not match"
                )));
            }
        }
        let output = match file.tensor("output.weight") {
            Some(v) => Some(QMatrix::new(
                v.ggml_type(),
                matrix_shape(&v, hidden)?,
                hidden,
                v.data(),
            )?),
            None => None,
        };
        Ok(Self {
            output_norm: vector(file, "output_norm.weight", hidden)?,
            config,
            token_embd,
            layers,
            output,
            rope,
        })
    }

    /// The output head (`output.weight`, or the tied embedding).
    pub fn output_head(&self) -> &QMatrix {
        self.output.as_ref().unwrap_or(&self.token_embd)
    }
}

fn config_from(hp: &LlamaHparams, file: &GgufFile) -> Result<ModelConfig, ModelError> {
    if hp.head_count == 0
        || hp.head_count_kv == 0
        || !hp.head_count.is_multiple_of(hp.head_count_kv)
    {
        return Err(ModelError::Shape(format!(
            "{} heads cannot be grouped over {} KV heads",
            hp.head_count, hp.head_count_kv
        )));
    }
    if hp.key_length != hp.value_length {
        return Err(ModelError::Unsupported(
            "key and value head sizes differ".into(),
        ));
    }
    let embd = tensor(file, "token_embd.weight")?;
    let vocab_size = matrix_shape(&embd, hp.embedding_length)?;
    Ok(ModelConfig {
        hidden: hp.embedding_length,
        num_layers: hp.block_count,
        num_heads: hp.head_count,
        num_kv_heads: hp.head_count_kv,
        head_dim: hp.key_length,
        ffn: hp.feed_forward_length,
        vocab_size,
        rms_norm_eps: hp.rms_norm_eps,
        context_length: hp.context_length,
    })
}

fn rope_from(file: &GgufFile, hp: &LlamaHparams, config: &ModelConfig) -> Result<Rope, ModelError> {
    let factor = match hp.rope_scaling {
        None => 1.0,
        Some(s) if s.kind == RopeScalingKind::Linear => s.factor,
        Some(s) if s.factor == 1.0 => 1.0,
        Some(s) => {
            return Err(ModelError::Unsupported(format!(
                "RoPE scaling {:?}",
                s.kind
            )));
        }
    };
    let rope = Rope::new(
        config.head_dim,
        hp.rope_dimension_count,
        hp.rope_freq_base,
        RopeStyle::Normal,
        factor,
    )?;
    // Llama 3.1+ ships per-pair frequency divisors as a tensor, not as metadata.
    match file.tensor(ROPE_FREQS) {
        None => Ok(rope),
        Some(_) => {
            let factors = vector(file, ROPE_FREQS, hp.rope_dimension_count / 2)?;
            Ok(rope.with_freq_factors(&factors)?)
        }
    }
}

const ROPE_FREQS: &str = "rope_freqs.weight";

fn tensor<'a>(file: &'a GgufFile, name: &str) -> Result<TensorView<'a>, ModelError> {
    file.tensor(name)
        .ok_or_else(|| ModelError::MissingTensor(name.to_string()))
}

/// Output rows of a 2-D tensor whose rows hold `k_in` values.
fn matrix_shape(v: &TensorView<'_>, k_in: usize) -> Result<usize, ModelError> {
    match v.dims() {
        [k, n] if *k as usize == k_in => Ok(*n as usize),
        dims => Err(ModelError::Shape(format!(
            "{}: dims {dims:?}, expected [{k_in}, n]",
            v.name()
        ))),
    }
}

fn single(file: &GgufFile, name: &str, k_in: usize, n_out: usize) -> Result<QMatrix, ModelError> {
    let v = tensor(file, name)?;
    let n = matrix_shape(&v, k_in)?;
    if n != n_out {
        return Err(ModelError::Shape(format!(
            "{name}: {n} outputs, expected {n_out}"
        )));
    }
    Ok(QMatrix::new(v.ggml_type(), n, k_in, v.data())?)
}

fn vector(file: &GgufFile, name: &str, len: usize) -> Result<Vec<f32>, ModelError> {
    let v = tensor(file, name)?;
    if v.n_elements() != len as u64 {
        return Err(ModelError::Shape(format!(
            "{name}: {} values, expected {len}",
            v.n_elements()
        )));
    }
    let mut out = vec![0.0; len];
    dequantize(v.ggml_type(), v.data(), &mut out)?;
    Ok(out)
}
