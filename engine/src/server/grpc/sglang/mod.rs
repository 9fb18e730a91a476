//! `sglang.grpc.scheduler.SglangScheduler`: the SGLang worker protocol that the smg gateway
//! speaks, served beside `radixserve.v1` on the same port. The gateway renders chat
//! templates and tokenizes; this service takes token ids, streams token ids, and publishes
//! the prefix cache's blocks so that cache-aware routing knows what each worker holds.
//!
//! The same bearer keys and namespaces as `radixserve.v1` apply: a caller's requests use
//! its namespace, and its KV event subscription carries only that namespace's blocks. A
//! gateway sends no key to its gRPC workers, so the operator may name the tenant keyless
//! calls act as (`--sglang-tenant`).

mod bundle;
mod embed;
mod events;
mod generate;
mod info;
mod params;
mod subscriptions;

use super::auth::authenticate;
use super::service::EngineSlot;
use super::{deadline, status};
use crate::handle::EngineHandle;
use crate::io::AbortScope;
use crate::tenants::{Caller, TenantRegistry};
use events::KvEventStream;
use generate::GenerateStream;
use proto::sglang::common as common_pb;
use proto::sglang::scheduler as pb;
use proto::sglang::scheduler::sglang_scheduler_server::SglangScheduler;
use radix::CacheScope;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::{Instant, SystemTime};
use subscriptions::Subscriptions;
use tonic::{Request, Response, Status};

pub(super) use proto::sglang::scheduler::sglang_scheduler_server::{
    SglangSchedulerServer, SERVICE_NAME,
};

type TokenizerStream =
    Pin<Box<dyn futures_util::Stream<Item = Result<common_pb::GetTokenizerChunk, Status>> + Send>>;

pub(super) struct SglangService {
    engine: EngineSlot,
    tenants: Arc<TenantRegistry>,
    /// The tenant keyless calls act as, if the operator named one.
    keyless_tenant: Option<String>,
    subscriptions: Subscriptions,
    throughput: info::Throughput,
    bundle: OnceLock<Arc<bundle::Bundle>>,
    started: SystemTime,
}

impl SglangService {
    pub(super) fn new(
        engine: EngineSlot,
        tenants: Arc<TenantRegistry>,
        keyless_tenant: Option<String>,
    ) -> Self {
        Self {
            engine,
            tenants,
            keyless_tenant,
            subscriptions: Subscriptions::default(),
            throughput: info::Throughput::default(),
            bundle: OnceLock::new(),
            started: SystemTime::now(),
        }
    }

    fn caller<T>(&self, request: &Request<T>) -> Result<Caller, Status> {
        let keyless = request.metadata().get("authorization").is_none();
        match &self.keyless_tenant {
            Some(name) if keyless && !self.tenants.is_open() => {
                let mut caller = self.tenants.caller_named(name).ok_or_else(|| {
                    Status::unauthenticated(format!("tenant {name:?} is no longer configured"))
                })?;
                // Whoever reaches the port calls keyless: never with an administrator's
                // rights, even if a reload made the tenant one (startup refuses that).
                caller.is_admin = false;
                Ok(caller)
            }
            _ => authenticate(&self.tenants, request.metadata()),
        }
    }

    fn engine(&self) -> Result<&EngineHandle, Status> {
        self.engine
            .get()
            .ok_or_else(|| Status::unavailable("the model is loading"))
    }

    /// A call that submits work: its caller, the engine and the call's deadline, after the
    /// cheap refusals that come before preparing anything.
    fn admit_call<T>(
        &self,
        request: &Request<T>,
    ) -> Result<(Caller, &EngineHandle, Option<Instant>), Status> {
        let caller = self.caller(request)?;
        let engine = self.engine()?;
        if engine.is_draining() {
            return Err(Status::unavailable("the server is shutting down"));
        }
        let deadline = deadline::deadline(request.metadata(), Instant::now())?;
        engine
            .precheck(caller.tenant)
            .map_err(status::from_submit)?;
        Ok((caller, engine, deadline))
    }

