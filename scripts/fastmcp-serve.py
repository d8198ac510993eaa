#!/usr/bin/env python3
"""FastMCP's OpenAPI server over stdio, as its documentation writes one: the side of
scripts/compare-fastmcp.py that is not ours.

    fastmcp-serve.py SPEC [BASE_URL]

SPEC is a JSON or YAML file; BASE_URL defaults to the document's first server.
"""
import json
import sys

import httpx2
import yaml
from fastmcp import FastMCP


def credentials(spec: dict) -> tuple[dict, dict]:
    """The credentials a FastMCP user would put on the client for the document's security
    schemes (FastMCP does not apply them itself), with the values `mcs serve` is given by
    scripts/compare-fastmcp.py: `t0k3n`, `k3y`, `u:p`."""
    headers: dict[str, str] = {}
    params: dict[str, str] = {}
    schemes = (spec.get("components") or {}).get("securitySchemes") or {}
    for scheme in schemes.values():
        kind = scheme.get("type")
        if kind == "http" and str(scheme.get("scheme", "")).lower() == "basic":
            headers.setdefault("Authorization", "Basic dTpw")
        elif kind in ("http", "oauth2", "openIdConnect"):
            headers.setdefault("Authorization", "Bearer t0k3n")
        elif kind == "apiKey" and scheme.get("in") == "header":
            headers.setdefault(scheme.get("name", "X-API-Key"), "k3y")
        elif kind == "apiKey" and scheme.get("in") == "query":
            params.setdefault(scheme.get("name", "api_key"), "k3y")
    return headers, params


def main() -> None:
    path = sys.argv[1]
    with open(path, encoding="utf-8") as file:
        text = file.read()
    spec = json.loads(text) if path.endswith(".json") else yaml.safe_load(text)
    servers = spec.get("servers") or [{}]
    base = sys.argv[2] if len(sys.argv) > 2 else servers[0].get("url", "http://localhost")
    headers, params = credentials(spec)
    client = httpx2.AsyncClient(base_url=base, timeout=30, headers=headers, params=params)
    server = FastMCP.from_openapi(spec, client=client, name="openapi")
    server.run(show_banner=False) if "show_banner" in server.run.__code__.co_varnames else server.run()


if __name__ == "__main__":
    main()
