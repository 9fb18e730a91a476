//! Sends a workload: sessions start at their arrival offsets, at most `max_concurrency`
//! requests are in flight (a fair semaphore: waiting requests go in arrival order), each
//! multi-turn session sends its turns one after another, re-sending the conversation so far.

use super::backend::{Backend, Outcome, RequestSpec};
use super::dataset::Session;
use super::metrics::{RequestRecord, Timeline};
use super::schedule::start_order;
use super::tenants::TenantSpec;
use engine::tokenizer::Tokenizer;
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

/// Everything one run sends, and how.
#[derive(Clone, Debug)]
pub struct RunPlan {
    pub sessions: Vec<Session>,
    /// Start offset of each session from the run's start.
    pub arrivals: Vec<Duration>,
    pub tenants: Vec<TenantSpec>,
    /// None: no limit.
    pub max_concurrency: Option<usize>,
    pub temperature: f32,
    pub ignore_eos: bool,
    /// Sent by tenants without a key of their own.
    pub default_api_key: Option<String>,
    pub show_progress: bool,
}

/// What a run measured, before reduction.
#[derive(Clone, Debug)]
pub struct RawRun {
    pub records: Vec<RequestRecord>,
    /// From the start to the end of the last request.
    pub duration_s: f64,
    pub timeline: Timeline,
    pub started_unix_s: f64,
}

/// What the session tasks share.
struct SessionContext {
    backend: Arc<Backend>,
    tokenizer: Arc<Tokenizer>,
    in_flight: Arc<Semaphore>,
    start: Instant,
    plan: RunPlan,
    progress: ProgressBar,
    errors: AtomicUsize,
}

/// One request's record and its token arrivals (seconds from the run's start, count).
struct Measured {
    record: RequestRecord,
    token_arrivals: Vec<(f64, u32)>,
}

/// Runs `plan` against `backend` to the end; request failures are recorded, never fatal.
pub async fn run(backend: Arc<Backend>, tokenizer: Arc<Tokenizer>, mut plan: RunPlan) -> RawRun {
    let total_requests: usize = plan.sessions.iter().map(|s| s.turns.len()).sum();
    let permits = plan
        .max_concurrency
        .unwrap_or(Semaphore::MAX_PERMITS)
        .clamp(1, Semaphore::MAX_PERMITS);
    let order = start_order(&plan.arrivals);
    let arrivals = plan.arrivals.clone();
    let mut sessions: Vec<Option<Session>> = std::mem::take(&mut plan.sessions)
        .into_iter()
        .map(Some)
        .collect();
    let progress = progress_bar(plan.show_progress, total_requests);
    let started_unix_s = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    let context = Arc::new(SessionContext {
        backend,
        tokenizer,
        in_flight: Arc::new(Semaphore::new(permits)),
        start: Instant::now(),
        plan,
        progress,
        errors: AtomicUsize::new(0),
    });

    let mut tasks = JoinSet::new();
    for index in order {
        tokio::time::sleep_until((context.start + arrivals[index]).into()).await;
        let Some(session) = sessions[index].take() else {
            continue;
        };
        let permit = acquire(&context.in_flight).await;
        tasks.spawn(run_session(context.clone(), index, session, permit));
    }
    let mut measured = Vec::with_capacity(total_requests);
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(requests) => measured.extend(requests),
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => {}
        }
    }
    context.progress.finish_and_clear();

    measured.sort_by(|a, b| a.record.start_s.total_cmp(&b.record.start_s));
    let duration_s = measured
        .iter()
        .map(|m| m.record.start_s + m.record.e2e_s)
        .fold(0.0, f64::max);
    let arrivals: Vec<(f64, u32)> = measured
        .iter()
        .flat_map(|m| m.token_arrivals.iter().copied())
        .collect();
    let completions: Vec<f64> = measured
        .iter()
        .filter(|m| m.record.completed())
        .map(|m| m.record.start_s + m.record.e2e_s)
        .collect();
    RawRun {
        timeline: Timeline::build(&arrivals, &completions, duration_s),
        records: measured.into_iter().map(|m| m.record).collect(),
        duration_s,
        started_unix_s,
    }
}

