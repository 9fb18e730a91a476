//! Client-side timing of one streamed request: when it was sent, when each chunk of tokens
//! arrived. TTFT runs from sending to the first chunk that carries a token; the inter-token
//! latencies are the gaps between token-carrying chunks, split evenly over the tokens of a
//! chunk that carries several (as SGLang's bench_serving does).

use std::time::Instant;

/// Records a request's stream as it arrives.
#[derive(Debug)]
pub struct StreamTimer {
    sent: Instant,
    last_token: Option<Instant>,
    first_token: Option<Instant>,
    itl_s: Vec<f64>,
    token_arrivals: Vec<(Instant, u32)>,
}

/// What [`StreamTimer`] measured.
#[derive(Clone, Debug, Default)]
pub struct StreamTiming {
    pub sent: Option<Instant>,
    /// Seconds from sending to the first token; none if no token came.
    pub ttft_s: Option<f64>,
    /// Seconds from sending to the end of the stream.
    pub e2e_s: f64,
    /// One gap per token after the first chunk, in seconds.
    pub itl_s: Vec<f64>,
    /// Arrival and token count of every token-carrying chunk, for throughput over time.
    pub token_arrivals: Vec<(Instant, u32)>,
    /// Tokens counted in chunks (servers' usage reports may differ).
    pub streamed_tokens: u32,
}

impl StreamTimer {
    /// Starts the clock: call right before sending.
    pub fn start() -> Self {
        StreamTimer {
            sent: Instant::now(),
            last_token: None,
            first_token: None,
            itl_s: Vec::new(),
            token_arrivals: Vec::new(),
        }
    }

    /// A chunk carrying `count` tokens arrived now; chunks without tokens are not counted.
    pub fn tokens(&mut self, count: u32) {
        self.tokens_at(Instant::now(), count);
    }

    fn tokens_at(&mut self, now: Instant, count: u32) {
        if count == 0 {
            return;
        }
        match self.last_token {
            None => self.first_token = Some(now),
            Some(last) => {
                let gap = now.saturating_duration_since(last).as_secs_f64() / f64::from(count);
                self.itl_s.extend(std::iter::repeat_n(gap, count as usize));
            }
        }
        self.last_token = Some(now);
        self.token_arrivals.push((now, count));
    }

    /// Stops the clock: the stream ended now.
    pub fn finish(self) -> StreamTiming {
        let end = Instant::now();
        let since_sent = |t: Instant| t.saturating_duration_since(self.sent).as_secs_f64();
        StreamTiming {
            sent: Some(self.sent),
            ttft_s: self.first_token.map(since_sent),
            e2e_s: since_sent(end),
            itl_s: self.itl_s,
            streamed_tokens: self.token_arrivals.iter().map(|&(_, n)| n).sum(),
            token_arrivals: self.token_arrivals,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::time::Duration;

    #[test]
    fn gaps_are_split_over_the_tokens_of_a_chunk() {
        let mut timer = StreamTimer::start();
        let t0 = timer.sent;
        timer.tokens_at(t0 + Duration::from_millis(100), 2);
        timer.tokens_at(t0 + Duration::from_millis(100), 0);
        timer.tokens_at(t0 + Duration::from_millis(130), 1);
        timer.tokens_at(t0 + Duration::from_millis(190), 3);
        let timing = timer.finish();
        assert!((timing.ttft_s.unwrap() - 0.1).abs() < 1e-9);
        let expected = [0.03, 0.02, 0.02, 0.02];
        assert_eq!(timing.itl_s.len(), expected.len());
        for (got, want) in timing.itl_s.iter().zip(expected) {
            assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        }
        assert_eq!(timing.streamed_tokens, 6);
        assert_eq!(timing.token_arrivals.len(), 3);
    }

    #[test]
    fn no_tokens_no_ttft() {
        let timing = StreamTimer::start().finish();
        assert!(timing.ttft_s.is_none() && timing.itl_s.is_empty());
    }
}
