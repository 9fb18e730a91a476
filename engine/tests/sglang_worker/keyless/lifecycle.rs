//! The SGLang door's calls that end early or unusually: an abort that reaches a request
//! of several samples while it waits, a scheduler that died, non-streamed logprobs too
//! large for one message, and calls that send no request id.

use super::*;

/// The prompt these tests generate from.
fn counting(engine: &EngineHandle) -> Vec<u32> {
    engine
        .tokenizer()
        .encode_without_bos_eos("Count to a thousand: one, two, three,", true)
        .unwrap()
}

/// An abort that reaches a request of `n` samples while its first sample still waits
/// ends all of them: the later samples are queued only once the first has begun, so
/// before they would have run to their end after an abort that named them.
#[test]
fn an_abort_while_waiting_ends_every_sample() {
    let mut config = EngineConfig::new(common::model_path());
    config.kv_budget_bytes = 128 << 20;
    config.max_context_len = 2048;
    config.scheduler.max_running_requests = 1;
    let engine = EngineHandle::start(config).unwrap();
    let ids = counting(&engine);
    let addr = serve(engine.clone(), Some("gateway"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut c = client(addr).await;
        let mut busy = c
            .generate(endless(ids.clone(), "busy"))
            .await
            .unwrap()
            .into_inner();
        busy.message().await.unwrap().unwrap();
        // The load snapshot is published after each step: the step that admitted the busy
        // request streamed its first token before showing it running. Until it shows, an
        // older snapshot (the busy request waiting) would pass for the samples' wait below.
        let running_and_waiting = || {
            let info = engine.server_info();
            (info.running_requests, info.waiting_requests)
        };
        wait_until("the busy request shown running", || {
            running_and_waiting() == (1, 0)
        })
        .await;
        let mut request = endless(ids.clone(), "samples");
        request.sampling_params.as_mut().unwrap().n = 4;
        request.sampling_params.as_mut().unwrap().temperature = 1.0;
        request.sampling_params.as_mut().unwrap().max_new_tokens = Some(8);
        let mut samples_client = c.clone();
        let call = tokio::spawn(async move { samples_client.generate(request).await });
        // Its first sample waits behind the busy one.
        wait_until("the first sample shown waiting", || {
            running_and_waiting().1 > 0
        })
        .await;
        let aborted = abort(&mut c, "samples", "gw-key").await;
        assert!(aborted.success, "{aborted:?}");
        let mut stream = call.await.unwrap().unwrap().into_inner();
        let mut reasons = Vec::new();
        while let Some(message) = stream.message().await.unwrap() {
            if let Some(pb::generate_response::Response::Complete(done)) = message.response {
                reasons.push((done.index, done.finish_reason));
            }
        }
        reasons.sort();
        let want: Vec<(u32, String)> = (0..4).map(|i| (i, "abort".to_string())).collect();
        assert_eq!(reasons, want);
        // The busy request only held the running slot; on a fast machine it may have
        // reached its length by now, so it ends either way.
        abort(&mut c, "busy", "gw-key").await;
        let busy_end = finish_reason(&mut busy).await;
        assert!(
            matches!(busy_end.as_deref(), Some("abort" | "length")),
            "{busy_end:?}"
        );
    });
    common::wait_idle(&engine);
}

