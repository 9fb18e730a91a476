//! Connection limits shared by the HTTP and gRPC servers: at most `max_connections` open at
//! once (more are accepted and closed at once, so a client learns fast instead of hanging in
//! the backlog), and a connection that sends nothing within `header_read_timeout` is closed,
//! so idle sockets cannot hold the slots. Streams per HTTP/2 connection are capped by each
//! server's HTTP/2 settings from the same [`ConnectionLimits`].

use futures_util::Stream;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

pub use crate::metric_names::{CONNECTIONS_REFUSED, CONNECTIONS_TIMED_OUT};

/// Limits on one server's connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    pub max_connections: usize,
    /// How long a new connection may take to send its first byte; for HTTP/1 also how long
    /// a request's headers (and a kept-alive connection's next request) may take.
    pub header_read_timeout: Duration,
    /// How long a request's body may take to arrive, plus a second for every
    /// [`crate::server::body_deadline::MIN_BODY_RATE`] bytes received (HTTP: 408; gRPC:
    /// DEADLINE_EXCEEDED), so that a client cannot hold a slot by trickling a body.
    pub body_read_timeout: Duration,
    /// Concurrent HTTP/2 streams per connection.
    pub max_streams_per_connection: u32,
    /// HTTP: how long a connection may stay open with no request in flight (HTTP/2 keeps
    /// connections open on pings alone).
    pub idle_timeout: Duration,
    /// gRPC: the age at which a connection is asked to close (GOAWAY: its calls finish and
    /// the client reconnects), which bounds how long a connection without calls holds a
    /// slot. Long, since gateways keep their channels open.
    pub max_connection_age: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            max_connections: 4096,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            max_streams_per_connection: 128,
            idle_timeout: Duration::from_secs(60),
            max_connection_age: Duration::from_secs(600),
        }
    }
}

/// An accepted connection that holds one of the server's connection slots until dropped.
pub struct LimitedStream {
    tcp: TcpStream,
    _slot: OwnedSemaphorePermit,
}

impl LimitedStream {
    pub fn tcp(&self) -> &TcpStream {
        &self.tcp
    }
}

impl AsyncRead for LimitedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for LimitedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
}

impl tonic::transport::server::Connected for LimitedStream {
    type ConnectInfo = tonic::transport::server::TcpConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.tcp.connect_info()
    }
}

/// Accepts on `listener` within `limits` until the returned stream is dropped: yields each
/// connection once its first byte has arrived (TCP_NODELAY set: token chunks are small
/// writes). The waiting happens in a task per connection, never in the accept loop.
pub fn limited_incoming(
    listener: TcpListener,
    limits: ConnectionLimits,
) -> impl Stream<Item = io::Result<LimitedStream>> + Send + 'static {
    let (ready_tx, ready_rx) = mpsc::channel::<LimitedStream>(64);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    tokio::spawn(accept_loop(listener, slots, limits, ready_tx));
    futures_util::stream::unfold(ready_rx, |mut rx| async move {
        rx.recv().await.map(|stream| (Ok(stream), rx))
    })
}

async fn accept_loop(
    listener: TcpListener,
    slots: Arc<Semaphore>,
    limits: ConnectionLimits,
    ready: mpsc::Sender<LimitedStream>,
) {
    loop {
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = ready.closed() => return,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            metrics::counter!(CONNECTIONS_REFUSED).increment(1);
            drop(tcp);
            continue;
        };
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
        let ready = ready.clone();
        let wait = limits.header_read_timeout;
        tokio::spawn(async move {
            let mut first = [0u8; 1];
            match tokio::time::timeout(wait, tcp.peek(&mut first)).await {
                Ok(Ok(n)) if n > 0 => {
                    let _ = ready.send(LimitedStream { tcp, _slot: slot }).await;
                }
                Ok(_) => {} // closed or failed before sending anything
                Err(_) => metrics::counter!(CONNECTIONS_TIMED_OUT).increment(1),
            }
        });
    }
}
