//! Toolsets and discovery mode of the Orchestrator: grouping by `#[tool(tags = [...])]` and
//! all in one, splits a model proposes (accepted only when valid), and a model that starts
//! from toolsets, searches, loads and describes tools, then calls what it found in every
//! call format.

use std::sync::Arc;

use mcs::llm::ScriptedClient;
use mcs::orchestrator::{
    ConflictPolicy, Discovery, Grouping, LOAD_TOOLSET, Orchestrator, OrchestratorError,
    Registration, SEARCH_TOOLS, SplitError,
};
use mcs::{
    Driver, DriverMeta, LlmResponse, Tool, ToolDriver, ToolError, ToolFuture, ToolParameter,
};
use serde_json::{Value, json};

struct Shop;

#[mcs::tool_driver(
    name = "shop",
    tag("pets", "The animals for sale, and adding new ones."),
    tag("orders", "Orders customers place for pets.")
)]
impl Shop {
    /// Lists the pets for sale.
    #[tool(tags = ["pets"])]
    fn list_pets(&self) -> Vec<&'static str> {
        vec!["Rex", "Tom"]
    }

    /// Adds a pet to the shop.
    #[tool(tags = ["pets", "admin"])]
    fn add_pet(&self, name: String, species: String) -> String {
        format!("added {species} {name}")
    }

    /// Places an order for a pet.
    #[tool(tags = ["orders"])]
    fn place_order(&self, pet: String, quantity: u32) -> Value {
        json!({ "order": 1, "pet": pet, "quantity": quantity })
    }

    /// Checks that the shop answers.
    #[tool]
    fn ping(&self) -> &'static str {
        "pong"
    }
}

struct Weather;

#[mcs::tool_driver(name = "weather")]
impl Weather {
    /// The weather forecast for a city.
    #[tool(title = "Forecast")]
    fn forecast(&self, city: String) -> String {
        format!("sunny in {city}")
    }
}

/// A driver with `count` untagged tools `op_0` … (for large sets and splitting).
struct Many {
    meta: DriverMeta,
    tools: Arc<[Tool]>,
}

impl Many {
    fn new(count: usize) -> Self {
        Many::named(count, "")
    }

    /// `count` tools named `op_{i}` followed by `suffix`.
    fn named(count: usize, suffix: &str) -> Self {
        let tools: Vec<Tool> = (0..count)
            .map(|i| {
                Tool::new(format!("op_{i}{suffix}"), format!("Operation number {i}."))
                    .with_parameter(ToolParameter::new("value", "Any text."))
            })
            .collect();
        Many {
            meta: DriverMeta::new("many", "Many", "1"),
            tools: tools.into(),
        }
    }
}

impl ToolDriver for Many {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
        ToolFuture::ready(Ok(json!({ "ran": name, "with": arguments })))
    }
}

fn ids(orchestrator: &Orchestrator) -> Vec<String> {
    orchestrator
        .toolsets()
        .iter()
        .map(|s| s.id().to_owned())
        .collect()
}

#[test]
fn annotated_tags_group_tools_by_their_first_tag() {
    assert_eq!(Shop.tool_tags("add_pet"), ["pets", "admin"]);
    assert!(Shop.tool_tags("ping").is_empty());
    assert!(Weather.tool_tags("forecast").is_empty());

    let orchestrator = Orchestrator::new("office", ConflictPolicy::Reject);
    orchestrator
        .register("shop", Arc::new(Shop), Registration::new())
        .unwrap();
    orchestrator
        .register("weather", Arc::new(Weather), Registration::new())
        .unwrap();
    assert_eq!(
        ids(&orchestrator),
        ["shop_pets", "shop_orders", "shop_other", "weather_all"]
    );
    let pets = orchestrator.toolset("shop_pets").unwrap();
    assert_eq!(pets.tools(), ["list_pets", "add_pet"]);
    assert_eq!(pets.source(), "shop");
    assert_eq!(pets.title(), "pets");
    // `tag("pets", "...")` on the driver describes the toolset made from the tag.
    assert_eq!(
        pets.description(),
        Some("The animals for sale, and adding new ones.")
    );
    assert_eq!(Shop.tag_description("admin"), None, "not described");
    assert_eq!(
        orchestrator.toolset("shop_other").unwrap().description(),
        None
    );
    assert_eq!(
        orchestrator.toolset("weather_all").unwrap().title(),
        "weather"
    );
    assert!(orchestrator.toolset("nope").is_none());
    // The orchestrator hands its drivers' tags on, so nested orchestrators group alike.
    assert_eq!(orchestrator.tool_tags("add_pet"), ["pets", "admin"]);
}

