//! The scheduler: one OS thread owns the model, the pools, the tree and the batches; requests
//! arrive and outputs leave through channels, so no server ever waits on a lock the model step
//! holds. Each step: drop abandoned requests, reserve decode slots (retracting if memory is
//! short), admit waiting requests (SGLang's PrefillAdder), run one mixed batch of decode tokens
//! and prefill chunks, then sample, stream and cache.

mod adapters;
mod admission;
mod device_sampling;
mod entry;
mod fair;
mod flush;
mod grammar_turns;
mod ngram;
mod output;
mod overlap;
mod policy;
mod prompt_outputs;
mod req;
mod retract;
mod state_cache;
mod step;
mod tenant_kv;
mod tier;

pub use policy::Policy;
pub(crate) use req::Req;
pub(crate) use tier::DiskKv;

use crate::io::{AbortScope, Command, Shared};
use crate::kv_events::{HubInput, HubSender};
use crate::metric_names as names;
use crate::model::{ForwardBatch, ForwardModel};
use crate::tokenizer::Tokenizer;
use fair::TenantBook;
use pools::KvCache;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the scheduler waits for a command after a step in which nothing could run.
const STALLED_WAIT: Duration = Duration::from_millis(5);

/// Limits and policies of the scheduler.
#[derive(Clone, Debug, PartialEq)]
pub struct SchedulerConfig {
    pub max_running_requests: usize,
    /// Requests allowed to wait; more are refused with RESOURCE_EXHAUSTED.
    pub max_queued_requests: usize,
    /// Prefill tokens computed per step, over all requests (decode tokens come on top).
    pub max_prefill_tokens: usize,
    /// Longest piece of one prompt computed in a step (chunked prefill).
    pub chunked_prefill_size: usize,
    pub policy: Policy,
    /// A waiting request that shares at least this many uncached tokens with a request whose
    /// prefill is under way waits, so the shared prefix is computed once.
    pub dedup_min_tokens: usize,
    /// Starting fraction of each running request's remaining output budget reserved at
    /// admission; it decays while decoding and is raised again after a retraction.
    pub init_new_token_ratio: f64,
    pub min_new_token_ratio: f64,
    pub new_token_ratio_decay: f64,
    /// Most n-gram draft tokens verified per decode step (speculative decoding, exact:
    /// outputs are those of plain decoding); 0 turns speculation off.
    pub speculative_draft_tokens: usize,
    /// Speculation runs only while at most this many requests decode: a wider batch keeps
    /// the cores busy without it.
    pub speculative_max_batch: usize,
    /// Sample where the logits are when the model can (the GPU runner): only tokens cross
    /// to the host. Off: every row is copied back and sampled on the host.
    pub sample_on_device: bool,
    /// Overlap scheduling (SGLang's): each step's batch is built and launched before the
    /// previous step's results are processed; decodes take their input from the previous
    /// batch's sampled tokens. Samples through `ForwardModel::forward_sampled`; no
    /// speculative decoding.
    pub overlap_schedule: bool,
    /// Grammar mask time one tenant's constrained requests may add to a step, on average
    /// (their share of the last forward pass, which host-side masks run beside, when that
    /// is more): a tenant whose masks cost more waits out what it overspent, so costly
    /// grammars slow its own requests rather than everyone's steps (see
    /// `scheduler::grammar_turns`). `None`: no limit.
    pub grammar_mask_budget: Option<Duration>,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        Self {
            max_running_requests: 64,
            max_queued_requests: 4096,
            // A step's prefill delays every decode in it: 256 prompt tokens keep a step under
            // a second on two cores, and wider matmuls would not be faster per token.
            max_prefill_tokens: 256,
            chunked_prefill_size: 256,
            policy: Policy::Lpm,
            dedup_min_tokens: 32,
            init_new_token_ratio: 0.7,
            min_new_token_ratio: 0.1,
            new_token_ratio_decay: 0.001,
            speculative_draft_tokens: 4,
            speculative_max_batch: 4,
            sample_on_device: true,
            overlap_schedule: false,
            // A JSON schema's mask takes ~0.1-1 ms on the CPU: a GPU's step of a few
            // milliseconds may grow by this much for one tenant's grammars.
            grammar_mask_budget: Some(Duration::from_millis(5)),
        }
    }
}

