//! loadgen's command line. Every flag is documented in docs/loadgen.md.

use super::backend::BackendKind;
use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Load generator for radixserve (gRPC) and OpenAI-compatible servers: sends a synthetic
/// workload and reports throughput, TTFT, inter-token latency and prefix-cache hits.
#[derive(Parser, Debug)]
#[command(name = "loadgen", args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print a markdown table comparing result files written by --output
    Summarize {
        /// Result files (runs or sweeps)
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DatasetKind {
    /// Unrelated prompts of random tokens
    Random,
    /// SGLang's groups of prompts sharing a system prompt
    GeneratedSharedPrefix,
    /// Conversations re-sending their whole history each turn
    MultiTurn,
    /// Several tenants (API keys, shares, rates), each with its own --tenant-dataset
    MultiTenant,
}

impl DatasetKind {
    pub fn name(self) -> &'static str {
        match self {
            DatasetKind::Random => "random",
            DatasetKind::GeneratedSharedPrefix => "generated-shared-prefix",
            DatasetKind::MultiTurn => "multi-turn",
            DatasetKind::MultiTenant => "multi-tenant",
        }
    }
}

/// The workload each tenant of a multi-tenant run sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TenantDataset {
    Random,
    GeneratedSharedPrefix,
    MultiTurn,
}

