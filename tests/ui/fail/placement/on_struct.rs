// The attribute on a struct instead of an impl block is reported on the struct, saying
// where it goes; the struct is kept, so its uses add no errors.
#[mcs::tool_driver]
struct Files {
    root: String,
}

fn main() {
    let files = Files {
        root: String::new(),
    };
    let _ = files.root;
}
