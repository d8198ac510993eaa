// Sync and async tools side by side, a method with its own lifetime, and a non-tool method
// that stays an ordinary, callable method.
use mcs::ToolDriver;

struct Notes {
    prefix: String,
}

#[mcs::tool_driver]
impl Notes {
    /// Says hello.
    #[tool]
    fn hello(&self, name: String) -> String {
        format!("{}{}", self.helper(), name)
    }

    /// Waits, then answers.
    #[tool]
    async fn later(&self, value: u32) -> u32 {
        tokio::task::yield_now().await;
        value + 1
    }

    /// A method with an explicit lifetime on the receiver.
    #[tool]
    fn prefix_len<'a>(&'a self) -> usize {
        let prefix: &'a str = &self.prefix;
        prefix.len()
    }

    /// An async method with an explicit lifetime.
    #[tool]
    async fn shout<'a>(&'a self, text: String) -> String {
        let prefix: &'a str = &self.prefix;
        format!("{prefix}{}", text.to_uppercase())
    }

    /// Not a tool: stays an ordinary method.
    fn helper(&self) -> &str {
        &self.prefix
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let notes = Notes {
        prefix: "hi ".to_owned(),
    };
    assert_eq!(notes.helper(), "hi ");
    let names: Vec<String> = notes
        .list_tools()
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(names, ["hello", "later", "prefix_len", "shout"]);
    let hello = notes.execute_tool("hello", serde_json::json!({ "name": "Ann" }));
    assert_eq!(hello.await.unwrap(), "hi Ann");
    let later = notes.execute_tool("later", serde_json::json!({ "value": 1 }));
    assert_eq!(later.await.unwrap(), 2);
    let len = notes.execute_tool("prefix_len", serde_json::Value::Null);
    assert_eq!(len.await.unwrap(), 3);
    let shout = notes.execute_tool("shout", serde_json::json!({ "text": "a" }));
    assert_eq!(shout.await.unwrap(), "hi A");
}
