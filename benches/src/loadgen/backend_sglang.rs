//! The SGLang worker protocol (`sglang.grpc.scheduler.SglangScheduler/Generate`), as the smg
//! gateway drives a worker: token ids in, streamed token-id chunks, one `GenerateComplete`
//! with usage (cached tokens included). Works against radixserve and any SGLang-protocol
//! worker. One HTTP/2 channel carries every request.

use super::backend::{
    authorize, grpc_channel, status_text, with_scheme, BackendOptions, Outcome, RequestSpec,
    ServerModel,
};
use super::timing::StreamTimer;
use super::LoadgenError;
use proto::sglang::common as common_pb;
use proto::sglang::scheduler as pb;
use proto::sglang::scheduler::generate_response::Response;
use proto::sglang::scheduler::sglang_scheduler_client::SglangSchedulerClient;
use std::time::Duration;
use tonic::transport::Channel;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Clone, Debug)]
pub struct SglangBackend {
    url: String,
    client: SglangSchedulerClient<Channel>,
    model: ServerModel,
    request_timeout: Duration,
}

impl SglangBackend {
    pub async fn connect(options: &BackendOptions) -> Result<Self, LoadgenError> {
        let url = with_scheme(&options.url);
        let channel = grpc_channel(&url, CONNECT_TIMEOUT).await?;
        let mut client = SglangSchedulerClient::new(channel);
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
        Ok(SglangBackend {
            url,
            client,
            model: ServerModel {
                name: info.served_model_name,
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
            tokenized: Some(pb::TokenizedInput {
                original_text: String::new(),
                input_ids: spec.prompt.to_vec(),
            }),
            sampling_params: Some(pb::SamplingParams {
                temperature: spec.temperature,
                top_p: 1.0,
                top_k: -1,
                repetition_penalty: 1.0,
                n: 1,
                max_new_tokens: Some(spec.output_len),
                ignore_eos: spec.ignore_eos,
                ..Default::default()
            }),
            logprob_start_len: -1,
            stream: true,
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
        loop {
            let message = match stream.message().await {
                Ok(Some(message)) => message,
                Ok(None) => {
                    return Outcome::failed(timer.finish(), "the stream ended without `complete`")
                }
                Err(status) => return Outcome::failed(timer.finish(), status_text(&status)),
            };
            match message.response {
                Some(Response::Chunk(chunk)) => timer.tokens(chunk.token_ids.len() as u32),
                Some(Response::Complete(done)) => {
                    let error = (done.finish_reason == "abort")
                        .then(|| "aborted by the server".to_string());
                    return Outcome {
                        timing: timer.finish(),
                        prompt_tokens: Some(done.prompt_tokens),
                        cached_tokens: Some(done.cached_tokens),
                        output_tokens: Some(done.completion_tokens),
                        output_ids: Some(done.output_ids),
                        output_text: String::new(),
                        finish_reason: Some(done.finish_reason),
                        error,
                    };
                }
                None => {}
            }
        }
    }

    pub async fn flush_cache(&self, api_key: Option<&str>) -> Result<(), LoadgenError> {
        let mut request = tonic::Request::new(common_pb::FlushCacheRequest::default());
        authorize(&mut request, api_key).map_err(LoadgenError::InvalidArgs)?;
        let response = self
            .client
            .clone()
            .flush_cache(request)
            .await
            .map_err(|status| LoadgenError::Refused {
                url: self.url.clone(),
                reason: format!("FlushCache: {}", status_text(&status)),
            })?
            .into_inner();
        if !response.success {
            return Err(LoadgenError::Refused {
                url: self.url.clone(),
                reason: format!("FlushCache: {}", response.message),
            });
        }
        Ok(())
    }
}
