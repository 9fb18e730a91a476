//! From per-request records to the run's figures: throughput, latency distributions (mean,
//! p50, p90, p99), cache hit rate and error count, for the whole run and per tenant, plus
//! throughput over time.
//!
//! Definitions (also in docs/loadgen.md): TTFT from sending to the first token chunk; ITL the
//! gaps between token chunks, per token; TPOT = (e2e - TTFT) / (output tokens - 1); cache hit
//! rate = sum of cached prompt tokens / sum of prompt tokens, over the completed requests
//! whose server reported cached tokens. Throughputs divide by the run's duration, from the
//! first request's start to the last one's end.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One request as measured; `error` set when it failed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestRecord {
    pub tenant: String,
    /// Index of the session (client) in the workload, and of the turn in it.
    pub session: usize,
    pub turn: usize,
    /// Seconds from the run's start to sending.
    pub start_s: f64,
    pub ttft_s: Option<f64>,
    pub e2e_s: f64,
    /// Seconds between tokens (see the module notes).
    pub itl_s: Vec<f64>,
    /// Prompt length: the server's count when it gave one, else the tokens sent.
    pub prompt_tokens: u32,
    /// Prompt tokens the server served from its prefix cache; none if it did not say.
    pub cached_tokens: Option<u32>,
    pub output_tokens: u32,
    pub finish_reason: Option<String>,
    pub error: Option<String>,
}

impl RequestRecord {
    pub fn completed(&self) -> bool {
        self.error.is_none()
    }

    /// Time per output token after the first, if there was more than one.
    pub fn tpot_s(&self) -> Option<f64> {
        let ttft = self.ttft_s?;
        (self.output_tokens > 1).then(|| (self.e2e_s - ttft) / f64::from(self.output_tokens - 1))
    }
}

/// A distribution, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub count: usize,
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Stats {
    /// `samples_s` in seconds; none when empty.
    pub fn from_seconds(samples_s: impl IntoIterator<Item = f64>) -> Option<Stats> {
        let mut ms: Vec<f64> = samples_s.into_iter().map(|s| s * 1e3).collect();
        if ms.is_empty() {
            return None;
        }
        ms.sort_by(f64::total_cmp);
        Some(Stats {
            count: ms.len(),
            mean: ms.iter().sum::<f64>() / ms.len() as f64,
            p50: percentile(&ms, 50.0),
            p90: percentile(&ms, 90.0),
            p99: percentile(&ms, 99.0),
            max: ms[ms.len() - 1],
        })
    }
}

/// The `q`th percentile of sorted, non-empty `sorted`, interpolating linearly between ranks
/// (NumPy's default).
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = q / 100.0 * (sorted.len() - 1) as f64;
    let low = rank.floor() as usize;
    let high = rank.ceil() as usize;
    sorted[low] + (sorted[high] - sorted[low]) * (rank - low as f64)
}

/// The figures of a set of requests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Requests sent (completed + errors).
    pub sent: usize,
    pub completed: usize,
    pub errors: usize,
    /// Over completed requests.
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cached_tokens: u64,
    /// Cached / prompt tokens over completed requests that reported cached tokens; none when
    /// the server reported none.
    pub cache_hit_rate: Option<f64>,
    pub duration_s: f64,
    /// Completed requests per second.
    pub request_throughput: f64,
    pub input_token_throughput: f64,
    pub output_token_throughput: f64,
    pub total_token_throughput: f64,
    pub ttft_ms: Option<Stats>,
    pub itl_ms: Option<Stats>,
    pub tpot_ms: Option<Stats>,
    pub e2e_ms: Option<Stats>,
    /// The first few distinct error messages, for a look at what went wrong.
    pub error_samples: Vec<String>,
}

const ERROR_SAMPLES: usize = 5;

impl Summary {
    /// The figures of `records` over a run of `duration_s` seconds.
    pub fn of<'a>(records: impl IntoIterator<Item = &'a RequestRecord>, duration_s: f64) -> Self {
        let records: Vec<&RequestRecord> = records.into_iter().collect();
        let done: Vec<&RequestRecord> = records.iter().copied().filter(|r| r.completed()).collect();
        let input_tokens: u64 = done.iter().map(|r| u64::from(r.prompt_tokens)).sum();
        let output_tokens: u64 = done.iter().map(|r| u64::from(r.output_tokens)).sum();
        let reporting: Vec<&&RequestRecord> =
            done.iter().filter(|r| r.cached_tokens.is_some()).collect();
        let cached_tokens: u64 = reporting
            .iter()
            .map(|r| u64::from(r.cached_tokens.unwrap_or(0)))
            .sum();
        let reporting_prompt: u64 = reporting.iter().map(|r| u64::from(r.prompt_tokens)).sum();
        let cache_hit_rate =
            (reporting_prompt > 0).then(|| cached_tokens as f64 / reporting_prompt as f64);
        let per_s = |x: f64| {
            if duration_s > 0.0 {
                x / duration_s
            } else {
                0.0
            }
        };
        let mut error_samples: Vec<String> = Vec::new();
        for error in records.iter().filter_map(|r| r.error.as_ref()) {
            if error_samples.len() < ERROR_SAMPLES && !error_samples.contains(error) {
                error_samples.push(error.clone());
            }
        }
        Summary {
            sent: records.len(),
            completed: done.len(),
            errors: records.len() - done.len(),
            input_tokens,
            output_tokens,
            cached_tokens,
            cache_hit_rate,
            duration_s,
            request_throughput: per_s(done.len() as f64),
            input_token_throughput: per_s(input_tokens as f64),
            output_token_throughput: per_s(output_tokens as f64),
            total_token_throughput: per_s((input_tokens + output_tokens) as f64),
            ttft_ms: Stats::from_seconds(done.iter().filter_map(|r| r.ttft_s)),
            itl_ms: Stats::from_seconds(done.iter().flat_map(|r| r.itl_s.iter().copied())),
            tpot_ms: Stats::from_seconds(done.iter().filter_map(|r| r.tpot_s())),
            e2e_ms: Stats::from_seconds(done.iter().map(|r| r.e2e_s)),
            error_samples,
        }
    }
}

