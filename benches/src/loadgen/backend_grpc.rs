//! radixserve's gRPC API: `Generate` streams token-id chunks and ends with usage, cached
//! tokens included. One HTTP/2 channel carries every request.

use super::backend::{
    authorize, grpc_channel, status_text, with_scheme, BackendOptions, Outcome, RequestSpec,
    ServerModel,
};
use super::timing::StreamTimer;
use super::LoadgenError;
use proto::v1 as pb;
use proto::v1::generate_request::Input;
use proto::v1::generate_response::Response;
use proto::v1::radix_serve_client::RadixServeClient;
use std::time::Duration;
use tonic::transport::Channel;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Clone, Debug)]
pub struct GrpcBackend {
    url: String,
    client: RadixServeClient<Channel>,
    model: ServerModel,
    request_timeout: Duration,
}

impl GrpcBackend {
    pub async fn connect(options: &BackendOptions) -> Result<Self, LoadgenError> {
        let url = with_scheme(&options.url);
        let channel = grpc_channel(&url, CONNECT_TIMEOUT).await?;
        let mut client = RadixServeClient::new(channel);
        let mut request = tonic::Request::new(pb::GetModelInfoRequest {});
        request.set_timeout(CONNECT_TIMEOUT);
        authorize(&mut request, options.api_key.as_deref()).map_err(LoadgenError::InvalidArgs)?;
        let info = client
            .get_model_info(request)
            .await
            .map_err(|status| LoadgenError::Refused {
                url: url.clone(),
                reason: format!("GetModelInfo: {}", status_text(&status)),
            })?
            .into_inner();
        let max_context_len =
            (info.max_context_length > 0).then_some(info.max_context_length as usize);
        Ok(GrpcBackend {
            url,
            client,
            model: ServerModel {
                name: info.name,
                max_context_len,
            },
            request_timeout: options.request_timeout,
        })
    }

    pub fn model(&self) -> &ServerModel {
        &self.model
    }

    pub async fn generate(&self, spec: &RequestSpec<'_>) -> Outcome {
        let body = pb::GenerateRequest {
            input: Some(Input::TokenIds(pb::TokenIds {
                ids: spec.prompt.to_vec(),
            })),
            sampling_params: Some(pb::SamplingParams {
                temperature: Some(spec.temperature),
                max_new_tokens: Some(spec.output_len),
                ignore_eos: Some(spec.ignore_eos),
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut request = tonic::Request::new(body);
        request.set_timeout(self.request_timeout);
        if let Err(e) = authorize(&mut request, spec.api_key) {
            return Outcome::failed(StreamTimer::start().finish(), e);
        }
        let mut client = self.client.clone();
        let mut timer = StreamTimer::start();
        let mut stream = match client.generate(request).await {
            Ok(response) => response.into_inner(),
            Err(status) => return Outcome::failed(timer.finish(), status_text(&status)),
        };
        let mut output_ids = Vec::with_capacity(spec.output_len as usize);
        let mut output_text = String::new();
        loop {
            let message = match stream.message().await {
                Ok(Some(message)) => message,
                Ok(None) => {
                    return Outcome::failed(timer.finish(), "the stream ended without `finished`")
                }
                Err(status) => return Outcome::failed(timer.finish(), status_text(&status)),
            };
            match message.response {
                Some(Response::Chunk(chunk)) => {
                    timer.tokens(chunk.token_ids.len() as u32);
                    output_ids.extend(chunk.token_ids);
                    output_text.push_str(&chunk.text);
                }
                Some(Response::Finished(finished)) => {
                    let timing = timer.finish();
                    let reason = finish_reason(finished.finish_reason);
                    let usage = finished.usage.unwrap_or_default();
                    let error = (reason == "abort").then(|| "aborted by the server".to_string());
                    return Outcome {
                        timing,
                        prompt_tokens: Some(usage.prompt_tokens),
                        cached_tokens: Some(usage.cached_tokens),
                        output_tokens: Some(usage.completion_tokens),
                        output_ids: Some(output_ids),
                        output_text,
                        finish_reason: Some(reason.to_string()),
                        error,
                    };
                }
                None => {}
            }
        }
    }

    pub async fn flush_cache(&self, api_key: Option<&str>) -> Result<(), LoadgenError> {
        let mut request = tonic::Request::new(pb::FlushCacheRequest::default());
        authorize(&mut request, api_key).map_err(LoadgenError::InvalidArgs)?;
        self.client
            .clone()
            .flush_cache(request)
            .await
            .map_err(|status| LoadgenError::Refused {
                url: self.url.clone(),
                reason: format!("FlushCache: {}", status_text(&status)),
            })?;
        Ok(())
    }
}

fn finish_reason(code: i32) -> &'static str {
    match pb::FinishReason::try_from(code) {
        Ok(pb::FinishReason::Stop) => "stop",
        Ok(pb::FinishReason::Length) => "length",
        Ok(pb::FinishReason::Abort) => "abort",
        _ => "unspecified",
    }
}
