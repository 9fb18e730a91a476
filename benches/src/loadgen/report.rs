//! A run's results: the JSON file (`--output`), the table printed at the end, and the
//! markdown table that compares several result files (`loadgen summarize`).

use super::backend::BackendKind;
use super::metrics::{RequestRecord, Stats, Summary, Timeline};
use super::sweep::SweepResult;
use super::LoadgenError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// How a run was set up, as saved with its results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSetup {
    pub label: String,
    pub backend: BackendKind,
    pub url: String,
    pub model: String,
    /// `random`, `generated-shared-prefix`, `multi-turn` or `multi-tenant`.
    pub dataset: String,
    /// The dataset's sizes in words, e.g. `64 x 512 in / 64 out`.
    pub workload: String,
    pub max_concurrency: Option<usize>,
    /// Requests per second; none: as fast as the concurrency allows.
    pub request_rate: Option<f64>,
    pub warmup: usize,
    pub seed: u64,
    pub temperature: f32,
    pub ignore_eos: bool,
    /// The command line that made the run.
    pub command: Vec<String>,
}

/// Everything one run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub setup: RunSetup,
    pub started_unix_s: f64,
    pub summary: Summary,
    /// Per tenant, for multi-tenant runs.
    pub tenants: BTreeMap<String, Summary>,
    pub timeline: Timeline,
    pub requests: Vec<RequestRecord>,
}

/// A results file: one run or a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ResultFile {
    Run(Box<RunResult>),
    Sweep(Box<SweepResult>),
}

impl ResultFile {
    pub fn write(&self, path: &Path) -> Result<(), LoadgenError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| LoadgenError::file(dir, e))?;
        }
        let json = serde_json::to_string_pretty(self).map_err(|e| LoadgenError::file(path, e))?;
        std::fs::write(path, json + "\n").map_err(|e| LoadgenError::file(path, e))
    }

    pub fn read(path: &Path) -> Result<ResultFile, LoadgenError> {
        let text = std::fs::read_to_string(path).map_err(|e| LoadgenError::file(path, e))?;
        serde_json::from_str(&text).map_err(|e| LoadgenError::file(path, e))
    }
}

/// The table printed at the end of a run.
pub fn run_table(run: &RunResult) -> String {
    let setup = &run.setup;
    let s = &run.summary;
    let mut out = String::new();
    let _ = writeln!(out, "============ loadgen: {} ============", setup.label);
    let mut row = |name: &str, value: String| {
        let _ = writeln!(out, "{name:<36} {value}");
    };
    row(
        "Backend / URL:",
        format!("{} {}", setup.backend.name(), setup.url),
    );
    row("Model:", setup.model.clone());
    row(
        "Dataset:",
        format!("{} ({})", setup.dataset, setup.workload),
    );
    row(
        "Max concurrency / request rate:",
        format!(
            "{} / {}",
            setup
                .max_concurrency
                .map_or("none".into(), |c| c.to_string()),
            rate_text(setup.request_rate)
        ),
    );
    row("Duration (s):", format!("{:.2}", s.duration_s));
    row(
        "Requests sent / completed / errors:",
        format!("{} / {} / {}", s.sent, s.completed, s.errors),
    );
    row(
        "Input / output tokens:",
        format!("{} / {}", s.input_tokens, s.output_tokens),
    );
    row(
        "Cache hit rate:",
        match s.cache_hit_rate {
            Some(rate) => format!(
                "{:.1}% ({} of {} prompt tokens cached)",
                rate * 100.0,
                s.cached_tokens,
                s.input_tokens
            ),
            None => "n/a (the server reports no cached tokens)".into(),
        },
    );
    row(
        "Request throughput (req/s):",
        format!("{:.2}", s.request_throughput),
    );
    row(
        "Input token throughput (tok/s):",
        format!("{:.1}", s.input_token_throughput),
    );
    row(
        "Output token throughput (tok/s):",
        format!("{:.1}", s.output_token_throughput),
    );
    row(
        "Total token throughput (tok/s):",
        format!("{:.1}", s.total_token_throughput),
    );
    let _ = writeln!(
        out,
        "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "latency ms", "mean", "p50", "p90", "p99", "max"
    );
    for (name, stats) in [
        ("TTFT", &s.ttft_ms),
        ("ITL", &s.itl_ms),
        ("TPOT", &s.tpot_ms),
        ("E2E", &s.e2e_ms),
    ] {
        let _ = match stats {
            Some(st) => writeln!(
                out,
                "{name:<12} {:>10.2} {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
                st.mean, st.p50, st.p90, st.p99, st.max
            ),
            None => writeln!(out, "{name:<12} {:>10}", "n/a"),
        };
    }
    for error in &s.error_samples {
        let _ = writeln!(out, "error: {error}");
    }
    if run.tenants.len() > 1 || setup.dataset == "multi-tenant" {
        out.push_str(&tenant_table(&run.tenants));
    }
    out
}

