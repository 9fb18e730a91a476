//! Workload generators shared by radixserve's benchmarks.

pub mod traces;
