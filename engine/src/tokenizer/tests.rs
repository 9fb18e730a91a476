//! Unit tests on a small hand-built vocabulary (the real model is in `tests/tokenizer_real.rs`).

use proptest::prelude::*;

use super::byte_level::ByteDecoder;
use super::*;
use crate::gguf::MetadataValue;

const CONTROL: i64 = 3;
const USER_DEFINED: i64 = 4;

/// Special tokens first (ids 0..=3), then the 256 byte tokens, then one token per merge.
const SPECIALS: [(&str, i64); 4] = [
    ("<|endoftext|>", CONTROL),
    ("<|im_start|>", CONTROL),
    ("<|im_end|>", CONTROL),
    ("<tool>", USER_DEFINED),
];
const MERGES: [&str; 12] = [
    "h e", "l l", "he ll", "hell o", "Ġ w", "o r", "Ġw or", "l d", "Ġwor ld", "1 2", "12 3", "Ġ Ġ",
];

fn strings(items: &[String]) -> MetadataValue {
    MetadataValue::Array(items.iter().cloned().map(MetadataValue::String).collect())
}

fn vocabulary() -> (Vec<String>, Vec<i64>) {
    let bytes = ByteDecoder::new();
    let mut tokens: Vec<String> = SPECIALS.iter().map(|(t, _)| t.to_string()).collect();
    let mut types: Vec<i64> = SPECIALS.iter().map(|(_, k)| *k).collect();
    for byte in 0..=255u8 {
        tokens.push(bytes.char_of_byte(byte).unwrap().to_string());
        types.push(1);
    }
    for merge in MERGES {
        tokens.push(merge.replace(' ', ""));
        types.push(1);
    }
    (tokens, types)
}

fn metadata_with(pre: &str, edit: impl FnOnce(&mut Metadata)) -> Metadata {
    let (tokens, types) = vocabulary();
    let mut md = Metadata::default();
    md.insert(
        "tokenizer.ggml.model".into(),
        MetadataValue::String("gpt2".into()),
    );
    md.insert(
        "tokenizer.ggml.pre".into(),
        MetadataValue::String(pre.into()),
    );
    md.insert("tokenizer.ggml.tokens".into(), strings(&tokens));
    md.insert(
        "tokenizer.ggml.token_type".into(),
        MetadataValue::Array(
            types
                .into_iter()
                .map(|t| MetadataValue::I32(t as i32))
                .collect(),
        ),
    );
    let merges: Vec<String> = MERGES.iter().map(|m| m.to_string()).collect();
    md.insert("tokenizer.ggml.merges".into(), strings(&merges));
    md.insert("tokenizer.ggml.bos_token_id".into(), MetadataValue::U32(1));
    md.insert("tokenizer.ggml.eos_token_id".into(), MetadataValue::U32(2));
    md.insert(
        "tokenizer.ggml.add_bos_token".into(),
        MetadataValue::Bool(false),
    );
    edit(&mut md);
    md
}

fn tokenizer(pre: &str) -> Tokenizer {
    Tokenizer::from_gguf_metadata(&metadata_with(pre, |_| {})).unwrap()
}

/// The small vocabulary (ChatML's control tokens, a user-defined `<tool>`), for other
/// modules' tests.
pub(crate) fn small_tokenizer() -> Tokenizer {
    tokenizer("smollm")
}

/// The small vocabulary with one more control token, `control`, at the end.
pub(crate) fn small_tokenizer_with_control(control: &str) -> Tokenizer {
    small_tokenizer_with_controls(&[control])
}

/// As [`small_tokenizer_with_control`], with each of `controls` a control token.
pub(crate) fn small_tokenizer_with_controls(controls: &[&str]) -> Tokenizer {
    let md = metadata_with("smollm", |md| {
        let (mut tokens, mut types) = vocabulary();
        for control in controls {
            tokens.push((*control).into());
            types.push(CONTROL);
        }
        md.insert("tokenizer.ggml.tokens".into(), strings(&tokens));
        let types = types.into_iter().map(|t| MetadataValue::I32(t as i32));
        md.insert(
            "tokenizer.ggml.token_type".into(),
            MetadataValue::Array(types.collect()),
        );
    });
    Tokenizer::from_gguf_metadata(&md).unwrap()
}

