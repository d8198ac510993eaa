// The generated code names everything by absolute path, so it compiles in a module that
// shadows the prelude's types, variants and macros, and defines its own `core` and `std`.
// (The user's own signatures resolve in the user's scope, so they spell out `::std::...`;
// derives of serde and schemars do not survive such a module, so `Page` lives outside it.)
#![allow(dead_code, non_camel_case_types, unused_macros)]

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Page {
    offset: u32,
}

mod hostile {
    struct Result;
    struct Option;
    struct String;
    struct Box;
    struct Vec;
    struct Ok;
    struct Err;
    struct Some;
    struct None;
    struct Default;
    struct Send;
    struct Sync;
    struct Fn;
    struct Value;
    struct Arc;
    struct str;
    struct usize;
    trait Into {}
    trait From {}
    trait Future {}
    trait Display {}
    trait Serialize {}
    trait Deserialize {}
    trait JsonSchema {}
    mod core {}
    mod std {}
    mod serde {}
    mod serde_json {}
    mod schemars {}
    macro_rules! concat {
        () => {};
    }
    macro_rules! env {
        () => {};
    }
    macro_rules! module_path {
        () => {};
    }
    macro_rules! unreachable {
        () => {};
    }
    macro_rules! format {
        () => {};
    }
    macro_rules! panic {
        () => {};
    }

    pub struct Hostile;

    #[::mcs::tool_driver(spec_format = "none")]
    impl Hostile {
        /// Echoes a text.
        #[tool]
        fn echo(&self, text: ::std::string::String) -> ::std::string::String {
            text
        }

        /// Optional, defaulted and flattened parameters; an error type.
        #[tool]
        async fn mixed(
            &self,
            maybe: ::std::option::Option<u32>,
            #[arg(default)] count: u32,
            #[arg(flatten)] page: super::Page,
        ) -> ::std::result::Result<u32, ::std::string::String> {
            ::std::result::Result::Ok(maybe.unwrap_or(count) + page.offset)
        }

        /// An `std::error::Error` and a boxed error.
        #[tool]
        fn failing(&self) -> ::std::io::Result<()> {
            ::std::result::Result::Err(::std::io::Error::other("no"))
        }

        /// A boxed error.
        #[tool]
        fn boxed(
            &self,
        ) -> ::std::result::Result<
            (),
            ::std::boxed::Box<
                dyn ::std::error::Error + ::core::marker::Send + ::core::marker::Sync,
            >,
        > {
            ::std::result::Result::Ok(())
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    use mcs::ToolDriver;
    let driver = hostile::Hostile;
    assert_eq!(driver.list_tools().len(), 4);
    let echo = driver.execute_tool("echo", serde_json::json!({ "text": "hi" }));
    assert_eq!(echo.await.unwrap(), "hi");
    let mixed = driver.execute_tool("mixed", serde_json::json!({ "offset": 2 }));
    assert_eq!(mixed.await.unwrap(), 2);
    assert!(
        driver
            .execute_tool("failing", serde_json::Value::Null)
            .await
            .is_err()
    );
}
