//! Which JSON values are tool calls: name and argument keys, wrappers, lists.

use serde_json::{Map, Value};

use super::coerce::{Untyped, convert};
use super::json::parse_whole;
use super::record::{Broken, Cx, Outcome, RawCall};
use super::scan::{clean_name, floor_boundary, plausible_name};
use mcs_core::schema::kind_of;
use mcs_core::{Tool, closest};

/// How many times more than once arguments may have been encoded as a JSON string and still
/// be read.
const MAX_ENCODINGS: usize = 3;

/// The outcome of each call a value holds.
pub(crate) type Outcomes = Vec<Outcome>;

/// Keys that name the tool, in order of preference.
const NAME_KEYS: &[&str] = &[
    "name",
    "tool",
    "tool_name",
    // The Vercel AI SDK's and Semantic Kernel's records.
    "toolName",
    "function_name",
    "functionName",
    "function",
    "recipient_name",
    // DSPy ReAct's JSON adapter.
    "next_tool_name",
    // MetaGPT's RoleZero commands.
    "command_name",
];
/// Keys that hold the arguments, in order of preference.
const ARGUMENT_KEYS: &[&str] = &[
    "arguments",
    "parameters",
    "args",
    "params",
    "input",
    "tool_input",
    "action_input",
    "next_tool_args",
    // LlamaIndex's `ToolSelection`.
    "tool_kwargs",
];
/// Argument keys whose value may be free text for a single-input tool (LangChain).
const FREE_TEXT_KEYS: &[&str] = &["input", "tool_input", "action_input"];
/// Keys that record what a call returned (LlamaIndex's `ToolCallResult`, the Vercel AI
/// SDK's tool results): an object with a name and one of them is a result.
const RESULT_KEYS: &[&str] = &["tool_output", "result", "toolResult"];
/// Keys besides the name that a call without arguments may carry.
const BOOKKEEPING_KEYS: &[&str] = &["id", "type", "call_id", "tool_call_id", "index"];

/// How far wrappers (`tool_call`, `function`, …) may nest.
const MAX_WRAPPING: usize = 6;

/// How sure the context is that a value is a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trust {
    /// Bare JSON in prose: only clear call shapes count.
    Weak,
    /// JSON after a format's delimiter: whatever looks like a call is one, and what does
    /// not is a broken call.
    Strong,
}

/// The calls `value` holds, or `None` when it is not call-shaped. `repaired` says the JSON
/// needed repair to be read.
pub(crate) fn calls_in(
    value: &Value,
    cx: &Cx<'_>,
    trust: Trust,
    repaired: bool,
) -> Option<Outcomes> {
    let mut outcomes = match value {
        Value::Object(map) => object_calls(map, cx, trust, 0)?,
        Value::Array(items) => array_calls(items, cx, trust, 0)?,
        _ => return None,
    };
    if repaired {
        for call in outcomes.iter_mut().flatten() {
            call.repaired = true;
        }
    }
    Some(outcomes)
}

/// Like [`calls_in`], but a value that is not call-shaped is one broken call.
pub(crate) fn strong_calls(value: &Value, cx: &Cx<'_>, repaired: bool, what: &str) -> Outcomes {
    calls_in(value, cx, Trust::Strong, repaired).unwrap_or_else(|| {
        vec![Err(Broken::new(
            None,
            format!("{what} is not a tool call: it has no `name` and `arguments`"),
        ))]
    })
}

/// The calls element `index` of a delimited list holds; an element that is not a call is
/// one broken call.
pub(crate) fn strong_element(item: &Value, cx: &Cx<'_>, repaired: bool, index: usize) -> Outcomes {
    let found = match item {
        Value::Object(map) => object_calls(map, cx, Trust::Strong, 1),
        _ => None,
    };
    let mut outcomes = found.unwrap_or_else(|| {
        vec![Err(Broken::new(
            None,
            format!("element {index} of the list is not a tool call"),
        ))]
    });
    if repaired {
        for call in outcomes.iter_mut().flatten() {
            call.repaired = true;
        }
    }
    outcomes
}

fn array_calls(items: &[Value], cx: &Cx<'_>, trust: Trust, depth: usize) -> Option<Outcomes> {
    if items.is_empty() {
        return None;
    }
    let mut outcomes = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let found = match item {
            Value::Object(map) => object_calls(map, cx, trust, depth + 1),
            _ => None,
        };
        match (found, trust) {
            (Some(found), _) => outcomes.extend(found),
            (None, Trust::Weak) => return None,
            (None, Trust::Strong) => outcomes.push(Err(Broken::new(
                None,
                format!("element {index} of the list is not a tool call"),
            ))),
        }
    }
    Some(outcomes)
}