/// Summaries per tenant name.
pub fn per_tenant(records: &[RequestRecord], duration_s: f64) -> BTreeMap<String, Summary> {
    let mut names: Vec<&str> = records.iter().map(|r| r.tenant.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let mine = records.iter().filter(|r| r.tenant == name);
            (name.to_string(), Summary::of(mine, duration_s))
        })
        .collect()
}

/// Throughput over time in fixed bins from the run's start.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timeline {
    pub bin_s: f64,
    /// Output tokens received per second, per bin.
    pub output_tokens_per_s: Vec<f64>,
    /// Requests completed per second, per bin.
    pub completed_per_s: Vec<f64>,
}

/// About this many bins, whatever the run's length.
const TIMELINE_BINS: f64 = 60.0;

impl Timeline {
    /// From token arrivals and completions, each `(seconds since the start, count)`.
    pub fn build(token_arrivals: &[(f64, u32)], completions: &[f64], duration_s: f64) -> Self {
        if duration_s <= 0.0 {
            return Timeline::default();
        }
        let bin_s = nice_bin(duration_s / TIMELINE_BINS);
        let bins = (duration_s / bin_s).ceil().max(1.0) as usize;
        let index = |t: f64| ((t / bin_s) as usize).min(bins - 1);
        let mut tokens = vec![0.0; bins];
        for &(t, n) in token_arrivals {
            tokens[index(t)] += f64::from(n) / bin_s;
        }
        let mut done = vec![0.0; bins];
        for &t in completions {
            done[index(t)] += 1.0 / bin_s;
        }
        Timeline {
            bin_s,
            output_tokens_per_s: tokens,
            completed_per_s: done,
        }
    }
}

/// The smallest of 0.1, 0.2, 0.5, 1, 2, 5, 10, ... seconds at least `raw`.
fn nice_bin(raw: f64) -> f64 {
    let mut scale = 0.1;
    loop {
        for step in [1.0, 2.0, 5.0] {
            if step * scale >= raw {
                return step * scale;
            }
        }
        scale *= 10.0;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn record(tenant: &str, ttft: f64, e2e: f64, out: u32, cached: Option<u32>) -> RequestRecord {
        RequestRecord {
            tenant: tenant.into(),
            session: 0,
            turn: 0,
            start_s: 0.0,
            ttft_s: Some(ttft),
            e2e_s: e2e,
            itl_s: vec![(e2e - ttft) / f64::from(out - 1); out as usize - 1],
            prompt_tokens: 100,
            cached_tokens: cached,
            output_tokens: out,
            finish_reason: Some("length".into()),
            error: None,
        }
    }

    #[test]
    fn percentiles_interpolate() {
        let sorted = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&sorted, 50.0), 2.5);
        assert_eq!(percentile(&sorted, 0.0), 1.0);
        assert_eq!(percentile(&sorted, 100.0), 4.0);
        assert!((percentile(&sorted, 90.0) - 3.7).abs() < 1e-12);
        assert_eq!(percentile(&[5.0], 99.0), 5.0);
    }

    #[test]
    fn summary_counts_and_rates() {
        let mut failed = record("b", 0.1, 0.2, 2, None);
        failed.error = Some("boom".into());
        let records = vec![
            record("a", 0.1, 1.0, 10, Some(50)),
            record("a", 0.3, 1.2, 10, Some(0)),
            record("b", 0.2, 0.5, 4, None),
            failed,
        ];
        let s = Summary::of(&records, 2.0);
        assert_eq!((s.sent, s.completed, s.errors), (4, 3, 1));
        assert_eq!(s.output_tokens, 24);
        assert_eq!(s.input_tokens, 300);
        assert_eq!(
            s.cache_hit_rate,
            Some(0.25),
            "only reporting requests count"
        );
        assert_eq!(s.request_throughput, 1.5);
        assert_eq!(s.output_token_throughput, 12.0);
        let ttft = s.ttft_ms.unwrap();
        assert!((ttft.p50 - 200.0).abs() < 1e-9 && ttft.count == 3);
        let tpot = s.tpot_ms.unwrap();
        assert!((tpot.max - 100.0).abs() < 1e-9);
        assert_eq!(s.itl_ms.unwrap().count, 9 + 9 + 3);
        assert_eq!(s.error_samples, vec!["boom".to_string()]);
        let tenants = per_tenant(&records, 2.0);
        assert_eq!(tenants["a"].completed, 2);
        assert_eq!(tenants["b"].errors, 1);
        assert_eq!(tenants["b"].cache_hit_rate, None);
    }

    #[test]
    fn timeline_bins_add_up() {
        let arrivals = [(0.0, 1), (0.5, 2), (9.99, 4)];
        let timeline = Timeline::build(&arrivals, &[1.0, 9.9], 10.0);
        assert_eq!(timeline.bin_s, 0.2);
        let total: f64 = timeline
            .output_tokens_per_s
            .iter()
            .map(|r| r * timeline.bin_s)
            .sum();
        assert!((total - 7.0).abs() < 1e-9);
        assert_eq!(timeline.completed_per_s.len(), 50);
    }
}
