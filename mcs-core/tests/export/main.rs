//! The provider exports, checked against each provider's documented rules.
//!
//! Each `check_*` function encodes one provider's rules independently of the export code (its
//! own keyword lists, written from the provider's documentation) and returns every violation
//! it finds. They run over tools whose schemas schemars generates, the way drivers build
//! them, chosen for what providers trip over: optional parameters, enums with docs, nested
//! and recursive structs, `Option<Struct>`, vectors, maps, tuples, any-value parameters,
//! integer formats, tagged and untagged enums, and a parameter without a schema.

use mcs_core::export::{self, Provider};
use mcs_core::validate::{validate_arguments, validate_value};
use mcs_core::{Tool, ToolParameter};
use schemars::JsonSchema;
use serde_json::{Value, json};

mod checks;
use checks::{
    check_anthropic, check_gemini, check_mcp, check_openai_chat, check_openai_responses, keys,
};

mod tools;
use tools::types::Filter;
use tools::{tool, tools};

// ---------------------------------------------------------------------------------------
// Every tool, every provider.

fn assert_no_problems(provider: &str, tool: &Tool, problems: Vec<String>, exported: &Value) {
    assert!(
        problems.is_empty(),
        "{provider} rejects `{}`:\n{}\n\nexported:\n{}",
        tool.name(),
        problems.join("\n"),
        serde_json::to_string_pretty(exported).unwrap_or_default()
    );
}

#[test]
fn openai_chat_tools_meet_openai_rules() {
    for tool in tools() {
        let exported = export::openai_chat_tool(&tool);
        assert_no_problems(
            "OpenAI chat",
            &tool,
            check_openai_chat(&exported),
            &exported,
        );
        assert_eq!(exported["function"]["parameters"], tool.input_schema());
        assert!(exported["function"].get("strict").is_none());
    }
}

#[test]
fn openai_strict_tools_meet_strict_mode_rules() {
    for tool in tools() {
        let exported = export::openai_chat_tool_strict(&tool);
        assert_no_problems(
            "OpenAI strict",
            &tool,
            check_openai_chat(&exported),
            &exported,
        );
    }
}

#[test]
fn openai_responses_tools_meet_openai_rules() {
    for tool in tools() {
        for strict in [false, true] {
            let exported = export::openai_responses_tool(&tool, strict);
            assert_no_problems(
                "OpenAI Responses",
                &tool,
                check_openai_responses(&exported),
                &exported,
            );
        }
    }
}

#[test]
fn anthropic_tools_meet_anthropic_rules() {
    for tool in tools() {
        let exported = export::anthropic_tool(&tool);
        assert_no_problems("Anthropic", &tool, check_anthropic(&exported), &exported);
        assert_eq!(exported["input_schema"], tool.input_schema());
    }
}

#[test]
fn gemini_declarations_meet_gemini_rules() {
    for tool in tools() {
        let exported = export::gemini_function_declaration(&tool);
        assert_no_problems("Gemini", &tool, check_gemini(&exported), &exported);
    }
}

#[test]
fn mcp_entries_meet_the_mcp_tool_shape() {
    for tool in tools() {
        let exported = export::mcp_tool(&tool);
        assert_no_problems("MCP", &tool, check_mcp(&exported, &tool), &exported);
    }
}

