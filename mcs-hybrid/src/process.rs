//! `process_llm_response`: from a model's output to a [`DriverResponse`].

use std::fmt::Write as _;
use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::messages;
use super::options::{HybridOptions, UnknownToolPolicy};
use super::outcome::{Failure, Outcome};
use crate::prompt::{CALL_FORMAT, DESCRIBE_TOOL, describe_tool};
use std::time::Instant;

use mcs_core::ToolError;
use mcs_core::telemetry::{self, TARGET};
use mcs_core::validate;
use mcs_core::{DriverResponse, Tool, ToolCallRecord};
use mcs_core::{LlmResponse, ToolDriver};
use mcs_extract::{self as extract, CallSource, Extraction, FoundCall, MalformedCall};
use tracing::{Instrument, Level};

/// Finds the tool calls in `response`, executes the ones `driver` owns, and says what
/// happened.
///
/// - No call, or only calls for tools the driver does not have: the empty response (the
///   output is a final answer, or another driver's).
/// - Calls it owns: each is validated against its tool's schema, then executed, in the
///   order they were written. `call_executed` and `call_failed` say whether any succeeded
///   and any failed; every outcome is in `executed_calls`.
/// - A failure (unreadable call, invalid arguments, execution error) adds a `retry_prompt`
///   naming what was wrong, and `messages` already carry it to the model.
pub fn process_llm_response<'a, D: ToolDriver + ?Sized>(
    driver: &'a D,
    options: &'a HybridOptions,
    response: LlmResponse<'a>,
) -> impl Future<Output = DriverResponse> + Send + 'a {
    // Extraction is synchronous: done here, the future holds only what the calls need (it
    // is moved and boxed on every output, and its size is what that costs).
    let tools = driver.list_tools();
    let started = tracing::enabled!(target: TARGET, Level::DEBUG).then(Instant::now);
    let extraction = if tools.len() > SCAN_LIMIT {
        let index = |name: &str| driver.tool_position(name);
        extract::extract_indexed(response, &tools, &index)
    } else {
        extract::extract(response, &tools)
    };
    if let Some(started) = started {
        extracted(&extraction, started.elapsed());
    }
    respond_to(driver, options, tools, response, extraction, Vec::new())
}

/// The `debug` event of an extraction: where the calls came from, their formats, how many
/// were read and how many were not, and the time it took. Names only, never arguments.
pub(super) fn extracted(extraction: &Extraction, took: std::time::Duration) {
    let mut formats: Vec<String> = Vec::new();
    let found = extraction.calls.iter().map(|call| call.format);
    let failed = extraction.malformed.iter().map(|call| call.format);
    for format in found.chain(failed) {
        let name = format!("{format:?}");
        if !formats.contains(&name) {
            formats.push(name);
        }
    }
    tracing::debug!(
        target: TARGET,
        source = ?extraction.source,
        formats = %formats.join(","),
        calls = extraction.calls.len(),
        malformed = extraction.malformed.len(),
        repaired = extraction.calls.iter().filter(|call| call.repaired).count(),
        micros = took.as_micros() as u64,
        "calls extracted"
    );
}

/// Which calls a driver takes: those for its tools, and the compact listing's
/// `describe_tool` when the driver has no tool of that name.
pub(super) struct Owner<'d, D: ?Sized> {
    driver: &'d D,
    describing: bool,
}

impl<'d, D: ToolDriver + ?Sized> Owner<'d, D> {
    pub(super) fn new(driver: &'d D, options: &HybridOptions, tools: &[Tool]) -> Self {
        let describing =
            options.prompts.is_compact(tools) && find(driver, tools, DESCRIBE_TOOL).is_none();
        Owner { driver, describing }
    }

    pub(super) fn owns(&self, tools: &[Tool], name: &str) -> bool {
        find(self.driver, tools, name).is_some() || (self.describing && name == DESCRIBE_TOOL)
    }
}

