// `meta = "method"` gives the whole metadata; keys that set parts of it are errors, and the
// method must be named by an identifier.
struct Files {
    meta: mcs::DriverMeta,
}

#[mcs::tool_driver(meta = "driver_meta", name = "files", adapter = "local")]
impl Files {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }
}

impl Files {
    fn driver_meta(&self) -> &mcs::DriverMeta {
        &self.meta
    }
}

struct Other;

#[mcs::tool_driver(meta = "not a method")]
impl Other {
    /// Lists files.
    #[tool]
    fn list(&self) -> u32 {
        0
    }
}

fn main() {}