#[test]
fn namespaced_toolsets_list_the_names_the_model_sees_and_grouping_can_be_chosen() {
    let orchestrator = Orchestrator::new("office", ConflictPolicy::Namespace);
    orchestrator
        .register(
            "shop",
            Arc::new(Shop),
            Registration::new().grouping(Grouping::AllInOne),
        )
        .unwrap();
    orchestrator
        .register("weather", Arc::new(Weather), Registration::new())
        .unwrap();
    let sets = orchestrator.toolsets();
    assert_eq!(sets[0].id(), "shop_all");
    assert_eq!(sets[0].tools().len(), 4);
    assert!(sets[0].tools().iter().all(|t| t.starts_with("shop__")));
    assert_eq!(orchestrator.tool_tags("shop__add_pet"), ["pets", "admin"]);

    // Toolsets follow registration changes.
    assert!(orchestrator.remove("shop"));
    assert_eq!(ids(&orchestrator), ["weather_all"]);
}

#[test]
fn nested_orchestrators_group_by_the_inner_drivers_tags() {
    let inner = Orchestrator::new("inner", ConflictPolicy::Reject);
    inner
        .register("shop", Arc::new(Shop), Registration::new())
        .unwrap();
    let outer = Orchestrator::new("outer", ConflictPolicy::Namespace);
    outer
        .register("inner", Arc::new(inner), Registration::new())
        .unwrap();
    assert_eq!(ids(&outer), ["inner_pets", "inner_orders", "inner_other"],);
    assert_eq!(
        outer.toolset("inner_orders").unwrap().tools(),
        ["inner__place_order"]
    );
}

fn split_answer(groups: &[(&str, std::ops::Range<usize>)]) -> String {
    let groups: Vec<Value> = groups
        .iter()
        .map(|(name, range)| {
            json!({
                "name": name,
                "description": format!("{name} operations"),
                "tools": range.clone().map(|i| format!("op_{i}")).collect::<Vec<_>>(),
            })
        })
        .collect();
    format!("Sure.\n```json\n{}\n```", json!({ "groups": groups }))
}

#[tokio::test]
async fn a_model_splits_a_large_toolset_and_its_answer_is_checked() {
    let orchestrator = Orchestrator::new("office", ConflictPolicy::Reject).with_max_toolset_size(5);
    orchestrator
        .register("many", Arc::new(Many::new(12)), Registration::new())
        .unwrap();
    orchestrator
        .register("weather", Arc::new(Weather), Registration::new())
        .unwrap();
    assert_eq!(ids(&orchestrator), ["many_all", "weather_all"]);

    // Only the oversized set is sent, once; its answer is valid.
    let model = ScriptedClient::from_texts([split_answer(&[
        ("Low", 0..4),
        ("Middle", 4..8),
        ("High", 8..12),
    ])]);
    let outcomes = orchestrator.split_toolsets(&model).await;
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].toolset, "many_all");
    assert_eq!(
        outcomes[0].result.as_ref().unwrap(),
        &["many_all_Low", "many_all_Middle", "many_all_High"]
    );
    let request = &model.requests()[0];
    let asked = request[1]["content"].as_str().unwrap();
    assert!(
        asked.contains("op_11") && asked.contains("at most 5"),
        "{asked}"
    );
    assert_eq!(
        ids(&orchestrator),
        [
            "many_all_Low",
            "many_all_Middle",
            "many_all_High",
            "weather_all"
        ]
    );
    let middle = orchestrator.toolset("many_all_Middle").unwrap();
    assert_eq!(middle.tools(), ["op_4", "op_5", "op_6", "op_7"]);
    assert_eq!(middle.description(), Some("Middle operations"));

    // The split stays while it matches; a second split request has nothing to do.
    let idle = ScriptedClient::from_texts(Vec::<String>::new());
    assert!(orchestrator.split_toolsets(&idle).await.is_empty());
}

