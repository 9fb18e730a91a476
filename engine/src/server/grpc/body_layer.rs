//! The request body deadline of [`crate::server::body_deadline`] for every gRPC call but
//! reflection's: its calls are bidirectional streams whose requests arrive at the client's
//! pace, while every call of ours takes one message.

use crate::server::body_deadline::DeadlineBody;
use axum::http::Request;
use axum::BoxError;
use std::task::{Context, Poll};
use std::time::Duration;
use tonic::body::Body;
use tonic::Status;

const REFLECTION_PREFIX: &str = "/grpc.reflection.";

/// Puts each call's request body under a deadline of `timeout` (see [`DeadlineBody`]).
#[derive(Clone, Copy, Debug)]
pub struct BodyDeadlineLayer {
    pub timeout: Duration,
}

impl<S> tower_layer::Layer<S> for BodyDeadlineLayer {
    type Service = BodyDeadline<S>;

    fn layer(&self, inner: S) -> BodyDeadline<S> {
        BodyDeadline {
            inner,
            timeout: self.timeout,
        }
    }
}

#[derive(Clone, Debug)]
pub struct BodyDeadline<S> {
    inner: S,
    timeout: Duration,
}

/// A message that does not arrive in time ends the call with DEADLINE_EXCEEDED.
fn grpc_body_timed_out(allowed: Duration) -> BoxError {
    Box::new(Status::deadline_exceeded(format!(
        "the request message did not arrive within {allowed:?}"
    )))
}

impl<S> tower_service::Service<Request<Body>> for BodyDeadline<S>
where
    S: tower_service::Service<Request<Body>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> S::Future {
        if request.uri().path().starts_with(REFLECTION_PREFIX) {
            return self.inner.call(request);
        }
        let timeout = self.timeout;
        self.inner.call(
            request.map(|body| Body::new(DeadlineBody::new(body, timeout, grpc_body_timed_out))),
        )
    }
}
