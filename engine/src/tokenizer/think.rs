//! The tags around a reasoning model's thinking, as its chat template writes them, and
//! where a thinking block starts for one output.

use super::Tokenizer;

/// A thinking block's opening and closing tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThinkTags {
    pub open: &'static str,
    pub close: &'static str,
}

impl ThinkTags {
    /// Qwen 3, SmolLM3, QwQ, DeepSeek-R1 distills: text tags.
    pub const XML: Self = Self {
        open: "<think>",
        close: "</think>",
    };
    /// Magistral, Ministral 3 reasoning: control tokens in their vocabularies.
    pub const MISTRAL: Self = Self {
        open: "[THINK]",
        close: "[/THINK]",
    };

    /// Gemma 4: a thought channel, its markers text in the vocabulary (the newline after
    /// `thought` is the thinking's first character).
    pub const GEMMA4: Self = Self {
        open: "<|channel>thought",
        close: "<channel|>",
    };

    /// The tags a template `source` writes, if it writes a pair (Mistral's first: such a
    /// template may also name `<think>`, to take it out of earlier turns).
    pub fn written_by(source: &str) -> Option<Self> {
        [Self::MISTRAL, Self::GEMMA4, Self::XML]
            .into_iter()
            .find(|tags| source.contains(tags.open) && source.contains(tags.close))
    }

    /// Whether `text` (a template's text) opens a block it does not close.
    pub fn left_open(self, text: &str) -> bool {
        match (text.rfind(self.open), text.rfind(self.close)) {
            (Some(open), Some(close)) => open > close,
            (open, _) => open.is_some(),
        }
    }

    /// The tags that are control tokens in `vocab`: the output text must show them for
    /// the thinking to be split out.
    pub fn control_tokens(self, vocab: &Tokenizer) -> Vec<u32> {
        [self.open, self.close]
            .into_iter()
            .filter_map(|tag| vocab.token_id(tag).filter(|&id| vocab.is_special(id)))
            .collect()
    }

    /// Whether token `id` of `vocab` is one of the tags as a control token.
    pub(crate) fn is_control_tag(self, id: u32, vocab: &Tokenizer) -> bool {
        vocab.is_special(id)
            && vocab
                .piece(id, false)
                .is_ok_and(|p| p == self.open.as_bytes() || p == self.close.as_bytes())
    }
}

/// How one output of a thinking model starts: which tags mark its block, and whether the
/// generation prompt opened the block (`inside`), so the thinking starts at the first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Thinking {
    pub tags: ThinkTags,
    pub inside: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_name_their_tags() {
        assert_eq!(
            ThinkTags::written_by("{{ '<think>' }}x{{ '</think>' }}"),
            Some(ThinkTags::XML)
        );
        assert_eq!(
            ThinkTags::written_by("[THINK]{{ t }}[/THINK]"),
            Some(ThinkTags::MISTRAL)
        );
        assert_eq!(ThinkTags::written_by("<think> only"), None);
        let gemma4 = "{{- '<|channel>thought\\n' + t + '\\n<channel|>' -}}";
        assert_eq!(ThinkTags::written_by(gemma4), Some(ThinkTags::GEMMA4));
        assert!(!ThinkTags::GEMMA4.left_open("<|turn>model\n<|channel>thought\n<channel|>"));
        assert!(ThinkTags::MISTRAL.left_open("[INST]q[/INST][THINK]"));
        assert!(!ThinkTags::MISTRAL.left_open("[THINK]a[/THINK]"));
        assert!(!ThinkTags::MISTRAL.left_open("<think>"));
    }

    #[test]
    fn control_tags_are_found_in_the_vocabulary() {
        let vocab = super::super::tests::small_tokenizer_with_controls(&["[THINK]", "[/THINK]"]);
        let ids = ThinkTags::MISTRAL.control_tokens(&vocab);
        assert_eq!(ids.len(), 2);
        assert!(ids
            .iter()
            .all(|&id| ThinkTags::MISTRAL.is_control_tag(id, &vocab)));
        assert!(ThinkTags::XML.control_tokens(&vocab).is_empty());
    }
}
