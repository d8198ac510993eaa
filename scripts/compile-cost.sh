#!/usr/bin/env bash
# Debug compile time of generated drivers: for each document, the generated module in a
# scratch crate whose dependencies are already built (touch + rebuild without incremental
# caches, best of 3), measured twice:
#   library — the module alone, as a library including it compiles it;
#   all used — plus one function calling every typed method, so that every argument
#              struct's serialization and every call is compiled too (the worst case).
# Usage: scripts/compile-cost.sh [SPEC...]   (default: every document in ../shared/specs)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work="$repo/target/compile-cost"
mkdir -p "$work/src"
mkdir -p "$work/.cargo" && cp scripts/cargo-default-profile.toml "$work/.cargo/config.toml"
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(../shared/specs/*.json)

cargo build -q --release -p mcs-codegen --bin mcs-codegen
cat > "$work/Cargo.toml" <<TOML
[package]
name = "compile-cost"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
mcs = { path = "$repo", default-features = false, features = ["rest"] }
[workspace]
TOML
echo "pub fn placeholder() {}" > "$work/src/lib.rs"
(cd "$work" && CARGO_TARGET_DIR="$work/target" cargo build -q)

source scripts/timing.sh
# The best of three clean (non-incremental) rebuilds of the crate.
best_build() {
  best_of 3 bash -c "touch '$work/src/lib.rs' && cd '$work' && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR='$work/target' cargo build -q"
}

printf '%-22s %5s %9s %9s %10s %9s\n' document ops library 's/100ops' 'all used' 's/100ops'
for spec in "${specs[@]}"; do
  "$repo/target/release/mcs-codegen" generate "$spec" --lenient -o "$work/src/driver.rs" 2>/dev/null
  ops=$(grep -c '^ *Operation {' "$work/src/driver.rs" || true)
  driver=$(sed -n 's/^pub use [a-z0-9_]*::\([A-Za-z0-9_]*\);$/\1/p' "$work/src/driver.rs")
  printf 'include!("driver.rs");\n' > "$work/src/lib.rs"
  library=$(best_build)
  {
    printf '#![allow(deprecated)]\ninclude!("driver.rs");\n/// Every typed method, called.\npub async fn all(d: &%s) {\n' "$driver"
    # Each argument struct's doc names its typed method: "The arguments of [`Driver::method`]".
    grep -oE 'The arguments of \[`[A-Za-z0-9_]+::[A-Za-z0-9_#]+`\]' "$work/src/driver.rs" \
      | sed -E 's/.*::([A-Za-z0-9_#]+)`\]/    let _ = d.\1(\&Default::default()).await;/'
    printf '}\n'
  } > "$work/src/lib.rs"
  used=$(best_build)
  printf '%-22s %5s %9.2f %9.2f %10.2f %9.2f\n' "$(basename "$spec")" "$ops" "$library" \
    "$(echo "$library * 100 / $ops" | bc -l)" "$used" "$(echo "$used * 100 / $ops" | bc -l)"
done
