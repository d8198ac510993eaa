//! What a server offers besides tools: prompts and resources, added by the program.

use std::collections::HashMap;
use std::sync::Arc;

use mcs::{Driver, ToolDriver};
use rmcp::ErrorData;
use rmcp::model::{
    ErrorCode, GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument, PromptMessage,
    ReadResourceResult, Resource, ResourceContents, Role,
};
use serde_json::Value;

use super::McpServer;

/// Makes a prompt's messages from its arguments, or says what is wrong with them.
type Render = dyn Fn(&HashMap<String, String>) -> Result<Vec<PromptMessage>, String> + Send + Sync;

/// Reads a resource's text, or says why it cannot.
type Read = dyn Fn() -> Result<String, String> + Send + Sync;

/// The prompts and resources of one server value, in the order they were added.
#[derive(Clone, Default)]
pub(super) struct Catalog {
    prompts: Vec<(Prompt, Arc<Render>)>,
    resources: Vec<(Resource, Arc<Read>)>,
}

/// The name of the prompt [`McpServer::with_driver_prompt`] adds.
const SYSTEM_PROMPT: &str = "system_prompt";

impl Catalog {
    pub(super) fn has_prompts(&self) -> bool {
        !self.prompts.is_empty()
    }

    pub(super) fn has_resources(&self) -> bool {
        !self.resources.is_empty()
    }

    pub(super) fn prompts(&self) -> Vec<Prompt> {
        self.prompts
            .iter()
            .map(|(prompt, _)| prompt.clone())
            .collect()
    }

    pub(super) fn resources(&self) -> Vec<Resource> {
        self.resources
            .iter()
            .map(|(resource, _)| resource.clone())
            .collect()
    }

    fn add_prompt(&mut self, prompt: Prompt, render: Arc<Render>) {
        self.prompts.retain(|(held, _)| held.name != prompt.name);
        self.prompts.push((prompt, render));
    }

    fn add_resource(&mut self, resource: Resource, read: Arc<Read>) {
        self.resources.retain(|(held, _)| held.uri != resource.uri);
        self.resources.push((resource, read));
    }

    /// `prompts/get`: the messages, or `-32602` for a prompt this server does not have,
    /// arguments that do not fit it, or a render that refused them.
    pub(super) fn get_prompt(
        &self,
        request: &GetPromptRequestParams,
    ) -> Result<GetPromptResult, ErrorData> {
        let name = request.name.as_str();
        let Some((prompt, render)) = self.prompts.iter().find(|(prompt, _)| prompt.name == name)
        else {
            let offered: Vec<String> = self
                .prompts
                .iter()
                .map(|(prompt, _)| format!("`{}`", prompt.name))
                .collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown prompt `{name}`; this server offers: {}",
                    offered.join(", ")
                ),
                None,
            ));
        };
        let declared = prompt.arguments.as_deref().unwrap_or_default();
        let mut arguments = HashMap::new();
        let mut problems = Vec::new();
        for (key, value) in request.arguments.iter().flatten() {
            if !declared.iter().any(|argument| &argument.name == key) {
                problems.push(format!("unknown argument `{key}`"));
                continue;
            }
            match value {
                Value::String(text) => {
                    arguments.insert(key.clone(), text.clone());
                }
                other => problems.push(format!(
                    "argument `{key}` must be a string, got {}",
                    mcs::schema::describe_received(other)
                )),
            }
        }
        for argument in declared {
            if argument.required == Some(true) && !arguments.contains_key(&argument.name) {
                problems.push(format!("missing required argument `{}`", argument.name));
            }
        }
        if !problems.is_empty() {
            return Err(ErrorData::invalid_params(
                format!("prompt `{name}`: {}", problems.join("; ")),
                None,
            ));
        }
        let messages = render(&arguments)
            .map_err(|why| ErrorData::invalid_params(format!("prompt `{name}`: {why}"), None))?;
        let result = GetPromptResult::new(messages);
        Ok(match &prompt.description {
            Some(description) => result.with_description(description.clone()),
            None => result,
        })
    }

    /// `resources/read`: the text, `-32002` for a URI this server does not have, `-32603`
    /// for a read that failed.
    pub(super) fn read(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        let Some((resource, read)) = self.resources.iter().find(|(held, _)| held.uri == uri) else {
            let offered: Vec<String> = self
                .resources
                .iter()
                .map(|(resource, _)| format!("`{}`", resource.uri))
                .collect();
            return Err(ErrorData::resource_not_found(
                format!(
                    "no resource `{uri}`; this server offers: {}",
                    offered.join(", ")
                ),
                None,
            ));
        };
        let text = read().map_err(|why| {
            ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                format!("resource `{uri}` could not be read: {why}"),
                None,
            )
        })?;
        let mut contents = ResourceContents::text(text, uri);
        if let Some(mime) = &resource.mime_type {
            contents = contents.with_mime_type(mime.clone());
        }
        Ok(ReadResourceResult::new(vec![contents]))
    }
}

