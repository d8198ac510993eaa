// A `# Arguments` entry naming no parameter is reported.
struct Weather;

#[mcs::tool_driver]
impl Weather {
    /// Current temperature.
    ///
    /// # Arguments
    ///
    /// * `city` - The city.
    /// * `country` - The country.
    #[tool]
    fn temperature(&self, city: String) -> f64 {
        city.len() as f64
    }
}

fn main() {}
