//! radixserve's engine: the model runtime (GGUF, tokenizer, the model families' forward passes), sampling,
//! the scheduler and the servers.

pub mod gguf;
pub mod grammar;
pub mod handle;
pub mod io;
pub mod kv_events;
pub mod metric_names;
pub mod model;
pub mod sampling;
pub mod scheduler;
pub mod server;
pub mod tenants;
pub mod tokenizer;
