//! The drivers generated from `../shared/specs` (see `build.rs`). The crate exists to be
//! compiled, linted and tested: its tests check what the generated drivers list.
#![cfg(shared_specs)]
#![deny(warnings)]

mcs::include_driver!("xkcd.rs");
mcs::include_driver!("openai.rs");
mcs::include_driver!("spotify.rs");
mcs::include_driver!("slack.rs");
mcs::include_driver!("gitlab.rs");
mcs::include_driver!("vercel.rs");
/// The same documents typed all the way (`typed_requests`, `typed_responses`), with
/// argument structs that also read from JSON.
#[allow(deprecated)]
pub mod typed {
    mcs::include_driver!("xkcd_typed.rs");
    mcs::include_driver!("openai_typed.rs");
    mcs::include_driver!("spotify_typed.rs");
    mcs::include_driver!("slack_typed.rs");
    mcs::include_driver!("gitlab_typed.rs");
    mcs::include_driver!("vercel_typed.rs");
    #[cfg(github_spec)]
    mcs::include_driver!("github_typed.rs");
}

/// Each typed driver's calls by tool name (see build.rs): what the typed conformance test
/// calls every operation through.
#[allow(deprecated)]
pub mod typed_calls {
    include!(concat!(env!("OUT_DIR"), "/xkcd_typed_calls.rs"));
    include!(concat!(env!("OUT_DIR"), "/openai_typed_calls.rs"));
    include!(concat!(env!("OUT_DIR"), "/spotify_typed_calls.rs"));
    include!(concat!(env!("OUT_DIR"), "/slack_typed_calls.rs"));
    include!(concat!(env!("OUT_DIR"), "/gitlab_typed_calls.rs"));
    include!(concat!(env!("OUT_DIR"), "/vercel_typed_calls.rs"));
    #[cfg(github_spec)]
    include!(concat!(env!("OUT_DIR"), "/github_typed_calls.rs"));
}

/// How one typed call went.
#[derive(Debug)]
pub enum TypedOutcome {
    /// The JSON arguments did not read into the argument struct.
    Arguments(String),
    /// A 2xx answer, decoded into the operation's response type.
    Answered(u16),
    /// A failing status the document describes, decoded into its type.
    Failed(u16),
    /// An answer that did not decode as the document says.
    Unexpected {
        /// The status.
        status: u16,
        /// What did not match, and where.
        reason: String,
        /// The body, as text.
        body: String,
    },
    /// No answer (the request could not be built or sent).
    Call(String),
}

/// Reads `arguments` into `A` and makes the typed call `call` with them.
pub async fn typed_outcome<A, T, E, F, Fut>(
    arguments: mcs::serde_json::Value,
    call: F,
) -> TypedOutcome
where
    A: for<'de> mcs::serde::Deserialize<'de>,
    F: FnOnce(&A) -> Fut,
    Fut: std::future::Future<Output = mcs::rest::Answered<T, E>>,
{
    let arguments: A = match mcs::serde_json::from_value(arguments) {
        Ok(arguments) => arguments,
        Err(error) => return TypedOutcome::Arguments(error.to_string()),
    };
    match call(&arguments).await {
        Ok(response) => TypedOutcome::Answered(response.status),
        Err(mcs::rest::ApiError::Status(response)) => TypedOutcome::Failed(response.status),
        Err(mcs::rest::ApiError::Unexpected {
            status,
            reason,
            body,
            ..
        }) => TypedOutcome::Unexpected {
            status,
            reason,
            body: String::from_utf8_lossy(&body).into_owned(),
        },
        Err(other) => TypedOutcome::Call(other.to_string()),
    }
}

// GitHub's whole REST API, generated only with `MCS_GITHUB=1` (see build.rs).
#[cfg(github_spec)]
mcs::include_driver!("github.rs");

#[cfg(test)]
mod tests {
    use mcs::ToolDriver;

    #[test]
    fn every_operation_is_a_tool_with_a_self_contained_schema() {
        let drivers: [(&dyn ToolDriver, usize); 6] = [
            (&super::Xkcd::new(), 2),
            (&super::OpenAi::new(), 28),
            (&super::Spotify::new(), 88),
            (&super::Slack::new(), 174),
            (&super::Gitlab::new(), 358),
            (&super::Vercel::new(), 113),
        ];
        for (driver, operations) in drivers {
            let tools = driver.list_tools();
            assert_eq!(tools.len(), operations, "{}", driver.meta().name);
            for tool in tools.iter() {
                let schema = tool.input_schema().to_string();
                assert!(
                    !schema.contains("#/components/"),
                    "{}: {} keeps a reference into the document",
                    driver.meta().name,
                    tool.name()
                );
            }
        }
    }
}
