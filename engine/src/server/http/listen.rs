//! The HTTP accept loop: HTTP/1 and HTTP/2 (hyper's auto builder) over connections that
//! passed the shared [`ConnectionLimits`], with a header read timeout, capped HTTP/2
//! streams and a graceful shutdown that lets open requests finish.

use crate::server::connections::{limited_incoming, ConnectionLimits};
use axum::Router;
use futures_util::StreamExt;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::time::Duration;

/// HTTP/2 pings find clients that vanished without closing the connection.
const H2_KEEPALIVE_INTERVAL: Duration = Duration::from_secs(30);
const H2_KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until `shutdown` completes, then waits for open
/// connections to finish their requests.
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(limits.max_streams_per_connection)
        .keep_alive_interval(Some(H2_KEEPALIVE_INTERVAL))
        .keep_alive_timeout(H2_KEEPALIVE_TIMEOUT);
    let incoming = limited_incoming(listener, limits);
    tokio::pin!(incoming);
    tokio::pin!(shutdown);
    let graceful = GracefulShutdown::new();
    loop {
        let stream = tokio::select! {
            next = incoming.next() => match next {
                Some(Ok(stream)) => stream,
                Some(Err(e)) => {
                    tracing::debug!("HTTP accept: {e}");
                    continue;
                }
                None => break,
            },
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(router.clone());
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("HTTP connection: {e}");
            }
        });
    }
    graceful.shutdown().await;
    Ok(())
}
