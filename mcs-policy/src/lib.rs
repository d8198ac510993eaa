//! Tool calls under control: one layer around any [`ToolDriver`](mcs_core::ToolDriver)
//! that decides whether, how long and how often its tools run, and leaves a trace of each
//! call with no secret in it.
//!
//! A [`Policy`] holds the rules; [`Policy::wrap`] puts a driver under them. The
//! [`Guarded`] driver it gives is a `ToolDriver` and a [`Driver`](mcs_core::Driver), so
//! the same rules hold for native calls (`execute_tool`), for calls a model writes in
//! text or in a provider's format (`process_llm_response`, `process_llm_stream`), and for
//! an orchestrator: wrap a driver before registering it to guard it alone, or wrap the
//! orchestrator to guard everything.
//!
//! ```
//! use std::time::Duration;
//! use mcs_core::{Driver, ToolDriver};
//! use mcs_policy::{ApprovalRequest, Decision, Policy};
//! # use std::sync::Arc;
//! # use mcs_core::{DriverMeta, Tool, ToolAnnotations, ToolFuture, ToolParameter};
//! # struct Repos(DriverMeta, Arc<[Tool]>);
//! # impl ToolDriver for Repos {
//! #     fn meta(&self) -> &DriverMeta { &self.0 }
//! #     fn list_tools(&self) -> Arc<[Tool]> { Arc::clone(&self.1) }
//! #     fn execute_tool<'a>(&'a self, _: &'a str, _: serde_json::Value) -> ToolFuture<'a> {
//! #         ToolFuture::ready(Ok(serde_json::json!("deleted")))
//! #     }
//! # }
//! # let repos = Repos(DriverMeta::new("repos", "Repos", "1"), vec![
//! #     Tool::new("delete_repository", "Deletes a repository.")
//! #         .with_parameter(ToolParameter::new("name", "The repository."))
//! #         .with_annotations(ToolAnnotations::new().destructive(true)),
//! # ].into());
//!
//! let policy = Policy::new()
//!     .approve_destructive()
//!     .approver(|request: ApprovalRequest| async move {
//!         // Ask a person here; this one says no.
//!         Decision::decline(format!("I do not want `{}` run", request.tool.name()))
//!     })
//!     .approval_timeout(Duration::from_secs(60))
//!     .timeout(Duration::from_secs(30));
//! let guarded = policy.wrap(repos);
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let response = guarded
//!     .process_llm_response(r#"{"tool": "delete_repository", "arguments": {"name": "mcs"}}"#.into())
//!     .await;
//! assert!(response.call_failed);
//! assert!(response.retry_prompt.unwrap().contains("the user declined this call"));
//! # });
//! ```
//!
//! # The rules
//!
//! - **Approval** ([`Policy::approve_destructive`], [`Policy::approve_tools`],
//!   [`Policy::approver`]): a call to a tool matching a rule waits for the
//!   [`Approver`]'s [`Decision`]; nothing of it runs before (the inner driver's
//!   `execute_tool` is not even called). A refusal, a missing approver and an approver
//!   that does not answer within [`Policy::approval_timeout`] all reach the model as a
//!   failed call whose text says so and asks it not to retry ([`Refusal`]).
//! - **Timeouts** ([`Policy::timeout`], [`Policy::tool_timeout`]): a tool still running
//!   after its time is cancelled (its future dropped) and the model told so.
//! - **Limits** ([`Policy::max_concurrent_calls`], [`Policy::max_calls_per_conversation`]):
//!   calls at once (wait or refuse, [`WhenBusy`]) and calls per conversation (a
//!   [`Guarded`] handle; [`Guarded::conversation`] starts another).
//! - **Read-only mode** ([`Policy::read_only`]): only tools that say they are read-only
//!   are listed, and others do not run.
//! - **Redaction** ([`Policy::redact_key`], [`Policy::redact_value`]): secrets are
//!   replaced by `"[REDACTED]"` in what approvers and traces see. The model and the tools
//!   see the real values.
//!
//! The order is: read-only mode, the conversation's limit, approval, a place among the
//! concurrent calls, then the call under its time limit.
//!
//! # Tracing
//!
//! Each call through a guarded driver is a `tracing` span `execute_tool` (target
//! `mcs_policy`, level INFO) with the OpenTelemetry GenAI attributes:
//! `otel.name = "execute_tool {tool}"`, `gen_ai.operation.name = "execute_tool"`,
//! `gen_ai.tool.name`, `gen_ai.tool.type`, `mcs.driver.id`, and on failure
//! `error.type` (a [`Refusal::kind`], or `unknown_tool`, `invalid_arguments`,
//! `rejected`, `execution`) and `otel.status_code = "ERROR"`. Its events say what the
//! policy decided (`decision = "approval_requested" | "approved" | "declined" |
//! "approval_timed_out" | "no_approver" | "timed_out" | "busy" | "conversation_limit" |
//! "hidden_by_read_only"`) and how the call ended. With [`Policy::trace_content`] the
//! redacted arguments and result are recorded too (`gen_ai.tool.call.arguments`,
//! `gen_ai.tool.call.result`). `ToolDriver::execute_tool` takes no call id, so the span
//! has no `gen_ai.tool.call.id`.
//!
//! # Cost
//!
//! A policy whose rules do not apply to a call, with no subscriber interested in its
//! span, hands the inner driver's `ToolFuture` back as it is: no allocation, one
//! disabled-span check and a few branches (measured in `benches/policy.rs`, see
//! BENCHMARKS.md).
#![cfg_attr(docsrs, feature(doc_cfg))]

mod approval;
mod guard;
mod pattern;
mod policy;
mod redact;
mod refusal;
mod trace;

pub use approval::{ApprovalRequest, Approver, Decision};
pub use guard::Guarded;
pub use policy::{Policy, WhenBusy};
pub use redact::REDACTED;
pub use refusal::Refusal;