/// `map.get(key)`. The objects read here are small, and comparing a key with a few others
/// costs less than hashing it (`preserve_order` maps hash every lookup but a single key's).
fn field<'m>(map: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if map.len() <= 8 {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

/// The calls an object holds: a call itself (a name key), or a wrapper around calls.
fn object_calls(
    map: &Map<String, Value>,
    cx: &Cx<'_>,
    trust: Trust,
    depth: usize,
) -> Option<Outcomes> {
    if depth > MAX_WRAPPING {
        return None;
    }
    // One pass over the (few) keys: how many name a tool, and whether one says this is no
    // call — a tool definition echoed back (`description`), or a call that ran, recorded
    // with what it returned (a result; a result key holding `null` records none yet).
    let (mut names, mut no_call) = (0, false);
    for (key, value) in map {
        let key = key.as_str();
        if value.is_string() && NAME_KEYS.contains(&key) {
            names += 1;
        } else if key == "description" || (RESULT_KEYS.contains(&key) && !value.is_null()) {
            no_call = true;
        }
    }
    if names == 0 {
        return wrapped_calls(map, cx, trust, depth);
    }
    if no_call {
        return None;
    }
    named_call(map, cx, trust, names > 1).map(|outcome| vec![outcome])
}

/// The calls in an object without a name key: the llama.cpp generic format and pasted
/// OpenAI shapes (`tool_calls`, `tool_call`, `function_call`, `function`), and LangChain's
/// `{"action", "action_input"}` blob.
fn wrapped_calls(
    map: &Map<String, Value>,
    cx: &Cx<'_>,
    trust: Trust,
    depth: usize,
) -> Option<Outcomes> {
    if let Some(Value::Array(items)) = field(map, "tool_calls").or_else(|| field(map, "toolCalls"))
    {
        return if items.is_empty() {
            Some(Vec::new())
        } else {
            array_calls(items, cx, Trust::Strong, depth)
        };
    }
    // `toolInvocation`: the Vercel AI SDK's record of one call; `functionCall`: a Gemini
    // part (`{"functionCall": {"name", "args"}}`), as a model that imitates it writes it.
    for wrapper in [
        "tool_call",
        "function_call",
        "toolInvocation",
        "functionCall",
    ] {
        if let Some(Value::Object(inner)) = field(map, wrapper) {
            return object_calls(inner, cx, Trust::Strong, depth + 1);
        }
    }
    // `function`, or a key spelled like it (`fucntion`: small models slip).
    let function = field(map, "function").or_else(|| {
        map.iter()
            .find(|(key, value)| value.is_object() && closest(key, ["function"]).is_some())
            .map(|(_, value)| value)
    });
    if let Some(Value::Object(function)) = function {
        return function_wrapper(map, function, cx, trust, depth);
    }
    // Semantic Kernel's stepwise planner names the input `action_variables`.
    if let (Some(Value::String(action)), Some(input)) = (
        field(map, "action"),
        field(map, "action_input").or_else(|| field(map, "action_variables")),
    ) {
        return action_blob(action, input, cx).map(|outcome| vec![outcome]);
    }
    None
}

/// `{"type": "function", "id": …, "function": {"name", "arguments"}}`: the call is inside,
/// its id may be outside, and the `type` makes it certain.
fn function_wrapper(
    map: &Map<String, Value>,
    function: &Map<String, Value>,
    cx: &Cx<'_>,
    trust: Trust,
    depth: usize,
) -> Option<Outcomes> {
    let mut merged = function.clone();
    for key in ["id", "call_id"] {
        if let (Some(id), false) = (field(map, key), merged.contains_key(key)) {
            merged.insert(key.to_owned(), id.clone());
        }
    }
    let inner_trust = if field(map, "type").and_then(Value::as_str) == Some("function") {
        Trust::Strong
    } else {
        trust
    };
    object_calls(&merged, cx, inner_trust, depth + 1)
}

/// LangChain's JSON blob `{"action": NAME, "action_input": …}`: weak, so only for known
/// tools.
fn action_blob(action: &str, input: &Value, cx: &Cx<'_>) -> Option<Outcome> {
    let name = clean_name(action);
    if !cx.is_known(&name) {
        return None;
    }
    let outcome = arguments_of(&name, input, "action_input", cx, Trust::Strong)?;
    Some(outcome.map(|(arguments, repaired)| RawCall {
        name,
        arguments,
        id: None,
        repaired,
    }))
}

