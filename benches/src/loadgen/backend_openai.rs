//! Any OpenAI-compatible server: `POST /v1/completions` with `stream: true`, read as
//! server-sent events. Usage comes from the final chunk (`stream_options.include_usage`);
//! cached prompt tokens from `usage.prompt_tokens_details.cached_tokens`, or from llama.cpp's
//! `timings.cache_n` where a server reports only that.

use super::backend::{error_chain, BackendOptions, Outcome, RequestSpec, ServerModel};
use super::sse::SseParser;
use super::timing::StreamTimer;
use super::LoadgenError;
use serde_json::{json, Value};
use std::time::Duration;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Idle keep-alive connections are dropped after this, below the usual server-side limit
/// (llama.cpp's HTTP server closes idle connections after 5 s), so a request is rarely
/// written into a connection the server is closing.
const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(3);
/// How much of an error body to keep in a request's error.
const ERROR_BODY_CHARS: usize = 300;

#[derive(Clone, Debug)]
pub struct OpenAiBackend {
    client: reqwest::Client,
    completions_url: String,
    model: ServerModel,
    request_timeout: Duration,
    send_text: bool,
}

impl OpenAiBackend {
    /// Connects by listing `/v1/models`: checks the address and learns the model's name.
    pub async fn connect(options: &BackendOptions) -> Result<Self, LoadgenError> {
        let base = api_base(&options.url);
        let unreachable = |reason: String| LoadgenError::Unreachable {
            url: base.clone(),
            reason,
        };
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .pool_idle_timeout(POOL_IDLE_TIMEOUT)
            .build()
            .map_err(|e| unreachable(error_chain(&e)))?;
        let mut request = client
            .get(format!("{base}/models"))
            .timeout(CONNECT_TIMEOUT);
        if let Some(key) = &options.api_key {
            request = request.bearer_auth(key);
        }
        let response = request
            .send()
            .await
            .map_err(|e| unreachable(error_chain(&e)))?;
        let status = response.status();
        let body = response
            .text()
            .await
            .map_err(|e| unreachable(error_chain(&e)))?;
        if !status.is_success() {
            return Err(LoadgenError::Refused {
                url: base.clone(),
                reason: format!("GET /v1/models: {status}: {}", truncate(&body)),
            });
        }
        let listed = serde_json::from_str::<Value>(&body)
            .ok()
            .and_then(|v| v["data"][0]["id"].as_str().map(str::to_string));
        let name = match (&options.model_name, listed) {
            (Some(name), _) => name.clone(),
            (None, Some(name)) => name,
            (None, None) => {
                return Err(LoadgenError::InvalidArgs(format!(
                    "GET {base}/models listed no model: give --model-name"
                )))
            }
        };
        Ok(OpenAiBackend {
            client,
            completions_url: format!("{base}/completions"),
            model: ServerModel {
                name,
                max_context_len: None,
            },
            request_timeout: options.request_timeout,
            send_text: options.send_text,
        })
    }

    pub fn model(&self) -> &ServerModel {
        &self.model
    }

    pub fn wants_text(&self) -> bool {
        self.send_text
    }

    pub async fn generate(&self, spec: &RequestSpec<'_>) -> Outcome {
        let prompt = match spec.prompt_text {
            Some(text) if self.send_text => json!(text),
            _ => json!(spec.prompt),
        };
        let body = json!({
            "model": self.model.name,
            "prompt": prompt,
            "max_tokens": spec.output_len,
            "temperature": spec.temperature,
            "ignore_eos": spec.ignore_eos,
            "stream": true,
            "stream_options": {"include_usage": true},
        });
        let body = body.to_string();
        let request = || {
            let request = self
                .client
                .post(&self.completions_url)
                .header("content-type", "application/json")
                .timeout(self.request_timeout)
                .body(body.clone());
            match spec.api_key {
                Some(key) => request.bearer_auth(key),
                None => request,
            }
        };
        let mut timer = StreamTimer::start();
        let mut response = match request().send().await {
            Ok(response) => response,
            // A pooled connection closed by the server as the request went out: no status
            // came back, so the server never took the request; sent once more on a fresh
            // connection, timed from the first attempt.
            Err(e) if closed_before_response(&e) => match request().send().await {
                Ok(response) => response,
                Err(e) => return Outcome::failed(timer.finish(), error_chain(&e)),
            },
            Err(e) => return Outcome::failed(timer.finish(), error_chain(&e)),
        };
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            return Outcome::failed(
                timer.finish(),
                format!("HTTP {status}: {}", truncate(&text)),
            );
        }
        let mut parser = SseParser::default();
        let mut reply = StreamedReply::default();
        loop {
            let bytes = match response.chunk().await {
                Ok(Some(bytes)) => bytes,
                Ok(None) => break,
                Err(e) => return Outcome::failed(timer.finish(), error_chain(&e)),
            };
            for data in parser.push(&bytes) {
                if data.trim() == "[DONE]" {
                    return reply.into_outcome(timer);
                }
                if let Err(error) = reply.absorb(&data, &mut timer) {
                    return Outcome::failed(timer.finish(), error);
                }
            }
        }
        Outcome::failed(timer.finish(), "the stream ended without [DONE]")
    }
}

/// A send that failed on the connection itself (refused, reset, closed before any response),
/// not a timeout and not an answer from the server.
fn closed_before_response(e: &reqwest::Error) -> bool {
    (e.is_connect() || e.is_request()) && !e.is_timeout() && e.status().is_none()
}

