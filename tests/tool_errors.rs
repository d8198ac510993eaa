//! Every way a call through a generated driver can fail, and what the error says.

use std::error::Error as _;
use std::fmt;

use mcs::{ArgumentError, ArgumentErrorKind, ToolDriver, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// How results are reported.
#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Units {
    /// Degrees Celsius.
    Metric,
    /// Degrees Fahrenheit.
    Imperial,
}

/// A date range.
#[derive(Deserialize, JsonSchema, Debug)]
struct Range {
    /// First day, 1 to 31.
    from: u8,
    /// Last day.
    to: u8,
}

#[derive(Debug)]
struct Offline;

impl fmt::Display for Offline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the weather service is offline")
    }
}

impl std::error::Error for Offline {}

struct Weather;

#[mcs::tool_driver(name = "weather")]
impl Weather {
    /// Current weather in a city.
    #[tool]
    fn current(&self, city: String, units: Option<Units>) -> String {
        format!("{city}: sunny ({units:?})")
    }

    /// Forecast for a range of days.
    #[tool]
    fn forecast(&self, city: String, range: Range, #[arg(default)] hourly: bool) -> Vec<String> {
        (range.from..=range.to)
            .map(|d| format!("{city} day {d} hourly={hourly}"))
            .collect()
    }

    /// Fails with a std error.
    #[tool]
    async fn offline(&self) -> Result<(), Offline> {
        Err(Offline)
    }

    /// Fails with a plain message.
    #[tool]
    fn refuse(&self, reason: String) -> Result<u8, String> {
        Err(format!("refused: {reason}"))
    }

    /// Fails with its own ToolError, which passes through unchanged.
    #[tool]
    fn strict(&self, n: i64) -> Result<i64, ToolError> {
        if n < 0 {
            Err(ToolError::invalid_argument(
                "strict",
                ArgumentError::invalid("n", "a non-negative integer", n.to_string()),
            ))
        } else {
            Ok(n)
        }
    }

    /// Fails with a boxed error, kept as the source.
    #[tool]
    fn boxed(&self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Err(Box::new(Offline))
    }

    /// Takes nothing.
    #[tool]
    fn ping(&self) -> &'static str {
        "pong"
    }
}

async fn call(name: &str, arguments: Value) -> Result<Value, ToolError> {
    Weather.execute_tool(name, arguments).await
}

fn problems(error: &ToolError) -> &[ArgumentError] {
    match error {
        ToolError::InvalidArguments { problems, .. } => problems,
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}

#[tokio::test]
async fn unknown_tool_suggests_the_closest_name() {
    let error = call("curent", json!({})).await.unwrap_err();
    assert!(
        matches!(&error, ToolError::UnknownTool { name, suggestion: Some(s) } if name == "curent" && s == "current")
    );
    assert_eq!(
        error.to_string(),
        "unknown tool `curent`; did you mean `current`?"
    );

    let far = call("launch_rockets", json!({})).await.unwrap_err();
    assert_eq!(far.to_string(), "unknown tool `launch_rockets`");
}

#[tokio::test]
async fn missing_required_argument_is_named_with_its_type() {
    let error = call("current", json!({})).await.unwrap_err();
    assert_eq!(
        problems(&error),
        [ArgumentError::missing("city", "a string")]
    );
    assert_eq!(
        error.to_string(),
        "invalid arguments for tool `current`: missing required argument `city` (expected a string)"
    );
}

#[tokio::test]
async fn wrong_type_names_argument_expected_and_received() {
    let error = call("current", json!({"city": 42})).await.unwrap_err();
    assert_eq!(
        problems(&error),
        [ArgumentError::invalid("city", "a string", "42")]
    );
}

#[tokio::test]
async fn a_number_sent_as_a_string_says_so() {
    let error = call(
        "forecast",
        json!({"city": "Oslo", "range": {"from": "1", "to": 3}}),
    )
    .await
    .unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains(
            "argument `range.from`: expected an integer (uint8) from 0 to 255, got the string \"1\""
        ),
        "{text}"
    );
}

#[tokio::test]
async fn enum_values_are_listed_when_a_value_is_not_allowed() {
    let error = call("current", json!({"city": "Paris", "units": "kelvin"}))
        .await
        .unwrap_err();
    assert_eq!(
        problems(&error),
        [ArgumentError::invalid(
            "units",
            "one of \"metric\", \"imperial\"",
            "the string \"kelvin\""
        )]
    );
}

