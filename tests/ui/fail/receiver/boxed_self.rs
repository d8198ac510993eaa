// A typed receiver such as `self: Box<Self>` is rejected: tools take plain `&self`.
struct Clock;

#[mcs::tool_driver]
impl Clock {
    /// The current hour.
    #[tool]
    fn hour(self: Box<Self>) -> u32 {
        12
    }
}

fn main() {}
