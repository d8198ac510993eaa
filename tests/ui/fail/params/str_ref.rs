// A borrowed `&str` parameter is rejected on the type, suggesting `String`.
struct Greeter;

#[mcs::tool_driver]
impl Greeter {
    /// Says hello.
    #[tool]
    fn hello(&self, name: &str) -> String {
        format!("hello {name}")
    }
}

fn main() {}
