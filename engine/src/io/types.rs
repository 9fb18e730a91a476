//! What clients of the engine (the servers, the CLI, tests) send and receive.

use crate::grammar::Constraint;
use crate::sampling::{FinishReason, SamplingParams};
use radix::Namespace;
use std::time::Instant;

/// A generation request, already tokenized and with its cache namespace decided by the server.
#[derive(Clone, Debug)]
pub struct GenerateRequest {
    /// Client-chosen id (for `Abort`); the engine makes one up when `None`.
    pub rid: Option<String>,
    pub input_ids: Vec<u32>,
    pub params: SamplingParams,
    /// The radix namespace: derived by the server from the authenticated tenant, never from
    /// client strings alone.
    pub namespace: Namespace,
    /// Index of the tenant for fairness and quotas (0 in single-tenant serving).
    pub tenant: u32,
    /// The request is aborted if still running at this instant.
    pub deadline: Option<Instant>,
    /// The client set `max_new_tokens` itself: if it does not fit beside the prompt the
    /// request is refused (OpenAI's behaviour); a default is clamped to what fits instead.
    pub max_new_tokens_explicit: bool,
    /// A grammar the output must match (compiled by the handle's `compile_grammar`).
    pub constraint: Option<Constraint>,
    /// An embedding request: the prompt is computed and the request ends with its
    /// embedding ([`Completion::embedding`]), generating nothing.
    pub embed: bool,
    /// Prompt log-probabilities from this position on (at most the prompt's length): each
    /// prompt token from it (the first from position 1) is scored under the tokens before
    /// it, with the `params.logprobs` most likely alternatives; they arrive with the first
    /// chunk.
    pub prompt_logprobs_from: Option<u32>,
    /// Tokens of the prompt a later turn of the same conversation repeats (its history,
    /// before the generation prompt): a model with recurrent state saves its state there,
    /// for that turn to resume from.
    pub history_len: Option<u32>,
    /// The call's registered id (see [`super::Call`]): set by the door before the prompt
    /// is built or the grammar compiles, so that an abort by id reaches the request before
    /// it is queued; submission moves it to the request's stream.
    pub call: Option<std::sync::Arc<super::Call>>,
}

impl GenerateRequest {
    /// Gives the request its registered `call`, whose id it takes.
    pub fn attach_call(&mut self, call: std::sync::Arc<super::Call>) {
        self.rid = Some(call.rid().to_string());
        self.call = Some(call);
    }

    pub fn new(input_ids: Vec<u32>, params: SamplingParams) -> Self {
        Self {
            rid: None,
            input_ids,
            params,
            namespace: Namespace::global(),
            tenant: 0,
            deadline: None,
            max_new_tokens_explicit: false,
            constraint: None,
            embed: false,
            prompt_logprobs_from: None,
            history_len: None,
            call: None,
        }
    }

    /// An embedding request for `input_ids`: nothing is generated.
    pub fn embedding(input_ids: Vec<u32>) -> Self {
        let params = SamplingParams {
            max_new_tokens: 0,
            ..SamplingParams::default()
        };
        Self {
            embed: true,
            ..Self::new(input_ids, params)
        }
    }
}

/// Log-probability of a chosen token and, if asked, of the top candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenLogprob {
    pub token_id: u32,
    pub logprob: f32,
    pub top: Vec<(u32, f32)>,
    /// Those of the request's `token_ids_logprob`, in their order.
    pub given: Vec<(u32, f32)>,
}

/// Token counts of a request, OpenAI style.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub prompt_tokens: u32,
    /// Prompt tokens whose K/V came from the prefix cache.
    pub cached_tokens: u32,
    pub completion_tokens: u32,
}

/// The end of a request.
#[derive(Clone, Debug, PartialEq)]
pub struct Completion {
    pub finish_reason: FinishReason,
    pub usage: Usage,
    /// Seconds from submission to the first token.
    pub ttft_s: f64,
    /// Seconds from submission to the end.
    pub e2e_s: f64,
    /// Speculative draft tokens verified for this request, and how many were accepted.
    pub spec_draft_tokens: u32,
    pub spec_accepted_tokens: u32,
    /// An embedding request's embedding: the final hidden state (output-normed, not
    /// L2-normalized) of its last prompt token.
    pub embedding: Option<Vec<f32>>,
}

