//! Randomly generated requests (proptest) on both APIs: every answer is a 2xx or a shaped
//! 4xx (OpenAI) or a client error code (gRPC), and the engine is idle and leak-free after.

use super::*;

/// Any JSON value, biased towards the shapes the API expects.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-3i64..3000).prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-z<|>_ \\n]{0,12}".prop_map(Value::String),
        ".{0,40}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

const FIELDS: &[&str] = &[
    "model",
    "prompt",
    "messages",
    "max_tokens",
    "max_completion_tokens",
    "temperature",
    "top_p",
    "top_k",
    "min_p",
    "n",
    "stream",
    "stream_options",
    "stop",
    "stop_token_ids",
    "seed",
    "logprobs",
    "top_logprobs",
    "frequency_penalty",
    "presence_penalty",
    "repetition_penalty",
    "ignore_eos",
    "cache_salt",
    "echo",
    "suffix",
    "best_of",
];

/// A request body: known fields with any values, plausible ones more often.
fn body() -> impl Strategy<Value = Value> {
    let field_value = prop_oneof![
        3 => any_json(),
        1 => (1u32..40).prop_map(|n| json!(n)),
        1 => Just(json!("tell me a story")),
        1 => Just(json!([{"role": "user", "content": "hi"}])),
        1 => Just(json!(true)),
    ];
    prop::collection::btree_map(prop::sample::select(FIELDS), field_value, 0..9).prop_map(|m| {
        let mut map: serde_json::Map<String, Value> =
            m.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        // Keep generation short: the point is the validation, not the decode.
        if let Some(n) = map.get("max_tokens").and_then(Value::as_u64) {
            map.insert("max_tokens".into(), json!(n.min(40)));
        }
        Value::Object(map)
    })
}

/// Sends `body` and checks the answer: 2xx, or 4xx with an OpenAI-shaped error.
async fn check_http(path: &str, body: &Value) -> Result<(), TestCaseError> {
    let (status, text) = post(path, body.to_string()).await;
    prop_assert!(
        (200..300).contains(&status) || (400..500).contains(&status),
        "{path} {body}: {status} {text}"
    );
    if status >= 400 {
        let value: Value =
            serde_json::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert!(value["error"]["message"].is_string(), "{text}");
        prop_assert!(value["error"]["type"].is_string(), "{text}");
    } else if body["stream"] == json!(true) {
        prop_assert!(text.contains("data: "), "{text}");
    }
    Ok(())
}

#[test]
fn random_openai_bodies_get_2xx_or_a_shaped_4xx() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _turn = runtime.block_on(SERIAL.lock());
    let config = ProptestConfig {
        cases: 150,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(body in body(), chat in any::<bool>())| {
        let path = if chat { "/v1/chat/completions" } else { "/v1/completions" };
        runtime.block_on(check_http(path, &body))?;
    });
    runtime.block_on(async {
        let (status, _) = health().await;
        assert_eq!(status, 200);
        wait_idle().await;
    });
}

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>(),
        -3.0f32..3.0,
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(0.0f32)
    ]
}

fn grpc_request() -> impl Strategy<Value = pb::GenerateRequest> {
    let input = prop_oneof![
        Just(None),
        ".{0,60}".prop_map(|t| Some(Input::Text(t))),
        prop::collection::vec(any::<u32>(), 0..20)
            .prop_map(|ids| Some(Input::TokenIds(pb::TokenIds { ids }))),
        prop::collection::vec(("[a-z]{0,10}", ".{0,30}"), 0..4).prop_map(|turns| {
            Some(Input::Chat(pb::ChatInput {
                messages: turns
                    .into_iter()
                    .map(|(role, content)| pb::ChatMessage { role, content })
                    .collect(),
            }))
        }),
    ];
    let sampling = (
        (
            prop::option::of(any_f32()),
            prop::option::of(any::<u32>()),
            prop::option::of(any_f32()),
            prop::option::of(any_f32()),
            prop::option::of(any_f32()),
        ),
        (
            prop::option::of(prop_oneof![any::<u32>(), 1u32..40]),
            prop::collection::vec(".{0,8}", 0..4),
            prop::collection::vec(any::<u32>(), 0..4),
            prop::option::of(any::<u32>()),
            prop::option::of(any::<bool>()),
        ),
    )
        .prop_map(
            |(
                (temperature, top_k, top_p, min_p, frequency),
                (max_new, stop, stop_ids, logprobs, ignore_eos),
            )| {
                pb::SamplingParams {
                    temperature,
                    top_k,
                    top_p,
                    min_p,
                    frequency_penalty: frequency,
                    max_new_tokens: max_new.map(|n| n.min(40)),
                    stop,
                    stop_token_ids: stop_ids,
                    logprobs,
                    ignore_eos,
                    ..Default::default()
                }
            },
        );
    (
        input,
        prop::option::of(sampling),
        prop::option::of(".{0,20}"),
        prop::option::of(".{0,20}"),
    )
        .prop_map(
            |(input, sampling_params, request_id, cache_salt)| pb::GenerateRequest {
                input,
                sampling_params,
                request_id,
                cache_salt,
                ..Default::default()
            },
        )
}

#[test]
fn random_grpc_requests_get_ok_or_a_client_error() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _turn = runtime.block_on(SERIAL.lock());
    let addr = servers().grpc;
    let client = runtime
        .block_on(RadixServeClient::connect(format!("http://{addr}")))
        .unwrap();
    let config = ProptestConfig {
        cases: 150,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(request in grpc_request())| {
        let mut client = client.clone();
        let outcome = runtime.block_on(async {
            let mut stream = client.generate(request.clone()).await?.into_inner();
            while stream.message().await?.is_some() {}
            Ok::<(), tonic::Status>(())
        });
        if let Err(status) = outcome {
            prop_assert!(
                matches!(
                    status.code(),
                    tonic::Code::InvalidArgument | tonic::Code::ResourceExhausted
                ),
                "{request:?}: {status:?}"
            );
        }
    });
    runtime.block_on(wait_idle());
}
