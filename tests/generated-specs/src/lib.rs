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
