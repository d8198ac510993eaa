// `tag("...", "...")` on the driver takes two non-empty strings, once per tag, for a tag some
// tool has; each mistake is reported on its token (one driver per mistake: the attribute's
// parser stops at its first error).

struct NotCalled;

#[mcs::tool_driver(tag = "pets")]
impl NotCalled {
    /// Lists pets.
    #[tool(tags = ["pets", "orders"])]
    fn list_pets(&self) -> u32 {
        0
    }
}

struct OneString;

#[mcs::tool_driver(tag("pets"))]
impl OneString {
    /// Lists pets.
    #[tool(tags = ["pets", "orders"])]
    fn list_pets(&self) -> u32 {
        0
    }
}

struct NotAString;

#[mcs::tool_driver(tag(pets, "Animals"))]
impl NotAString {
    /// Lists pets.
    #[tool(tags = ["pets", "orders"])]
    fn list_pets(&self) -> u32 {
        0
    }
}

struct EmptyTag;

#[mcs::tool_driver(tag("", "Nothing"))]
impl EmptyTag {
    /// Lists pets.
    #[tool(tags = ["pets", "orders"])]
    fn list_pets(&self) -> u32 {
        0
    }
}

struct EmptyDescription;

#[mcs::tool_driver(tag("pets", " "))]
impl EmptyDescription {
    /// Lists pets.
    #[tool(tags = ["pets", "orders"])]
    fn list_pets(&self) -> u32 {
        0
    }
}

struct Twice;

#[mcs::tool_driver(tag("pets", "Animals for sale."), tag("pets", "Animals, again."))]
impl Twice {
    /// Lists pets.
    #[tool(tags = ["pets", "orders"])]
    fn list_pets(&self) -> u32 {
        0
    }
}

struct Unknown;

#[mcs::tool_driver(tag("billing", "Invoices."))]
impl Unknown {
    /// Lists pets.
    #[tool(tags = ["pets", "orders"])]
    fn list_pets(&self) -> u32 {
        0
    }
}

struct NoTags;

#[mcs::tool_driver(tag("pets", "Animals."))]
impl NoTags {
    /// Lists pets.
    #[tool]
    fn list_pets(&self) -> u32 {
        0
    }
}

fn main() {}