/// What `driver` answers to `response`, whose calls are `extraction` (found against
/// `tools`). `ran` are calls it already ran while the output streamed, in order, with what
/// became of them: they are not run again.
pub(super) async fn respond_to<D: ToolDriver + ?Sized>(
    driver: &D,
    options: &HybridOptions,
    tools: Arc<[Tool]>,
    response: LlmResponse<'_>,
    mut extraction: Extraction,
    ran: Vec<(FoundCall, Outcome)>,
) -> DriverResponse {
    let tools = &*tools;
    if extraction.is_empty() {
        return DriverResponse::default();
    }
    let owner = Owner::new(driver, options, tools);
    // Taken from the back: no call held aside across the awaits below (the future is
    // boxed on every output, and its size is what that costs).
    let mut ran = ran;
    ran.reverse();
    let mut outcomes = Vec::new();
    let mut foreign: Vec<FoundCall> = Vec::new();
    // The calls are taken out of the extraction: each one's arguments move into its
    // outcome, and are cloned only once, for the tool to own.
    for call in std::mem::take(&mut extraction.calls) {
        if !owner.owns(tools, &call.name) {
            foreign.push(call);
        } else if ran.last().is_some_and(|(done, _)| *done == call)
            && let Some((_, outcome)) = ran.pop()
        {
            outcomes.push(outcome);
        } else {
            outcomes.push(run(driver, tools, call).await);
        }
    }
    for malformed in &extraction.malformed {
        // A call whose name is readable and not ours belongs to another driver. Cut off,
        // its name may be cut too (`to=functions.get_ti`): one of ours it begins is ours.
        let ours = |name: &str| {
            owner.owns(tools, name)
                || (malformed.cut_off && tools.iter().any(|tool| tool.name().starts_with(name)))
        };
        if malformed.name.as_deref().is_none_or(ours) {
            outcomes.push(unreadable(malformed));
        }
    }
    if options.unknown_tools == UnknownToolPolicy::Reject {
        for call in foreign.drain(..) {
            let error = ToolError::unknown_tool_among(&call.name, tools.iter().map(Tool::name));
            outcomes.push(Outcome {
                name: call.name,
                arguments: call.arguments,
                id: call.id,
                result: Err(Failure::Unknown(error)),
            });
        }
    }
    if outcomes.is_empty() {
        return DriverResponse::default();
    }
    respond(tools, extraction.source, response, outcomes, &foreign)
}

/// Validates `call` and runs it.
pub(super) async fn run<D: ToolDriver + ?Sized>(
    driver: &D,
    tools: &[Tool],
    call: FoundCall,
) -> Outcome {
    // The arguments are read already: extraction, against these same `tools`, applied
    // `validate::coerce_arguments` to every call of a tool it knows.
    let FoundCall {
        name,
        mut arguments,
        id,
        ..
    } = call;
    let tool = find(driver, tools, &name);
    let result = match tool {
        Some(tool) => match validate::validate_arguments(tool, &arguments) {
            Err(problems) => {
                // Where the arguments were wrong, not what they held (values may be secret).
                tracing::debug!(
                    target: TARGET,
                    tool = %name,
                    call_id = id.as_deref(),
                    problems = problems.len(),
                    paths = %problems.iter().map(|p| p.argument.as_str()).collect::<Vec<_>>().join(","),
                    "invalid arguments"
                );
                Err(Failure::Invalid(ToolError::InvalidArguments {
                    tool: name.clone(),
                    problems,
                }))
            }
            Ok(()) => {
                // The tool gets the arguments themselves; the record keeps a copy in which
                // long strings are a note of their length (a refused 100 MB write is not
                // copied).
                let recorded = ToolCallRecord::recorded_arguments(&arguments);
                let given = std::mem::replace(&mut arguments, recorded);
                // Traced in a future of its own: a span held across the await here would
                // grow this future, which every output moves and boxes, and cost calls
                // that nobody traces (BENCHMARKS.md, "Tracing").
                let executed = if telemetry::tool_spans_enabled() {
                    Box::pin(traced(driver, &name, id.as_deref(), given)).await
                } else {
                    driver.execute_tool(&name, given).await
                };
                match executed {
                    Ok(value) => Ok(value),
                    Err(
                        error
                        @ (ToolError::InvalidArguments { .. } | ToolError::UnknownTool { .. }),
                    ) => Err(Failure::Invalid(error)),
                    Err(error) => Err(Failure::Failed(error)),
                }
            }
        },
        None => describe(tools, &arguments),
    };
    Outcome {
        name,
        arguments,
        id,
        result,
    }
}