/// Built once for the property tests, which run hundreds of cases.
fn shared_smollm() -> &'static Tokenizer {
    static TOKENIZER: std::sync::OnceLock<Tokenizer> = std::sync::OnceLock::new();
    TOKENIZER.get_or_init(|| tokenizer("smollm"))
}

fn texts(tok: &Tokenizer, ids: &[u32]) -> Vec<String> {
    ids.iter()
        .map(|&id| tok.token_text(id).unwrap().to_string())
        .collect()
}

#[test]
fn merges_apply() {
    let tok = tokenizer("smollm");
    let ids = tok.encode("hello world", true).unwrap();
    assert_eq!(texts(&tok, &ids), ["hello", "Ġworld"]);
    assert_eq!(tok.decode(&ids, false).unwrap(), "hello world");
}

#[test]
fn smollm_splits_every_digit_but_gpt2_does_not() {
    let smollm = tokenizer("smollm");
    assert_eq!(
        texts(&smollm, &smollm.encode("123", true).unwrap()),
        ["1", "2", "3"]
    );
    let gpt2 = tokenizer("gpt2");
    assert_eq!(texts(&gpt2, &gpt2.encode("123", true).unwrap()), ["123"]);
}

#[test]
fn whitespace_runs_keep_the_last_space_for_the_word() {
    let tok = tokenizer("gpt2");
    let ids = tok.encode("   world", true).unwrap();
    assert_eq!(texts(&tok, &ids), ["ĠĠ", "Ġworld"]);
}

#[test]
fn control_tokens_parse_only_when_asked() {
    let tok = tokenizer("smollm");
    let text = "<|im_start|>hello<|im_end|>";
    let parsed = tok.encode(text, true).unwrap();
    assert_eq!(parsed, [1, tok.token_id("hello").unwrap(), 2]);
    let plain = tok.encode(text, false).unwrap();
    assert!(!plain.contains(&1) && !plain.contains(&2), "{plain:?}");
    assert_eq!(tok.decode(&plain, false).unwrap(), text);
    assert_eq!(tok.decode(&parsed, false).unwrap(), text);
    assert_eq!(tok.decode(&parsed, true).unwrap(), "hello");
}

#[test]
fn user_defined_tokens_always_parse_and_never_skip() {
    let tok = tokenizer("smollm");
    for parse_special in [true, false] {
        let ids = tok.encode("a<tool>b", parse_special).unwrap();
        assert_eq!(ids[1], 3, "{ids:?}");
        assert_eq!(tok.decode(&ids, true).unwrap(), "a<tool>b");
    }
    assert!(!tok.is_special(3));
    assert!(tok.is_special(1));
    assert_eq!(tok.token_kind(3), Some(TokenKind::UserDefined));
}

#[test]
fn bos_and_eos_follow_metadata() {
    let tok = tokenizer("smollm");
    assert_eq!(tok.encode("", true).unwrap(), Vec::<u32>::new());
    let md = metadata_with("smollm", |md| {
        md.insert(
            "tokenizer.ggml.add_bos_token".into(),
            MetadataValue::Bool(true),
        );
        md.insert(
            "tokenizer.ggml.add_eos_token".into(),
            MetadataValue::Bool(true),
        );
    });
    let tok = Tokenizer::from_gguf_metadata(&md).unwrap();
    let ids = tok.encode("hello", true).unwrap();
    assert_eq!(ids.first(), Some(&1));
    assert_eq!(ids.last(), Some(&2));
    assert_eq!(tok.encode_without_bos_eos("hello", true).unwrap().len(), 1);
}

#[test]
fn llama3_adds_bos_by_default() {
    let explicit = metadata_with("llama-bpe", |_| {});
    assert!(!Tokenizer::from_gguf_metadata(&explicit)
        .unwrap()
        .add_bos_token());
    // Without the key, the pre-tokenizer's default applies.
    let mut implicit = Metadata::default();
    for (key, value) in explicit.iter() {
        if key != "tokenizer.ggml.add_bos_token" {
            implicit.insert(key.to_string(), value.clone());
        }
    }
    let tok = Tokenizer::from_gguf_metadata(&implicit).unwrap();
    assert!(tok.add_bos_token());
    assert_eq!(
        tok.encode("hello", true).unwrap(),
        [1, tok.token_id("hello").unwrap()]
    );
}

