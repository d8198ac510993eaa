//! `Guarded<D>`: a driver under a policy.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::{Semaphore, SemaphorePermit};
use tracing::{Instrument, Span};

use mcs_core::{
    DriverMeta, Tool, ToolAnnotations, ToolDriver, ToolError, ToolFuture, ToolsListener,
};
use mcs_hybrid::HybridOptions;

use crate::approval::{ApprovalRequest, Decision};
use crate::policy::{Policy, WhenBusy};
use crate::refusal::Refusal;
use crate::trace;

/// A driver under a [`Policy`]: a [`ToolDriver`] and a [`Driver`](mcs_core::Driver) that
/// runs every call through the policy's rules, and otherwise answers as the driver it
/// wraps (its metadata, tags, tool positions, `watch_tools`).
///
/// Made by [`Policy::wrap`]. Wrap a driver before registering it with an orchestrator to
/// guard that driver alone, or wrap the orchestrator to guard them all.
///
/// Its `Driver` side is the hybrid machinery of `mcs-hybrid` over the guarded tools, so
/// calls a model writes in text and provider-native calls take the same way as
/// [`execute_tool`](ToolDriver::execute_tool). A wrapped orchestrator's prompts are
/// rendered from the tools it lists; its discovery-mode listing is not kept (wrap its
/// drivers instead to keep it).
///
/// A handle is one conversation, as far as
/// [`max_calls_per_conversation`](Policy::max_calls_per_conversation) counts:
/// [`conversation`](Self::conversation) gives another handle on the same driver with a
/// count of its own.
pub struct Guarded<D> {
    shared: Arc<Shared<D>>,
    /// Calls this conversation has made (counted only under a limit).
    calls: AtomicUsize,
    options: HybridOptions,
}

/// What the conversations of one guarded driver share.
struct Shared<D> {
    inner: D,
    policy: Policy,
    permits: Option<(Semaphore, WhenBusy)>,
    /// Read-only mode's listing, for the inner listing it was made from.
    visible: Mutex<Option<Arc<Visible>>>,
}

/// The read-only tools of one inner listing.
struct Visible {
    /// The inner listing this was filtered from (compared by pointer).
    source: Arc<[Tool]>,
    tools: Arc<[Tool]>,
    positions: HashMap<String, usize>,
}

/// Up to this many tools, a scan of the list is cheaper than asking the driver's index (as
/// in mcs-hybrid).
const SCAN_LIMIT: usize = 32;

