//! Generated drivers as objects: shared behind pointers, with state, metadata, async tools.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcs::{ToolDriver, ToolFuture};
use serde_json::json;

/// A counter shared by every caller.
#[derive(Default)]
struct Counter {
    total: AtomicU64,
}

#[mcs::tool_driver(
    name = "counter",
    id = "example.counter",
    version = "9.9.9",
    capability = "state",
    adapter = "memory",
    spec_format = "JSON Schema"
)]
impl Counter {
    /// Adds to the counter and returns the new total.
    #[tool]
    fn add(&self, amount: u64) -> u64 {
        self.total.fetch_add(amount, Ordering::SeqCst) + amount
    }

    /// Waits, then reads the counter.
    #[tool(name = "read-later", title = "Read later")]
    async fn read_later(&self, millis: u64) -> u64 {
        tokio::time::sleep(Duration::from_millis(millis)).await;
        self.total.load(Ordering::SeqCst)
    }

    /// Not a tool: stays an ordinary method.
    fn reset(&self) {
        self.total.store(0, Ordering::SeqCst);
    }
}

struct Defaults;

#[mcs::tool_driver]
impl Defaults {
    /// Says hi.
    #[tool]
    fn hi(&self) -> String {
        "hi".into()
    }
}

/// A driver generic over its backend, as in the adapter pattern: the tools do not depend
/// on the adapter, the execution does.
trait Store: Send + Sync + 'static {
    fn get(&self, key: &str) -> Option<String>;
}

struct Memory;

impl Store for Memory {
    fn get(&self, key: &str) -> Option<String> {
        (key == "a").then(|| "1".to_owned())
    }
}

struct Kv<S: Store> {
    store: S,
}

#[mcs::tool_driver(name = "kv")]
impl<S: Store> Kv<S> {
    /// Reads a key.
    #[tool]
    fn get(&self, key: String) -> Option<String> {
        self.store.get(&key)
    }
}

#[tokio::test]
async fn shared_behind_arc_dyn() {
    let driver: Arc<dyn ToolDriver> = Arc::new(Counter::default());
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let driver = Arc::clone(&driver);
            tokio::spawn(async move {
                driver
                    .execute_tool("add", json!({"amount": 5}))
                    .await
                    .unwrap()
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(
        driver
            .execute_tool("read-later", json!({"millis": 1}))
            .await
            .unwrap(),
        json!(40)
    );
}

#[tokio::test]
async fn box_and_reference_are_drivers_too() {
    let boxed: Box<dyn ToolDriver> = Box::new(Counter::default());
    assert_eq!(
        boxed
            .execute_tool("add", json!({"amount": 2}))
            .await
            .unwrap(),
        json!(2)
    );
    let counter = Counter::default();
    let by_ref: &dyn ToolDriver = &counter;
    assert_eq!(
        by_ref
            .execute_tool("add", json!({"amount": 3}))
            .await
            .unwrap(),
        json!(3)
    );
    let arc_of_box: Arc<Box<dyn ToolDriver>> = Arc::new(boxed);
    assert_eq!(arc_of_box.list_tools().len(), 2);
}

#[test]
fn sync_tools_finish_without_a_runtime() {
    let counter = Counter::default();
    let future: ToolFuture<'_> = counter.execute_tool("add", json!({"amount": 1}));
    assert_eq!(future.into_ready().unwrap().unwrap(), json!(1));
    assert!(
        counter
            .execute_tool("read-later", json!({"millis": 0}))
            .into_ready()
            .is_err(),
        "async tools are pending"
    );
}

#[tokio::test]
async fn non_tool_methods_stay_callable() {
    let counter = Counter::default();
    counter
        .execute_tool("add", json!({"amount": 7}))
        .await
        .unwrap();
    counter.reset();
    assert_eq!(
        counter
            .execute_tool("add", json!({"amount": 1}))
            .await
            .unwrap(),
        json!(1)
    );
    assert!(counter.list_tools().iter().all(|t| t.name() != "reset"));
}

#[test]
fn metadata_from_attributes() {
    let meta = ToolDriver::meta(&Counter::default()).clone();
    assert_eq!(meta.id, "example.counter");
    assert_eq!(meta.name, "counter");
    assert_eq!(meta.version, "9.9.9");
    assert_eq!(meta.bindings.len(), 1);
    assert_eq!(meta.bindings[0].capability, "state");
    assert_eq!(meta.bindings[0].adapter, "memory");
    assert_eq!(meta.bindings[0].spec_format.as_deref(), Some("JSON Schema"));
    assert_eq!(meta.target_llms, None);
}

#[test]
fn metadata_defaults() {
    let meta = ToolDriver::meta(&Defaults);
    assert_eq!(meta.name, "Defaults");
    assert_eq!(meta.id, concat!(module_path!(), "::Defaults"));
    assert_eq!(meta.version, env!("CARGO_PKG_VERSION"));
    assert_eq!(meta.bindings[0].capability, "custom");
    assert_eq!(meta.bindings[0].adapter, "native");
}

#[test]
fn title_and_rename() {
    let tools = Counter::default().list_tools();
    let read = tools.iter().find(|t| t.name() == "read-later").unwrap();
    assert_eq!(read.title(), Some("Read later"));
    assert_eq!(read.description(), "Waits, then reads the counter.");
    let add = tools.iter().find(|t| t.name() == "add").unwrap();
    assert_eq!(
        add.title(),
        Some("Adds to the counter and returns the new total.")
    );
}

#[tokio::test]
async fn generic_driver_over_an_adapter() {
    let driver: Arc<dyn ToolDriver> = Arc::new(Kv { store: Memory });
    assert_eq!(
        driver
            .execute_tool("get", json!({"key": "a"}))
            .await
            .unwrap(),
        json!("1")
    );
    assert_eq!(
        driver
            .execute_tool("get", json!({"key": "b"}))
            .await
            .unwrap(),
        json!(null)
    );
    assert_eq!(driver.meta().name, "kv");
}

#[test]
fn drivers_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Counter>();
    assert_send_sync::<Arc<dyn ToolDriver>>();
    fn assert_send<T: Send>(_: &T) {}
    let counter = Counter::default();
    assert_send(&counter.execute_tool("read-later", json!({"millis": 0})));
}
