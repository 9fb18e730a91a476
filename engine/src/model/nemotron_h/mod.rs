//! Nemotron-H (`nemotron_h`: Nemotron-H 8B to 56B, Nemotron Nano 9B and 12B v2): NVIDIA's
//! hybrid whose every GGUF block is one part with its own pre-norm (`attn_norm`) and residual
//! add: a Mamba-2 layer (`mamba2`) where the block's `attention.head_count_kv` and
//! `feed_forward_length` entries are both 0, attention without RoPE where only the former is
//! positive, an MLP of `ffn_up`, ReLU squared and `ffn_down` where the latter is, as
//! llama.cpp's `nemotron_h` graph runs them. Each mixer block and the MLP block after it, if
//! any, make one layer here (its MLP normed by the MLP block's `attn_norm`); an MLP block
//! after no mixer is refused: the 8B's and Nano v2's patterns have none, but the 47B's
//! (`M---`) has, and is refused until a layer can carry a run of MLPs. The head is
//! `output.weight`, else tied.

use super::hparams::Hparams;
use super::mamba2;
use super::weights::{refuse_biases, LayerPlan, Weights};
use super::{rope, LoadOptions, ModelConfig, ModelError};
use crate::gguf::keys::invalid;
use crate::gguf::GgufFile;
use kernels::rope::RopeStyle;

pub const ARCHITECTURE: &str = "nemotron_h";

/// Biases this loader does not apply (llama.cpp's allows those of the projections, and
/// refuses the Mamba-2 ones as unknown tensors).
const BIASES: [&str; 8] = [
    "attn_q",
    "attn_k",
    "attn_v",
    "attn_output",
    "ffn_up",
    "ffn_down",
    "ssm_in",
    "ssm_out",
];

/// What one GGUF block holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Mamba2,
    Attention,
    /// An MLP of this width.
    Mlp(usize),
}

pub fn load(file: &GgufFile, _options: &LoadOptions) -> Result<Weights, ModelError> {
    let hp = Hparams::from_metadata(file.metadata())?;
    hp.attention_layers_share_kv_heads()?;
    refuse_biases(file, hp.block_count, &BIASES, "Nemotron-H")?;
    let blocks: Vec<Block> = (0..hp.block_count)
        .map(|b| {
            let kv = hp
                .head_counts_kv
                .get(b)
                .copied()
                .unwrap_or(hp.head_count_kv);
            let ffn = (hp.feed_forward_lengths.get(b).copied()).unwrap_or(hp.feed_forward_length);
            match (kv, ffn) {
                (0, 0) => Block::Mamba2,
                (_, 0) => Block::Attention,
                (_, ffn) => Block::Mlp(ffn),
            }
        })
        .collect();
    let mamba2 = match blocks.contains(&Block::Mamba2) {
        true => Some(mamba2::declared_shape(file, &hp)?),
        false => None,
    };
    let mut plans = Vec::new();
    let mut b = 0;
    while b < blocks.len() {
        let mixer = match blocks[b] {
            Block::Mamba2 => LayerPlan {
                mamba2,
                ..LayerPlan::default()
            },
            Block::Attention => LayerPlan::default(),
            Block::Mlp(_) => {
                return Err(invalid(
                    &hp.key("feed_forward_length"),
                    format!("block {b} is an MLP after no mixer (unsupported)"),
                )
                .into())
            }
        };
        let mlp = match blocks.get(b + 1) {
            Some(&Block::Mlp(width)) => Some((b + 1, width)),
            _ => None,
        };
        plans.push(LayerPlan {
            block: Some(b),
            no_rope: true,
            mlp_block: mlp.map(|(block, _)| block),
            ffn: mlp.map(|(_, width)| width),
            squared_relu: true,
            no_mlp: mlp.is_none(),
            ..mixer
        });
        b += if mlp.is_some() { 2 } else { 1 };
    }
    let mut config = ModelConfig::from_hparams(&hp, file)?;
    config.num_layers = plans.len();
    // No layer rotates; the table only satisfies the loader's one-table minimum.
    let rope = rope::declared(file, &hp, RopeStyle::Normal)?;
    Weights::load(file, config, vec![rope], |i| plans[i])
}
