//! The tokenizer a GGUF file carries: byte-level BPE (`tokenizer.ggml.model == "gpt2"`: SmolLM,
//! Llama 3, Qwen), SentencePiece (`"llama"`: Llama 2, Mistral, Gemma) or Gemma 4's BPE over
//! text whose spaces are `▁` (`"gemma4"`), its special tokens, an incremental detokenizer for
//! streaming, and the chat template.
//!
//! BPE encoding runs on the `tokenizers` crate, built in code from the GGUF vocabulary and
//! merges with llama.cpp's pre-tokenizer regexes; SentencePiece encoding is our own
//! (`spm`), after llama.cpp's; so ids match llama.cpp's for the same file. Decoding maps each
//! id to the bytes it stands for (every token is a fixed byte string); text is those bytes
//! read as UTF-8.

mod byte_level;
mod chat;
pub mod harmony;
mod hf_json;
mod pre_tokenizer;
mod reasoning_tokens;
mod special;
mod spm;
mod stream;
#[cfg(test)]
pub(crate) mod tests;
mod think;

use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::normalizers::replace::Replace;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{
    AddedToken, DecoderWrapper, NormalizerWrapper, PreTokenizerWrapper, SplitDelimiterBehavior,
};

use crate::gguf::{Metadata, MetadataValue};
use byte_level::ByteDecoder;
use pre_tokenizer::{pre_tokenizer_for, PreTokenizerSpec};

pub use chat::{
    ChatMessage, ChatTemplate, RenderReport, RenderedChat, ToolFormat, ToolSupport,
    CHATML_TEMPLATE, MAX_ITEMS, MAX_RENDERED_BYTES,
};
pub use reasoning_tokens::ReasoningTokens;
pub use stream::DecodeStream;
pub use think::{ThinkTags, Thinking};

/// Errors of building a tokenizer, encoding, decoding or rendering a chat template.
#[derive(Debug, thiserror::Error)]
pub enum TokenizerError {
    #[error("GGUF metadata has no `{0}` (or it has the wrong type)")]
    MissingKey(&'static str),
    #[error(
        "unsupported tokenizer model `{0}`: byte-level BPE (`gpt2`), SentencePiece (`llama`) \
         and Gemma 4's BPE (`gemma4`) are supported"
    )]
    UnsupportedModel(String),
    #[error(
        "unknown pre-tokenizer `{0}` (tokenizer.ggml.pre); supported: default, gpt2, smollm, \
         llama3/llama-bpe, qwen2, gpt-4o, tekken and their llama.cpp aliases"
    )]
    UnknownPreTokenizer(String),
    #[error("invalid tokenizer metadata: {0}")]
    InvalidMetadata(String),
    #[error("token id {id} is out of range (vocabulary size {vocab_size})")]
    TokenOutOfRange { id: u32, vocab_size: usize },
    #[error("tokenizer backend: {0}")]
    Backend(String),
    #[error("chat template: {0}")]
    Template(#[from] minijinja::Error),
    #[error("chat template: the rendered conversation exceeds {limit} bytes")]
    RenderTooLarge { limit: usize },
    /// The render was stopped: it ran past its instruction budget, or the interpreter failed.
    #[error("chat template: {0}")]
    TemplateAborted(String),
    #[error(
        "the model's chat template (tokenizer.chat_template) cannot render a short \
         conversation: {0}"
    )]
    UnusableChatTemplate(String),
}

pub type Result<T, E = TokenizerError> = std::result::Result<T, E>;

/// `tokenizer.ggml.token_type` values, as llama.cpp defines them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Normal,
    Unknown,
    /// Special tokens such as `<|im_start|>`: matched in text only when asked to, skippable
    /// when decoding.
    Control,
    /// Added tokens that are ordinary text: always matched in text, never skipped.
    UserDefined,
    Unused,
    Byte,
}

impl TokenKind {
    fn from_gguf(value: i64) -> Self {
        match value {
            2 => TokenKind::Unknown,
            3 => TokenKind::Control,
            4 => TokenKind::UserDefined,
            5 => TokenKind::Unused,
            6 => TokenKind::Byte,
            // 1 is normal; 0 (undefined) and unknown values are treated as normal text.
            _ => TokenKind::Normal,
        }
    }

    /// Control-like tokens: parsed only on request, skipped by `skip_special` decoding.
    pub fn is_special(self) -> bool {
        matches!(
            self,
            TokenKind::Control | TokenKind::Unknown | TokenKind::Unused
        )
    }