/// Flags of a run (or of a sweep of runs).
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    // --- target ---
    /// Which API to drive
    #[arg(long, value_enum, default_value_t = BackendKind::Grpc, help_heading = "Target")]
    pub backend: BackendKind,
    /// Server address [default: http://127.0.0.1:50051 for grpc, http://127.0.0.1:8000 for openai]
    #[arg(long, help_heading = "Target")]
    pub url: Option<String>,
    /// API key sent as `authorization: Bearer <key>` (tenants may have their own)
    #[arg(long, help_heading = "Target")]
    pub api_key: Option<String>,
    /// `model` field of OpenAI requests [default: the first model of GET /v1/models]
    #[arg(long, help_heading = "Target")]
    pub model_name: Option<String>,
    /// GGUF file whose tokenizer builds the prompts (the served model's)
    #[arg(
        long,
        default_value = "models/SmolLM2-135M-Instruct.Q4_1.gguf",
        help_heading = "Target"
    )]
    pub tokenizer: PathBuf,
    /// Send OpenAI prompts as text decoded locally instead of token ids (lengths then drift)
    #[arg(long, help_heading = "Target")]
    pub send_text: bool,
    /// Seconds a request may take before it counts as an error
    #[arg(long, default_value_t = 600.0, help_heading = "Target")]
    pub request_timeout: f64,

    // --- dataset ---
    /// Workload to send
    #[arg(long, value_enum, default_value_t = DatasetKind::Random, help_heading = "Dataset")]
    pub dataset: DatasetKind,
    /// random: number of prompts
    #[arg(long, default_value_t = 64, help_heading = "Dataset")]
    pub num_prompts: usize,
    /// random: prompt length in tokens (the upper end of the range)
    #[arg(long, default_value_t = 512, help_heading = "Dataset")]
    pub random_input_len: usize,
    /// random: output length in tokens (the upper end of the range)
    #[arg(long, default_value_t = 64, help_heading = "Dataset")]
    pub random_output_len: usize,
    /// random: lengths are drawn from [len * ratio, len]; 1 keeps them fixed
    #[arg(long, default_value_t = 1.0, help_heading = "Dataset")]
    pub random_range_ratio: f64,
    /// generated-shared-prefix: number of groups (distinct system prompts)
    #[arg(long, default_value_t = 4, help_heading = "Dataset")]
    pub gsp_num_groups: usize,
    /// generated-shared-prefix: prompts per group
    #[arg(long, default_value_t = 16, help_heading = "Dataset")]
    pub gsp_prompts_per_group: usize,
    /// generated-shared-prefix: tokens of each group's shared system prompt
    #[arg(long, default_value_t = 1024, help_heading = "Dataset")]
    pub gsp_system_prompt_len: usize,
    /// generated-shared-prefix: tokens of each prompt's own question
    #[arg(long, default_value_t = 64, help_heading = "Dataset")]
    pub gsp_question_len: usize,
    /// generated-shared-prefix: output tokens per request
    #[arg(long, default_value_t = 64, help_heading = "Dataset")]
    pub gsp_output_len: usize,
    /// multi-turn: number of conversations
    #[arg(long, default_value_t = 8, help_heading = "Dataset")]
    pub mt_num_conversations: usize,
    /// multi-turn: turns per conversation
    #[arg(long, default_value_t = 4, help_heading = "Dataset")]
    pub mt_turns: usize,
    /// multi-turn: tokens of each new user message
    #[arg(long, default_value_t = 128, help_heading = "Dataset")]
    pub mt_turn_len: usize,
    /// multi-turn: output tokens per turn
    #[arg(long, default_value_t = 64, help_heading = "Dataset")]
    pub mt_output_len: usize,
    /// multi-turn: tokens of a system prompt shared by every conversation
    #[arg(long, default_value_t = 0, help_heading = "Dataset")]
    pub mt_system_prompt_len: usize,
    /// multi-tenant: a tenant as name[:api-key[:rate[:share]]] (repeatable)
    #[arg(long = "tenant", value_name = "SPEC", help_heading = "Dataset")]
    pub tenants: Vec<String>,
    /// multi-tenant: TOML file of [[tenant]] tables (name, api_key, request_rate, share)
    #[arg(long, help_heading = "Dataset")]
    pub tenants_file: Option<PathBuf>,
    /// multi-tenant: the workload each tenant sends (its part of it, by share)
    #[arg(
        long,
        value_enum,
        default_value_t = TenantDataset::GeneratedSharedPrefix,
        help_heading = "Dataset"
    )]
    pub tenant_dataset: TenantDataset,
    /// multi-tenant: every tenant sends the same prompts (tests cache isolation)
    #[arg(long, help_heading = "Dataset")]
    pub tenant_same_prompts: bool,

    // --- load ---
    /// Requests in flight at most [default: no limit]
    #[arg(long, help_heading = "Load")]
    pub max_concurrency: Option<usize>,
    /// Poisson arrivals per second (sessions, for multi-turn) [default: inf, all at once]
    #[arg(long, help_heading = "Load")]
    pub request_rate: Option<f64>,
    /// Requests sent first and left out of the results (random prompts of the workload's size)
    #[arg(long, default_value_t = 1, help_heading = "Load")]
    pub warmup: usize,
    /// Seed of prompts and arrivals
    #[arg(long, default_value_t = 1, help_heading = "Load")]
    pub seed: u64,
    /// Sampling temperature (0: greedy)
    #[arg(long, default_value_t = 0.0, help_heading = "Load")]
    pub temperature: f32,
    /// Ignore end-of-sequence tokens so every reply has its full length
    #[arg(long, default_value_t = true, action = ArgAction::Set, help_heading = "Load")]
    pub ignore_eos: bool,
    /// Empty the server's prefix cache before measuring (grpc only)
    #[arg(long, help_heading = "Load")]
    pub flush_cache: bool,
    /// Run once per load level, e.g. concurrency=1,4,16,64 or request-rate=1,2,4
    #[arg(long, help_heading = "Load")]
    pub sweep: Option<String>,

    // --- output ---
    /// Write the results as JSON
    #[arg(long, help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// Write SVG plots into this directory
    #[arg(long, help_heading = "Output")]
    pub plots: Option<PathBuf>,
    /// A result file of another run (or sweep) to overlay in plots and tables
    #[arg(long, help_heading = "Output")]
    pub compare: Option<PathBuf>,
    /// Name of this run in tables and plots [default: backend and URL]
    #[arg(long, help_heading = "Output")]
    pub label: Option<String>,
    /// No progress bar
    #[arg(long, help_heading = "Output")]
    pub no_progress: bool,
}
