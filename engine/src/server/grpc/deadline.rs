//! The call's deadline from its `grpc-timeout` header. tonic's own timeout layer only bounds
//! the handler's future, which for a streaming RPC ends as soon as the stream is returned;
//! the engine must know the deadline to abort the request itself.

use crate::handle::{ChoiceEvents, GenerateEvent};
use std::time::{Duration, Instant};
use tonic::metadata::MetadataMap;
use tonic::Status;

const GRPC_TIMEOUT: &str = "grpc-timeout";

/// The instant the call expires, measured from `now`; `None` without a `grpc-timeout`.
pub(super) fn deadline(metadata: &MetadataMap, now: Instant) -> Result<Option<Instant>, Status> {
    let Some(value) = metadata.get(GRPC_TIMEOUT) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default();
    let timeout = parse_timeout(text).ok_or_else(|| {
        Status::invalid_argument(format!("malformed grpc-timeout header {text:?}"))
    })?;
    // A timeout too far away to represent is no deadline at all.
    Ok(now.checked_add(timeout))
}

/// Parses `TimeoutValue TimeoutUnit` per the gRPC over HTTP/2 spec: at most 8 digits, then
/// one of H, M, S, m, u, n.
fn parse_timeout(text: &str) -> Option<Duration> {
    let unit_at = text.len().checked_sub(1)?;
    if !text.is_char_boundary(unit_at) {
        return None;
    }
    let (digits, unit) = text.split_at(unit_at);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(value * 3600),
        "M" => Duration::from_secs(value * 60),
        "S" => Duration::from_secs(value),
        "m" => Duration::from_millis(value),
        "u" => Duration::from_micros(value),
        "n" => Duration::from_nanos(value),
        _ => return None,
    })
}

/// The next event of any of a call's choices before `deadline`: `None` once every choice
/// has ended, DEADLINE_EXCEEDED once the deadline passes, UNAVAILABLE if the engine stopped
/// before a choice finished.
pub(super) async fn next_event(
    events: &mut ChoiceEvents,
    deadline: Option<Instant>,
) -> Result<Option<(u32, GenerateEvent)>, Status> {
    let next = match deadline {
        None => events.next().await,
        Some(deadline) => tokio::select! {
            next = events.next() => next,
            () = tokio::time::sleep_until(deadline.into()) => return Err(exceeded()),
        },
    };
    match next {
        None => Ok(None),
        Some((index, Some(event))) => Ok(Some((index, event))),
        Some((_, None)) => Err(Status::unavailable(
            "the engine stopped before the request finished",
        )),
    }
}

pub(super) fn exceeded() -> Status {
    Status::deadline_exceeded("the call's deadline passed: the request was aborted")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_unit() {
        assert_eq!(parse_timeout("2H"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_timeout("3M"), Some(Duration::from_secs(180)));
        assert_eq!(parse_timeout("4S"), Some(Duration::from_secs(4)));
        assert_eq!(parse_timeout("50m"), Some(Duration::from_millis(50)));
        assert_eq!(parse_timeout("7u"), Some(Duration::from_micros(7)));
        assert_eq!(
            parse_timeout("99999999n"),
            Some(Duration::from_nanos(99_999_999))
        );
    }

    #[test]
    fn rejects_malformed_values() {
        for bad in ["", "m", "5", "123456789m", "5x", "-5m", "5 m", "é"] {
            assert_eq!(parse_timeout(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn deadline_from_metadata() {
        let now = Instant::now();
        let mut metadata = MetadataMap::new();
        assert_eq!(deadline(&metadata, now).ok(), Some(None));
        metadata.insert(
            GRPC_TIMEOUT,
            tonic::metadata::MetadataValue::from_static("50m"),
        );
        assert_eq!(
            deadline(&metadata, now).ok(),
            Some(Some(now + Duration::from_millis(50)))
        );
        metadata.insert(
            GRPC_TIMEOUT,
            tonic::metadata::MetadataValue::from_static("soon"),
        );
        assert!(deadline(&metadata, now).is_err());
    }
}