#[tokio::test]
async fn a_bad_split_or_a_failed_model_leaves_the_set_whole() {
    let orchestrator = Orchestrator::new("office", ConflictPolicy::Reject).with_max_toolset_size(5);
    orchestrator
        .register("many", Arc::new(Many::new(8)), Registration::new())
        .unwrap();
    let answers = [
        // op_7 is in no group.
        split_answer(&[("A", 0..4), ("B", 4..7)]),
        // A group over the maximum size.
        split_answer(&[("A", 0..6), ("B", 6..8)]),
        // Not JSON.
        "I would group them by number.".to_owned(),
    ];
    let wanted = [
        "1 tool(s) in no group: op_7",
        "group `A` has 6 tools; a group needs 1 to 5",
        "not the JSON asked for",
    ];
    for (answer, wanted) in answers.into_iter().zip(wanted) {
        let model = ScriptedClient::from_texts([answer]);
        let outcomes = orchestrator.split_toolsets(&model).await;
        let error = outcomes[0].result.as_ref().unwrap_err();
        assert!(error.to_string().contains(wanted), "{error}");
        assert_eq!(ids(&orchestrator), ["many_all"]);
    }
    // A model that cannot answer.
    let silent = ScriptedClient::from_texts(Vec::<String>::new());
    let outcomes = orchestrator.split_toolsets(&silent).await;
    assert!(matches!(outcomes[0].result, Err(SplitError::Model(_))));
    assert_eq!(ids(&orchestrator), ["many_all"]);
}

fn discovering() -> Orchestrator {
    let orchestrator =
        Orchestrator::new("office", ConflictPolicy::Reject).with_discovery(Discovery::Always);
    orchestrator
        .register("shop", Arc::new(Shop), Registration::new())
        .unwrap();
    orchestrator
        .register("weather", Arc::new(Weather), Registration::new())
        .unwrap();
    orchestrator
}

async fn run(orchestrator: &Orchestrator, call: &str) -> Value {
    let response = orchestrator
        .process_llm_response(LlmResponse::Text(call))
        .await;
    assert!(response.call_executed, "{call}: {response:?}");
    response.tool_call_result.unwrap()
}

