//! Overlap scheduling (SGLang's overlap scheduler): step N+1's batch is built and launched
//! before step N's results are processed, so the host's work on N (detokenizing, stop
//! strings, streaming, caching) can run while the model computes N+1.
//!
//! A request sampled in step N joins step N+1 on a *future* input, the token N samples for
//! it, which the host learns only when N is collected; the launch of N+1 takes it from N's
//! sampled rows. Its plan is made one token ahead (`Sampler::device_plan` with `ahead`), so
//! only requests whose next plan does not need that token join: no grammar (its mask
//! follows each token), no penalties over the output, budget and context left for one
//! more token. The others sit the step out and continue once N is collected.
//!
//! Whether a request has a token in flight is read off the launched batch itself
//! ([`Flight`], by sequence number), and a result is applied to the request of that number
//! if it is running when the batch is collected. One that finished, was aborted or was
//! retracted since is not, and its result is dropped; one retracted and admitted again
//! gets it, which is right: the token followed the tokens it still has. The batch's K/V
//! writes into its slots are ordered before those of any later batch (one CUDA stream; on
//! the CPU the launch completes before it returns), so giving the slots back at once is
//! safe.
//!
//! A runner that completes each launch (the CPU) hands back the rows at once and the future
//! inputs are filled in here; one that does not (the GPU) gets them as [`FutureToken`]s
//! and fills them in on the device, where the rows are.

use super::entry::Entry;
use super::{phase_done, Scheduler};
use crate::model::{ForwardModel, FutureToken, Launched, ModelError};
use crate::tenants::TenantId;
use kernels::sampling::SampledRow;
use std::collections::HashMap;
use std::time::Instant;

/// A launched batch whose results are not processed yet.
pub(crate) struct Flight {
    entries: Vec<FlightEntry>,
    /// Sequence number -> sampling row, for the requests that sample.
    rows_by_seq: HashMap<u64, usize>,
    /// Its rows (one per sampling entry, in entry order), ready or still on the device.
    launched: Launched,
    /// Per sampling entry: the message its grammar failed with, if it did.
    failed: Vec<Option<String>>,
}

/// One request's part of a launched batch, named by its sequence number (its running
/// index changes as requests come and go).
struct FlightEntry {
    seq: u64,
    /// Charged for the work even if the request is gone when the batch is collected.
    tenant: TenantId,
    /// A decode (else prompt tokens).
    decodes: bool,
    tokens: usize,
    /// Its sampling row when it samples.
    row: Option<usize>,
    /// It finishes an embedding request (whose embedding was taken at the launch).
    embeds: bool,
    /// It finishes a request that ends with its prompt (see [`Entry::ends`]).
    ends: bool,
}

impl Flight {
    /// The row in which this batch samples a token for request `seq`.
    fn row_for(&self, seq: u64) -> Option<usize> {
        self.rows_by_seq.get(&seq).copied()
    }
}

impl<M: ForwardModel> Scheduler<M> {
    /// The middle of an overlapped step: launches this step's batch, then collects the
    /// previous one. Returns when the last phase it timed ended.
    pub(super) fn run_overlapped(&mut self, entries: &[Entry], scheduled: Instant) -> Instant {
        let previous = self.flight.take();
        let mut phase_end = scheduled;
        if !entries.is_empty() {
            phase_end = self.launch(entries, previous.as_ref(), scheduled);
        } else if previous.is_none() && !self.running.is_empty() {
            // Every running request is mid-prefill and the pool is exhausted: give way.
            self.retract_one();
        }
        if let Some(previous) = previous {
            phase_end = self.collect(previous, phase_end);
        }
        phase_end
    }

    /// The sampling row of the launched, uncollected batch that holds running request
    /// `index`'s next token, if any.
    pub(super) fn in_flight(&self, index: usize) -> Option<usize> {
        let seq = self.running.get(index)?.seq;
        self.flight.as_ref()?.row_for(seq)
    }

    /// Whether running request `index` decodes this step: one token to compute, or (overlap
    /// scheduling) the token a launched batch samples for it, when it may decode on that;
    /// and its grammar's turn has come.
    pub(super) fn decodes_next(&self, index: usize) -> bool {
        let req = &self.running[index];
        !req.grammar_waiting
            && (req.pending_tokens() == 1
                || (self.in_flight(index).is_some() && self.future_decode_ok(index)))
    }

