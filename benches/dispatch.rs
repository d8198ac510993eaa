//! What the generated dispatch costs.
//!
//! `execute_tool` of a `#[mcs::tool_driver]` with ten tools is measured against a
//! hand-written call of the same method that decodes its arguments exactly as the generated
//! code does (same `ToolSet` definitions, same `arguments` / `required` / `optional` /
//! `finish`, same `to_output`), so that the difference between the two is the generated
//! `match` on the tool name and the `ToolFuture`. Also measured: the same call driven with
//! `ToolFuture::into_ready` instead of `poll`, and through `Arc<dyn ToolDriver>`; the same
//! calls again taking turns (`execute_tool/interleaved`, whose ratios are the ones to trust
//! on a busy machine); `list_tools` (warm, and the table build behind the first call); and
//! the error paths.
//!
//! Run with `cargo bench --bench dispatch`; the figures are in BENCHMARKS.md.

use std::fmt::Write as _;
use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mcs::__private::{ParamDef, ParamKind, ToolDef, ToolSet, schema_for, to_output};
use mcs::{ToolDriver, ToolError, ToolFuture};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A temperature scale.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// A wind speed unit.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum SpeedUnit {
    /// Kilometres per hour.
    Kmh,
    /// Knots.
    Knots,
}

/// A weather station with ten tools.
struct Station {
    base: f64,
}

#[mcs::tool_driver(name = "station")]
impl Station {
    /// Checks that the station answers.
    #[tool]
    fn ping(&self) -> String {
        "pong".to_owned()
    }

    /// Repeats the text.
    #[tool]
    fn echo(
        &self,
        /// The text to repeat.
        text: String,
    ) -> String {
        text
    }

    /// Adds two integers.
    #[tool]
    fn add(
        &self,
        /// The first term.
        a: i64,
        /// The second term.
        b: i64,
    ) -> i64 {
        a.wrapping_add(b)
    }

    /// Current temperature in a city, in degrees Celsius.
    #[tool]
    fn temperature(
        &self,
        /// The city's name.
        city: String,
    ) -> f64 {
        self.base + city.len() as f64
    }

    /// Time of sunrise in a city.
    #[tool]
    fn sunrise(
        &self,
        /// The city's name.
        city: String,
        /// Days from today.
        day: Option<u32>,
    ) -> String {
        format!("{city}: 06:{:02}", 10 + day.unwrap_or(0) % 40)
    }

    /// Relative humidity in a city, in percent.
    #[tool]
    fn humidity(
        &self,
        /// The city's name.
        city: String,
    ) -> u8 {
        (city.len() * 7 % 100) as u8
    }

    /// Wind speed in a city.
    #[tool]
    fn wind(
        &self,
        /// The city's name.
        city: String,
        /// The unit of the speed.
        unit: Option<SpeedUnit>,
    ) -> f64 {
        let kmh = 3.0 * city.len() as f64;
        match unit {
            Some(SpeedUnit::Knots) => kmh / 1.852,
            _ => kmh,
        }
    }

    /// The weather forecast for a city, day by day.
    #[tool]
    fn forecast(
        &self,
        /// The city's name.
        city: String,
        /// The temperature scale; Celsius if absent.
        unit: Option<Unit>,
        /// How many days ahead.
        days: u32,
    ) -> String {
        let mut text = format!("Forecast for {city}:");
        for day in 0..days.min(7) {
            let celsius = self.base + f64::from(day) * 1.5 - (city.len() % 5) as f64;
            let (value, symbol) = match unit {
                Some(Unit::Fahrenheit) => (celsius * 9.0 / 5.0 + 32.0, 'F'),
                _ => (celsius, 'C'),
            };
            let _ = write!(text, " day {}: {value:.1}°{symbol};", day + 1);
        }
        text
    }

    /// Active weather alerts in a region.
    #[tool]
    fn alerts(
        &self,
        /// The region's name.
        region: String,
        /// Only the severe ones.
        severe_only: Option<bool>,
    ) -> Vec<String> {
        if severe_only.unwrap_or(false) {
            Vec::new()
        } else {
            vec![format!("{region}: fog")]
        }
    }

    /// The stations nearby.
    #[tool]
    fn stations(
        &self,
        /// At most this many.
        limit: Option<u32>,
    ) -> Vec<String> {
        (0..limit.unwrap_or(3).min(10))
            .map(|i| format!("station-{i}"))
            .collect()
    }
}

