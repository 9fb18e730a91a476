//! The tokenizer as a Hugging Face `tokenizer.json`, for clients that tokenize themselves
//! (a gateway that renders chat templates and sends token ids).

use super::{Encoder, Result, Tokenizer, TokenizerError};
use tokenizers::processors::template::TemplateProcessing;

impl Tokenizer {
    /// `tokenizer.json` text that encodes as [`Tokenizer::encode`] does with
    /// `parse_special` (BOS added by a template when the file asks for it). `None` for
    /// SentencePiece vocabularies: their merge-by-score has no `tokenizer.json` form.
    pub fn to_hf_json(&self) -> Option<Result<String>> {
        let Encoder::Bpe { parse_special, .. } = &self.encoder else {
            return None;
        };
        Some(self.bpe_json(parse_special))
    }

    fn bpe_json(&self, backend: &tokenizers::Tokenizer) -> Result<String> {
        let backend_err = |e: tokenizers::Error| TokenizerError::Backend(e.to_string());
        let mut backend = backend.clone();
        let mut single = Vec::new();
        let mut pair = Vec::new();
        let mut specials = Vec::new();
        if let (true, Some(bos)) = (self.add_bos, self.bos) {
            let text = self.texts[bos as usize].clone();
            single.push(text.clone());
            pair.push(text.clone());
            specials.push((text, bos));
        }
        single.push("$A".to_string());
        pair.extend(["$A".to_string(), "$B:1".to_string()]);
        if let (true, Some(eos)) = (self.add_eos, self.eos) {
            let text = self.texts[eos as usize].clone();
            single.push(text.clone());
            pair.push(text.clone());
            specials.push((text, eos));
        }
        if !specials.is_empty() {
            let template = TemplateProcessing::builder()
                .try_single(single)
                .and_then(|b| b.try_pair(pair))
                .map_err(|e| TokenizerError::Backend(e.to_string()))?
                .special_tokens(specials)
                .build()
                .map_err(|e| TokenizerError::Backend(e.to_string()))?;
            backend.with_post_processor(Some(template));
        }
        backend.to_string(false).map_err(backend_err)
    }
}
