//! Schema post-processing on inputs other generators write: draft-07 `definitions`, OpenAPI
//! `components/schemas`, escaped names, mutual recursion, references that go nowhere.

use mcs_core::schema::{PathSegment, describe, normalize, schema_at};
use serde_json::{Map, Value, json};

fn definitions(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("test definitions are objects"),
    }
}

#[test]
fn references_in_every_convention_are_inlined() {
    let defs = definitions(json!({"Id": {"type": "integer", "title": "Id"}}));
    for reference in ["#/$defs/Id", "#/definitions/Id", "#/components/schemas/Id"] {
        let mut schema = json!({"type": "object", "properties": {"id": {"$ref": reference}}});
        normalize(&mut schema, &defs);
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
            "{reference}"
        );
    }
}

#[test]
fn keywords_next_to_a_reference_win_and_descriptions_combine() {
    let defs = definitions(
        json!({"Unit": {"type": "string", "enum": ["c", "f"], "description": "A unit.", "default": "c"}}),
    );
    let mut schema =
        json!({"$ref": "#/$defs/Unit", "default": "f", "description": "Display unit."});
    normalize(&mut schema, &defs);
    assert_eq!(
        schema,
        json!({"type": "string", "enum": ["c", "f"], "default": "f", "description": "Display unit.\n\nA unit."})
    );
}

#[test]
fn escaped_definition_names_resolve() {
    let defs = definitions(json!({"a/b~c": {"type": "boolean"}}));
    let mut schema = json!({"$ref": "#/$defs/a~1b~0c"});
    normalize(&mut schema, &defs);
    assert_eq!(schema, json!({"type": "boolean"}));
}

#[test]
fn mutual_recursion_keeps_both_definitions() {
    let defs = definitions(json!({
        "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
        "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}
    }));
    let mut schema = json!({"$ref": "#/$defs/A"});
    normalize(&mut schema, &defs);
    // A is inlined at the root, B inside it, and the way back to A stays a reference.
    assert_eq!(
        schema["properties"]["b"]["properties"]["a"],
        json!({"$ref": "#/$defs/A"})
    );
    let kept = schema["$defs"].as_object().unwrap();
    assert!(kept.contains_key("A"));
    // The kept A refers to B, which refers back: B is kept only if some reference needs it.
    let a = &kept["A"];
    assert_eq!(
        a["properties"]["b"]["properties"]["a"],
        json!({"$ref": "#/$defs/A"})
    );
}

#[test]
fn unknown_references_are_left_alone() {
    let mut schema = json!({"properties": {"x": {"$ref": "https://example.com/schema.json"}, "y": {"$ref": "#/$defs/Missing"}}});
    let before = schema.clone();
    normalize(&mut schema, &Map::new());
    assert_eq!(schema, before);
}

#[test]
fn false_schema_definitions_become_not_anything() {
    let defs = definitions(json!({"Never": false}));
    let mut schema = json!({"$ref": "#/$defs/Never"});
    normalize(&mut schema, &defs);
    assert_eq!(schema, json!({"not": {}}));
}

#[test]
fn a_property_called_title_is_not_noise() {
    let mut schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Book",
        "type": "object",
        "properties": {"title": {"type": "string", "title": "Title"}}
    });
    normalize(&mut schema, &Map::new());
    assert_eq!(
        schema,
        json!({"type": "object", "properties": {"title": {"type": "string"}}})
    );
}

#[test]
fn constants_in_data_keywords_are_not_touched() {
    // `$ref` inside a default value is data, not a reference.
    let defs = definitions(json!({"X": {"type": "string"}}));
    let mut schema = json!({"type": "object", "default": {"$ref": "#/$defs/X"}, "examples": [{"title": "kept"}]});
    let before = schema.clone();
    normalize(&mut schema, &defs);
    assert_eq!(schema, before);
}

#[test]
fn enum_alternatives_collapse_only_when_all_are_constants() {
    let mut mixed = json!({"oneOf": [{"const": "a"}, {"type": "integer"}]});
    let before = mixed.clone();
    normalize(&mut mixed, &Map::new());
    assert_eq!(mixed, before);

    let mut numbers = json!({"oneOf": [{"const": 1, "description": "one"}, {"const": 2}]});
    normalize(&mut numbers, &Map::new());
    assert_eq!(
        numbers,
        json!({"type": "integer", "enum": [1, 2], "description": "- `1`: one"})
    );
}

