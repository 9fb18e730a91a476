//! The tokenizer, detokenizer and chat template of the real default model,
//! SmolLM2-135M-Instruct (Q4_1 GGUF).

// Shared fixtures outside `#[test]` functions unwrap too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use engine::gguf::GgufFile;
use engine::tokenizer::{ChatMessage, ChatTemplate, Tokenizer};

const MODEL: &str = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
const FETCH: &str = "scripts/fetch-model.sh";
/// Token ids produced by llama.cpp for the same file (`prompts[].prompt`, `.token_ids`).
const REFERENCE: &str = "tests/fixtures/smollm2_reference.json";

/// The model file, fetched with `scripts/fetch-model.sh` if absent; never skipped silently.
fn model_path() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join(MODEL);
    if !path.exists() {
        let status = Command::new("bash").arg(root.join(FETCH)).status();
        assert!(
            matches!(status, Ok(s) if s.success()) && path.exists(),
            "{MODEL} is missing and {FETCH} could not fetch it ({status:?}); run {FETCH}"
        );
    }
    path
}

struct Model {
    tokenizer: Tokenizer,
    template: ChatTemplate,
}

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let file = GgufFile::open(model_path()).unwrap();
        let tokenizer = Tokenizer::from_gguf_metadata(file.metadata()).unwrap();
        let template = ChatTemplate::from_gguf_metadata(file.metadata(), &tokenizer).unwrap();
        Model {
            tokenizer,
            template,
        }
    })
}

fn tok() -> &'static Tokenizer {
    &model().tokenizer
}

const ROUND_TRIP_TEXTS: &[&str] = &[
    "",
    "Hello, world!",
    "The quick brown fox jumps over the lazy dog.",
    "It's 3:14pm on 2024-01-02; pi ~= 3.14159, 1e-5, 0x1F, 1,000,000.",
    "   leading and trailing spaces   ",
    "two  spaces, four    spaces, one\ttab, two\t\ttabs",
    "line one\nline two\r\nline three\n\n\nafter blank lines\n",
    "fn main() {\n    println!(\"{}\", 42);\n}\n",
    "Ünïcödé àçcèñts: naïve café, straße, Ελληνικά, русский, עברית, العربية",
    "Emoji 😀🎉👍🏽 family 👨‍👩‍👧‍👦 flag 🇫🇷 keycap 1️⃣",
    "中文分词测试：你好，世界！日本語のテキスト、한국어 텍스트",
    "control \u{0}\u{1}\u{7f} and combining e\u{301} and zero-width \u{200b}",
    "<|im_start|> written as text <|im_end|> <|endoftext|>",
];

#[test]
fn vocabulary_facts() {
    let tok = tok();
    assert_eq!(tok.vocab_size(), 49152);
    assert_eq!(tok.pre_tokenizer(), "smollm");
    assert_eq!(tok.bos_token_id(), Some(1));
    assert_eq!(tok.eos_token_id(), Some(2));
    assert!(!tok.add_bos_token());
    assert_eq!(tok.token_id("<|im_start|>"), Some(1));
    assert_eq!(tok.token_id("<|im_end|>"), Some(2));
    assert_eq!(tok.token_id("<|endoftext|>"), Some(0));
    assert!(tok.is_special(1) && tok.is_special(2) && !tok.is_special(198));
    // EOS (= the chat turn end) and `<|endoftext|>`.
    assert_eq!(tok.stop_token_ids(), &[0, 2]);
    assert_eq!(tok.token_to_piece(198).unwrap(), b"\n");
    assert_eq!(tok.token_to_piece(2).unwrap(), b"<|im_end|>");
}

#[test]
fn round_trips() {
    let tok = tok();
    for text in ROUND_TRIP_TEXTS {
        for parse_special in [false, true] {
            let ids = tok.encode(text, parse_special).unwrap();
            assert_eq!(
                tok.decode(&ids, false).unwrap(),
                *text,
                "parse_special={parse_special} ids={ids:?}"
            );
        }
    }
}

#[test]
fn known_encodings() {
    let tok = tok();
    assert_eq!(tok.encode("\n", true).unwrap(), [198]);
    assert_eq!(
        tok.encode("Hello world! 123", true).unwrap(),
        [19556, 905, 17, 216, 33, 34, 35]
    );
    assert_eq!(
        tok.encode("  multiple   spaces", true).unwrap(),
        [216, 2701, 256, 5600]
    );
}

#[test]
fn digits_are_split_one_per_token() {
    let tok = tok();
    let ids = tok.encode("12345", true).unwrap();
    assert_eq!(ids.len(), 5);
    for (id, digit) in ids.iter().zip('1'..='5') {
        assert_eq!(
            tok.token_to_piece(*id).unwrap(),
            digit.to_string().as_bytes()
        );
    }
    assert_eq!(
        tok.encode(" 2024", true).unwrap().len(),
        5,
        "space, then 4 digits"
    );
}