/// One event of a request's output stream: chunks of tokens, then exactly one `Finished` or
/// `Error`.
#[derive(Clone, Debug, PartialEq)]
pub enum GenerateEvent {
    Chunk {
        token_ids: Vec<u32>,
        /// Text safe to show now (never a partial UTF-8 character, never part of a stop string).
        text: String,
        /// One entry per token when the request asked for logprobs.
        logprobs: Vec<TokenLogprob>,
        /// Prompt tokens served from the prefix cache (as the completion reports them).
        cached_tokens: u32,
        /// The prompt's log-probabilities when the request asked for them
        /// ([`GenerateRequest::prompt_logprobs_from`]), whole, in the first chunk only.
        prompt_logprobs: Vec<TokenLogprob>,
    },
    Finished(Completion),
    Error(GenerateError),
}

/// Why an accepted request failed: its stream ends with this instead of `Finished`.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum GenerateError {
    /// The request's own grammar failed part-way (its lexer needed more states than
    /// allowed, or a step more work): the client's to change (400 / INVALID_ARGUMENT).
    #[error("{0}")]
    Grammar(String),
    /// The request can no longer run as asked (its LoRA adapter was unloaded on its way in):
    /// the client's to change (400 / INVALID_ARGUMENT).
    #[error("{0}")]
    Invalid(String),
    /// The engine failed (a forward pass, the device): the server's fault (500 / INTERNAL).
    #[error("{0}")]
    Engine(String),
}

/// Why a request was refused at submission. Servers map these to status codes.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SubmitError {
    /// Bad parameters, empty or too long prompt, unknown token id (INVALID_ARGUMENT / 400).
    #[error("{0}")]
    InvalidArgument(String),
    /// The waiting queue (or a tenant's share of it) is full (RESOURCE_EXHAUSTED / 429).
    #[error("{0}")]
    ResourceExhausted(String),
    /// The engine is draining or stopped (UNAVAILABLE / 503).
    #[error("{0}")]
    Unavailable(String),
    /// The caller already has a request with this id in flight (ALREADY_EXISTS / 400).
    #[error("{0}")]
    AlreadyExists(String),
}

/// The loaded model, for `/v1/models` and `GetModelInfo`.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelInfo {
    pub name: String,
    pub path: String,
    pub architecture: String,
    pub vocab_size: usize,
    pub context_length: usize,
    pub num_layers: usize,
    pub hidden_size: usize,
    pub num_heads: usize,
    pub num_kv_heads: usize,
    pub eos_token_ids: Vec<u32>,
    /// How the file says its embeddings are pooled (`{arch}.pooling_type`), if it does.
    pub pooling: Option<Pooling>,
    /// The LoRA adapters loaded at start, adapter number `i` the `i`th (`EngineHandle::
    /// adapters` gives those served now, loaded or unloaded since).
    pub adapters: Vec<AdapterInfo>,
}

/// A LoRA adapter served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterInfo {
    pub name: String,
    pub path: String,
    /// Its largest rank.
    pub rank: usize,
    /// The sha256 of its file: what names its K/V where that outlives the process (the disk
    /// tier), so a restart that loads adapters in another order never mixes them up.
    pub sha256: String,
}

/// How a model's embedding is pooled from its prompt's hidden states, as GGUF numbers them
/// (`{arch}.pooling_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pooling {
    None,
    Mean,
    Cls,
    /// The last token's hidden state: decoder embedding models (Qwen3-Embedding,
    /// gte-Qwen2, e5-mistral), and the engine's choice when the file names none.
    Last,
    Rank,
    Other(u32),
}

impl Pooling {
    pub fn from_gguf(value: u32) -> Self {
        match value {
            0 => Self::None,
            1 => Self::Mean,
            2 => Self::Cls,
            3 => Self::Last,
            4 => Self::Rank,
            n => Self::Other(n),
        }
    }

