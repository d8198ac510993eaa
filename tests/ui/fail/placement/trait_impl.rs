// The attribute on a trait impl is reported on the trait's path.
struct Files;

trait Lister {
    fn list(&self) -> u32;
}

#[mcs::tool_driver]
impl Lister for Files {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