/// The call an object with a name key (`several`: more than one) is, if it is one.
fn named_call(
    map: &Map<String, Value>,
    cx: &Cx<'_>,
    trust: Trust,
    several: bool,
) -> Option<Outcome> {
    // The first name key that names a tool the model has (Semantic Kernel writes
    // `"name": "Plugin-get_weather"` beside `"function_name": "get_weather"`), else the first.
    let mut named = NAME_KEYS.iter().filter_map(|key| {
        field(map, key)
            .and_then(Value::as_str)
            .map(|name| (*key, name))
    });
    let first = named.next()?;
    let (name_key, raw_name) = if several {
        std::iter::once(first)
            .chain(named)
            .find(|(_, name)| cx.is_known(&clean_name(name)))
            .unwrap_or(first)
    } else {
        first
    };
    let mut name = clean_name(raw_name);
    // `get weather`: the words of one tool's name (see `Cx::meant`).
    if !plausible_name(&name)
        && let Some((meant, _)) = cx.meant(&name)
    {
        name = meant;
    }
    if !plausible_name(&name) {
        return match trust {
            Trust::Weak => None,
            Trust::Strong => Some(Err(Broken::new(
                Some(name.clone()),
                format!("`{name}` is not a valid tool name"),
            ))),
        };
    }
    // A Responses item's `call_id` is what its result must name; its `id` is the item's.
    let id = ["call_id", "id", "tool_call_id", "toolCallId", "tool_id"]
        .iter()
        .find_map(|key| match field(map, key) {
            Some(Value::String(id)) => Some(id.clone()),
            Some(Value::Number(id)) => Some(id.to_string()),
            _ => None,
        });
    let mut given = ARGUMENT_KEYS
        .iter()
        .filter_map(|key| field(map, key).map(|value| (*key, value)));
    let argument = given.next();
    // `arguments` and `parameters` both given, and different: running either is a guess.
    if let Some((key, value)) = argument
        && let Some((other, _)) =
            given.find(|(_, other)| !is_schema(other) && !same_arguments(value, other))
    {
        return match trust {
            Trust::Weak => None,
            Trust::Strong => Some(Err(Broken::new(
                Some(name),
                format!(
                    "both `{key}` and `{other}` hold arguments, and they differ: which were meant cannot be told"
                ),
            ))),
        };
    }
    let outcome = match argument {
        Some((_, value)) if is_schema(value) => return None,
        Some((key, value)) => arguments_of(&name, value, key, cx, trust)?,
        None => arguments_beside_name(map, name_key, &name, cx, trust)?,
    };
    Some(outcome.map(|(arguments, repaired)| RawCall {
        name,
        arguments,
        id,
        repaired,
    }))
}

/// Whether two argument values say the same, one of them perhaps as a JSON string.
fn same_arguments(a: &Value, b: &Value) -> bool {
    let parsed = |value: &Value| match value {
        Value::String(text) => serde_json::from_str::<Value>(text).ok(),
        _ => None,
    };
    a == b || parsed(a).is_some_and(|a| &a == b) || parsed(b).is_some_and(|b| &b == a)
}

