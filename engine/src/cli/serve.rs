//! `radixserve serve`: the HTTP and gRPC servers come up first (503 on `/health`, NOT_SERVING
//! on gRPC health while the model loads), then the engine. On SIGINT/SIGTERM: drain (new requests and `/health` get 503),
//! let in-flight requests finish within the grace period, abort the rest, exit 0. A second
//! signal aborts at once.

use super::check_model;
use super::config::{ServeArgs, ServeConfig};
use anyhow::Context;
use engine::handle::EngineHandle;
use engine::server::grpc::GrpcServer;
use engine::server::http::{self, HttpState};
use engine::server::metrics;
use engine::tenants::{TenantRegistry, TenantsFile};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::signal::unix::{signal, Signal, SignalKind};
use tokio::sync::watch;

/// How often histogram samples are folded in between scrapes.
const METRICS_UPKEEP: Duration = Duration::from_secs(5);
/// How long open connections get to close after the engine stopped.
const CONNECTIONS_GRACE: Duration = Duration::from_secs(5);
/// How often the server checks that the scheduler thread still runs.
const SCHEDULER_WATCH_INTERVAL: Duration = Duration::from_secs(1);

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let config = args.resolve()?;
    // The tenants file is checked before the model is: a typo fails fast.
    let tenants = Arc::new(match &config.tenants_config {
        Some(path) => TenantRegistry::from_path(path)
            .with_context(|| format!("tenants file {}", path.display()))?,
        None => TenantRegistry::open(),
    });
    if let Some(name) = &config.sglang_tenant {
        anyhow::ensure!(
            config.tenants_config.is_some(),
            "--sglang-tenant needs --tenants-config (without one every call is served)"
        );
        let caller = tenants.caller_named(name);
        anyhow::ensure!(
            caller.is_some(),
            "--sglang-tenant {name:?}: no such tenant in the tenants file"
        );
        anyhow::ensure!(
            caller.is_some_and(|c| !c.is_admin),
            "--sglang-tenant {name:?} is an administrator: keyless calls would get its rights \
             (flush every cache, abort any request); name a tenant without admin = true"
        );
    }
    check_model(&config.engine.model_path)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("radixserve-io")
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(config, tenants))
}

