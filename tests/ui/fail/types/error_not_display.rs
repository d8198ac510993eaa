// A `Result` whose error type is not `Display` is reported on the return type.
#[derive(Debug)]
struct Oops;

struct Geo;

#[mcs::tool_driver]
impl Geo {
    /// May fail.
    #[tool]
    fn risky(&self) -> Result<u32, Oops> {
        Err(Oops)
    }
}

fn main() {}
