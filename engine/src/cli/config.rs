//! `serve`'s settings: command-line flags over an optional TOML file (`--config`) over the
//! defaults. The file takes the flags' names as keys (`http-port = 8000`; `http_port` works
//! too).

use super::DEFAULT_MODEL;
use anyhow::Context;
use clap::{Args, ValueEnum};
use engine::grammar::{GrammarLimits, ToolFormat};
use engine::handle::{EngineConfig, KvDiskConfig, LoraSpec, ReasoningParser, SaltLimits};
use engine::scheduler::{Policy, SchedulerConfig};
use engine::server::connections::ConnectionLimits;
use pools::KvDtype;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Flags of `radixserve serve`; every one may also be set in the `--config` file.
#[derive(Args, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ServeArgs {
    /// GGUF model file [default: models/SmolLM2-135M-Instruct.Q4_1.gguf]
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1]
    #[arg(long)]
    pub host: Option<String>,
    /// Port of the OpenAI-compatible HTTP API and /metrics (0: any free port) [default: 8000]
    #[arg(long)]
    pub http_port: Option<u16>,
    /// Port of the gRPC API (0: any free port) [default: 50051]
    #[arg(long)]
    pub grpc_port: Option<u16>,
    /// Where the model runs: cpu, or cuda:N (a build with `--features cuda`) [default: cpu]
    #[arg(long)]
    pub device: Option<String>,
    /// Tokens per KV page; the prefix cache matches whole pages [default: 1]
    #[arg(long)]
    pub page_size: Option<usize>,
    /// KV cache memory, all layers, K and V, in MiB [default: 1024]
    #[arg(long)]
    pub kv_budget_mb: Option<usize>,
    /// Directory of the disk tier below the KV pool: pages evicted from the pool are written
    /// there and loaded back when a prompt needs them again, across restarts too [default:
    /// none, evicted K/V is dropped]
    #[arg(long)]
    pub kv_disk_dir: Option<PathBuf>,
    /// Disk tier size in GiB (least recently used pages go first) [default: 8]
    #[arg(long)]
    pub kv_disk_budget_gb: Option<f64>,
    /// KV cache element type [default: f32]
    #[arg(long)]
    pub kv_dtype: Option<KvDtypeArg>,
    /// Requests decoding at once [default: 64]
    #[arg(long)]
    pub max_running_requests: Option<usize>,
    /// Requests allowed to wait; more get 429 [default: 4096]
    #[arg(long)]
    pub max_queued_requests: Option<usize>,
    /// Prefill tokens per scheduler step, over all requests [default: 256]
    #[arg(long)]
    pub max_prefill_tokens: Option<usize>,
    /// Longest piece of one prompt computed in a step [default: 256]
    #[arg(long)]
    pub chunked_prefill_size: Option<usize>,
    /// Most n-gram draft tokens verified per decode step (exact speculative decoding for
    /// small batches; CPU only); 0 turns it off [default: 4]
    #[arg(long)]
    pub speculative_draft_tokens: Option<usize>,
    /// Order of admission from the waiting queue [default: lpm]
    #[arg(long)]
    pub policy: Option<PolicyArg>,
    /// Where tokens are sampled: `device` samples where the logits are when the model runs
    /// on a GPU (only tokens cross to the host), `host` copies every row back [default:
    /// device]
    #[arg(long)]
    pub sampling: Option<SamplingArg>,
    /// Build and launch each step's batch before processing the previous step's results
    /// (decodes take the token still being sampled); samples through the sampling kernel
    /// (its CPU twin on the CPU) and turns speculative decoding off [default: false]
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub overlap_schedule: Option<bool>,
    /// On a GPU, the largest decode batch run from a CUDA graph (graphs are recorded per
    /// batch size bucket: 1, 2, 4, 8, then steps of 8) [default: max running requests]
    #[arg(long)]
    pub cuda_graph_max_bs: Option<usize>,
    /// Run every GPU step launch by launch, without CUDA graphs [default: false]
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub disable_cuda_graph: Option<bool>,
    /// Longest prompt + output per request, in tokens [default: the model's context]
    #[arg(long)]
    pub max_context_len: Option<usize>,
    /// Tenants file (TOML): API keys, cache scopes, weights and quotas; reloaded on SIGHUP.
    /// Without it the server is open to everyone as one tenant
    #[arg(long)]
    pub tenants_config: Option<PathBuf>,
    /// With a tenants file: the tenant that keyless calls of the SGLang worker protocol act
    /// as (a gateway such as smg sends no key to its gRPC workers). Without it they need a
    /// key like every other call
    #[arg(long)]
    pub sglang_tenant: Option<String>,
    /// TOML file with any of these settings; flags given on the command line win
    #[arg(long)]
    #[serde(skip)]
    pub config: Option<PathBuf>,
    /// Seconds in-flight requests may take to finish after SIGINT/SIGTERM [default: 30]
    #[arg(long)]
    pub shutdown_grace_secs: Option<f64>,
    /// Live salted cache namespaces (`cache_salt`) per tenant; more get 429 [default: 1024]
    #[arg(long)]
    pub max_cache_salts_per_tenant: Option<usize>,
    /// Live salted cache namespaces over all tenants [default: 16384]
    #[arg(long)]
    pub max_cache_salts: Option<usize>,
    /// Open connections per server (HTTP and gRPC each); more are closed [default: 4096]
    #[arg(long)]
    pub max_connections: Option<usize>,
    /// Seconds a connection may take to send its first byte, and HTTP/1 request headers
    /// [default: 10]
    #[arg(long)]
    pub header_read_timeout_secs: Option<f64>,
    /// Concurrent HTTP/2 streams per connection (gRPC and HTTP/2) [default: 128]
    #[arg(long)]
    pub max_streams_per_connection: Option<u32>,
    /// Seconds an HTTP connection may stay open with no request in flight [default: 60]
    #[arg(long)]
    pub idle_timeout_secs: Option<f64>,
    /// Seconds a request body may take to arrive, plus one per 16 KiB received [default: 30]
    #[arg(long)]
    pub body_read_timeout_secs: Option<f64>,
    /// Longest structured-output grammar or JSON schema, in KiB [default: 256]
    #[arg(long)]
    pub max_grammar_kb: Option<usize>,
    /// Compiled grammars kept for reuse [default: 256]
    #[arg(long)]
    pub grammar_cache_size: Option<usize>,
    /// Lexer work allowed to compile one grammar (~50,000 per millisecond) [default: 1000000]
    #[arg(long)]
    pub grammar_compile_fuel: Option<u64>,
    /// Milliseconds of grammar masks one tenant's constrained requests may add to a step on
    /// average (or their share of the forward pass, when more); a tenant whose masks cost
    /// more waits out what it overspent; 0 turns the limit off [default: 5]
    #[arg(long)]
    pub grammar_mask_budget_ms: Option<f64>,
    /// A Jinja chat template to use instead of the model file's (for a file without one, or
    /// one that cannot render tools: a Qwen 2.5-style template gives tool calls the model's
    /// own format) [default: the file's, or ChatML]
    #[arg(long)]
    pub chat_template_file: Option<PathBuf>,
    /// Split a reasoning model's `<think>` (or Magistral's `[THINK]`) block out of chat
    /// answers as `reasoning_content`: `auto` when the chat template writes such blocks
    /// (Qwen 3, SmolLM3, QwQ, Magistral), `think`
    /// always, `none` never [default: auto]
    #[arg(long)]
    pub reasoning_parser: Option<ReasoningParserArg>,
    /// The syntax of tool calls on the chat API: `auto` the one the chat template renders
    /// (Hermes `<tool_call>` blocks for Qwen 2.5 and 3, JSON for Llama 3.x, `[TOOL_CALLS]`
    /// arrays for Mistral, XML-like parameters for Qwen3-Coder, `<|tool_call|>` arrays for
    /// Granite, `[TOOL_CALLS]name[ARGS]{…}` for later Mistral models; `functools[…]` when it
    /// takes the tools in the system turn, as Phi-4-mini's does), else Hermes, which the
    /// server then announces itself; `hermes`, `llama3`, `mistral`, `qwen3_coder`,
    /// `granite`, `mistral_v11` or `phi4_mini` to choose [default: auto]
    #[arg(long)]
    pub tool_call_parser: Option<ToolCallParserArg>,
    /// LoRA adapters (PEFT directories or llama.cpp GGUF adapter files) served beside the
    /// base model, as `NAME=PATH` (or a bare path, named by its file stem); a request runs
    /// one by giving its name as `model` or `lora_path` (CPU runner)
    #[arg(long, num_args = 1.., value_name = "NAME=PATH")]
    pub lora_paths: Option<Vec<String>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolCallParserArg {
    Auto,
    #[value(alias = "qwen25")]
    #[serde(alias = "qwen25")]
    Hermes,
    #[value(alias = "llama3_json")]
    #[serde(alias = "llama3_json")]
    Llama3,
    Mistral,
    #[value(name = "qwen3_coder", alias = "qwen3-coder")]
    #[serde(rename = "qwen3_coder", alias = "qwen3-coder")]
    Qwen3Coder,
    Granite,
    /// Mistral's later format, `[TOOL_CALLS]name[ARGS]{…}` per call.
    #[value(name = "mistral_v11", alias = "mistral-v11")]
    #[serde(rename = "mistral_v11", alias = "mistral-v11")]
    MistralV11,
    /// Phi-4-mini's `functools[…]`.
    #[value(name = "phi4_mini", aliases = ["phi4_mini_json", "phi4-mini"])]
    #[serde(rename = "phi4_mini", alias = "phi4_mini_json", alias = "phi4-mini")]
    Phi4Mini,
    /// Harmony messages (gpt-oss), vLLM's `openai`.
    #[value(alias = "openai", alias = "gpt-oss")]
    #[serde(alias = "openai", alias = "gpt-oss")]
    Harmony,
    /// DeepSeek V3 and R1's fenced calls in `<｜tool▁calls▁begin｜>`.
    #[value(name = "deepseekv3", aliases = ["deepseek_v3", "deepseek-v3", "deepseek_r1"])]
    #[serde(
        rename = "deepseekv3",
        alias = "deepseek_v3",
        alias = "deepseek-v3",
        alias = "deepseek_r1"
    )]
    DeepseekV3,
    /// DeepSeek V3.1's calls in `<｜tool▁calls▁begin｜>`.
    #[value(name = "deepseekv31", aliases = ["deepseek_v31", "deepseek-v31"])]
    #[serde(rename = "deepseekv31", alias = "deepseek_v31", alias = "deepseek-v31")]
    DeepseekV31,
    /// GLM-4.5's `<tool_call>NAME<arg_key>…</arg_key><arg_value>…</arg_value></tool_call>`.
    #[value(name = "glm45", aliases = ["glm", "glm4_moe", "glm47"])]
    #[serde(rename = "glm45", alias = "glm", alias = "glm4_moe", alias = "glm47")]
    Glm45,
    /// Kimi K2's `<|tool_calls_section_begin|>`.
    #[value(name = "kimi_k2", alias = "kimi-k2")]
    #[serde(rename = "kimi_k2", alias = "kimi-k2")]
    KimiK2,
    /// MiniMax-M2's `<minimax:tool_call>` block of `<invoke>` calls.
    #[value(name = "minimax_m2", aliases = ["minimax-m2", "minimax"])]
    #[serde(rename = "minimax_m2", alias = "minimax-m2", alias = "minimax")]
    MinimaxM2,
    /// Gemma 4's `<|tool_call>call:NAME{…}<tool_call|>` per call.
    #[value(name = "gemma4", alias = "gemma-4")]
    #[serde(rename = "gemma4", alias = "gemma-4")]
    Gemma4,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReasoningParserArg {
    Auto,
    #[value(name = "none")]
    #[serde(rename = "none")]
    Off,
    Think,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KvDtypeArg {
    F32,
    F16,
    Bf16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyArg {
    Fcfs,
    Lpm,
    DfsWeight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SamplingArg {
    Device,
    Host,
}

/// `serve`'s settings with every default applied.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub engine: EngineConfig,
    pub host: String,
    pub http_port: u16,
    pub grpc_port: u16,
    pub tenants_config: Option<PathBuf>,
    pub sglang_tenant: Option<String>,
    pub shutdown_grace: Duration,
    pub connections: ConnectionLimits,
}

impl ServeArgs {
    /// Reads the `--config` file if given and applies flags over it, then the defaults.
    pub fn resolve(self) -> anyhow::Result<ServeConfig> {
        let file = match &self.config {
            Some(path) => read_config_file(path)?,
            None => ServeArgs::default(),
        };
        self.over(file).with_defaults()
    }

    /// `self`'s values where set, else `file`'s.
    fn over(self, file: ServeArgs) -> ServeArgs {
        ServeArgs {
            model: self.model.or(file.model),
            host: self.host.or(file.host),
            http_port: self.http_port.or(file.http_port),
            grpc_port: self.grpc_port.or(file.grpc_port),
            device: self.device.or(file.device),
            page_size: self.page_size.or(file.page_size),
            kv_budget_mb: self.kv_budget_mb.or(file.kv_budget_mb),
            kv_dtype: self.kv_dtype.or(file.kv_dtype),
            kv_disk_dir: self.kv_disk_dir.or(file.kv_disk_dir),
            kv_disk_budget_gb: self.kv_disk_budget_gb.or(file.kv_disk_budget_gb),
            max_running_requests: self.max_running_requests.or(file.max_running_requests),
            max_queued_requests: self.max_queued_requests.or(file.max_queued_requests),
            max_prefill_tokens: self.max_prefill_tokens.or(file.max_prefill_tokens),
            chunked_prefill_size: self.chunked_prefill_size.or(file.chunked_prefill_size),
            speculative_draft_tokens: self
                .speculative_draft_tokens
                .or(file.speculative_draft_tokens),
            policy: self.policy.or(file.policy),
            sampling: self.sampling.or(file.sampling),
            overlap_schedule: self.overlap_schedule.or(file.overlap_schedule),
            cuda_graph_max_bs: self.cuda_graph_max_bs.or(file.cuda_graph_max_bs),
            disable_cuda_graph: self.disable_cuda_graph.or(file.disable_cuda_graph),
            max_context_len: self.max_context_len.or(file.max_context_len),
            tenants_config: self.tenants_config.or(file.tenants_config),
            sglang_tenant: self.sglang_tenant.or(file.sglang_tenant),
            config: self.config,
            shutdown_grace_secs: self.shutdown_grace_secs.or(file.shutdown_grace_secs),
            max_cache_salts_per_tenant: self
                .max_cache_salts_per_tenant
                .or(file.max_cache_salts_per_tenant),
            max_cache_salts: self.max_cache_salts.or(file.max_cache_salts),
            max_connections: self.max_connections.or(file.max_connections),
            header_read_timeout_secs: self
                .header_read_timeout_secs
                .or(file.header_read_timeout_secs),
            max_streams_per_connection: self
                .max_streams_per_connection
                .or(file.max_streams_per_connection),
            idle_timeout_secs: self.idle_timeout_secs.or(file.idle_timeout_secs),
            body_read_timeout_secs: self.body_read_timeout_secs.or(file.body_read_timeout_secs),
            max_grammar_kb: self.max_grammar_kb.or(file.max_grammar_kb),
            grammar_cache_size: self.grammar_cache_size.or(file.grammar_cache_size),
            grammar_compile_fuel: self.grammar_compile_fuel.or(file.grammar_compile_fuel),
            grammar_mask_budget_ms: self.grammar_mask_budget_ms.or(file.grammar_mask_budget_ms),
            chat_template_file: self.chat_template_file.or(file.chat_template_file),
            reasoning_parser: self.reasoning_parser.or(file.reasoning_parser),
            tool_call_parser: self.tool_call_parser.or(file.tool_call_parser),
            lora_paths: self.lora_paths.or(file.lora_paths),
        }
    }

    fn with_defaults(self) -> anyhow::Result<ServeConfig> {
        let mut engine = EngineConfig::new(self.model.unwrap_or_else(|| DEFAULT_MODEL.into()));
        if let Some(mb) = self.kv_budget_mb {
            engine.kv_budget_bytes = mb
                .checked_mul(1 << 20)
                .context("--kv-budget-mb is too large")?;
        }
        engine.kv_dtype = match self.kv_dtype.unwrap_or(KvDtypeArg::F32) {
            KvDtypeArg::F32 => KvDtype::F32,
            KvDtypeArg::F16 => KvDtype::F16,
            KvDtypeArg::Bf16 => KvDtype::Bf16,
        };
        if let Some(dir) = self.kv_disk_dir {
            let gb = self.kv_disk_budget_gb.unwrap_or(8.0);
            anyhow::ensure!(
                gb.is_finite() && gb > 0.0 && gb < 1e6,
                "--kv-disk-budget-gb must be a positive number of GiB"
            );
            engine.kv_disk = Some(KvDiskConfig {
                dir,
                budget_bytes: (gb * (1u64 << 30) as f64) as u64,
            });
        } else {
            anyhow::ensure!(
                self.kv_disk_budget_gb.is_none(),
                "--kv-disk-budget-gb needs --kv-disk-dir"
            );
        }
        if let Some(page) = self.page_size {
            anyhow::ensure!(page > 0, "--page-size must be at least 1");
            engine.page_size = page;
        }
        engine.max_context_len = self.max_context_len.unwrap_or(0);
        if let Some(path) = &self.chat_template_file {
            let source = std::fs::read_to_string(path)
                .with_context(|| format!("--chat-template-file: cannot read {}", path.display()))?;
            engine.chat_template = Some(source);
        }
        engine.reasoning_parser = match self.reasoning_parser {
            None | Some(ReasoningParserArg::Auto) => ReasoningParser::Auto,
            Some(ReasoningParserArg::Off) => ReasoningParser::None,
            Some(ReasoningParserArg::Think) => ReasoningParser::Think,
        };
        engine.tool_format = match self.tool_call_parser {
            None | Some(ToolCallParserArg::Auto) => None,
            Some(ToolCallParserArg::Hermes) => Some(ToolFormat::Hermes),
            Some(ToolCallParserArg::Llama3) => Some(ToolFormat::Llama3Json),
            Some(ToolCallParserArg::Mistral) => Some(ToolFormat::Mistral),
            Some(ToolCallParserArg::Qwen3Coder) => Some(ToolFormat::QwenXml),
            Some(ToolCallParserArg::Granite) => Some(ToolFormat::Granite),
            Some(ToolCallParserArg::MistralV11) => Some(ToolFormat::MistralArgs),
            Some(ToolCallParserArg::Phi4Mini) => Some(ToolFormat::Phi4Mini),
            Some(ToolCallParserArg::Harmony) => Some(ToolFormat::Harmony),
            Some(ToolCallParserArg::DeepseekV3) => Some(ToolFormat::DeepSeekV3),
            Some(ToolCallParserArg::DeepseekV31) => Some(ToolFormat::DeepSeekV31),
            Some(ToolCallParserArg::KimiK2) => Some(ToolFormat::KimiK2),
            Some(ToolCallParserArg::Glm45) => Some(ToolFormat::GlmXml),
            Some(ToolCallParserArg::MinimaxM2) => Some(ToolFormat::MiniMaxXml),
            Some(ToolCallParserArg::Gemma4) => Some(ToolFormat::Gemma4),
        };
        for arg in self.lora_paths.iter().flatten() {
            let spec = LoraSpec::parse(arg).map_err(|e| anyhow::anyhow!("--lora-paths: {e}"))?;
            engine.lora_paths.push(spec);
        }
        if let Some(device) = &self.device {
            engine.device = device.parse().map_err(anyhow::Error::msg)?;
            anyhow::ensure!(
                engine.device.supported(),
                "--device {}: this build has no CUDA support (build with --features cuda)",
                engine.device
            );
        }
        let defaults = SchedulerConfig::default();
        engine.scheduler = SchedulerConfig {
            max_running_requests: self
                .max_running_requests
                .unwrap_or(defaults.max_running_requests),
            max_queued_requests: self
                .max_queued_requests
                .unwrap_or(defaults.max_queued_requests),
            max_prefill_tokens: self
                .max_prefill_tokens
                .unwrap_or(defaults.max_prefill_tokens),
            chunked_prefill_size: self
                .chunked_prefill_size
                .unwrap_or(defaults.chunked_prefill_size),
            speculative_draft_tokens: self
                .speculative_draft_tokens
                .unwrap_or(defaults.speculative_draft_tokens),
            policy: match self.policy {
                None => defaults.policy,
                Some(PolicyArg::Fcfs) => Policy::Fcfs,
                Some(PolicyArg::Lpm) => Policy::Lpm,
                Some(PolicyArg::DfsWeight) => Policy::DfsWeight,
            },
            sample_on_device: self.sampling != Some(SamplingArg::Host),
            overlap_schedule: self.overlap_schedule.unwrap_or(defaults.overlap_schedule),
            grammar_mask_budget: match self.grammar_mask_budget_ms {
                None => defaults.grammar_mask_budget,
                Some(0.0) => None,
                Some(ms) => Some(
                    Duration::try_from_secs_f64(ms / 1000.0)
                        .ok()
                        .filter(|d| *d <= Duration::from_secs(60))
                        .with_context(|| {
                            format!("--grammar-mask-budget-ms must be 0 (off) or a positive number of milliseconds up to 60000, got {ms}")
                        })?,
                ),
            },
            ..defaults
        };
        engine.cuda_graph_max_batch = match self.disable_cuda_graph {
            Some(true) => 0,
            _ => self.cuda_graph_max_bs.unwrap_or(usize::MAX),
        };
        let salts = SaltLimits::default();
        engine.salt_limits = SaltLimits {
            per_tenant: self.max_cache_salts_per_tenant.unwrap_or(salts.per_tenant),
            total: self.max_cache_salts.unwrap_or(salts.total),
        };
        let grammar = GrammarLimits::default();
        engine.grammar_limits = GrammarLimits {
            max_grammar_bytes: match self.max_grammar_kb {
                Some(kb) => kb
                    .checked_mul(1024)
                    .context("--max-grammar-kb is too large")?,
                None => grammar.max_grammar_bytes,
            },
            max_cached: self.grammar_cache_size.unwrap_or(grammar.max_cached),
            compile_fuel: self.grammar_compile_fuel.unwrap_or(grammar.compile_fuel),
            ..grammar
        };
        let conn = ConnectionLimits::default();
        let connections = ConnectionLimits {
            max_connections: self.max_connections.unwrap_or(conn.max_connections),
            header_read_timeout: positive_secs(
                self.header_read_timeout_secs,
                conn.header_read_timeout,
                "--header-read-timeout-secs",
            )?,
            max_streams_per_connection: self
                .max_streams_per_connection
                .unwrap_or(conn.max_streams_per_connection),
            idle_timeout: positive_secs(
                self.idle_timeout_secs,
                conn.idle_timeout,
                "--idle-timeout-secs",
            )?,
            body_read_timeout: positive_secs(
                self.body_read_timeout_secs,
                conn.body_read_timeout,
                "--body-read-timeout-secs",
            )?,
            ..conn
        };
        anyhow::ensure!(
            connections.max_connections > 0 && connections.max_streams_per_connection > 0,
            "--max-connections and --max-streams-per-connection must be at least 1"
        );
        let grace = self.shutdown_grace_secs.unwrap_or(30.0);
        let shutdown_grace = Duration::try_from_secs_f64(grace)
            .map_err(|_| anyhow::anyhow!("--shutdown-grace-secs must be >= 0, got {grace}"))?;
        Ok(ServeConfig {
            engine,
            host: self.host.unwrap_or_else(|| "127.0.0.1".into()),
            http_port: self.http_port.unwrap_or(8000),
            grpc_port: self.grpc_port.unwrap_or(50051),
            tenants_config: self.tenants_config,
            sglang_tenant: self.sglang_tenant,
            shutdown_grace,
            connections,
        })
    }
}

/// Parses a TOML settings file; keys may use `-` or `_`, unknown keys are errors.
fn read_config_file(path: &Path) -> anyhow::Result<ServeArgs> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the config file {}", path.display()))?;
    let table: toml::Table =
        toml::from_str(&text).with_context(|| format!("{} is not valid TOML", path.display()))?;
    let normalized: toml::Table = table
        .into_iter()
        .map(|(key, value)| (key.replace('_', "-"), value))
        .collect();
    toml::Value::Table(normalized)
        .try_into()
        .with_context(|| format!("invalid settings in {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: ServeArgs,
    }

    fn parse(flags: &[&str]) -> ServeArgs {
        let argv = std::iter::once("serve").chain(flags.iter().copied());
        match Wrapper::try_parse_from(argv) {
            Ok(w) => w.args,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn flags_override_the_file_and_defaults_fill_the_rest() -> anyhow::Result<()> {
        let dir = std::env::temp_dir().join(format!("radixserve-cfg-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let file = dir.join("serve.toml");
        std::fs::write(
            &file,
            "http-port = 9000\nkv_budget_mb = 64\npolicy = \"dfs-weight\"\nkv-dtype = \"bf16\"\n\
             sampling = \"host\"\n",
        )?;
        let config_flag = file.display().to_string();
        let config = parse(&[
            "--config",
            &config_flag,
            "--http-port",
            "9100",
            "--overlap-schedule",
        ])
        .resolve()?;
        assert!(config.engine.scheduler.overlap_schedule);
        assert_eq!(config.http_port, 9100);
        assert_eq!(config.engine.kv_budget_bytes, 64 << 20);
        assert_eq!(config.engine.scheduler.policy, Policy::DfsWeight);
        assert!(!config.engine.scheduler.sample_on_device);
        assert_eq!(config.engine.kv_dtype, KvDtype::Bf16);
        assert_eq!(config.grpc_port, 50051);
        assert_eq!(config.host, "127.0.0.1");
        assert_eq!(config.shutdown_grace, Duration::from_secs(30));
        assert_eq!(config.engine.model_path, PathBuf::from(DEFAULT_MODEL));
        std::fs::write(&file, "no-such-key = 1\n")?;
        assert!(parse(&["--config", &config_flag]).resolve().is_err());
        std::fs::remove_dir_all(&dir)?;
        Ok(())
    }

    /// Timeouts are added to the present instant by the servers' timers: zero, negative and
    /// overflowing values are refused at start, not found by a panic on the first request.
    #[test]
    fn timeout_flags_are_positive_and_at_most_a_week() -> anyhow::Result<()> {
        let connections = parse(&["--body-read-timeout-secs", "2.5"])
            .resolve()?
            .connections;
        assert_eq!(connections.body_read_timeout, Duration::from_millis(2500));
        for flag in [
            "--body-read-timeout-secs",
            "--idle-timeout-secs",
            "--header-read-timeout-secs",
        ] {
            for bad in ["0", "1e19", "700000"] {
                let err = parse(&[flag, bad]).resolve().err().map(|e| e.to_string());
                assert!(
                    err.as_deref().is_some_and(|e| e.starts_with(flag)),
                    "{flag} {bad}: {err:?}"
                );
            }
        }
        Ok(())
    }

    #[test]
    fn grammar_mask_budget_is_milliseconds_and_zero_turns_it_off() -> anyhow::Result<()> {
        let budget = |flags: &[&str]| {
            parse(flags)
                .resolve()
                .map(|c| c.engine.scheduler.grammar_mask_budget)
        };
        assert_eq!(budget(&[])?, Some(Duration::from_millis(5)));
        assert_eq!(
            budget(&["--grammar-mask-budget-ms", "2.5"])?,
            Some(Duration::from_micros(2500))
        );
        assert_eq!(budget(&["--grammar-mask-budget-ms", "0"])?, None);
        for bad in ["-1", "NaN", "inf", "60001"] {
            let flag = format!("--grammar-mask-budget-ms={bad}");
            let err = budget(&[&flag]).err();
            let err = err.map(|e| e.to_string()).unwrap_or_default();
            assert!(err.starts_with("--grammar-mask-budget-ms"), "{bad}: {err}");
        }
        Ok(())
    }

    #[test]
    fn chat_template_file_and_reasoning_parser_flags() -> anyhow::Result<()> {
        let path = std::env::temp_dir().join(format!("chat-template-{}.jinja", std::process::id()));
        std::fs::write(&path, "{{ messages[0].content }}")?;
        let flag = path.to_string_lossy().into_owned();
        let template = parse(&["--chat-template-file", &flag])
            .resolve()?
            .engine
            .chat_template;
        std::fs::remove_file(&path)?;
        assert_eq!(template.as_deref(), Some("{{ messages[0].content }}"));
        assert_eq!(parse(&[]).resolve()?.engine.chat_template, None);
        let err = parse(&["--chat-template-file", &flag]).resolve().err();
        let err = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            err.starts_with("--chat-template-file: cannot read"),
            "{err}"
        );
        let parser = |flags: &[&str]| parse(flags).resolve().map(|c| c.engine.reasoning_parser);
        assert_eq!(parser(&[])?, ReasoningParser::Auto);
        assert_eq!(
            parser(&["--reasoning-parser", "none"])?,
            ReasoningParser::None
        );
        assert_eq!(
            parser(&["--reasoning-parser", "think"])?,
            ReasoningParser::Think
        );
        let lora = |flags: &[&str]| parse(flags).resolve().map(|c| c.engine.lora_paths);
        assert_eq!(
            lora(&["--lora-paths", "a=/x/a.gguf", "/y/b.gguf"])?,
            [
                LoraSpec::parse("a=/x/a.gguf").map_err(anyhow::Error::msg)?,
                LoraSpec::parse("b=/y/b.gguf").map_err(anyhow::Error::msg)?
            ]
        );
        assert!(lora(&["--lora-paths", "a b=/x.gguf"]).is_err());
        let tools = |flags: &[&str]| parse(flags).resolve().map(|c| c.engine.tool_format);
        assert_eq!(tools(&[])?, None);
        assert_eq!(tools(&["--tool-call-parser", "auto"])?, None);
        for (name, format) in [
            ("llama3", ToolFormat::Llama3Json),
            ("qwen25", ToolFormat::Hermes),
            ("mistral", ToolFormat::Mistral),
            ("qwen3_coder", ToolFormat::QwenXml),
            ("granite", ToolFormat::Granite),
            ("mistral_v11", ToolFormat::MistralArgs),
            ("phi4_mini_json", ToolFormat::Phi4Mini),
            ("deepseekv3", ToolFormat::DeepSeekV3),
            ("deepseek_r1", ToolFormat::DeepSeekV3),
            ("deepseekv31", ToolFormat::DeepSeekV31),
            ("kimi_k2", ToolFormat::KimiK2),
            ("glm45", ToolFormat::GlmXml),
            ("glm47", ToolFormat::GlmXml),
            ("minimax_m2", ToolFormat::MiniMaxXml),
            ("minimax-m2", ToolFormat::MiniMaxXml),
            ("gemma4", ToolFormat::Gemma4),
        ] {
            assert_eq!(tools(&["--tool-call-parser", name])?, Some(format));
        }
        Ok(())
    }

    #[test]
    fn cuda_graph_flags_set_the_largest_graphed_batch() -> anyhow::Result<()> {
        let max = |flags: &[&str]| {
            parse(flags)
                .resolve()
                .map(|c| c.engine.cuda_graph_max_batch)
        };
        // On by default, for every batch the scheduler runs.
        assert_eq!(max(&[])?, usize::MAX);
        assert_eq!(max(&["--cuda-graph-max-bs", "48"])?, 48);
        assert_eq!(max(&["--disable-cuda-graph"])?, 0);
        assert_eq!(
            max(&["--cuda-graph-max-bs", "48", "--disable-cuda-graph"])?,
            0
        );
        assert_eq!(max(&["--disable-cuda-graph", "false"])?, usize::MAX);
        Ok(())
    }

    #[test]
    fn device_flag_parses_and_needs_cuda_support_for_gpus() -> anyhow::Result<()> {
        use engine::model::Device;
        assert_eq!(parse(&[]).resolve()?.engine.device, Device::Cpu);
        assert_eq!(
            parse(&["--device", "cpu"]).resolve()?.engine.device,
            Device::Cpu
        );
        let gpu = parse(&["--device", "cuda:1"]).resolve();
        if cfg!(feature = "cuda") {
            assert_eq!(gpu?.engine.device, Device::Cuda(1));
        } else {
            let err = gpu.err().map(|e| e.to_string()).unwrap_or_default();
            assert!(err.contains("no CUDA support"), "{err}");
        }
        let err = parse(&["--device", "tpu"])
            .resolve()
            .err()
            .map(|e| e.to_string());
        assert!(err.unwrap_or_default().contains("unknown device"));
        Ok(())
    }
}

#[cfg(test)]
mod disk_tier_flags {
    use super::*;

    #[test]
    fn disk_tier_flags_are_checked_and_converted() {
        let args = ServeArgs {
            kv_disk_dir: Some("/tmp/kv".into()),
            kv_disk_budget_gb: Some(0.5),
            ..ServeArgs::default()
        };
        let disk = args.with_defaults().map(|c| c.engine.kv_disk);
        assert_eq!(
            disk.ok().flatten(),
            Some(KvDiskConfig {
                dir: "/tmp/kv".into(),
                budget_bytes: 512 << 20
            })
        );
        let default_budget = ServeArgs {
            kv_disk_dir: Some("/tmp/kv".into()),
            ..ServeArgs::default()
        };
        let budget = default_budget
            .with_defaults()
            .ok()
            .and_then(|c| c.engine.kv_disk)
            .map(|d| d.budget_bytes);
        assert_eq!(budget, Some(8 << 30));
        for bad in [0.0, -1.0, f64::NAN] {
            let args = ServeArgs {
                kv_disk_dir: Some("/tmp/kv".into()),
                kv_disk_budget_gb: Some(bad),
                ..ServeArgs::default()
            };
            assert!(args.with_defaults().is_err(), "budget {bad}");
        }
        let no_dir = ServeArgs {
            kv_disk_budget_gb: Some(1.0),
            ..ServeArgs::default()
        };
        assert!(
            no_dir.with_defaults().is_err(),
            "a budget without a directory"
        );
    }
}

/// `secs` (or `default`) as a duration, which must be positive and finite.
/// Longest timeout a flag may set: timers add it to the present instant, which must not
/// overflow.
const MAX_TIMEOUT_SECS: f64 = 7.0 * 86_400.0;

fn positive_secs(secs: Option<f64>, default: Duration, flag: &str) -> anyhow::Result<Duration> {
    let secs = secs.unwrap_or(default.as_secs_f64());
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero() && d.as_secs_f64() <= MAX_TIMEOUT_SECS)
        .with_context(|| {
            format!("{flag} must be > 0 and at most {MAX_TIMEOUT_SECS} (a week), got {secs}")
        })
}
