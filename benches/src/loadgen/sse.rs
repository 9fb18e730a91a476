//! Incremental parsing of a server-sent-events body: bytes in as the network delivers them,
//! the `data` of each complete event out. Comments (keep-alives) and other fields are skipped.

/// Buffers a partial event between network reads.
#[derive(Debug, Default)]
pub struct SseParser {
    pending: Vec<u8>,
}

impl SseParser {
    /// Feeds `bytes`; returns the data of every event they complete, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some((end, separator_len)) = event_end(&self.pending) {
            let event: Vec<u8> = self.pending.drain(..end + separator_len).collect();
            if let Some(data) = event_data(&event[..end]) {
                events.push(data);
            }
        }
        events
    }
}

/// Where the first complete event ends, and the length of the blank line ending it.
fn event_end(buffer: &[u8]) -> Option<(usize, usize)> {
    let lf = find(buffer, b"\n\n").map(|i| (i, 2));
    let crlf = find(buffer, b"\r\n\r\n").map(|i| (i, 4));
    match (lf, crlf) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The event's `data` lines joined by newlines; none if it has no data.
fn event_data(event: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(event);
    let mut data: Option<String> = None;
    for line in text.lines() {
        if let Some(value) = line.strip_prefix("data:") {
            let value = value.strip_prefix(' ').unwrap_or(value);
            match data.as_mut() {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_string()),
            }
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_events_across_reads() {
        let mut parser = SseParser::default();
        assert!(parser.push(b"data: {\"a\"").is_empty());
        assert_eq!(
            parser.push(b":1}\n\n: keep-alive\n\ndata: [DO"),
            vec!["{\"a\":1}"]
        );
        assert_eq!(parser.push(b"NE]\n\n"), vec!["[DONE]"]);
    }

    #[test]
    fn handles_crlf_and_multiline_data() {
        let mut parser = SseParser::default();
        let events = parser.push(b"event: x\r\ndata: one\r\ndata:two\r\n\r\ndata: 3\n\n");
        assert_eq!(events, vec!["one\ntwo", "3"]);
    }
}
