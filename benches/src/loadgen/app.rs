//! A whole loadgen invocation: check the flags, load the tokenizer, connect, warm up, run
//! (once or per sweep level), then print, save and plot the results.

use super::backend::{Backend, BackendKind, BackendOptions};
use super::cli::{DatasetKind, RunArgs, TenantDataset};
use super::dataset::{
    MultiTurnParams, RandomParams, Session, SharedPrefixParams, Vocabulary, Workload,
};
use super::metrics::{per_tenant, Summary};
use super::plot::{plot_runs, plot_sweeps};
use super::report::{markdown_table, run_table, ResultFile, RunResult, RunSetup};
use super::runner::{self, RunPlan};
use super::schedule::arrival_offsets;
use super::sweep::{sweep_table, SweepParameter, SweepPoint, SweepResult, SweepSpec};
use super::tenants::{build_multi_tenant, read_tenants_file, validate_tenants, TenantSpec};
use super::LoadgenError;
use engine::gguf::GgufFile;
use engine::tokenizer::Tokenizer;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Seed offset of the warm-up prompts, so they share nothing with the measured ones.
const WARMUP_SEED: u64 = 0x5741_524d_5550;

/// Runs what `args` asks for, prints the tables, writes the files; returns the results.
pub async fn run(args: &RunArgs, command: Vec<String>) -> Result<ResultFile, LoadgenError> {
    let sweep = args.sweep.as_deref().map(SweepSpec::parse).transpose()?;
    let compare = args.compare.as_deref().map(ResultFile::read).transpose()?;
    if let Some(other) = &compare {
        if matches!(other, ResultFile::Sweep(_)) != sweep.is_some() {
            return Err(compare_mismatch());
        }
    }
    let bench = Bench::prepare(args, command).await?;
    let result = match sweep {
        None => ResultFile::Run(Box::new(bench.run_once(args, 0).await?)),
        Some(spec) => ResultFile::Sweep(Box::new(bench.sweep(args, &spec).await?)),
    };
    match &result {
        ResultFile::Run(run) => print!("{}", run_table(run)),
        ResultFile::Sweep(sweep) => print!("{}", sweep_table(sweep)),
    }
    if let Some(other) = &compare {
        println!("\n{}", markdown_table(&[&result, other]));
    }
    if let Some(path) = &args.output {
        result.write(path)?;
        println!("results: {}", path.display());
    }
    if let Some(dir) = &args.plots {
        for path in plot(dir, &result, compare.as_ref())? {
            println!("plot: {}", path.display());
        }
    }
    Ok(result)
}

fn plot(
    dir: &Path,
    result: &ResultFile,
    other: Option<&ResultFile>,
) -> Result<Vec<std::path::PathBuf>, LoadgenError> {
    match (result, other) {
        (ResultFile::Run(run), None) => plot_runs(dir, &[run]),
        (ResultFile::Run(run), Some(ResultFile::Run(o))) => plot_runs(dir, &[run, o]),
        (ResultFile::Sweep(sweep), None) => plot_sweeps(dir, &[sweep]),
        (ResultFile::Sweep(sweep), Some(ResultFile::Sweep(o))) => plot_sweeps(dir, &[sweep, o]),
        _ => Err(compare_mismatch()),
    }
}

fn compare_mismatch() -> LoadgenError {
    LoadgenError::InvalidArgs(
        "--compare: a run can only be compared with a run, a sweep with a sweep".into(),
    )
}

/// What every run of an invocation shares.
struct Bench {
    backend: Arc<Backend>,
    tokenizer: Arc<Tokenizer>,
    vocab: Vocabulary,
    workload: Workload,
    tenants: Vec<TenantSpec>,
    setup: RunSetup,
}

