//! The code `#[mcs::tool_driver]` generates passes the strictest lints a consumer is likely
//! to turn on: rustc's pedantic lints here, and clippy's `all` and `pedantic` groups when
//! `cargo clippy --all-targets` checks this file (as CI does). The trybuild pass case
//! `tests/ui/pass/deny_warnings.rs` checks the rustc side for a binary crate as well.
#![deny(warnings, missing_docs, missing_debug_implementations, unreachable_pub)]
#![deny(
    unused_qualifications,
    unused_lifetimes,
    single_use_lifetimes,
    redundant_lifetimes
)]
#![deny(
    elided_lifetimes_in_paths,
    trivial_casts,
    trivial_numeric_casts,
    unit_bindings
)]
#![deny(
    unused_results,
    let_underscore_drop,
    unnameable_types,
    non_ascii_idents
)]
#![deny(clippy::all, clippy::pedantic)]
#![forbid(unsafe_code)]

use mcs::{ToolDriver, ToolError};
use serde_json::json;

/// A documented public driver, as a library would export it.
#[derive(Debug, Default)]
pub struct Calculator {
    /// Added to every sum.
    pub offset: i64,
}

/// Paging options, flattened into the arguments.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Page {
    /// Where to start.
    pub offset: u32,
}

/// Why a division failed.
#[derive(Debug)]
pub struct DivisionByZero;

impl std::fmt::Display for DivisionByZero {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("division by zero")
    }
}

impl std::error::Error for DivisionByZero {}

#[mcs::tool_driver(name = "calculator", version = "1.0.0", spec_format = "none")]
impl Calculator {
    /// Adds two numbers.
    ///
    /// # Arguments
    ///
    /// * `a` - The first number.
    /// * `b` - The second number.
    #[tool]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b + self.offset
    }

    /// Divides; fails on zero with a `ToolError`.
    #[tool]
    async fn divide(
        &self,
        a: i64,
        /// Must not be zero.
        b: i64,
    ) -> Result<i64, ToolError> {
        tokio::task::yield_now().await;
        a.checked_div(b)
            .ok_or_else(|| ToolError::execution("divide", "division by zero"))
    }

    /// Divides; fails on zero with an error of its own, which needs no self (the macro
    /// keeps clippy's `unused_self` quiet, as tools must take `&self`).
    #[tool]
    fn checked_divide(&self, a: i64, b: i64) -> Result<i64, DivisionByZero> {
        a.checked_div(b).ok_or(DivisionByZero)
    }

    /// Takes every kind of parameter; owned parameters that are only read do not trip
    /// clippy's `needless_pass_by_value`.
    #[tool(title = "Everything")]
    fn everything(
        &self,
        maybe: Option<u32>,
        #[arg(default)] count: u32,
        #[arg(flatten)] page: Page,
        #[arg(name = "type")] kind: String,
        texts: Vec<String>,
    ) -> Result<String, String> {
        if texts.is_empty() {
            return Err("give at least one text".to_owned());
        }
        Ok(format!(
            "{maybe:?}/{count}/{}/{kind}/{}",
            page.offset,
            texts.len()
        ))
    }

    /// Nothing at all.
    #[tool]
    fn nothing(&self) {}

    /// An ordinary public method, untouched by the macro.
    #[must_use]
    pub fn offset(&self) -> i64 {
        self.offset
    }
}

#[tokio::test]
async fn the_lint_clean_driver_works() {
    let calculator = Calculator { offset: 1 };
    assert_eq!(calculator.offset(), 1);
    assert_eq!(calculator.meta().version, "1.0.0");
    assert_eq!(calculator.list_tools().len(), 5);
    let sum = calculator
        .execute_tool("add", json!({ "a": 1, "b": 2 }))
        .await;
    assert_eq!(sum.unwrap(), 4);
    let zero = calculator
        .execute_tool("checked_divide", json!({ "a": 1, "b": 0 }))
        .await;
    assert!(zero.unwrap_err().to_string().contains("division by zero"));
    let everything = calculator
        .execute_tool(
            "everything",
            json!({ "offset": 3, "type": "t", "texts": ["a", "b"] }),
        )
        .await;
    assert_eq!(everything.unwrap(), "None/0/3/t/2");
}
