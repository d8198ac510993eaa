// A doc attribute that is not a string literal cannot be read by the macro; reported on it.
struct Weather;

#[mcs::tool_driver]
impl Weather {
    #[doc = concat!("Current ", "temperature.")]
    #[tool]
    fn temperature(&self, city: String) -> f64 {
        city.len() as f64
    }
}

fn main() {}