#[test]
fn the_checkers_catch_what_they_are_for() {
    // Each checker on an input that breaks its rule, so a passing export means something.
    let open = json!({"type": "function", "function": {"name": "t", "description": "d", "strict": true,
        "parameters": {"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}}}});
    let found = check_openai_chat(&open);
    assert!(
        found.iter().any(|p| p.contains("additionalProperties")),
        "{found:?}"
    );
    assert!(found.iter().any(|p| p.contains("required")), "{found:?}");
    assert!(found.iter().any(|p| p.contains("minLength")), "{found:?}");
    let gemini = json!({"name": "1bad", "parameters": {"type": "object", "properties": {
        "a": {"type": ["string", "null"]}, "b": {"$ref": "#/$defs/B"}, "c": {"type": "object", "properties": {}},
        "d": {"type": "integer", "enum": [1, 2]}, "e": {"type": "integer", "format": "uint8"}}}});
    let found = check_gemini(&gemini);
    for expected in [
        "naming rule",
        "is not one type",
        "$ref is not",
        "without properties",
        "enum values",
        "format uint8",
    ] {
        assert!(
            found.iter().any(|p| p.contains(expected)),
            "{expected}: {found:?}"
        );
    }
    let anthropic = json!({"name": "a b", "description": "d", "input_schema": {"anyOf": []}});
    assert_eq!(check_anthropic(&anthropic).len(), 3);
    let mcp =
        json!({"name": "x", "description": "d", "inputSchema": {"type": "string"}, "extra": 1});
    assert_eq!(check_mcp(&mcp, &tool("note")).len(), 3);
}

// ---------------------------------------------------------------------------------------
// What the exports change, shape by shape.

#[test]
fn a_title_that_says_more_leads_the_description_a_model_reads() {
    // An OpenAPI operation's summary and description: the summary says what the
    // description does not, and formats without a title would lose it.
    let found = Tool::try_new(
        "getPetById",
        Some("Find pet by ID".to_owned()),
        Some("Returns a single pet".to_owned()),
    )
    .unwrap();
    assert_eq!(
        found.model_description(),
        "Find pet by ID. Returns a single pet"
    );
    assert_eq!(
        export::anthropic_tool(&found)["description"],
        "Find pet by ID. Returns a single pet"
    );
    assert_eq!(
        export::mcp_tool(&found)["description"],
        "Find pet by ID. Returns a single pet"
    );
    assert_eq!(export::mcp_tool(&found)["title"], "Find pet by ID");
    // A label the description already says, and a title alone, are as they are.
    let note = Tool::try_new(
        "note",
        Some("Note".to_owned()),
        Some("Takes a note.".to_owned()),
    )
    .unwrap();
    assert_eq!(note.model_description(), "Takes a note.");
    let asked = Tool::try_new(
        "ask",
        Some("Ask: a question?".to_owned()),
        Some("Sends it.".to_owned()),
    )
    .unwrap();
    assert_eq!(asked.model_description(), "Ask: a question? Sends it.");
    let bare = Tool::try_new("ping", Some("Checks the service is up".to_owned()), None).unwrap();
    assert_eq!(bare.model_description(), "Checks the service is up");
}

#[test]
fn mcs_listing_is_the_reference_sdk_shape() {
    let listing = export::mcs_listing(&[tool("note"), tool("ping")]);
    assert_eq!(
        listing,
        json!({"tools": [
            {"name": "note", "description": "Takes a note.", "parameters": {
                "type": "object",
                "properties": {"text": {"type": "string", "description": "The note, as plain text."}},
                "required": ["text"],
            }},
            {"name": "ping", "description": "Checks the service is up",
             "parameters": {"type": "object", "properties": {}, "required": []}},
        ]})
    );
}

#[test]
fn mcp_entries_carry_the_title_when_there_is_one() {
    let list = export::mcp_tools_list(&[tool("note"), tool("weather")]);
    assert_eq!(list["tools"][0]["title"], "Note");
    assert_eq!(list["tools"][0]["inputSchema"], tool("note").input_schema());
    assert!(list["tools"][1].get("title").is_none());
    assert_eq!(
        keys(&list["tools"][1]),
        ["name", "description", "inputSchema"]
    );
}

#[test]
fn strict_mode_makes_optional_parameters_nullable_and_required() {
    let exported = export::openai_chat_tool_strict(&tool("weather"));
    assert_eq!(exported["function"]["strict"], true);
    let parameters = &exported["function"]["parameters"];
    assert_eq!(
        parameters["required"],
        json!(["city", "units", "days", "at"])
    );
    assert_eq!(parameters["additionalProperties"], false);
    assert_eq!(
        parameters["properties"]["units"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        parameters["properties"]["units"]["enum"],
        json!(["metric", "imperial", null])
    );
    // The city was required: not nullable.
    assert_eq!(parameters["properties"]["city"]["type"], "string");
    // u8: the range stays, the numeric format goes.
    assert_eq!(parameters["properties"]["days"]["maximum"], 255);
    assert!(parameters["properties"]["days"].get("format").is_none());
    // The enum's documentation survives.
    let units = parameters["properties"]["units"]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        units.contains("`imperial`: Fahrenheit and miles."),
        "{units}"
    );
}

#[test]
fn strict_mode_closes_nested_objects_and_wraps_optional_structs() {
    let strict = export::openai_strict_schema(&tool("search").input_schema()).expect("strict");
    let also = &strict["properties"]["also"];
    // Option<Filter> already accepts null: it stays an anyOf with null, now closed inside.
    let inner = &also["anyOf"][0];
    assert_eq!(inner["additionalProperties"], false);
    assert_eq!(
        inner["required"],
        json!(["limit", "offset", "query", "tags", "labels", "units"])
    );
    assert_eq!(also["anyOf"][1], json!({"type": "null"}));
    // `#[serde(default)] offset: u64` was optional without accepting null: now it does.
    assert_eq!(
        strict["properties"]["filter"]["properties"]["offset"]["type"],
        json!(["integer", "null"])
    );
}

#[test]
fn strict_mode_moves_unsupported_keywords_into_descriptions() {
    let strict = export::openai_strict_schema(&tool("search").input_schema()).expect("strict");
    let filter = &strict["properties"]["filter"]["properties"];
    let name = &filter["tags"]["items"]["properties"]["name"];
    assert_eq!(
        name["description"],
        "Its name. (minLength: 1; maxLength: 40)"
    );
    assert!(name.get("minLength").is_none());
    // A pattern with look-ahead is beyond strict mode's regular expressions.
    let query = filter["query"]["description"].as_str().unwrap_or_default();
    assert!(
        query.starts_with("Words to look for. (pattern: "),
        "{query}"
    );
    assert!(filter["query"].get("pattern").is_none());
    // HashSet: uniqueItems is noted.
    let labels = filter["labels"]["description"].as_str().unwrap_or_default();
    assert_eq!(labels, "uniqueItems: true");
    // `default` is not supported either.
    assert_eq!(
        filter["offset"]["description"],
        "Rows to skip. (default: 0)"
    );

    let strict = export::openai_strict_schema(&tool("keywords").input_schema()).expect("strict");
    let site = &strict["properties"]["site"];
    assert_eq!(
        site["description"],
        "A site. (format: \"uri\"; minLength: 8)"
    );
    assert_eq!(strict["properties"]["ratio"]["multipleOf"], 0.25);
    // allOf is merged.
    let both = &strict["properties"]["both"]["anyOf"][0];
    assert_eq!(both["required"], json!(["a", "b"]));
    assert_eq!(both["properties"]["b"]["type"], json!(["boolean", "null"]));
}

#[test]
fn strict_mode_turns_one_of_into_any_of_and_unwraps_references_with_siblings() {
    let strict = export::openai_strict_schema(&tool("shapes").input_schema()).expect("strict");
    let shape = &strict["properties"]["shape"];
    assert!(shape.get("oneOf").is_none());
    assert_eq!(shape["anyOf"][0]["properties"]["kind"]["const"], "circle");
    assert_eq!(shape["anyOf"][0]["additionalProperties"], false);

    let strict = export::openai_strict_schema(&tool("tree").input_schema()).expect("strict");
    let node = &strict["$defs"]["Node"];
    assert_eq!(node["additionalProperties"], false);
    assert_eq!(node["required"], json!(["name", "children", "parent"]));
    assert_eq!(
        node["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(
        node["properties"]["parent"],
        json!({"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]})
    );
    let with_sibling = json!({"type": "object", "properties": {
        "n": {"$ref": "#/$defs/N", "description": "Which."}},
        "required": ["n"],
        "$defs": {"N": {"type": "integer"}}});
    let strict = export::openai_strict_schema(&with_sibling).expect("strict");
    assert_eq!(
        strict["properties"]["n"],
        json!({"description": "Which.", "anyOf": [{"$ref": "#/$defs/N"}]})
    );
}

#[test]
fn strict_mode_falls_back_for_what_it_cannot_express() {
    let cases = [
        ("counts", "/properties/counts/additionalProperties", "a map"),
        ("anything", "/properties/value", "any type"),
        ("pair", "/properties/pair", "tuple"),
    ];
    for (name, location, reason) in cases {
        let tool = tool(name);
        let error = export::openai_strict_schema(&tool.input_schema()).expect_err(name);
        assert_eq!(error.location, location);
        assert!(error.reason.contains(reason), "{error}");
        let exported = export::openai_chat_tool_strict(&tool);
        assert_eq!(exported["function"]["strict"], false);
        assert_eq!(exported["function"]["parameters"], tool.input_schema());
        let responses = export::openai_responses_tool(&tool, true);
        assert_eq!(responses["strict"], false);
    }
    assert_eq!(
        export::openai_strict_schema(&tool("counts").input_schema())
            .expect_err("map")
            .to_string(),
        "OpenAI strict mode cannot express the schema at `/properties/counts/additionalProperties`: \
         an object with free members (a map); strict mode closes every object"
    );
}

#[test]
fn strict_mode_falls_back_beyond_ten_levels_of_nesting() {
    let mut schema = json!({"type": "string"});
    for _ in 0..10 {
        schema = json!({"type": "object", "properties": {"inner": schema}, "required": ["inner"]});
    }
    let tool = Tool::new("deep", "Deep.")
        .with_parameter(ToolParameter::new("x", "X.").with_schema(schema.clone()));
    let error = export::openai_strict_schema(&tool.input_schema()).expect_err("11 levels");
    assert!(error.reason.contains("10 levels"), "{error}");
    let shallower = schema["properties"]["inner"].clone();
    let tool = Tool::new("deep", "Deep.")
        .with_parameter(ToolParameter::new("x", "X.").with_schema(shallower));
    assert!(export::openai_strict_schema(&tool.input_schema()).is_ok());
}

#[test]
fn strict_schemas_accept_the_calls_strict_mode_produces() {
    let tool = tool("search");
    let strict = export::openai_strict_schema(&tool.input_schema()).expect("strict");
    let call = json!({
        "filter": {"limit": null, "offset": null, "query": "rain", "tags": [{"name": "a", "weight": null}],
                   "labels": [], "units": null},
        "also": null,
        "page": null,
        "cursor": null,
    });
    assert!(
        validate_value("", &strict, &call).is_ok(),
        "{:?}",
        validate_value("", &strict, &call)
    );
    // Leaving a property out is what strict mode forbids.
    let mut partial = call.clone();
    partial["filter"].as_object_mut().map(|f| f.remove("units"));
    assert!(validate_value("", &strict, &partial).is_err());
}

#[test]
fn strict_arguments_drop_the_nulls_strict_mode_adds() {
    let tool = tool("search");
    let call = json!({
        "filter": {"limit": null, "offset": null, "query": "rain", "tags": [{"name": "a", "weight": null}],
                   "labels": [], "units": null},
        "also": null,
        "page": null,
        "cursor": null,
    });
    // As sent, the null offset does not fit `#[serde(default)] offset: u64`.
    let problems = validate_arguments(&tool, &call).expect_err("null offset");
    assert_eq!(
        problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["argument `filter.offset`: expected an integer (uint64) ≥ 0, got null"]
    );
    let cleaned = export::openai_strict_arguments(&tool, call);
    assert_eq!(
        cleaned,
        json!({"filter": {"limit": null, "query": "rain", "tags": [{"name": "a", "weight": null}],
                          "labels": [], "units": null}})
    );
    assert!(validate_arguments(&tool, &cleaned).is_ok());
    let filter: Filter = serde_json::from_value(cleaned["filter"].clone()).expect("decodes");
    assert_eq!(filter.offset, 0);
}

#[test]
fn strict_arguments_follow_references_and_alternatives() {
    let tool = tool("tree");
    let call = json!({"tree": {"name": "a", "parent": null, "children": [
        {"name": "b", "children": [], "parent": {"name": "c", "children": [], "parent": null}}]}});
    // Every null here is Option's: it stays.
    assert_eq!(export::openai_strict_arguments(&tool, call.clone()), call);

    let tool = tool_with("also", schema_of::<Option<Filter>>());
    let call = json!({"also": {"offset": null, "query": "q", "tags": [], "labels": [], "limit": null, "units": null}});
    let cleaned = export::openai_strict_arguments(&tool, call);
    assert!(cleaned["also"].get("offset").is_none(), "{cleaned}");
    assert!(cleaned["also"].get("limit").is_some(), "{cleaned}");
}

fn schema_of<T: JsonSchema>() -> Value {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

fn tool_with(name: &str, schema: Value) -> Tool {
    Tool::new("t", "T.").with_parameter(
        ToolParameter::new(name, "")
            .required(false)
            .with_schema(schema),
    )
}

#[test]
fn openai_descriptions_are_cut_to_the_limit() {
    let long = format!("{} end", "word ".repeat(300));
    let tool = Tool::new("long", long.clone());
    let exported = export::openai_chat_tool(&tool);
    let description = exported["function"]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(description.chars().count() <= export::OPENAI_DESCRIPTION_LIMIT);
    assert!(description.ends_with("word…"), "{description}");
    assert_eq!(export::anthropic_tool(&tool)["description"], long.as_str());
    let short = Tool::new("short", "Short.");
    assert_eq!(
        export::openai_chat_tool(&short)["function"]["description"],
        "Short."
    );
}

#[test]
fn gemini_turns_type_lists_into_nullable_and_const_into_enum() {
    let declaration = export::gemini_function_declaration(&tool("keywords"));
    let properties = &declaration["parameters"]["properties"];
    assert_eq!(
        properties["code"],
        json!({"type": "string", "description": "A code.", "enum": ["X1"]})
    );
    let mixed = &properties["mixed"];
    assert_eq!(mixed["nullable"], true);
    assert_eq!(
        mixed["anyOf"],
        json!([{"type": "string"}, {"type": "integer"}])
    );
    // Integer enums are not Gemini enums: the values go into the description.
    assert_eq!(
        properties["level"],
        json!({"type": "integer", "description": "A level. (one of 1, 2, 3)", "default": 2})
    );
    assert_eq!(
        properties["ratio"]["description"],
        "A ratio. (exclusiveMinimum: 0; exclusiveMaximum: 1; multipleOf: 0.25)"
    );
    // Gemini takes minLength; the uri format goes into the description.
    assert_eq!(properties["site"]["minLength"], 8);
    assert_eq!(
        properties["site"]["description"],
        "A site. (format: \"uri\")"
    );
}

#[test]
fn gemini_folds_null_alternatives_and_keeps_its_formats() {
    let declaration = export::gemini_function_declaration(&tool("weather"));
    let properties = &declaration["parameters"]["properties"];
    assert_eq!(properties["at"]["format"], "int64");
    assert!(
        properties["days"].get("format").is_none(),
        "uint8 is not a Gemini format"
    );
    let declaration = export::gemini_function_declaration(&tool("search"));
    let also = &declaration["parameters"]["properties"]["also"];
    assert_eq!(also["type"], "object");
    assert_eq!(also["nullable"], true);
    assert!(
        also["description"]
            .as_str()
            .unwrap_or_default()
            .starts_with("A second filter.")
    );
    let units = &also["properties"]["units"];
    assert_eq!(
        (&units["type"], &units["nullable"]),
        (&json!("string"), &json!(true))
    );
}

#[test]
fn gemini_inlines_recursive_types_to_a_bounded_depth() {
    let declaration = export::gemini_function_declaration(&tool("tree"));
    let text = declaration.to_string();
    assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
    let tree = &declaration["parameters"]["properties"]["tree"];
    let level2 = &tree["properties"]["children"]["items"];
    let level3 = &level2["properties"]["children"]["items"];
    assert_eq!(level3["type"], "object");
    let beyond = &level3["properties"]["children"]["items"];
    assert!(beyond.get("type").is_none(), "{beyond}");
    let said = beyond["description"].as_str().unwrap_or_default();
    assert!(
        said.contains("a recursive type") && said.contains("Node"),
        "{said}"
    );
    assert!(text.len() < 20_000, "{} bytes", text.len());
}

#[test]
fn gemini_describes_maps_any_values_and_tuples_in_words() {
    let declaration = export::gemini_function_declaration(&tool("counts"));
    assert_eq!(
        declaration["parameters"]["properties"]["counts"],
        json!({"description": "Counts by name.\n\nA JSON object whose member values are each an integer (uint32) ≥ 0."})
    );
    let declaration = export::gemini_function_declaration(&tool("anything"));
    assert_eq!(
        declaration["parameters"]["properties"]["value"],
        json!({"description": "Any value.\n\nAny JSON value."})
    );
    let declaration = export::gemini_function_declaration(&tool("pair"));
    let pair = &declaration["parameters"]["properties"]["pair"];
    assert_eq!(pair["items"]["anyOf"][1], json!({"type": "string"}));
    assert_eq!(pair["minItems"], 2);
    let said = pair["description"].as_str().unwrap_or_default();
    assert!(
        said.contains("in this order: an integer (uint8) from 0 to 255, a string"),
        "{said}"
    );
}

#[test]
fn gemini_leaves_out_parameters_of_a_tool_without_any() {
    let declaration = export::gemini_function_declaration(&tool("ping"));
    assert_eq!(
        declaration,
        json!({"name": "ping", "description": "Checks the service is up"})
    );
    let all = export::gemini_tools(&[tool("ping"), tool("note")]);
    assert_eq!(
        all["functionDeclarations"].as_array().map(Vec::len),
        Some(2)
    );
}

#[test]
fn gemini_merges_all_of_and_drops_additional_properties() {
    let declaration = export::gemini_function_declaration(&tool("keywords"));
    let both = &declaration["parameters"]["properties"]["both"];
    assert_eq!(both["required"], json!(["a"]));
    assert_eq!(both["properties"]["b"], json!({"type": "boolean"}));
    let declaration = export::gemini_function_declaration(&tool("search"));
    let tag = &declaration["parameters"]["properties"]["filter"]["properties"]["tags"]["items"];
    assert!(tag.get("additionalProperties").is_none());
}

#[test]
fn provider_name_rules() {
    let cases = [
        ("get_weather", [true, true, true, true]),
        ("get-weather-2", [true, true, true, true]),
        ("weather.get", [false, false, true, true]),
        ("ns:weather", [false, false, true, false]),
        ("2fast", [true, true, false, true]),
        ("has space", [false, false, false, false]),
        ("", [false, false, false, false]),
    ];
    let providers = [
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Mcp,
    ];
    for (name, expected) in cases {
        for (provider, expected) in providers.iter().zip(expected) {
            assert_eq!(
                provider.accepts_tool_name(name),
                expected,
                "{provider:?} {name:?}"
            );
        }
    }
    let long = "a".repeat(65);
    assert!(!Provider::OpenAi.accepts_tool_name(&long));
    assert!(!Provider::Gemini.accepts_tool_name(&long));
    assert!(Provider::Mcp.accepts_tool_name(&long));
    assert!(!Provider::Mcp.accepts_tool_name(&"a".repeat(129)));
}