/// The definitions `#[mcs::tool_driver]` emits for `Station`, written out by hand: the
/// baseline's table and the input of the cold build. `main` checks that they give the same
/// tools as the driver.
const DEFS: &[ToolDef] = &[
    tool("ping", "Checks that the station answers.", &[]),
    tool(
        "echo",
        "Repeats the text.",
        &[required::<String>("text", "The text to repeat.")],
    ),
    tool(
        "add",
        "Adds two integers.",
        &[
            required::<i64>("a", "The first term."),
            required::<i64>("b", "The second term."),
        ],
    ),
    tool(
        "temperature",
        "Current temperature in a city, in degrees Celsius.",
        &[required::<String>("city", "The city's name.")],
    ),
    tool(
        "sunrise",
        "Time of sunrise in a city.",
        &[
            required::<String>("city", "The city's name."),
            optional::<u32>("day", "Days from today."),
        ],
    ),
    tool(
        "humidity",
        "Relative humidity in a city, in percent.",
        &[required::<String>("city", "The city's name.")],
    ),
    tool(
        "wind",
        "Wind speed in a city.",
        &[
            required::<String>("city", "The city's name."),
            optional::<SpeedUnit>("unit", "The unit of the speed."),
        ],
    ),
    tool(
        "forecast",
        "The weather forecast for a city, day by day.",
        &[
            required::<String>("city", "The city's name."),
            optional::<Unit>("unit", "The temperature scale; Celsius if absent."),
            required::<u32>("days", "How many days ahead."),
        ],
    ),
    tool(
        "alerts",
        "Active weather alerts in a region.",
        &[
            required::<String>("region", "The region's name."),
            optional::<bool>("severe_only", "Only the severe ones."),
        ],
    ),
    tool(
        "stations",
        "The stations nearby.",
        &[optional::<u32>("limit", "At most this many.")],
    ),
];

/// `forecast`'s index in [`DEFS`]: the eighth of ten arms.
const FORECAST: usize = 7;

const fn tool(name: &'static str, doc: &'static str, params: &'static [ParamDef]) -> ToolDef {
    ToolDef {
        name,
        title: Some(doc),
        description: Some(doc),
        params,
        annotations: mcs::__private::ToolAnnotations::new(),
    }
}

const fn required<T: JsonSchema>(name: &'static str, doc: &'static str) -> ParamDef {
    param::<T>(name, doc, ParamKind::Required)
}

const fn optional<T: JsonSchema>(name: &'static str, doc: &'static str) -> ParamDef {
    param::<T>(name, doc, ParamKind::Optional)
}

const fn param<T: JsonSchema>(name: &'static str, doc: &'static str, kind: ParamKind) -> ParamDef {
    ParamDef {
        name,
        description: Some(doc),
        kind,
        schema: schema_for::<T>,
    }
}

/// The hand-written call: the generated arm's decoding, then the method, without the
/// `match` on the name and without the `ToolFuture`.
fn direct_forecast(station: &Station, set: &ToolSet, arguments: Value) -> Result<Value, ToolError> {
    let mut args = set.arguments(FORECAST, arguments)?;
    let city = args.required::<String>(0);
    let unit = args.optional::<Unit>(1);
    let days = args.required::<u32>(2);
    args.finish()?;
    let (Some(city), Some(unit), Some(days)) = (city, unit, days) else {
        return Err(mcs::__private::Arguments::inconsistent("forecast"));
    };
    let out = station.forecast(city, unit, days);
    to_output("forecast", &out)
}

/// Drives a tool call to completion as an executor would, with a waker that does nothing:
/// a sync tool's future is ready on the first poll.
fn complete(future: ToolFuture<'_>) -> Result<Value, ToolError> {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(result) => result,
        Poll::Pending => panic!("a sync tool's future was pending"),
    }
}

fn forecast_arguments() -> Value {
    json!({ "city": "Paris", "unit": "fahrenheit", "days": 3 })
}

fn execute(c: &mut Criterion) {
    let station = Station { base: 18.0 };
    let shared: Arc<dyn ToolDriver> = Arc::new(Station { base: 18.0 });
    let set = ToolSet::build(DEFS);
    let baseline = |arguments| direct_forecast(black_box(&station), black_box(&set), arguments);
    let generated =
        |arguments| complete(black_box(&station).execute_tool(black_box("forecast"), arguments));
    let into_ready = |arguments| {
        let future = black_box(&station).execute_tool(black_box("forecast"), arguments);
        match future.into_ready() {
            Ok(result) => result,
            Err(_) => panic!("a sync tool's future was pending"),
        }
    };
    let arc_dyn =
        |arguments| complete(black_box(&shared).execute_tool(black_box("forecast"), arguments));
    let expected = baseline(forecast_arguments()).unwrap();
    assert_eq!(generated(forecast_arguments()).unwrap(), expected);
    assert_eq!(into_ready(forecast_arguments()).unwrap(), expected);
    assert_eq!(arc_dyn(forecast_arguments()).unwrap(), expected);

    let mut group = c.benchmark_group("execute_tool");
    group.bench_function("baseline_direct_call", |b| {
        b.iter_batched(forecast_arguments, baseline, BatchSize::SmallInput);
    });
    group.bench_function("generated", |b| {
        b.iter_batched(forecast_arguments, generated, BatchSize::SmallInput);
    });
    group.bench_function("generated_into_ready", |b| {
        b.iter_batched(forecast_arguments, into_ready, BatchSize::SmallInput);
    });
    group.bench_function("generated_arc_dyn", |b| {
        b.iter_batched(forecast_arguments, arc_dyn, BatchSize::SmallInput);
    });

    // The lines above are measured one after the other, so on a loaded machine a change of
    // load between them shows up as a difference between them. Here the same calls take
    // turns, CHUNK calls at a time and in a rotating order; criterion reports the generated
    // call's time, and the ratios to the baseline are printed after the group.
    let mut rounds: Vec<[Duration; VARIANTS.len()]> = Vec::new();
    group.bench_function("interleaved", |b| {
        b.iter_custom(|iters| {
            let mut generated_total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let n = CHUNK.min(iters - done) as usize;
                let mut times = [Duration::ZERO; VARIANTS.len()];
                for turn in 0..VARIANTS.len() {
                    let variant = (rounds.len() + turn) % VARIANTS.len();
                    times[variant] = match variant {
                        0 => time_batch(n, baseline),
                        1 => time_batch(n, generated),
                        2 => time_batch(n, into_ready),
                        _ => time_batch(n, arc_dyn),
                    };
                }
                if n as u64 == CHUNK {
                    rounds.push(times);
                }
                generated_total += times[1];
                done += n as u64;
            }
            generated_total
        });
    });
    group.finish();
    report_interleaved(&rounds);
}