/// Counters the scheduler keeps for statistics and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedulerCounters {
    pub steps: u64,
    pub finished: u64,
    pub aborted: u64,
    pub retractions: u64,
    pub prefill_tokens: u64,
    pub decode_tokens: u64,
    /// Speculative draft tokens verified, and of them those accepted.
    pub spec_draft_tokens: u64,
    pub spec_accepted_tokens: u64,
    /// Overlap scheduling: decodes launched on a token still being sampled.
    pub overlapped_decodes: u64,
    /// Constrained decodes that sat a step out for their tenant's grammar mask budget.
    pub grammar_waits: u64,
}

pub struct Scheduler<M: ForwardModel> {
    model: M,
    cache: KvCache,
    kv: M::Kv,
    tokenizer: Arc<Tokenizer>,
    eos_ids: Vec<u32>,
    config: SchedulerConfig,
    tenants: TenantBook,
    waiting: Vec<Req>,
    running: Vec<Req>,
    /// Finished this step, to be streamed and released.
    batch: ForwardBatch,
    logits_scratch: Vec<f32>,
    /// How long the last forward pass took, grammar masks aside, when it sampled on the host
    /// (where masks are computed beside the pass: mask work up to it delays nobody); zero
    /// when it sampled on the device (masks come before the pass there).
    forward_time: Duration,
    /// Per tenant that spent some: grammar mask time (seconds) it may still spend this
    /// step, at most `grammar_budget`; negative after costly masks, until the budgets of
    /// the steps it waits repay it. A tenant not here has a full step's budget.
    grammar_credit: rustc_hash::FxHashMap<crate::tenants::TenantId, f64>,
    /// Each tenant's grammar mask budget this step (seconds).
    grammar_budget: f64,
    new_token_ratio: f64,
    counters: SchedulerCounters,
    rx: Receiver<Command>,
    shared: Arc<Shared>,
    next_seq: u64,
    shutdown_at: Option<Instant>,
    started_at: Instant,
    /// Requests finished or failed this step, streamed at the end of it.
    done: VecDeque<Req>,
    /// Where the tree's block changes go, if KV events are on.
    kv_events: Option<HubSender>,
    /// Changes were dropped (the hub's queue was full): resync when there is room.
    kv_events_lost: bool,
    /// The disk tier below the pool, if configured.
    disk: Option<DiskKv>,
    /// Overlap scheduling: the launched batch whose results are not processed yet.
    flight: Option<overlap::Flight>,
    /// Requests abandoned (hung up, aborted, past their deadline) while that batch was in
    /// flight: its work for them is charged to their tenants when it is collected.
    abandoned_in_flight: rustc_hash::FxHashSet<u64>,
    /// Aborts by id received since the last look at the requests, and the tenants each may
    /// touch (`None`: any): applied in one pass, so a flood of aborts costs a lookup each,
    /// not a scan of every request each.
    aborts: rustc_hash::FxHashMap<String, Vec<AbortScope>>,
    /// LoRA adapters unloaded: no new request may run them.
    retired_adapters: rustc_hash::FxHashSet<u32>,
    /// Of those, the ones still loaded while requests use them.
    retiring_adapters: Vec<u32>,
    /// Each LoRA adapter's name, by number: its requests' metric label.
    adapter_names: Vec<String>,
    /// For a model with recurrent state, the saved states a cached prefix is reused with
    /// (its K/V alone cannot restore them).
    recurrent: Option<state_cache::StateCache>,
}

impl<M: ForwardModel> Scheduler<M> {
    pub(crate) fn new(
        model: M,
        cache: KvCache,
        kv: M::Kv,
        tokenizer: Arc<Tokenizer>,
        mut config: SchedulerConfig,
        shared: Arc<Shared>,
    ) -> (Self, Sender<Command>) {
        let recurrent = (model.recurrent_state_bytes() > 0)
            .then(|| state_cache::StateCache::new(config.max_running_requests));
        if recurrent.is_some() {
            // A rejected draft would leave its tokens in the recurrent state.
            config.speculative_draft_tokens = 0;
        }
        let eos_ids = tokenizer.stop_token_ids().to_vec();
        let ratio = config.init_new_token_ratio;
        // The scheduler owns its inbox; whoever drives it gets the sending end.
        let (inbox, rx) = std::sync::mpsc::channel();
        let scheduler = Self {
            model,
            cache,
            kv,
            tokenizer,
            eos_ids,
            config,
            tenants: TenantBook::default(),
            waiting: Vec::new(),
            running: Vec::new(),
            batch: ForwardBatch::default(),
            logits_scratch: Vec::new(),
            forward_time: Duration::ZERO,
            grammar_credit: Default::default(),
            grammar_budget: 0.0,
            new_token_ratio: ratio,
            counters: SchedulerCounters::default(),
            rx,
            shared,
            next_seq: 0,
            shutdown_at: None,
            started_at: Instant::now(),
            done: VecDeque::new(),
            kv_events: None,
            kv_events_lost: false,
            disk: None,
            flight: None,
            abandoned_in_flight: Default::default(),
            aborts: Default::default(),
            retired_adapters: Default::default(),
            retiring_adapters: Vec::new(),
            adapter_names: Vec::new(),
            recurrent,
        };
        (scheduler, inbox)
    }

