//! `/metrics`: the Prometheus text the server exposes counts requests and tokens and
//! carries histograms.

use super::*;

/// `name{labels} value` samples of a Prometheus text exposition; panics on a malformed line.
fn parse_prometheus(text: &str) -> Vec<(String, HashMap<String, String>, f64)> {
    let mut samples = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(comment) = line.strip_prefix('#') {
            let words: Vec<&str> = comment.split_whitespace().collect();
            if words.first() == Some(&"TYPE") {
                assert!(
                    ["counter", "gauge", "histogram", "summary", "untyped"].contains(&words[2]),
                    "{line}"
                );
            }
            continue;
        }
        let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{line}"));
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            "-Inf" => f64::NEG_INFINITY,
            v => v.parse().unwrap_or_else(|_| panic!("bad value in {line}")),
        };
        let (name, labels) = match series.split_once('{') {
            None => (series, HashMap::new()),
            Some((name, rest)) => {
                let body = rest.strip_suffix('}').unwrap_or_else(|| panic!("{line}"));
                let labels = body
                    .split(',')
                    .filter(|kv| !kv.is_empty())
                    .map(|kv| {
                        let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("{line}"));
                        let v = v.strip_prefix('"').and_then(|v| v.strip_suffix('"'));
                        (
                            k.to_string(),
                            v.unwrap_or_else(|| panic!("{line}")).to_string(),
                        )
                    })
                    .collect();
                (name, labels)
            }
        };
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'),
            "{line}"
        );
        samples.push((name.to_string(), labels, value));
    }
    samples
}

fn sum_of(
    samples: &[(String, HashMap<String, String>, f64)],
    name: &str,
    labels: &[(&str, &str)],
) -> f64 {
    samples
        .iter()
        .filter(|(n, l, _)| {
            n == name
                && labels
                    .iter()
                    .all(|(k, v)| l.get(*k).map(String::as_str) == Some(*v))
        })
        .map(|(_, _, v)| v)
        .sum()
}

async fn scrape() -> (String, Vec<(String, HashMap<String, String>, f64)>) {
    let (status, text) = get(&server().base, "/metrics").await;
    assert_eq!(status, 200, "{text}");
    let samples = parse_prometheus(&text);
    (text, samples)
}

#[tokio::test]
async fn metrics_count_requests_and_expose_histograms() {
    // It checks exact counts of the process-wide recorder: alone in a process.
    if !common::process::in_own_process(
        module_path!(),
        "metrics_count_requests_and_expose_histograms",
    ) {
        return;
    }
    let _turn = SERIAL.lock().await;
    let (_, before) = scrape().await;
    let requests = 3;
    for i in 0..requests {
        let body = json!({"prompt": format!("Count {i}:"), "max_tokens": 2, "temperature": 0});
        let (status, body) = post_json("/v1/completions", body).await;
        assert_eq!(status, 200, "{body}");
    }
    let (text, after) = scrape().await;
    let delta = |name: &str, labels: &[(&str, &str)]| {
        sum_of(&after, name, labels) - sum_of(&before, name, labels)
    };
    assert_eq!(delta(metrics::REQUESTS, &[]), f64::from(requests));
    assert_eq!(
        delta(metrics::REQUESTS, &[("outcome", "length")]),
        f64::from(requests)
    );
    let http_ok = [("route", "/v1/completions"), ("status", "200")];
    assert_eq!(delta(metrics::HTTP_REQUESTS, &http_ok), f64::from(requests));
    assert_eq!(
        delta(metrics::GENERATED_TOKENS, &[]),
        f64::from(2 * requests)
    );
    assert!(delta(metrics::PROMPT_TOKENS, &[]) > 0.0);
    // Real histograms: TYPE histogram, cumulative buckets ending in +Inf, a count.
    for name in [metrics::TTFT, metrics::E2E, metrics::BATCH_TOKENS] {
        assert!(text.contains(&format!("# TYPE {name} histogram")), "{name}");
        let inf = sum_of(&after, &format!("{name}_bucket"), &[("le", "+Inf")]);
        assert_eq!(inf, sum_of(&after, &format!("{name}_count"), &[]), "{name}");
        assert!(inf > 0.0, "{name}");
    }
    // Every step's phases are timed; a forward happened for each request at least.
    for phase in ["schedule", "forward", "sample", "output"] {
        let count = delta(
            &format!("{}_count", metrics::STEP_PHASE),
            &[("phase", phase)],
        );
        assert!(count >= f64::from(requests), "{phase}: {count} steps");
    }
    for state in ["used", "evictable", "free", "protected"] {
        assert!(
            after.iter().any(|(n, l, _)| n == metrics::KV_SLOTS
                && l.get("state").map(String::as_str) == Some(state)),
            "kv slots {state}"
        );
    }
    for name in [
        metrics::QUEUE_LENGTH,
        metrics::RUNNING_REQUESTS,
        metrics::KV_CAPACITY,
        metrics::CACHE_HIT_TOKENS,
    ] {
        assert!(after.iter().any(|(n, _, _)| n == name), "{name}");
    }
    // The CPU model replays no CUDA graphs: the series is there, at 0.
    let replays = after
        .iter()
        .find(|(n, _, _)| n == metrics::CUDA_GRAPH_REPLAYS)
        .map(|(_, _, v)| *v);
    assert_eq!(replays, Some(0.0));
}
