//! `loadgen`: load generator for radixserve (gRPC) and OpenAI-compatible servers.
//! `loadgen --help` lists the flags; docs/loadgen.md explains them and the metrics.

use anyhow::Context;
use benches::loadgen::app;
use benches::loadgen::cli::{Cli, Command};
use benches::loadgen::report::{markdown_table, ResultFile};
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("loadgen: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let command_line: Vec<String> = std::env::args().collect();
    let cli = Cli::parse();
    if let Some(Command::Summarize { files }) = &cli.command {
        let results = files
            .iter()
            .map(|path| ResultFile::read(path))
            .collect::<Result<Vec<_>, _>>()?;
        let results: Vec<&ResultFile> = results.iter().collect();
        print!("{}", markdown_table(&results));
        return Ok(());
    }
    // One worker: the client mostly waits, and the server under test may share the cores.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let result = runtime.block_on(app::run(&cli.run, command_line))?;
    let summary = match &result {
        ResultFile::Run(run) => Some(&run.summary),
        ResultFile::Sweep(sweep) => sweep.points.last().map(|p| &p.summary),
    };
    if let Some(s) = summary.filter(|s| s.sent > 0 && s.completed == 0) {
        let first = s.error_samples.first().map_or("", String::as_str);
        anyhow::bail!("every request failed: {first}");
    }
    Ok(())
}