    /// Sends the tree's block changes to `hub` from now on (the tree must journal them).
    pub(crate) fn with_kv_events(mut self, hub: HubSender) -> Self {
        self.kv_events = Some(hub);
        self
    }

    /// Spills evicted pages to `disk` and loads them back (see `tier`).
    /// The names of the adapters loaded at start, by number (for metrics).
    pub(crate) fn with_adapter_names(mut self, names: Vec<String>) -> Self {
        self.adapter_names = names;
        self
    }

    pub(crate) fn with_disk_tier(mut self, disk: DiskKv) -> Self {
        self.disk = Some(disk);
        self
    }

    /// Hands this step's block changes to the KV event hub without waiting: if its queue
    /// is full they are dropped, and a snapshot of the whole tree follows when there is
    /// room.
    fn send_block_events(&mut self) {
        let Some(hub) = &self.kv_events else {
            return;
        };
        let events = self.cache.take_block_events();
        let input = if self.kv_events_lost {
            if !hub.has_room() {
                // The snapshot would only be dropped: build it once the hub has caught up.
                return;
            }
            HubInput::Resync(self.cache.block_snapshot())
        } else if events.is_empty() {
            return;
        } else {
            HubInput::Events(events)
        };
        match hub.try_send(input) {
            Ok(()) => self.kv_events_lost = false,
            Err(TrySendError::Full(_)) => {
                if !self.kv_events_lost {
                    metrics::counter!(names::KV_EVENT_RESYNCS).increment(1);
                }
                self.kv_events_lost = true;
            }
            Err(TrySendError::Disconnected(_)) => self.kv_events = None,
        }
    }

