//! The gRPC API: `radixserve.v1.RadixServe` (tonic) over [`EngineHandle`], the SGLang
//! worker protocol `sglang.grpc.scheduler.SglangScheduler` for the smg gateway, the standard
//! `grpc.health.v1.Health` service and server reflection (v1 and v1alpha), so `grpcurl`
//! works without the `.proto`.
//!
//! The server may start before the model is loaded: [`GrpcServer::loading`] answers
//! UNAVAILABLE and reports NOT_SERVING until [`GrpcServer::set_engine`]. While the engine
//! drains, `Generate` answers UNAVAILABLE; the owner reports it with
//! [`GrpcServer::set_serving`]`(false)`.

mod auth;
mod body_layer;
mod deadline;
mod embedding;
mod info;
mod input;
mod service;
mod sglang;
mod status;
mod stream;

use crate::handle::EngineHandle;
use crate::server::connections::{limited_incoming, ConnectionLimits};
use crate::tenants::TenantRegistry;
use body_layer::BodyDeadlineLayer;
use proto::v1::radix_serve_server::{RadixServeServer, SERVICE_NAME};
use service::{EngineSlot, RadixServeService};
use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tonic::transport::server::Router;
use tonic::transport::Server;
use tonic_health::server::{HealthReporter, HealthService};
use tonic_health::ServingStatus;

/// HTTP/2 pings find clients that vanished without closing the connection, so that their
/// streams are dropped and their requests aborted.
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(30);
const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long calls may go on after a connection reached its maximum age (longer than any
/// generation should take).
const MAX_CONNECTION_AGE_GRACE: Duration = Duration::from_secs(3600);
/// Largest request message of the SGLang service (a prompt of a million token ids fits).
const MAX_REQUEST_BYTES: usize = 16 << 20;

#[derive(Debug, thiserror::Error)]
pub enum GrpcError {
    #[error("server reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    #[error("gRPC transport: {0}")]
    Transport(#[from] tonic::transport::Error),
}

/// The gRPC server's state: the engine (once loaded) and the health statuses. Cheap to
/// clone; clones share both.
#[derive(Clone)]
pub struct GrpcServer {
    engine: EngineSlot,
    tenants: Arc<TenantRegistry>,
    health: HealthReporter,
    /// The tenant keyless SGLang-protocol calls act as (see [`GrpcServer::with_sglang_tenant`]).
    sglang_tenant: Option<String>,
}

impl GrpcServer {
    /// A server whose engine is still loading: NOT_SERVING, RPCs answer UNAVAILABLE.
    pub async fn loading() -> Self {
        Self::loading_with_tenants(Arc::new(TenantRegistry::open())).await
    }

    /// Serving the tenants of `tenants` (API keys required unless it is open).
    pub async fn loading_with_tenants(tenants: Arc<TenantRegistry>) -> Self {
        let server = Self {
            engine: Arc::new(OnceLock::new()),
            tenants,
            health: HealthReporter::new(),
            sglang_tenant: None,
        };
        server.set_serving(false).await;
        server
    }

    /// A server with its engine ready: SERVING.
    pub async fn ready(engine: EngineHandle) -> Self {
        let server = Self::loading().await;
        server.set_engine(engine).await;
        server
    }

    /// Starts serving with `engine` and reports SERVING; false (and no change) if an engine
    /// was already set.
    pub async fn set_engine(&self, engine: EngineHandle) -> bool {
        if self.engine.set(engine).is_err() {
            return false;
        }
        self.set_serving(true).await;
        true
    }

    /// Keyless calls of the SGLang worker protocol act as tenant `name` (a gateway such as
    /// smg sends no key to its gRPC workers); calls with a key authenticate as usual.
    pub fn with_sglang_tenant(mut self, name: Option<String>) -> Self {
        self.sglang_tenant = name;
        self
    }

    pub fn engine(&self) -> Option<&EngineHandle> {
        self.engine.get()
    }

    /// Reports SERVING or NOT_SERVING, for the whole server ("") and for
    /// `radixserve.v1.RadixServe`. Call with false when draining begins.
    pub async fn set_serving(&self, serving: bool) {
        let status = if serving {
            ServingStatus::Serving
        } else {
            ServingStatus::NotServing
        };
        for name in ["", SERVICE_NAME, sglang::SERVICE_NAME] {
            self.health.set_service_status(name, status).await;
        }
    }

    /// The health reporter, to set statuses of other services if needed.
    pub fn health_reporter(&self) -> HealthReporter {
        self.health.clone()
    }

    /// All services on one tonic router: `radixserve.v1.RadixServe`, health and reflection.
    pub fn router(
        &self,
        limits: ConnectionLimits,
    ) -> Result<Router<tower_layer::Stack<BodyDeadlineLayer, tower_layer::Identity>>, GrpcError>
    {
        let reflection = || {
            tonic_reflection::server::Builder::configure()
                .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(proto::SGLANG_FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        };
        let reflection_v1 = reflection().build_v1()?;
        let reflection_v1alpha = reflection().build_v1alpha()?;
        let health = tonic_health::pb::health_server::HealthServer::new(
            HealthService::from_health_reporter(self.health.clone()),
        );
        let radixserve = RadixServeServer::new(RadixServeService::new(
            self.engine.clone(),
            self.tenants.clone(),
        ));
        let sglang = sglang::SglangSchedulerServer::new(sglang::SglangService::new(
            self.engine.clone(),
            self.tenants.clone(),
            self.sglang_tenant.clone(),
        ))
        // Requests may carry long prompts; responses stay far below the 4 MiB a gateway
        // decodes by default (tokenizer and snapshot chunks are bounded).
        .max_decoding_message_size(MAX_REQUEST_BYTES);
        Ok(Server::builder()
            .http2_keepalive_interval(Some(KEEPALIVE_INTERVAL))
            .http2_keepalive_timeout(Some(KEEPALIVE_TIMEOUT))
            .max_concurrent_streams(limits.max_streams_per_connection)
            // An HTTP/2 connection with no calls stays open on pings alone: bound its life
            // (GOAWAY at this age; calls in flight finish, clients reconnect).
            .max_connection_age(limits.max_connection_age)
            // Calls still open this long after the GOAWAY end with the connection: a call
            // that never ends (a health Watch, a silent reflection stream) cannot hold a
            // connection slot for ever.
            .max_connection_age_grace(MAX_CONNECTION_AGE_GRACE)
            .layer(BodyDeadlineLayer {
                timeout: limits.body_read_timeout,
            })
            .add_service(health)
            .add_service(reflection_v1)
            .add_service(reflection_v1alpha)
            .add_service(radixserve)
            .add_service(sglang))
    }

    /// Serves on `listener` until `shutdown` completes, then waits for open calls to end
    /// (streams end when the engine finishes or aborts their requests).
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()>,
    ) -> Result<(), GrpcError> {
        self.serve_with_limits(listener, ConnectionLimits::default(), shutdown)
            .await
    }

    /// [`GrpcServer::serve`] with explicit connection limits.
    pub async fn serve_with_limits(
        self,
        listener: tokio::net::TcpListener,
        limits: ConnectionLimits,
        shutdown: impl Future<Output = ()>,
    ) -> Result<(), GrpcError> {
        let incoming = limited_incoming(listener, limits);
        self.router(limits)?
            .serve_with_incoming_shutdown(incoming, shutdown)
            .await?;
        Ok(())
    }
}
