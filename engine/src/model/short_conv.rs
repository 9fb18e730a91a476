//! LFM2's short-convolution layers as llama.cpp's `lfm2` graph runs them: the layer's input
//! projected to three rows of the hidden width (`shortconv.in_proj`: `b`, `c`, `x`), `b * x`
//! through a causal depthwise convolution of `shortconv.l_cache` taps (`shortconv.conv`: no
//! bias, no activation), the result times `c`; then `shortconv.out_proj`, which the decoder
//! runs as the layer's output projection. The convolution's last inputs are the state the
//! layer carries per request ([`super::recurrent::RecurrentStates`]).

use super::recurrent::{all_finite, StateShape};
use super::weights::shaped_vector;
use super::ModelError;
use kernels::delta_net::causal_conv_linear;

/// Far above any real model's (LFM2's is 3), so a hostile file is refused before allocation.
pub const MAX_KERNEL: usize = 64;

/// A short-convolution layer's own weights (its projections are the layer's `qkv` and
/// `attn_output`).
pub struct ShortConv {
    /// Taps per channel.
    kernel: usize,
    /// `[hidden, kernel]`: each channel's taps, oldest input first.
    weight: Vec<f32>,
}

impl ShortConv {
    pub fn load(
        file: &crate::gguf::GgufFile,
        layer: usize,
        hidden: usize,
        kernel: usize,
    ) -> Result<Self, ModelError> {
        let name = format!("blk.{layer}.shortconv.conv.weight");
        let weight = shaped_vector(file, &name, &[kernel, hidden])?;
        all_finite(&[&weight], &name)?;
        Ok(Self { kernel, weight })
    }

    /// The state one request keeps in this layer: its last `kernel - 1` inputs.
    pub fn state_shape(&self) -> StateShape {
        StateShape {
            conv: self.weight.len() - self.weight.len() / self.kernel,
            ssm: 0,
        }
    }

    /// The layer's mixing of `tokens` rows of its in-projection `bcx` (`[tokens, 3 hidden]`)
    /// into `out` (`[tokens, hidden]`, `out_proj`'s input); `states` are the requests'
    /// (`q_indptr` ranges), each carried on from the request's previous pass.
    pub fn mix(
        &self,
        bcx: &[f32],
        tokens: usize,
        q_indptr: &[u32],
        states: &mut [&mut [f32]],
        out: &mut Vec<f32>,
    ) -> Result<(), ModelError> {
        let hidden = self.weight.len() / self.kernel;
        if bcx.len() != tokens * 3 * hidden {
            return Err(ModelError::Batch(format!(
                "short convolution: {} projected values for {tokens} tokens of {hidden}",
                bcx.len()
            )));
        }
        out.clear();
        for row in bcx.chunks_exact(3 * hidden) {
            let (b, x) = (&row[..hidden], &row[2 * hidden..]);
            out.extend(b.iter().zip(x).map(|(b, x)| b * x));
        }
        causal_conv_linear(out, &self.weight, self.kernel, q_indptr, states)?;
        for (o, row) in out
            .chunks_exact_mut(hidden)
            .zip(bcx.chunks_exact(3 * hidden))
        {
            let c = &row[hidden..2 * hidden];
            o.iter_mut().zip(c).for_each(|(o, c)| *o *= c);
        }
        Ok(())
    }
}