    /// Runs until shut down (or every handle is gone).
    pub(crate) fn run(mut self) {
        loop {
            let idle =
                self.waiting.is_empty() && self.running.is_empty() && self.loading_count() == 0;
            if idle {
                // A launched batch's results concern no running request any more.
                self.drop_flight();
                self.drop_unused_adapters();
                self.check_idle();
                if self.shutdown_at.is_some() {
                    break;
                }
                self.publish();
                self.send_block_events();
                // Nothing to do: sleep until a command arrives.
                match self.rx.recv_timeout(Duration::from_secs(1)) {
                    Ok(cmd) => self.handle(cmd),
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
            let mut handled = false;
            while let Ok(cmd) = self.rx.try_recv() {
                self.handle(cmd);
                handled = true;
            }
            self.apply_aborts();
            // Only disk reads in flight: wait for one (briefly: commands keep coming).
            let only_loading = self.waiting.is_empty() && self.running.is_empty();
            let wait = if only_loading && !handled {
                Duration::from_millis(2)
            } else {
                Duration::ZERO
            };
            let before = self.waiting.len();
            self.take_loaded(wait);
            handled |= self.waiting.len() != before;
            if handled || idle {
                // New arrivals show in the snapshot before their first token is streamed, so
                // a client never sees "idle" while its request is in flight.
                self.publish();
                self.send_block_events();
            }
            if self.shutdown_at.is_some_and(|at| Instant::now() >= at) {
                self.abort_all("the server is shutting down");
                continue;
            }
            let before = (self.work_done(), self.running.len(), self.waiting.len());
            self.step();
            self.drop_unused_adapters();
            self.publish();
            self.send_block_events();
            let after = (self.work_done(), self.running.len(), self.waiting.len());
            if after == before && self.running.is_empty() && self.loading_count() == 0 {
                // Requests wait and none could start (a tenant limit, say): wait for a
                // command rather than spin on steps that change nothing. (Disk reads
                // under way are waited for by `take_loaded`.)
                match self.rx.recv_timeout(STALLED_WAIT) {
                    Ok(cmd) => {
                        self.handle(cmd);
                        // Shown before the step that may stream its first token.
                        self.publish();
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
        }
        self.abort_all("the server is shutting down");
        self.spill_all();
        self.publish();
    }

    /// Ends every request of `tenant` (every tenant's for `None`): each is reaped at the next
    /// step, as a request aborted by id is.
    fn abort_every(&mut self, tenant: Option<crate::tenants::TenantId>) {
        let now = Instant::now();
        let loading = self.disk.iter_mut().flat_map(|d| d.loading_mut());
        let all = (self.waiting.iter_mut().chain(self.running.iter_mut())).chain(loading);
        for req in all.filter(|r| tenant.is_none_or(|t| r.tenant == t)) {
            req.deadline = Some(now);
        }
    }

    /// Marks the requests that the aborts received since the last call name as past their
    /// deadline (reaped at the next step).
    fn apply_aborts(&mut self) {
        if self.aborts.is_empty() {
            return;
        }
        let aborts = std::mem::take(&mut self.aborts);
        let now = Instant::now();
        // The ids whose preferred tenant has a request with it (a first pass, only when
        // such an abort came).
        let mut own_found = rustc_hash::FxHashSet::default();
        let prefers =
            |scopes: &[AbortScope], tenant| scopes.contains(&AbortScope::PreferTenant(tenant));
        if aborts
            .values()
            .flatten()
            .any(|s| matches!(s, AbortScope::PreferTenant(_)))
        {
            for req in self.queued_and_running() {
                if aborts
                    .get(req.rid.as_str())
                    .is_some_and(|scopes| prefers(scopes, req.tenant))
                {
                    own_found.insert(req.rid.clone());
                }
            }
        }
        let loading = self.disk.iter_mut().flat_map(|d| d.loading_mut());
        for req in self
            .waiting
            .iter_mut()
            .chain(self.running.iter_mut())
            .chain(loading)
        {
            let named = aborts.get(req.rid.as_str()).is_some_and(|scopes| {
                let own = own_found.contains(&req.rid);
                scopes.iter().any(|s| s.ends(req.tenant, own))
            });
            if named {
                req.deadline = Some(now);
            }
        }
    }

    /// Every request waiting, loading from disk or running.
    fn queued_and_running(&self) -> impl Iterator<Item = &Req> {
        let loading = self.disk.iter().flat_map(|d| d.loading());
        self.waiting
            .iter()
            .chain(self.running.iter())
            .chain(loading)
    }

    fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Submit(new) => {
                // An abort received before it never ends it, even by the same id.
                if self.aborts.contains_key(new.rid.as_str()) {
                    self.apply_aborts();
                }
                self.enqueue(*new);
            }
            Command::Abort { rid, scope } => {
                let scopes = self.aborts.entry(rid).or_default();
                if !scopes.contains(&scope) {
                    scopes.push(scope);
                }
            }
            Command::AbortAll { tenant } => self.abort_every(tenant),
            Command::SetTenants(limits) => self.tenants.set_limits(limits),
            Command::Flush {
                namespace,
                exact,
                reply,
            } => {
                let result = self.flush(namespace, exact);
                // The caller may have gone; nothing to do then.
                let _ = reply.send(result.map_err(|e| e.to_string()));
            }
            Command::Shutdown { grace } => {
                self.shutdown_at = Some(Instant::now() + grace);
            }
            Command::AddAdapter {
                adapter,
                name,
                sha256,
                reply,
            } => {
                let added = self.add_adapter(adapter, name, &sha256);
                if let Err(Ok(id)) = reply.send(added) {
                    // Its caller went: nobody could name it, nor unload it.
                    self.unload_adapter(id);
                }
            }
            Command::UnloadAdapter { id } => self.unload_adapter(id),
        }
    }

    /// The idle leak check (SGLang's): in debug builds a violation stops the engine loudly.
    fn check_idle(&self) {
        if cfg!(debug_assertions) {
            if let Err(e) = self.cache.check_idle() {
                debug_assert!(false, "KV leak at idle: {e}");
            }
        }
    }

    /// The counters that move when a step does any work (all but the step count).
    fn work_done(&self) -> SchedulerCounters {
        SchedulerCounters {
            steps: 0,
            ..self.counters
        }
    }

    /// Current counters (for tests and statistics).
    pub fn counters(&self) -> SchedulerCounters {
        self.counters
    }
}

/// Records the time since `since` as step phase `phase`; returns now.
fn phase_done(phase: &'static str, since: Instant) -> Instant {
    let now = Instant::now();
    metrics::histogram!(names::STEP_PHASE, "phase" => phase).record((now - since).as_secs_f64());
    now
}