/// How many calls of one kind are timed together in the interleaved measurement.
const CHUNK: u64 = 32;

/// The calls of the interleaved measurement, in the order of its `match`.
const VARIANTS: [&str; 4] = [
    "baseline_direct_call",
    "generated",
    "generated_into_ready",
    "generated_arc_dyn",
];

/// Times `n` calls on fresh arguments, built beforehand and dropped afterwards, as
/// `iter_batched` does.
fn time_batch<R>(n: usize, mut call: impl FnMut(Value) -> R) -> Duration {
    let inputs: Vec<Value> = (0..n).map(|_| forecast_arguments()).collect();
    let mut outputs = Vec::with_capacity(n);
    let start = Instant::now();
    for arguments in inputs {
        outputs.push(call(arguments));
    }
    let elapsed = start.elapsed();
    drop(black_box(outputs));
    elapsed
}

/// Prints, for each call, the median and quartiles of its time over the baseline's in the
/// same round, and the ratio of the medians of the chunk times.
fn report_interleaved(rounds: &[[Duration; VARIANTS.len()]]) {
    if rounds.len() < 100 {
        return;
    }
    let quartiles = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
        [at(0.25), at(0.5), at(0.75)]
    };
    let chunk = |variant: usize| {
        quartiles(
            rounds
                .iter()
                .map(|times| times[variant].as_secs_f64())
                .collect(),
        )
    };
    let baseline = chunk(0);
    for (variant, label) in VARIANTS.iter().enumerate().skip(1) {
        let [low, median, high] = quartiles(
            rounds
                .iter()
                .map(|times| times[variant].as_secs_f64() / times[0].as_secs_f64())
                .collect(),
        );
        println!(
            "execute_tool/interleaved: {label} / {}: median per-round ratio \
             {median:.3} (quartiles {low:.3} .. {high:.3}), ratio of median chunk times {:.3}, \
             {} rounds of {CHUNK} calls",
            VARIANTS[0],
            chunk(variant)[1] / baseline[1],
            rounds.len(),
        );
    }
}

fn list_tools(c: &mut Criterion) {
    let station = Station { base: 18.0 };
    let first = station.list_tools();
    assert_eq!(first.len(), 10);

    let mut group = c.benchmark_group("list_tools");
    group.bench_function("warm", |b| b.iter(|| black_box(&station).list_tools()));
    group.bench_function("cold_table_build", |b| {
        b.iter(|| ToolSet::build(black_box(DEFS)));
    });
    group.finish();
}

fn errors(c: &mut Criterion) {
    let station = Station { base: 18.0 };
    let wrong_type = || json!({ "city": "Paris", "unit": "fahrenheit", "days": "three" });
    let missing = || json!({ "city": "Paris", "unit": "fahrenheit" });
    let call = |name, arguments| complete(station.execute_tool(name, arguments));
    assert!(matches!(
        call("forecast", wrong_type()),
        Err(ToolError::InvalidArguments { .. })
    ));
    assert!(matches!(
        call("forecast", missing()),
        Err(ToolError::InvalidArguments { .. })
    ));
    assert!(matches!(
        call("forecst", forecast_arguments()),
        Err(ToolError::UnknownTool { .. })
    ));

    let mut group = c.benchmark_group("execute_tool_error");
    let mut bench = |id: &str, name: &'static str, arguments: fn() -> Value| {
        group.bench_function(id, |b| {
            b.iter_batched(
                arguments,
                |arguments| complete(black_box(&station).execute_tool(black_box(name), arguments)),
                BatchSize::SmallInput,
            );
        });
    };
    bench("wrong_type", "forecast", wrong_type);
    bench("missing_argument", "forecast", missing);
    bench("unknown_tool", "forecst", forecast_arguments);
    group.finish();
}

/// The hand-written definitions must describe the driver's tools exactly.
fn check_defs() {
    let built = ToolSet::build(DEFS).tools();
    let generated = Station { base: 18.0 }.list_tools();
    assert_eq!(&*built, &*generated, "DEFS no longer match the driver");
}

fn checked(c: &mut Criterion) {
    check_defs();
    execute(c);
}

criterion_group!(benches, checked, list_tools, errors);
criterion_main!(benches);