fn tenant_table(tenants: &BTreeMap<String, Summary>) -> String {
    let mut out = String::from("per tenant:\n");
    let _ = writeln!(
        out,
        "{:<16} {:>6} {:>6} {:>6} {:>8} {:>10} {:>10} {:>10} {:>9} {:>9} {:>7}",
        "tenant",
        "sent",
        "done",
        "errors",
        "req/s",
        "out tok/s",
        "TTFT p50",
        "TTFT p99",
        "ITL p50",
        "ITL p99",
        "cache"
    );
    for (name, s) in tenants {
        let _ = writeln!(
            out,
            "{:<16} {:>6} {:>6} {:>6} {:>8.2} {:>10.1} {:>10} {:>10} {:>9} {:>9} {:>7}",
            name,
            s.sent,
            s.completed,
            s.errors,
            s.request_throughput,
            s.output_token_throughput,
            ms(s.ttft_ms, |st| st.p50),
            ms(s.ttft_ms, |st| st.p99),
            ms(s.itl_ms, |st| st.p50),
            ms(s.itl_ms, |st| st.p99),
            percent(s.cache_hit_rate),
        );
    }
    out
}

/// A markdown table, one row per result (a sweep gives one row per level).
pub fn markdown_table(results: &[&ResultFile]) -> String {
    let mut out = String::from(
        "| server | workload | requests (ok/sent) | req/s | output tok/s | median TTFT (ms) \
         | p99 TTFT (ms) | median ITL (ms) | p99 ITL (ms) | cache hit rate |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut row = |server: &str, workload: &str, s: &Summary| {
        let _ = writeln!(
            out,
            "| {server} | {workload} | {}/{} | {:.2} | {:.1} | {} | {} | {} | {} | {} |",
            s.completed,
            s.sent,
            s.request_throughput,
            s.output_token_throughput,
            ms(s.ttft_ms, |st| st.p50),
            ms(s.ttft_ms, |st| st.p99),
            ms(s.itl_ms, |st| st.p50),
            ms(s.itl_ms, |st| st.p99),
            percent(s.cache_hit_rate),
        );
    };
    for result in results {
        match result {
            ResultFile::Run(run) => {
                let workload = format!("{} ({})", run.setup.dataset, run.setup.workload);
                row(&run.setup.label, &workload, &run.summary);
            }
            ResultFile::Sweep(sweep) => {
                for point in &sweep.points {
                    let workload = format!(
                        "{} ({}), {} {}",
                        sweep.setup.dataset,
                        sweep.setup.workload,
                        sweep.parameter.name(),
                        point.value
                    );
                    row(&sweep.setup.label, &workload, &point.summary);
                }
            }
        }
    }
    out
}

pub fn rate_text(rate: Option<f64>) -> String {
    rate.map_or("inf".into(), |r| format!("{r} req/s"))
}

/// A latency in milliseconds with one decimal, or `n/a`.
pub(crate) fn ms(stats: Option<Stats>, pick: impl Fn(&Stats) -> f64) -> String {
    stats.map_or("n/a".into(), |st| format!("{:.1}", pick(&st)))
}

/// A rate as a percentage with one decimal, or `n/a`.
pub(crate) fn percent(rate: Option<f64>) -> String {
    rate.map_or("n/a".into(), |r| format!("{:.1}%", r * 100.0))
}
