//! What dispatching through an orchestrator costs.
//!
//! 50 drivers of 20 tools each (hand-written `ToolDriver`s whose tools answer at once, so
//! that what is measured is the machinery). One model output calls one tool of the 37th
//! driver. Three ways to handle it:
//! - `direct`: the owning driver alone, as a hybrid (`Hybrid::new(driver)`) — the baseline;
//! - `orchestrator`: an `Orchestrator` over all 50 (policy `Reject`, so names are unchanged
//!   and the output is the same text): one extraction, one lookup, one call;
//! - `chain`: the output offered to the 50 hybrids in turn until one takes it, as a client
//!   without an orchestrator would do by hand.
//!
//! `cargo bench --bench orchestrator`; figures in BENCHMARKS.md. The ratios printed after the
//! group come from the interleaved line (see `common/interleave.rs`).

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use mcs::hybrid::Hybrid;
use mcs::orchestrator::{ConflictPolicy, Discovery, Orchestrator, Registration};
use mcs::{
    Driver, DriverMeta, DriverResponse, LlmResponse, Tool, ToolDriver, ToolFuture, ToolParameter,
};
use serde_json::{Value, json};

#[path = "common/interleave.rs"]
mod interleave;

use interleave::{complete, line, measure};

const DRIVERS: usize = 50;
const TOOLS: usize = 20;
const TARGET: usize = 36;

struct Service {
    meta: DriverMeta,
    tools: Arc<[Tool]>,
}

impl Service {
    fn new(index: usize) -> Self {
        let tools: Vec<Tool> = (0..TOOLS)
            .map(|t| {
                Tool::new(
                    format!("s{index}_op{t}"),
                    format!("Operation {t} of service {index}."),
                )
                .with_parameter(
                    ToolParameter::new("id", "What to act on.")
                        .with_schema(json!({ "type": "integer", "minimum": 0 })),
                )
            })
            .collect();
        Service {
            meta: DriverMeta::new(format!("s{index}"), format!("service {index}"), "1"),
            tools: tools.into(),
        }
    }
}

impl ToolDriver for Service {
    fn meta(&self) -> &DriverMeta {
        &self.meta
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        Arc::clone(&self.tools)
    }

    fn execute_tool<'a>(&'a self, _name: &'a str, arguments: Value) -> ToolFuture<'a> {
        ToolFuture::ready(Ok(arguments))
    }
}

fn through_chain(chain: &[Hybrid<Service>], response: LlmResponse<'_>) -> DriverResponse {
    for driver in chain {
        let reply = complete(driver.process_llm_response(response));
        if !reply.is_empty() {
            return reply;
        }
    }
    DriverResponse::default()
}

fn dispatch(c: &mut Criterion) {
    let chain: Vec<Hybrid<Service>> = (0..DRIVERS).map(|i| Hybrid::new(Service::new(i))).collect();
    let orchestrator = Orchestrator::new("all", ConflictPolicy::Reject);
    for i in 0..DRIVERS {
        orchestrator
            .register(
                format!("s{i}"),
                Arc::new(Service::new(i)),
                Registration::new(),
            )
            .expect("distinct names");
    }
    let direct = Hybrid::new(Service::new(TARGET));
    let output = format!(r#"{{"tool": "s{TARGET}_op7", "arguments": {{"id": 42}}}}"#);
    let response = LlmResponse::Text(&output);
    for reply in [
        complete(direct.process_llm_response(response)),
        complete(orchestrator.process_llm_response(response)),
        through_chain(&chain, response),
    ] {
        assert!(reply.call_executed, "{reply:?}");
        assert_eq!(reply.tool_call_result, Some(json!({ "id": 42 })));
    }

    let mut group = c.benchmark_group("dispatch 50x20");
    let mut lines = [
        line("direct", || complete(direct.process_llm_response(response))),
        line("orchestrator", || {
            complete(orchestrator.process_llm_response(response))
        }),
        line("chain of 50", || through_chain(&chain, response)),
    ];
    measure(&mut group, 200, 0, &mut lines);
    group.finish();
}

/// Discovery mode over the same 1,000 tools: does listing toolsets instead of tools slow a
/// call down, and what does a discovery turn (a search, a toolset loaded) cost next to a call?
fn discovery(c: &mut Criterion) {
    let build = |discovery: Discovery| {
        let orchestrator =
            Orchestrator::new("all", ConflictPolicy::Reject).with_discovery(discovery);
        for i in 0..DRIVERS {
            orchestrator
                .register(
                    format!("s{i}"),
                    Arc::new(Service::new(i)),
                    Registration::new(),
                )
                .expect("distinct names");
        }
        orchestrator
    };
    let plain = build(Discovery::Off);
    let discovering = build(Discovery::Always);
    let call = format!(r#"{{"tool": "s{TARGET}_op7", "arguments": {{"id": 42}}}}"#);
    let search = r#"{"tool": "search_tools", "arguments": {"query": "operation 7 of service 36"}}"#;
    let load = format!(r#"{{"tool": "load_toolset", "arguments": {{"id": "s{TARGET}_all"}}}}"#);
    let run = |orchestrator: &Orchestrator, output: &str| {
        complete(orchestrator.process_llm_response(LlmResponse::Text(output)))
    };
    let found = run(&discovering, search);
    assert_eq!(
        found
            .tool_call_result
            .as_ref()
            .map(|r| r["results"][0]["name"].clone()),
        Some(json!(format!("s{TARGET}_op7"))),
        "{found:?}"
    );
    assert!(run(&discovering, &load).call_executed);
    assert_eq!(
        run(&discovering, &call).tool_call_result,
        Some(json!({ "id": 42 }))
    );

    let mut group = c.benchmark_group("discovery 50x20");
    let mut lines = [
        line("call, every tool listed", || run(&plain, &call)),
        line("call, discovery mode", || run(&discovering, &call)),
        line("search_tools", || run(&discovering, search)),
        line("load_toolset (20 tools)", || run(&discovering, &load)),
    ];
    measure(&mut group, 100, 0, &mut lines);
    group.finish();
}

criterion_group!(benches, dispatch, discovery);
criterion_main!(benches);
