// A return type without `Serialize` is reported on the return type.
struct Point {
    x: f64,
}

struct Geo;

#[mcs::tool_driver]
impl Geo {
    /// Makes a point.
    #[tool]
    fn origin(&self) -> Point {
        Point { x: 0.0 }
    }
}

fn main() {}
