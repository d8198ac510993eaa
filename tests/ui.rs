//! Compile-time behaviour of `#[mcs::tool_driver]`: what it rejects (with the reviewed
//! diagnostics in `tests/ui/fail/**/*.stderr`) and what it accepts.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
