//! A repository host whose tools record that they ran, for the policy tests.

#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use mcs::{Driver, DriverResponse, LlmResponse, ToolError};
use serde_json::{Value, json};

/// What ran, in order, shared with the test.
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    pub fn push(&self, entry: impl Into<String>) {
        self.0.lock().unwrap().push(entry.into());
    }

    pub fn entries(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }

    pub fn is_empty(&self) -> bool {
        self.0.lock().unwrap().is_empty()
    }
}

/// Marks a call that was dropped before it finished.
pub struct DropGuard {
    pub log: Log,
    pub name: &'static str,
    pub finished: bool,
}

impl Drop for DropGuard {
    fn drop(&mut self) {
        if !self.finished {
            self.log.push(format!("{} cancelled", self.name));
        }
    }
}

pub struct Repos {
    pub log: Log,
}

#[mcs::tool_driver(name = "repos")]
impl Repos {
    /// Lists the repositories.
    #[tool(read_only)]
    fn list_repos(&self) -> Vec<&'static str> {
        self.log.push("list_repos");
        vec!["mcs", "website"]
    }

    /// Deletes a repository for good.
    #[tool(destructive)]
    fn delete_repo(&self, name: String) -> String {
        self.log.push(format!("delete_repo {name}"));
        format!("deleted {name}")
    }

    /// Renames a repository (says nothing of what it does to the world).
    #[tool]
    fn rename_repo(&self, name: String, new_name: String) -> String {
        self.log.push(format!("rename_repo {name} {new_name}"));
        format!("renamed {name} to {new_name}")
    }

    /// Adds a comment; changes things, destroys nothing.
    #[tool(destructive = false)]
    fn comment(&self, text: String) -> String {
        self.log.push(format!("comment {text}"));
        "commented".to_owned()
    }

    /// Builds a release, slowly.
    #[tool(read_only)]
    async fn build(&self, millis: u64) -> String {
        let mut guard = DropGuard {
            log: self.log.clone(),
            name: "build",
            finished: false,
        };
        self.log.push(format!("build started {millis}"));
        tokio::time::sleep(Duration::from_millis(millis)).await;
        guard.finished = true;
        self.log.push("build finished");
        "built".to_owned()
    }

    /// Signs in to the registry and returns a session.
    #[tool]
    fn login(&self, user: String, password: String) -> Value {
        self.log.push(format!("login {user}"));
        json!({"user": user, "session_token": format!("sess-{password}-x")})
    }

    /// Pushes with a key; fails and names it.
    #[tool]
    fn push(&self, api_key: String) -> Result<String, ToolError> {
        Err(ToolError::execution(
            "push",
            format!("key {api_key} was refused by the remote"),
        ))
    }
}

pub fn repos() -> (Repos, Log) {
    let log = Log::default();
    (Repos { log: log.clone() }, log)
}

/// A text call in the format the system prompt teaches.
pub fn text_call(tool: &str, arguments: Value) -> String {
    json!({"tool": tool, "arguments": arguments}).to_string()
}

/// An OpenAI chat message with one native call.
pub fn openai_call(tool: &str, arguments: Value) -> Value {
    json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [{
            "id": "call_1",
            "type": "function",
            "function": {"name": tool, "arguments": arguments.to_string()}
        }]
    })
}

pub async fn process_text(driver: &dyn Driver, text: &str) -> DriverResponse {
    driver.process_llm_response(LlmResponse::Text(text)).await
}

pub async fn process_message(driver: &dyn Driver, message: &Value) -> DriverResponse {
    driver
        .process_llm_response(LlmResponse::Message(message))
        .await
}
