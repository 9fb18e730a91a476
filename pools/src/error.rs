use crate::SlotId;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PoolError {
    #[error("out of KV slots: {requested} requested, {available} available")]
    OutOfSlots { requested: usize, available: usize },
    #[error("all {0} request rows are in use")]
    OutOfRows(usize),
    #[error("slot {0} lies in the reserved page 0")]
    ReservedSlot(SlotId),
    #[error("slot {0} is already free")]
    DoubleFree(SlotId),
    #[error("slot {slot} is outside the pool of {num_slots} slots")]
    SlotOutOfRange { slot: SlotId, num_slots: usize },
    #[error("allocation of {0} slots is not a whole number of pages")]
    UnalignedAlloc(usize),
    #[error("row range {start}..{end} exceeds the context length {max_context_len}")]
    RowOverflow {
        start: usize,
        end: usize,
        max_context_len: usize,
    },
    #[error("request row {0} is not in use")]
    RowNotInUse(usize),
    #[error("invalid pool configuration: {0}")]
    InvalidConfig(String),
    #[error("K/V data has {got} values, {expected} expected")]
    KvShape { got: usize, expected: usize },
    #[error("KV ownership violated: {0}")]
    Ownership(String),
    #[error("K/V tier: {0}")]
    Tier(String),
    #[error(transparent)]
    Radix(#[from] radix::RadixError),
}