    /// Tokens whose vocabulary string is literal text rather than GPT-2's byte alphabet.
    fn is_literal(self) -> bool {
        self.is_special() || self == TokenKind::UserDefined
    }
}

/// Texts llama.cpp treats as end of generation when they are in the vocabulary.
const END_OF_GENERATION_TEXTS: [&str; 17] = [
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<end_of_turn>",
    // Gemma 4's end of turn.
    "<turn|>",
    "<|endoftext|>",
    "<|eom_id|>",
    "<EOT>",
    "_<EOT>",
    "<|end_of_text|>",
    // Harmony (gpt-oss): the answer's end, and a call's.
    "<|return|>",
    "<|call|>",
    // Kimi K2; MiniMax-M2's end of turn.
    "[EOT]",
    "[EOS]",
    "[e~[",
    // Where Gemma 4 hands over to a tool's result (the caller runs the tool).
    "<|tool_response>",
    "<eos>",
];

/// How text becomes ids.
enum Encoder {
    Bpe {
        /// Control tokens written in the text are parsed as such.
        parse_special: Box<tokenizers::Tokenizer>,
        /// The same, but control tokens in the text are encoded as plain text.
        plain_special: Box<tokenizers::Tokenizer>,
        /// Runs of newlines are looked up whole before they are merged (Gemma 4, as
        /// llama.cpp: its vocabulary has them without the merges that would build them).
        whole_newlines: bool,
    },
    Spm(Box<spm::Spm>),
}

/// The tokenizer built from GGUF metadata. Cheap to share (`Arc`), `Send + Sync`.
pub struct Tokenizer {
    encoder: Encoder,
    /// Vocabulary strings as stored in the file, by id.
    texts: Vec<String>,
    kinds: Vec<TokenKind>,
    /// The bytes each token decodes to: `piece_bytes[piece_starts[id]..piece_starts[id + 1]]`.
    piece_bytes: Vec<u8>,
    piece_starts: Vec<usize>,
    pre_tokenizer: String,
    bos: Option<u32>,
    eos: Option<u32>,
    unk: Option<u32>,
    pad: Option<u32>,
    eot: Option<u32>,
    eom: Option<u32>,
    add_bos: bool,
    add_eos: bool,
    /// Sorted, without duplicates.
    stop_ids: Vec<u32>,
    special: special::SpecialMatcher,
    /// Bytes of the longest token text (as stored or as decoded, whichever is longer).
    max_token_bytes: usize,
}

impl std::fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("vocab_size", &self.texts.len())
            .field("pre_tokenizer", &self.pre_tokenizer)
            .field("bos", &self.bos)
            .field("eos", &self.eos)
            .field("add_bos", &self.add_bos)
            .field("stop_ids", &self.stop_ids)
            .finish_non_exhaustive()
    }
}

