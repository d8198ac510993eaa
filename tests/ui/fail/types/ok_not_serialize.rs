// In `Result<T, E>`, a `T` without `Serialize` is reported on `T`.
struct Point {
    x: f64,
}

struct Geo;

#[mcs::tool_driver]
impl Geo {
    /// Makes a point.
    #[tool]
    fn origin(&self) -> Result<Point, String> {
        Ok(Point { x: 0.0 })
    }
}

fn main() {}