    fn bundle(&self, engine: &EngineHandle) -> Result<Arc<bundle::Bundle>, Status> {
        if let Some(bundle) = self.bundle.get() {
            return Ok(bundle.clone());
        }
        let built = Arc::new(bundle::build(engine)?);
        Ok(self.bundle.get_or_init(|| built).clone())
    }
}

#[tonic::async_trait]
impl SglangScheduler for SglangService {
    type GenerateStream = GenerateStream;
    type GetTokenizerStream = TokenizerStream;
    type SubscribeKvEventsStream = KvEventStream;

    async fn generate(
        &self,
        request: Request<pb::GenerateRequest>,
    ) -> Result<Response<Self::GenerateStream>, Status> {
        let (caller, engine, deadline) = self.admit_call(&request)?;
        let request = request.into_inner();
        params::check_request_id(&request.request_id)?;
        // Registered before the prompt is built and the grammar compiles, so that an
        // `Abort` meanwhile finds it (its requests then end aborted, never queued). Without
        // an id of its own the call is named by the engine's ("req-N"): sent back in every
        // response and abortable by it.
        let own_rid = (!request.request_id.is_empty()).then(|| request.request_id.clone());
        let call = engine
            .open_call(caller.tenant, own_rid.as_deref())
            .map_err(status::from_submit)?;
        let rid = call.rid().to_string();
        let mut prepared = params::prepare(engine, &caller, request, deadline).await?;
        prepared.request.rid = Some(rid.clone());
        prepared.request.call = Some(call);
        let samples = engine
            .submit_samples(prepared.request, prepared.samples)
            .await
            .map_err(status::from_submit)?;
        let options = generate::Options {
            rid,
            stream: prepared.stream,
            deadline,
            prompt_tokens: prepared.prompt_tokens,
            think_end: prepared.think_end,
            input_logprob_ids: prepared.input_logprob_ids,
        };
        Ok(Response::new(generate::response_stream(samples, options)))
    }

    async fn embed(
        &self,
        request: Request<pb::EmbedRequest>,
    ) -> Result<Response<pb::EmbedResponse>, Status> {
        let (caller, engine, deadline) = self.admit_call(&request)?;
        let mut request = embed::prepare(engine, &caller, request.into_inner(), deadline)?;
        // Registered while it runs, so that an `Abort` by its id finds it.
        engine
            .open_calls(std::slice::from_mut(&mut request))
            .map_err(status::from_submit)?;
        let response = embed::run(engine, request, deadline).await?;
        Ok(Response::new(response))
    }

    /// Open to every caller, like `grpc.health.v1`: UNAVAILABLE until the model is loaded
    /// (a gateway takes any OK as ready), `healthy: false` while draining.
    async fn health_check(
        &self,
        _request: Request<pb::HealthCheckRequest>,
    ) -> Result<Response<pb::HealthCheckResponse>, Status> {
        let engine = self.engine()?;
        let message = if engine.is_draining() {
            "draining"
        } else if !engine.is_alive() {
            "the engine has stopped"
        } else {
            "ok"
        };
        let healthy = message == "ok";
        Ok(Response::new(pb::HealthCheckResponse {
            healthy,
            message: message.into(),
        }))
    }

    async fn abort(
        &self,
        request: Request<pb::AbortRequest>,
    ) -> Result<Response<pb::AbortResponse>, Status> {
        let caller = self.caller(&request)?;
        let engine = self.engine()?;
        let rid = request.into_inner().request_id;
        // A tenant aborts only its own requests; an administrator its own id if it has one
        // in flight (ids are per tenant), else any tenant's.
        let found = !rid.is_empty() && engine.abort_owned(&rid, AbortScope::of_caller(&caller));
        Ok(Response::new(pb::AbortResponse {
            success: found,
            message: if found {
                "aborting".into()
            } else {
                format!("no request {rid:?} in flight")
            },
        }))
    }

    async fn get_model_info(
        &self,
        request: Request<pb::GetModelInfoRequest>,
    ) -> Result<Response<pb::GetModelInfoResponse>, Status> {
        self.caller(&request)?;
        Ok(Response::new(info::model_info(self.engine()?)))
    }

