//! The engine's front door: start the scheduler thread, submit requests, receive their
//! output streams, abort, flush, and read the engine's state. Cheap to clone; every server
//! and the CLI go through it.

mod adapters;
mod calls;
mod conversation;
mod disk;
mod embed;
mod fair_permits;
mod gate;
mod prompt;
mod samples;
mod submit;

pub use crate::io::{
    AdapterInfo, Completion, DiskTierInfo, GenerateError, GenerateEvent, GenerateRequest,
    ModelInfo, Pooling, ServerInfo, SubmitError, TenantInfo, TokenLogprob, Usage,
};
pub use crate::io::{SaltLimits, MAX_SALT_BYTES};
pub use adapters::{AdapterError, LoraSpec, MAX_ADAPTER_NAME_BYTES};
pub use conversation::Conversation;
pub use disk::KvDiskConfig;
pub use embed::normalized_embedding;
pub use prompt::{ChatPrompt, PromptInput, CHAT_ROLES};
pub use samples::{response_usage, ChoiceEvents, MAX_SAMPLES};

use crate::gguf::GgufFile;
use crate::grammar::{CompileError, Constraint, GrammarLimits, GrammarSpec, Grammars, ToolFormat};
use crate::io::{event_channel, Command, EventReceiver, Shared};
use crate::kv_events::{KvEventHub, KV_EVENT_BLOCK_SIZE};
use crate::model::{Device, ForwardModel, KvPool, KvPoolSize, LoadedModel, ModelError};
use crate::scheduler::{Scheduler, SchedulerConfig};
use crate::tenants::{TenantId, TenantLimits};
use crate::tokenizer::{ChatTemplate, ThinkTags, Tokenizer, TokenizerError};
use fair_permits::FairPermits;
use gate::TenantGate;
use pools::{KvCache, KvCacheConfig, KvDtype, PoolError};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

impl From<CompileError> for SubmitError {
    fn from(e: CompileError) -> Self {
        match e {
            CompileError::Invalid(message) => Self::InvalidArgument(message),
            CompileError::Unavailable(message) => Self::Unavailable(message),
        }
    }
}

/// How to build the engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub model_path: PathBuf,
    /// Bytes of K/V memory (all layers, K and V), and of recurrent states for a model with
    /// them (at most half).
    pub kv_budget_bytes: usize,
    pub kv_dtype: KvDtype,
    pub page_size: usize,
    /// Longest prompt + output per request; 0 means the model's context length.
    pub max_context_len: usize,
    /// Where the model runs and K/V live.
    pub device: Device,
    pub scheduler: SchedulerConfig,
    /// Caps on live salted cache namespaces.
    pub salt_limits: SaltLimits,
    /// Limits on structured-output grammars.
    pub grammar_limits: GrammarLimits,
    /// Tokens per block of the KV events ([`crate::kv_events`]); `None`: no events.
    pub kv_event_block_size: Option<usize>,
    /// The disk tier below the KV pool; `None`: evicted K/V is dropped.
    pub kv_disk: Option<KvDiskConfig>,
    /// On a GPU, decode batches of up to this many requests (and at most
    /// `scheduler.max_running_requests`) replay CUDA graphs; 0: every step eager.
    pub cuda_graph_max_batch: usize,
    /// A Jinja chat template used instead of the file's (as Hugging Face's
    /// `tokenizer_config.json` would carry it); `None`: the file's, or ChatML.
    pub chat_template: Option<String>,
    /// Whether chat answers split thinking blocks out as `reasoning_content`.
    pub reasoning_parser: ReasoningParser,
    /// The syntax of tool calls; `None`: the one the chat template speaks, else Hermes.
    pub tool_format: Option<ToolFormat>,
    /// LoRA adapters served beside the base model (CPU runner).
    pub lora_paths: Vec<LoraSpec>,
}

