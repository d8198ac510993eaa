//! The `Driver` side for any `ToolDriver`: prompts out, model output in.
//!
//! [`process_llm_response`] is the whole machinery: find the calls ([`extract`]), keep the
//! ones this driver owns, validate their arguments against the tools' schemas
//! ([`validate`]), execute them, and answer with a [`DriverResponse`](mcs_core::DriverResponse) whose `messages` have
//! the shape of the provider that made the call. `#[mcs::hybrid]` calls it; so does
//! [`Hybrid`], which wraps any `ToolDriver` by hand.
//!
//! [`extract`]: mcs_extract
//! [`validate`]: mcs_core::validate
#![cfg_attr(docsrs, feature(doc_cfg))]

mod messages;
mod options;
mod outcome;
mod process;
pub mod prompt;
mod stream;

use std::sync::Arc;

use serde_json::Value;

use mcs_core::{DriverMeta, Tool, ToolDriver, ToolFuture};

pub use options::{HybridOptions, ParsePolicyError, UnknownToolPolicy};
pub use process::process_llm_response;
pub use stream::process_llm_stream;

/// The tool listing for clients that build their own prompt (the reference SDK's shape).
pub fn function_description<D: ToolDriver + ?Sized>(driver: &D, _model: Option<&str>) -> String {
    crate::prompt::function_description(&driver.list_tools())
}

/// The system prompt for `model`.
pub fn system_message<D: ToolDriver + ?Sized>(
    driver: &D,
    options: &HybridOptions,
    model: Option<&str>,
) -> String {
    options
        .prompts
        .system_message(&driver.meta().name, &driver.list_tools(), model)
}

/// Any `ToolDriver` made a hybrid driver: it keeps its tools and gains the `Driver` side.
#[derive(Debug)]
pub struct Hybrid<D> {
    inner: D,
    options: HybridOptions,
}

impl<D: ToolDriver> Hybrid<D> {
    /// Wraps `inner` with the default options.
    pub fn new(inner: D) -> Self {
        Hybrid {
            inner,
            options: HybridOptions::default(),
        }
    }

    /// Uses these options.
    #[must_use]
    pub fn with_options(mut self, options: HybridOptions) -> Self {
        self.options = options;
        self
    }

    /// The wrapped driver.
    pub fn inner(&self) -> &D {
        &self.inner
    }

    /// The options.
    pub fn options(&self) -> &HybridOptions {
        &self.options
    }
}

impl<D: ToolDriver> ToolDriver for Hybrid<D> {
    fn meta(&self) -> &DriverMeta {
        self.inner.meta()
    }

    fn list_tools(&self) -> Arc<[Tool]> {
        self.inner.list_tools()
    }

    fn execute_tool<'a>(&'a self, name: &'a str, arguments: Value) -> ToolFuture<'a> {
        self.inner.execute_tool(name, arguments)
    }

    fn tool_position(&self, name: &str) -> Option<usize> {
        self.inner.tool_position(name)
    }

    fn tool_tags(&self, name: &str) -> Vec<String> {
        self.inner.tool_tags(name)
    }

    fn tag_description(&self, tag: &str) -> Option<String> {
        self.inner.tag_description(tag)
    }

    fn watch_tools(&self, listener: mcs_core::ToolsListener) -> bool {
        self.inner.watch_tools(listener)
    }
}

crate::__hybrid_driver!([<D: ToolDriver>] Hybrid<D>, [], |this| &this.options);

/// Implements `Driver` for a [`ToolDriver`] the hybrid way — prompts from
/// [`system_message`], calls read, validated and run by [`process_llm_response`] and
/// [`process_llm_stream`] — given where its [`HybridOptions`] are:
///
/// ```text
/// __hybrid_driver!([<generics>] Type<..>, [where predicates], |this| options_of(this));
/// ```
///
/// The one `impl Driver` of `Hybrid`, `#[mcs::hybrid]`, REST drivers (generated or not) and
/// mcs-fs: what they share is written here once. Not a stable API.
#[doc(hidden)]
#[macro_export]
macro_rules! __hybrid_driver {
    ([$($generics:tt)*] $ty:ty, [$($bounds:tt)*], |$this:ident| $options:expr) => {
        #[automatically_derived]
        impl $($generics)* $crate::__private::Driver for $ty where $($bounds)* {
            fn get_function_description(
                &self,
                model: ::core::option::Option<&::core::primitive::str>,
            ) -> ::std::string::String {
                $crate::function_description(self, model)
            }

            fn get_driver_system_message(
                &self,
                model: ::core::option::Option<&::core::primitive::str>,
            ) -> ::std::string::String {
                #[allow(unused_variables)]
                let $this = self;
                $crate::system_message(self, $options, model)
            }

            fn process_llm_response<'__mcs>(
                &'__mcs self,
                response: $crate::__private::LlmResponse<'__mcs>,
            ) -> $crate::__private::BoxFuture<'__mcs, $crate::__private::DriverResponse> {
                #[allow(unused_variables)]
                let $this = self;
                ::std::boxed::Box::pin($crate::process_llm_response(self, $options, response))
            }

            fn process_llm_stream<'__mcs>(
                &'__mcs self,
                options: $crate::__private::StreamOptions,
            ) -> $crate::__private::DriverStream<'__mcs> {
                #[allow(unused_variables)]
                let $this = self;
                $crate::process_llm_stream(self, $options, options)
            }
        }
    };
}

/// What `__hybrid_driver!` refers to. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use mcs_core::stream::StreamOptions;
    pub use mcs_core::{BoxFuture, Driver, DriverResponse, DriverStream, LlmResponse};
}
