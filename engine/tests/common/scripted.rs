//! The scripted model's engine and what tests check of it: its tokens computed directly, a
//! request's whole output within a time limit, and an idle engine with nothing leaked.

use engine::gguf::GgufFile;
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, RequestStream};
use engine::model::scripted::ScriptedModel;
use engine::sampling::FinishReason;
use engine::scheduler::Policy;
use engine::tokenizer::{ChatTemplate, Tokenizer};
use std::time::Duration;

/// Bytes per token of the scripted model's KV: K and V of 2 f32 each.
pub const SCRIPTED_BYTES_PER_TOKEN: usize = 16;

/// The scripted rule's next `n` tokens after `prompt`.
pub fn reference(prompt: &[u32], n: usize) -> Vec<u32> {
    reference_for(prompt, n, None)
}

/// [`reference`] under LoRA adapter `adapter`.
pub fn reference_for(prompt: &[u32], n: usize, adapter: Option<u32>) -> Vec<u32> {
    let mut seq = prompt.to_vec();
    for _ in 0..n {
        let next = ScriptedModel::reference_next_for(&seq, adapter);
        seq.push(next);
    }
    seq[prompt.len()..].to_vec()
}

/// Waits until the engine is idle, then checks `free + evictable == capacity` and that
/// nothing is protected.
pub fn assert_idle_without_leak(engine: &EngineHandle) {
    super::wait_idle(engine);
}

/// Tokens of one request, read to its end.
pub fn collect_tokens(mut stream: RequestStream) -> Vec<u32> {
    let mut tokens = Vec::new();
    loop {
        match stream.blocking_next() {
            Some(GenerateEvent::Chunk { token_ids, .. }) => tokens.extend(token_ids),
            Some(GenerateEvent::Finished(_)) => return tokens,
            Some(GenerateEvent::Error(e)) => panic!("engine error: {e}"),
            None => panic!("stream ended without a final event"),
        }
    }
}

/// An engine on `model` with a page-1 pool of `kv_tokens`, FCFS, chunks of 64 tokens.
pub fn start_model(model: ScriptedModel, kv_tokens: usize) -> EngineHandle {
    start_model_with(model, kv_tokens, |_| {})
}

/// [`start_model`], with `configure` changing its configuration first.
pub fn start_model_with(
    model: ScriptedModel,
    kv_tokens: usize,
    configure: impl FnOnce(&mut EngineConfig),
) -> EngineHandle {
    let path = super::model_path();
    let file = GgufFile::open(&path).unwrap();
    let tok = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
    let template = ChatTemplate::from_gguf_metadata(file.metadata(), &tok).unwrap();
    let info = model.model_info(tok.stop_token_ids());
    let mut config = EngineConfig::new(path);
    config.kv_budget_bytes = kv_tokens * SCRIPTED_BYTES_PER_TOKEN;
    config.page_size = 1;
    config.scheduler.max_running_requests = 4;
    config.scheduler.max_prefill_tokens = 128;
    config.scheduler.chunked_prefill_size = 64;
    config.scheduler.policy = Policy::Fcfs;
    configure(&mut config);
    EngineHandle::start_with_model(model, tok, template, info, &config).unwrap()
}

/// The request's tokens and finish reason, or a failure if it takes over `limit`.
pub fn finish_within(stream: RequestStream, limit: Duration) -> (Vec<u32>, FinishReason) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut stream = stream;
        let mut tokens = Vec::new();
        loop {
            match stream.blocking_next() {
                Some(GenerateEvent::Chunk { token_ids, .. }) => tokens.extend(token_ids),
                Some(GenerateEvent::Finished(c)) => {
                    let _ = tx.send((tokens, c.finish_reason));
                    return;
                }
                other => panic!("no final event: {other:?}"),
            }
        }
    });
    rx.recv_timeout(limit)
        .expect("the request did not finish in time")
}
