//! Closing connections that hold no request: an HTTP/2 client can keep a connection open
//! without sending anything but pings, which the header read timeout (HTTP/1's guard) never
//! sees, and so hold one of the server's connection slots for ever. A connection with no
//! request in flight for `idle_timeout` is shut down gracefully (HTTP/2: GOAWAY).

use crate::server::body_deadline::{BodyTimedOut, DeadlineBody};
use axum::body::{Body, HttpBody};
use axum::response::Response;
use parking_lot::Mutex;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// One connection's requests in flight, and since when it has had none.
#[derive(Debug)]
pub struct Activity {
    in_flight: AtomicUsize,
    idle_since: Mutex<Instant>,
}

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            in_flight: AtomicUsize::new(0),
            idle_since: Mutex::new(Instant::now()),
        })
    }

    /// A request begins; it is in flight until the guard (kept with its response body)
    /// drops.
    pub fn begin(self: &Arc<Self>) -> RequestGuard {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        RequestGuard(self.clone())
    }

    /// When the connection may be closed, if it stays idle: None while a request runs.
    fn idle_deadline(&self, timeout: Duration) -> Option<Instant> {
        let since = *self.idle_since.lock();
        (self.in_flight.load(Ordering::Acquire) == 0).then_some(since + timeout)
    }
}

/// Keeps its request counted as in flight.
#[derive(Debug)]
pub struct RequestGuard(Arc<Activity>);

impl Drop for RequestGuard {
    fn drop(&mut self) {
        let mut since = self.0.idle_since.lock();
        if self.0.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            *since = Instant::now();
        }
    }
}

/// A response body that keeps its request in flight until it is sent or dropped (a stream
/// is in flight as long as it streams).
pub fn guard_body(response: Response, guard: RequestGuard) -> Response {
    response.map(|body| {
        Body::new(GuardedBody {
            body,
            _guard: guard,
        })
    })
}

struct GuardedBody {
    body: Body,
    _guard: RequestGuard,
}

impl HttpBody for GuardedBody {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A connection that shuts down gracefully once idle for `timeout`, or when the server
/// stops (`stop` completes).
pub struct Closing<C> {
    connection: Pin<Box<C>>,
    /// The connection's graceful shutdown (HTTP/2: GOAWAY, then close once its streams end).
    shut: fn(Pin<&mut C>),
    activity: Arc<Activity>,
    timeout: Duration,
    timer: Pin<Box<Sleep>>,
    stop: Pin<Box<dyn Future<Output = ()> + Send>>,
    closing: bool,
    /// Closing for idleness: the connection is dropped if it has not closed by the time
    /// the timer fires again with no request in flight (a client that does not answer the
    /// GOAWAY's ping).
    forcing: bool,
}

impl<C> Closing<C> {
    pub fn new(
        connection: C,
        shut: fn(Pin<&mut C>),
        activity: Arc<Activity>,
        timeout: Duration,
        stop: impl Future<Output = ()> + Send + 'static,
    ) -> Self {
        Self {
            connection: Box::pin(connection),
            shut,
            activity,
            timeout,
            timer: Box::pin(tokio::time::sleep(timeout)),
            stop: Box::pin(stop),
            closing: false,
            forcing: false,
        }
    }

    fn close(&mut self) {
        (self.shut)(self.connection.as_mut());
        self.closing = true;
    }
}

impl<C, E> Future for Closing<C>
where
    C: Future<Output = Result<(), E>>,
{
    type Output = Result<(), E>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        if !this.closing && this.stop.as_mut().poll(cx).is_ready() {
            this.close();
        }
        while this.forcing && this.timer.as_mut().poll(cx).is_ready() {
            // A request may have started before the client saw the GOAWAY: drop the
            // connection only while none is in flight.
            if this.activity.idle_deadline(Duration::ZERO).is_some() {
                return Poll::Ready(Ok(()));
            }
            this.timer.as_mut().reset(Instant::now() + this.timeout);
        }
        while !this.closing && this.timer.as_mut().poll(cx).is_ready() {
            let now = Instant::now();
            match this.activity.idle_deadline(this.timeout) {
                Some(deadline) if deadline <= now => {
                    metrics::counter!(crate::metric_names::CONNECTIONS_IDLE_CLOSED).increment(1);
                    this.close();
                    this.forcing = true;
                    this.timer.as_mut().reset(now + this.timeout);
                    // Registers the timer's waker (it cannot be due yet).
                    let _ = this.timer.as_mut().poll(cx);
                }
                // Idle since less than the timeout: wait for the rest of it.
                Some(deadline) => this.timer.as_mut().reset(deadline),
                // Busy: look again a timeout from now.
                None => this.timer.as_mut().reset(now + this.timeout),
            }
        }
        this.connection.as_mut().poll(cx)
    }
}

/// `router` as a per-connection service that counts the connection's requests (and puts
/// each request's body under a deadline: a request in flight keeps its connection open).
#[derive(Clone)]
pub struct CountRequests {
    router: axum::Router,
    activity: Arc<Activity>,
    body_timeout: Duration,
}

impl CountRequests {
    pub fn new(router: axum::Router, activity: Arc<Activity>, body_timeout: Duration) -> Self {
        Self {
            router,
            activity,
            body_timeout,
        }
    }
}

fn http_body_timed_out(allowed: Duration) -> axum::BoxError {
    Box::new(BodyTimedOut(allowed))
}

impl<B> tower_service::Service<axum::http::Request<B>> for CountRequests
where
    B: HttpBody<Data = axum::body::Bytes> + Send + Unpin + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // A router is always ready.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: axum::http::Request<B>) -> Self::Future {
        let guard = self.activity.begin();
        let mut router = self.router.clone();
        let timeout = self.body_timeout;
        let request = request.map(|body| {
            if body.is_end_stream() {
                Body::new(body)
            } else {
                Body::new(DeadlineBody::new(body, timeout, http_body_timed_out))
            }
        });
        Box::pin(async move {
            let response = tower_service::Service::call(&mut router, request).await?;
            Ok(guard_body(response, guard))
        })
    }
}
