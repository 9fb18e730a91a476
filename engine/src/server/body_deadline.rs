//! A deadline on a request's body. The header read timeout ends once the headers are in,
//! and a connection with a request in flight is never idle, so without it a client could
//! send its headers and then trickle the body (a byte every few seconds) to hold one of the
//! server's connection slots, and over HTTP/2 one of the connection's streams, for as long
//! as it likes. The body must end within the timeout, extended by one second for every
//! [`MIN_BODY_RATE`] bytes received, so that large bodies on slow but honest links still
//! arrive (the rule of Apache's mod_reqtimeout).

use axum::body::Bytes;
use axum::BoxError;
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// Bytes per second a body must keep up to earn more time than the base timeout.
pub const MIN_BODY_RATE: u64 = 16 << 10;

/// The error a body yields once its deadline has passed: the HTTP server answers 408.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?}")]
pub struct BodyTimedOut(pub Duration);

/// `body` that fails with the error `timed_out` makes once it has not ended in time.
pub struct DeadlineBody<B> {
    body: B,
    started: Instant,
    timeout: Duration,
    received: u64,
    timer: Pin<Box<Sleep>>,
    timed_out: fn(Duration) -> BoxError,
    ended: bool,
}

impl<B> DeadlineBody<B> {
    pub fn new(body: B, timeout: Duration, timed_out: fn(Duration) -> BoxError) -> Self {
        let started = Instant::now();
        let mut body = Self {
            body,
            started,
            timeout,
            received: 0,
            timer: Box::pin(tokio::time::sleep_until(started)),
            timed_out,
            ended: false,
        };
        let deadline = body.deadline();
        body.timer.as_mut().reset(deadline);
        body
    }

    /// The base timeout plus the time the bytes received so far have earned.
    fn allowed(&self) -> Duration {
        self.timeout.saturating_add(Duration::from_secs_f64(
            self.received as f64 / MIN_BODY_RATE as f64,
        ))
    }

    /// When the body must have ended (a year away for a timeout too long to add).
    fn deadline(&self) -> Instant {
        let far = Duration::from_secs(365 * 86_400);
        self.started
            .checked_add(self.allowed())
            .unwrap_or_else(|| self.started + far)
    }
}

impl<B> Body for DeadlineBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if this.ended {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.body).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    let deadline = this.deadline();
                    this.timer.as_mut().reset(deadline);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(e.into()))),
            Poll::Ready(None) => {
                this.ended = true;
                Poll::Ready(None)
            }
            Poll::Pending => match this.timer.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    this.ended = true;
                    Poll::Ready(Some(Err((this.timed_out)(this.allowed()))))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.ended || self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Whether `error`, or an error it wraps, is a [`BodyTimedOut`].
pub fn is_body_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(e) = next {
        if e.is::<BodyTimedOut>() {
            return true;
        }
        next = e.source();
    }
    false
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use std::convert::Infallible;
    use tokio::sync::mpsc;

    fn timed_out(allowed: Duration) -> BoxError {
        Box::new(BodyTimedOut(allowed))
    }

    /// A body fed by hand: its chunks arrive when the test sends them, and it ends when the
    /// sender drops.
    struct Fed(mpsc::Receiver<Bytes>);

    impl Body for Fed {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            self.0
                .poll_recv(cx)
                .map(|chunk| chunk.map(|b| Ok(Frame::data(b))))
        }
    }

    /// A body sent `chunks` times `chunk_bytes` bytes, one chunk every `every`.
    fn fed(chunks: usize, chunk_bytes: usize, every: Duration) -> Fed {
        let (tx, rx) = mpsc::channel(4);
        tokio::spawn(async move {
            for _ in 0..chunks {
                if tx.send(Bytes::from(vec![b'x'; chunk_bytes])).await.is_err() {
                    return;
                }
                tokio::time::sleep(every).await;
            }
        });
        Fed(rx)
    }

    async fn next<B: Body + Unpin>(body: &mut B) -> Option<Result<Frame<B::Data>, B::Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *body).poll_frame(cx)).await
    }

    #[tokio::test]
    async fn a_trickled_body_is_cut_at_the_base_timeout() {
        let base = Duration::from_millis(400);
        let started = Instant::now();
        let mut body = DeadlineBody::new(fed(100, 1, Duration::from_millis(100)), base, timed_out);
        let mut frames = 0;
        let error = loop {
            match next(&mut body).await.unwrap() {
                Ok(_) => frames += 1,
                Err(e) => break e,
            }
        };
        // A byte every 0.1 s earns next to nothing: cut at the base timeout.
        assert!(is_body_timeout(error.as_ref()), "{error}");
        let took = started.elapsed();
        assert!(took >= base && took < Duration::from_secs(3), "{took:?}");
        assert!((1..30).contains(&frames), "{frames} frames");
        assert!(next(&mut body).await.is_none(), "a timed-out body ends");
    }

    #[tokio::test]
    async fn a_steady_body_earns_time_past_the_base_timeout() {
        let base = Duration::from_millis(400);
        let started = Instant::now();
        // 64 KiB every 0.2 s earns four seconds a chunk: it ends after two seconds.
        let mut body = DeadlineBody::new(
            fed(10, 64 << 10, Duration::from_millis(200)),
            base,
            timed_out,
        );
        let mut received = 0;
        while let Some(frame) = next(&mut body).await {
            received += frame.unwrap().into_data().unwrap().len();
        }
        assert_eq!(received, 10 * (64 << 10));
        assert!(started.elapsed() >= Duration::from_secs(2));
    }
}