/// What the chunks of one completion stream have said so far.
#[derive(Debug, Default)]
struct StreamedReply {
    text: String,
    finish_reason: Option<String>,
    prompt_tokens: Option<u32>,
    cached_tokens: Option<u32>,
    output_tokens: Option<u32>,
}

impl StreamedReply {
    /// Takes in one chunk; a chunk that is an error ends the request.
    fn absorb(&mut self, data: &str, timer: &mut StreamTimer) -> Result<(), String> {
        let chunk: Value = serde_json::from_str(data)
            .map_err(|e| format!("bad stream chunk ({e}): {}", truncate(data)))?;
        if let Some(error) = chunk.get("error") {
            let message = error["message"]
                .as_str()
                .map_or_else(|| truncate(&error.to_string()).to_string(), str::to_string);
            return Err(format!("server error: {message}"));
        }
        let choice = &chunk["choices"][0];
        if let Some(text) = choice["text"].as_str().filter(|t| !t.is_empty()) {
            // Text chunks do not say how many tokens they carry: one each (llama-server and
            // radixserve send one per decode step).
            timer.tokens(1);
            self.text.push_str(text);
        }
        if let Some(reason) = choice["finish_reason"].as_str() {
            self.finish_reason = Some(reason.to_string());
        }
        let usage = &chunk["usage"];
        let count = |v: &Value| v.as_u64().map(|n| n as u32);
        if usage.is_object() {
            self.prompt_tokens = count(&usage["prompt_tokens"]).or(self.prompt_tokens);
            self.output_tokens = count(&usage["completion_tokens"]).or(self.output_tokens);
            self.cached_tokens =
                count(&usage["prompt_tokens_details"]["cached_tokens"]).or(self.cached_tokens);
        }
        // llama.cpp's per-request timings: `cache_n` prompt tokens reused, `prompt_n` computed.
        let timings = &chunk["timings"];
        if let Some(cache_n) = count(&timings["cache_n"]) {
            self.cached_tokens = self.cached_tokens.or(Some(cache_n));
            if let Some(prompt_n) = count(&timings["prompt_n"]) {
                self.prompt_tokens = self.prompt_tokens.or(Some(prompt_n + cache_n));
            }
        }
        Ok(())
    }

    fn into_outcome(self, timer: StreamTimer) -> Outcome {
        let timing = timer.finish();
        Outcome {
            output_tokens: self.output_tokens.or(Some(timing.streamed_tokens)),
            timing,
            prompt_tokens: self.prompt_tokens,
            cached_tokens: self.cached_tokens,
            output_ids: None,
            output_text: self.text,
            finish_reason: self.finish_reason,
            error: None,
        }
    }
}

/// The API root (`.../v1`) for a server URL given with or without `/v1`.
fn api_base(url: &str) -> String {
    let url = if url.contains("://") {
        url.to_string()
    } else {
        format!("http://{url}")
    };
    let url = url.trim_end_matches('/');
    if url.ends_with("/v1") {
        url.to_string()
    } else {
        format!("{url}/v1")
    }
}

fn truncate(text: &str) -> &str {
    match text.char_indices().nth(ERROR_BODY_CHARS) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn base_urls() {
        assert_eq!(api_base("http://h:8000"), "http://h:8000/v1");
        assert_eq!(api_base("http://h:8000/v1/"), "http://h:8000/v1");
        assert_eq!(api_base("h:8000"), "http://h:8000/v1");
    }

    #[test]
    fn reads_openai_usage_and_llama_cpp_timings() {
        let mut timer = StreamTimer::start();
        let mut reply = StreamedReply::default();
        reply
            .absorb(
                r#"{"choices":[{"text":" a","finish_reason":null}]}"#,
                &mut timer,
            )
            .unwrap();
        reply
            .absorb(
                r#"{"choices":[{"text":"","finish_reason":"length"}],
                    "usage":{"prompt_tokens":7,"completion_tokens":3,
                             "prompt_tokens_details":{"cached_tokens":5}}}"#,
                &mut timer,
            )
            .unwrap();
        let outcome = reply.into_outcome(timer);
        assert_eq!(outcome.prompt_tokens, Some(7));
        assert_eq!(outcome.cached_tokens, Some(5));
        assert_eq!(outcome.output_tokens, Some(3));
        assert_eq!(outcome.finish_reason.as_deref(), Some("length"));
        assert_eq!(outcome.timing.streamed_tokens, 1);

        let mut timer = StreamTimer::start();
        let mut reply = StreamedReply::default();
        reply
            .absorb(
                r#"{"choices":[{"text":"x","finish_reason":"length"}],
                    "timings":{"cache_n":4,"prompt_n":2}}"#,
                &mut timer,
            )
            .unwrap();
        let outcome = reply.into_outcome(timer);
        assert_eq!(
            (outcome.prompt_tokens, outcome.cached_tokens),
            (Some(6), Some(4))
        );
        assert_eq!(outcome.output_tokens, Some(1), "counted from the stream");
    }

    #[test]
    fn error_chunks_fail_the_request() {
        let mut timer = StreamTimer::start();
        let mut reply = StreamedReply::default();
        let error = reply
            .absorb(r#"{"error":{"message":"boom","code":500}}"#, &mut timer)
            .unwrap_err();
        assert!(error.contains("boom"));
    }
}