impl Tokenizer {
    /// Builds the tokenizer from a GGUF file's `tokenizer.*` metadata.
    pub fn from_gguf_metadata(metadata: &Metadata) -> Result<Self> {
        let model = metadata
            .get_str("tokenizer.ggml.model")
            .ok_or(TokenizerError::MissingKey("tokenizer.ggml.model"))?;
        let (sentencepiece, escaped_bpe) = match model {
            "gpt2" => (false, false),
            "llama" => (true, false),
            "gemma4" => (false, true),
            other => return Err(TokenizerError::UnsupportedModel(other.to_string())),
        };
        let texts: Vec<String> = metadata
            .get_str_array("tokenizer.ggml.tokens")
            .ok_or(TokenizerError::MissingKey("tokenizer.ggml.tokens"))?
            .into_iter()
            .map(str::to_string)
            .collect();
        if texts.is_empty() || u32::try_from(texts.len()).is_err() {
            return Err(TokenizerError::InvalidMetadata(format!(
                "vocabulary has {} tokens",
                texts.len()
            )));
        }
        let token_types = optional_array(
            metadata,
            "tokenizer.ggml.token_type",
            "integers",
            MetadataValue::as_i64,
        )?;
        let mut kinds: Vec<TokenKind> = match token_types {
            Some(types) if types.len() == texts.len() => {
                types.into_iter().map(TokenKind::from_gguf).collect()
            }
            Some(types) => {
                return Err(TokenizerError::InvalidMetadata(format!(
                    "{} token types for {} tokens",
                    types.len(),
                    texts.len()
                )))
            }
            None => vec![TokenKind::Normal; texts.len()],
        };
        // As llama.cpp: an end-of-generation text the file marks otherwise is a control token
        // (Gemma 4's `<|tool_response>`), so text in a message cannot write it.
        for (text, kind) in texts.iter().zip(kinds.iter_mut()) {
            if !kind.is_special() && END_OF_GENERATION_TEXTS.contains(&text.as_str()) {
                *kind = TokenKind::Control;
            }
        }
        let pre_name = metadata.get_str("tokenizer.ggml.pre");
        let spec = if sentencepiece {
            // SentencePiece has no pre-tokenizer; llama.cpp adds BOS by default.
            PreTokenizerSpec {
                regexes: &[],
                ignore_merges: false,
                add_bos_default: true,
            }
        } else if escaped_bpe {
            // Lines and runs of newlines, merged whole (llama.cpp's `gemma4`).
            PreTokenizerSpec {
                regexes: &["[^\n]+|[\n]+"],
                ignore_merges: false,
                add_bos_default: true,
            }
        } else {
            pre_tokenizer_for(pre_name)?
        };

        // Ids outside the vocabulary count as absent, as in llama.cpp.
        let vocab_size = texts.len();
        let special_id = |key: &str| {
            metadata
                .get_u64(key)
                .and_then(|id| u32::try_from(id).ok())
                .filter(|&id| (id as usize) < vocab_size)
        };
        let bos = special_id("tokenizer.ggml.bos_token_id");
        let eos = special_id("tokenizer.ggml.eos_token_id");
        // llama.cpp adds BOS for Gemma 4 whatever the file says.
        let add_bos = escaped_bpe
            || metadata
                .get_bool("tokenizer.ggml.add_bos_token")
                .unwrap_or(spec.add_bos_default);
        let add_eos = metadata
            .get_bool("tokenizer.ggml.add_eos_token")
            .unwrap_or(false);
        if add_bos && bos.is_none() {
            return Err(TokenizerError::InvalidMetadata(
                "add_bos_token is set but there is no valid bos_token_id".into(),
            ));
        }
        if add_eos && eos.is_none() {
            return Err(TokenizerError::InvalidMetadata(
                "add_eos_token is set but there is no valid eos_token_id".into(),
            ));
        }

        // Whitespace-swallowing special tokens: a SentencePiece rule (Phi-3's vocabulary); BPE
        // vocabularies keep their whitespace.
        let rstrip = if sentencepiece {
            special::rstrip_ids(metadata.get_str("general.name"), &texts, &kinds)
        } else {
            Default::default()
        };
        let encoder = if sentencepiece {
            let scores = optional_array(metadata, "tokenizer.ggml.scores", "numbers", |v| {
                v.as_f64().map(|score| score as f32)
            })?;
            let add_space_prefix = metadata
                .get_bool("tokenizer.ggml.add_space_prefix")
                .unwrap_or(true);
            let unk = special_id("tokenizer.ggml.unknown_token_id");
            Encoder::Spm(Box::new(spm::Spm::new(
                &texts,
                &kinds,
                scores,
                unk,
                add_space_prefix,
                rstrip.clone(),
            )?))
        } else {
            let merges = metadata
                .get_str_array("tokenizer.ggml.merges")
                .ok_or(TokenizerError::MissingKey("tokenizer.ggml.merges"))?;
            let parse_special = build_backend(&texts, &kinds, &merges, &spec, escaped_bpe)?;
            let mut plain_special = parse_special.clone();
            plain_special.set_encode_special_tokens(true);
            Encoder::Bpe {
                parse_special: Box::new(parse_special),
                plain_special: Box::new(plain_special),
                whole_newlines: escaped_bpe,
            }
        };
        let escaped_pieces = sentencepiece || escaped_bpe;
        let (piece_bytes, piece_starts) = build_pieces(&texts, &kinds, escaped_pieces);

        let eot = special_id("tokenizer.ggml.eot_token_id");
        let eom = special_id("tokenizer.ggml.eom_token_id");
        let mut stop_ids: Vec<u32> = [eos, eot, eom].into_iter().flatten().collect();
        stop_ids.extend(
            texts
                .iter()
                .zip(&kinds)
                .enumerate()
                .filter(|(_, (text, kind))| {
                    kind.is_special() && END_OF_GENERATION_TEXTS.contains(&text.as_str())
                })
                .filter_map(|(id, _)| u32::try_from(id).ok()),
        );
        // Harmony ends a message with `<|end|>` and the output with `<|return|>` or
        // `<|call|>` (llama.cpp's rule: where both are control tokens, `<|end|>` goes on).
        let control = |text: &str| {
            texts
                .iter()
                .zip(&kinds)
                .position(|(t, k)| k.is_special() && t == text)
                .and_then(|id| u32::try_from(id).ok())
        };
        if let (Some(_), Some(_), Some(end)) = (
            control(harmony::RETURN),
            control(harmony::CALL),
            control(harmony::END),
        ) {
            stop_ids.retain(|&id| id != end);
        }
        stop_ids.sort_unstable();
        stop_ids.dedup();

        let special = special::SpecialMatcher::new(&texts, &kinds, rstrip)?;
        let max_token_bytes = piece_starts
            .windows(2)
            .map(|w| w[1] - w[0])
            .chain(texts.iter().map(String::len))
            .max()
            .unwrap_or(1)
            .max(1);
        Ok(Self {
            encoder,
            special,
            max_token_bytes,
            texts,
            kinds,
            piece_bytes,
            piece_starts,
            pre_tokenizer: pre_name.unwrap_or("default").to_string(),
            bos,
            eos,
            unk: special_id("tokenizer.ggml.unknown_token_id"),
            pad: special_id("tokenizer.ggml.padding_token_id"),
            eot,
            eom,
            add_bos,
            add_eos,
            stop_ids,
        })
    }