#[test]
fn special_tokens_in_text() {
    let tok = tok();
    let parsed = tok.encode("<|im_start|>user\nHi<|im_end|>", true).unwrap();
    assert_eq!(parsed.first(), Some(&1));
    assert_eq!(parsed.last(), Some(&2));
    assert_eq!(parsed.iter().filter(|&&id| tok.is_special(id)).count(), 2);
    assert_eq!(tok.decode(&parsed, true).unwrap(), "user\nHi");

    let plain = tok.encode("<|im_start|>user\nHi<|im_end|>", false).unwrap();
    assert!(plain.len() > parsed.len());
    assert!(plain.iter().all(|&id| !tok.is_special(id)), "{plain:?}");
}

#[test]
fn chat_template_renders_smollm2_format() {
    let template = &model().template;
    assert!(!template.is_fallback());
    let default_system = "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, \
                          trained by Hugging Face<|im_end|>\n";
    assert_eq!(
        template.render(&[ChatMessage::user("Hi")], true).unwrap(),
        format!("{default_system}<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
    );
    let conversation = [
        ChatMessage::system("Be brief."),
        ChatMessage::user("Hi"),
        ChatMessage::assistant("Hello!"),
        ChatMessage::user("2+2?"),
    ];
    assert_eq!(
        template.render(&conversation, false).unwrap(),
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n\
         <|im_start|>assistant\nHello!<|im_end|>\n<|im_start|>user\n2+2?<|im_end|>\n"
    );

    // The rendered prompt tokenizes with its markers as single special tokens.
    let prompt = template.render(&[ChatMessage::user("Hi")], true).unwrap();
    let ids = model().tokenizer.encode(&prompt, true).unwrap();
    assert_eq!(ids.iter().filter(|&&id| id == 1).count(), 3);
    assert_eq!(ids.iter().filter(|&&id| id == 2).count(), 2);
    assert_eq!(ids.first(), Some(&1));
}

#[test]
fn streaming_never_splits_characters() {
    let tok = tok();
    let text = "Emoji 😀🎉👍🏽 family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 中文 ✨🦀\u{1F9D1}\u{200D}\u{1F680}!";
    let ids = tok.encode(text, true).unwrap();
    let mut stream = tok.decode_stream(false);
    let mut streamed = String::new();
    let mut held_back = 0;
    for &id in &ids {
        let delta = stream.step(tok, id).unwrap();
        // Text is whole characters only: no replacement chars, and a piece that ends
        // mid-character produces nothing yet.
        assert!(!delta.contains('\u{FFFD}'), "{delta:?}");
        if std::str::from_utf8(tok.token_to_piece(id).unwrap()).is_err() {
            held_back += 1;
        }
        streamed.push_str(&delta);
    }
    assert!(
        held_back > 0,
        "the text should contain tokens that split characters"
    );
    assert!(!stream.has_pending());
    streamed.push_str(&stream.finish());
    assert_eq!(streamed, tok.decode(&ids, false).unwrap());
    assert_eq!(streamed, text);
}

#[test]
fn streaming_matches_decode_on_every_text() {
    let tok = tok();
    for text in ROUND_TRIP_TEXTS {
        let ids = tok.encode(text, true).unwrap();
        for skip_special in [false, true] {
            let mut stream = tok.decode_stream(skip_special);
            let mut streamed = stream.step_all(tok, &ids).unwrap();
            streamed.push_str(&stream.finish());
            assert_eq!(streamed, tok.decode(&ids, skip_special).unwrap());
        }
    }
}

/// Exact ids against llama.cpp's tokenization of the same file, when the fixture is present.
#[test]
fn matches_llama_cpp_reference() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(REFERENCE);
    if !path.exists() {
        eprintln!("{REFERENCE} not present: llama.cpp reference comparison not run");
        return;
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let prompts = json["prompts"].as_array().expect("`prompts` array");
    assert!(!prompts.is_empty());
    let tok = tok();
    let mut mismatches = Vec::new();
    for entry in prompts {
        let prompt = entry["prompt"].as_str().expect("`prompt` string");
        let expected: Vec<u32> = entry["token_ids"]
            .as_array()
            .expect("`token_ids` array")
            .iter()
            .map(|id| u32::try_from(id.as_u64().expect("token id")).unwrap())
            .collect();
        // Special tokens are parsed unless the fixture says otherwise.
        let parse_special = entry
            .get("parse_special")
            .or_else(|| json.get("parse_special"))
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(true);
        let actual = tok.encode(prompt, parse_special).unwrap();
        if actual != expected {
            mismatches.push(format!(
                "{prompt:?}\n  expected {expected:?}\n  actual   {actual:?}"
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} prompts differ from llama.cpp:\n{}",
        mismatches.len(),
        prompts.len(),
        mismatches.join("\n")
    );
}
