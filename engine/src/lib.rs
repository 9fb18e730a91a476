//! radixserve's engine: the model runtime (GGUF, tokenizer, Llama-family forward), sampling,
//! the scheduler and the servers.

pub mod gguf;
