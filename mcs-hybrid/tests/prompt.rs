//! System prompts: defaults, per-model variants, prompt files, compact listings.

use mcs_core::{Tool, ToolParameter};
use mcs_hybrid::prompt::{CALL_FORMAT, DESCRIBE_TOOL, Prompts, function_description};
use serde_json::{Value, json};

fn tools(count: usize) -> Vec<Tool> {
    (0..count)
        .map(|i| {
            Tool::new(
                format!("tool_{i}"),
                format!("Does thing {i}.\n\nLong explanation {i}."),
            )
            .with_parameter(ToolParameter::new("x", "An x").with_schema(json!({"type": "integer"})))
        })
        .collect()
}

#[test]
fn function_description_has_the_reference_shape() {
    let listing: Value = serde_json::from_str(&function_description(&tools(1))).unwrap();
    assert_eq!(
        listing,
        json!({"tools": [{
            "name": "tool_0",
            "description": "Does thing 0.\n\nLong explanation 0.",
            "parameters": {"type": "object", "properties": {"x": {"type": "integer", "description": "An x"}}, "required": ["x"]}
        }]})
    );
}

#[test]
fn the_default_prompt_teaches_the_call_format_and_lists_the_tools() {
    let prompt = Prompts::default().system_message("weather", &tools(2), None);
    assert!(prompt.contains(CALL_FORMAT), "{prompt}");
    assert!(prompt.contains("weather"));
    assert!(prompt.contains("\"name\": \"tool_1\""));
}

#[test]
fn model_families_get_their_variant() {
    let prompts = Prompts::default();
    let default = prompts.template_for(None);
    let family = |model: &str| prompts.template_for(Some(model)).to_owned();
    assert_eq!(prompts.template_for(Some("mistral-7b")), default);
    assert!(family("claude-3-5-sonnet-latest").contains("<tools>"));
    assert!(family("gpt-4o-mini").starts_with("Tools of"));
    assert!(family("Qwen/Qwen2.5-7B-Instruct").contains("<tool_call>"));
    assert!(family("llama-3.1-8b-instruct").contains("<|python_tag|>"));
    let distinct: std::collections::BTreeSet<String> = ["claude-3", "gpt-4o", "qwen3", "llama3"]
        .iter()
        .map(|m| family(m))
        .collect();
    assert_eq!(distinct.len(), 4);
}

#[test]
fn a_partial_prompt_file_overrides_only_what_it_names() {
    let prompts = Prompts::default()
        .overridden_by(
            r#"
            [[variant]]
            models = ["claude-3-haiku*"]
            system = "HAIKU {tools}"
            "#,
            "test.toml",
        )
        .unwrap();
    assert_eq!(
        prompts.template_for(Some("claude-3-haiku-20240307")),
        "HAIKU {tools}"
    );
    // Other Claude models keep the built-in variant, and the default stays.
    assert_eq!(
        prompts.template_for(Some("claude-3-opus")),
        Prompts::default().template_for(Some("claude-3-opus"))
    );
    assert_eq!(
        prompts.template_for(None),
        Prompts::default().template_for(None)
    );
    assert_eq!(
        prompts.compact_threshold(),
        Prompts::default().compact_threshold()
    );

    let replaced = Prompts::default()
        .overridden_by("system = \"ONLY {driver}\"\ncompact_threshold = 3", "t")
        .unwrap();
    assert_eq!(
        replaced.system_message("d", &tools(1), Some("mistral")),
        "ONLY d"
    );
    assert_eq!(replaced.compact_threshold(), 3);
}

#[test]
fn prompt_files_with_mistakes_are_errors_that_say_where() {
    let unknown = Prompts::default()
        .overridden_by("sytem = \"x\"", "prompts.toml")
        .unwrap_err();
    let text = unknown.to_string();
    assert!(text.starts_with("prompt file prompts.toml:"), "{text}");
    assert!(text.contains("sytem"), "{text}");
    let broken = Prompts::default()
        .overridden_by("[[variant]\nmodels = 3", "p.toml")
        .unwrap_err();
    assert!(broken.to_string().contains("p.toml"));
    let missing = Prompts::from_file("/nonexistent/prompts.toml").unwrap_err();
    assert!(missing.to_string().contains("/nonexistent/prompts.toml"));
}

#[test]
fn many_tools_get_a_compact_listing() {
    let prompts = Prompts::default().with_compact_threshold(5);
    let few = prompts.system_message("d", &tools(5), None);
    assert!(few.contains("Long explanation 4"));
    let many = prompts.system_message("d", &tools(6), None);
    assert!(many.contains("- tool_5: Does thing 5."), "{many}");
    assert!(!many.contains("Long explanation"), "{many}");
    assert!(many.contains(DESCRIBE_TOOL));
    assert!(many.len() < few.len());
}