#[tokio::test]
async fn discovery_lists_toolsets_and_the_model_finds_loads_describes_and_calls() {
    let orchestrator = discovering();
    let prompt = orchestrator.get_driver_system_message(None);
    // The prompt offers the discovery tools and the toolsets, and no tool's description.
    for wanted in [
        SEARCH_TOOLS,
        LOAD_TOOLSET,
        "describe_tool",
        "`shop_pets` (2 tools)",
        "`weather_all` (1 tool)",
    ] {
        assert!(prompt.contains(wanted), "{wanted} missing from:\n{prompt}");
    }
    assert!(!prompt.contains("Places an order"), "{prompt}");
    let shown: Vec<String> = orchestrator
        .prompt_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(shown, [SEARCH_TOOLS, LOAD_TOOLSET, "describe_tool"]);
    // Every tool stays listed (and callable) for the call formats and nested use.
    assert_eq!(orchestrator.list_tools().len(), 5 + 3);
    assert_eq!(
        orchestrator.get_function_description(None),
        mcs::prompt::function_description(&orchestrator.prompt_tools())
    );

    let found = run(
        &orchestrator,
        r#"{"tool": "search_tools", "arguments": {"query": "order a pet"}}"#,
    )
    .await;
    assert_eq!(found["results"][0]["name"], "place_order", "{found}");
    assert_eq!(found["results"][0]["toolset"], "shop_orders");
    assert_eq!(found["results"][0]["required"], json!(["pet", "quantity"]));

    let loaded = run(
        &orchestrator,
        r#"{"tool": "load_toolset", "arguments": {"id": "shop_pets"}}"#,
    )
    .await;
    assert_eq!(loaded["count"], 2);
    assert_eq!(loaded["tools"][1]["name"], "add_pet");
    assert_eq!(
        loaded["tools"][1]["parameters"]["required"],
        json!(["name", "species"])
    );

    let described = run(
        &orchestrator,
        r#"{"tool": "describe_tool", "arguments": {"name": "forecast"}}"#,
    )
    .await;
    assert_eq!(
        described,
        mcs::prompt::describe_tool(&Weather.list_tools()[0])
    );

    // What was found is called like any listed tool, in every call format.
    let text = run(
        &orchestrator,
        r#"{"tool": "add_pet", "arguments": {"name": "Rex", "species": "dog"}}"#,
    )
    .await;
    assert_eq!(text, "added dog Rex");
    let openai = json!({
        "role": "assistant",
        "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "place_order", "arguments": "{\"pet\": \"Rex\", \"quantity\": 2}"}}]
    });
    let response = orchestrator
        .process_llm_response(LlmResponse::Message(&openai))
        .await;
    assert!(response.call_executed, "{response:?}");
    assert_eq!(
        response.executed_calls[0].tool_call_id.as_deref(),
        Some("c1")
    );
    let anthropic = json!({
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t1", "name": "forecast", "input": {"city": "Oslo"}}]
    });
    let response = orchestrator
        .process_llm_response(LlmResponse::Message(&anthropic))
        .await;
    assert_eq!(response.tool_call_result, Some(json!("sunny in Oslo")));
    let hermes = "<tool_call>{\"name\": \"list_pets\", \"arguments\": {}}</tool_call>";
    assert_eq!(run(&orchestrator, hermes).await, json!(["Rex", "Tom"]));
}

#[tokio::test]
async fn discovery_mistakes_come_back_with_a_hint() {
    let orchestrator = discovering();
    let response = orchestrator
        .process_llm_response(LlmResponse::Text(
            r#"{"tool": "load_toolset", "arguments": {"id": "shop_pet"}}"#,
        ))
        .await;
    assert!(response.call_failed);
    let hint = response.retry_prompt.unwrap();
    assert!(hint.contains("`shop_pets`"), "{hint}");

    let response = orchestrator
        .process_llm_response(LlmResponse::Text(
            r#"{"tool": "describe_tool", "arguments": {"name": "forcast"}}"#,
        ))
        .await;
    assert!(response.call_failed);
    assert!(response.retry_prompt.unwrap().contains("forecast"));
    // A wrong name is a mistake in describe_tool's argument, not an unknown tool (over MCP
    // that would be a protocol error the model may never read).
    let error = orchestrator
        .execute_tool("describe_tool", json!({"name": "forcast"}))
        .await
        .unwrap_err();
    assert!(
        matches!(&error, ToolError::InvalidArguments { tool, .. } if tool == "describe_tool"),
        "{error:?}"
    );
    assert!(error.to_string().contains("such as `forecast`"), "{error}");

    // Arguments are validated like any tool's.
    let response = orchestrator
        .process_llm_response(LlmResponse::Text(
            r#"{"tool": "search_tools", "arguments": {"limit": 3}}"#,
        ))
        .await;
    assert!(response.call_failed);
    assert!(response.retry_prompt.unwrap().contains("query"));

    let found = run(
        &orchestrator,
        r#"{"tool": "search_tools", "arguments": {"query": "quantum flux"}}"#,
    )
    .await;
    assert_eq!(found["results"], json!([]));
    assert!(found["note"].as_str().unwrap().contains("load_toolset"));
}

