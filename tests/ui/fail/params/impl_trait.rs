// An `impl Trait` parameter is rejected on the type.
struct Greeter;

#[mcs::tool_driver]
impl Greeter {
    /// Says hello.
    #[tool]
    fn hello(&self, name: impl std::fmt::Display) -> String {
        format!("hello {name}")
    }
}

fn main() {}
