// A generic impl whose tools do not depend on its parameter `A`: one driver per `A`, each
// with the same tools.
use std::marker::PhantomData;

use mcs::ToolDriver;

struct Fs<A> {
    root: String,
    backend: PhantomData<A>,
}

#[mcs::tool_driver(name = "fs")]
impl<A: Send + Sync + 'static> Fs<A> {
    /// The root directory.
    #[tool]
    fn root(&self) -> String {
        self.root.clone()
    }

    /// Joins a path to the root.
    #[tool]
    fn join(&self, path: String) -> String {
        format!("{}/{path}", self.root)
    }
}

struct Local;
struct Remote;

fn driver<A: Send + Sync + 'static>(root: &str) -> Box<dyn ToolDriver> {
    Box::new(Fs::<A> {
        root: root.to_owned(),
        backend: PhantomData,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let local = driver::<Local>("/l");
    let remote = driver::<Remote>("/r");
    assert_eq!(local.meta().name, "fs");
    assert_eq!(local.list_tools().len(), 2);
    assert_eq!(remote.list_tools().len(), 2);
    let joined = remote.execute_tool("join", serde_json::json!({ "path": "x" }));
    assert_eq!(joined.await.unwrap(), "/r/x");
    let root = local.execute_tool("root", serde_json::Value::Null);
    assert_eq!(root.await.unwrap(), "/l");
}
