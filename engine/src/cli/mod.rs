//! The `radixserve` command line: `serve`, `generate` and `hash-key`.

pub mod config;
pub mod generate;
pub mod serve;

use clap::{Parser, Subcommand};
use std::path::Path;

/// The model used when none is given.
pub const DEFAULT_MODEL: &str = "models/SmolLM2-135M-Instruct.Q4_1.gguf";

#[derive(Debug, Parser)]
#[command(
    name = "radixserve",
    version,
    about = "An LLM serving engine with a radix prefix cache"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the OpenAI-compatible HTTP API, the gRPC API and Prometheus metrics.
    Serve(Box<config::ServeArgs>),
    /// Generate a completion of one prompt and print it to stdout.
    Generate(generate::GenerateArgs),
    /// Print the stored form of an API key for a tenants file (`sha256:<hex>`). Reads the
    /// key from standard input when none is given, so it stays out of the shell history.
    HashKey {
        /// The API key (default: read one line from standard input)
        key: Option<String>,
    },
}

/// `radixserve hash-key`.
pub fn hash_key(key: Option<String>) -> anyhow::Result<()> {
    let key = match key {
        Some(k) => k,
        None => {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line)?;
            line.trim_end_matches(['\r', '\n']).to_string()
        }
    };
    if key.is_empty() {
        anyhow::bail!("the API key is empty");
    }
    println!("{}", engine::tenants::hash_api_key(&key));
    Ok(())
}

/// Fails with a helpful message when the model file is missing.
pub fn check_model(path: &Path) -> anyhow::Result<()> {
    if path.is_file() {
        return Ok(());
    }
    if path == Path::new(DEFAULT_MODEL) {
        anyhow::bail!(
            "the default model {} is missing: run scripts/fetch-model.sh (from the repository \
             root) to fetch it, or pass --model PATH",
            path.display()
        );
    }
    anyhow::bail!("model file not found: {}", path.display())
}