async fn acquire(semaphore: &Arc<Semaphore>) -> Option<OwnedSemaphorePermit> {
    // The semaphore is never closed; `None` would only mean running unthrottled.
    semaphore.clone().acquire_owned().await.ok()
}

fn progress_bar(show: bool, total: usize) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} requests {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

async fn run_session(
    context: Arc<SessionContext>,
    index: usize,
    session: Session,
    first_permit: Option<OwnedSemaphorePermit>,
) -> Vec<Measured> {
    let tenant = context.plan.tenants.get(session.tenant);
    let tenant_name = tenant.map_or("default", |t| t.name.as_str());
    let api_key = tenant
        .and_then(|t| t.api_key.as_deref())
        .or(context.plan.default_api_key.as_deref());
    let mut permit = first_permit;
    let mut history: Vec<u32> = Vec::new();
    let mut measured = Vec::with_capacity(session.turns.len());
    for (turn_index, turn) in session.turns.iter().enumerate() {
        if permit.is_none() && turn_index > 0 {
            permit = acquire(&context.in_flight).await;
        }
        let prompt: Vec<u32> = if session.carries_history {
            history.iter().chain(&turn.new_tokens).copied().collect()
        } else {
            turn.new_tokens.clone()
        };
        let start_s = context.start.elapsed().as_secs_f64();
        let outcome = match prompt_text(&context, &prompt) {
            Ok(prompt_text) => {
                let spec = RequestSpec {
                    prompt: &prompt,
                    prompt_text: prompt_text.as_deref(),
                    output_len: turn.output_len,
                    api_key,
                    temperature: context.plan.temperature,
                    ignore_eos: context.plan.ignore_eos,
                };
                context.backend.generate(&spec).await
            }
            Err(error) => Outcome::failed(Default::default(), error),
        };
        drop(permit.take());
        let failed = outcome.error.is_some();
        if session.carries_history && !failed {
            history = prompt.clone();
            history.extend(reply_tokens(&context.tokenizer, &outcome));
        }
        measured.push(record(
            &context,
            tenant_name,
            (index, turn_index),
            start_s,
            prompt.len(),
            outcome,
        ));
        context.progress.inc(1);
        if failed {
            let errors = context.errors.fetch_add(1, Ordering::Relaxed) + 1;
            context.progress.set_message(format!("{errors} errors"));
            // The rest of a conversation makes no sense without this reply.
            break;
        }
    }
    measured
}

/// The prompt as text when the server takes text.
fn prompt_text(context: &SessionContext, prompt: &[u32]) -> Result<Option<String>, String> {
    if !context.backend.wants_text() {
        return Ok(None);
    }
    context
        .tokenizer
        .decode(prompt, false)
        .map(Some)
        .map_err(|e| format!("cannot decode the prompt: {e}"))
}

/// The reply as token ids: as streamed (gRPC), else the text re-tokenized locally, as a chat
/// client re-sending text would have it.
fn reply_tokens(tokenizer: &Tokenizer, outcome: &Outcome) -> Vec<u32> {
    match &outcome.output_ids {
        Some(ids) => ids.clone(),
        None => tokenizer
            .encode_without_bos_eos(&outcome.output_text, false)
            .unwrap_or_default(),
    }
}

fn record(
    context: &SessionContext,
    tenant: &str,
    (session, turn): (usize, usize),
    start_s: f64,
    prompt_len: usize,
    outcome: Outcome,
) -> Measured {
    let timing = outcome.timing;
    let token_arrivals = timing
        .token_arrivals
        .iter()
        .map(|&(at, n)| (at.saturating_duration_since(context.start).as_secs_f64(), n))
        .collect();
    let record = RequestRecord {
        tenant: tenant.to_string(),
        session,
        turn,
        start_s,
        ttft_s: timing.ttft_s,
        e2e_s: timing.e2e_s,
        itl_s: timing.itl_s,
        prompt_tokens: outcome.prompt_tokens.unwrap_or(prompt_len as u32),
        cached_tokens: outcome.cached_tokens,
        output_tokens: outcome.output_tokens.unwrap_or(timing.streamed_tokens),
        finish_reason: outcome.finish_reason,
        error: outcome.error,
    };
    Measured {
        record,
        token_arrivals,
    }
}
