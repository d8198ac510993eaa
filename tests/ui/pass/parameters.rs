// Parameter forms: `Option<T>`, `#[arg(default)]`, `#[arg(flatten)]`, and
// `#[arg(name = "type")]` on the raw identifier `r#type`; parameter doc comments.
use mcs::ToolDriver;

/// Paging.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Page {
    /// Where to start.
    offset: u32,
    /// How many.
    #[serde(default)]
    limit: Option<u32>,
}

struct Search;

#[mcs::tool_driver]
impl Search {
    /// Finds things.
    ///
    /// # Arguments
    ///
    /// * `query` - What to look for.
    #[tool]
    fn find(
        &self,
        query: String,
        /// Only this kind of thing.
        #[arg(name = "type")]
        r#type: Option<String>,
        /// At most this many.
        #[arg(default)]
        max: u32,
        #[arg(flatten)] page: Page,
    ) -> String {
        format!(
            "{query}/{}/{max}/{}/{}",
            r#type.unwrap_or_default(),
            page.offset,
            page.limit.unwrap_or(10)
        )
    }

    /// Counts things of a raw-named kind; the key is `type` without `#[arg(name)]` too.
    #[tool]
    fn count(&self, r#type: String) -> usize {
        r#type.len()
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let tools = Search.list_tools();
    let find = &tools[0];
    let names: Vec<&str> = find.parameters().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["query", "type", "max", "offset", "limit"]);
    assert!(find.parameter("query").unwrap().required);
    assert!(!find.parameter("type").unwrap().required);
    assert!(!find.parameter("max").unwrap().required);
    assert_eq!(
        find.parameter("query").unwrap().description,
        "What to look for."
    );
    assert_eq!(
        find.parameter("type").unwrap().description,
        "Only this kind of thing."
    );
    assert_eq!(tools[1].parameters()[0].name, "type");

    let call = Search.execute_tool("find", serde_json::json!({ "query": "q", "offset": 2 }));
    assert_eq!(call.await.unwrap(), "q//0/2/10");
    let call = Search.execute_tool(
        "find",
        serde_json::json!({ "query": "q", "type": "t", "max": 5, "offset": 1, "limit": 3 }),
    );
    assert_eq!(call.await.unwrap(), "q/t/5/1/3");
}
