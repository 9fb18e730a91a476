//! `radixserve`: serve a model over HTTP (OpenAI-compatible) and gRPC, or generate once from
//! the command line.

mod cli;

use clap::Parser;
use cli::{Cli, Command};
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // Logs go to stderr so that `generate` keeps stdout for the generated text alone.
    let default_filter = match cli.command {
        Command::Serve(_) => "info",
        Command::Generate(_) | Command::HashKey { .. } => "warn",
    };
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    match cli.command {
        Command::Serve(args) => cli::serve::run(*args),
        Command::Generate(args) => cli::generate::run(args),
        Command::HashKey { key } => cli::hash_key(key),
    }
}
