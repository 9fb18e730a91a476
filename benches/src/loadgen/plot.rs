//! SVG plots of a run (TTFT and ITL CDFs, throughput over time) or of a sweep (throughput and
//! TTFT against load), with a second result file overlaid when comparing.

use super::report::RunResult;
use super::sweep::SweepResult;
use super::LoadgenError;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

const SIZE: (u32, u32) = (900, 540);
/// CDFs are drawn through at most this many points per series.
const CDF_POINTS: usize = 1000;
const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// One line of a chart.
struct Series {
    name: String,
    points: Vec<(f64, f64)>,
    /// Draw a dot at every point (few-point series such as sweeps).
    markers: bool,
}

/// Writes `ttft_cdf.svg`, `itl_cdf.svg` and `throughput.svg` into `dir`; returns their paths.
pub fn plot_runs(dir: &Path, runs: &[&RunResult]) -> Result<Vec<PathBuf>, LoadgenError> {
    std::fs::create_dir_all(dir).map_err(|e| LoadgenError::file(dir, e))?;
    let cdf = |pick: fn(&RunResult) -> Vec<f64>| -> Vec<Series> {
        runs.iter()
            .map(|run| Series {
                name: run.setup.label.clone(),
                points: cdf_points(pick(run)),
                markers: false,
            })
            .collect()
    };
    let ttft = cdf(|run| {
        let done = run.requests.iter().filter(|r| r.completed());
        done.filter_map(|r| r.ttft_s).map(|s| s * 1e3).collect()
    });
    let itl = cdf(|run| {
        let done = run.requests.iter().filter(|r| r.completed());
        done.flat_map(|r| r.itl_s.iter().map(|s| s * 1e3)).collect()
    });
    let throughput: Vec<Series> = runs
        .iter()
        .map(|run| {
            let timeline = &run.timeline;
            let points = timeline
                .output_tokens_per_s
                .iter()
                .enumerate()
                .map(|(i, &rate)| ((i as f64 + 0.5) * timeline.bin_s, rate))
                .collect();
            Series {
                name: run.setup.label.clone(),
                points,
                markers: false,
            }
        })
        .collect();
    let charts = [
        (
            "ttft_cdf.svg",
            "TTFT CDF",
            "time to first token (ms)",
            "fraction of requests",
            ttft,
        ),
        (
            "itl_cdf.svg",
            "ITL CDF",
            "inter-token latency (ms)",
            "fraction of tokens",
            itl,
        ),
        (
            "throughput.svg",
            "Output throughput over time",
            "time since start (s)",
            "output tokens/s",
            throughput,
        ),
    ];
    let mut written = Vec::new();
    for (file, title, x_desc, y_desc, series) in charts {
        let path = dir.join(file);
        line_chart(&path, title, x_desc, y_desc, &series, false)?;
        written.push(path);
    }
    Ok(written)
}

/// Writes `sweep_throughput.svg` and `sweep_ttft.svg` into `dir`; returns their paths.
pub fn plot_sweeps(dir: &Path, sweeps: &[&SweepResult]) -> Result<Vec<PathBuf>, LoadgenError> {
    std::fs::create_dir_all(dir).map_err(|e| LoadgenError::file(dir, e))?;
    let Some(first) = sweeps.first() else {
        return Ok(Vec::new());
    };
    let x_desc = first.parameter.axis_label();
    // Levels such as 1, 4, 16, 64 spread evenly on a logarithmic axis.
    let values = sweeps.iter().flat_map(|s| s.points.iter().map(|p| p.value));
    let (low, high) = values.fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let log_x = high >= 8.0 * low;
    let line =
        |sweep: &SweepResult, name: String, pick: &dyn Fn(&SweepResult, usize) -> f64| Series {
            name,
            points: (0..sweep.points.len())
                .map(|i| (sweep.points[i].value, pick(sweep, i)))
                .collect(),
            markers: true,
        };
    let throughput: Vec<Series> = sweeps
        .iter()
        .map(|s| {
            line(s, s.setup.label.clone(), &|s, i| {
                s.points[i].summary.output_token_throughput
            })
        })
        .collect();
    let mut ttft = Vec::new();
    for sweep in sweeps {
        let label = &sweep.setup.label;
        let quantile = |i: usize, p99: bool| {
            sweep.points[i]
                .summary
                .ttft_ms
                .map_or(0.0, |st| if p99 { st.p99 } else { st.p50 })
        };
        ttft.push(line(sweep, format!("{label} p50"), &|_, i| {
            quantile(i, false)
        }));
        ttft.push(line(sweep, format!("{label} p99"), &|_, i| {
            quantile(i, true)
        }));
    }
    let throughput_path = dir.join("sweep_throughput.svg");
    line_chart(
        &throughput_path,
        "Output throughput against load",
        x_desc,
        "output tokens/s",
        &throughput,
        log_x,
    )?;
    let ttft_path = dir.join("sweep_ttft.svg");
    line_chart(
        &ttft_path,
        "TTFT against load",
        x_desc,
        "time to first token (ms)",
        &ttft,
        log_x,
    )?;
    Ok(vec![throughput_path, ttft_path])
}