#[test]
fn descriptions_of_what_is_expected() {
    let cases = [
        (json!({"type": "string"}), "a string"),
        (
            json!({"type": "string", "format": "date-time"}),
            "a string (date-time)",
        ),
        (
            json!({"type": "integer", "minimum": 1, "maximum": 10}),
            "an integer from 1 to 10",
        ),
        (json!({"type": "number", "minimum": 0}), "a number ≥ 0"),
        (json!({"type": "boolean"}), "a boolean (true or false)"),
        (json!({"type": ["string", "null"]}), "a string or null"),
        (json!({"enum": ["a", "b"]}), "one of \"a\", \"b\""),
        (json!({"const": 3}), "exactly 3"),
        (
            json!({"type": "array", "items": {"type": "integer"}}),
            "an array of integers",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "format": "uuid"}}),
            "an array of strings (uuid)",
        ),
        (
            json!({"type": "object", "properties": {"a": {}, "b": {}}}),
            "an object with fields a, b",
        ),
        (
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            "a string or null",
        ),
        (json!(true), "any JSON value"),
        (json!({}), "any JSON value"),
        // Alternatives of `required` only (a file argument's) leave the type to speak.
        (
            json!({"type": "object", "properties": {"path": {"type": "string"}}, "anyOf": [{"required": ["base64"]}, {"required": ["path"]}]}),
            "an object with fields path",
        ),
    ];
    for (schema, expected) in cases {
        assert_eq!(describe(&schema), expected, "{schema}");
    }
}

#[test]
fn long_enums_are_cut_short() {
    let values: Vec<Value> = (0..20).map(|i| json!(i)).collect();
    let text = describe(&json!({"enum": values}));
    assert!(text.ends_with("(and 8 more)"), "{text}");
}

