use crate::Launch;

/// Why an emulated launch failed: what a GPU would refuse or leave undefined.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EmuError {
    /// No threads or blocks, over 1,024 threads per block (or 64 in z), over 65,535 blocks in
    /// y or z, or over 48 KiB of dynamic shared memory.
    #[error("launch refused: {0:?}")]
    BadLaunch(Launch),
    /// Threads of one block (or warp) waited at different barriers, or some at a barrier
    /// the others never reach.
    #[error("divergent barrier in block {block}")]
    DivergentBarrier { block: u32 },
    /// The block wrote past the dynamic shared memory it was launched with.
    #[error("block {block} wrote past its dynamic shared memory")]
    SharedOverrun { block: u32 },
}