    /// Encodes text, adding BOS/EOS when the file asks for them (`add_bos_token`,
    /// `add_eos_token`; SmolLM2 asks for neither). With `parse_special`, control tokens
    /// written in the text (`<|im_start|>`) become their ids; without, they are plain text.
    pub fn encode(&self, text: &str, parse_special: bool) -> Result<Vec<u32>> {
        let mut ids = Vec::with_capacity(text.len() / 3 + 2);
        if let (true, Some(bos)) = (self.add_bos, self.bos) {
            ids.push(bos);
        }
        ids.extend(self.encode_without_bos_eos(text, parse_special)?);
        if let (true, Some(eos)) = (self.add_eos, self.eos) {
            ids.push(eos);
        }
        Ok(ids)
    }

    /// Encodes text without adding BOS/EOS (for text that follows other tokens, or a rendered
    /// chat template that already holds them).
    pub fn encode_without_bos_eos(&self, text: &str, parse_special: bool) -> Result<Vec<u32>> {
        let (backend, whole_newlines) = match &self.encoder {
            Encoder::Bpe {
                parse_special: on,
                whole_newlines,
                ..
            } if parse_special => (on, *whole_newlines),
            Encoder::Bpe {
                plain_special,
                whole_newlines,
                ..
            } => (plain_special, *whole_newlines),
            Encoder::Spm(spm) => {
                let mut ids = Vec::with_capacity(text.len() / 3 + 1);
                spm.encode(text, parse_special, &mut ids);
                return Ok(ids);
            }
        };
        let encode = |text: &str, ids: &mut Vec<u32>| {
            let encoding = backend
                .encode_fast(text, false)
                .map_err(|e| TokenizerError::Backend(e.to_string()))?;
            ids.extend_from_slice(encoding.get_ids());
            Ok::<_, TokenizerError>(())
        };
        let mut ids = Vec::with_capacity(text.len() / 3 + 1);
        if !whole_newlines {
            encode(text, &mut ids)?;
            return Ok(ids);
        }
        for (newlines, part) in newline_runs(text) {
            match backend.token_to_id(part) {
                Some(id) if newlines => ids.push(id),
                _ => encode(part, &mut ids)?,
            }
        }
        Ok(ids)
    }

