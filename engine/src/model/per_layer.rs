//! Gemma 4's per-layer embeddings (E2B, E4B): besides its embedding, every token has a narrow
//! input for each layer. Before the first layer, a token's inputs are its row of
//! `per_layer_token_embd` times `sqrt(width)` plus the projection of its (scaled) embedding by
//! `per_layer_model_proj` divided by `sqrt(hidden)` and RMS-normalized per layer with
//! `per_layer_proj_norm`, the sum divided by `sqrt(2)`. After its MLP, layer `l` adds
//! `norm(proj(gelu(inp_gate x) * input_l))` to the residual stream `x` (llama.cpp's
//! `project_per_layer_inputs` and the end of its Gemma 4 layer).

use super::weights::{matrix_shape, single, tensor, vector};
use super::ModelError;
use crate::gguf::GgufFile;
use kernels::activation::gelu_mul;
use kernels::matmul::QMatrix;
use kernels::norm::rms_norm;

/// The model-wide half: the per-layer token table and the embedding's projection.
pub struct PerLayerEmbeddings {
    /// `[vocab, layers * width]`.
    token_embd: QMatrix,
    /// `hidden -> layers * width`.
    model_proj: QMatrix,
    /// `[width]`, shared by the layers.
    proj_norm: Vec<f32>,
    pub width: usize,
    layers: usize,
}

impl PerLayerEmbeddings {
    pub fn load(
        file: &GgufFile,
        layers: usize,
        width: usize,
        hidden: usize,
        vocab: usize,
    ) -> Result<Self, ModelError> {
        let all = layers * width;
        let table = tensor(file, "per_layer_token_embd.weight")?;
        let rows = matrix_shape(&table, all)?;
        if rows != vocab {
            return Err(ModelError::Shape(format!(
                "per_layer_token_embd.weight: {rows} tokens, the vocabulary has {vocab}"
            )));
        }
        Ok(Self {
            token_embd: QMatrix::new(table.ggml_type(), rows, all, table.data())?,
            model_proj: single(file, "per_layer_model_proj.weight", hidden, all)?,
            proj_norm: vector(file, "per_layer_proj_norm.weight", width)?,
            width,
            layers,
        })
    }

    /// Every token's inputs, `[tokens, layers, width]`, from its id and its scaled embedding
    /// (`x`: `[tokens, hidden]`).
    pub fn inputs(
        &self,
        ids: &[u32],
        x: &[f32],
        eps: f32,
        out: &mut Vec<f32>,
        tmp: &mut Vec<f32>,
    ) -> Result<(), ModelError> {
        let all = self.layers * self.width;
        let t = ids.len();
        tmp.resize(t * all, 0.0);
        self.model_proj.matmul(x, t, tmp)?;
        let inverse_root = 1.0 / (self.model_proj.k_in() as f32).sqrt();
        tmp.iter_mut().for_each(|v| *v *= inverse_root);
        out.resize(t * all, 0.0);
        rms_norm(tmp, &self.proj_norm, eps, out)?;
        let (table_scale, sum_scale) =
            ((self.width as f32).sqrt(), std::f32::consts::FRAC_1_SQRT_2);
        tmp.resize(all, 0.0);
        for (row, &id) in out.chunks_exact_mut(all).zip(ids) {
            self.token_embd.row(id as usize, tmp)?;
            for (o, &e) in row.iter_mut().zip(tmp.iter()) {
                *o = (*o + e * table_scale) * sum_scale;
            }
        }
        Ok(())
    }
}

/// A layer's half: its gate from the residual stream, projection back and norm.
pub struct PerLayerBlock {
    /// `hidden -> width`.
    inp_gate: QMatrix,
    /// `width -> hidden`.
    proj: QMatrix,
    /// `[hidden]`.
    post_norm: Vec<f32>,
}

/// Buffers of [`PerLayerBlock::apply`], reused across layers and steps.
#[derive(Default)]
pub struct PerLayerScratch {
    gate_input: Vec<f32>,
    gated: Vec<f32>,
    proj: Vec<f32>,
    normed: Vec<f32>,
}

impl PerLayerBlock {
    pub fn load(
        file: &GgufFile,
        i: usize,
        hidden: usize,
        width: usize,
    ) -> Result<Self, ModelError> {
        let name = |s: &str| format!("blk.{i}.{s}.weight");
        Ok(Self {
            inp_gate: single(file, &name("inp_gate"), hidden, width)?,
            proj: single(file, &name("proj"), width, hidden)?,
            post_norm: vector(file, &name("post_norm"), hidden)?,
        })
    }

    /// `x += norm(proj(gelu(inp_gate x) * input))` for layer `layer` of `inputs`
    /// (`[tokens, layers, width]`).
    pub fn apply(
        &self,
        layer: usize,
        inputs: &[f32],
        layers: usize,
        x: &mut [f32],
        eps: f32,
        s: &mut PerLayerScratch,
    ) -> Result<(), ModelError> {
        let (hidden, width) = (self.inp_gate.k_in(), self.inp_gate.n_out());
        let t = x.len() / hidden.max(1);
        s.proj.resize(t * width, 0.0);
        self.inp_gate.matmul(x, t, &mut s.proj)?;
        // Rows [gate | input] for the gated GELU.
        s.gate_input.clear();
        for (token, gate) in s.proj.chunks_exact(width).enumerate() {
            let at = (token * layers + layer) * width;
            let input = inputs.get(at..at + width).ok_or_else(|| {
                ModelError::Batch(format!("no per-layer input for token {token}"))
            })?;
            s.gate_input.extend_from_slice(gate);
            s.gate_input.extend_from_slice(input);
        }
        s.gated.resize(t * width, 0.0);
        gelu_mul(&s.gate_input, width, &mut s.gated)?;
        s.proj.resize(t * hidden, 0.0);
        self.proj.matmul(&s.gated, t, &mut s.proj)?;
        s.normed.resize(t * hidden, 0.0);
        rms_norm(&s.proj, &self.post_norm, eps, &mut s.normed)?;
        x.iter_mut().zip(&s.normed).for_each(|(a, b)| *a += b);
        Ok(())
    }
}
