// An associated function without `self` cannot be a tool; the error is on its name.
struct Clock;

#[mcs::tool_driver]
impl Clock {
    /// The current hour.
    #[tool]
    fn hour() -> u32 {
        12
    }
}

fn main() {}
