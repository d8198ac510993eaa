// A method name longer than 64 characters is reported on the name, suggesting a rename.
struct Files;

#[mcs::tool_driver]
impl Files {
    /// Lists files.
    #[tool]
    fn list_every_single_file_in_the_directory_tree_recursively_and_sorted(&self) -> u32 {
        0
    }
}

fn main() {}
