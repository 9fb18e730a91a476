//! `--sweep concurrency=1,4,16,64` (or `request-rate=...`): the same workload at each load
//! level, one run per level, reduced to throughput and latency against load.

use super::metrics::Summary;
use super::report::{ms, percent, RunSetup};
use super::LoadgenError;
use serde::{Deserialize, Serialize};

/// What a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SweepParameter {
    /// `--max-concurrency`
    Concurrency,
    /// `--request-rate` (requests per second)
    RequestRate,
}

impl SweepParameter {
    pub fn name(self) -> &'static str {
        match self {
            SweepParameter::Concurrency => "concurrency",
            SweepParameter::RequestRate => "request-rate",
        }
    }

    pub fn axis_label(self) -> &'static str {
        match self {
            SweepParameter::Concurrency => "max concurrency (requests in flight)",
            SweepParameter::RequestRate => "request rate (req/s)",
        }
    }
}

/// A parsed `--sweep` flag.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSpec {
    pub parameter: SweepParameter,
    pub values: Vec<f64>,
}

impl SweepSpec {
    /// Parses `concurrency=1,4,16` or `request-rate=0.5,1,2` (`rate=` works too).
    pub fn parse(flag: &str) -> Result<Self, LoadgenError> {
        let bad = |why: &str| {
            LoadgenError::InvalidArgs(format!(
                "--sweep {flag:?}: {why} (expected concurrency=1,4,16 or request-rate=1,2,4)"
            ))
        };
        let (name, list) = flag.split_once('=').ok_or_else(|| bad("no '='"))?;
        let parameter = match name.trim() {
            "concurrency" | "max-concurrency" => SweepParameter::Concurrency,
            "request-rate" | "rate" => SweepParameter::RequestRate,
            _ => return Err(bad("unknown parameter")),
        };
        let values = list
            .split(',')
            .map(|v| v.trim().parse::<f64>().map_err(|_| bad("bad value")))
            .collect::<Result<Vec<f64>, _>>()?;
        if values.is_empty() || values.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(bad("values must be positive numbers"));
        }
        if parameter == SweepParameter::Concurrency && values.iter().any(|v| v.fract() != 0.0) {
            return Err(bad("concurrency values must be whole numbers"));
        }
        Ok(SweepSpec { parameter, values })
    }
}

/// One level of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub value: f64,
    pub summary: Summary,
}

/// Every level of a sweep; the setup's own concurrency or rate is the one not swept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    pub setup: RunSetup,
    pub parameter: SweepParameter,
    pub points: Vec<SweepPoint>,
}

/// The table printed at the end of a sweep.
pub fn sweep_table(sweep: &SweepResult) -> String {
    let mut out = format!(
        "============ loadgen sweep: {} over {} ============\n",
        sweep.setup.label,
        sweep.parameter.name()
    );
    out.push_str(&format!(
        "{:>12} {:>6} {:>6} {:>8} {:>11} {:>10} {:>10} {:>9} {:>9} {:>7}\n",
        sweep.parameter.name(),
        "done",
        "errors",
        "req/s",
        "out tok/s",
        "TTFT p50",
        "TTFT p99",
        "ITL p50",
        "ITL p99",
        "cache"
    ));
    for point in &sweep.points {
        let s = &point.summary;
        out.push_str(&format!(
            "{:>12} {:>6} {:>6} {:>8.2} {:>11.1} {:>10} {:>10} {:>9} {:>9} {:>7}\n",
            point.value,
            s.completed,
            s.errors,
            s.request_throughput,
            s.output_token_throughput,
            ms(s.ttft_ms, |st| st.p50),
            ms(s.ttft_ms, |st| st.p99),
            ms(s.itl_ms, |st| st.p50),
            ms(s.itl_ms, |st| st.p99),
            percent(s.cache_hit_rate),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parses_sweeps() {
        let s = SweepSpec::parse("concurrency=1,4,16").unwrap();
        assert_eq!(s.parameter, SweepParameter::Concurrency);
        assert_eq!(s.values, vec![1.0, 4.0, 16.0]);
        let s = SweepSpec::parse("rate=0.5, 2").unwrap();
        assert_eq!(s.parameter, SweepParameter::RequestRate);
        assert_eq!(s.values, vec![0.5, 2.0]);
        for bad in [
            "concurrency",
            "speed=1",
            "concurrency=1,x",
            "concurrency=1.5",
            "rate=0",
        ] {
            assert!(SweepSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