/// The arguments of a call without an argument key: either it has none, or they sit next
/// to the name (`{"tool": "search", "query": "x"}`), which counts only when every other
/// key is a parameter of that known tool. `None` when a weak context should not take the
/// object for a call.
fn arguments_beside_name(
    map: &Map<String, Value>,
    name_key: &str,
    name: &str,
    cx: &Cx<'_>,
    trust: Trust,
) -> Option<Result<(Value, bool), Broken>> {
    // The other keys are copied only once they are known to be arguments: most such
    // objects are data (`{"name": "Uppsala", "id": 97510}`).
    let rest = || {
        map.iter()
            .filter(|(key, _)| *key != name_key && !BOOKKEEPING_KEYS.contains(&key.as_str()))
    };
    let tool = cx.tool(name);
    let flat = tool.is_some_and(|tool| rest().all(|(key, _)| tool.parameter(key).is_some()));
    if flat {
        let arguments = rest().map(|(k, v)| (k.clone(), v.clone())).collect();
        return Some(Ok((Value::Object(arguments), false)));
    }
    // One other key, spelled like an argument key (`arguements`, `paramaters`): the
    // arguments, read as a repair — in a call's delimiters, or for a tool of the list (JSON
    // in prose that names no tool is data).
    let mut others = rest();
    if let (true, Some((key, value)), None) = (
        trust == Trust::Strong || tool.is_some(),
        others.next(),
        others.next(),
    ) && matches!(value, Value::Object(_) | Value::String(_))
        && closest(key, ARGUMENT_KEYS.iter().copied()).is_some()
    {
        return arguments_of(name, value, key, cx, trust)
            .map(|outcome| outcome.map(|(arguments, _)| (arguments, true)));
    }
    match (trust, tool) {
        // A tool of the list given keys that are neither its parameters nor where arguments
        // go (`options`): running it without them would answer another question.
        (Trust::Strong, Some(tool)) if rest().next().is_some() => {
            let given: Vec<String> = rest().map(|(key, _)| format!("`{key}`")).collect();
            let takes: Vec<String> = tool
                .parameters()
                .iter()
                .map(|p| format!("`{}`", p.name))
                .collect();
            Some(Err(Broken::new(
                Some(name.to_owned()),
                format!(
                    "the call to `{name}` gives {}, which is neither where arguments go \
                     (`arguments`) nor a parameter of the tool ({})",
                    given.join(", "),
                    if takes.is_empty() {
                        "it takes none".to_owned()
                    } else {
                        format!("it takes {}", takes.join(", "))
                    }
                ),
            )))
        }
        (Trust::Strong, _) => Some(Ok((Value::Object(Map::new()), false))),
        (Trust::Weak, _) => None,
    }
}

/// A JSON Schema where arguments should be: the object is a tool definition.
fn is_schema(value: &Value) -> bool {
    value.get("type").and_then(Value::as_str) == Some("object")
        && value.get("properties").is_some_and(Value::is_object)
}

/// The arguments object of a call to `name` from the value under `key`: an object, a
/// JSON-encoded object, nothing, or (for single-input tools) free text. `None` when a weak
/// context should not take the value for arguments at all.
fn arguments_of(
    name: &str,
    value: &Value,
    key: &str,
    cx: &Cx<'_>,
    trust: Trust,
) -> Option<Result<(Value, bool), Broken>> {
    let strict = trust == Trust::Strong || cx.is_known(name);
    let broken = |detail: String| Broken::new(Some(name.to_owned()), detail);
    match value {
        Value::Object(_) => Some(Ok((value.clone(), false))),
        Value::Null => Some(Ok((Value::Object(Map::new()), false))),
        Value::String(text) if text.trim().is_empty() => {
            Some(Ok((Value::Object(Map::new()), false)))
        }
        Value::String(text) => {
            let parsed = parse_whole(text);
            if let Ok((Value::Object(arguments), repaired)) = parsed {
                return Some(Ok((Value::Object(arguments), repaired)));
            }
            // Encoded more than once (`"\"{\\\"city\\\": …}\""`): each layer a JSON string
            // whose text is JSON, down to the object, a few layers at most.
            if let Ok((Value::String(first), _)) = &parsed {
                let mut inner = first.clone();
                for _ in 0..MAX_ENCODINGS {
                    match parse_whole(&inner) {
                        Ok((Value::Object(arguments), _)) => {
                            return Some(Ok((Value::Object(arguments), true)));
                        }
                        Ok((Value::String(deeper), _)) => inner = deeper,
                        _ => break,
                    }
                }
            }
            // Free text for a one-input tool, unless it is JSON cut short or broken
            // (`"{\"query\": \"best budget NAS for"`): the arguments, which do not read.
            if FREE_TEXT_KEYS.contains(&key)
                && !text.trim_start().starts_with('{')
                && let Some(tool) = cx.tool(name)
            {
                return Some(
                    free_text_arguments(tool, text)
                        .map(|a| (a, false))
                        .map_err(broken),
                );
            }
            if !strict {
                return None;
            }
            let why = match parsed {
                Err(error) => format!(
                    "not valid JSON ({} at character {} of the string)",
                    error.message,
                    text[..floor_boundary(text, error.pos)].chars().count() + 1
                ),
                Ok(_) => "JSON but not an object".to_owned(),
            };
            Some(Err(broken(format!(
                "the `{key}` of `{name}` are a string that is {why}"
            ))))
        }
        other => strict.then(|| {
            Err(broken(format!(
                "the `{key}` of `{name}` must be an object, found {}",
                kind_of(other)
            )))
        }),
    }
}

