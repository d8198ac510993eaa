//! The MCS data model: field names of the standard, serde both ways, and the invariants the
//! types keep.

use mcs::{Binding, DriverMeta, DriverResponse, Tool, ToolCallRecord, ToolParameter};
use serde_json::{Value, json};

#[test]
fn driver_meta_reads_the_reference_sdk_shape_and_the_old_alias() {
    let written_by_python = json!({
        "id": "mcs-driver-rest-http",
        "name": "REST HTTP driver",
        "version": "1.2.0",
        "bindings": [{"capability": "rest", "adapter": "http", "spec_format": "OpenAPI"}],
        "supported_llms": ["gpt-4o", "claude-3-opus"],
        "capabilities": ["healthcheck"]
    });
    let meta: DriverMeta = serde_json::from_value(written_by_python).unwrap();
    assert_eq!(
        meta.target_llms.as_deref(),
        Some(&["gpt-4o".to_owned(), "claude-3-opus".to_owned()][..])
    );
    assert_eq!(
        meta.bindings,
        vec![Binding::new("rest", "http").with_spec_format("OpenAPI")]
    );

    // Written back under the standard's current name.
    let written = serde_json::to_value(&meta).unwrap();
    assert_eq!(written["target_llms"], json!(["gpt-4o", "claude-3-opus"]));
    assert!(written.get("supported_llms").is_none());
    let again: DriverMeta = serde_json::from_value(written).unwrap();
    assert_eq!(again, meta);
}

#[test]
fn driver_meta_defaults_optional_fields() {
    let meta: DriverMeta =
        serde_json::from_value(json!({"id": "x", "name": "X", "version": "0.1.0"})).unwrap();
    assert_eq!(meta, DriverMeta::new("x", "X", "0.1.0"));
    let written = serde_json::to_value(&meta).unwrap();
    assert!(
        written.get("target_llms").is_none(),
        "None is left out, not written as null"
    );
}

#[test]
fn a_tool_needs_a_title_or_a_description() {
    let error =
        serde_json::from_value::<Tool>(json!({"name": "ping", "parameters": []})).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("neither a title nor a description"),
        "{error}"
    );

    let blank =
        serde_json::from_value::<Tool>(json!({"name": "ping", "title": " ", "description": ""}));
    assert!(blank.is_err(), "blank text counts as missing");

    assert!(Tool::try_new("ping", None, None).is_err());
}

#[test]
fn a_missing_description_falls_back_to_the_title() {
    let tool: Tool =
        serde_json::from_value(json!({"name": "ping", "title": "Ping a host"})).unwrap();
    assert_eq!(tool.description(), "Ping a host");
    assert_eq!(tool.label(), "Ping a host");

    // The fallback is a reading, not a rewrite: the document round-trips as it was.
    assert_eq!(
        serde_json::to_value(&tool).unwrap(),
        json!({"name": "ping", "title": "Ping a host", "parameters": []})
    );
}

#[test]
fn the_label_is_the_title_or_the_first_line_of_the_description() {
    let tool = Tool::new("ls", "List a directory.\n\nHidden files are skipped.");
    assert_eq!(tool.label(), "List a directory.");
    assert_eq!(tool.with_title("List").label(), "List");
}

#[test]
fn tool_round_trips_with_parameters() {
    let tool = Tool::new("get_weather", "Current weather")
        .with_title("Weather")
        .with_parameter(
            ToolParameter::new("city", "City name").with_schema(json!({"type": "string"})),
        )
        .with_parameter(ToolParameter::new("days", "Forecast days").required(false));
    let value = serde_json::to_value(&tool).unwrap();
    assert_eq!(
        value,
        json!({
            "name": "get_weather",
            "title": "Weather",
            "description": "Current weather",
            "parameters": [
                {"name": "city", "description": "City name", "required": true, "schema": {"type": "string"}},
                {"name": "days", "description": "Forecast days", "required": false}
            ]
        })
    );
    let back: Tool = serde_json::from_value(value).unwrap();
    assert_eq!(back, tool);
}

#[test]
fn input_schema_is_an_object_with_properties_and_required() {
    let tool = Tool::new("get_weather", "Current weather")
        .with_parameter(
            ToolParameter::new("city", "City name").with_schema(json!({"type": "string"})),
        )
        .with_parameter(ToolParameter::new("note", "").required(false));
    assert_eq!(
        tool.input_schema(),
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name"},
                "note": {"type": "string"}
            },
            "required": ["city"]
        })
    );
}

#[test]
fn the_empty_response_means_no_call() {
    let empty = DriverResponse::default();
    assert!(empty.is_empty());
    let value = serde_json::to_value(&empty).unwrap();
    assert_eq!(value, json!({"call_executed": false, "call_failed": false}));
    assert_eq!(
        serde_json::from_value::<DriverResponse>(json!({})).unwrap(),
        empty
    );
}

#[test]
fn driver_response_round_trips_with_every_field() {
    let response = DriverResponse {
        tool_call_result: Some(json!({"temp": 21})),
        call_executed: true,
        call_failed: true,
        call_detail: Some("1 of 2 calls failed".into()),
        retry_prompt: Some("argument `city`: expected a string".into()),
        messages: Some(vec![json!({"role": "assistant", "content": "..."})]),
        executed_calls: vec![
            ToolCallRecord {
                name: "get_weather".into(),
                arguments: json!({"city": "Paris"}),
                result: Some(json!({"temp": 21})),
                error: None,
                tool_call_id: Some("call_1".into()),
            },
            ToolCallRecord {
                name: "get_weather".into(),
                arguments: json!({"city": 3}),
                result: None,
                error: Some("argument `city`: expected a string, got 3".into()),
                tool_call_id: None,
            },
        ],
    };
    assert!(!response.is_empty());
    let value = serde_json::to_value(&response).unwrap();
    for field in [
        "tool_call_result",
        "call_executed",
        "call_failed",
        "call_detail",
        "retry_prompt",
        "messages",
        "executed_calls",
    ] {
        assert!(
            value.get(field).is_some(),
            "field {field} is written under the standard's name"
        );
    }
    let back: DriverResponse = serde_json::from_value(value).unwrap();
    assert_eq!(back, response);
}

#[test]
fn tool_call_record_reads_a_minimal_record() {
    let record: ToolCallRecord = serde_json::from_value(json!({"name": "ping"})).unwrap();
    assert_eq!(record.arguments, Value::Null);
    assert_eq!(record.result, None);
}
