//! Requests that think first (`require_reasoning`) at the SGLang door: a structured output
//! holds only after the thinking, as SGLang's reasoning grammar backend holds it.

use super::*;

/// The pieces of `</think>` are pushed by `logit_bias`, so the thinking ends at once: with
/// `require_reasoning` the JSON follows it; without, the grammar holds from the first token
/// and the output is the JSON alone. A vocabulary without a `</think>` token counts no
/// reasoning tokens.
#[test]
fn a_grammar_waits_for_the_thinking_to_end() {
    let engine = start_engine();
    let tokenizer = engine.tokenizer();
    let prompt = tokenizer
        .encode_without_bos_eos(
            "<|im_start|>user\nPick a number.<|im_end|>\n<|im_start|>assistant\n<think>\n",
            true,
        )
        .unwrap();
    let think_end = tokenizer.encode_without_bos_eos("</think>", false).unwrap();
    let addr = serve(engine.clone(), Some("gateway"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let schema =
        r#"{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}"#;
    let outputs: Vec<(String, String, u32)> = rt.block_on(async {
        let mut c = client(addr).await;
        let mut outputs = Vec::new();
        for require_reasoning in [true, false] {
            let mut request = generate(prompt.clone());
            request.require_reasoning = require_reasoning;
            let params = request.sampling_params.as_mut().unwrap();
            params.max_new_tokens = Some(40);
            params.temperature = 0.0;
            params.logit_bias = think_end.iter().map(|id| (id.to_string(), 100.0)).collect();
            params.constraint = Some(pb::sampling_params::Constraint::JsonSchema(schema.into()));
            let mut stream = c.generate(request).await.unwrap().into_inner();
            while let Some(message) = stream.message().await.unwrap() {
                if let Some(pb::generate_response::Response::Complete(done)) = message.response {
                    let text = tokenizer.decode(&done.output_ids, false).unwrap();
                    outputs.push((text, done.finish_reason, done.reasoning_tokens));
                }
            }
        }
        outputs
    });
    let number = |json: &str| -> bool {
        serde_json::from_str::<serde_json::Value>(json).is_ok_and(|v| v["n"].is_i64())
    };
    let (thinking, finish, reasoning_tokens) = &outputs[0];
    let answer = thinking
        .strip_prefix("</think>")
        .unwrap_or_else(|| panic!("{thinking:?}"));
    assert!(number(answer.trim_start()), "{thinking:?}");
    assert_eq!((finish.as_str(), *reasoning_tokens), ("stop", 0));
    let (plain, finish, _) = &outputs[1];
    assert!(number(plain), "{plain:?}");
    assert_eq!(finish, "stop");
    common::wait_idle(&engine);
}