/// When the OpenAI chat API splits a reasoning model's thinking from its answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReasoningParser {
    /// When the chat template writes thinking blocks (`<think>`: Qwen 3, SmolLM3, QwQ, R1
    /// distills; `[THINK]`: Magistral).
    #[default]
    Auto,
    /// Never: thinking stays in the content.
    None,
    /// Always.
    Think,
}

impl EngineConfig {
    pub fn new(model_path: impl Into<PathBuf>) -> Self {
        Self {
            model_path: model_path.into(),
            kv_budget_bytes: 1 << 30,
            kv_dtype: KvDtype::F32,
            page_size: 1,
            max_context_len: 0,
            device: Device::Cpu,
            scheduler: SchedulerConfig::default(),
            salt_limits: SaltLimits::default(),
            grammar_limits: GrammarLimits::default(),
            kv_event_block_size: Some(KV_EVENT_BLOCK_SIZE),
            kv_disk: None,
            cuda_graph_max_batch: usize::MAX,
            chat_template: None,
            reasoning_parser: ReasoningParser::Auto,
            tool_format: None,
            lora_paths: Vec::new(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    Gguf(#[from] crate::gguf::GgufError),
    #[error(transparent)]
    Tokenizer(#[from] TokenizerError),
    #[error(transparent)]
    Pool(#[from] PoolError),
    #[error("invalid configuration: {0}")]
    Config(String),
    #[error("the engine has stopped")]
    Stopped,
    #[error("{0}")]
    Flush(String),
}

/// A request's output: events until `Finished` or `Error`. Dropping it aborts the request.
pub struct RequestStream {
    pub rid: String,
    rx: EventReceiver,
    /// An event already taken from `rx` (see [`EngineHandle::submit_samples`]).
    front: Option<GenerateEvent>,
    /// Prompt log-probabilities computed by another sample of the same prompt, given to
    /// this stream's first chunk (see [`EngineHandle::submit_group`]).
    shared_prompt_logprobs: Option<Vec<TokenLogprob>>,
    /// The call's registered id: held while the stream is, so that the id stays taken
    /// and an abort by it finds the call.
    call: Option<Arc<crate::io::Call>>,
}

impl RequestStream {
    /// A stream that never ran: `last` (if any), then its end.
    fn ended(rid: String, last: Option<GenerateEvent>) -> Self {
        let (_, rx) = event_channel();
        Self {
            rid,
            rx,
            front: last,
            shared_prompt_logprobs: None,
            call: None,
        }
    }

    /// The stream of a request aborted before it was queued (an abort by its id, or of all
    /// its tenant's, came while it was prepared or while an earlier sample of it ran): it
    /// ends as an abort would.
    pub(crate) fn aborted_unsubmitted(rid: String, prompt_tokens: u32) -> Self {
        let completion = crate::io::Completion {
            finish_reason: crate::sampling::FinishReason::Abort,
            usage: crate::io::Usage {
                prompt_tokens,
                cached_tokens: 0,
                completion_tokens: 0,
            },
            ttft_s: 0.0,
            e2e_s: 0.0,
            spec_draft_tokens: 0,
            spec_accepted_tokens: 0,
            embedding: None,
        };
        Self::ended(rid, Some(GenerateEvent::Finished(completion)))
    }

    pub async fn next(&mut self) -> Option<GenerateEvent> {
        let event = match self.front.take() {
            Some(event) => Some(event),
            None => self.rx.recv().await,
        };
        self.share_prompt_logprobs(event)
    }

    /// For synchronous callers (the CLI, tests): blocks until the next event.
    pub fn blocking_next(&mut self) -> Option<GenerateEvent> {
        let event = match self.front.take() {
            Some(event) => Some(event),
            None => self.rx.blocking_recv(),
        };
        self.share_prompt_logprobs(event)
    }

    /// `event`, given the prompt log-probabilities shared with this stream if it is its
    /// first chunk.
    fn share_prompt_logprobs(&mut self, mut event: Option<GenerateEvent>) -> Option<GenerateEvent> {
        if let Some(GenerateEvent::Chunk {
            prompt_logprobs, ..
        }) = event.as_mut()
        {
            if let Some(shared) = self.shared_prompt_logprobs.take() {
                *prompt_logprobs = shared;
            }
        }
        event
    }
}

struct Inner {
    tx: mpsc::Sender<Command>,
    shared: Arc<Shared>,
    tokenizer: Arc<Tokenizer>,
    chat_template: ChatTemplate,
    /// Whether chat answers split thinking out ([`ReasoningParser`] resolved).
    splits_reasoning: bool,
    /// The model writes harmony messages (gpt-oss: `tokenizer::harmony`).
    harmony: bool,
    /// The tags of the template's thinking blocks (`<think>` where it writes none).
    think_tags: ThinkTags,
    /// `EngineConfig::tool_format`.
    tool_format: Option<ToolFormat>,
    model_info: ModelInfo,
    max_context_len: usize,
    max_queued: usize,
    max_running: usize,
    kv_capacity: usize,
    /// The model keeps a recurrent state per request (chat prompts then mark their history).
    recurrent: bool,
    gate: parking_lot::Mutex<TenantGate>,
    /// One permit per core for building large prompts off the async runtime, shared fairly
    /// between tenants.
    prompt_permits: FairPermits,
    /// As many for grammar compiles, apart: a flood of costly grammars (each bounded by its
    /// fuel) queues behind itself, never in front of the chat renders of other requests,
    /// nor of other tenants' compiles.
    grammar_permits: FairPermits,
    grammars: Arc<Grammars>,
    /// Whether embedding requests can be served, or why not.
    embeddings: Result<(), String>,
    /// Whether the runner scores prompt tokens (prompt log-probabilities).
    scores_prompts: bool,
    /// The LoRA adapters served, by number (`None`: unloaded; numbers are not reused).
    adapters: parking_lot::RwLock<Vec<Option<AdapterInfo>>>,
    /// Held by a load or unload of an adapter from start to end: one at a time.
    adapter_changes: tokio::sync::Mutex<()>,
    /// The configuration adapter files are read against, if the runner takes them.
    adapter_base: Option<crate::model::ModelConfig>,
    kv_events: Option<KvEventHub>,
    thread: parking_lot::Mutex<Option<JoinHandle<()>>>,
}

#[derive(Clone)]
pub struct EngineHandle {
    inner: Arc<Inner>,
}

impl EngineHandle {
    /// Loads the model at `config.model_path` and starts the scheduler thread.
    pub fn start(config: EngineConfig) -> Result<Self, EngineError> {
        let file = GgufFile::open(&config.model_path)?;
        let tokenizer = Tokenizer::from_gguf_metadata(file.metadata())?;
        let chat_template = match &config.chat_template {
            Some(source) => ChatTemplate::for_tokenizer(source, &tokenizer)?,
            None => ChatTemplate::from_gguf_metadata(file.metadata(), &tokenizer)?,
        };
        let options = crate::model::LoadOptions {
            max_context_len: config.max_context_len,
        };
        let model = crate::model::load(&file, config.device, &options)?;
        let architecture = file.architecture().unwrap_or("unknown");
        let mut model_info =
            describe_model(&config.model_path, architecture, model.config(), &tokenizer);
        model_info.pooling = file
            .metadata()
            .get_u64(&format!("{architecture}.pooling_type"))
            .map(|n| Pooling::from_gguf(u32::try_from(n).unwrap_or(u32::MAX)));
        drop(file);
        let base_name = model_info.name.clone();
        match model {
            LoadedModel::Cpu(mut model) => {
                model_info.adapters =
                    adapters::load_adapters(&mut *model, &base_name, &config.lora_paths)?;
                Self::start_with_model(*model, tokenizer, chat_template, model_info, &config)
            }
            #[cfg(feature = "cuda")]
            LoadedModel::Cuda(mut gpu) => {
                model_info.adapters =
                    adapters::load_adapters(&mut *gpu, &base_name, &config.lora_paths)?;
                let max_batch = config
                    .cuda_graph_max_batch
                    .min(config.scheduler.max_running_requests);
                gpu.set_run_options(crate::model::gpu::GpuRunOptions {
                    cuda_graph_max_batch: max_batch,
                    ..Default::default()
                })?;
                // Speculation is exact only where a token's logits do not depend on how many
                // tokens a step computes; that is tested for the CPU kernels, not yet on a GPU.
                let mut config = config.clone();
                config.scheduler.speculative_draft_tokens = 0;
                Self::start_with_model(*gpu, tokenizer, chat_template, model_info, &config)
            }
        }
    }

    /// Starts the scheduler over any model (the scripted models of tests use this).
    pub fn start_with_model<M: ForwardModel + 'static>(
        model: M,
        tokenizer: Tokenizer,
        mut chat_template: ChatTemplate,
        model_info: ModelInfo,
        config: &EngineConfig,
    ) -> Result<Self, EngineError> {
        if model.adapters() != model_info.adapters.len() {
            return Err(EngineError::Config(format!(
                "the model holds {} LoRA adapters, {} are described",
                model.adapters(),
                model_info.adapters.len()
            )));
        }
        let layout = model.kv_layout(config.kv_dtype);
        let model_vocab = model.vocab_size();
        // Token ids past the logits rows could never be sampled, and every grammar would
        // fail on them: a file whose tokenizer outgrows its model is refused at load.
        if tokenizer.vocab_size() > model_vocab {
            return Err(EngineError::Config(format!(
                "the tokenizer has {} tokens but the model's logits have {model_vocab} rows",
                tokenizer.vocab_size()
            )));
        }
        let mut sched = config.scheduler.clone();
        // Running requests' recurrent states, and as many saved for later requests to resume
        // from, come out of the KV budget: at most half of it, fewer requests running at once
        // where they would take more.
        let per_request = model.recurrent_state_bytes();
        if per_request > 0 && config.kv_disk.is_some() {
            // Its pages alone could not resume a request: nothing would ever be read back.
            return Err(EngineError::Config(
                "the disk tier (--kv-disk-dir) keeps K/V alone, which cannot restore this \
                 model's recurrent state: serve it without the disk tier"
                    .into(),
            ));
        }
        if let Some(fit) = (config.kv_budget_bytes / 4).checked_div(per_request) {
            if fit == 0 {
                return Err(EngineError::Config(format!(
                    "one request's recurrent state ({} KiB), with one saved, exceeds half the \
                     KV budget of {} KiB: raise --kv-budget-mb",
                    per_request >> 10,
                    config.kv_budget_bytes >> 10
                )));
            }
            if sched.max_running_requests > fit {
                tracing::warn!(
                    "running at most {fit} requests at once: each holds {} KiB of recurrent \
                     state, and theirs and as many saved may take half the KV budget",
                    per_request >> 10
                );
                sched.max_running_requests = fit;
            }
        }
        let recurrent_bytes = 2 * per_request * sched.max_running_requests;
        let kv_budget = config.kv_budget_bytes - recurrent_bytes;
        let num_slots = layout.slots_for_budget(kv_budget, config.page_size);
        let max_context_len = match config.max_context_len {
            0 => model.context_length(),
            n => n.min(model.context_length()),
        };
        if max_context_len < 2 {
            return Err(EngineError::Config("context length below 2 tokens".into()));
        }
        if sched.max_running_requests == 0
            || sched.max_prefill_tokens == 0
            || sched.chunked_prefill_size == 0
        {
            return Err(EngineError::Config(
                "max running requests, max prefill tokens and chunk size must be positive".into(),
            ));
        }
        let kv = model.new_kv(
            layout,
            KvPoolSize {
                num_slots,
                req_rows: sched.max_running_requests,
                max_context_len,
            },
        )?;
        let mut cache = KvCache::new(KvCacheConfig {
            max_running_requests: sched.max_running_requests,
            max_context_len,
            num_slots,
            page_size: config.page_size,
        })?;
        let kv_events = match config.kv_event_block_size {
            Some(size) => {
                cache.enable_block_events(size)?;
                let (hub, tx) = KvEventHub::start(size).map_err(|e| {
                    EngineError::Config(format!("cannot start the KV event thread: {e}"))
                })?;
                Some((hub, tx))
            }
            None => None,
        };
        let disk = match &config.kv_disk {
            Some(d) => Some(disk::open(
                d,
                &model_info,
                layout,
                config.page_size,
                max_context_len,
                kv.can_move_kv(),
            )?),
            None => None,
        };
        let kv_capacity = cache.allocator().capacity();
        let embeddings = embedding_support(model.computes_hidden_states(), model_info.pooling);
        let scores_prompts = model.computes_scores();
        let served: Vec<Option<AdapterInfo>> =
            model_info.adapters.iter().cloned().map(Some).collect();
        let adapter_base = model.adapter_base();
        // A rendered conversation longer than the longest prompt can hold would be refused
        // after rendering: the template may not build more than that.
        chat_template.set_max_output_bytes(
            prompt::max_prompt_tokens(max_context_len, kv_capacity)
                .saturating_mul(tokenizer.max_token_bytes()),
        );
        let tokenizer = Arc::new(tokenizer);
        let grammars = Arc::new(Grammars::new(
            tokenizer.clone(),
            model_vocab,
            config.grammar_limits,
        ));
        let shared = Arc::new(Shared::new(config.salt_limits));
        let (mut scheduler, tx) = Scheduler::new(
            model,
            cache,
            kv,
            tokenizer.clone(),
            sched.clone(),
            shared.clone(),
        );
        scheduler = scheduler.with_adapter_names(
            (model_info.adapters.iter())
                .map(|a| a.name.clone())
                .collect(),
        );
        if let Some(disk) = disk {
            scheduler = scheduler.with_disk_tier(disk);
        }
        let kv_events = match kv_events {
            Some((hub, events)) => {
                scheduler = scheduler.with_kv_events(events);
                Some(hub)
            }
            None => None,
        };
        // The first snapshot exists before anyone can read one.
        scheduler.publish();
        let thread = std::thread::Builder::new()
            .name("scheduler".into())
            .spawn(move || scheduler.run())
            .map_err(|e| EngineError::Config(format!("cannot start the scheduler thread: {e}")))?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let think_tags = chat_template.think_tags();
        let harmony = crate::tokenizer::harmony::speaks_harmony(&tokenizer, chat_template.source());
        let splits_reasoning = match config.reasoning_parser {
            ReasoningParser::Auto => think_tags.is_some() || harmony,
            ReasoningParser::None => false,
            ReasoningParser::Think => true,
        };
        Ok(Self {
            inner: Arc::new(Inner {
                tx,
                shared,
                tokenizer,
                chat_template,
                splits_reasoning,
                harmony,
                think_tags: think_tags.unwrap_or(ThinkTags::XML),
                tool_format: config.tool_format,
                model_info,
                max_context_len,
                max_queued: sched.max_queued_requests,
                max_running: sched.max_running_requests,
                kv_capacity,
                recurrent: per_request > 0,
                gate: parking_lot::Mutex::new(TenantGate::default()),
                prompt_permits: FairPermits::new(cores),
                grammar_permits: FairPermits::new(cores),
                grammars,
                embeddings,
                scores_prompts,
                adapters: parking_lot::RwLock::new(served),
                adapter_changes: tokio::sync::Mutex::new(()),
                adapter_base,
                kv_events,
                thread: parking_lot::Mutex::new(Some(thread)),
            }),
        })
    }

    /// The KV event subscriptions, if the engine publishes them.
    pub fn kv_events(&self) -> Option<&KvEventHub> {
        self.inner.kv_events.as_ref()
    }

    pub fn tokenizer(&self) -> &Tokenizer {
        &self.inner.tokenizer
    }

    pub fn chat_template(&self) -> &ChatTemplate {
        &self.inner.chat_template
    }

    /// Whether chat answers split a thinking block out as reasoning.
    pub fn splits_reasoning(&self) -> bool {
        self.inner.splits_reasoning
    }

    /// Whether the model's outputs are harmony messages (gpt-oss): its vocabulary has the
    /// markers as control tokens and its chat template writes channels.
    pub fn speaks_harmony(&self) -> bool {
        self.inner.harmony
    }

    /// The tags around the thinking of the model's chat template (`<think>` where it
    /// writes none).
    pub fn think_tags(&self) -> ThinkTags {
        self.inner.think_tags
    }

    /// How the model writes tool calls: as configured, else as its chat template renders
    /// them, else in the Hermes format (which the engine then announces itself).
    pub fn tool_format(&self) -> ToolFormat {
        if self.inner.harmony {
            // Its calls are messages of its own format, whatever the configuration says.
            return ToolFormat::Harmony;
        }
        self.inner
            .tool_format
            .or_else(|| self.chat_template().tool_support().format())
            .unwrap_or_default()
    }

    pub fn model_info(&self) -> &ModelInfo {
        &self.inner.model_info
    }

    /// The number of the LoRA adapter named `name`, if one is served.
    pub fn adapter(&self, name: &str) -> Option<u32> {
        adapters::adapter_index(&self.inner.adapters.read(), name)
    }

    /// The LoRA adapters served now, by number.
    pub fn adapters(&self) -> Vec<AdapterInfo> {
        self.inner
            .adapters
            .read()
            .iter()
            .flatten()
            .cloned()
            .collect()
    }

    /// Whether any LoRA adapter was ever served (loaded at start or since, unloaded or not).
    pub fn adapters_ever_served(&self) -> bool {
        !self.inner.adapters.read().is_empty()
    }

    /// Longest prompt + output a request may have.
    pub fn max_context_len(&self) -> usize {
        self.inner.max_context_len
    }

    /// Whether this engine computes embeddings (`Err`: why not, for the client).
    pub fn embeddings_supported(&self) -> Result<(), SubmitError> {
        self.inner
            .embeddings
            .clone()
            .map_err(SubmitError::InvalidArgument)
    }

    /// How many values of each embedding a client gets for its `dimensions` (default: the
    /// model's hidden size, which is also the most).
    pub fn embedding_dimensions(&self, requested: Option<u32>) -> Result<usize, SubmitError> {
        let hidden = self.inner.model_info.hidden_size;
        match requested {
            None => Ok(hidden),
            Some(d) if d >= 1 && d as usize <= hidden => Ok(d as usize),
            Some(d) => Err(SubmitError::InvalidArgument(format!(
                "dimensions must be between 1 and the model's {hidden}, got {d}"
            ))),
        }
    }

    /// What a client may ask the grammar compiler for.
    pub fn grammar_limits(&self) -> GrammarLimits {
        self.inner.grammars.limits()
    }

    /// Most requests decoding at once.
    pub fn max_running_requests(&self) -> usize {
        self.inner.max_running
    }

    /// Compiles `spec` into a fresh constraint for one request of `tenant`, on the bounded
    /// pool (off the async runtime and the scheduler thread, in turn with other tenants'
    /// compiles); grammars cached for the request's cache `namespace` are cloned. A grammar
    /// that fails to compile for the client's reasons takes `cost` tokens (what its requests
    /// would have taken, from [`EngineHandle::precheck_group`]) from the tenant's rate limit:
    /// compiling is work, and failing compiles must not be a free way around the limit.
    pub async fn compile_grammar(
        &self,
        spec: GrammarSpec,
        namespace: radix::Namespace,
        tenant: TenantId,
        cost: usize,
    ) -> Result<Constraint, SubmitError> {
        let grammars = self.inner.grammars.clone();
        let permits = &self.inner.grammar_permits;
        let compiled = self
            .run_with(permits, tenant, move || grammars.compile(&spec, &namespace))
            .await?;
        compiled.map_err(|e| {
            // Only the client's errors are charged; a compiler that cannot run is not its doing.
            if matches!(e, CompileError::Invalid(_)) {
                self.inner.gate.lock().charge(tenant, cost, Instant::now());
            }
            e.into()
        })
    }

    /// [`EngineHandle::compile_grammar`] on this thread.
    pub fn compile_grammar_now(
        &self,
        spec: &GrammarSpec,
        namespace: &radix::Namespace,
    ) -> Result<Constraint, SubmitError> {
        Ok(self.inner.grammars.compile(spec, namespace)?)
    }

    /// Every tenant's weight and limits, indexed by tenant id (from
    /// [`crate::tenants::TenantRegistry::limits`]); applies to requests already waiting too.
    pub fn set_tenant_limits(&self, limits: Vec<TenantLimits>) {
        self.inner
            .gate
            .lock()
            .set_limits(limits.clone(), Instant::now());
        let _ = self.inner.tx.send(Command::SetTenants(limits));
    }

    /// Drops the unlocked cache of one namespace (or of all); returns the tokens freed.
    pub async fn flush_cache(
        &self,
        namespace: Option<radix::Namespace>,
    ) -> Result<usize, EngineError> {
        let (reply, rx) = oneshot::channel();
        self.inner
            .tx
            .send(Command::Flush {
                namespace,
                exact: false,
                reply,
            })
            .map_err(|_| EngineError::Stopped)?;
        rx.await
            .map_err(|_| EngineError::Stopped)?
            .map_err(EngineError::Flush)
    }

    pub fn server_info(&self) -> ServerInfo {
        let mut info = self.inner.shared.info.lock().clone();
        info.draining = self.inner.shared.draining.load(Ordering::Acquire);
        info
    }

    /// Stops accepting requests (submissions get UNAVAILABLE); running ones continue.
    pub fn begin_drain(&self) {
        self.inner.shared.draining.store(true, Ordering::Release);
    }

    pub fn is_draining(&self) -> bool {
        self.inner.shared.draining.load(Ordering::Acquire)
    }

    /// Whether the scheduler thread still runs: false once it ended (shut down, or a panic
    /// in it), when every request would be refused as "the engine has stopped".
    pub fn is_alive(&self) -> bool {
        self.inner
            .thread
            .lock()
            .as_ref()
            .is_some_and(|thread| !thread.is_finished())
    }

    /// Drains, lets in-flight requests finish for up to `grace`, aborts the rest and waits for
    /// the scheduler thread to exit.
    pub fn shutdown(&self, grace: Duration) {
        self.begin_drain();
        let _ = self.inner.tx.send(Command::Shutdown { grace });
        if let Some(thread) = self.inner.thread.lock().take() {
            let _ = thread.join();
        }
    }
}

/// Whether a model that does or does not compute hidden states, pooled as its file says,
/// can serve embeddings: the last token's hidden state, of a decoder that names no pooling
/// or names last-token pooling.
fn embedding_support(hidden_states: bool, pooling: Option<Pooling>) -> Result<(), String> {
    if !hidden_states {
        return Err("this server's model runner does not compute embeddings".into());
    }
    match pooling {
        None | Some(Pooling::Last) => Ok(()),
        Some(other) => Err(format!(
            "the model's file asks for {} pooling; only last-token pooling is supported",
            other.name()
        )),
    }
}

/// What `GetModelInfo` and `/v1/models` report for the model at `path`.
pub fn describe_model(
    path: &std::path::Path,
    architecture: &str,
    c: &crate::model::ModelConfig,
    tokenizer: &Tokenizer,
) -> ModelInfo {
    ModelInfo {
        name: path
            .file_stem()
            .map_or_else(|| "model".into(), |s| s.to_string_lossy().into_owned()),
        path: path.display().to_string(),
        architecture: architecture.to_string(),
        vocab_size: c.vocab_size,
        context_length: c.context_length,
        num_layers: c.num_layers,
        hidden_size: c.hidden,
        num_heads: c.num_heads,
        num_kv_heads: c.num_kv_heads,
        eos_token_ids: tokenizer.stop_token_ids().to_vec(),
        pooling: None,
        adapters: Vec::new(),
    }
}