impl<D: ToolDriver + 'static> McpServer<D> {
    /// Offers the prompt `prompt` (its name, title, description and arguments, see
    /// [`Prompt::new`] and [`PromptArgument`]), whose messages `render` makes from the
    /// arguments a client gives. A prompt of the same name added before is replaced.
    ///
    /// `render` runs only with arguments that fit the prompt: every one a string, every
    /// required one there, none undeclared; a client that sends others gets `-32602` and
    /// what was wrong. An `Err` of `render` is sent as `-32602` too, in its words: say what
    /// is wrong with the arguments. The server announces the prompts capability when it has
    /// a prompt.
    #[must_use]
    pub fn with_prompt<F>(mut self, prompt: Prompt, render: F) -> Self
    where
        F: Fn(&HashMap<String, String>) -> Result<Vec<PromptMessage>, String>
            + Send
            + Sync
            + 'static,
    {
        Arc::make_mut(&mut self.catalog).add_prompt(prompt, Arc::new(render));
        self
    }

    /// Offers the resource `resource` (its URI, name, description and MIME type, see
    /// [`Resource::new`]) with the text `text`. A resource of the same URI added before is
    /// replaced. The server announces the resources capability when it has a resource.
    #[must_use]
    pub fn with_resource(self, resource: Resource, text: impl Into<String>) -> Self {
        let text: String = text.into();
        self.with_dynamic_resource(resource, move || Ok(text.clone()))
    }

    /// Offers the resource `resource` with the text `read` gives each time a client reads
    /// it. An `Err` of `read` is sent as `-32603`, in its words.
    #[must_use]
    pub fn with_dynamic_resource<F>(mut self, resource: Resource, read: F) -> Self
    where
        F: Fn() -> Result<String, String> + Send + Sync + 'static,
    {
        Arc::make_mut(&mut self.catalog).add_resource(resource, Arc::new(read));
        self
    }
}

impl<D: Driver + 'static> McpServer<D> {
    /// Offers the driver's system prompt ([`Driver::get_driver_system_message`]: its tools
    /// and how to call them) as the MCP prompt `system_prompt`, with one optional argument,
    /// `model`, the model to tune it for.
    ///
    /// MCP prompt messages are the user's or the assistant's, never the system's: the
    /// prompt is one `user` message holding the text, for a host to put where a system
    /// prompt goes. It is made when asked for, so it lists the tools the driver has then.
    #[must_use]
    pub fn with_driver_prompt(self) -> Self {
        let shared = Arc::clone(&self.shared);
        let prompt = Prompt::new(
            SYSTEM_PROMPT,
            Some(format!(
                "The system prompt of {}: its tools and how to call them, tuned for `model` \
                 when given. One message with the text, to put where a system prompt goes.",
                self.implementation.name
            )),
            Some(vec![
                PromptArgument::new("model")
                    .with_description(
                        "The model the prompt is for (`gpt-4o`, `claude-sonnet-4`); the \
                         driver's general prompt without it.",
                    )
                    .with_required(false),
            ]),
        )
        .with_title("System prompt");
        self.with_prompt(prompt, move |arguments| {
            let model = arguments.get("model").map(String::as_str);
            let text = shared.driver.get_driver_system_message(model);
            Ok(vec![PromptMessage::new_text(Role::User, text)])
        })
    }
}