impl Bench {
    async fn prepare(args: &RunArgs, command: Vec<String>) -> Result<Bench, LoadgenError> {
        let workload = base_workload(args);
        workload.validate()?;
        let tenants = tenants(args)?;
        check_load(args)?;
        let tokenizer = load_tokenizer(&args.tokenizer)?;
        let vocab = Vocabulary::from_tokenizer(&tokenizer)?;
        let url = args
            .url
            .clone()
            .unwrap_or_else(|| args.backend.default_url().to_string());
        let options = BackendOptions {
            kind: args.backend,
            url: url.clone(),
            model_name: args.model_name.clone(),
            request_timeout: Duration::from_secs_f64(args.request_timeout),
            send_text: args.send_text,
            api_key: args
                .api_key
                .clone()
                .or_else(|| tenants.first().and_then(|t| t.api_key.clone())),
        };
        let backend = Backend::connect(&options).await?;
        let model = backend.model().clone();
        if let Some(max) = model.max_context_len {
            let longest = workload.max_request_tokens();
            if longest > max {
                return Err(LoadgenError::InvalidArgs(format!(
                    "requests of up to {longest} tokens (prompt + output) exceed the server's \
                     limit of {max}"
                )));
            }
        }
        let setup = RunSetup {
            label: args
                .label
                .clone()
                .unwrap_or_else(|| format!("{} {url}", args.backend.name())),
            backend: args.backend,
            url,
            model: model.name,
            dataset: args.dataset.name().to_string(),
            workload: describe(args, &workload, &tenants),
            max_concurrency: args.max_concurrency,
            request_rate: args.request_rate.filter(|r| r.is_finite()),
            warmup: args.warmup,
            seed: args.seed,
            temperature: args.temperature,
            ignore_eos: args.ignore_eos,
            command,
        };
        Ok(Bench {
            backend: Arc::new(backend),
            tokenizer: Arc::new(tokenizer),
            vocab,
            workload,
            tenants,
            setup,
        })
    }