/// Arguments for a tool given one free-text input (ReAct, LangChain single-input tools):
/// `key: value` lines that name the tool's parameters are those arguments (typed by the
/// schema); else the text goes to the tool's only parameter, or its only required one.
/// Lines that read as `key: value` for a tool of several parameters, naming one it does not
/// take, are not guessed at.
pub(crate) fn free_text_arguments(tool: &Tool, text: &str) -> Result<Value, String> {
    let text = text.trim();
    let params = tool.parameters();
    let pairs: Option<Vec<(&str, &str)>> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (key, value) = line.split_once(':')?;
            // `https://…` and `C:\Users\…` (or `C:/Users/…`) are values, not keys.
            if value.starts_with("//")
                || value.starts_with('\\')
                || (key.len() == 1 && value.starts_with('/'))
            {
                return None;
            }
            let key = key.trim();
            let named = !key.is_empty()
                && key.len() <= 64
                && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !key.starts_with(|c: char| c.is_ascii_digit());
            named.then_some((key, value.trim()))
        })
        .collect();
    if let Some(pairs) = pairs.filter(|pairs| !pairs.is_empty()) {
        let unknown: Vec<&str> = pairs
            .iter()
            .map(|(key, _)| *key)
            .filter(|key| tool.parameter(key).is_none())
            .collect();
        if unknown.is_empty() {
            let mut arguments = Map::new();
            for (key, value) in pairs {
                let (value, _) = convert(value, Some(tool), key, Untyped::Text);
                arguments.insert(key.to_owned(), value);
            }
            return Ok(Value::Object(arguments));
        }
        if params.len() > 1 {
            return Err(format!(
                "the input of `{}` is written as `key: value` lines naming {}, which it does not \
                 take; send a JSON object",
                tool.name(),
                unknown
                    .iter()
                    .map(|key| format!("`{key}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let target = match params {
        [only] => Some(only),
        _ => {
            let mut required = params.iter().filter(|p| p.required);
            match (required.next(), required.next()) {
                (Some(only), None) => Some(only),
                _ => None,
            }
        }
    };
    if text.is_empty() {
        return match params.iter().find(|p| p.required) {
            Some(param) => Err(format!(
                "the input of `{}` is empty, but it needs `{}`",
                tool.name(),
                param.name
            )),
            None => Ok(Value::Object(Map::new())),
        };
    }
    match target {
        Some(param) => {
            let mut arguments = Map::new();
            arguments.insert(param.name.clone(), Value::String(text.to_owned()));
            Ok(Value::Object(arguments))
        }
        None if params.is_empty() => Ok(Value::Object(Map::new())),
        None => Err(format!(
            "the input of `{}` is free text, but the tool takes {} parameters; send a JSON object",
            tool.name(),
            params.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcs_core::{Tool, ToolParameter};
    use serde_json::json;

    #[test]
    fn key_value_lines_are_the_arguments_they_name() {
        let weather = Tool::new("get_weather", "Weather").with_parameters(vec![
            ToolParameter::new("city", "").with_schema(json!({"type": "string"})),
            ToolParameter::new("days", "")
                .with_schema(json!({"type": "integer"}))
                .required(false),
        ]);
        assert_eq!(
            free_text_arguments(&weather, "city: Paris\ndays: 3").unwrap(),
            json!({"city": "Paris", "days": 3})
        );
        let error = free_text_arguments(&weather, "location: Paris").unwrap_err();
        assert!(error.contains("naming `location`"), "{error}");
        // A URL, a time or text with a colon for a one-parameter tool is free text.
        let fetch = Tool::new("fetch", "Fetch").with_parameters(vec![
            ToolParameter::new("url", ""),
            ToolParameter::new("timeout", "").required(false),
        ]);
        assert_eq!(
            free_text_arguments(&fetch, "https://example.com/a").unwrap(),
            json!({"url": "https://example.com/a"})
        );
        let search = Tool::new("search", "Search").with_parameter(ToolParameter::new("query", ""));
        assert_eq!(
            free_text_arguments(&search, "error: timeout at 10:30").unwrap(),
            json!({"query": "error: timeout at 10:30"})
        );
        // A Windows path is free text too, for a tool of one required parameter.
        let mut find = search.clone();
        find = find.with_parameter(ToolParameter::new("limit", "").required(false));
        assert_eq!(
            free_text_arguments(&find, "C:\\Users\\ana\\*.docx").unwrap(),
            json!({"query": "C:\\Users\\ana\\*.docx"})
        );
        // No input at all: a tool that needs one is not called with an empty string.
        let error = free_text_arguments(&search, "  ").unwrap_err();
        assert!(error.contains("is empty, but it needs `query`"), "{error}");
        let clock =
            Tool::new("now", "Time").with_parameter(ToolParameter::new("zone", "").required(false));
        assert_eq!(free_text_arguments(&clock, "").unwrap(), json!({}));
    }

    fn tools() -> Vec<Tool> {
        vec![
            Tool::new("search", "Search").with_parameter(ToolParameter::new("query", "q")),
            Tool::new("now", "Time"),
        ]
    }

    fn names(value: Value, trust: Trust) -> Option<Vec<Result<String, String>>> {
        let tools = tools();
        let cx = Cx::new("", &tools);
        calls_in(&value, &cx, trust, false).map(|outcomes| {
            outcomes
                .into_iter()
                .map(|o| {
                    o.map(|c| format!("{} {}", c.name, c.arguments))
                        .map_err(|b| b.detail)
                })
                .collect()
        })
    }

    #[test]
    fn name_and_argument_keys() {
        for value in [
            json!({"tool": "x", "arguments": {"a": 1}}),
            json!({"name": "x", "parameters": {"a": 1}}),
            json!({"function": "x", "args": {"a": 1}}),
            json!({"tool_name": "x", "input": {"a": 1}}),
            json!({"name": "x", "arguments": "{\"a\": 1}"}),
            json!({"type": "function", "function": {"name": "x", "arguments": {"a": 1}}}),
            json!({"tool_call": {"name": "x", "arguments": {"a": 1}}}),
            json!({"function": {"name": "x", "arguments": {"a": 1}}}),
        ] {
            assert_eq!(
                names(value.clone(), Trust::Weak),
                Some(vec![Ok("x {\"a\":1}".to_owned())]),
                "{value}"
            );
        }
    }

    #[test]
    fn data_is_not_a_call() {
        for value in [
            json!({"name": "Paris", "population": 2}),
            json!({"name": "John Smith", "input": {"a": 1}}),
            json!({"name": "x", "description": "d", "parameters": {"type": "object", "properties": {}}}),
            json!({"name": "x", "parameters": {"type": "object", "properties": {}}}),
            json!({"name": "search"})
                .as_object()
                .map(|_| json!({"name": "search", "kind": "tool"}))
                .unwrap(),
            json!([{"name": "x", "arguments": {}}, {"city": "Paris"}]),
            json!({"action": "Final Answer", "action_input": "hi"}),
            json!({"name": "x", "arguments": "not json"}),
            json!({"toolName": "search", "args": {"query": "q"}, "result": {"hits": 0}}),
            json!({"tool_name": "now", "tool_output": "12:00"}),
        ] {
            assert_eq!(names(value.clone(), Trust::Weak), None, "{value}");
        }
    }

    #[test]
    fn a_result_key_holding_null_is_no_result_yet() {
        assert_eq!(
            names(
                json!({"toolName": "search", "args": {"query": "q"}, "result": null}),
                Trust::Weak
            ),
            Some(vec![Ok("search {\"query\":\"q\"}".to_owned())])
        );
    }

    #[test]
    fn known_names_relax_and_tighten() {
        assert_eq!(
            names(json!({"name": "now"}), Trust::Weak),
            Some(vec![Ok("now {}".to_owned())])
        );
        assert_eq!(
            names(
                json!({"tool": "search", "query": "x", "id": "1"}),
                Trust::Weak
            ),
            Some(vec![Ok("search {\"query\":\"x\"}".to_owned())])
        );
        assert_eq!(
            names(json!({"tool": "search", "q": "x"}), Trust::Weak),
            None
        );
        assert_eq!(
            names(
                json!({"action": "search", "action_input": "rust"}),
                Trust::Weak
            ),
            Some(vec![Ok("search {\"query\":\"rust\"}".to_owned())])
        );
        let broken = names(
            json!({"name": "search", "arguments": "{\"query\": "}),
            Trust::Weak,
        )
        .unwrap();
        assert!(
            broken[0].as_ref().unwrap_err().contains("not valid JSON"),
            "{broken:?}"
        );
    }

    #[test]
    fn strong_lists_report_non_calls() {
        let outcomes = names(json!([{"name": "x", "arguments": {}}, 3]), Trust::Strong).unwrap();
        assert_eq!(outcomes[0], Ok("x {}".to_owned()));
        assert!(outcomes[1].as_ref().unwrap_err().contains("element 1"));
    }
}
