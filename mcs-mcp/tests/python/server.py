"""An MCP server written with the official Python SDK's `MCPServer`, for mcs-mcp's tests.

    python server.py            # over stdio
    python server.py http PORT  # over streamable HTTP at http://127.0.0.1:PORT/mcp
"""
import sys
from typing import Literal
from pydantic import BaseModel
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

app = MCPServer("python-peer")

class Point(BaseModel):
    x: float
    y: float

class Forecast(BaseModel):
    city: str
    days: int
    temperatures: list[float]

@app.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b

@app.tool()
def forecast(city: str, days: int = 3, units: Literal["celsius", "fahrenheit"] = "celsius") -> Forecast:
    """A made-up forecast for a city."""
    base = 20.0 if units == "celsius" else 68.0
    return Forecast(city=city, days=days, temperatures=[base + i for i in range(days)])

@app.tool()
def centroid(points: list[Point]) -> Point:
    """The centroid of some points."""
    n = len(points)
    return Point(x=sum(p.x for p in points) / n, y=sum(p.y for p in points) / n)

@app.tool()
def fail(reason: str) -> str:
    """Always fails, with the reason given."""
    raise ToolError(f"failed on purpose: {reason}")

@app.prompt()
def review(code: str, language: str = "rust") -> str:
    """Asks for a review of some code."""
    return f"Review this {language} code:\n\n{code}"

@app.resource("notes://today")
def today() -> str:
    """Today's notes."""
    return "Buy milk. Call Ana."

if __name__ == "__main__":
    transport = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if transport == "stdio":
        app.run("stdio")
    else:
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
