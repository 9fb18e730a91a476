#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Stop conditions: stop strings across deltas, stop tokens, EOS, the token budget.

use engine::sampling::{
    FinishReason, SampleOutput, Sampler, SamplingParams, StopChecker, StopMatch, StopStep,
};

const EOS: u32 = 2;

fn params(stop: &[&str], max_new_tokens: u32) -> SamplingParams {
    SamplingParams {
        stop: stop.iter().map(|s| s.to_string()).collect(),
        max_new_tokens,
        ..SamplingParams::default()
    }
}

/// Feeds (token, delta) pairs until the checker finishes; returns the streamed pieces and
/// the finish reason.
fn run(c: &mut StopChecker, steps: &[(u32, &str)]) -> (Vec<String>, Option<FinishReason>) {
    let mut pieces = Vec::new();
    for &(token, delta) in steps {
        let StopStep { text, finish } = c.push(token, delta);
        pieces.push(text);
        if finish.is_some() {
            return (pieces, finish);
        }
    }
    (pieces, None)
}

fn stop_string(s: &str) -> Option<FinishReason> {
    Some(FinishReason::Stop(StopMatch::String(s.into())))
}

#[test]
fn stop_string_spanning_deltas_is_not_emitted() {
    let mut c = StopChecker::new(&params(&["\nUser:"], 100), &[EOS]);
    let (pieces, finish) = run(
        &mut c,
        &[(10, "Hel"), (11, "lo\nUs"), (12, "er:"), (13, "x")],
    );
    assert_eq!(pieces, ["Hel", "lo", ""]);
    assert_eq!(pieces.concat(), "Hello");
    assert_eq!(finish, stop_string("\nUser:"));
    assert_eq!(finish.as_ref().unwrap().as_str(), "stop");
    assert_eq!(c.generated(), 3);
}

#[test]
fn partial_match_that_fails_is_released_intact() {
    let mut c = StopChecker::new(&params(&["\nUser:"], 100), &[EOS]);
    let (pieces, finish) = run(&mut c, &[(10, "a\nUs"), (11, "ing"), (12, " it\n")]);
    assert_eq!(pieces, ["a", "\nUsing", " it"]);
    assert_eq!(finish, None);
    assert_eq!(c.held_text(), "\n");
    // A later stop token flushes the held newline.
    let step = c.push(EOS, "");
    assert_eq!(step.text, "\n");
    assert_eq!(step.finish, Some(FinishReason::Stop(StopMatch::Eos(EOS))));
}

#[test]
fn text_after_a_stop_string_in_the_same_delta_is_dropped() {
    let mut c = StopChecker::new(&params(&["###"], 100), &[EOS]);
    let (pieces, finish) = run(&mut c, &[(10, "answer: 4"), (11, "2###more")]);
    assert_eq!(pieces.concat(), "answer: 42");
    assert_eq!(finish, stop_string("###"));
}

#[test]
fn multiple_stop_strings() {
    let stops = ["</s>", "\n\n", "STOP"];
    let mut c = StopChecker::new(&params(&stops, 100), &[EOS]);
    let (pieces, finish) = run(&mut c, &[(1, "one\n"), (1, "two ST"), (1, "OP three")]);
    assert_eq!(pieces.concat(), "one\ntwo ");
    assert_eq!(finish, stop_string("STOP"));

    let mut c = StopChecker::new(&params(&stops, 100), &[EOS]);
    let (pieces, finish) = run(&mut c, &[(1, "a<"), (1, "/"), (1, "x\n"), (1, "\nb")]);
    assert_eq!(pieces.concat(), "a</x");
    assert_eq!(finish, stop_string("\n\n"));
}

#[test]
fn stop_token_ids_and_eos() {
    let p = SamplingParams {
        stop_token_ids: vec![7],
        ..params(&["zz"], 100)
    };
    let mut c = StopChecker::new(&p, &[EOS]);
    let (pieces, finish) = run(&mut c, &[(1, "ab"), (1, "z"), (7, "<tool>"), (1, "c")]);
    // The held "z" is flushed, the stop token's own text is not emitted.
    assert_eq!(pieces.concat(), "abz");
    assert_eq!(finish, Some(FinishReason::Stop(StopMatch::TokenId(7))));
    assert_eq!(finish.unwrap().matched_token(), Some(7));

    let mut c = StopChecker::new(&p, &[EOS, 3]);
    let (pieces, finish) = run(&mut c, &[(1, "ab"), (3, "</s>")]);
    assert_eq!(pieces.concat(), "ab");
    assert_eq!(finish, Some(FinishReason::Stop(StopMatch::Eos(3))));
}

#[test]
fn ignore_eos_keeps_going_but_stop_tokens_still_stop() {
    let p = SamplingParams {
        ignore_eos: true,
        stop_token_ids: vec![9],
        ..params(&[], 100)
    };
    let mut c = StopChecker::new(&p, &[EOS]);
    let (pieces, finish) = run(&mut c, &[(1, "a"), (EOS, ""), (1, "b"), (9, "!"), (1, "c")]);
    assert_eq!(pieces.concat(), "ab");
    assert_eq!(finish, Some(FinishReason::Stop(StopMatch::TokenId(9))));
}

#[test]
fn max_new_tokens_flushes_held_text() {
    let mut c = StopChecker::new(&params(&["END"], 3), &[EOS]);
    let (pieces, finish) = run(&mut c, &[(1, "x"), (1, "y"), (1, "EN"), (1, "D")]);
    assert_eq!(pieces, ["x", "y", "EN"]);
    assert_eq!(finish, Some(FinishReason::Length));
    assert_eq!(finish.unwrap().as_str(), "length");

    // A stop string completing on the last allowed token counts as a stop.
    let mut c = StopChecker::new(&params(&["END"], 2), &[EOS]);
    let (pieces, finish) = run(&mut c, &[(1, "EN"), (1, "D")]);
    assert_eq!(pieces.concat(), "");
    assert_eq!(finish, stop_string("END"));

    // An EOS on the last allowed token is a stop, not a length finish.
    let mut c = StopChecker::new(&params(&[], 1), &[EOS]);
    assert_eq!(
        c.push(EOS, "").finish,
        Some(FinishReason::Stop(StopMatch::Eos(EOS)))
    );
}

#[test]
fn sampler_and_checker_drive_a_toy_generation() {
    // Vocabulary: 0 "a", 1 "b", 2 EOS. Logits push towards EOS after a few tokens.
    let text = ["a", "b", ""];
    let p = SamplingParams {
        seed: Some(3),
        frequency_penalty: 0.5,
        max_new_tokens: 50,
        ..SamplingParams::default()
    };
    let mut sampler = Sampler::new(&p, &[0, 1]);
    let mut checker = StopChecker::new(&p, &[EOS]);
    let mut out = String::new();
    let mut finish = None;
    for step in 0..50 {
        let mut row = [1.0, 1.0, step as f32 - 10.0];
        let SampleOutput { token, .. } = sampler.sample(&mut row);
        let s = checker.push(token, text[token as usize]);
        out.push_str(&s.text);
        if s.finish.is_some() {
            finish = s.finish;
            break;
        }
    }
    // By step 20 EOS outweighs the rest by e^9, so the run ends on EOS well before 50.
    assert_eq!(finish, Some(FinishReason::Stop(StopMatch::Eos(EOS))));
    assert!(out.chars().all(|c| c == 'a' || c == 'b'));
    assert_eq!(out.len() as u64 + 1, sampler.num_sampled());
}