async fn serve(config: ServeConfig, tenants: Arc<TenantRegistry>) -> anyhow::Result<()> {
    let prometheus = metrics::install().context("cannot install the metrics recorder")?;
    metrics::spawn_upkeep(prometheus.clone(), METRICS_UPKEEP);
    let mut signals = Signals::new()?;
    if let Some(path) = &config.tenants_config {
        tracing::info!(
            tenants = tenants.limits().len(),
            "multi-tenant: API keys required (tenants from {})",
            path.display()
        );
    }

    let state = HttpState::loading_with_tenants(Some(prometheus), tenants.clone());
    let listener = bind(&config.host, config.http_port).await?;
    tracing::info!(addr = %listener.local_addr()?, "HTTP API listening (loading the model)");
    let grpc_listener = bind(&config.host, config.grpc_port).await?;
    tracing::info!(addr = %grpc_listener.local_addr()?, "gRPC API listening (loading the model)");
    // Both servers stop accepting when this turns true, after the engine has stopped.
    let (stop_servers, stopped) = watch::channel(false);
    let http_server = tokio::spawn(http::serve_with_limits(
        listener,
        state.clone(),
        config.connections,
        stopping(&stopped),
    ));
    let grpc = GrpcServer::loading_with_tenants(tenants.clone())
        .await
        .with_sglang_tenant(config.sglang_tenant.clone());
    let grpc_server = tokio::spawn(grpc.clone().serve_with_limits(
        grpc_listener,
        config.connections,
        stopping(&stopped),
    ));

    let model_path = config.engine.model_path.clone();
    let engine_config = config.engine.clone();
    let loading = tokio::task::spawn_blocking(move || EngineHandle::start(engine_config));
    // SIGHUP's default action ends the process: take it over before anything else can
    // arrive, whether or not there is a tenants file to reload.
    let mut hangup = signal(SignalKind::hangup()).context("cannot handle SIGHUP")?;
    let early_hangups = tokio::spawn(async move {
        while hangup.recv().await.is_some() {
            tracing::warn!("SIGHUP while loading the model: the tenants file is read at startup");
        }
        hangup
    });
    let engine = tokio::select! {
        loaded = loading => loaded
            .context("the model loader failed")?
            .with_context(|| format!("cannot load {}", model_path.display()))?,
        name = signals.recv() => {
            tracing::info!("{name} while loading the model: exiting");
            let _ = stop_servers.send(true);
            return Ok(());
        }
    };
    engine.set_tenant_limits(tenants.limits());
    state.set_engine(engine.clone());
    grpc.set_engine(engine.clone()).await;
    early_hangups.abort();
    let hangup = signal(SignalKind::hangup()).context("cannot handle SIGHUP")?;
    tokio::spawn(reload_on_hangup(
        hangup,
        config.tenants_config.clone(),
        tenants.clone(),
        engine.clone(),
    ));
    let info = engine.model_info();
    tracing::info!(
        model = %info.name,
        context = engine.max_context_len(),
        kv_tokens = engine.server_info().kv_capacity_tokens,
        cpu_kernels = kernels::matmul::KernelPath::detect().name(),
        "serving"
    );

    let name = tokio::select! {
        name = signals.recv() => name,
        () = scheduler_ended(&engine) => {
            // Every request would be refused from now on: report it and exit, so that a
            // supervisor restarts the server and a gateway stops routing to it.
            tracing::error!("the scheduler stopped unexpectedly: exiting");
            grpc.set_serving(false).await;
            let _ = stop_servers.send(true);
            anyhow::bail!("the scheduler stopped unexpectedly (see the log above)");
        }
    };
    tracing::info!(
        grace_s = config.shutdown_grace.as_secs_f64(),
        "{name}: draining, in-flight requests may finish"
    );
    engine.begin_drain();
    grpc.set_serving(false).await;
    let draining = engine.clone();
    let grace = config.shutdown_grace;
    let mut shutdown = tokio::task::spawn_blocking(move || draining.shutdown(grace));
    tokio::select! {
        done = &mut shutdown => done.context("engine shutdown failed")?,
        name = signals.recv() => {
            tracing::warn!("{name} again: aborting in-flight requests");
            let now = engine.clone();
            tokio::task::spawn_blocking(move || now.shutdown(Duration::ZERO))
                .await
                .context("engine shutdown failed")?;
            shutdown.await.context("engine shutdown failed")?;
        }
    }
    let _ = stop_servers.send(true);
    let servers = async {
        let http = http_server.await.context("HTTP server task")?;
        http.context("HTTP server")?;
        let grpc = grpc_server.await.context("gRPC server task")?;
        grpc.context("gRPC server")
    };
    match tokio::time::timeout(CONNECTIONS_GRACE, servers).await {
        Ok(result) => result?,
        Err(_) => tracing::warn!("connections still open after shutdown: closing them"),
    }
    tracing::info!("stopped");
    Ok(())
}

/// Resolves once the engine's scheduler thread has ended on its own (a panic in it).
async fn scheduler_ended(engine: &EngineHandle) {
    while engine.is_alive() {
        tokio::time::sleep(SCHEDULER_WATCH_INTERVAL).await;
    }
}

/// Reloads the tenants file on every SIGHUP: changed keys, limits and weights apply from the
/// next request on, together. A bad file is reported and the old table kept; without a
/// tenants file the signal is only logged.
async fn reload_on_hangup(
    mut hangup: Signal,
    path: Option<PathBuf>,
    tenants: Arc<TenantRegistry>,
    engine: EngineHandle,
) {
    while hangup.recv().await.is_some() {
        let Some(path) = &path else {
            tracing::warn!("SIGHUP ignored: the server runs without --tenants-config");
            continue;
        };
        let applied = TenantsFile::read(path)
            .and_then(|file| tenants.reload_with(&file, |limits| engine.set_tenant_limits(limits)));
        match applied {
            Ok(()) => tracing::info!("SIGHUP: reloaded tenants from {}", path.display()),
            Err(e) => tracing::error!("SIGHUP: keeping the old tenants: {e}"),
        }
    }
}

async fn bind(host: &str, port: u16) -> anyhow::Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind((host, port))
        .await
        .with_context(|| format!("cannot listen on {host}:{port}"))
}

/// Completes when `stopped` turns true (or its sender is gone).
fn stopping(stopped: &watch::Receiver<bool>) -> impl std::future::Future<Output = ()> + Send {
    let mut stopped = stopped.clone();
    async move {
        let _ = stopped.wait_for(|&stop| stop).await;
    }
}

/// SIGINT and SIGTERM, whichever comes.
struct Signals {
    interrupt: Signal,
    terminate: Signal,
}

impl Signals {
    fn new() -> anyhow::Result<Self> {
        Ok(Self {
            interrupt: signal(SignalKind::interrupt()).context("cannot handle SIGINT")?,
            terminate: signal(SignalKind::terminate()).context("cannot handle SIGTERM")?,
        })
    }

    async fn recv(&mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "SIGINT",
            _ = self.terminate.recv() => "SIGTERM",
        }
    }
}
