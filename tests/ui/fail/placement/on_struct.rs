// The attribute on a struct instead of an impl block is reported, saying where it goes.
#[mcs::tool_driver]
struct Files {
    root: String,
}

fn main() {}
