//! A template whose thinking blocks are Magistral's `[THINK]` … `[/THINK]` (text in this
//! vocabulary; control tokens in Magistral's, see the unit tests of `ThinkTags` and the
//! grammar): its tags are the ones split at, counted, forced by a budget and held by the
//! answer's grammar, whole and streamed.

use super::*;

/// Mistral's turns; the generation prompt opens the thinking.
const MISTRAL_THINKING_TEMPLATE: &str = "{% for m in messages %}[INST]{{ m.content }}[/INST]\
    {% endfor %}{% if add_generation_prompt %}[THINK]{% endif %}\
    {# the block closes with [/THINK] #}";

fn mistral_servers() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| serve_template(MISTRAL_THINKING_TEMPLATE, 32 << 20, 1024))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn magistral_tags_split_count_and_end_the_thinking() {
    let servers = mistral_servers();
    let engine = &servers.engine;
    assert!(engine.splits_reasoning());
    assert_eq!(engine.think_tags(), engine::tokenizer::ThinkTags::MISTRAL);
    let close_tokens = (engine.tokenizer())
        .encode_without_bos_eos("[/THINK]", false)
        .unwrap()
        .len() as u64;
    let budget = 5;
    let body = json!({
        "messages": [{"role": "user", "content": "What is the capital of France?"}],
        "regex": ANSWER, "temperature": 0, "max_tokens": 40, "thinking_budget": budget,
    });
    let (status, reply) = post_json(servers.http, "/v1/chat/completions", body.clone()).await;
    assert_eq!(status, 200, "{reply}");
    let message = &reply["choices"][0]["message"];
    let thinking = message["reasoning_content"].as_str().unwrap().to_string();
    let content = message["content"].as_str().unwrap().to_string();
    assert!(
        !thinking.is_empty() && !thinking.contains("[/THINK]"),
        "{reply}"
    );
    let answer = regex::Regex::new(&format!("^{ANSWER}$")).unwrap();
    assert!(answer.is_match(&content), "{reply}");
    // The budget's tokens, then the close it forced.
    assert_eq!(
        reasoning_tokens(&reply),
        Some(budget + close_tokens),
        "{reply}"
    );
    // Unsplit, the output is the thinking, the close and the answer.
    let mut whole = body.clone();
    whole["separate_reasoning"] = json!(false);
    let (_, reply) = post_json(servers.http, "/v1/chat/completions", whole).await;
    let raw = reply["choices"][0]["message"]["content"].as_str().unwrap();
    let (before, after) = raw.split_once("[/THINK]").unwrap();
    assert_eq!(
        (before.trim(), after.trim_start()),
        (thinking.as_str(), content.as_str())
    );
    // Streamed, the same split.
    let mut body = body;
    body["stream"] = json!(true);
    body["stream_options"] = json!({"include_usage": true});
    let (mut got_thinking, mut got_content, mut tokens) = (String::new(), String::new(), None);
    for chunk in post_sse(servers.http, "/v1/chat/completions", body).await {
        let delta = &chunk["choices"][0]["delta"];
        got_thinking.push_str(delta["reasoning_content"].as_str().unwrap_or_default());
        got_content.push_str(delta["content"].as_str().unwrap_or_default());
        if let Some(usage) = chunk["usage"].as_object() {
            tokens = usage["completion_tokens_details"]["reasoning_tokens"].as_u64();
        }
    }
    assert_eq!((got_thinking, got_content), (thinking, content));
    assert_eq!(tokens, Some(budget + close_tokens));
    common::wait_idle(engine);
}