#[tokio::test]
async fn a_large_toolset_is_cut_into_pages_each_loaded_whole_and_search_can_stay_within_a_set() {
    let orchestrator =
        Orchestrator::new("office", ConflictPolicy::Reject).with_discovery(Discovery::Above(50));
    orchestrator
        .register("weather", Arc::new(Weather), Registration::new())
        .unwrap();
    // Under the threshold the prompt lists the tools themselves.
    assert!(
        orchestrator
            .get_driver_system_message(None)
            .contains("The weather forecast for a city.")
    );
    orchestrator
        .register("many", Arc::new(Many::new(2500)), Registration::new())
        .unwrap();
    let prompt = orchestrator.get_driver_system_message(None);
    assert!(!prompt.contains("Operation number"));

    // Names that say nothing (`op_0` … `op_2499`) cannot be grouped by resource: the set
    // is cut into toolsets of a page each, in order, every one named in the prompt and
    // loaded whole in one turn.
    let parts: Vec<String> = orchestrator
        .toolsets()
        .iter()
        .map(|set| set.id().to_owned())
        .filter(|id| id.starts_with("many_all"))
        .collect();
    assert!(parts.len() >= 2, "{parts:?}");
    assert_eq!(parts[0], "many_all_part-1");
    let mut seen = 0;
    for id in &parts {
        assert!(
            prompt.contains(&format!("`{id}`")),
            "{id} not in the prompt"
        );
        let call = json!({"tool": "load_toolset", "arguments": {"id": id}});
        let page = run(&orchestrator, &call.to_string()).await;
        assert!(page.get("next_offset").is_none(), "{page}");
        assert!(page.to_string().len() < 24_000);
        let tools = page["tools"].as_array().unwrap();
        assert_eq!(tools[0], format!("op_{seen}: Operation number {seen}."));
        seen += tools.len();
    }
    assert_eq!(seen, 2500);

    let within = run(
        &orchestrator,
        r#"{"tool": "search_tools", "arguments": {"query": "forecast operation", "toolset": "weather_all", "limit": 5}}"#,
    )
    .await;
    assert_eq!(within["results"].as_array().unwrap().len(), 1, "{within}");
    assert_eq!(within["results"][0]["name"], "forecast");
    let called = run(
        &orchestrator,
        r#"{"tool": "op_321", "arguments": {"value": "x"}}"#,
    )
    .await;
    assert_eq!(called["ran"], "op_321");
}

/// Too few tools to be grouped by their names (60), but names so long that their listing
/// is over a page: the toolset is answered a page at a time, and the next page is one load
/// with the offset the first gives.
#[tokio::test]
async fn a_toolset_whose_listing_is_over_a_page_loads_a_page_at_a_time() {
    let orchestrator =
        Orchestrator::new("office", ConflictPolicy::Reject).with_discovery(Discovery::Always);
    let suffix = format!("_{}", "with_a_very_long_name".repeat(20));
    orchestrator
        .register(
            "many",
            Arc::new(Many::named(60, &suffix)),
            Registration::new(),
        )
        .unwrap();
    let first = run(
        &orchestrator,
        r#"{"tool": "load_toolset", "arguments": {"id": "many_all"}}"#,
    )
    .await;
    assert_eq!(first["count"], 60);
    let page = first["tools"].as_array().unwrap();
    assert_eq!(page[0], format!("op_0{suffix}: Operation number 0."));
    let next = first["next_offset"].as_u64().expect("a second page");
    assert_eq!(page.len() as u64, next);
    assert!(
        first.to_string().len() < 24_000,
        "{}",
        first.to_string().len()
    );
    let call = json!({"tool": "load_toolset", "arguments": {"id": "many_all", "offset": next}});
    let rest = run(&orchestrator, &call.to_string()).await;
    let rest_page = rest["tools"].as_array().unwrap();
    assert_eq!(
        rest_page[0],
        format!("op_{next}{suffix}: Operation number {next}.")
    );
    assert!(rest.get("next_offset").is_none(), "two pages hold 60 lines");
    assert_eq!(next as usize + rest_page.len(), 60);
}

