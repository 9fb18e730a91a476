//! Test help: an output written token by token through a grammar, as a model held to it
//! would write it.

use super::{GrammarLimits, GrammarSpec, Grammars, Step};
use crate::tokenizer::{DecodeStream, Tokenizer};
use std::sync::Arc;

/// Writes `goal` through the constraint of `spec` over `tok`: each of `markers` found in
/// it as its control token (where `tok` has one), other text a token at a time. Returns the
/// output text (control tokens in `shown` shown), or the text at which the next token (or
/// the end) was refused, or a forced token left the goal.
pub(crate) fn walk(
    tok: &Arc<Tokenizer>,
    spec: &GrammarSpec,
    goal: &str,
    markers: &[&str],
    shown: &[u32],
) -> Result<String, String> {
    let grammars = Grammars::new(tok.clone(), tok.vocab_size(), GrammarLimits::default());
    let mut constraint = grammars
        .compile(spec, &radix::Namespace::global())
        .map_err(|e| e.to_string())?;
    let allowed = |mask: &[u32], t: u32| (mask[t as usize / 32] >> (t % 32)) & 1 == 1;
    let control = |m: &str| tok.token_id(m).filter(|&id| tok.is_special(id));
    let mut output: Vec<u32> = Vec::new();
    let mut done = false;
    loop {
        let written = DecodeStream::showing(true, shown.to_vec())
            .step_all(tok, &output)
            .map_err(|e| e.to_string())?;
        let Some(rest) = goal.strip_prefix(written.as_str()) else {
            return Err(written);
        };
        if done {
            // The grammar is complete: the output ends here.
            return rest.is_empty().then_some(written.clone()).ok_or(written);
        }
        let Ok(mask) = constraint.compute_mask() else {
            return Err(written);
        };
        if rest.is_empty() {
            let eos = tok.eos_token_id().ok_or("no EOS")?;
            return allowed(&mask, eos)
                .then_some(written.clone())
                .ok_or(written);
        }
        // Text up to the next marker that is a control token, or that token.
        let marker = (markers.iter())
            .filter_map(|m| Some((rest.find(m)?, control(m)?)))
            .min();
        let text_token = |text: &str| {
            let ids = tok.encode_without_bos_eos(text, false).unwrap_or_default();
            ids.first().copied().unwrap_or_default()
        };
        let next = match marker {
            Some((0, id)) => id,
            Some((at, _)) => text_token(&rest[..at]),
            None => text_token(rest),
        };
        if !allowed(&mask, next) {
            return Err(written);
        }
        output.push(next);
        let step = constraint.advance(next).map_err(|e| e.to_string())?;
        done = matches!(step, Step::Done { .. });
        let (Step::Continue { forced } | Step::Done { forced }) = step;
        output.extend(forced);
    }
}