/// The empirical CDF of `samples`, thinned to at most [`CDF_POINTS`] points.
fn cdf_points(mut samples: Vec<f64>) -> Vec<(f64, f64)> {
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    let step = n.div_ceil(CDF_POINTS).max(1);
    let start = samples.first().map(|&x| (x, 0.0));
    let mut points: Vec<(f64, f64)> = start
        .into_iter()
        .chain(
            (0..n)
                .step_by(step)
                .map(|i| (samples[i], (i + 1) as f64 / n as f64)),
        )
        .collect();
    if let Some(&last) = samples.last() {
        if points.last().is_some_and(|p| p.1 < 1.0) {
            points.push((last, 1.0));
        }
    }
    points
}

fn line_chart(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    log_x: bool,
) -> Result<(), LoadgenError> {
    let fail = |reason: String| LoadgenError::Plot {
        path: path.display().to_string(),
        reason,
    };
    let all = series.iter().flat_map(|s| s.points.iter());
    let (x_min, x_max, y_max) = all.fold(
        (f64::INFINITY, f64::NEG_INFINITY, 0.0_f64),
        |(x0, x1, y1), &(x, y)| (x0.min(x), x1.max(x), y1.max(y)),
    );
    let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    let labels = (title, x_desc, y_desc);
    if log_x && x_min > 0.0 && x_max > x_min {
        let x = (x_min / 1.2..x_max * 1.2).log_scale();
        draw(&root, x, y_max, labels, series).map_err(fail)
    } else {
        let x = if x_min.is_finite() && x_max > x_min {
            x_min.min(0.0)..x_max * 1.05
        } else {
            0.0..x_max.max(1.0) * 1.05
        };
        draw(&root, x, y_max, labels, series).map_err(fail)
    }
}

/// Draws the chart on `root` with `x` as the x axis (linear or logarithmic).
fn draw<X>(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    x: X,
    y_max: f64,
    (title, x_desc, y_desc): (&str, &str, &str),
    series: &[Series],
) -> Result<(), String>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let text = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| text(&e))?;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x, 0.0..y_max)
        .map_err(|e| text(&e))?;
    chart
        .configure_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()
        .map_err(|e| text(&e))?;
    for (i, line) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        chart
            .draw_series(LineSeries::new(
                line.points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(|e| text(&e))?
            .label(line.name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        if line.markers {
            chart
                .draw_series(
                    line.points
                        .iter()
                        .map(|&point| Circle::new(point, 4, color.filled())),
                )
                .map_err(|e| text(&e))?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| text(&e))?;
    root.present().map_err(|e| text(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdf_ends_at_one_and_is_thinned() {
        let points = cdf_points((0..5000).rev().map(f64::from).collect());
        assert!(points.len() <= CDF_POINTS + 2);
        assert_eq!(points[0], (0.0, 0.0));
        assert_eq!(points.last().copied(), Some((4999.0, 1.0)));
        assert!(points
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
        assert!(cdf_points(Vec::new()).is_empty());
    }
}
