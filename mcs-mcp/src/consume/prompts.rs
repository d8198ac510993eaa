//! A server's prompts, for the program: MCP prompts are chosen by the user (a slash
//! command, a menu), not by the model, so they are not tools.

use std::collections::BTreeMap;

use rmcp::model::{GetPromptRequestParams, GetPromptResponse, Prompt, PromptMessage, Role};
use serde_json::{Map, Value, json};

use super::{McpToolDriver, has_prompts};
use crate::convert;
use crate::error::McpError;

impl McpToolDriver {
    /// The server's prompts, every page of `prompts/list`: each one's name, title,
    /// description and arguments (with whether each is required). None, without asking,
    /// when the server did not announce the prompts capability.
    pub async fn prompts(&self) -> Result<Vec<Prompt>, McpError> {
        if !has_prompts(&self.peer) {
            return Ok(Vec::new());
        }
        let state = &self.state;
        match tokio::time::timeout(state.list_timeout, self.peer.list_all_prompts()).await {
            Ok(Ok(prompts)) => Ok(prompts),
            Ok(Err(error)) => Err(state.request_error("prompts/list", error).await),
            Err(_) => Err(state.timeout("prompts/list", state.list_timeout).await),
        }
    }

    /// The messages of the prompt `name` made with `arguments` (`prompts/get`), in the
    /// shape of an mcs conversation: `{"role": "user" | "assistant", "content": "..."}`.
    /// Text is the content as it is; images, audio and resources are summarised in words,
    /// as tool results are (an embedded text resource with its text).
    ///
    /// The prompt is looked up first ([`prompts`](Self::prompts)): a name the server does
    /// not list is an [`McpError::UnknownPrompt`] that names those it does, and a missing
    /// required argument or one the prompt does not take is an
    /// [`McpError::PromptArguments`], both without sending the request.
    ///
    /// ```no_run
    /// # async fn run(server: mcs_mcp::McpToolDriver) -> Result<(), mcs_mcp::McpError> {
    /// let messages = server.get_prompt("args-prompt", [("city", "Paris")]).await?;
    /// assert_eq!(messages[0]["role"], "user");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn get_prompt<I, K, V>(
        &self,
        name: &str,
        arguments: I,
    ) -> Result<Vec<Value>, McpError>
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let arguments: BTreeMap<String, String> = arguments
            .into_iter()
            .map(|(key, value)| (key.into(), value.into()))
            .collect();
        let prompts = self.prompts().await?;
        let Some(prompt) = prompts.iter().find(|prompt| prompt.name == name) else {
            return Err(McpError::UnknownPrompt {
                server: self.state.server.clone(),
                name: name.to_owned(),
                offered: prompts.into_iter().map(|prompt| prompt.name).collect(),
            });
        };
        if let Some(detail) = misfit(prompt, &arguments) {
            return Err(McpError::PromptArguments {
                server: self.state.server.clone(),
                prompt: name.to_owned(),
                detail,
            });
        }
        let mut request = GetPromptRequestParams::new(name);
        if !arguments.is_empty() {
            let arguments: Map<String, Value> = arguments
                .into_iter()
                .map(|(key, value)| (key, Value::String(value)))
                .collect();
            request = request.with_arguments(arguments);
        }
        let state = &self.state;
        let answer = tokio::time::timeout(self.call_timeout, self.peer.get_prompt_once(request));
        let result = match answer.await {
            Ok(Ok(GetPromptResponse::Complete(result))) => result,
            Ok(Ok(_)) => {
                return Err(McpError::Request {
                    server: state.server.clone(),
                    request: "prompts/get",
                    detail: "the server asked for more input before it answers, which this \
                             client does not give"
                        .to_owned(),
                    context: state.context().await,
                });
            }
            Ok(Err(error)) => return Err(state.request_error("prompts/get", error).await),
            Err(_) => return Err(state.timeout("prompts/get", self.call_timeout).await),
        };
        Ok(result.messages.iter().map(chat_message).collect())
    }
}

/// What is wrong with `arguments` for `prompt`, if anything.
fn misfit(prompt: &Prompt, arguments: &BTreeMap<String, String>) -> Option<String> {
    let declared = prompt.arguments.as_deref().unwrap_or_default();
    let mut problems = Vec::new();
    for argument in declared {
        if argument.required == Some(true) && !arguments.contains_key(&argument.name) {
            problems.push(format!("missing required argument `{}`", argument.name));
        }
    }
    for given in arguments.keys() {
        if !declared.iter().any(|argument| &argument.name == given) {
            problems.push(format!("unknown argument `{given}`"));
        }
    }
    if problems.is_empty() {
        return None;
    }
    let takes: Vec<String> = declared
        .iter()
        .map(|argument| match argument.required {
            Some(true) => format!("{} (required)", argument.name),
            _ => argument.name.clone(),
        })
        .collect();
    let takes = if takes.is_empty() {
        "it takes no arguments".to_owned()
    } else {
        format!("it takes: {}", takes.join(", "))
    };
    Some(format!("{} ({takes})", problems.join("; ")))
}

/// One prompt message as a conversation message.
fn chat_message(message: &PromptMessage) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    json!({
        "role": role,
        "content": convert::summarise(std::slice::from_ref(&message.content)),
    })
}
