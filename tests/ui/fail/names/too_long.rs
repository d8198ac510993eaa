// A tool name longer than 64 characters is reported on the name literal.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool(name = "list_every_single_file_in_the_directory_tree_recursively_and_sorted")]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
