//! Pre-tokenizers of byte-level BPE vocabularies, named by GGUF's `tokenizer.ggml.pre`.
//!
//! Each is a list of regexes applied in turn, each match and each gap between matches becoming
//! its own piece. The regexes and per-name options are those llama.cpp uses, so that token ids
//! match what llama.cpp produces for the same file.

use super::TokenizerError;

/// GPT-2's original split: contractions, letter runs, digit runs, other runs, spaces.
const GPT2: &str = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)";

/// Llama 3's split (case-insensitive contractions, digit groups of at most three).
const LLAMA3: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Qwen 2's split: as Llama 3's but every digit alone.
const QWEN2: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Qwen3.5's split: Qwen2's, with combining marks kept in the letter runs they follow.
const QWEN35: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// GPT-4o's split (o200k; Phi-4-mini, Llama 4): letter runs that follow a word's casing, each
/// with its contraction, digit groups of at most three (the regex of its `tokenizer.json`).
const GPT4O: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Mistral's Tekken split (Nemo, Small 3.x, Magistral, Devstral, Ministral): GPT-4o's letter
/// runs without the contractions, every digit alone (the regex of its `tokenizer.json`).
const TEKKEN: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// DeepSeek V3's split (V3, R1 and V3.1's `deepseek-v3` files): digit groups of at most three,
/// runs of Han and kana, then letter runs with their marks, punctuation runs and spaces.
const DEEPSEEK_V3: &[&str] = &[
    r##"\p{N}{1,3}"##,
    r##"[一-龥぀-ゟ゠-ヿ]+"##,
    r##"[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"##,
];

/// Kimi K2's split as llama.cpp makes it (by hand, after its `tokenization_kimi.py`): runs of
/// Han (the CJK ideograph blocks llama.cpp counts as Han, not Unicode's Han script: `々` and
/// `〇` are a letter and a digit there) alone, then letter runs without them (whatever their
/// case, where the model's own regex would split a lowercase run from the capitals after
/// it), each with its contraction, then Llama 3's digit groups, punctuation runs and spaces.
const KIMI_K2: &str = r"[\x{4E00}-\x{9FFF}\x{3400}-\x{4DBF}\x{20000}-\x{2A6DF}\x{2A700}-\x{2EBEF}\x{F900}-\x{FAFF}\x{2F800}-\x{2FA1F}]+|[^\r\n\p{L}\p{N}]?[\p{L}&&[^\x{4E00}-\x{9FFF}\x{3400}-\x{4DBF}\x{20000}-\x{2A6DF}\x{2A700}-\x{2EBEF}\x{F900}-\x{FAFF}\x{2F800}-\x{2FA1F}]]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// DeepSeek LLM's split (V2 and V2-Lite's `deepseek-llm` files): line breaks, Latin and other
/// cased-script letter runs, ASCII and full-width punctuation runs, trailing space, CJK runs
/// and digit runs, in turn.
const DEEPSEEK_LLM: &[&str] = &[
    r##"[\r\n]"##,
    r##"\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+"##,
    r##"\s?[!-/:-~！-／：-～‘-‟　-。]+"##,
    r##"\s+$"##,
    r##"[一-龥ࠀ-一가-퟿]+"##,
    r##"\p{N}+"##,
];

/// How one named pre-tokenizer splits text, and the encoding options that come with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PreTokenizerSpec {
    /// Applied in order; later regexes split the pieces the earlier ones made.
    pub(crate) regexes: &'static [&'static str],
    /// Whole pieces found in the vocabulary are taken as one token without merging.
    pub(crate) ignore_merges: bool,
    /// Whether BOS is added when the file has no `tokenizer.ggml.add_bos_token`.
    pub(crate) add_bos_default: bool,
}

impl PreTokenizerSpec {
    const fn plain(regexes: &'static [&'static str]) -> Self {
        Self {
            regexes,
            ignore_merges: false,
            add_bos_default: false,
        }
    }
}