#[test]
fn shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Tokenizer>();
    assert_send_sync::<ChatTemplate>();
    assert_send_sync::<DecodeStream>();
}

#[test]
fn stop_tokens() {
    let tok = tokenizer("smollm");
    assert_eq!(tok.eos_token_id(), Some(2));
    assert_eq!(tok.bos_token_id(), Some(1));
    // EOS, plus `<|endoftext|>` found by its text.
    assert_eq!(tok.stop_token_ids(), &[0, 2]);
    assert!(tok.is_stop_token(2) && !tok.is_stop_token(1));
    let md = metadata_with("smollm", |md| {
        md.insert("tokenizer.ggml.eot_token_id".into(), MetadataValue::U32(3));
    });
    let tok = Tokenizer::from_gguf_metadata(&md).unwrap();
    assert_eq!(tok.stop_token_ids(), &[0, 2, 3]);
}

/// The small vocabulary with `controls` as control tokens after it.
fn with_controls(controls: &[&str]) -> Tokenizer {
    let (mut tokens, mut types) = vocabulary();
    for control in controls {
        tokens.push(control.to_string());
        types.push(CONTROL);
    }
    let md = metadata_with("smollm", |md| {
        md.insert("tokenizer.ggml.tokens".into(), strings(&tokens));
        let types = types.into_iter().map(|t| MetadataValue::I32(t as i32));
        md.insert(
            "tokenizer.ggml.token_type".into(),
            MetadataValue::Array(types.collect()),
        );
    });
    Tokenizer::from_gguf_metadata(&md).unwrap()
}

/// The small vocabulary with harmony's markers (gpt-oss) as control tokens, for other
/// modules' tests.
pub(crate) fn harmony_tokenizer() -> Tokenizer {
    with_controls(&harmony::MARKERS)
}

#[test]
fn harmony_ends_outputs_at_return_and_call_but_not_at_the_end_of_a_message() {
    let tok = harmony_tokenizer();
    let id = |t: &str| tok.token_id(t).unwrap();
    assert!(tok.is_stop_token(id(harmony::RETURN)) && tok.is_stop_token(id(harmony::CALL)));
    assert!(!tok.is_stop_token(id(harmony::END)));
    assert!(tok.is_stop_token(2));
    // Without `<|return|>` and `<|call|>`, `<|end|>` (Phi-3's) ends outputs.
    let phi = with_controls(&[harmony::END]);
    assert!(phi.is_stop_token(phi.token_id(harmony::END).unwrap()));
}

#[test]
fn metadata_errors_are_clear() {
    let md = metadata_with("smollm", |md| {
        md.insert(
            "tokenizer.ggml.model".into(),
            MetadataValue::String("ugm".into()),
        );
    });
    let err = Tokenizer::from_gguf_metadata(&md).unwrap_err();
    assert!(
        matches!(err, TokenizerError::UnsupportedModel(ref m) if m == "ugm"),
        "{err}"
    );

    let md = metadata_with("no-such-pre", |_| {});
    let err = Tokenizer::from_gguf_metadata(&md).unwrap_err();
    assert!(
        matches!(err, TokenizerError::UnknownPreTokenizer(_)),
        "{err}"
    );

    let err = Tokenizer::from_gguf_metadata(&Metadata::default()).unwrap_err();
    assert!(matches!(
        err,
        TokenizerError::MissingKey("tokenizer.ggml.model")
    ));

    let md = metadata_with("smollm", |md| {
        md.insert(
            "tokenizer.ggml.token_type".into(),
            MetadataValue::Array(vec![MetadataValue::I32(1)]),
        );
    });
    let err = Tokenizer::from_gguf_metadata(&md).unwrap_err();
    assert!(matches!(err, TokenizerError::InvalidMetadata(_)), "{err}");

    let md = metadata_with("smollm", |md| {
        md.insert(
            "tokenizer.ggml.merges".into(),
            strings(&["nospace".to_string()]),
        );
    });
    let err = Tokenizer::from_gguf_metadata(&md).unwrap_err();
    assert!(err.to_string().contains("nospace"), "{err}");
}

