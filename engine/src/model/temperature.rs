//! Attention temperature by position (Llama 4's NoPE layers, Ministral 3, Mistral Large 3):
//! each query is multiplied by `1 + scale * ln(floor((pos + offset) / floor) + 1)`, so scores
//! sharpen slowly as the context grows past multiples of `floor`, as llama.cpp's
//! `llm_graph_input_attn_temp` computes it (in double precision, rounded to f32).

use super::hparams::Hparams;
use super::ModelError;
use crate::gguf::keys::{invalid, Keys};
use crate::gguf::GgufFile;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttentionTemperature {
    pub scale: f32,
    /// Positions per step of the logarithm; at least 1.
    pub floor: u32,
    pub offset: f32,
}

impl AttentionTemperature {
    /// What a query at `position` is multiplied by.
    pub fn factor(&self, position: u32) -> f32 {
        let steps = ((position as f32 + self.offset) / self.floor as f32).floor();
        ((steps as f64 + 1.0).ln() * self.scale as f64 + 1.0) as f32
    }

    /// Scales each token's query row of `q` (`[positions.len(), width]`) by its factor.
    pub fn scale_queries(&self, positions: &[u32], q: &mut [f32]) {
        let Some(width) = q.len().checked_div(positions.len()) else {
            return;
        };
        for (row, &pos) in q.chunks_exact_mut(width).zip(positions) {
            let factor = self.factor(pos);
            row.iter_mut().for_each(|v| *v *= factor);
        }
    }

    /// The temperature a file declares by `{arch}.attention.temperature_scale` (absent or 0:
    /// none), stepping every `floor_key` positions (`default_floor` where absent; a positive
    /// count, refused by name otherwise), with no offset: Mistral's families, as llama.cpp
    /// loads them.
    pub fn declared(
        file: &GgufFile,
        hp: &Hparams,
        floor_key: &str,
        default_floor: Option<usize>,
    ) -> Result<Option<Self>, ModelError> {
        let keys = Keys::new(file.metadata());
        let scale_key = hp.key("attention.temperature_scale");
        let scale = match keys.optional_f32(&scale_key)? {
            None => return Ok(None),
            Some(0.0) => return Ok(None),
            Some(s) if s.is_finite() => s,
            Some(s) => return Err(invalid(&scale_key, format!("{s} is not finite")).into()),
        };
        let floor = keys
            .optional_usize(floor_key)?
            .or(default_floor)
            .unwrap_or(0);
        let floor = u32::try_from(floor)
            .ok()
            .filter(|&f| f > 0)
            .ok_or_else(|| {
                invalid(
                    floor_key,
                    format!("{floor}: the attention temperature needs a positive step"),
                )
            })?;
        let temperature = Self {
            scale,
            floor,
            offset: 0.0,
        };
        // A scale so large that a far position's factor overflows would turn scores to NaN.
        let last = temperature.factor(u32::MAX);
        if !last.is_finite() {
            return Err(invalid(&scale_key, format!("{scale}: a query factor of {last}")).into());
        }
        Ok(Some(temperature))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_factor_steps_at_multiples_of_the_floor() {
        let t = AttentionTemperature {
            scale: 0.1,
            floor: 8192,
            offset: 1.0,
        };
        assert_eq!(t.factor(0), 1.0);
        assert_eq!(t.factor(8190), 1.0);
        // (8191 + 1) / 8192 = 1: the first step.
        assert_eq!(t.factor(8191), (1.0 + 0.1 * 2f64.ln()) as f32);
        assert_eq!(t.factor(3 * 8192 - 1), (1.0 + 0.1 * 4f64.ln()) as f32);
    }

    #[test]
    fn each_query_row_takes_its_own_positions_factor() {
        let t = AttentionTemperature {
            scale: 0.5,
            floor: 2,
            offset: 0.0,
        };
        let mut q = vec![1.0; 6];
        t.scale_queries(&[1, 2, 6], &mut q);
        let f = |steps: f64| (1.0 + 0.5 * (steps + 1.0).ln()) as f32;
        assert_eq!(q, vec![1.0, 1.0, f(1.0), f(1.0), f(3.0), f(3.0)]);
    }
}
