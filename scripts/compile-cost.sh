#!/usr/bin/env bash
# Debug compile time of generated drivers: for each document, the generated module alone in
# a scratch crate whose dependencies are already built (touch + rebuild, best of 3).
# Usage: scripts/compile-cost.sh [SPEC...]   (default: every document in ../shared/specs)
# Prints: document, operations, seconds, seconds per 100 operations.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work="$repo/target/compile-cost"
mkdir -p "$work/src"
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

printf '%-22s %6s %8s %10s\n' document ops seconds 's/100ops'
for spec in "${specs[@]}"; do
  "$repo/target/release/mcs-codegen" generate "$spec" --lenient -o "$work/src/driver.rs" 2>/dev/null
  ops=$(grep -c '^ *Operation {' "$work/src/driver.rs" || true)
  printf 'include!("driver.rs");\n' > "$work/src/lib.rs"
  best=""
  for _ in 1 2 3; do
    touch "$work/src/lib.rs"
    start=$(date +%s.%N)
    (cd "$work" && CARGO_TARGET_DIR="$work/target" cargo build -q)
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  per=$(echo "scale=2; $best * 100 / $ops" | bc)
  printf '%-22s %6s %8.2f %10s\n' "$(basename "$spec")" "$ops" "$best" "$per"
done