#[test]
fn out_of_range_ids_are_errors() {
    let tok = tokenizer("smollm");
    let n = tok.vocab_size() as u32;
    assert!(matches!(
        tok.decode(&[n], false),
        Err(TokenizerError::TokenOutOfRange { id, .. }) if id == n
    ));
    assert!(tok.token_to_piece(n).is_err());
    assert!(tok.decode_stream(false).step(&tok, n).is_err());
}

#[test]
fn merge_split_matches_llama_cpp() {
    assert_eq!(split_merge("Ġ t"), Some(("Ġ".to_string(), "t".to_string())));
    assert_eq!(split_merge("a b c"), Some(("a".into(), "b c".into())));
    assert_eq!(split_merge("ab"), None);
    assert_eq!(split_merge(""), None);
}

#[test]
fn stream_holds_back_partial_characters() {
    let tok = tokenizer("smollm");
    let text = "h😀é世";
    let ids = tok.encode(text, true).unwrap();
    assert_eq!(ids.len(), 1 + 4 + 2 + 3, "one token per byte here");
    let mut stream = tok.decode_stream(false);
    let deltas: Vec<String> = ids
        .iter()
        .map(|&id| stream.step(&tok, id).unwrap())
        .collect();
    assert_eq!(deltas[0], "h");
    assert_eq!(deltas[1..4], ["", "", ""]);
    assert_eq!(deltas[4], "😀");
    assert_eq!(deltas[6], "é");
    assert_eq!(deltas[9], "世");
    assert!(!stream.has_pending());
    assert_eq!(stream.finish(), "");
    assert_eq!(deltas.concat(), text);
}

#[test]
fn stream_renders_invalid_bytes_like_decode() {
    let tok = tokenizer("smollm");
    let byte_id = |b: u8| 4 + u32::from(b);
    // A lead byte cut off by ASCII, a stray continuation byte, then a truncated tail.
    let ids = [
        byte_id(0xF0),
        byte_id(0x9F),
        byte_id(b'A'),
        byte_id(0x80),
        byte_id(0xE4),
        byte_id(0xB8),
    ];
    let mut stream = tok.decode_stream(false);
    let mut streamed = stream.step_all(&tok, &ids).unwrap();
    assert!(stream.has_pending());
    streamed.push_str(&stream.finish());
    assert_eq!(streamed, tok.decode(&ids, false).unwrap());
    assert_eq!(streamed, "\u{FFFD}A\u{FFFD}\u{FFFD}");
}

#[test]
fn stream_skips_special_tokens_when_asked() {
    let tok = tokenizer("smollm");
    let ids = tok.encode("<|im_start|>hello<|im_end|>", true).unwrap();
    let mut stream = tok.decode_stream(true);
    assert_eq!(stream.step_all(&tok, &ids).unwrap(), "hello");
}

proptest! {
    #[test]
    fn encode_decode_round_trips(text in "\\PC{0,40}|[ \t\n0-9a-z<>|_]{0,40}") {
        let tok = shared_smollm();
        for parse_special in [false, true] {
            let ids = tok.encode(&text, parse_special).unwrap();
            prop_assert_eq!(tok.decode(&ids, false).unwrap(), text.clone());
        }
    }

    #[test]
    fn stream_concatenation_equals_decode(ids in proptest::collection::vec(0u32..272, 0..40)) {
        let tok = shared_smollm();
        let mut stream = tok.decode_stream(false);
        let mut streamed = String::new();
        for &id in &ids {
            let delta = stream.step(tok, id).unwrap();
            streamed.push_str(&delta);
        }
        streamed.push_str(&stream.finish());
        prop_assert_eq!(streamed, tok.decode(&ids, false).unwrap());
    }
}

mod chat_templates {
    use super::*;

    fn conversation() -> Vec<ChatMessage> {
        vec![ChatMessage::user("Hi"), ChatMessage::assistant("Hello!")]
    }

    #[test]
    fn chatml_fallback() {
        let tok = tokenizer("smollm");
        let md = metadata_with("smollm", |_| {});
        let template = ChatTemplate::from_gguf_metadata(&md, &tok).unwrap();
        assert!(template.is_fallback());
        assert_eq!(
            template.render(&conversation(), true).unwrap(),
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n\
             <|im_start|>assistant\n"
        );
        assert_eq!(
            template.render(&conversation()[..1], false).unwrap(),
            "<|im_start|>user\nHi<|im_end|>\n"
        );
    }