impl<D: fmt::Debug> fmt::Debug for Guarded<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Guarded")
            .field("inner", &self.shared.inner)
            .field("policy", &self.shared.policy)
            .field("calls", &self.calls.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

// Here rather than with the rules, so that they need nothing of the wrapper.
impl Policy {
    /// Puts `driver` under this policy. The policy is copied into the wrapper; one policy
    /// can wrap many drivers, each with limits of its own.
    pub fn wrap<D: ToolDriver>(&self, driver: D) -> Guarded<D> {
        Guarded::new(driver, self.clone())
    }
}

impl<D: ToolDriver> Guarded<D> {
    fn new(inner: D, policy: Policy) -> Self {
        // A call's span may be the model side's, which records the outcome after us.
        mcs_core::telemetry::classify_errors_with(trace::refusal_kind);
        let permits = policy
            .max_concurrent
            .map(|(limit, when_busy)| (Semaphore::new(limit.max(1)), when_busy));
        Guarded {
            shared: Arc::new(Shared {
                inner,
                policy,
                permits,
                visible: Mutex::new(None),
            }),
            calls: AtomicUsize::new(0),
            options: HybridOptions::default(),
        }
    }

    /// Uses these options for the `Driver` side (prompts, unknown-tool policy).
    #[must_use]
    pub fn with_options(mut self, options: HybridOptions) -> Self {
        self.options = options;
        self
    }

    /// The options of the `Driver` side.
    pub fn options(&self) -> &HybridOptions {
        &self.options
    }

    /// The wrapped driver. Calls made on it directly bypass the policy.
    pub fn inner(&self) -> &D {
        &self.shared.inner
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.shared.policy
    }

    /// Another conversation with the same driver: the same policy, approver and
    /// concurrency limit, and a call count of its own starting at zero.
    pub fn conversation(&self) -> Guarded<D> {
        Guarded {
            shared: Arc::clone(&self.shared),
            calls: AtomicUsize::new(0),
            options: self.options.clone(),
        }
    }

    /// Starts this handle's conversation over: its call count goes back to zero.
    pub fn reset_conversation(&self) {
        self.calls.store(0, Ordering::Release);
    }

    /// The calls this conversation has made, as
    /// [`max_calls_per_conversation`](Policy::max_calls_per_conversation) counts them
    /// (always zero without that limit: nothing is counted then).
    pub fn calls_in_conversation(&self) -> usize {
        self.calls.load(Ordering::Acquire)
    }

    /// Read-only mode's listing, rebuilt when the inner driver's listing is another one
    /// than it was made from (its tools changed).
    fn visible(&self) -> Arc<Visible> {
        let source = self.shared.inner.list_tools();
        let mut cached = self
            .shared
            .visible
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(visible) = cached.as_ref()
            && Arc::ptr_eq(&visible.source, &source)
        {
            return Arc::clone(visible);
        }
        let tools: Arc<[Tool]> = source
            .iter()
            .filter(|tool| tool.annotations().read_only == Some(true))
            .cloned()
            .collect();
        let positions = tools
            .iter()
            .enumerate()
            .map(|(index, tool)| (tool.name().to_owned(), index))
            .collect();
        let visible = Arc::new(Visible {
            source,
            tools,
            positions,
        });
        *cached = Some(Arc::clone(&visible));
        visible
    }

    /// `f` of the inner driver's tool `name`, if it lists one.
    fn with_tool<T>(&self, name: &str, f: impl FnOnce(&Tool) -> T) -> Option<T> {
        let inner = &self.shared.inner;
        let tools = inner.list_tools();
        let scan = || tools.iter().position(|tool| tool.name() == name);
        let index = if tools.len() <= SCAN_LIMIT {
            scan()
        } else {
            inner
                .tool_position(name)
                .filter(|&i| tools.get(i).is_some_and(|tool| tool.name() == name))
                .or_else(scan)
        };
        index.map(|i| f(&tools[i]))
    }

    /// Takes one of the conversation's calls, under a limit.
    fn count_call(&self) -> Result<(), Refusal> {
        let Some(limit) = self.shared.policy.max_calls() else {
            return Ok(());
        };
        self.calls
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .map(|_| ())
            .map_err(|_| Refusal::ConversationLimit { limit })
    }

    /// Gives back a call that did not reach the driver.
    fn uncount(&self) {
        if self.shared.policy.max_calls().is_some() {
            let _ = self
                .calls
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                    Some(n.saturating_sub(1))
                });
        }
    }

    /// A place among the concurrent calls, when they are limited, without waiting.
    fn try_permit(&self) -> Result<Option<SemaphorePermit<'_>>, Refusal> {
        match &self.shared.permits {
            None => Ok(None),
            Some((semaphore, _)) => semaphore
                .try_acquire()
                .map(Some)
                .map_err(|_| Refusal::Busy {
                    limit: self
                        .shared
                        .policy
                        .max_concurrent
                        .map_or(1, |(limit, _)| limit.max(1)),
                }),
        }
    }

    /// Whether a call may have to wait for a place.
    fn may_wait(&self) -> bool {
        matches!(self.shared.permits, Some((_, WhenBusy::Wait)))
    }

    /// Asks the approver about a call; `Ok` when it may run.
    async fn ask(&self, name: &str, arguments: &Value, span: &Span) -> Result<(), Refusal> {
        let shared = &*self.shared;
        let policy = &shared.policy;
        let Some(approver) = policy.approver_ref() else {
            trace::decision(span, "no_approver");
            return Err(Refusal::NoApprover);
        };
        let tool = self
            .with_tool(name, Tool::clone)
            .unwrap_or_else(|| Tool::new(name, "A tool the driver does not list."));
        let request = ApprovalRequest {
            tool,
            arguments: policy.redact(arguments),
            driver: shared.inner.meta().id.clone(),
        };
        trace::decision(span, "approval_requested");
        let answer = approver.approve(request);
        let decision = match policy.approval_deadline() {
            None => answer.await,
            Some(after) => match tokio::time::timeout(after, answer).await {
                Ok(decision) => decision,
                Err(_) => {
                    trace::decision(span, "approval_timed_out");
                    return Err(Refusal::ApprovalTimedOut { after });
                }
            },
        };
        match decision {
            Decision::Approve => {
                trace::decision(span, "approved");
                Ok(())
            }
            Decision::Decline(reason) => {
                trace::declined(span, policy.redaction(), &reason);
                Err(Refusal::Declined { reason })
            }
        }
    }

    /// A call that waits before it runs: for approval, or for a place.
    async fn wait_then_run(
        &self,
        name: &str,
        arguments: Value,
        approval: bool,
        span: Span,
    ) -> Result<Value, ToolError> {
        if approval && let Err(refusal) = self.ask(name, &arguments, &span).await {
            self.uncount();
            return self.refuse(name, refusal, &span);
        }
        let permit = match &self.shared.permits {
            // The semaphore is never closed, so the wait ends with a place.
            Some((semaphore, WhenBusy::Wait)) => semaphore.acquire().await.ok(),
            _ => match self.try_permit() {
                Ok(permit) => permit,
                Err(refusal) => {
                    self.uncount();
                    trace::decision(&span, "busy");
                    return self.refuse(name, refusal, &span);
                }
            },
        };
        let future = self.shared.inner.execute_tool(name, arguments);
        self.finish(name, future, permit, span).await
    }

    /// Runs `future` (the inner driver's call) under the tool's time limit, holding
    /// `permit`, and records the outcome. Forwards the future itself when there is nothing
    /// to do: no limit, no place held, no subscriber.
    fn finish<'a>(
        &'a self,
        name: &'a str,
        future: ToolFuture<'a>,
        permit: Option<SemaphorePermit<'a>>,
        span: Span,
    ) -> ToolFuture<'a> {
        let policy = &self.shared.policy;
        let future = match future.into_ready() {
            Ok(result) => {
                drop(permit);
                trace::outcome(&span, policy.redaction(), policy.traces_content(), &result);
                return ToolFuture::ready(result);
            }
            Err(future) => future,
        };
        let timeout = policy.timeout_for(name);
        if timeout.is_none() && permit.is_none() && span.is_disabled() {
            return future;
        }
        let outcome_span = span.clone();
        ToolFuture::new(
            async move {
                let _permit = permit;
                let result = match timeout {
                    None => future.await,
                    Some(after) => match tokio::time::timeout(after, future).await {
                        Ok(result) => result,
                        // The tool's future is dropped here: the call is cancelled.
                        Err(_) => {
                            trace::decision(&outcome_span, "timed_out");
                            Err(refused(name, Refusal::TimedOut { after }))
                        }
                    },
                };
                trace::outcome(
                    &outcome_span,
                    policy.redaction(),
                    policy.traces_content(),
                    &result,
                );
                result
            }
            .instrument(span),
        )
    }

    /// The error for a refused call, recorded on its span.
    fn refuse(&self, name: &str, refusal: Refusal, span: &Span) -> Result<Value, ToolError> {
        let policy = &self.shared.policy;
        let result = Err(refused(name, refusal));
        trace::outcome(span, policy.redaction(), policy.traces_content(), &result);
        result
    }
}

