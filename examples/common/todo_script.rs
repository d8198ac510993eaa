//! The request and the scripted model of the to-do examples (`conversation`, and
//! `mcs-mcp`'s `mcp_client`, which gives the same tools to the model over MCP).

use mcs::llm::ScriptedClient;

/// What the user asks.
pub(crate) const REQUEST: &str = "Put 'water the plants' on my list as urgent, and 'read a book' for \
                       whenever. Then tell me what is still open, most urgent first.";

/// What a Qwen-style model writes for this request, mistakes included.
pub(crate) fn scripted_model() -> ScriptedClient {
    ScriptedClient::from_texts([
        // Two calls in one answer, in Hermes tags; the second uses a priority that does not exist.
        "I'll add both tasks.\n<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Water the plants\", \"priority\": \"high\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Read a book\", \"priority\": \"whenever\"}}\n</tool_call>",
        // Corrected after the retry prompt named the allowed values.
        "<tool_call>\n{\"name\": \"add_task\", \"arguments\": {\"title\": \"Read a book\", \"priority\": \"low\"}}\n</tool_call>",
        // A bare JSON call, in the format the system prompt teaches.
        "{\"tool\": \"list_tasks\", \"arguments\": {}}",
        "You have two open tasks:\n1. Water the plants (high)\n2. Read a book (low)",
    ])
    .with_model("qwen2.5-7b-instruct")
}