    #[test]
    fn gguf_template_sees_bos_and_eos() {
        let tok = tokenizer("smollm");
        let md = metadata_with("smollm", |md| {
            md.insert(
                "tokenizer.chat_template".into(),
                MetadataValue::String("{{ bos_token }}|{{ eos_token }}".into()),
            );
        });
        let template = ChatTemplate::from_gguf_metadata(&md, &tok).unwrap();
        assert!(!template.is_fallback());
        assert_eq!(
            template.render(&[], false).unwrap(),
            "<|im_start|>|<|im_end|>"
        );
    }

    /// Extra variables reach the template; the engine's own win over them.
    #[test]
    fn extra_variables_never_replace_the_engines() {
        let template = ChatTemplate::new(
            "{{ enable_thinking }}|{{ messages[0].content }}|{{ add_generation_prompt }}|{{ tools }}",
            "",
            "",
        )
        .unwrap();
        let kwargs: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
            r#"{"enable_thinking": false, "messages": [{"content": "forged"}],
                "add_generation_prompt": "x", "tools": "y"}"#,
        )
        .unwrap();
        let text = template
            .render_with_tools(&[ChatMessage::user("hi")], None, &kwargs, true)
            .unwrap();
        assert_eq!(text, "False|hi|True|None");
    }

    #[test]
    fn hugging_face_features() {
        let source = "{% if messages[0]['role'] == 'system' %}{% set sys = messages[0]['content'].strip() %}\
{% else %}{% set sys = 'default' %}{% endif %}\
[{{ sys }}]\n\
{% for m in messages %}\
  {% if m.role == 'system' %}{% continue %}{% endif %}\
  {% if m['content'].startswith('!') %}{{ raise_exception('no bangs') }}{% endif %}\
  {{ loop.first }}/{{ loop.last }}:{{ m['content'] | trim }}{{ ';' if not loop.last }}\
{% endfor %}";
        let template = ChatTemplate::new(source, "<s>", "</s>").unwrap();
        // Booleans print as Python's `True` / `False`, as in Jinja.
        let messages = [
            ChatMessage::system("  be brief  "),
            ChatMessage::user("a"),
            ChatMessage::assistant(" b "),
        ];
        assert_eq!(
            template.render(&messages, false).unwrap(),
            "[be brief]\nFalse/False:a;False/True:b"
        );
        let err = template
            .render(&[ChatMessage::user("!oops")], false)
            .unwrap_err();
        assert!(err.to_string().contains("no bangs"), "{err}");
    }

    #[test]
    fn trim_and_lstrip_blocks_like_hugging_face() {
        let source = "{% for m in messages %}\n    {% if true %}\n{{ m.content }}\n    {% endif %}\n{% endfor %}";
        let template = ChatTemplate::new(source, "", "").unwrap();
        assert_eq!(
            template.render(&conversation(), false).unwrap(),
            "Hi\nHello!\n"
        );
    }

    #[test]
    fn tojson_prints_like_python() {
        let template =
            ChatTemplate::new("{{ messages[0] | tojson }}|{{ 'é' | tojson }}", "", "").unwrap();
        assert_eq!(
            template.render(&[ChatMessage::user("x")], false).unwrap(),
            r#"{"role": "user", "content": "x"}|"é""#
        );
    }

    /// A file whose template fails a short conversation, or runs past its bounds on one, is
    /// refused at load naming the key; a template that renders still loads.
    #[test]
    fn a_file_template_that_cannot_render_is_refused_naming_the_key() {
        let tok = tokenizer("smollm");
        let with_template = |source: &str| {
            metadata_with("smollm", |md| {
                md.insert(
                    "tokenizer.chat_template".into(),
                    MetadataValue::String(source.into()),
                );
            })
        };
        for (source, says) in [
            ("{% for m in messages %}", "syntax error"),
            ("{{ messages[0].content.nope() }}", "unknown method"),
            (
                "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
                "budget of",
            ),
            ("{{ 'a' | indent(2**63) }}", "indent"),
        ] {
            let err = ChatTemplate::from_gguf_metadata(&with_template(source), &tok).unwrap_err();
            assert!(
                matches!(err, TokenizerError::UnusableChatTemplate(_)),
                "{source}: {err}"
            );
            let err = err.to_string();
            assert!(
                err.contains("tokenizer.chat_template") && err.contains(says),
                "{source}: {err}"
            );
        }
        let md = with_template("{{ messages | length }}");
        assert!(ChatTemplate::from_gguf_metadata(&md, &tok).is_ok());
    }

    #[test]
    fn syntax_errors_surface_at_construction() {
        let err = ChatTemplate::new("{% for %}", "", "").unwrap_err();
        assert!(matches!(err, TokenizerError::Template(_)), "{err}");
    }
}

