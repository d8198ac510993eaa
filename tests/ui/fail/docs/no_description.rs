// A tool with neither a doc comment nor a title is reported on the method's name.
struct Files;

#[mcs::tool_driver]
impl Files {
    #[tool]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