#[test]
fn schema_at_follows_properties_items_and_recursive_refs() {
    let root = json!({
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
        "$defs": {"Node": {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}
    });
    let path = [
        PathSegment::Field("children".into()),
        PathSegment::Index(0),
        PathSegment::Field("children".into()),
        PathSegment::Index(3),
        PathSegment::Field("name".into()),
    ];
    assert_eq!(
        schema_at(&root, &root, &path),
        Some(&json!({"type": "string"}))
    );
    assert_eq!(
        schema_at(&root, &root, &[PathSegment::Field("nope".into())]),
        None
    );
}

mod coercion {
    use mcs_core::schema::{CoercionPolicy, TextReading, coerce};
    use serde_json::json;

    #[test]
    fn references_resolve_into_the_defs_at_the_root() {
        let schema = json!({
            "anyOf": [{"$ref": "#/$defs/Count"}, {"type": "null"}],
            "$defs": {"Count": {"type": "integer", "minimum": 0}},
        });
        assert_eq!(coerce("12", &schema, &CoercionPolicy::TEXT), json!(12));
        assert_eq!(coerce("None", &schema, &CoercionPolicy::TEXT), json!(null));
    }

    #[test]
    fn the_depth_bound_leaves_deeper_schemas_unread() {
        let mut schema = json!({"type": "integer"});
        for _ in 0..5 {
            schema = json!({"anyOf": [schema]});
        }
        assert_eq!(coerce("7", &schema, &CoercionPolicy::TEXT), json!(7));
        let shallow = CoercionPolicy::TEXT.with_max_depth(3);
        assert_eq!(shallow.reading, TextReading::Text);
        assert_eq!(coerce("7", &schema, &shallow), json!("7"));
        // A reference to itself ends at the bound instead of looping.
        let endless = json!({"$ref": "#/$defs/Loop", "$defs": {"Loop": {"$ref": "#/$defs/Loop"}}});
        assert_eq!(coerce("7", &endless, &CoercionPolicy::TEXT), json!("7"));
    }

    #[test]
    fn a_whole_text_is_read_boldly_a_json_string_only_when_unambiguous() {
        let integer = json!({"type": "integer"});
        let cases = [
            // text, as the whole value, as a JSON string
            (" 12\n", json!(12), json!(" 12\n")),
            ("3.0", json!(3), json!(3)),
            ("2.5", json!(2.5), json!("2.5")),
            ("01", json!(1), json!(1)),
            ("+1", json!(1), json!("+1")),
            // Full-width digits, as CJK input methods write them.
            ("\u{FF13}", json!(3), json!("\u{FF13}")),
            (
                "\u{FF0D}\u{FF14}\u{FF12}",
                json!(-42),
                json!("\u{FF0D}\u{FF14}\u{FF12}"),
            ),
            (
                "\u{FF13}\u{4E09}",
                json!("\u{FF13}\u{4E09}"),
                json!("\u{FF13}\u{4E09}"),
            ),
            ("1e20", json!(1e20), json!("1e20")),
            ("12abc", json!("12abc"), json!("12abc")),
        ];
        for (text, whole, quoted) in cases {
            assert_eq!(
                coerce(text, &integer, &CoercionPolicy::TEXT),
                whole,
                "{text}"
            );
            let json_string = coerce(text, &integer, &CoercionPolicy::JSON_STRING);
            assert_eq!(json_string, quoted, "{text}");
        }
        let boolean = json!({"type": "boolean"});
        assert_eq!(coerce("True", &boolean, &CoercionPolicy::TEXT), json!(true));
        // Python's capitalised literal means the boolean too; other words do not.
        let quoted = coerce("True", &boolean, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!(true));
        let quoted = coerce("yes", &boolean, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!("yes"));
        // An array or object encoded once more is read where the schema wants one; a list
        // written as prose is not.
        let list = json!({"type": "array", "items": {"type": "string"}});
        let quoted = coerce(r#"["ana", "raj"]"#, &list, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!(["ana", "raj"]));
        let quoted = coerce("ana, raj", &list, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!("ana, raj"));
        let object = json!({"type": "object"});
        let quoted = coerce(r#"{"room": "B2"}"#, &object, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!({"room": "B2"}));
        let quoted = coerce("[1]", &object, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!("[1]"));
        let nullable = json!({"type": ["integer", "null"]});
        assert_eq!(
            coerce("null", &nullable, &CoercionPolicy::TEXT),
            json!(null)
        );
        let quoted = coerce("null", &nullable, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!("null"));
    }

    #[test]
    fn an_empty_text_is_an_empty_list_or_object_only_where_nothing_else_is_taken() {
        let text = CoercionPolicy::TEXT;
        let list = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(coerce(" ", &list, &text), json!([]));
        assert_eq!(coerce("", &json!({"type": "object"}), &text), json!({}));
        // A string, null, or both shapes: the empty text is not one of them.
        let or_string = json!({"anyOf": [list, {"type": "string"}]});
        assert_eq!(coerce("", &or_string, &text), json!(""));
        let or_null = json!({"type": ["array", "null"]});
        assert_eq!(coerce("", &or_null, &text), json!(null));
        let both = json!({"type": ["array", "object"]});
        assert_eq!(coerce("", &both, &text), json!(""));
        assert_eq!(coerce("", &json!({}), &text), json!(""));
        // A JSON string is never read this way.
        let quoted = coerce("", &list, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!(""));
    }

    #[test]
    fn a_json_string_the_schema_takes_as_a_string_is_never_read() {
        let either = json!({"type": ["string", "integer"]});
        assert_eq!(coerce("42", &either, &CoercionPolicy::TEXT), json!(42));
        let quoted = coerce("42", &either, &CoercionPolicy::JSON_STRING);
        assert_eq!(quoted, json!("42"));
        let anything = json!({});
        assert_eq!(
            coerce("42", &anything, &CoercionPolicy::JSON_STRING),
            json!("42")
        );
    }

    #[test]
    fn json_looking_text_for_a_string_stays_a_string() {
        let string = json!({"type": "string"});
        for text in ["{\"a\": 1}", "[1, 2]", "42", "true", "null"] {
            assert_eq!(coerce(text, &string, &CoercionPolicy::TEXT), json!(text));
        }
    }
}

/// `coerce_value` matches a string enum ignoring case under both policies, when one value
/// matches; a string the schema takes as it is stays, and so does one two values match.
#[test]
fn coerce_value_matches_a_string_enum_ignoring_case_when_one_value_does() {
    use mcs_core::schema::{CoercionPolicy, coerce_value};
    let schema = serde_json::json!({ "type": "string", "enum": ["metric", "imperial"] });
    for policy in [CoercionPolicy::TEXT, CoercionPolicy::JSON_STRING] {
        let mut text = serde_json::json!("Metric");
        coerce_value(&mut text, &schema, &policy);
        assert_eq!(text, "metric");
    }
    let twins = serde_json::json!({ "type": "string", "enum": ["Metric", "metric"] });
    let mut quoted = serde_json::json!("METRIC");
    coerce_value(&mut quoted, &twins, &CoercionPolicy::JSON_STRING);
    assert_eq!(quoted, "METRIC");
    let free = serde_json::json!({ "type": "string" });
    let mut quoted = serde_json::json!("Metric");
    coerce_value(&mut quoted, &free, &CoercionPolicy::JSON_STRING);
    assert_eq!(quoted, "Metric");
}
