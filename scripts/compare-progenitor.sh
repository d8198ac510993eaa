#!/usr/bin/env bash
# mcs-codegen and progenitor (cargo-progenitor), side by side in one run:
#   1. which real documents each generator accepts: ../shared/specs and GitHub's description;
#   2. generation time on the documents both accept (the petstore example and synthetic
#      documents of 100, 500 and 1,000 operations from scripts/synthetic-openapi.py): each
#      CLI from start to written output, best of 5, and the ratio;
#   3. debug compile time of the generated code, the crate alone with its dependencies
#      prebuilt (touch + non-incremental rebuild, best of $ROUNDS, default 3), per 100
#      operations, and the ratio;
#   3b. the same with mcs's types on: arguments typed (--typed-requests), and arguments and
#      answers typed (--typed-responses too), against progenitor's, which always types both;
#   4. peak RSS of generation (GNU time): GitHub's description, and the 1,000-operation one.
# Installs what it needs: cargo-progenitor 0.15.1 into target/tools, the npm packages of
# tests/conformance (GitHub's description). Figures go to BENCHMARKS.md by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work="$repo/target/compare-progenitor"
rounds=${ROUNDS:-3}
tools="$repo/target/tools/progenitor"
progenitor="$tools/bin/cargo-progenitor"
github="$repo/tests/conformance/node_modules/@octokit/openapi/generated/api.github.com.json"
[ -x "$progenitor" ] || cargo install cargo-progenitor --version 0.15.1 --locked --root "$tools"
[ -f "$github" ] || npm ci --prefix tests/conformance --no-audit --no-fund --ignore-scripts
cargo build -q --release -p mcs-codegen --bin mcs-codegen
mcs="$repo/target/release/mcs-codegen"
mkdir -p "$work/docs"
mkdir -p "$work/.cargo" && cp scripts/cargo-default-profile.toml "$work/.cargo/config.toml"

# best_of N command...: from scripts/timing.sh.
source scripts/timing.sh
gen_mcs() { "$mcs" generate "$1" --lenient -o "$2" "${@:3}"; }
gen_progenitor() { rm -rf "$2"; "$progenitor" progenitor -i "$1" -o "$2" -n "$3" -v 0.1.0; }

