//! Generates the Petstore driver from the vendored document at build time.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    mcs_codegen::Generator::new("petstore.yaml")
        .driver_name("Petstore")
        .write_to_out_dir("petstore.rs")?;
    Ok(())
}
