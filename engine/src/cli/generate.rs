//! `radixserve generate`: one prompt, its completion streamed to stdout as it comes. Only the
//! generated text (and a final newline) goes to stdout; logs go to stderr.

use super::{check_model, DEFAULT_MODEL};
use anyhow::Context;
use clap::Args;
use engine::handle::{EngineConfig, EngineHandle, GenerateEvent, GenerateRequest};
use engine::sampling::SamplingParams;
use engine::tokenizer::ChatMessage;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// KV memory for one request: far less than a server needs, so startup stays quick.
const KV_BUDGET_BYTES: usize = 256 << 20;

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// GGUF model file
    #[arg(long, default_value = DEFAULT_MODEL)]
    pub model: PathBuf,
    /// The prompt (plain text, or the user message with --chat)
    #[arg(long)]
    pub prompt: String,
    /// Most tokens to generate
    #[arg(long, default_value_t = 64)]
    pub max_tokens: u32,
    /// Sampling temperature; 0 is greedy
    #[arg(long, default_value_t = 0.7)]
    pub temperature: f32,
    /// Seed of the sampler, for repeatable output
    #[arg(long)]
    pub seed: Option<u64>,
    /// Wrap the prompt as a user turn in the model's chat template
    #[arg(long)]
    pub chat: bool,
}

pub fn run(args: GenerateArgs) -> anyhow::Result<()> {
    check_model(&args.model)?;
    let mut config = EngineConfig::new(&args.model);
    config.kv_budget_bytes = KV_BUDGET_BYTES;
    let engine = EngineHandle::start(config)
        .with_context(|| format!("cannot load {}", args.model.display()))?;
    let result = generate(&engine, &args);
    engine.shutdown(Duration::ZERO);
    result
}

fn generate(engine: &EngineHandle, args: &GenerateArgs) -> anyhow::Result<()> {
    let input_ids = if args.chat {
        let text = engine
            .chat_template()
            .render(&[ChatMessage::user(args.prompt.as_str())], true)?;
        engine.tokenizer().encode_without_bos_eos(&text, true)?
    } else {
        engine.tokenizer().encode(&args.prompt, true)?
    };
    let params = SamplingParams {
        temperature: args.temperature,
        seed: args.seed,
        max_new_tokens: args.max_tokens,
        ..SamplingParams::default()
    };
    let mut stream = engine.submit(GenerateRequest::new(input_ids, params))?;
    let mut stdout = std::io::stdout().lock();
    loop {
        match stream.blocking_next() {
            Some(GenerateEvent::Chunk { text, .. }) => {
                stdout.write_all(text.as_bytes())?;
                stdout.flush()?;
            }
            Some(GenerateEvent::Finished(done)) => {
                tracing::info!(
                    finish_reason = %done.finish_reason,
                    prompt_tokens = done.usage.prompt_tokens,
                    completion_tokens = done.usage.completion_tokens,
                    ttft_s = done.ttft_s,
                    e2e_s = done.e2e_s,
                    "done"
                );
                break;
            }
            Some(GenerateEvent::Error(message)) => anyhow::bail!("generation failed: {message}"),
            None => anyhow::bail!("the engine stopped"),
        }
    }
    writeln!(stdout)?;
    Ok(())
}