    /// One run: warm-up, optional cache flush, the measured workload built from
    /// `seed + seed_offset`.
    async fn run_once(&self, args: &RunArgs, seed_offset: u64) -> Result<RunResult, LoadgenError> {
        let seed = args.seed.wrapping_add(seed_offset);
        let sessions = self.sessions(args, seed);
        if args.warmup > 0 {
            self.warm_up(args, &sessions, seed).await?;
        }
        if args.flush_cache {
            // Each tenant flushes its own cache: a multi-tenant server keeps one per tenant.
            let mut keys: Vec<Option<&str>> = Vec::new();
            for tenant in &self.tenants {
                let key = tenant.api_key.as_deref().or(args.api_key.as_deref());
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
            for key in keys {
                self.backend.flush_cache(key).await?;
            }
        }
        let rate = args.request_rate.filter(|r| r.is_finite());
        let plan = RunPlan {
            arrivals: arrival_offsets(&sessions, &self.tenants, rate, seed),
            sessions,
            tenants: self.tenants.clone(),
            max_concurrency: args.max_concurrency,
            temperature: args.temperature,
            ignore_eos: args.ignore_eos,
            default_api_key: args.api_key.clone(),
            show_progress: !args.no_progress,
        };
        let raw = runner::run(self.backend.clone(), self.tokenizer.clone(), plan).await;
        let mut setup = self.setup.clone();
        setup.max_concurrency = args.max_concurrency;
        setup.request_rate = rate;
        setup.seed = seed;
        setup.warmup = args.warmup;
        Ok(RunResult {
            setup,
            started_unix_s: raw.started_unix_s,
            summary: Summary::of(&raw.records, raw.duration_s),
            tenants: per_tenant(&raw.records, raw.duration_s),
            timeline: raw.timeline,
            requests: raw.records,
        })
    }

    /// One run per level; level i draws its prompts from `seed + i`, so no level is served
    /// from the cache a previous level left behind. Only the first level warms up.
    async fn sweep(&self, args: &RunArgs, spec: &SweepSpec) -> Result<SweepResult, LoadgenError> {
        let mut points = Vec::with_capacity(spec.values.len());
        for (level, &value) in spec.values.iter().enumerate() {
            let mut level_args = args.clone();
            match spec.parameter {
                SweepParameter::Concurrency => level_args.max_concurrency = Some(value as usize),
                SweepParameter::RequestRate => level_args.request_rate = Some(value),
            }
            if level > 0 {
                level_args.warmup = 0;
            }
            println!("sweep: {} = {value}", spec.parameter.name());
            let run = self.run_once(&level_args, level as u64).await?;
            points.push(SweepPoint {
                value,
                summary: run.summary,
            });
        }
        let mut setup = self.setup.clone();
        match spec.parameter {
            SweepParameter::Concurrency => setup.max_concurrency = None,
            SweepParameter::RequestRate => setup.request_rate = None,
        }
        Ok(SweepResult {
            setup,
            parameter: spec.parameter,
            points,
        })
    }

    fn sessions(&self, args: &RunArgs, seed: u64) -> Vec<Session> {
        if args.dataset == DatasetKind::MultiTenant {
            build_multi_tenant(
                &self.workload,
                &self.tenants,
                &self.vocab,
                seed,
                args.tenant_same_prompts,
            )
        } else {
            self.workload.build(&self.vocab, seed)
        }
    }

    /// Sends `args.warmup` random prompts as long as the workload's first; fails when every
    /// one of them failed (the server is not serving), with the first error.
    async fn warm_up(
        &self,
        args: &RunArgs,
        sessions: &[Session],
        seed: u64,
    ) -> Result<(), LoadgenError> {
        let first = sessions.first().and_then(|s| s.turns.first());
        let (input_len, output_len) =
            first.map_or((16, 16), |t| (t.new_tokens.len(), t.output_len));
        let warmup = Workload::Random(RandomParams {
            num_prompts: args.warmup,
            input_len: input_len.max(1),
            output_len: output_len.max(1) as usize,
            range_ratio: 1.0,
        })
        .build(&self.vocab, seed ^ WARMUP_SEED);
        let plan = RunPlan {
            arrivals: vec![Duration::ZERO; warmup.len()],
            sessions: warmup,
            // The first tenant's key: the warm-up must pass authentication too.
            tenants: self.tenants.iter().take(1).cloned().collect(),
            max_concurrency: Some(args.max_concurrency.unwrap_or(args.warmup).min(args.warmup)),
            temperature: args.temperature,
            ignore_eos: args.ignore_eos,
            default_api_key: args.api_key.clone(),
            show_progress: false,
        };
        let raw = runner::run(self.backend.clone(), self.tokenizer.clone(), plan).await;
        if raw.records.iter().all(|r| !r.completed()) {
            let reason = raw
                .records
                .iter()
                .find_map(|r| r.error.clone())
                .unwrap_or_else(|| "no warm-up request completed".into());
            return Err(LoadgenError::WarmupFailed {
                url: self.setup.url.clone(),
                reason,
            });
        }
        Ok(())
    }
}

fn load_tokenizer(path: &Path) -> Result<Tokenizer, LoadgenError> {
    if !path.exists() {
        return Err(LoadgenError::Tokenizer(format!(
            "{} not found: pass --tokenizer with the served model's GGUF \
             (the default model comes from scripts/fetch-model.sh)",
            path.display()
        )));
    }
    let file = GgufFile::open(path)
        .map_err(|e| LoadgenError::Tokenizer(format!("{}: {e}", path.display())))?;
    Tokenizer::from_gguf_metadata(file.metadata())
        .map_err(|e| LoadgenError::Tokenizer(format!("{}: {e}", path.display())))
}

/// The workload of a single-tenant run, or what each tenant sends in a multi-tenant one.
fn base_workload(args: &RunArgs) -> Workload {
    let kind = match args.dataset {
        DatasetKind::Random => TenantDataset::Random,
        DatasetKind::GeneratedSharedPrefix => TenantDataset::GeneratedSharedPrefix,
        DatasetKind::MultiTurn => TenantDataset::MultiTurn,
        DatasetKind::MultiTenant => args.tenant_dataset,
    };
    match kind {
        TenantDataset::Random => Workload::Random(RandomParams {
            num_prompts: args.num_prompts,
            input_len: args.random_input_len,
            output_len: args.random_output_len,
            range_ratio: args.random_range_ratio,
        }),
        TenantDataset::GeneratedSharedPrefix => Workload::SharedPrefix(SharedPrefixParams {
            num_groups: args.gsp_num_groups,
            prompts_per_group: args.gsp_prompts_per_group,
            system_prompt_len: args.gsp_system_prompt_len,
            question_len: args.gsp_question_len,
            output_len: args.gsp_output_len,
        }),
        TenantDataset::MultiTurn => Workload::MultiTurn(MultiTurnParams {
            num_conversations: args.mt_num_conversations,
            turns: args.mt_turns,
            turn_len: args.mt_turn_len,
            output_len: args.mt_output_len,
            system_prompt_len: args.mt_system_prompt_len,
        }),
    }
}

fn tenants(args: &RunArgs) -> Result<Vec<TenantSpec>, LoadgenError> {
    let given = !args.tenants.is_empty() || args.tenants_file.is_some();
    if args.dataset != DatasetKind::MultiTenant {
        if given {
            return Err(LoadgenError::InvalidArgs(
                "--tenant and --tenants-file need --dataset multi-tenant".into(),
            ));
        }
        return Ok(vec![TenantSpec::single(None)]);
    }
    let mut tenants = match &args.tenants_file {
        Some(path) => read_tenants_file(path)?,
        None => Vec::new(),
    };
    for flag in &args.tenants {
        tenants.push(TenantSpec::parse_flag(flag)?);
    }
    validate_tenants(&tenants)?;
    Ok(tenants)
}

fn check_load(args: &RunArgs) -> Result<(), LoadgenError> {
    if args.flush_cache && args.backend == BackendKind::Openai {
        return Err(LoadgenError::InvalidArgs(
            "--flush-cache needs --backend grpc or sglang-grpc (OpenAI servers have no flush call)"
                .into(),
        ));
    }
    if args.max_concurrency == Some(0) {
        return Err(LoadgenError::InvalidArgs(
            "--max-concurrency must be at least 1".into(),
        ));
    }
    if args.request_rate.is_some_and(|r| r.is_nan() || r <= 0.0) {
        return Err(LoadgenError::InvalidArgs(
            "--request-rate must be positive (or inf)".into(),
        ));
    }
    if !(args.request_timeout > 0.0 && args.request_timeout.is_finite()) {
        return Err(LoadgenError::InvalidArgs(
            "--request-timeout must be a positive number of seconds".into(),
        ));
    }
    if !(args.temperature >= 0.0 && args.temperature.is_finite()) {
        return Err(LoadgenError::InvalidArgs(
            "--temperature must be 0 or more".into(),
        ));
    }
    Ok(())
}

/// The workload's sizes in a few words, for tables.
fn describe(args: &RunArgs, workload: &Workload, tenants: &[TenantSpec]) -> String {
    let base = match workload {
        Workload::Random(p) => {
            let range = if p.range_ratio < 1.0 {
                format!(", lengths x[{}, 1]", p.range_ratio)
            } else {
                String::new()
            };
            format!(
                "{} x {} in / {} out{range}",
                p.num_prompts, p.input_len, p.output_len
            )
        }
        Workload::SharedPrefix(p) => format!(
            "{} groups x {}, {} prefix + {} question / {} out",
            p.num_groups, p.prompts_per_group, p.system_prompt_len, p.question_len, p.output_len
        ),
        Workload::MultiTurn(p) => format!(
            "{} conversations x {} turns of {} / {} out, system {}",
            p.num_conversations, p.turns, p.turn_len, p.output_len, p.system_prompt_len
        ),
    };
    if args.dataset == DatasetKind::MultiTenant {
        let names: Vec<&str> = tenants.iter().map(|t| t.name.as_str()).collect();
        format!("tenants {} over {base}", names.join(", "))
    } else {
        base
    }
}