/// A SentencePiece vocabulary: control tokens, the 256 byte tokens, and scored pieces.
fn sentencepiece(add_space_prefix: bool) -> Tokenizer {
    let mut texts: Vec<String> = ["<unk>", "<s>", "</s>", "<turn>"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut types = vec![2, 3, 3, 3];
    for b in 0..=255u8 {
        texts.push(format!("<0x{b:02X}>"));
        types.push(6);
    }
    let pieces = [
        ("\u{2581}", -1.0),
        ("h", -5.0),
        ("e", -5.0),
        ("l", -5.0),
        ("o", -5.0),
        ("\u{2581}h", -3.0),
        ("ll", -2.0),
        ("\u{2581}he", -2.5),
        ("llo", -1.5),
        ("\u{2581}hello", -0.5),
        ("lo", -1.0),
    ];
    let mut scores = vec![0.0f32; texts.len()];
    for (text, score) in pieces {
        texts.push(text.to_string());
        types.push(1);
        scores.push(score);
    }
    let mut md = Metadata::default();
    md.insert(
        "tokenizer.ggml.model".into(),
        MetadataValue::String("llama".into()),
    );
    md.insert("tokenizer.ggml.tokens".into(), strings(&texts));
    md.insert(
        "tokenizer.ggml.token_type".into(),
        MetadataValue::Array(types.into_iter().map(MetadataValue::I32).collect()),
    );
    md.insert(
        "tokenizer.ggml.scores".into(),
        MetadataValue::Array(scores.into_iter().map(MetadataValue::F32).collect()),
    );
    md.insert("tokenizer.ggml.bos_token_id".into(), MetadataValue::U32(1));
    md.insert("tokenizer.ggml.eos_token_id".into(), MetadataValue::U32(2));
    md.insert(
        "tokenizer.ggml.add_space_prefix".into(),
        MetadataValue::Bool(add_space_prefix),
    );
    Tokenizer::from_gguf_metadata(&md).unwrap()
}

#[test]
fn sentencepiece_merges_by_score_falls_back_to_bytes_and_round_trips() {
    let tok = sentencepiece(true);
    let id = |t: &str| tok.token_id(t).unwrap();
    // BOS by default; the space prefix makes "hello" one piece.
    assert_eq!(
        tok.encode("hello", false).unwrap(),
        [1, id("\u{2581}hello")]
    );
    // Spaces become the piece marker inside the text too: each word merges to its piece.
    let ids = tok.encode_without_bos_eos("hello hello", false).unwrap();
    assert_eq!(ids, [id("\u{2581}hello"), id("\u{2581}hello")]);
    // A character no piece holds is spelled as its UTF-8 bytes.
    let ids = tok.encode_without_bos_eos("h\u{e9}", false).unwrap();
    assert_eq!(ids, [id("\u{2581}h"), id("<0xC3>"), id("<0xA9>")]);
    assert_eq!(tok.decode(&ids, false).unwrap(), " h\u{e9}");
    // Control tokens split the text only when asked; each raw run after one gets the prefix.
    let ids = tok.encode_without_bos_eos("<turn>hello", true).unwrap();
    assert_eq!(ids, [3, id("\u{2581}hello")]);
    let plain = tok.encode_without_bos_eos("<turn>", false).unwrap();
    assert!(!plain.contains(&3) && plain.len() > 1, "{plain:?}");
    let no_prefix = sentencepiece(false);
    let ids = no_prefix.encode_without_bos_eos("hello", false).unwrap();
    assert_eq!(no_prefix.decode(&ids, false).unwrap(), "hello");
    assert!(!ids.contains(&id("\u{2581}hello")));
}

/// SentencePiece metadata without byte tokens: UNK, BOS, EOS and the pieces `texts`.
fn sentencepiece_without_byte_tokens(texts: &[&str]) -> Metadata {
    let mut tokens = vec!["<unk>".to_string(), "<s>".into(), "</s>".into()];
    tokens.extend(texts.iter().map(|t| t.to_string()));
    let mut types = vec![2, 3, 3];
    types.extend(texts.iter().map(|_| 1));
    let mut md = Metadata::default();
    md.insert(
        "tokenizer.ggml.model".into(),
        MetadataValue::String("llama".into()),
    );
    md.insert("tokenizer.ggml.tokens".into(), strings(&tokens));
    md.insert(
        "tokenizer.ggml.token_type".into(),
        MetadataValue::Array(types.into_iter().map(MetadataValue::I32).collect()),
    );
    md.insert(
        "tokenizer.ggml.unknown_token_id".into(),
        MetadataValue::U32(0),
    );
    md.insert("tokenizer.ggml.bos_token_id".into(), MetadataValue::U32(1));
    md.insert(
        "tokenizer.ggml.add_space_prefix".into(),
        MetadataValue::Bool(false),
    );
    md
}

#[test]
fn sentencepiece_without_byte_tokens_spells_non_ascii_bytes_as_unk() {
    let tok = Tokenizer::from_gguf_metadata(&sentencepiece_without_byte_tokens(&["\u{e4}", "a"]))
        .unwrap();
    let id = |t: &str| tok.token_id(t).unwrap();
    // "中" is E4 B8 AD: no piece holds it, and its first byte is not the character "ä".
    assert_eq!(
        tok.encode_without_bos_eos("\u{4e2d}", false).unwrap(),
        [0, 0, 0]
    );
    assert_eq!(
        tok.encode_without_bos_eos("\u{e4}a", false).unwrap(),
        [id("\u{e4}"), id("a")]
    );
}

#[test]
fn token_types_and_scores_of_the_wrong_type_are_refused_naming_the_key() {
    let texts: Vec<MetadataValue> = ["x", "y"]
        .iter()
        .map(|s| MetadataValue::String(s.to_string()))
        .collect();
    let wrong = [
        (
            "tokenizer.ggml.token_type",
            MetadataValue::Array(texts.clone()),
        ),
        ("tokenizer.ggml.token_type", MetadataValue::U32(1)),
        ("tokenizer.ggml.scores", MetadataValue::Array(texts)),
        ("tokenizer.ggml.scores", MetadataValue::F32(0.0)),
    ];
    for (key, value) in wrong {
        let mut md = sentencepiece_without_byte_tokens(&["x", "y"]);
        md.insert(key.into(), value.clone());
        let err = Tokenizer::from_gguf_metadata(&md).unwrap_err();
        assert!(
            matches!(&err, TokenizerError::InvalidMetadata(m) if m.contains(key)),
            "{key} = {value:?}: {err}"
        );
    }
    // Scores of any numeric type are read.
    let mut md = sentencepiece_without_byte_tokens(&["x"]);
    md.insert(
        "tokenizer.ggml.scores".into(),
        MetadataValue::Array(vec![MetadataValue::I32(0); 4]),
    );
    Tokenizer::from_gguf_metadata(&md).unwrap();
    // A BPE vocabulary's token types are checked the same way.
    let md = metadata_with("smollm", |md| {
        md.insert(
            "tokenizer.ggml.token_type".into(),
            MetadataValue::Array(vec![MetadataValue::F32(1.0)]),
        );
    });
    let err = Tokenizer::from_gguf_metadata(&md).unwrap_err();
    assert!(
        err.to_string().contains("tokenizer.ggml.token_type"),
        "{err}"
    );
}

#[test]
fn newline_runs_alternate_with_the_text_between_them() {
    let runs: Vec<(bool, &str)> = super::newline_runs("a b\n\nc\n").collect();
    assert_eq!(
        runs,
        [(false, "a b"), (true, "\n\n"), (false, "c"), (true, "\n")]
    );
    assert_eq!(super::newline_runs("").count(), 0);
    let runs: Vec<(bool, &str)> = super::newline_runs("\nü").collect();
    assert_eq!(runs, [(true, "\n"), (false, "ü")]);
}
