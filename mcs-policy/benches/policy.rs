//! What the policy layer costs when it is installed and nothing in it applies: a trivial
//! synchronous tool called bare, and through `Guarded` with policies whose rules do not
//! match it, with tracing compiled in and no subscriber installed.
//!
//! ```text
//! cargo bench -p mcs-policy --bench policy
//! ```
//!
//! Variants (see BENCHMARKS.md):
//! - `bare`: the generated driver's `execute_tool`, the result taken with `into_ready`;
//! - `policy_empty`: the same through `Policy::new().wrap(..)`;
//! - `policy_idle`: through a policy with approval rules by name that do not match, secret
//!   values to redact and per-tool timeouts for other tools: nothing applies to the call;
//! - `policy_annotations`: through `approve_destructive()`, which must look the tool up
//!   to read its annotations (the tool is read-only, so no approval is asked).
//!
//! `interleaved` runs the four taking turns inside each sample and prints each one's
//! ratio to `bare`, the figure to read on a noisy machine.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mcs::ToolDriver;
use mcs_policy::{Guarded, Policy};
use serde_json::{Value, json};

struct Probe;

#[mcs::tool_driver(name = "probe")]
impl Probe {
    /// Answers at once.
    #[tool(read_only)]
    fn ping(&self) -> bool {
        true
    }

    /// Deletes something (never called here).
    #[tool(destructive)]
    fn delete_thing(&self, name: String) -> String {
        name
    }
}

fn arguments() -> Value {
    json!({})
}

fn call<D: ToolDriver>(driver: &D, arguments: Value) -> Result<Value, mcs::ToolError> {
    match driver
        .execute_tool(black_box("ping"), arguments)
        .into_ready()
    {
        Ok(result) => result,
        Err(_) => unreachable!("a synchronous tool is ready"),
    }
}

fn policies() -> [(&'static str, Option<Guarded<Probe>>); 4] {
    [
        ("bare", None),
        ("policy_empty", Some(Policy::new().wrap(Probe))),
        (
            "policy_idle",
            Some(
                Policy::new()
                    .approve_tools(["delete_*", "send_*"])
                    .redact_value("sk-live-0123456789")
                    .tool_timeout("build_*", Duration::from_secs(60))
                    .wrap(Probe),
            ),
        ),
        (
            "policy_annotations",
            Some(Policy::new().approve_destructive().wrap(Probe)),
        ),
    ]
}

fn dispatch(c: &mut Criterion) {
    let variants = policies();
    for (_, guarded) in &variants {
        let result = match guarded {
            None => call(&Probe, arguments()),
            Some(guarded) => call(guarded, arguments()),
        };
        assert_eq!(result.unwrap(), json!(true));
    }
    let mut group = c.benchmark_group("execute_tool");
    for (label, guarded) in &variants {
        group.bench_function(*label, |b| match guarded {
            None => b.iter_batched(arguments, |a| call(&Probe, a), BatchSize::SmallInput),
            Some(guarded) => b.iter_batched(arguments, |a| call(guarded, a), BatchSize::SmallInput),
        });
    }

    // The same calls taking turns, CHUNK at a time in a rotating order, so that a change
    // of load falls on all of them alike; the ratios to `bare` are printed afterwards.
    let mut rounds: Vec<[Duration; 4]> = Vec::new();
    group.bench_function("interleaved", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let n = CHUNK.min(iters - done) as usize;
                let mut times = [Duration::ZERO; 4];
                for turn in 0..variants.len() {
                    let variant = (rounds.len() + turn) % variants.len();
                    times[variant] = match &variants[variant].1 {
                        None => time_batch(n, |a| call(&Probe, a)),
                        Some(guarded) => time_batch(n, |a| call(guarded, a)),
                    };
                }
                if n as u64 == CHUNK {
                    rounds.push(times);
                }
                total += times[0];
                done += n as u64;
            }
            total
        });
    });
    group.finish();
    report(&variants.map(|(label, _)| label), &rounds);
}

/// How many calls of one kind are timed together in the interleaved measurement.
const CHUNK: u64 = 64;

/// Times `n` calls on fresh arguments, built beforehand and dropped afterwards.
fn time_batch<R>(n: usize, mut call: impl FnMut(Value) -> R) -> Duration {
    let inputs: Vec<Value> = (0..n).map(|_| arguments()).collect();
    let mut outputs = Vec::with_capacity(n);
    let start = Instant::now();
    for arguments in inputs {
        outputs.push(call(arguments));
    }
    let elapsed = start.elapsed();
    drop(black_box(outputs));
    elapsed
}

/// For each variant, the median and quartiles of its time over `bare`'s in the same round.
fn report(labels: &[&str; 4], rounds: &[[Duration; 4]]) {
    if rounds.len() < 100 {
        return;
    }
    for (variant, label) in labels.iter().enumerate().skip(1) {
        let mut ratios: Vec<f64> = rounds
            .iter()
            .map(|times| times[variant].as_secs_f64() / times[0].as_secs_f64())
            .collect();
        ratios.sort_by(f64::total_cmp);
        let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
        println!(
            "execute_tool/interleaved: {label} / bare: median per-round ratio {:.3} \
             (quartiles {:.3} .. {:.3}), {} rounds of {CHUNK} calls",
            at(0.5),
            at(0.25),
            at(0.75),
            rounds.len(),
        );
    }
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
