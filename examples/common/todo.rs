//! The to-do list driver the examples share: plain Rust methods turned into MCS tools.

use std::collections::BTreeMap;
use std::sync::Mutex;

use mcs::ToolError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How urgent a task is.
#[derive(
    Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Priority {
    /// Whenever there is time.
    Low,
    /// This week.
    Normal,
    /// Today.
    High,
}

/// A task on the list.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Task {
    id: u32,
    title: String,
    priority: Priority,
    done: bool,
}

/// Which tasks to list.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct Filter {
    /// Only tasks at least this urgent.
    min_priority: Option<Priority>,
    /// Include finished tasks.
    #[serde(default)]
    include_done: bool,
}

/// A to-do list kept in memory.
#[derive(Default)]
pub(crate) struct Todo {
    tasks: Mutex<BTreeMap<u32, Task>>,
}

#[mcs::tool_driver(name = "todo", capability = "tasks", adapter = "memory")]
#[mcs::hybrid]
impl Todo {
    /// Adds a task and returns it with its id.
    ///
    /// Titles are kept as written; duplicates are allowed.
    ///
    /// # Arguments
    ///
    /// * `title` - What has to be done, in a few words.
    /// * `priority` - How urgent it is; `normal` when not given.
    #[tool]
    fn add_task(&self, title: String, priority: Option<Priority>) -> Task {
        let mut tasks = self.lock();
        let id = tasks.keys().next_back().map_or(1, |last| last + 1);
        let task = Task {
            id,
            title,
            priority: priority.unwrap_or(Priority::Normal),
            done: false,
        };
        tasks.insert(id, task.clone());
        task
    }

    /// Lists tasks, most urgent first.
    #[tool]
    fn list_tasks(&self, #[arg(flatten)] filter: Filter) -> Vec<Task> {
        let mut tasks: Vec<Task> = self
            .lock()
            .values()
            .filter(|t| filter.include_done || !t.done)
            .filter(|t| filter.min_priority.is_none_or(|min| t.priority >= min))
            .cloned()
            .collect();
        tasks.sort_by(|a, b| b.priority.cmp(&a.priority).then(a.id.cmp(&b.id)));
        tasks
    }

    /// Marks a task as done.
    #[tool(title = "Complete a task")]
    fn complete_task(
        &self,
        /// The task's id, as returned by `add_task`.
        id: u32,
    ) -> Result<Task, ToolError> {
        let mut tasks = self.lock();
        let task = tasks.get_mut(&id).ok_or_else(|| {
            ToolError::execution("complete_task", format!("there is no task with id {id}"))
        })?;
        task.done = true;
        Ok(task.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u32, Task>> {
        // A panic while holding the lock cannot leave a task half-written, so the data is
        // still good after poisoning.
        self.tasks
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