/// The pre-tokenizer a GGUF names; `None` (no key) is llama.cpp's "default".
pub(crate) fn pre_tokenizer_for(name: Option<&str>) -> Result<PreTokenizerSpec, TokenizerError> {
    let spec = match name.unwrap_or("default") {
        "" | "default" => {
            PreTokenizerSpec::plain(&[r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", "[0-9][0-9][0-9]"])
        }
        "gpt2" | "gpt-2" | "phi-2" | "mpt" | "olmo" | "jais" | "roberta-bpe" | "exaone4" => {
            PreTokenizerSpec::plain(&[GPT2])
        }
        // SmolLM and the StarCoder family: every digit alone, then GPT-2's split.
        "smollm" | "starcoder" | "refact" | "command-r" | "codeshell" | "exaone" | "minerva-7b" => {
            PreTokenizerSpec::plain(&[r"\p{N}", GPT2])
        }
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "pixtral" | "lfm2" => PreTokenizerSpec {
            regexes: &[LLAMA3],
            ignore_merges: true,
            add_bos_default: true,
        },
        "dbrx" | "smaug-bpe" | "chatglm-bpe" => PreTokenizerSpec::plain(&[LLAMA3]),
        // GLM-4.5 on: Llama 3's split, whole pieces in the vocabulary taken as they are.
        "glm4" | "glm5" => PreTokenizerSpec {
            regexes: &[LLAMA3],
            ignore_merges: true,
            add_bos_default: false,
        },
        "deepseek-v3" => PreTokenizerSpec::plain(DEEPSEEK_V3),
        "deepseek-llm" => PreTokenizerSpec::plain(DEEPSEEK_LLM),
        "kimi-k2" => PreTokenizerSpec::plain(&[KIMI_K2]),
        "qwen2" | "deepseek-r1-qwen" | "stablelm2" | "megrez" => PreTokenizerSpec::plain(&[QWEN2]),
        "qwen35" => PreTokenizerSpec::plain(&[QWEN35]),
        "gpt-4o" | "llama4" | "minimax-m2" => PreTokenizerSpec::plain(&[GPT4O]),
        "tekken" => PreTokenizerSpec {
            regexes: &[TEKKEN],
            ignore_merges: true,
            add_bos_default: true,
        },
        other => return Err(TokenizerError::UnknownPreTokenizer(other.to_string())),
    };
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names() {
        assert_eq!(
            pre_tokenizer_for(Some("smollm")).unwrap().regexes,
            &[r"\p{N}", GPT2]
        );
        assert_eq!(pre_tokenizer_for(Some("gpt2")).unwrap().regexes, &[GPT2]);
        assert_eq!(pre_tokenizer_for(None).unwrap().regexes.len(), 4);
        let llama3 = pre_tokenizer_for(Some("llama-bpe")).unwrap();
        assert!(llama3.ignore_merges && llama3.add_bos_default);
        // llama.cpp splits MiniMax-M2's text as GPT-4o's.
        assert_eq!(
            pre_tokenizer_for(Some("minimax-m2")).unwrap().regexes,
            &[GPT4O]
        );
    }

    #[test]
    fn unknown_name_is_an_error() {
        let err = pre_tokenizer_for(Some("no-such-pre")).unwrap_err();
        assert!(err.to_string().contains("no-such-pre"), "{err}");
    }

    /// Tekken differs from GPT-4o where SmolLM2's vocabulary (the llama.cpp fixture's)
    /// cannot show it: contractions are pieces of their own, and digits are one each.
    /// The pieces `name`'s first regex splits `text` into.
    fn pieces(name: &str, text: &str) -> Vec<String> {
        use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
        use tokenizers::{OffsetReferential, OffsetType, PreTokenizedString, PreTokenizer};
        let regex = pre_tokenizer_for(Some(name)).unwrap().regexes[0].to_string();
        let split = Split::new(
            SplitPattern::Regex(regex),
            tokenizers::SplitDelimiterBehavior::Isolated,
            false,
        )
        .unwrap();
        let mut text = PreTokenizedString::from(text);
        split.pre_tokenize(&mut text).unwrap();
        text.get_splits(OffsetReferential::Original, OffsetType::Byte)
            .into_iter()
            .map(|(piece, _, _)| piece.to_string())
            .collect()
    }

    /// Qwen3.5 keeps a combining mark in its word where Qwen2 splits it off.
    #[test]
    fn qwen35_keeps_combining_marks_in_their_words() {
        let text = "cafe\u{301} ok";
        assert_eq!(pieces("qwen2", text), ["cafe", "\u{301}", " ok"]);
        assert_eq!(pieces("qwen35", text), ["cafe\u{301}", " ok"]);
    }

    #[test]
    fn tekken_splits_contractions_and_digits_off() {
        let pieces = |name: &str| pieces(name, "I'm 2024 don't");
        assert_eq!(
            pieces("tekken"),
            ["I", "'m", " ", "2", "0", "2", "4", " don", "'t"]
        );
        assert_eq!(pieces("gpt-4o"), ["I'm", " ", "202", "4", " don't"]);
        let tekken = pre_tokenizer_for(Some("tekken")).unwrap();
        assert!(tekken.ignore_merges && tekken.add_bos_default);
    }

    #[test]
    fn regexes_compile() {
        for name in [
            "default",
            "gpt2",
            "smollm",
            "llama3",
            "qwen2",
            "qwen35",
            "gpt-4o",
            "tekken",
            "deepseek-v3",
            "deepseek-llm",
            "glm4",
            "kimi-k2",
        ] {
            for regex in pre_tokenizer_for(Some(name)).unwrap().regexes {
                tokenizers::pre_tokenizers::split::Split::new(
                    tokenizers::pre_tokenizers::split::SplitPattern::Regex(regex.to_string()),
                    tokenizers::SplitDelimiterBehavior::Isolated,
                    false,
                )
                .unwrap();
            }
        }
    }
}
