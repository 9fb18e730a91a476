//! Workload generators shared by radixserve's benchmarks, and the `loadgen` load generator.

pub mod loadgen;
pub mod traces;