    pub fn name(self) -> String {
        match self {
            Self::None => "none".into(),
            Self::Mean => "mean".into(),
            Self::Cls => "cls".into(),
            Self::Last => "last".into(),
            Self::Rank => "rank".into(),
            Self::Other(n) => format!("type {n}"),
        }
    }
}

/// A snapshot of the engine's load and cache, for `GetServerInfo` and `/metrics`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServerInfo {
    pub waiting_requests: usize,
    pub running_requests: usize,
    /// Requests that may run at once (fewer than configured where their recurrent states
    /// would take more than half the KV budget).
    pub max_running_requests: usize,
    /// Bytes of recurrent state each running request holds (0 for attention alone).
    pub recurrent_bytes_per_request: usize,
    /// Recurrent states saved for later requests to resume from, each as large.
    pub recurrent_saved_states: usize,
    pub kv_capacity_tokens: usize,
    pub kv_free_tokens: usize,
    pub kv_evictable_tokens: usize,
    pub kv_protected_tokens: usize,
    pub kv_bytes_per_token: usize,
    /// Of `kv_bytes_per_token`, the part sliding-window layers hold, and that part summed over
    /// the tokens the prefix cache keeps: what a window-aware cache could free at most.
    pub kv_sliding_bytes_per_token: usize,
    pub kv_sliding_cached_bytes: u64,
    pub page_size: usize,
    pub cache_queried_tokens: u64,
    pub cache_hit_tokens: u64,
    pub finished_requests: u64,
    pub aborted_requests: u64,
    pub retractions: u64,
    /// Overlap scheduling: decodes launched on a token still being sampled.
    pub overlapped_decodes: u64,
    /// Constrained decodes that sat a step out for their tenant's grammar mask budget.
    pub grammar_waits: u64,
    /// Decode steps replayed from a CUDA graph (GPU).
    pub graph_replays: u64,
    /// Speculative draft tokens verified, and of them those accepted.
    pub spec_draft_tokens: u64,
    pub spec_accepted_tokens: u64,
    pub draining: bool,
    pub uptime_s: f64,
    /// Live prefix-cache namespaces, and of them the salted ones.
    pub cache_namespaces: usize,
    pub salted_namespaces: usize,
    /// Scheduler steps run (each computes one batch).
    pub scheduler_steps: u64,
    /// One entry per tenant id that has been configured or seen.
    pub tenants: Vec<TenantInfo>,
    /// The disk tier below the pool, if configured.
    pub kv_disk: Option<DiskTierInfo>,
}

/// The disk tier's contents and traffic (tokens are whole pages).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DiskTierInfo {
    pub budget_bytes: u64,
    pub bytes: u64,
    pub tokens: u64,
    pub page_tokens: usize,
    /// Written at eviction (or shutdown) since start.
    pub spilled_tokens: u64,
    /// Loaded back into the pool since start (served as cached tokens).
    pub loaded_tokens: u64,
    /// Requests waiting for their pages to be read.
    pub loading_requests: usize,
    /// Pages that did not verify (read as misses, deleted).
    pub bad_pages: u64,
    /// Dropped to stay within the budget.
    pub evicted_tokens: u64,
    pub write_errors: u64,
    pub dropped_spills: u64,
    pub spills_paused: bool,
}

/// One tenant's load, cache and service, for `GetServerInfo` and per-tenant metrics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TenantInfo {
    pub name: String,
    pub waiting_requests: usize,
    pub running_requests: usize,
    /// Tokens held in the tenant's private namespaces of the prefix cache.
    pub cached_tokens: usize,
    /// KV slots its running requests hold outside its cache: outside the tree, and what
    /// they computed into a shared (group) namespace while they run.
    pub running_kv_tokens: usize,
    /// Prompt tokens looked up in / served from its namespaces' cache.
    pub cache_queried_tokens: u64,
    pub cache_hit_tokens: u64,
    /// Tokens computed for it: prefill (cache misses) and decode.
    pub prefill_tokens: u64,
    pub decode_tokens: u64,
    /// Its fair-share counter: weighted service received, in token units.
    pub virtual_tokens: f64,
    pub weight: f64,
}