/// Polls `done` until it holds; fails after half a minute (a request that ended before
/// the poll saw it would otherwise hang the test).
async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never saw {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A scheduler that died (a panic in it) is reported: `HealthCheck` says unhealthy and
/// HTTP `/health` answers 503, so a gateway or a probe stops routing to this worker, and
/// every new request is refused.
#[test]
fn health_check_reports_a_stopped_scheduler() {
    use engine::model::scripted::ScriptedModel;
    let model = ScriptedModel::new(50_000, 256).with_forward_hook(Box::new(|_| {
        panic!("a forward pass failed beyond recovery (test)");
    }));
    let engine = common::scripted::start_model_with(model, 1024, |_| {});
    let servers = common::servers::serve_engine(engine.clone());
    let http_health = || async {
        let response = reqwest::get(format!("http://{}/health", servers.http))
            .await
            .unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        assert_eq!(http_health().await.0, 200);
        let mut c = client(servers.grpc).await;
        let health = c
            .health_check(pb::HealthCheckRequest::default())
            .await
            .unwrap()
            .into_inner();
        assert!(health.healthy, "{health:?}");
        // The first forward pass panics: the call ends without a completion.
        let mut request = generate(vec![5, 6, 7]);
        request.request_id = "doomed".into();
        if let Ok(stream) = c.generate(request).await {
            let mut stream = stream.into_inner();
            while let Ok(Some(_)) = stream.message().await {}
        }
        while engine.is_alive() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let health = c
            .health_check(pb::HealthCheckRequest::default())
            .await
            .unwrap()
            .into_inner();
        assert!(!health.healthy, "{health:?}");
        assert!(health.message.contains("stopped"), "{health:?}");
        let (status, body) = http_health().await;
        assert_eq!(status, 503, "{body}");
        assert!(body.contains("stopped"), "{body}");
        let refused = c.generate(generate(vec![5, 6, 7])).await;
        assert_eq!(
            refused.err().map(|s| s.code()),
            Some(tonic::Code::Unavailable)
        );
    });
}

/// A response that is not streamed carries all its log-probabilities in one message;
/// one that could outgrow what a client decodes (4 MiB) is refused up front, naming the
/// way out, where the same request streamed is served.
#[test]
fn logprobs_that_cannot_fit_one_message_must_be_streamed() {
    use engine::model::scripted::ScriptedModel;
    let model = ScriptedModel::new(50_000, 32_768);
    let engine = common::scripted::start_model_with(model, 40_000, |config| {
        config.max_context_len = 32_768;
    });
    let servers = common::servers::serve_engine(engine.clone());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut c = client(servers.grpc).await;
        let request = |stream: bool, top: i32| {
            let mut request = generate(vec![5, 6, 7]);
            request.stream = stream;
            request.return_logprob = true;
            request.logprob_start_len = -1;
            request.top_logprobs_num = top;
            request.sampling_params.as_mut().unwrap().max_new_tokens = Some(30_000);
            request
        };
        let refused = c.generate(request(false, 20)).await.err().unwrap();
        assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{refused:?}");
        assert!(
            refused.message().contains("stream the response"),
            "{refused:?}"
        );
        // Without an explicit budget the output is capped to fit instead.
        let mut implicit = request(false, 20);
        implicit.sampling_params.as_mut().unwrap().max_new_tokens = None;
        assert!(c.generate(implicit).await.is_ok());
        // Fewer alternatives fit; streamed, any number does. (Dropped at once: aborted.)
        let fits = c.generate(request(false, 1)).await;
        assert!(fits.is_ok(), "{:?}", fits.err());
        assert!(c.generate(request(true, 20)).await.is_ok());
    });
    common::wait_idle(&engine);
}

/// A call without a request id is named by the engine: the id comes back in its
/// responses, and an `Abort` by it ends the call.
#[test]
fn a_call_without_an_id_gets_one_it_can_be_aborted_by() {
    let engine = start_engine();
    let ids = counting(&engine);
    let addr = serve(engine.clone(), Some("gateway"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut c = client(addr).await;
        let mut stream = c
            .generate(endless(ids.clone(), ""))
            .await
            .unwrap()
            .into_inner();
        let first = stream.message().await.unwrap().unwrap();
        assert!(!first.request_id.is_empty(), "{first:?}");
        let aborted = abort(&mut c, &first.request_id, "gw-key").await;
        assert!(aborted.success, "{aborted:?}");
        assert_eq!(finish_reason(&mut stream).await.as_deref(), Some("abort"));
    });
    common::wait_idle(&engine);
}