#[test]
fn a_driver_tool_named_like_a_discovery_tool_is_refused() {
    struct Searcher;
    #[mcs::tool_driver]
    impl Searcher {
        /// Searches the web.
        #[tool]
        fn search_tools(&self, query: String) -> String {
            query
        }
    }
    let orchestrator =
        Orchestrator::new("office", ConflictPolicy::Priority).with_discovery(Discovery::Always);
    let error = orchestrator
        .register("web", Arc::new(Searcher), Registration::new())
        .unwrap_err();
    assert_eq!(
        error,
        OrchestratorError::Reserved {
            tool: "search_tools".into(),
            label: "web".into()
        }
    );
    assert!(orchestrator.labels().is_empty());
    // Namespaced, the names cannot clash.
    let namespaced =
        Orchestrator::new("office", ConflictPolicy::Namespace).with_discovery(Discovery::Always);
    namespaced
        .register("web", Arc::new(Searcher), Registration::new())
        .unwrap();
    assert!(namespaced.tool_position("web__search_tools").is_some());
}

fn names(driver: &dyn ToolDriver) -> Vec<String> {
    driver
        .list_tools()
        .iter()
        .map(|tool| tool.name().to_owned())
        .collect()
}

/// Settings take effect whenever they are made: discovery switched on after the drivers
/// are registered lists what it lists when switched on first, and a setting the registered
/// tools cannot take leaves the listing and says why.
#[test]
fn discovery_set_after_registration_is_the_same_as_before() {
    let first = discovering();
    let later = Orchestrator::new("office", ConflictPolicy::Reject);
    later
        .register("shop", Arc::new(Shop), Registration::new())
        .unwrap();
    later
        .register("weather", Arc::new(Weather), Registration::new())
        .unwrap();
    let later = later.with_discovery(Discovery::Always);
    assert_eq!(names(&later), names(&first));
    assert_eq!(
        later.get_driver_system_message(None),
        first.get_driver_system_message(None)
    );

    struct Searcher;
    #[mcs::tool_driver]
    impl Searcher {
        /// Searches the web.
        #[tool]
        fn search_tools(&self, query: String) -> String {
            query
        }
    }
    let clash = Orchestrator::new("office", ConflictPolicy::Priority);
    clash
        .register("web", Arc::new(Searcher), Registration::new())
        .unwrap();
    let clash = clash.with_discovery(Discovery::Always);
    assert_eq!(names(&clash), ["search_tools"]);
    assert!(matches!(
        clash.refresh(),
        Err(OrchestratorError::Reserved { .. })
    ));
}

#[test]
fn the_tools_a_conversation_discovered_are_derived_from_its_own_calls() {
    let orchestrator = discovering();
    let names =
        |tools: Vec<Tool>| -> Vec<String> { tools.iter().map(|t| t.name().to_owned()).collect() };
    let opening = [
        json!({"role": "system", "content": orchestrator.get_driver_system_message(None)}),
        json!({"role": "user", "content": "Order a pet, then check the weather."}),
    ];
    assert_eq!(
        names(orchestrator.discovered_tools(&opening)),
        [SEARCH_TOOLS, LOAD_TOOLSET, "describe_tool"]
    );
    let history = [
        opening[0].clone(),
        opening[1].clone(),
        // Text mode: a loaded toolset.
        json!({"role": "assistant", "content": "{\"tool\": \"load_toolset\", \"arguments\": {\"id\": \"shop_pets\"}}"}),
        json!({"role": "user", "content": "Tool result: ..."}),
        // OpenAI native: a described tool, and a call that reveals nothing.
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "describe_tool", "arguments": "{\"name\": \"forecast\"}"}},
            {"id": "c2", "type": "function", "function": {"name": "load_toolset", "arguments": "{\"id\": \"no_such_set\"}"}}
        ]}),
        json!({"role": "tool", "tool_call_id": "c1", "content": "{}"}),
        // Anthropic: a search, answered again from the same index.
        json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "search_tools", "input": {"query": "order", "limit": 1}}
        ]}),
    ];
    assert_eq!(
        names(orchestrator.discovered_tools(&history)),
        [
            SEARCH_TOOLS,
            LOAD_TOOLSET,
            "describe_tool",
            "list_pets",
            "add_pet",
            "forecast",
            "place_order"
        ]
    );
    // Outside discovery mode every tool is there from the start.
    let plain = Orchestrator::new("office", ConflictPolicy::Reject);
    plain
        .register("weather", Arc::new(Weather), Registration::new())
        .unwrap();
    assert_eq!(names(plain.discovered_tools(&[])), ["forecast"]);
}
