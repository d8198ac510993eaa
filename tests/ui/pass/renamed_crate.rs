// `crate = "..."` for code that reaches mcs under another name. Here the name comes from a
// `use mcs as my_mcs;` in this module, so the generated `my_mcs::__private::...` paths
// resolve like any other path written here; a dependency renamed in Cargo.toml
// (`my_mcs = { package = "mcs" }`) works the same way, from any module.
// `#[my_mcs::tool]` is recognized as well as `#[tool]`.
use mcs as my_mcs;

use my_mcs::ToolDriver;

struct Clock;

#[my_mcs::tool_driver(crate = "my_mcs", name = "clock")]
impl Clock {
    /// The hour.
    #[tool]
    fn hour(&self) -> u32 {
        12
    }

    /// The minute.
    #[my_mcs::tool]
    fn minute(&self) -> u32 {
        30
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    assert_eq!(Clock.meta().name, "clock");
    assert_eq!(Clock.list_tools().len(), 2);
    let hour = Clock.execute_tool("hour", serde_json::Value::Null);
    assert_eq!(hour.await.unwrap(), 12);
}
