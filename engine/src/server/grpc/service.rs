//! `radixserve.v1.RadixServe` over [`EngineHandle`]. Every RPC authenticates its caller
//! first; `Generate` then tokenizes, submits and streams; `Embed` tokenizes, submits and
//! answers with the embedding.

use super::auth::authenticate;
use super::embedding::finished_embedding;
use super::stream::{response_stream, ResponseStream};
use super::{deadline, info, input, status};
use crate::handle::{normalized_embedding, EngineHandle};
use crate::io::AbortScope;
use crate::tenants::{Caller, TenantRegistry};
use proto::v1 as pb;
use proto::v1::radix_serve_server::RadixServe;
use std::sync::{Arc, OnceLock};
use std::time::Instant;
use tonic::{Request, Response, Status};

/// The engine once it is loaded; shared by the service and [`super::GrpcServer`].
pub(super) type EngineSlot = Arc<OnceLock<EngineHandle>>;

pub(super) struct RadixServeService {
    engine: EngineSlot,
    tenants: Arc<TenantRegistry>,
}

impl RadixServeService {
    pub(super) fn new(engine: EngineSlot, tenants: Arc<TenantRegistry>) -> Self {
        Self { engine, tenants }
    }

    fn caller<T>(&self, request: &Request<T>) -> Result<Caller, Status> {
        authenticate(&self.tenants, request.metadata())
    }

    /// The engine, once loaded (info and cache RPCs still answer while it drains).
    fn engine(&self) -> Result<&EngineHandle, Status> {
        self.engine
            .get()
            .ok_or_else(|| Status::unavailable("the model is loading"))
    }

    /// The engine, if it takes new requests now.
    fn serving_engine(&self) -> Result<&EngineHandle, Status> {
        let engine = self.engine()?;
        if engine.is_draining() {
            return Err(Status::unavailable("the server is shutting down"));
        }
        Ok(engine)
    }

    /// A call that submits work: its caller, the serving engine and the call's deadline,
    /// after the cheap refusals that come before tokenizing or compiling anything.
    fn admit_call<T>(
        &self,
        request: &Request<T>,
    ) -> Result<(Caller, &EngineHandle, Option<Instant>), Status> {
        let caller = self.caller(request)?;
        let engine = self.serving_engine()?;
        let deadline = deadline::deadline(request.metadata(), Instant::now())?;
        engine
            .precheck(caller.tenant)
            .map_err(status::from_submit)?;
        Ok((caller, engine, deadline))
    }
}

#[tonic::async_trait]
impl RadixServe for RadixServeService {
    type GenerateStream = ResponseStream;

    async fn generate(
        &self,
        request: Request<pb::GenerateRequest>,
    ) -> Result<Response<Self::GenerateStream>, Status> {
        let (caller, engine, deadline) = self.admit_call(&request)?;
        let prepared = input::prepare(engine, &caller, request.into_inner(), deadline).await?;
        let samples = engine
            .submit_samples(prepared.request, prepared.samples)
            .await
            .map_err(status::from_submit)?;
        Ok(Response::new(response_stream(samples, deadline)))
    }

    async fn embed(
        &self,
        request: Request<pb::EmbedRequest>,
    ) -> Result<Response<pb::EmbedResponse>, Status> {
        let (caller, engine, deadline) = self.admit_call(&request)?;
        engine.embeddings_supported().map_err(status::from_submit)?;
        let request = request.into_inner();
        let dimensions = engine
            .embedding_dimensions(request.dimensions)
            .map_err(status::from_submit)?;
        let embed = input::prepare_embedding(engine, &caller, request, deadline).await?;
        let stream = engine.submit(embed).map_err(status::from_submit)?;
        let (hidden, usage) = finished_embedding(stream, deadline).await?;
        Ok(Response::new(pb::EmbedResponse {
            embedding: normalized_embedding(&hidden, dimensions),
            prompt_tokens: usage.prompt_tokens,
            cached_tokens: usage.cached_tokens,
        }))
    }

    async fn abort(
        &self,
        request: Request<pb::AbortRequest>,
    ) -> Result<Response<pb::AbortResponse>, Status> {
        let caller = self.caller(&request)?;
        let engine = self.engine()?;
        let rid = input::request_id(Some(request.into_inner().request_id))?
            .ok_or_else(|| Status::invalid_argument("request_id is empty"))?;
        engine.abort_owned(&rid, AbortScope::of_caller(&caller));
        Ok(Response::new(pb::AbortResponse {}))
    }

    async fn get_model_info(
        &self,
        request: Request<pb::GetModelInfoRequest>,
    ) -> Result<Response<pb::GetModelInfoResponse>, Status> {
        let caller = self.caller(&request)?;
        Ok(Response::new(info::model_info(self.engine()?, &caller)))
    }

    async fn get_server_info(
        &self,
        request: Request<pb::GetServerInfoRequest>,
    ) -> Result<Response<pb::GetServerInfoResponse>, Status> {
        let caller = self.caller(&request)?;
        Ok(Response::new(info::server_info(
            &self.engine()?.server_info(),
            &caller,
        )))
    }

    async fn flush_cache(
        &self,
        request: Request<pb::FlushCacheRequest>,
    ) -> Result<Response<pb::FlushCacheResponse>, Status> {
        let caller = self.caller(&request)?;
        let engine = self.engine()?;
        let request = request.into_inner();
        let namespace = if request.all_namespaces {
            if !caller.is_admin {
                return Err(Status::permission_denied(
                    "only administrators may flush every namespace",
                ));
            }
            None
        } else {
            let namespace = caller.namespace_for(request.cache_salt.as_deref());
            if !caller.may_flush(&namespace) {
                return Err(Status::permission_denied(caller.flush_refusal()));
            }
            Some(namespace)
        };
        let flushed = engine
            .flush_cache(namespace)
            .await
            .map_err(status::from_engine)?;
        Ok(Response::new(pb::FlushCacheResponse {
            flushed_tokens: flushed as u64,
        }))
    }
}