echo "== 1. real documents accepted"
printf '%-24s %-10s %s\n' document mcs progenitor
for doc in ../shared/specs/*.json "$github"; do
  name=$(basename "$doc")
  if gen_mcs "$doc" "$work/mcs-real.rs" >/dev/null 2>&1; then m=yes; else m=no; fi
  if out=$(gen_progenitor "$doc" "$work/pg-real" pg-real 2>&1); then
    p=yes
  else
    if echo "$out" | grep -q 'panicked at'; then
      p="no, panics: $(echo "$out" | grep -A1 'panicked at' | tail -1 | cut -c1-100)"
    else
      p="no: $(echo "$out" | grep -v '^ *at \|^ *[0-9]*: \|^$\|backtrace\|^Error: generation' | head -1 | cut -c1-100)"
    fi
  fi
  printf '%-24s %-10s %s\n' "$name" "$m" "$p"
done

cp examples/petstore/petstore.yaml "$work/docs/petstore.yaml"
for n in 100 500 1000; do python3 scripts/synthetic-openapi.py "$n" > "$work/docs/synthetic-$n.json"; done
docs=("$work/docs/petstore.yaml" "$work/docs/synthetic-100.json" "$work/docs/synthetic-500.json" "$work/docs/synthetic-1000.json")

echo
echo "== 2. generation time, best of 5 (seconds)"
printf '%-22s %5s %9s %11s %7s\n' document ops mcs progenitor ratio
for doc in "${docs[@]}"; do
  name=$(basename "$doc")
  ops=$("$mcs" tools "$doc" | sed -n 's/.* — \([0-9]*\) tools$/\1/p')
  m=$(best_of 5 gen_mcs "$doc" "$work/mcs-gen.rs")
  p=$(best_of 5 gen_progenitor "$doc" "$work/pg-gen" pg-gen)
  printf '%-22s %5s %9.3f %11.3f %7.1f\n' "$name" "$ops" "$m" "$p" "$(echo "$p / $m" | bc -l)"
done

echo
echo "== 3. debug compile time of the generated crate alone, deps prebuilt, best of $rounds"
# mcs: the generated module in a crate depending on mcs (http: reqwest as progenitor has).
mcs_crate "$work/mcs-crate" mcs-crate
build_time() { # crate dir, target dir: the best of $rounds touch + rebuilds
  local dir=$1 target=$2
  (cd "$dir" && CARGO_TARGET_DIR="$target" cargo build -q 2>/dev/null)
  best_of "$rounds" bash -c "touch '$dir/src/lib.rs' && cd '$dir' && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR='$target' cargo build -q"
}
printf '%-22s %5s %9s %9s %11s %9s %7s\n' document ops mcs 's/100ops' progenitor 's/100ops' ratio
for doc in "${docs[@]}"; do
  name=$(basename "$doc")
  ops=$("$mcs" tools "$doc" | sed -n 's/.* — \([0-9]*\) tools$/\1/p')
  gen_mcs "$doc" "$work/mcs-crate/src/driver.rs" >/dev/null 2>&1
  printf 'include!("driver.rs");\n' > "$work/mcs-crate/src/lib.rs"
  m=$(build_time "$work/mcs-crate" "$work/target-mcs")
  gen_progenitor "$doc" "$work/pg-crate" pg-crate >/dev/null 2>&1
  printf '\n[workspace]\n' >> "$work/pg-crate/Cargo.toml"
  p=$(build_time "$work/pg-crate" "$work/target-progenitor")
  printf '%-22s %5s %9.2f %9.2f %11.2f %9.2f %7.1f\n' "$name" "$ops" "$m" \
    "$(echo "$m * 100 / $ops" | bc -l)" "$p" "$(echo "$p * 100 / $ops" | bc -l)" "$(echo "$p / $m" | bc -l)"
done

echo
echo "== 3b. mcs with types, the same way (progenitor as above: it always types both)"
printf '%-22s %5s %11s %9s %13s %9s %17s\n' document ops requests 's/100ops' 'req+answers' 's/100ops' 'progenitor/typed'
for doc in "${docs[@]}"; do
  name=$(basename "$doc")
  ops=$("$mcs" tools "$doc" | sed -n 's/.* — \([0-9]*\) tools$/\1/p')
  gen_mcs "$doc" "$work/mcs-crate/src/driver.rs" --typed-requests >/dev/null 2>&1
  r=$(build_time "$work/mcs-crate" "$work/target-mcs")
  gen_mcs "$doc" "$work/mcs-crate/src/driver.rs" --typed-requests --typed-responses >/dev/null 2>&1
  t=$(build_time "$work/mcs-crate" "$work/target-mcs")
  gen_progenitor "$doc" "$work/pg-crate" pg-crate >/dev/null 2>&1
  printf '\n[workspace]\n' >> "$work/pg-crate/Cargo.toml"
  p=$(build_time "$work/pg-crate" "$work/target-progenitor")
  printf '%-22s %5s %11.2f %9.2f %13.2f %9.2f %17.1f\n' "$name" "$ops" "$r" \
    "$(echo "$r * 100 / $ops" | bc -l)" "$t" "$(echo "$t * 100 / $ops" | bc -l)" "$(echo "$p / $t" | bc -l)"
done

echo
echo "== 4. peak RSS of generation (GNU time)"
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
echo "mcs, GitHub's description: $(rss "$mcs" generate "$github" --lenient -o "$work/mcs-gh.rs") KiB"
echo "mcs, synthetic-1000: $(rss "$mcs" generate "$work/docs/synthetic-1000.json" -o "$work/mcs-1000.rs") KiB"
rm -rf "$work/pg-1000"
echo "progenitor, synthetic-1000: $(rss "$progenitor" progenitor -i "$work/docs/synthetic-1000.json" -o "$work/pg-1000" -n pg-1000 -v 0.1.0) KiB"