/// What the model reads for a refused call (see [`Refusal`] for why `Execution`).
fn refused(name: &str, refusal: Refusal) -> ToolError {
    ToolError::execution_source(name, refusal)
}

impl<D: ToolDriver> ToolDriver for Guarded<D> {
    fn meta(&self) -> &DriverMeta {
        self.shared.inner.meta()
    }

    /// The inner driver's tools; in read-only mode those that say they are read-only
    /// (filtered once per inner listing).
    fn list_tools(&self) -> Arc<[Tool]> {
        if self.shared.policy.is_read_only() {
            Arc::clone(&self.visible().tools)
        } else {
            self.shared.inner.list_tools()
        }
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
        let shared = &*self.shared;
        let policy = &shared.policy;
        let span = trace::call_span(&shared.inner.meta().id, name);
        if policy.traces_content() && !span.is_disabled() {
            trace::arguments(&span, policy.redaction(), &arguments);
        }
        let annotations: Option<ToolAnnotations> = if policy.needs_annotations() {
            self.with_tool(name, |tool| *tool.annotations())
        } else {
            None
        };
        if policy.is_read_only() && annotations.is_none_or(|a| a.read_only != Some(true)) {
            trace::decision(&span, "hidden_by_read_only");
            let visible = self.visible();
            let error = ToolError::unknown_tool_among(name, visible.tools.iter().map(Tool::name));
            let result = Err(error);
            trace::outcome(&span, policy.redaction(), policy.traces_content(), &result);
            return ToolFuture::ready(result);
        }
        let approval = policy.needs_approval(name, annotations.as_ref());
        if let Err(refusal) = self.count_call() {
            trace::decision(&span, "conversation_limit");
            return ToolFuture::ready(self.refuse(name, refusal, &span));
        }
        if approval || self.may_wait() {
            let instrumented = span.clone();
            return ToolFuture::new(
                self.wait_then_run(name, arguments, approval, span)
                    .instrument(instrumented),
            );
        }
        // Nothing to wait for: the call starts now, and a synchronous tool finishes here.
        let permit = match self.try_permit() {
            Ok(permit) => permit,
            Err(refusal) => {
                self.uncount();
                trace::decision(&span, "busy");
                return ToolFuture::ready(self.refuse(name, refusal, &span));
            }
        };
        let future = {
            let _entered = span.enter();
            shared.inner.execute_tool(name, arguments)
        };
        self.finish(name, future, permit, span)
    }

    fn tool_position(&self, name: &str) -> Option<usize> {
        if self.shared.policy.is_read_only() {
            self.visible().positions.get(name).copied()
        } else {
            self.shared.inner.tool_position(name)
        }
    }

    /// The inner driver's tags; none for a tool read-only mode hides.
    fn tool_tags(&self, name: &str) -> Vec<String> {
        if self.shared.policy.is_read_only() && !self.visible().positions.contains_key(name) {
            return Vec::new();
        }
        self.shared.inner.tool_tags(name)
    }

    fn tag_description(&self, tag: &str) -> Option<String> {
        self.shared.inner.tag_description(tag)
    }

    /// The inner driver's announcements; read-only mode's listing follows them by itself
    /// (it is rebuilt whenever the inner listing is a new one).
    fn watch_tools(&self, listener: ToolsListener) -> bool {
        self.shared.inner.watch_tools(listener)
    }
}

mcs_hybrid::__hybrid_driver!([<D: ToolDriver>] Guarded<D>, [], |this| &this.options);