#[tokio::test]
async fn missing_field_inside_a_nested_struct_has_its_path() {
    let error = call("forecast", json!({"city": "Oslo", "range": {"from": 1}}))
        .await
        .unwrap_err();
    assert_eq!(
        problems(&error),
        [ArgumentError::missing(
            "range.to",
            "an integer (uint8) from 0 to 255"
        )]
    );
}

#[tokio::test]
async fn unknown_argument_lists_what_the_tool_takes() {
    let error = call("current", json!({"city": "Paris", "cty": "x"}))
        .await
        .unwrap_err();
    let [problem] = problems(&error) else {
        panic!("one problem expected: {error}")
    };
    assert_eq!(problem.argument, "cty");
    assert!(
        matches!(&problem.kind, ArgumentErrorKind::Unknown { accepted, suggestion: Some(s) }
        if accepted == &["city", "units"] && s == "city")
    );
    assert_eq!(
        problem.to_string(),
        "unknown argument `cty`; did you mean `city`? (this tool takes: city, units)"
    );

    let error = call("ping", json!({"verbose": true})).await.unwrap_err();
    assert!(
        error
            .to_string()
            .ends_with("unknown argument `verbose` (this tool takes no arguments)"),
        "{error}"
    );
}

#[tokio::test]
async fn every_problem_is_reported_at_once() {
    let error = call(
        "forecast",
        json!({"range": {"from": -1, "to": 2}, "hourly": "yes", "extra": 1}),
    )
    .await
    .unwrap_err();
    let arguments: Vec<&str> = problems(&error)
        .iter()
        .map(|p| p.argument.as_str())
        .collect();
    assert_eq!(arguments, ["city", "range.from", "hourly", "extra"]);
}

#[tokio::test]
async fn arguments_that_are_not_an_object_are_rejected() {
    let error = call("current", json!(["Paris"])).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid arguments for tool `current`: the arguments: expected a JSON object of named arguments, got an array of 1 item(s): [\"Paris\"]"
    );
}

#[tokio::test]
async fn null_arguments_mean_no_arguments() {
    assert_eq!(call("ping", Value::Null).await.unwrap(), json!("pong"));
    assert_eq!(call("ping", json!({})).await.unwrap(), json!("pong"));
}

#[tokio::test]
async fn null_for_an_optional_argument_means_absent() {
    let out = call("current", json!({"city": "Paris", "units": null}))
        .await
        .unwrap();
    assert_eq!(out, json!("Paris: sunny (None)"));
}

#[tokio::test]
async fn default_arguments_take_their_default_when_absent() {
    let out = call(
        "forecast",
        json!({"city": "Oslo", "range": {"from": 1, "to": 1}}),
    )
    .await
    .unwrap();
    assert_eq!(out, json!(["Oslo day 1 hourly=false"]));
}

#[tokio::test]
async fn std_error_becomes_an_execution_failure_with_its_source() {
    let error = call("offline", json!({})).await.unwrap_err();
    assert!(
        matches!(&error, ToolError::Execution { tool, message, source: Some(_) }
        if tool == "offline" && message == "the weather service is offline")
    );
    assert_eq!(
        error.to_string(),
        "tool `offline` failed: the weather service is offline"
    );
    assert!(error.source().unwrap().downcast_ref::<Offline>().is_some());
}

#[tokio::test]
async fn boxed_error_is_kept_as_the_source() {
    let error = call("boxed", json!({})).await.unwrap_err();
    let source = error.source().expect("the box is the source");
    assert!(source.downcast_ref::<Offline>().is_some());
}

#[tokio::test]
async fn display_error_becomes_the_message() {
    let error = call("refuse", json!({"reason": "no"})).await.unwrap_err();
    assert!(matches!(&error, ToolError::Execution { source: None, .. }));
    assert_eq!(error.to_string(), "tool `refuse` failed: refused: no");
}

#[tokio::test]
async fn a_tool_error_from_the_tool_passes_through() {
    let error = call("strict", json!({"n": -5})).await.unwrap_err();
    assert_eq!(
        problems(&error),
        [ArgumentError::invalid("n", "a non-negative integer", "-5")]
    );
    assert_eq!(call("strict", json!({"n": 5})).await.unwrap(), json!(5));
}

#[test]
fn error_tool_accessor_names_the_tool() {
    assert_eq!(ToolError::unknown_tool("x").tool(), "x");
    assert_eq!(ToolError::execution("y", "boom").tool(), "y");
}