/// `execute_tool` inside the call's `execute_tool` span, its outcome recorded.
async fn traced<D: ToolDriver + ?Sized>(
    driver: &D,
    name: &str,
    id: Option<&str>,
    arguments: Value,
) -> Result<Value, ToolError> {
    let span = telemetry::execute_tool_span(&driver.meta().id, name, id);
    // A synchronous tool runs inside `execute_tool` itself: inside the span too.
    let future = {
        let _entered = span.enter();
        driver.execute_tool(name, arguments)
    };
    let executed = future.instrument(span.clone()).await;
    telemetry::record_outcome(&span, &executed);
    executed
}

/// Up to this many tools, a scan of the list is cheaper than asking the driver's index (a
/// dynamic call, and for most drivers a fresh handle on the list).
pub(super) const SCAN_LIMIT: usize = 32;

/// The tool `name` among `tools`, through the driver's name index (see
/// [`ToolDriver::tool_position`]) rather than a scan: a call costs the same for 1,000 tools
/// as for 10. An index that disagrees with `tools` (the tools changed in between) falls
/// back to a scan.
fn find<'t, D: ToolDriver + ?Sized>(driver: &D, tools: &'t [Tool], name: &str) -> Option<&'t Tool> {
    if tools.len() <= SCAN_LIMIT {
        return tools.iter().find(|tool| tool.name() == name);
    }
    let position = driver.tool_position(name)?;
    match tools.get(position) {
        Some(tool) if tool.name() == name => Some(tool),
        _ => tools.iter().find(|tool| tool.name() == name),
    }
}

/// Answers the compact listing's `describe_tool` meta-call.
fn describe(tools: &[Tool], arguments: &Value) -> Result<Value, Failure> {
    let wanted = arguments
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match tools.iter().find(|t| t.name() == wanted) {
        Some(tool) => Ok(describe_tool(tool)),
        None => Err(Failure::Invalid(ToolError::unknown_tool_among(
            wanted,
            tools.iter().map(Tool::name),
        ))),
    }
}

fn unreadable(malformed: &MalformedCall) -> Outcome {
    let text = if malformed.cut_off {
        let call = match &malformed.name {
            Some(name) => format!("a call to `{name}`"),
            None => "a tool call".to_owned(),
        };
        format!(
            "your output was cut off inside {call}, so none of it ran ({}); write the \
             whole call again, shorter if it ran into the output limit",
            malformed.detail
        )
    } else {
        format!(
            "a tool call in the {} format could not be read: {}",
            malformed.format, malformed.detail
        )
    };
    Outcome {
        name: malformed.name.clone().unwrap_or_default(),
        arguments: Value::Null,
        id: None,
        result: Err(Failure::Unreadable(text)),
    }
}

fn respond(
    tools: &[Tool],
    source: CallSource,
    response: LlmResponse<'_>,
    outcomes: Vec<Outcome>,
    foreign: &[FoundCall],
) -> DriverResponse {
    let succeeded = outcomes.iter().filter(|o| o.result.is_ok()).count();
    let failed = outcomes.len() - succeeded;
    let retry_prompt = (failed > 0).then(|| retry_prompt(tools, &outcomes));
    // Written in place: one string, not one per outcome and a join.
    let mut detail = String::new();
    for (index, o) in outcomes.iter().enumerate() {
        if index > 0 {
            detail.push_str("; ");
        }
        match &o.result {
            Ok(_) => {
                detail.push('`');
                detail.push_str(&o.name);
                detail.push_str("` executed");
            }
            Err(failure) => {
                let _ = write!(
                    detail,
                    "`{}` failed: {}",
                    display_name(&o.name),
                    failure.text()
                );
            }
        }
    }
    if !foreign.is_empty() {
        let names: Vec<String> = foreign.iter().map(|c| format!("`{}`", c.name)).collect();
        detail.push_str(&format!("; left for other drivers: {}", names.join(", ")));
    }
    let messages = messages::reply(source, response, &outcomes, retry_prompt.as_deref());
    let tool_call_result = outcomes
        .iter()
        .rev()
        .find_map(|o| o.result.as_ref().ok().cloned());
    let executed_calls = outcomes
        .into_iter()
        .map(|o| {
            let (result, error) = match o.result {
                Ok(value) => (Some(value), None),
                Err(failure) => (None, Some(failure.text())),
            };
            ToolCallRecord {
                name: o.name,
                arguments: o.arguments,
                result,
                error,
                tool_call_id: o.id,
            }
        })
        .collect();
    DriverResponse {
        tool_call_result,
        call_executed: succeeded > 0,
        call_failed: failed > 0,
        call_detail: Some(detail),
        retry_prompt,
        messages: Some(messages),
        executed_calls,
    }
}

