//! Turning logits into tokens: penalties, temperature, top-k/top-p/min-p, seeded sampling,
//! logprobs, and stop conditions.

mod math;
pub mod params;
mod rng;
pub mod sampler;
pub mod score;
pub mod stop;
mod stop_matcher;

pub use params::SamplingParams;
pub use sampler::{SampleOutput, Sampler, GREEDY_TEMPERATURE};
pub use score::score_row;
pub use stop::{FinishReason, StopChecker, StopMatch, StopStep};
