"""Drives an MCP server with the official Python SDK's client and prints what it saw, as JSON.

    python client.py TARGET [MODE]

TARGET is a command to start (stdio) or a streamable-HTTP URL; MODE is the SDK's
`auto` (probe the 2026-07-28 protocol, fall back to the initialize handshake) or `legacy`.
Used by mcs-mcp/tests/python_peers.rs against the mcs example server.
"""

import asyncio
import json
import shlex
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main():
    target = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "auto"
    if target.startswith("http"):
        server = target
    else:
        command, *args = shlex.split(target)
        server = StdioServerParameters(command=command, args=args)
    seen = {}
    async with Client(server, mode=mode) as client:
        seen["protocol"] = client.session.protocol_version
        seen["tools"] = [dump(tool) for tool in (await client.list_tools()).tools]
        calls = {
            "added": ("add_task", {"title": "Buy milk", "priority": "high"}),
            "listed": ("list_tasks", {"min_priority": "normal"}),
            "wrong": ("add_task", {"title": "Buy milk", "priority": "urgent"}),
            "missing": ("complete_task", {}),
            "converted": ("celsius_to_fahrenheit", {"celsius": 100}),
            "unknown": ("no_such_tool", {}),
        }
        for key, (name, arguments) in calls.items():
            try:
                seen[key] = dump(await client.call_tool(name, arguments))
            except Exception as error:  # a protocol error, which the test reports
                seen[key] = {"raised": f"{type(error).__name__}: {error}"}
    print(json.dumps(seen))


asyncio.run(main())
