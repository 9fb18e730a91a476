//! What overlap scheduling hands a model and gets back: a batch launched without waiting
//! ([`Launched`]), and the inputs of that batch that are tokens the previous launched batch
//! is still sampling ([`FutureToken`]).

use kernels::sampling::SampledRow;

/// A launched batch, collected later with `ForwardModel::collect_sampled`.
#[derive(Debug)]
pub enum Launched {
    /// The sampled rows, already on the host (a runner that completes each batch before
    /// its launch returns). Futures of the next batch are resolved by the caller.
    Ready(Vec<SampledRow>),
    /// Still running on the device, in the runner's output slot `0` or `1`; the runner
    /// resolves the next batch's futures where the rows are.
    Pending(usize),
}

/// `batch.input_ids[at]` is the token the previous launched batch samples in its
/// sampling row `row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FutureToken {
    pub at: u32,
    pub row: u32,
}
