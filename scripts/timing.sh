# Sourced by the timing scripts (compare-progenitor.sh, compile-cost.sh, openapi-directory.sh).
now() { date +%s.%N; }
# best_of N command...: the least wall time of N runs, in seconds (empty if a run fails).
best_of() {
  local n=$1 best="" start t
  shift
  for _ in $(seq "$n"); do
    start=$(now)
    "$@" >/dev/null 2>&1 || return 1
    t=$(echo "$(now) - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}
# mcs_crate DIR NAME: a scratch crate at DIR depending on this repository's mcs (feature
# http, reqwest as progenitor has), built with Cargo's default dev profile
# (cargo-default-profile.toml); its src/ is the caller's to fill. Needs $repo.
mcs_crate() {
  local dir=$1 name=$2
  mkdir -p "$dir/src" "$dir/.cargo"
  cp "$repo/scripts/cargo-default-profile.toml" "$dir/.cargo/config.toml"
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
mcs = { package = "model-context-standard", path = "$repo", default-features = false, features = ["http"] }
[workspace]
TOML
}