fn display_name(name: &str) -> &str {
    if name.is_empty() {
        "(unreadable call)"
    } else {
        name
    }
}

/// What to tell the model: each failure in words, what the failed tools take, and the
/// call format with an example; then to correct what was malformed, and to retry a call
/// that ran and failed (or that a policy stopped) only where its message says a retry can
/// help — a call the user declined must not come back because the prompt said "try again".
fn retry_prompt(tools: &[Tool], outcomes: &[Outcome]) -> String {
    let mut lines = Vec::new();
    let mut shown: Vec<&str> = Vec::new();
    let mut unreadable = false;
    let mut ran = false;
    let mut malformed = false;
    for outcome in outcomes {
        let Err(failure) = &outcome.result else {
            continue;
        };
        lines.push(format!("- {}", failure.text()));
        match failure {
            Failure::Invalid(_) => {
                malformed = true;
                if let Some(tool) = tools.iter().find(|t| t.name() == outcome.name)
                    && !shown.contains(&tool.name())
                {
                    shown.push(tool.name());
                    lines.push(format!(
                        "  `{}` takes these arguments: {}",
                        tool.name(),
                        tool.input_schema()
                    ));
                }
            }
            Failure::Unreadable(_) | Failure::Unknown(_) => {
                unreadable = true;
                malformed = true;
            }
            Failure::Failed(_) => ran = true,
        }
    }
    let mut prompt = format!("Some tool calls did not succeed:\n{}", lines.join("\n"));
    if unreadable || !shown.is_empty() {
        prompt.push_str(&format!("\nWrite each call as {CALL_FORMAT}"));
        if let Some(tool) = shown
            .first()
            .and_then(|name| tools.iter().find(|t| t.name() == *name))
            .or_else(|| tools.first())
        {
            prompt.push_str(&format!(
                ", for example: {}",
                json!({"tool": tool.name(), "arguments": example_arguments(tool)})
            ));
        }
        prompt.push('.');
    }
    prompt.push_str(match (malformed, ran) {
        (true, false) => {
            "\nCorrect the call and try again, or answer without a tool if it cannot work."
        }
        (true, true) => {
            "\nCorrect the calls that were written wrong and try them again; call the others \
             again only where their message says that can help, or answer without them."
        }
        _ => {
            "\nCall a tool again only where its message says that can help; otherwise answer \
             without it."
        }
    });
    prompt
}

/// Arguments that show the shape of a call: every required parameter with a value of its
/// type.
fn example_arguments(tool: &Tool) -> Value {
    let mut arguments = Map::new();
    for parameter in tool.parameters().iter().filter(|p| p.required) {
        let schema = parameter
            .resolved_schema()
            .map_or_else(|| json!({"type": "string"}), |schema| schema.into_owned());
        arguments.insert(parameter.name.clone(), example_value(&schema));
    }
    Value::Object(arguments)
}

fn example_value(schema: &Value) -> Value {
    if let Some(Value::Array(values)) = schema.get("enum")
        && let Some(first) = values.first()
    {
        return first.clone();
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null")
            .unwrap_or("string"),
        _ => "string",
    };
    match kind {
        "integer" => json!(1),
        "number" => json!(1.5),
        "boolean" => json!(true),
        "array" => json!([]),
        "object" => json!({}),
        "null" => Value::Null,
        _ => json!("..."),
    }
}
