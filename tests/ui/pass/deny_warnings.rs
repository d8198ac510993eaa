//! A consumer crate that denies warnings and undocumented public items: the generated code
//! adds nothing that a lint could complain about.
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

/// A public, documented driver.
#[derive(Debug, Default)]
pub struct Calculator {
    /// Added to every result.
    pub offset: i64,
}

/// Paging options.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Page {
    /// Where to start.
    pub offset: u32,
}

#[mcs::tool_driver(name = "calculator", version = "1.0.0")]
impl Calculator {
    /// Adds two numbers.
    ///
    /// # Arguments
    ///
    /// * `a` - The first number.
    /// * `b` - The second number.
    #[tool]
    pub fn add(&self, a: i64, b: i64) -> i64 {
        a + b + self.offset
    }

    /// Divides, failing on zero.
    #[tool]
    pub async fn divide(
        &self,
        a: i64,
        /// Must not be zero.
        b: i64,
    ) -> Result<i64, ToolError> {
        if b == 0 {
            return Err(ToolError::execution("divide", "division by zero"));
        }
        Ok(a / b)
    }

    /// Takes every kind of parameter.
    #[tool(title = "Everything")]
    pub fn everything(
        &self,
        maybe: Option<u32>,
        #[arg(default)] count: u32,
        #[arg(flatten)] page: Page,
        #[arg(name = "type")] kind: String,
    ) -> Result<String, std::io::Error> {
        Ok(format!("{maybe:?}{count}{}{kind}", page.offset))
    }

    /// Nothing at all.
    #[tool]
    pub fn nothing(&self) {}

    /// An ordinary public method.
    #[must_use]
    pub fn offset(&self) -> i64 {
        self.offset
    }
}

fn main() {
    let calculator = Calculator::default();
    assert_eq!(calculator.offset(), 0);
    assert_eq!(calculator.list_tools().len(), 4);
    assert_eq!(calculator.meta().version, "1.0.0");
}
