//! What the benchmarks share: lines to measure, measured one by one and then interleaved so
//! that a change of load hits them all alike, and ratios to the first line (the baseline).

use std::fmt::Write as _;
use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use criterion::BenchmarkGroup;
use criterion::measurement::WallTime;

/// Drives a future that is ready on its first poll, as an executor would, with a waker that
/// does nothing: the tools are sync, so `process_llm_response` never waits.
pub(crate) fn complete<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("a sync driver's future was pending"),
    }
}

/// One call to measure: a label and a closure that runs it `n` times, dropping each result
/// inside the timing (freeing what a call allocated is part of its cost, on every side).
pub(crate) struct Line<'a> {
    label: &'static str,
    run: Box<dyn FnMut(u64) + 'a>,
}

pub(crate) fn line<'a, R>(label: &'static str, mut call: impl FnMut() -> R + 'a) -> Line<'a> {
    Line {
        label,
        run: Box::new(move |n| {
            for _ in 0..n {
                black_box(call());
            }
        }),
    }
}

/// Measures `lines` one by one as criterion lines, then all together in an `interleaved`
/// line: `chunk` calls of each in turn, in a rotating order, every round. Criterion's time
/// for `interleaved` is the line at `reported`'s; the ratios of every line to the first one
/// (the baseline) in the same round are printed after the group.
pub(crate) fn measure(
    group: &mut BenchmarkGroup<'_, WallTime>,
    chunk: u64,
    reported: usize,
    lines: &mut [Line<'_>],
) {
    for line in lines.iter_mut() {
        group.bench_function(line.label, |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                (line.run)(iters);
                start.elapsed()
            });
        });
    }
    let count = lines.len();
    let mut rounds: Vec<Vec<Duration>> = Vec::new();
    group.bench_function("interleaved", |b| {
        b.iter_custom(|iters| {
            let mut reported_total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let n = chunk.min(iters - done);
                let mut times = vec![Duration::ZERO; count];
                for turn in 0..count {
                    let index = (rounds.len() + turn) % count;
                    let start = Instant::now();
                    (lines[index].run)(n);
                    times[index] = start.elapsed();
                }
                reported_total += times[reported];
                if n == chunk {
                    rounds.push(times);
                }
                done += n;
            }
            reported_total
        });
    });
    report(chunk, &rounds, lines);
}

/// Prints, for each line, its median time per call over the rounds, and the median and
/// quartiles of its time over the baseline's in the same round.
fn report(chunk: u64, rounds: &[Vec<Duration>], lines: &[Line<'_>]) {
    if rounds.len() < 50 {
        return;
    }
    let baseline = lines[0].label;
    let quartiles = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
        [at(0.25), at(0.5), at(0.75)]
    };
    let mut out = format!(
        "  interleaved: {} rounds of {chunk} calls each\n",
        rounds.len()
    );
    for (index, line) in lines.iter().enumerate() {
        let [_, per_call, _] = quartiles(
            rounds
                .iter()
                .map(|times| times[index].as_secs_f64() / chunk as f64)
                .collect(),
        );
        let [low, ratio, high] = quartiles(
            rounds
                .iter()
                .map(|times| times[index].as_secs_f64() / times[0].as_secs_f64())
                .collect(),
        );
        let _ = writeln!(
            out,
            "  {:<28} median {:>10}   / {baseline}: {ratio:>7.3} (quartiles {low:.3} .. {high:.3})",
            line.label,
            format_time(per_call),
        );
    }
    print!("{out}");
}

fn format_time(seconds: f64) -> String {
    if seconds >= 1e-3 {
        format!("{:.3} ms", seconds * 1e3)
    } else if seconds >= 1e-6 {
        format!("{:.3} µs", seconds * 1e6)
    } else {
        format!("{:.1} ns", seconds * 1e9)
    }
}