    /// Decodes ids to text; bytes that are not valid UTF-8 become U+FFFD. With
    /// `skip_special`, control tokens produce nothing.
    pub fn decode(&self, ids: &[u32], skip_special: bool) -> Result<String> {
        let mut bytes = Vec::with_capacity(ids.len() * 4);
        for &id in ids {
            bytes.extend_from_slice(self.piece(id, skip_special)?);
        }
        Ok(match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
        })
    }

    /// The bytes one token decodes to (control tokens: their text). May be part of a UTF-8
    /// character: byte-level tokens can split a character.
    pub fn token_to_piece(&self, id: u32) -> Result<&[u8]> {
        self.piece(id, false)
    }

    /// A token's bytes, or nothing for a control token when `skip_special`.
    pub(crate) fn piece(&self, id: u32, skip_special: bool) -> Result<&[u8]> {
        let index = id as usize;
        let (Some(&start), Some(&end), Some(kind)) = (
            self.piece_starts.get(index),
            self.piece_starts.get(index + 1),
            self.kinds.get(index),
        ) else {
            return Err(self.out_of_range(id));
        };
        if skip_special && kind.is_special() {
            return Ok(&[]);
        }
        self.piece_bytes
            .get(start..end)
            .ok_or_else(|| self.out_of_range(id))
    }

    fn out_of_range(&self, id: u32) -> TokenizerError {
        TokenizerError::TokenOutOfRange {
            id,
            vocab_size: self.texts.len(),
        }
    }

    /// A token's vocabulary string as stored in the file (byte-level alphabet, e.g. `Ġthe`,
    /// or the literal text of a control token).
    pub fn token_text(&self, id: u32) -> Option<&str> {
        self.texts.get(id as usize).map(String::as_str)
    }

    /// The id of a vocabulary string (`"<|im_end|>"`, `"Ġthe"`).
    pub fn token_id(&self, text: &str) -> Option<u32> {
        match &self.encoder {
            Encoder::Bpe { parse_special, .. } => parse_special.token_to_id(text),
            Encoder::Spm(spm) => spm.token_id(text),
        }
    }

    pub fn token_kind(&self, id: u32) -> Option<TokenKind> {
        self.kinds.get(id as usize).copied()
    }

    /// Whether the id is a control-like token (see [`TokenKind::is_special`]).
    pub fn is_special(&self, id: u32) -> bool {
        self.token_kind(id).is_some_and(TokenKind::is_special)
    }

    pub fn vocab_size(&self) -> usize {
        self.texts.len()
    }

    /// `tokenizer.ggml.pre`, or `default` when the file has none.
    pub fn pre_tokenizer(&self) -> &str {
        &self.pre_tokenizer
    }

    pub fn bos_token_id(&self) -> Option<u32> {
        self.bos
    }

    pub fn eos_token_id(&self) -> Option<u32> {
        self.eos
    }

    pub fn unk_token_id(&self) -> Option<u32> {
        self.unk
    }

    pub fn pad_token_id(&self) -> Option<u32> {
        self.pad
    }

    /// End of turn (`tokenizer.ggml.eot_token_id`), if the file names one.
    pub fn eot_token_id(&self) -> Option<u32> {
        self.eot
    }

    /// End of message (`tokenizer.ggml.eom_token_id`), if the file names one.
    pub fn eom_token_id(&self) -> Option<u32> {
        self.eom
    }

    pub fn add_bos_token(&self) -> bool {
        self.add_bos
    }

    pub fn add_eos_token(&self) -> bool {
        self.add_eos
    }

    /// Ids that end generation, sorted: EOS, EOT, EOM, and (as llama.cpp does) control tokens
    /// whose text is a known end marker such as `<|im_end|>` or `<|endoftext|>`.
    pub fn stop_token_ids(&self) -> &[u32] {
        &self.stop_ids
    }

    pub fn is_stop_token(&self, id: u32) -> bool {
        self.stop_ids.binary_search(&id).is_ok()
    }

    /// A fresh incremental detokenizer for one request.
    pub fn decode_stream(&self, skip_special: bool) -> DecodeStream {
        DecodeStream::new(skip_special)
    }
}

/// The array under `key`, each element converted; `None` only when the key is absent (an
/// array of the wrong element type is an error, not a missing array).
fn optional_array<T>(
    metadata: &Metadata,
    key: &str,
    expected: &str,
    convert: impl Fn(&MetadataValue) -> Option<T>,
) -> Result<Option<Vec<T>>> {
    let Some(value) = metadata.get(key) else {
        return Ok(None);
    };
    let wrong = |found: &str| {
        TokenizerError::InvalidMetadata(format!(
            "`{key}` must be an array of {expected}, found {found}"
        ))
    };
    let items = value.as_array().ok_or_else(|| wrong(value.type_name()))?;
    items
        .iter()
        .map(|item| {
            convert(item).ok_or_else(|| wrong(&format!("an element of type {}", item.type_name())))
        })
        .collect::<Result<Vec<T>>>()
        .map(Some)
}

/// `text` cut into runs of newlines (`true`) and the text between them (`false`).
fn newline_runs(text: &str) -> impl Iterator<Item = (bool, &str)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let newlines = first == '\n';
        let end = rest
            .find(|c: char| (c == '\n') != newlines)
            .unwrap_or(rest.len());
        let (part, tail) = rest.split_at(end);
        rest = tail;
        Some((newlines, part))
    })
}