    /// Whether running request `index`, whose last token is still being sampled, can
    /// decode on that future token this step.
    pub(super) fn future_decode_ok(&self, index: usize) -> bool {
        let r = &self.running[index];
        self.in_flight(index).is_some()
            && r.pending_tokens() == 0
            && r.constraint.is_none()
            && !r.sampler.depends_on_history()
            && r.output_ids.len() + 1 < r.params.max_new_tokens as usize
            && r.fill_len() + 1 < self.cache.req_to_token().max_context_len()
    }

    /// Resolves the batch's future inputs from `previous`, runs and samples it, and keeps
    /// it as the flight to collect next step. Returns when the phase ended.
    fn launch(&mut self, entries: &[Entry], previous: Option<&Flight>, since: Instant) -> Instant {
        self.count_batch(entries);
        match self.run_launch(entries, previous) {
            Ok(flight) => {
                self.flight = Some(flight);
                phase_done("forward", since)
            }
            Err(e) => {
                tracing::error!("forward failed: {e}");
                self.fail_entries(entries, &format!("model error: {e}"));
                Instant::now()
            }
        }
    }

    fn run_launch(
        &mut self,
        entries: &[Entry],
        previous: Option<&Flight>,
    ) -> Result<Flight, ModelError> {
        let futures = self.future_tokens(entries, previous)?;
        let vocab = self.model.vocab_size();
        let (sampling, failed) = self.sampling_plans(entries, vocab)?;
        let launched = self
            .model
            .launch_sampled(&self.batch, &mut self.kv, &sampling, &futures)?;
        // Launches that complete at once have their hidden states now (a runner that
        // computes them completes its launches).
        self.take_prompt_outputs(entries)?;
        if let Launched::Ready(rows) = &launched {
            if rows.len() != failed.len() {
                return Err(ModelError::Batch(format!(
                    "{} sampled rows for {} sampling requests",
                    rows.len(),
                    failed.len()
                )));
            }
        }
        let mut next_row = 0;
        let entries: Vec<FlightEntry> = entries
            .iter()
            .map(|e| {
                let req = &self.running[e.index];
                let row = e.samples.then(|| {
                    next_row += 1;
                    next_row - 1
                });
                FlightEntry {
                    seq: req.seq,
                    tenant: req.tenant,
                    decodes: e.decodes(),
                    tokens: e.tokens,
                    row,
                    embeds: e.embeds,
                    ends: e.ends,
                }
            })
            .collect();
        let rows_by_seq = entries
            .iter()
            .filter_map(|e| Some((e.seq, e.row?)))
            .collect();
        Ok(Flight {
            entries,
            rows_by_seq,
            launched,
            failed,
        })
    }

    /// The batch's future inputs: filled in here from the previous batch's rows when they
    /// are on the host, else returned for the runner to fill in.
    fn future_tokens(
        &mut self,
        entries: &[Entry],
        previous: Option<&Flight>,
    ) -> Result<Vec<FutureToken>, ModelError> {
        let mut futures = Vec::new();
        let mut at = 0usize;
        for e in entries {
            if e.future {
                let req = &self.running[e.index];
                let row = previous.and_then(|f| f.row_for(req.seq)).ok_or_else(|| {
                    ModelError::Batch(format!(
                        "request {}: no sampled token to decode on",
                        req.rid
                    ))
                })?;
                match previous.map(|f| &f.launched) {
                    Some(Launched::Ready(rows)) => {
                        let token = rows
                            .get(row)
                            .map(|r| r.token)
                            .ok_or_else(|| ModelError::Batch(format!("no sampled row {row}")))?;
                        if let Some(slot) = self.batch.input_ids.get_mut(at) {
                            *slot = token;
                        }
                    }
                    _ => futures.push(FutureToken {
                        at: at as u32,
                        row: row as u32,
                    }),
                }
                self.counters.overlapped_decodes += 1;
            }
            at += e.tokens;
        }
        Ok(futures)
    }