    async fn get_server_info(
        &self,
        request: Request<pb::GetServerInfoRequest>,
    ) -> Result<Response<pb::GetServerInfoResponse>, Status> {
        let caller = self.caller(&request)?;
        Ok(Response::new(info::server_info(
            self.engine()?,
            &caller,
            self.started,
        )))
    }

    async fn get_loads(
        &self,
        request: Request<pb::GetLoadsRequest>,
    ) -> Result<Response<pb::GetLoadsResponse>, Status> {
        let caller = self.caller(&request)?;
        if request.get_ref().dp_rank.is_some_and(|r| r != 0) {
            return Err(Status::invalid_argument(
                "dp_rank: this worker has one rank (0)",
            ));
        }
        Ok(Response::new(info::loads(
            self.engine()?,
            &caller,
            &self.throughput,
        )))
    }

    /// An administrator flushes every namespace (SGLang's flush), a tenant its own (not a
    /// group's it shares). Paths that running requests hold stay, so a flush never waits and
    /// never fails for them.
    async fn flush_cache(
        &self,
        request: Request<common_pb::FlushCacheRequest>,
    ) -> Result<Response<common_pb::FlushCacheResponse>, Status> {
        let caller = self.caller(&request)?;
        let engine = self.engine()?;
        let namespace = (!caller.is_admin).then(|| caller.namespace_for(None));
        if namespace.as_ref().is_some_and(|ns| !caller.may_flush(ns)) {
            // SGLang's shape for a refused flush, which a gateway's fan-out reports per worker.
            return Ok(Response::new(common_pb::FlushCacheResponse {
                success: false,
                message: caller.flush_refusal(),
            }));
        }
        let flushed = engine
            .flush_cache(namespace)
            .await
            .map_err(status::from_engine)?;
        Ok(Response::new(common_pb::FlushCacheResponse {
            success: true,
            message: format!("flushed {flushed} cached tokens"),
        }))
    }

    async fn get_tokenizer(
        &self,
        request: Request<common_pb::GetTokenizerRequest>,
    ) -> Result<Response<Self::GetTokenizerStream>, Status> {
        self.caller(&request)?;
        let bundle = self.bundle(self.engine()?)?;
        let count = bundle.zip.len().div_ceil(bundle::CHUNK_BYTES).max(1);
        // Each chunk is copied out as the client reads: a call that never reads holds the
        // shared bundle, not a copy of it.
        let chunks = (0..count).map(move |i| {
            let start = i * bundle::CHUNK_BYTES;
            let end = (start + bundle::CHUNK_BYTES).min(bundle.zip.len());
            Ok(common_pb::GetTokenizerChunk {
                data: bundle.zip.get(start..end).unwrap_or_default().to_vec(),
                sha256: if i + 1 == count {
                    bundle.sha256.clone()
                } else {
                    String::new()
                },
            })
        });
        Ok(Response::new(Box::pin(futures_util::stream::iter(chunks))))
    }

    async fn subscribe_kv_events(
        &self,
        request: Request<common_pb::SubscribeKvEventsRequest>,
    ) -> Result<Response<Self::SubscribeKvEventsStream>, Status> {
        let caller = self.caller(&request)?;
        let engine = self.engine()?;
        let hub = engine
            .kv_events()
            .ok_or_else(|| Status::unimplemented("this server publishes no KV events"))?;
        let namespace = caller.namespace_for(None);
        if matches!(namespace.scope, CacheScope::Group(_)) && !caller.is_admin {
            return Err(Status::permission_denied(format!(
                "tenant {:?} shares its cache with its group: its KV events carry the other \
                 members' prompts, so only an administrator may subscribe",
                caller.tenant_name
            )));
        }
        let slot = self.subscriptions.take(caller.tenant, caller.is_admin)?;
        let start = request.into_inner().start_sequence_number;
        // The first snapshot may be large: built off the async workers.
        let (hub, block_size) = (hub.clone(), hub.block_size());
        let subscription = tokio::task::spawn_blocking(move || hub.subscribe(&namespace, start))
            .await
            .map_err(|e| Status::internal(format!("subscribing: {e}")))?;
        Ok(Response::new(events::event_stream(
            subscription,
            block_size,
            slot,
        )))
    }
}