/// The `tokenizers` pipeline: split regexes, byte-level mapping (or, for Gemma 4, spaces
/// written `▁` and bytes of unknown characters as `<0xXX>` tokens), BPE, added tokens.
fn build_backend(
    texts: &[String],
    kinds: &[TokenKind],
    merges: &[&str],
    spec: &PreTokenizerSpec,
    escaped: bool,
) -> Result<tokenizers::Tokenizer> {
    let (regexes, ignore_merges) = (spec.regexes, spec.ignore_merges);
    let backend_err = |e: tokenizers::Error| TokenizerError::Backend(e.to_string());
    let vocab: Vocab = texts
        .iter()
        .enumerate()
        .filter_map(|(id, text)| Some((text.clone(), u32::try_from(id).ok()?)))
        .collect();
    let merges = merges
        .iter()
        .enumerate()
        .map(|(i, merge)| split_merge(merge).ok_or_else(|| bad_merge(i, merge)))
        .collect::<Result<Vec<_>>>()?;
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .ignore_merges(ignore_merges)
        .byte_fallback(escaped)
        .build()
        .map_err(backend_err)?;

    let mut steps = Vec::with_capacity(regexes.len() + 1);
    for regex in regexes {
        let split = Split::new(
            SplitPattern::Regex((*regex).to_string()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
        .map_err(backend_err)?;
        steps.push(PreTokenizerWrapper::Split(split));
    }
    let mut backend = tokenizers::Tokenizer::new(bpe);
    if escaped {
        let space = Replace::new(" ", spm::SPACE.to_string()).map_err(backend_err)?;
        backend.with_normalizer(Some(NormalizerWrapper::Replace(space)));
    } else {
        // The regexes above already split; ByteLevel only maps bytes to its alphabet.
        steps.push(PreTokenizerWrapper::ByteLevel(ByteLevel::new(
            false, false, false,
        )));
        backend.with_decoder(Some(DecoderWrapper::ByteLevel(ByteLevel::default())));
    }
    backend.with_pre_tokenizer(Some(PreTokenizerWrapper::Sequence(Sequence::new(steps))));

    let mut special = Vec::new();
    let mut user_defined = Vec::new();
    for (text, kind) in texts.iter().zip(kinds) {
        // An empty pattern would match everywhere.
        if text.is_empty() {
            continue;
        }
        if matches!(kind, TokenKind::Control | TokenKind::Unknown) {
            special.push(AddedToken::from(text.clone(), true));
        } else if *kind == TokenKind::UserDefined {
            // Matched in the raw text, before Gemma 4's spaces become `▁` (as llama.cpp).
            user_defined.push(AddedToken::from(text.clone(), false).normalized(!escaped));
        }
    }
    backend.add_special_tokens(&special);
    backend.add_tokens(&user_defined);
    Ok(backend)
}

/// Splits a merge `"a b"` at the first space after its first character (as llama.cpp does,
/// so a merge whose left part starts with a space still parses).
fn split_merge(merge: &str) -> Option<(String, String)> {
    let first_len = merge.chars().next()?.len_utf8();
    let space = first_len + merge[first_len..].find(' ')?;
    Some((merge[..space].to_string(), merge[space + 1..].to_string()))
}

fn bad_merge(index: usize, merge: &str) -> TokenizerError {
    TokenizerError::InvalidMetadata(format!("merge {index} `{merge}` is not two tokens"))
}

/// The byte string of every token, concatenated, with start offsets (`len + 1` of them).
/// `escaped`: spaces are `▁` and bytes `<0xXX>` tokens (SentencePiece, Gemma 4), not GPT-2's
/// byte alphabet.
fn build_pieces(texts: &[String], kinds: &[TokenKind], escaped: bool) -> (Vec<u8>, Vec<usize>) {
    let decoder = ByteDecoder::new();
    let mut bytes = Vec::with_capacity(texts.iter().map(String::len).sum());
    let mut starts = Vec::with_capacity(texts.len() + 1);
    for (text, kind) in texts.iter().zip(kinds) {
        starts.push(bytes.len());
        let byte = (*kind == TokenKind::Byte)
            .then(|| spm::parse_byte_token(text))
            .flatten();
        if kind.is_literal() {
            bytes.extend_from_slice(text.as_bytes());
        } else if !escaped {
            decoder.decode_into(text, &mut bytes);
        } else if let Some(byte) = byte {
            bytes.push(byte);
        } else {
            bytes.extend_from_slice(text.replace(spm::SPACE, " ").as_bytes());
        }
    }
    starts.push(bytes.len());
    (bytes, starts)
}