    /// Processes a launched batch's results for the requests still running, as a plain
    /// step processes its own (`Scheduler::process_results`).
    pub(super) fn collect(&mut self, flight: Flight, since: Instant) -> Instant {
        let Flight {
            entries,
            launched,
            mut failed,
            ..
        } = flight;
        let rows = match self.model.collect_sampled(launched) {
            Ok(rows) => rows,
            Err(e) => {
                tracing::error!("collecting a batch failed: {e}; dropping what it wrote");
                self.fail_unwritten(&format!("model error: {e}"));
                return Instant::now();
            }
        };
        let running: HashMap<u64, usize> = (self.running.iter().enumerate())
            .map(|(i, r)| (r.seq, i))
            .collect();
        let (mut live, mut live_rows, mut live_failed) = (Vec::new(), Vec::new(), Vec::new());
        for fe in &entries {
            let Some(&index) = running.get(&fe.seq) else {
                // Finished, abandoned or retracted since.
                self.charge_abandoned(fe);
                continue;
            };
            if let Some(row) = fe.row {
                let sampled = rows.get(row).cloned();
                let failure = failed.get_mut(row).and_then(Option::take);
                live_failed.push(match (&sampled, failure) {
                    (_, Some(message)) => Some(message),
                    (None, None) => Some("no sampled token for the request".into()),
                    (Some(_), None) => None,
                });
                live_rows.push(sampled.unwrap_or_else(|| SampledRow {
                    token: 0,
                    logprob: f32::NAN,
                    top: Vec::new(),
                }));
            }
            live.push(Entry {
                index,
                start: 0,
                tokens: fe.tokens,
                samples: fe.row.is_some(),
                embeds: fe.embeds,
                ends: fe.ends,
                // Taken at the launch.
                scores: 0,
                score_from: 0,
                draft: Vec::new(),
                future: false,
            });
        }
        // Abandoned while the next batch was launched: none of them is in it.
        self.abandoned_in_flight.clear();
        let samples = self.accept_rows(&live, live_rows, live_failed);
        self.process_results(&live, samples, since)
    }

    /// Waits for the launched batch, if any, and drops its results (no request they
    /// concern is running any more); the runner's output slot is free again. If the batch
    /// failed, what it wrote is dropped as after a failed collect.
    pub(super) fn drop_flight(&mut self) {
        if let Some(flight) = self.flight.take() {
            for fe in &flight.entries {
                self.charge_abandoned(fe);
            }
            self.abandoned_in_flight.clear();
            if let Err(e) = self.model.collect_sampled(flight.launched) {
                tracing::error!("a dropped batch failed: {e}; dropping what it wrote");
                self.fail_unwritten(&format!("model error: {e}"));
            }
        }
    }

    /// Charges the work of an entry whose request was abandoned while it was in flight: it
    /// was done all the same, and a client that hangs up after each launch would otherwise
    /// be served for free. A decode's token is charged as computed work that gave no token
    /// (as rejected drafts). Requests that ended on their own, were retracted or failed are
    /// not charged: that is the engine's doing.
    fn charge_abandoned(&mut self, fe: &FlightEntry) {
        if !self.abandoned_in_flight.contains(&fe.seq) {
            return;
        }
        if fe.decodes {
            self.tenants.charge_rejected_drafts(fe.tenant, fe.tokens);
        } else {
            self.tenants.charge(fe.tenant, fe.tokens, 0);
        }
    }

    /// After a launched batch could not be collected, nothing it was to write can be
    /// trusted, nor anything the batch launched after it computed from its tokens: every
    /// running request fails, that later batch is dropped, and every unlocked cached prefix
    /// is flushed, with the disk tier (which may have spilled some since), since requests
    /// that ended after the launch put its slots in the tree and the tree cannot tell which.
    /// (On a GPU such a fault usually ends the device anyway; this keeps a wrong K/V from
    /// ever being served from the cache.)
    fn fail_unwritten(&mut self, message: &str) {
        self.drop_flight();
        self.fail_running((0..self.running.len()).collect(), message);
        self.release_done();
        self.flush_disk(None);
        self.forget_states(|_| true);
        match self.cache.flush_all() {
            Ok(flushed) => tracing::warn!("flushed {flushed} cached tokens after the fault"),
            Err(e) => tracing::error!("flushing after the fault: {e}"),
        }
        self.sync_salts();
    }
}
