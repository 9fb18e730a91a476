//! The HTTP accept loop: HTTP/1 and HTTP/2 (hyper's auto builder) over connections that
//! passed the shared [`ConnectionLimits`], with a header read timeout, capped HTTP/2
//! streams, idle connections closed, and a graceful shutdown that lets open requests
//! finish.

use crate::server::connections::{limited_incoming, ConnectionLimits};
use crate::server::idle::{Activity, Closing, CountRequests};
use axum::Router;
use futures_util::StreamExt;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
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
    // Every connection task holds a sender: once all are gone, the receiver sees the end.
    let (open_tx, mut open_rx) = tokio::sync::mpsc::channel::<()>(1);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
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
        let activity = Activity::new();
        let service = TowerToHyperService::new(CountRequests::new(
            router.clone(),
            activity.clone(),
            limits.body_read_timeout,
        ));
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let mut stop = stop_rx.clone();
        let connection = Closing::new(
            connection,
            |c| c.graceful_shutdown(),
            activity,
            limits.idle_timeout,
            async move {
                // A closed channel means the server is gone: stop too.
                let _ = stop.wait_for(|&stop| stop).await;
            },
        );
        let open = open_tx.clone();
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("HTTP connection: {e}");
            }
            drop(open);
        });
    }
    // Open connections finish their requests, then close.
    let _ = stop_tx.send(true);
    drop(open_tx);
    let _ = open_rx.recv().await;
    Ok(())
}
